// The start card: on a first visit, three ways in (lesson 1, a scenario,
// your own trace). Any choice or the close button dismisses it, and the
// browser remembers (localStorage) so it is not shown again.
import { useState } from 'react';
import { lessonsFor } from '../lessons/mount';
import { useStore } from './hooks';

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
    el?.scrollIntoView({ block: 'center' });
    el?.focus();
  };
  return (
    <section className="start-card" aria-labelledby="start-h" data-testid="start-card">
      <h2 id="start-h">New to SLUB? Three ways in</h2>
      <p>
        slubviz runs a model of the Linux kernel's slab allocator step by step: every step is one small move of the real{' '}
        <code>mm/slub.c</code>, drawn as it happens.
      </p>
      <div className="start-choices">
        <button type="button" className="primary" onClick={() => void lesson1()}>
          Start lesson 1
          <span className="small">what a cache, a slab and an object are</span>
        </button>
        <button type="button" onClick={() => focus('select[aria-label="Scenario"]')}>
          Pick a scenario
          <span className="small">a ready-made trace: press Step (→) to watch it run</span>
        </button>
        <button type="button" onClick={() => focus('[data-panel=traces] input[type=file]')}>
          Bring your own trace
          <span className="small">an ftrace, perf or bpftrace log of kmalloc/kfree</span>
        </button>
      </div>
      <button type="button" className="start-close" aria-label="Close the start card" onClick={close}>
        ×
      </button>
    </section>
  );
}
