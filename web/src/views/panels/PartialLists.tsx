// The per-node partial (and full) slab lists panel (viz/partial.ts).
import { renderPartialLists } from '../../viz/partial';
import { useD3, HoldOffscreen } from '../hooks';
import { Panel } from './Panel';
import { useViz } from './useViz';
import { t } from '../../i18n';

/** Held while out of sight or veiled (HoldOffscreen). */
export function PartialListsView() {
  return <HoldOffscreen view={PartialListsViewBody} />;
}

function PartialListsViewBody() {
  const { input, opts } = useViz();
  const ref = useD3<SVGSVGElement>((el) => input && renderPartialLists(el, input, opts), [input, opts.cache, opts.selectedSlab, opts.animMs, opts.siteFilter]);
  return (
    <Panel id="partial" title={t('panel.partial')}>
      <div className="scroll">
        <svg ref={ref} role="group" aria-label={t('panel.partialAria')} />
      </div>
    </Panel>
  );
}
