// The legend box, closed until someone opens it: its body (LegendBody.tsx,
// every glyph drawn as the renderers draw it) is a chunk of its own, loaded
// after the first screen, so the main chunk carries none of it.
import { lazy, Suspense } from 'react';
import './reading.css';
import { t } from '../i18n';

const LegendBody = lazy(() => import('./LegendBody'));

export function Legend() {
  return (
    <details className="legend-box" data-panel="legend" data-testid="legend">
      <summary>{t('legend.summary')}</summary>
      <Suspense fallback={null}>
        <LegendBody />
      </Suspense>
    </details>
  );
}
