import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { SnapSlab } from '../engine/types';
import { cacheOf, OBJECT_STATES, objectState, siteMatches, type VizInput, type VizOptions } from '../viz/common';
import { renderBarns } from '../viz/barns';
import { hasKcpu, renderKcpu } from '../viz/kcpu';
import { renderPartialLists } from '../viz/partial';
import { renderSheaves } from '../viz/sheaves';
import { CANVAS_MIN, cacheSites, objectCells, pickSlab, renderSlab, type ObjectCell } from '../viz/slab';
import { canvasHit, renderSlabCanvas, SHAPES } from '../viz/slabCanvas';
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
      siteFilter: st.siteFilter,
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
  const showSheaves = !!cache && cache.has_sheaves;
  const showKcpu = !!input && hasKcpu(input, opts.cache);
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
      title={showKcpu && !showSheaves ? 'Per-CPU (kmem_cache_cpu)' : 'Per-CPU sheaves'}
      extra={cache && <small>{cache.name}{cache.has_sheaves ? '' : ' (no sheaves)'}{era ? ` · ${era} era` : ''}</small>}
    >
      {showKcpu && (
        <div className="scroll" data-testid="kcpu">
          <svg ref={kref} role="group" aria-label="each CPU's kmem_cache_cpu: c->slab, the c->freelist chain, the c->partial chain and tid (select a slab for its detail)" />
        </div>
      )}
      <div className="scroll" tabIndex={0} role="region" aria-label="sheaves (scrolls)" style={showSheaves || !showKcpu ? undefined : { display: 'none' }}>
        <svg ref={ref} role="img" aria-label="main and spare sheaves per CPU" />
      </div>
      {others.length > 0 && (
        <p className="other-sheaves" data-testid="other-sheaves">
          other sheaves:{' '}
          {others.map((sh) => (
            <span key={sh.id} data-sheaf-id={sh.id} data-where={sh.where} data-size={sh.size}>
              #{sh.id} {sh.where}
              {sh.where === 'rcu_free' || sh.where === 'prefilled' ? ` (cpu ${sh.where_id})` : ''} {sh.size}/{sh.capacity}{' '}
            </span>
          ))}
        </p>
      )}
    </Panel>
  );
}

export function BarnsView() {
  const { input, opts } = useViz();
  const ref = useD3<SVGSVGElement>((el) => input && renderBarns(el, input, opts), [input, opts.cache, opts.animMs]);
  return (
    <Panel id="barns" title="Barns (per node)">
      <div className="scroll" tabIndex={0} role="region" aria-label="barns (scrolls)">
        <svg ref={ref} role="img" aria-label="full and empty sheaves of each node's barn" />
      </div>
    </Panel>
  );
}

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

function SlabCanvas({ slab, input, opts }: { slab: SnapSlab; input: VizInput; opts: VizOptions }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const cells = useRef<ObjectCell[]>([]);
  const [hover, setHover] = useState<ObjectCell | null>(null);
  useEffect(() => {
    if (ref.current) cells.current = renderSlabCanvas(ref.current, slab, input, opts);
  }, [slab, input, opts.siteFilter]);
  const at = (e: { clientX: number; clientY: number }) => {
    const el = ref.current;
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return canvasHit(cells.current, slab.objects, e.clientX - r.left, e.clientY - r.top, opts.width ?? 640);
  };
  return (
    <>
      <canvas ref={ref} tabIndex={0} role="img" onMouseMove={(e) => setHover(at(e))} onMouseLeave={() => setHover(null)} />
      <p className="canvas-hover" aria-live="polite" data-testid="canvas-hover">
        {hover
          ? `object #${hover.id} (index ${hover.index}): ${objectState(hover.state).desc}${hover.fl >= 0 ? `, freelist position ${hover.fl}` : ''}${hover.owner ? `; held by ${hover.owner.handle}${hover.owner.site ? ` from ${hover.owner.site}` : ''}` : ''}`
          : `${slab.objects} objects drawn on a canvas (point at one for its state and owner)`}
      </p>
    </>
  );
}

function Owners({ slab, filter }: { slab: SnapSlab; filter: string }) {
  const owners = slab.owners ?? [];
  if (owners.length === 0) return null;
  const shown = owners.filter((o) => siteMatches(o.site, filter));
  const MAX = 200;
  return (
    <details className="owners" open data-testid="owners">
      <summary>
        owners: {owners.length} object(s) held by handles{filter ? `, ${shown.length} from call sites matching "${filter}"` : ''}
      </summary>
      <table className="fp">
        <thead>
          <tr>
            <th>object</th>
            <th>handle</th>
            <th>call site</th>
          </tr>
        </thead>
        <tbody>
          {shown.slice(0, MAX).map((o) => (
            <tr key={o.obj} data-owner-obj={o.obj} data-owner={o.handle} data-site={o.site}>
              <td>#{o.obj}</td>
              <td>{o.handle}</td>
              <td>{o.site || '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {shown.length > MAX && <p>… and {shown.length - MAX} more</p>}
    </details>
  );
}

function SiteFilter({ slabs, cacheId }: { slabs: SnapSlab[]; cacheId: number }) {
  const st = useAppState();
  const store = useStore();
  const sites = cacheSites(slabs, cacheId).filter((x) => x.site !== '');
  if (sites.length === 0 && !st.siteFilter) return null;
  return (
    <div className="site-filter form" data-testid="site-filter">
      <label>
        call site{' '}
        <input
          aria-label="Call site filter"
          list="svz-sites"
          size={28}
          value={st.siteFilter}
          placeholder="filter (substring)"
          onChange={(e) => store.setSiteFilter(e.target.value)}
        />
      </label>
      <datalist id="svz-sites">
        {sites.slice(0, 200).map((x) => (
          <option key={x.site} value={x.site} />
        ))}
      </datalist>
      {st.siteFilter && (
        <button type="button" className="link" onClick={() => store.setSiteFilter('')}>
          clear
        </button>
      )}
      <span className="sites">
        {sites.slice(0, 6).map((x) => (
          <button
            type="button"
            key={x.site}
            className="chip"
            aria-pressed={st.siteFilter === x.site}
            data-site={x.site}
            data-count={x.count}
            onClick={() => store.setSiteFilter(st.siteFilter === x.site ? '' : x.site)}
          >
            {x.site} ({x.count})
          </button>
        ))}
        {sites.length > 6 ? ` +${sites.length - 6} more` : ''}
      </span>
    </div>
  );
}

export function SlabDetailView() {
  const st = useAppState();
  const store = useStore();
  const { input, opts } = useViz();
  const slab = input ? pickSlab(input, opts.cache, opts.selectedSlab) : null;
  const cache = input && slab ? cacheOf(input.snap, slab.cache) : null;
  const big = !!slab && slab.objects > CANVAS_MIN;
  const ref = useD3<SVGSVGElement>((el) => input && renderSlab(el, big ? null : slab, input, opts), [input, slab, big, opts.animMs, opts.siteFilter]);
  const hardened = input?.snap.config.switches.freelist_hardened === true;
  const matches = slab && st.siteFilter ? objectCells(slab).filter((c) => c.owner && siteMatches(c.owner.site, st.siteFilter)).length : null;
  return (
    <Panel id="slab" title="Slab detail" extra={slab && <small>{`slab ${slab.slab} (#${slab.id})`}</small>}>
      {input && <SiteFilter slabs={input.snap.slabs} cacheId={opts.cache} />}
      {slab && cache ? (
        <>
          <p className="slab-facts" data-testid="slab-facts">
            {cache.name} · node {slab.node} · order {slab.order} · base {slab.base} · inuse {slab.inuse}/{slab.objects} ·{' '}
            {slab.frozen ? 'frozen' : 'not frozen'} · list {slab.list} · freelist {slab.freelist.length}
            {slab.freelist_broken ? ' (BROKEN)' : ''}
            {matches !== null ? ` · ${matches} object(s) from matching call sites` : ''}
            {st.selectedSlab !== null && (
              <button type="button" className="link" onClick={() => store.selectSlab(null)}>
                follow events
              </button>
            )}
          </p>
          <div className="scroll" tabIndex={0} role="region" aria-label="slab objects (scrolls)">
            {big ? (
              <SlabCanvas slab={slab} input={input!} opts={opts} />
            ) : (
              <svg ref={ref} role="img" aria-label={`objects of slab ${slab.slab}, freelist arrows in order`} />
            )}
          </div>
          <ul className="legend" aria-label="object states">
            {Object.entries(OBJECT_STATES).map(([ch, s]) => (
              <li key={s.name}>
                <i style={{ background: s.color }}>{s.label}</i> {s.desc}
                {big ? ` (${SHAPES[ch] ?? 'square'})` : ''}
              </li>
            ))}
          </ul>
          <Owners slab={slab} filter={st.siteFilter} />
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
