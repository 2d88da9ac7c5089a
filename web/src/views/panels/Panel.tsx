// A panel of the visualizer: a titled section the lessons can focus (data-panel).
import { useContext, type ReactNode } from 'react';
import { PanelIdPrefix, usePanelVisibilityRef } from '../hooks';

export function Panel({ title, id, children, extra }: { title: string; id: string; children: ReactNode; extra?: ReactNode }) {
  const h = `${useContext(PanelIdPrefix)}${id}-h`;
  return (
    <section ref={usePanelVisibilityRef()} className="panel" aria-labelledby={h} data-panel={id}>
      <h2 id={h}>
        {title} {extra}
      </h2>
      <div className="panel-body">{children}</div>
    </section>
  );
}
