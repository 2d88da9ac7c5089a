// A panel of the visualizer: a titled section the lessons can focus (data-panel).
import { useContext, type ReactNode } from 'react';
import { PanelIdPrefix, usePanelVisibilityRef, useSideName } from '../hooks';

export function Panel({ title, id, children, extra }: { title: string; id: string; children: ReactNode; extra?: ReactNode }) {
  const h = `${useContext(PanelIdPrefix)}${id}-h`;
  // on a side of the A/B view the heading (the section's name) says which
  const side = useSideName()('');
  return (
    <section ref={usePanelVisibilityRef()} className="panel" aria-labelledby={h} data-panel={id}>
      <h2 id={h}>
        {side && <span className="sr-only">{side}</span>}
        {title} {extra}
      </h2>
      <div className="panel-body">{children}</div>
    </section>
  );
}
