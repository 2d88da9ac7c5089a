// The A/B view: the trace under two kernels side by side (state/compare.ts).
// Side A is the app's run; side B a second engine that follows A's op. Both
// models are drawn with the app's own panels (each under its side's store),
// then the counters that differ as `slubviz diff` prints them, both
// timelines and the per-CPU counters that differ most.
import { useEffect, useMemo, useRef, useState } from 'react';
import { EngineClient } from '../engine/client';
import { renderTimeline, timelineBuckets } from '../viz/timeline';
import { cacheByName, CompareSync, diffCounters, relChange, topCpuDiffs } from '../state/compare';
import { configOf, configSets, Store, type AppState, type Config } from '../state/store';
import { BarnsView } from './panels/Barns';
import { PartialListsView } from './panels/PartialLists';
import { SheavesView } from './panels/Sheaves';
import { PanelIdPrefix, StoreContext, useAppState, useD3, useStateOf, useStore, useWidth } from './hooks';
import { t } from '../i18n';

const sides = new WeakMap<Store, { b: Store; sync: CompareSync }>();

/** Side B of an app store (its own engine worker), made on first use. */
export function compareSide(a: Store): Store {
  let s = sides.get(a);
  if (!s) {
    const base = new URL(import.meta.env.BASE_URL, location.href);
    const b = new Store(EngineClient.create(new URL('wasm/', base).href), a.env);
    b.setAnim(0);
    s = { b, sync: new CompareSync(a, b) };
    sides.set(a, s);
  }
  return s.b;
}

const num = (n: number) => n.toLocaleString('en-US');

/** Side B's kernel: a preset and a switch set ("fix1=1 fix2=1"). */
function SidePicker({ st }: { st: AppState }) {
  const store = useStore();
  const cmp = st.compare!;
  const [sets, setSets] = useState(configSets(cmp).replace(/\n/g, ' '));
  useEffect(() => setSets(configSets(cmp).replace(/\n/g, ' ')), [cmp]);
  return (
    <div className="form">
      <label>
        {t('ab.bPreset')}{' '}
        <select aria-label={t('ab.bPresetAria')} value={cmp.preset} onChange={(e) => store.setCompare({ ...cmp, preset: e.target.value })}>
          <option value="">{t('ab.tracesOwn')}</option>
          {st.presets.map((p) => (
            <option key={p.name} value={p.name} title={p.description}>{p.name}</option>
          ))}
        </select>
      </label>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          store.setCompare(configOf(cmp.preset, sets.trim().split(/\s+/).join('\n')));
        }}
      >
        <label>
          {t('ab.bSwitches')} <input aria-label={t('ab.bSwitchesAria')} size={24} value={sets} placeholder="fix1=1 fix2=1" onChange={(e) => setSets(e.target.value)} />
        </label>{' '}
        <button type="submit">{t('ab.set')}</button>
      </form>
      <button type="button" onClick={() => store.setCompare(null)}>{t('ab.close')}</button>
    </div>
  );
}

function Strip({ st, label }: { st: AppState; label: string }) {
  const wrap = useRef<HTMLDivElement>(null);
  const width = useWidth(wrap, 600);
  const buckets = useMemo(() => (st.meta ? timelineBuckets(st.meta) : []), [st.meta]);
  const svg = useD3<SVGSVGElement>(
    (el) => renderTimeline(el, buckets, st.meta?.opsTotal ?? 0, st.frame?.opsDone ?? 0, width),
    [buckets, st.meta?.opsTotal, st.frame?.opsDone, width],
  );
  return (
    <div className="ab-strip" ref={wrap}>
      <span className="small">{label}</span>
      <svg ref={svg} className="markers" role="img" aria-label={t('ab.timelineOf', { label })} />
    </div>
  );
}

function Head({ cols }: { cols: string[] }) {
  return (
    <thead>
      <tr>
        {cols.map((c) => (
          <th scope="col" key={c}>
            {c}
          </th>
        ))}
      </tr>
    </thead>
  );
}

const kernel = (st: AppState, c: Config | null) =>
  `${c?.preset || st.frame?.snapshot.config.preset || '?'}${c && configSets(c) ? ` (${configSets(c).replace(/\n/g, ' ')})` : ''}`;

function Model({ store, side }: { store: Store; side: 'a' | 'b' }) {
  return (
    <StoreContext.Provider value={store}>
      <PanelIdPrefix.Provider value={`ab-${side}-`}>
        <div className="col" data-side={side}>
          <SheavesView />
          <BarnsView />
          <PartialListsView />
        </div>
      </PanelIdPrefix.Provider>
    </StoreContext.Provider>
  );
}

export function CompareView() {
  const a = useStore();
  const st = useAppState();
  if (!st.compare) return null;
  return <CompareOn a={a} st={st} />;
}

function CompareOn({ a, st }: { a: Store; st: AppState }) {
  const b = compareSide(a);
  const sb = useStateOf(b);
  const name = st.frame?.snapshot.caches.find((c) => c.id === st.selectedCache)?.name;
  const ca = cacheByName(st.frame?.snapshot, name);
  const cb = cacheByName(sb.frame?.snapshot, name);
  const same = !!st.frame && !!sb.frame && sb.frame.opsDone === st.frame.opsDone && sb.status === 'ready';
  const rows = same ? diffCounters(ca, cb) : [];
  const top = same ? topCpuDiffs(ca, cb, 10) : [];
  const ops = st.frame?.opsDone ?? 0;
  const ka = kernel(st, st.config);
  const kb = kernel(sb, st.compare);
  return (
    <section className="panel compare" aria-labelledby="ab-h" data-testid="compare" data-op-a={ops} data-op-b={sb.frame?.opsDone ?? -1} data-synced={same}>
      <h2 id="ab-h">
        {t('app.compare')} <small>A: {ka} · B: {kb} · {name ?? ''} · op {num(ops)}</small>
      </h2>
      <SidePicker st={st} />
      {sb.error && (
        <p className="error" role="alert">
          B: {sb.error}
        </p>
      )}
      <Strip st={st} label={`A: ${ka}`} />
      <Strip st={sb} label={`B: ${kb}`} />
      <div className="ab-tables">
        <table className="counters" data-testid="ab-diff">
          <caption>{same ? t('ab.differ', { name: name ?? '', n: rows.length }) : t('ab.catchingUp')}</caption>
          <Head cols={[t('panel.counter'), 'A', 'B', 'b-a', 'b/a']} />
          <tbody>
            {rows.map((r) => (
              <tr key={r.stat} data-stat={r.stat} data-a={r.a} data-b={r.b}>
                <th scope="row">{r.stat}</th>
                <td>{num(r.a)}</td>
                <td>{num(r.b)}</td>
                <td>{`${r.b - r.a >= 0 ? '+' : ''}${num(r.b - r.a)}`}</td>
                <td>{relChange(r.a, r.b)}</td>
              </tr>
            ))}
            {same && (
              <>
                <tr data-stat="slow-path share">
                  <th scope="row">{t('ab.slowShare')}</th>
                  <td>{(ca?.alloc_slow_share ?? 0).toFixed(2)}%</td>
                  <td>{(cb?.alloc_slow_share ?? 0).toFixed(2)}%</td>
                  <td colSpan={2} />
                </tr>
                <tr data-stat="list_lock per 1000 ops">
                  <th scope="row">{t('ab.listLockPer')}</th>
                  <td>{(ca?.list_lock_per_kop ?? 0).toFixed(2)}</td>
                  <td>{(cb?.list_lock_per_kop ?? 0).toFixed(2)}</td>
                  <td colSpan={2} />
                </tr>
              </>
            )}
          </tbody>
        </table>
        <table className="counters" data-testid="ab-top">
          <caption>{t('ab.perCpu')}</caption>
          <Head cols={['cpu', t('panel.counter'), 'A', 'B', 'b-a']} />
          <tbody>
            {top.map((r) => (
              <tr key={`${r.cpu} ${r.stat}`} data-cpu={r.cpu} data-stat={r.stat} data-a={r.a} data-b={r.b}>
                <td>{r.cpu}</td>
                <th scope="row">{r.stat}</th>
                <td>{num(r.a)}</td>
                <td>{num(r.b)}</td>
                <td>{`${r.b - r.a >= 0 ? '+' : ''}${num(r.b - r.a)}`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="ab-models">
        <div>
          <h3>A: {ka}</h3>
          <Model store={a} side="a" />
        </div>
        <div>
          <h3>B: {kb}</h3>
          <Model store={b} side="b" />
        </div>
      </div>
    </section>
  );
}
