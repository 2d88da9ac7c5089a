// The topology panel: nodes, their CPUs and memory (viz/topology.ts); the
// classic era's per-CPU slabs (viz/kcpu.ts).
import { renderTopology } from '../../viz/topology';
import { useD3, useStore } from '../hooks';
import { Panel } from './Panel';
import { useViz } from './useViz';

export function TopologyView() {
  const store = useStore();
  const { input, opts } = useViz();
  const ref = useD3<SVGSVGElement>((el) => input && renderTopology(el, input, opts), [input, opts.focusCpu, opts.focusNode, opts.animMs]);
  const t = input?.snap.topology;
  return (
    <Panel
      id="topology"
      title="Topology"
      extra={t && <small>{`${t.nodes.length} nodes, ${t.nr_cpus} CPUs (possible ${t.possible}, present ${t.present}, online ${t.online})`}</small>}
    >
      {t && t.nodes.length > 1 && (
        <label>
          show CPUs of{' '}
          <select
            aria-label="Focus node"
            value={opts.focusNode ?? ''}
            onChange={(e) => store.selectNode(e.target.value === '' ? null : Number(e.target.value))}
          >
            <option value="">all nodes</option>
            {t.nodes.map((n) => (
              <option key={n.id} value={n.id}>node {n.id}{n.has_memory ? '' : ' (memoryless)'}</option>
            ))}
          </select>
        </label>
      )}
      <svg ref={ref} role="group" aria-label="NUMA nodes and CPUs (select a CPU to focus it)" />
    </Panel>
  );
}
