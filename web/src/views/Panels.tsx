import type { ReactNode } from 'react';
import { cacheOf, OBJECT_STATES, type VizInput, type VizOptions } from '../viz/common';
import { renderBarns } from '../viz/barns';
import { renderPartialLists } from '../viz/partial';
import { renderSheaves } from '../viz/sheaves';
import { pickSlab, renderSlab } from '../viz/slab';
import { renderTopology } from '../viz/topology';
import { useAppState, useD3, useStore } from './hooks';

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

function useViz(): { input: VizInput | null; opts: VizOptions } {
  const st = useAppState();
  const store = useStore();
  const f = st.frame;
  return {
    input: f ? { snap: f.snapshot, event: f.event } : null,
    opts: {
      // short transitions while playing, so frames keep up
      animMs: st.playing ? Math.min(st.animMs, 60) : st.animMs,
      cache: st.selectedCache ?? 0,
      focusCpu: st.focusCpu,
      focusNode: st.focusNode,
      onSelectNode: (node) => store.selectNode(store.getState().focusNode === node ? null : node),
      selectedSlab: st.selectedSlab,
      onSelectSlab: (id) => store.selectSlab(id),
      onSelectCpu: (cpu) => store.selectCpu(store.getState().focusCpu === cpu ? null : cpu),
    },
  };
}

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

export function SheavesView() {
  const { input, opts } = useViz();
  const cache = input ? cacheOf(input.snap, opts.cache) : null;
  const era = input?.snap.config.era;
  const ref = useD3<SVGSVGElement>((el) => input && renderSheaves(el, input, opts), [input, opts.cache, opts.focusCpu, opts.focusNode, opts.animMs]);
  return (
    <Panel id="sheaves" title="Per-CPU sheaves" extra={cache && <small>{cache.name}{cache.has_sheaves ? '' : ' (no sheaves)'}</small>}>
      {era === 'classic' ? (
        <p>Classic era: the per-CPU slab view (c-&gt;freelist, c-&gt;slab, c-&gt;partial) needs the classic snapshot fields.</p>
      ) : null}
      <div className="scroll">
        <svg ref={ref} role="img" aria-label="main and spare sheaves per CPU" />
      </div>
    </Panel>
  );
}

export function BarnsView() {
  const { input, opts } = useViz();
  const ref = useD3<SVGSVGElement>((el) => input && renderBarns(el, input, opts), [input, opts.cache, opts.animMs]);
  return (
    <Panel id="barns" title="Barns (per node)">
      <div className="scroll">
        <svg ref={ref} role="img" aria-label="full and empty sheaves of each node's barn" />
      </div>
    </Panel>
  );
}

export function PartialListsView() {
  const { input, opts } = useViz();
  const ref = useD3<SVGSVGElement>((el) => input && renderPartialLists(el, input, opts), [input, opts.cache, opts.selectedSlab, opts.animMs]);
  return (
    <Panel id="partial" title="Node slab lists">
      <div className="scroll">
        <svg ref={ref} role="group" aria-label="node partial lists, slabs in list order (select one for its detail)" />
      </div>
    </Panel>
  );
}

export function SlabDetailView() {
  const st = useAppState();
  const store = useStore();
  const { input, opts } = useViz();
  const slab = input ? pickSlab(input, opts.cache, opts.selectedSlab) : null;
  const cache = input && slab ? cacheOf(input.snap, slab.cache) : null;
  const ref = useD3<SVGSVGElement>((el) => input && renderSlab(el, slab, input, opts), [input, slab, opts.animMs]);
  const hardened = input?.snap.config.switches.freelist_hardened === true;
  return (
    <Panel id="slab" title="Slab detail" extra={slab && <small>{`slab ${slab.slab} (#${slab.id})`}</small>}>
      {slab && cache ? (
        <>
          <p className="slab-facts" data-testid="slab-facts">
            {cache.name} · node {slab.node} · order {slab.order} · base {slab.base} · inuse {slab.inuse}/{slab.objects} ·{' '}
            {slab.frozen ? 'frozen' : 'not frozen'} · list {slab.list} · freelist {slab.freelist.length}
            {slab.freelist_broken ? ' (BROKEN)' : ''}
            {st.selectedSlab !== null && (
              <button type="button" className="link" onClick={() => store.selectSlab(null)}>
                follow events
              </button>
            )}
          </p>
          <div className="scroll">
            <svg ref={ref} role="img" aria-label={`objects of slab ${slab.slab}, freelist arrows in order`} />
          </div>
          <ul className="legend" aria-label="object states">
            {Object.values(OBJECT_STATES).map((s) => (
              <li key={s.name}>
                <i style={{ background: s.color }}>{s.label}</i> {s.desc}
              </li>
            ))}
          </ul>
          <details>
            <summary>free pointers ({hardened ? 'hardened: raw stored value vs decoded next' : 'not hardened'})</summary>
            <table className="fp">
              <thead>
                <tr>
                  <th>freelist #</th>
                  <th>object</th>
                  <th>address</th>
                  <th>raw (stored)</th>
                  <th>decoded next</th>
                </tr>
              </thead>
              <tbody>
                {slab.freelist.slice(0, 64).map((o, i) => {
                  const fr = slab.free.find((x) => x.obj === o);
                  const addr = (BigInt('0x' + slab.base) + BigInt((o - slab.obj0) * cache.size)).toString(16).padStart(16, '0');
                  return (
                    <tr key={o} data-free-obj={o}>
                      <td>{i}</td>
                      <td>#{o}</td>
                      <td>{addr}</td>
                      <td>{fr?.raw ?? '?'}</td>
                      <td>{fr?.next ?? '?'}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </details>
        </>
      ) : (
        <>
          <p>No slab in this cache yet.</p>
          <svg ref={ref} aria-hidden="true" />
        </>
      )}
    </Panel>
  );
}

export function CallPathView() {
  const st = useAppState();
  const f = st.frame;
  const ev = f?.event ?? null;
  const cpu = ev ? f!.snapshot.cpus[ev.cpu] : null;
  const locks: string[] = [];
  if (f) {
    for (const c of f.snapshot.caches) {
      for (const n of c.nodes ?? []) {
        if (n.list_lock >= 0) locks.push(`${c.name}: node ${n.node} list_lock (cpu ${n.list_lock})`);
        if (n.barn && n.barn.lock >= 0) locks.push(`${c.name}: node ${n.node} barn lock (cpu ${n.barn.lock})`);
      }
      for (const p of c.cpus ?? []) if (p.lock >= 0) locks.push(`${c.name}: cpu ${p.cpu} cpu_sheaves lock`);
    }
  }
  return (
    <Panel id="callpath" title="Call path">
      {ev ? (
        <div data-testid="callpath" data-fn={ev.fn} data-kind={ev.kind} data-seq={ev.seq}>
          <p className="event-text">
            <code>{ev.text}</code>
          </p>
          <ol className="frames" aria-label={`kernel call stack of cpu ${ev.cpu}, outermost first`}>
            {(cpu?.frames.length ? cpu.frames : [ev.fn]).map((fn, i, a) => (
              <li key={i} className={i === a.length - 1 ? 'cur' : ''}>
                <code>{fn}</code>
              </li>
            ))}
            {cpu?.frames.length && cpu.frames[cpu.frames.length - 1] !== ev.fn ? (
              <li className="cur">
                <code>{ev.fn}</code> (this step)
              </li>
            ) : null}
          </ol>
          <p>
            <b>{ev.kind}</b>
            {ev.lock ? ` ${ev.lock}` : ''}
            {ev.stat ? ` ${ev.stat}` : ''}
            {ev.check ? ` ${ev.check}` : ''}
            {ev.from ? ` from ${ev.from}` : ''}
            {ev.to ? ` to ${ev.to}` : ''} · cpu {ev.cpu} · op {ev.op}
          </p>
          <p>
            locks held: <span data-testid="locks">{locks.length ? locks.join('; ') : 'none'}</span>
          </p>
        </div>
      ) : (
        <p>Before the first step. Press Step (→).</p>
      )}
      {f?.runError ? <pre className="error" role="alert">{f.runError}</pre> : null}
    </Panel>
  );
}
