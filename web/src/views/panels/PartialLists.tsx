// The per-node partial (and full) slab lists panel (viz/partial.ts).
import { renderPartialLists } from '../../viz/partial';
import { useD3 } from '../hooks';
import { Panel } from './Panel';
import { useViz } from './useViz';

export function PartialListsView() {
  const { input, opts } = useViz();
  const ref = useD3<SVGSVGElement>((el) => input && renderPartialLists(el, input, opts), [input, opts.cache, opts.selectedSlab, opts.animMs, opts.siteFilter]);
  return (
    <Panel id="partial" title="Node slab lists">
      <div className="scroll">
        <svg ref={ref} role="group" aria-label="node partial lists, slabs in list order (select one for its detail)" />
      </div>
    </Panel>
  );
}
