// The start card: on a first visit, three ways in (lesson 1, a scenario,
// your own trace). Any choice or the close button dismisses it, and the
// browser remembers (localStorage) so it is not shown again.
import { useState } from 'react';
import { lessonsFor } from '../lessons/mount';
import { useStore } from './hooks';
import { t } from '../i18n';
import { useT } from '../i18n/hooks';

export const START_KEY = 'slubviz.start-card';

function seen(): boolean {
  try {
    return localStorage.getItem(START_KEY) === 'dismissed';
  } catch {
    return false; // storage blocked: show it, it closes for this page
  }
}

function remember(): void {
  try {
    localStorage.setItem(START_KEY, 'dismissed');
  } catch {
    /* storage blocked: dismissed for this page only */
  }
}

export function StartCard() {
  useT();
  const store = useStore();
  const [open, setOpen] = useState(() => !seen());
  if (!open) return null;
  const close = () => {
    remember();
    setOpen(false);
  };
  const lesson1 = async () => {
    close();
    const index = JSON.parse(await store.env.fetchText('lessons/index.json')) as { lessons: { id: string }[] };
    const first = index.lessons[0]?.id;
    if (first) await lessonsFor(store).openLink({ lesson: first });
  };
  const focus = (sel: string) => {
    close();
    const el = document.querySelector<HTMLElement>(sel);
    // a panel's field: the panel from its heading, below the sticky bar
    // (styles.css: scroll-margin-top)
    const panel = el?.closest<HTMLElement>('[data-panel]');
    if (panel) {
      panel.scrollIntoView({ block: 'start' });
      el?.focus({ preventScroll: true });
    } else {
      el?.scrollIntoView({ block: 'center' });
      el?.focus();
    }
  };
  return (
    <section className="start-card" aria-labelledby="start-h" data-testid="start-card">
      <h2 id="start-h">{t('start.title')}</h2>
      <p>
        {/* the kernel file stays code, wherever the language puts it */}
        {t('start.intro').split('{file}').map((part, i) => (
          <span key={i}>
            {i > 0 && <code>mm/slub.c</code>}
            {part}
          </span>
        ))}
      </p>
      <div className="start-choices">
        <button type="button" className="primary" onClick={() => void lesson1()}>
          {t('start.lesson')}
          <span className="small">{t('start.lessonSub')}</span>
        </button>
        <button type="button" onClick={() => focus('[data-testid=scenario-picker]')}>
          {t('start.scenario')}
          <span className="small">{t('start.scenarioSub')}</span>
        </button>
        <button type="button" onClick={() => focus('[data-panel=traces] input[type=file]')}>
          {t('start.own')}
          <span className="small">{t('start.ownSub')}</span>
        </button>
      </div>
      <button type="button" className="start-close" aria-label={t('start.close')} onClick={close}>
        ×
      </button>
    </section>
  );
}
