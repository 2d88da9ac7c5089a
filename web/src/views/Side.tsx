import { useState } from 'react';
import { type TextTab } from '../state/store';
import { renderSparkline } from '../viz/sparkline';
import { ActionButton } from './ActionButton';
import { Panel } from './Panels';
import { exportV1 } from './Traces';
import { useAppState, useD3, useStore } from './hooks';

function Spark({ values, cursor }: { values: number[]; cursor: number }) {
  const ref = useD3<SVGSVGElement>((el) => renderSparkline(el, values, cursor), [values, cursor]);
  return <svg ref={ref} aria-hidden="true" />;
}

export function CountersView() {
  const st = useAppState();
  const [all, setAll] = useState(false);
  const f = st.frame;
  const cache = f?.snapshot.caches.find((c) => c.id === st.selectedCache);
  if (!f || !cache?.stats) return <Panel id="counters" title="Counters (SLUB_STATS)"><p>no cache</p></Panel>;
  const ncpu = f.snapshot.topology.nr_cpus;
  const showCpus = ncpu <= 8 ? [...Array(ncpu).keys()] : st.focusCpu !== null ? [st.focusCpu] : [];
  const sampleOps = st.meta?.sampleOps ?? [];
  let cursor = 0;
  for (let i = 0; i < sampleOps.length; i++) if (sampleOps[i] <= f.opsDone) cursor = i;
  const rows = Object.entries(cache.stats).filter(([, v]) => all || v.some((x) => x !== 0));
  return (
    <Panel
      id="counters"
      title="Counters (SLUB_STATS)"
      extra={
        <label className="small">
          <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} /> show zero
        </label>
      }
    >
      <table className="counters">
        <caption>
          {cache.name}: per CPU and total; sparkline = all caches over the run
        </caption>
        <thead>
          <tr>
            <th scope="col">stat</th>
            {showCpus.map((c) => (
              <th scope="col" key={c}>cpu {c}</th>
            ))}
            <th scope="col">total</th>
            <th scope="col">over the run</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([k, v]) => (
            <tr key={k} data-stat={k} data-total={v.reduce((a, b) => a + b, 0)}>
              <th scope="row">{k}</th>
              {showCpus.map((c) => (
                <td key={c}>{v[c]}</td>
              ))}
              <td>{v.reduce((a, b) => a + b, 0)}</td>
              <td>{st.meta?.samples[k] ? <Spark values={st.meta.samples[k]} cursor={cursor} /> : null}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length === 0 && <p>all counters are zero</p>}
      {cache.nodes && cache.nodes.length > 0 && (
        <table className="counters" data-testid="node-counters">
          <caption>model counters per node (locks taken, list writes under a lock)</caption>
          <thead>
            <tr>
              <th scope="col">counter</th>
              {cache.nodes.map((n) => (
                <th scope="col" key={n.node}>node {n.node}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {Object.keys(cache.nodes[0].counters).map((k) => (
              <tr key={k} data-node-counter={k}>
                <th scope="row">{k}</th>
                {cache.nodes!.map((n) => (
                  <td key={n.node}>{n.counters[k]}</td>
                ))}
              </tr>
            ))}
            <tr>
              <th scope="row">slabs allocated / freed</th>
              <td colSpan={cache.nodes.length}>
                {cache.slabs_allocated} / {cache.slabs_freed} · freelist pointer writes {cache.fp_writes}
              </td>
            </tr>
          </tbody>
        </table>
      )}
    </Panel>
  );
}

export function TextViews() {
  const st = useAppState();
  const store = useStore();
  const cache = st.frame?.snapshot.caches.find((c) => c.id === st.selectedCache);
  const tabs: [TextTab, string][] = [
    ['slabinfo', '/proc/slabinfo'],
    ['sysfs', `/sys/kernel/slab/${cache?.name ?? '…'}/`],
    ['stats', 'stats'],
    ['events', 'recent events'],
  ];
  return (
    <Panel id="text" title="Kernel views">
      <div role="tablist" aria-label="kernel text views">
        {tabs.map(([k, label]) => (
          <button key={k} type="button" role="tab" aria-selected={st.textTab === k} onClick={() => store.setTextTab(k)}>
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={st.textTab}>
        {st.textTab === 'events' ? (
          <ol className="events" data-testid="events" tabIndex={0}>
            {(st.frame?.recent ?? []).map((e) => (
              <li key={e.seq} data-seq={e.seq}>
                <code>{e.text}</code>
              </li>
            ))}
          </ol>
        ) : (
          <pre className="text" data-testid={`text-${st.textTab}`} tabIndex={0}>{st.text}</pre>
        )}
      </div>
    </Panel>
  );
}

export function ConfigPanel() {
  const st = useAppState();
  const store = useStore();
  const [seed, setSeed] = useState(st.config.seed);
  const [custom, setCustom] = useState('');
  const snapSw = st.frame?.snapshot.config.switches ?? {};
  return (
    <Panel id="config" title="Scenario and config">
      <div className="form">
        <label>
          scenario
          <select
            aria-label="Scenario"
            value={st.scenario ?? ''}
            onChange={(e) => {
              if (e.target.value) void store.loadScenario(e.target.value);
            }}
          >
            {st.scenario === null && <option value="">{st.traceName ? `(imported: ${st.traceName})` : '(custom trace)'}</option>}
            {st.scenarios.map((s) => (
              <option key={s.id} value={s.id}>{s.id}</option>
            ))}
          </select>
        </label>
        <label>
          preset
          <select aria-label="Preset" value={st.config.preset} onChange={(e) => void store.setConfig({ preset: e.target.value })}>
            <option value="">trace's own ({st.frame?.snapshot.config.preset ?? '?'})</option>
            {st.presets.map((p) => (
              <option key={p.name} value={p.name} title={p.description}>{p.name}</option>
            ))}
          </select>
        </label>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void store.setConfig({ seed });
          }}
        >
          <label>
            seed
            <input aria-label="Seed" size={8} value={seed} placeholder={String(snapSw.seed ?? '')} onChange={(e) => setSeed(e.target.value)} />
          </label>
          <button type="submit">Set seed</button>
        </form>
        <fieldset>
          <legend>switches (era: {st.frame?.snapshot.config.era ?? '?'})</legend>
          {st.switches.filter((s) => s.kind === 'bool').map(({ name: k, what }) => {
            const on = st.config.switches[k] !== undefined ? st.config.switches[k] === '1' : snapSw[k] === true;
            return (
              <label key={k} className="sw" title={what}>
                <input type="checkbox" checked={on} onChange={(e) => void store.setConfig({ switches: { [k]: e.target.checked ? '1' : '0' } })} /> {k}
              </label>
            );
          })}
          <label className="sw">
            era
            <select
              aria-label="Era"
              value={st.config.switches.era ?? ''}
              onChange={(e) => void store.setConfig({ switches: { era: e.target.value } })}
            >
              <option value="">preset's</option>
              {(st.switches.find((s) => s.name === 'era')?.choices ?? []).map((v) => (
                <option key={v} value={v}>{v}</option>
              ))}
            </select>
          </label>
        </fieldset>
        {st.meta?.description && (
          <details>
            <summary>about this trace</summary>
            <p className="desc">{st.meta.description}</p>
          </details>
        )}
        <details>
          <summary>open a custom trace</summary>
          <textarea aria-label="Custom trace text" rows={8} cols={50} value={custom} onChange={(e) => setCustom(e.target.value)} />
          <button type="button" onClick={() => void store.openTrace(custom, { scenario: null })}>Open trace</button>
        </details>
      </div>
    </Panel>
  );
}

export function FreePlayPanel() {
  const st = useAppState();
  const store = useStore();
  const [copied, setCopied] = useState('');
  const f = st.frame;
  const caches = f?.snapshot.caches.filter((c) => c.alive && !c.kmalloc) ?? [];
  const ncpu = f?.snapshot.topology.nr_cpus ?? 1;
  const live = store.liveHandles();
  const more = st.meta?.endHandlesMore ?? 0;
  const [handle, setHandle] = useState('');
  const [shareError, setShareError] = useState('');
  const download = () => {
    const blob = new Blob([st.trace], { type: 'text/plain' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `${st.scenario ?? 'custom'}${st.freeOps.length ? '-freeplay' : ''}.trace`;
    if (st.traceRef) {
      void exportV1(store);
      return;
    }
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  };
  return (
    <Panel id="freeplay" title="Free play">
      <div className="form">
        <label>
          CPU
          <select aria-label="Free play CPU" value={st.fp.cpu} onChange={(e) => store.setFreePlay({ cpu: Number(e.target.value) })}>
            {[...Array(ncpu).keys()].map((c) => (
              <option key={c} value={c}>cpu {c}</option>
            ))}
          </select>
        </label>
        <label>
          cache
          <select aria-label="Free play cache" value={st.fp.cache} onChange={(e) => store.setFreePlay({ cache: e.target.value })}>
            {caches.map((c) => (
              <option key={c.id} value={c.name}>{c.name}</option>
            ))}
          </select>
        </label>
        <ActionButton name="freeAlloc" />
        <label>
          handle
          <select aria-label="Handle to free" value={handle} onChange={(e) => setHandle(e.target.value)}>
            <option value="">last allocated</option>
            {live.slice(-500).map((h) => (
              <option key={h.handle} value={h.handle}>
                {h.handle} ({h.cache}{h.site ? `, ${h.site}` : ''})
              </option>
            ))}
          </select>
        </label>
        <ActionButton name="freeFree" args={[handle || undefined]} disabled={live.length === 0} />
      </div>
      <p className="small" data-testid="live-handles" data-count={live.length + more}>
        {live.length + more} handle(s) live at the end of the trace{live.length > 500 || more ? ' (the last 500 listed)' : ''}
      </p>
      <p>
        {st.freeOps.length} op(s) added: <code data-testid="free-ops">{st.freeOps.map((o) => `c${o.cpu} ${o.op} ${o.cache} ${o.handle}`).join('; ')}</code>
      </p>
      <div className="form">
        <button type="button" onClick={download}>Download trace</button>
        <button type="button" onClick={() => void exportV1(store)} disabled={!f} title="svz_export_v1: the trace as native v1 text, repeat blocks expanded">
          Export v1
        </button>
        <button
          type="button"
          onClick={async () => {
            setShareError('');
            let hash: string;
            try {
              hash = await store.shareHash();
            } catch (e) {
              setShareError(e instanceof Error ? e.message : String(e));
              return;
            }
            history.replaceState(null, '', hash);
            const url = location.href;
            setCopied(url);
            try {
              await navigator.clipboard?.writeText(url);
            } catch {
              /* clipboard may be refused; the link is shown */
            }
          }}
        >
          Share link
        </button>
        {copied && (
          <input aria-label="Share link" readOnly value={copied} size={40} data-testid="share-link" onFocus={(e) => e.target.select()} />
        )}
        {shareError && (
          <span className="error" role="alert" data-testid="share-error">
            {shareError}
          </span>
        )}
      </div>
    </Panel>
  );
}
