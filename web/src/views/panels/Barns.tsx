// The per-node barns panel (viz/barns.ts).
import { renderBarns } from '../../viz/barns';
import { useD3, HoldOffscreen, useSideName } from '../hooks';
import { Panel } from './Panel';
import { useViz } from './useViz';
import { t } from '../../i18n';

/** Held while out of sight or veiled (HoldOffscreen). */
export function BarnsView() {
  return <HoldOffscreen view={BarnsViewBody} />;
}

function BarnsViewBody() {
  const { input, opts } = useViz();
  const sideName = useSideName();
  const ref = useD3<SVGSVGElement>((el) => input && renderBarns(el, input, opts), [input, opts.cache, opts.animMs]);
  return (
    <Panel id="barns" title={t('panel.barns')}>
      <div className="scroll" tabIndex={0} role="region" aria-label={sideName(t('panel.barnsScroll'))}>
        <svg ref={ref} role="img" aria-label={t('panel.barnsAria')} />
      </div>
    </Panel>
  );
}
