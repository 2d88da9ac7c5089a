// The legend box, closed until someone opens it. Its body (LegendBody.tsx,
// every glyph drawn as the renderers draw it) is a chunk of its own, out of
// the main one; main.tsx loads it beside the first run, so the first render
// draws it like the rest of the page (what is drawn never depends on when
// a chunk arrived). Should that load fail, the box tries again when it mounts.
import { useEffect, useState } from 'react';
import './reading.css';
import { t } from '../i18n';
import { chunk } from './chunk';

const body = chunk(() => import('./LegendBody'));

/** The body's code, once (a failed load is tried again next time). */
export function loadLegend(): Promise<void> {
  return body.load();
}

export function Legend() {
  const [, arrived] = useState(0);
  useEffect(() => {
    if (!body.get()) body.load().then(() => arrived((n) => n + 1), () => undefined);
  }, []);
  const Body = body.get()?.default;
  return (
    <details className="legend-box" data-panel="legend" data-testid="legend">
      <summary>{t('legend.summary')}</summary>
      {Body && <Body />}
    </details>
  );
}
