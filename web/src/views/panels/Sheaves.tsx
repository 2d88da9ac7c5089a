// The per-CPU sheaves panel (viz/sheaves.ts).
import { cacheOf } from '../../viz/common';
import { hasKcpu, renderKcpu } from '../../viz/kcpu';
import { renderSheaves } from '../../viz/sheaves';
import { useD3, HoldOffscreen, useSideName } from '../hooks';
import { Panel } from './Panel';
import { useViz } from './useViz';
import { t } from '../../i18n';

/** Held while out of sight or veiled (HoldOffscreen). */
export function SheavesView() {
  return <HoldOffscreen view={SheavesViewBody} />;
}

function SheavesViewBody() {
  const { input, opts } = useViz();
  const cache = input ? cacheOf(input.snap, opts.cache) : null;
  const era = input?.snap.config.era;
  const showSheaves = !!cache && cache.has_sheaves;
  const showKcpu = !!input && hasKcpu(input, opts.cache);
  const sideName = useSideName();
  const ref = useD3<SVGSVGElement>((el) => input && renderSheaves(el, input, opts), [input, opts.cache, opts.focusCpu, opts.focusNode, opts.animMs]);
  const kref = useD3<SVGSVGElement>(
    (el) => input && renderKcpu(el, input, opts),
    [input, opts.cache, opts.focusCpu, opts.focusNode, opts.animMs, opts.selectedSlab],
  );
  // sheaves off the CPUs' main/spare: prefilled, kfree_rcu, detached
  const others = input && cache ? input.snap.sheaves.filter((sh) => sh.cache === cache.id && !['main', 'spare', 'barn_full', 'barn_empty'].includes(sh.where)) : [];
  return (
    <Panel
      id="sheaves"
      title={showKcpu && !showSheaves ? t('panel.kcpu') : t('panel.sheaves')}
      extra={cache && <small>{cache.name}{cache.has_sheaves ? '' : t('panel.noSheaves')}{era ? ` · ${t('app.era', { era })}` : ''}</small>}
    >
      {showKcpu && (
        <div className="scroll" data-testid="kcpu">
          <svg ref={kref} role="group" aria-label={t('panel.kcpuAria')} />
        </div>
      )}
      <div className="scroll" tabIndex={0} role="region" aria-label={sideName(t('panel.sheavesScroll'))} style={showSheaves || !showKcpu ? undefined : { display: 'none' }}>
        <svg ref={ref} role="img" aria-label={t('panel.sheavesAria')} />
      </div>
      {others.length > 0 && (
        <p className="other-sheaves" data-testid="other-sheaves">
          {t('panel.otherSheaves')}{' '}
          {others.map((sh) => (
            <span key={sh.id} data-sheaf-id={sh.id} data-where={sh.where} data-size={sh.size}>
              #{sh.id} {sh.where}
              {sh.where === 'prefilled' ? ` (${sh.handle ?? '#' + sh.where_id})` : sh.where === 'rcu_free' || sh.where === 'rcu_pending' ? ` (cpu ${sh.where_id})` : ''} {sh.size}/{sh.capacity}{' '}
            </span>
          ))}
        </p>
      )}
    </Panel>
  );
}
