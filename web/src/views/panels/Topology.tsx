// The topology panel: nodes, their CPUs and memory (viz/topology.ts); the
// classic era's per-CPU slabs (viz/kcpu.ts).
import { renderTopology } from '../../viz/topology';
import { useD3, useStore, HoldOffscreen } from '../hooks';
import { Panel } from './Panel';
import { useViz } from './useViz';
import { t } from '../../i18n';

/** Held while out of sight or veiled (HoldOffscreen). */
export function TopologyView() {
  return <HoldOffscreen view={TopologyViewBody} />;
}

function TopologyViewBody() {
  const store = useStore();
  const { input, opts } = useViz();
  const ref = useD3<SVGSVGElement>((el) => input && renderTopology(el, input, opts), [input, opts.focusCpu, opts.focusNode, opts.animMs]);
  const topo = input?.snap.topology;
  return (
    <Panel
      id="topology"
      title={t('panel.topology')}
      extra={topo && <small>{t('panel.topologyExtra', { nodes: topo.nodes.length, cpus: topo.nr_cpus, possible: topo.possible, present: topo.present, online: topo.online })}</small>}
    >
      {topo && topo.nodes.length > 1 && (
        <label>
          {t('panel.showCpusOf')}{' '}
          <select
            aria-label={t('panel.focusNode')}
            value={opts.focusNode ?? ''}
            onChange={(e) => store.selectNode(e.target.value === '' ? null : Number(e.target.value))}
          >
            <option value="">{t('panel.allNodes')}</option>
            {topo.nodes.map((n) => (
              <option key={n.id} value={n.id}>{t('panel.node', { id: n.id })}{n.has_memory ? '' : t('panel.memoryless')}</option>
            ))}
          </select>
        </label>
      )}
      <svg ref={ref} role="group" aria-label={t('panel.topologyAria')} />
    </Panel>
  );
}
