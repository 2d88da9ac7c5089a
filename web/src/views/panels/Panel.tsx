// A panel of the visualizer: a titled section the lessons can focus (data-panel).
import { type ReactNode } from 'react';

export function Panel({ title, id, children, extra }: { title: string; id: string; children: ReactNode; extra?: ReactNode }) {
  return (
    <section className="panel" aria-labelledby={`${id}-h`} data-panel={id}>
      <h2 id={`${id}-h`}>
        {title} {extra}
      </h2>
      <div className="panel-body">{children}</div>
    </section>
  );
}
