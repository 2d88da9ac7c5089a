import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { BreakpointKind, RunMeta } from '../engine/protocol';
import { ready, type ActionName } from '../state/actions';
import { SPEEDS } from '../state/store';
import { perOp, plottableCounters, renderTimeline, timelineBuckets, TIMELINE_SERIES, type TimelineCounter } from '../viz/timeline';
import { ActionButton } from './ActionButton';
import './reading.css';
import { t, type MsgKey } from '../i18n';
import { useT } from '../i18n/hooks';
import { useAppState, useD3, useStore, useWidth } from './hooks';

/** The breakpoints, per era ('' = both): the engine's matchEvent decides. */
// Their words are the catalogs' bp.<kind> (the picker) and bpw.<kind> (a miss).
const BREAKPOINTS: { kind: BreakpointKind; era?: 'sheaves' | 'classic'; obj?: boolean }[] = [
  { kind: 'alloc_slowpath' },
  { kind: 'barn_get_fail', era: 'sheaves' },
  { kind: 'sheaf_refill', era: 'sheaves' },
  { kind: 'no_barn', era: 'sheaves' },
  { kind: 'list_lock_contended' },
  { kind: 'new_slab' },
  { kind: 'discard' },
  { kind: 'object', obj: true },
  { kind: 'object_freed', obj: true },
];

const bpLabel = (kind: BreakpointKind) => t(`bp.${kind}` as MsgKey);

type RunCount = Pick<RunMeta, 'seqTotal' | 'prepassDone'>;
type StepTotal = { n: number | null; final: boolean; text: string };

/** The run's step count as the position line shows it. Until the
 * background pre-pass has run to the end, the meta's count is of the part
 * it has run (a lower bound), and playing or seeking past that frontier
 * goes on beyond it: then at least the step shown, never a total below it. */
export function stepTotal(seq: number, meta: RunCount | null): StepTotal {
  if (!meta) return { n: null, final: false, text: '?' };
  if (meta.prepassDone) return { n: meta.seqTotal, final: true, text: String(meta.seqTotal) };
  const n = Math.max(seq, meta.seqTotal);
  return { n, final: false, text: `≥${n}` };
}

/** Why the jump box refuses its text (null: it is an op of the run). */
export function jumpProblem(text: string, opsTotal: number): string | null {
  const s = text.trim();
  if (s === '') return t('ctl.jumpEmpty', { total: opsTotal });
  if (!/^\d+$/.test(s)) return t('ctl.jumpNaN', { text: s, total: opsTotal });
  if (Number(s) > opsTotal) return t('ctl.jumpPast', { text: s, total: opsTotal });
  return null;
}

/** The playback buttons, in their row's order. */
const PLAYBACK: ActionName[] = ['toStart', 'opBack', 'stepBack', 'togglePlay', 'stepForward', 'stepOp', 'toEnd'];

export function Controls() {
  useT();
  const store = useStore();
  const st = useAppState();
  const f = st.frame;
  const disabled = !ready(st);
  const total = f ? stepTotal(f.seq, st.meta) : null;
  const [jump, setJump] = useState('');
  const [jumpError, setJumpError] = useState<string | null>(null);
  const [obj, setObj] = useState('');
  const era = f?.snapshot.config.era ?? 'sheaves';
  const kinds = BREAKPOINTS.filter((b) => !b.era || b.era === era);
  const needsObj = BREAKPOINTS.find((b) => b.kind === st.breakpoint.kind)?.obj ?? false;
  // another era's breakpoint (barn_get_fail on a classic kernel): back to the first one
  const offEra = !kinds.some((b) => b.kind === st.breakpoint.kind);
  useEffect(() => {
    if (offEra) store.setBreakpoint({ kind: kinds[0].kind });
  }, [offEra, kinds, store]);
  const tl = useTimelineData();
  const narrow = useNarrow();
  const bar = useStickyHeight();
  const playback = (
    <>
      {PLAYBACK.map((name) => (
        <ActionButton key={name} name={name} />
      ))}
      <label className="speed">
        {t('ctl.speed')}
        <select aria-label={t('ctl.speedAria')} value={st.speed} onChange={(e) => store.setSpeed(Number(e.target.value))}>
          {SPEEDS.map((s) => (
            <option key={s} value={s}>{s}/s</option>
          ))}
        </select>
      </label>
    </>
  );
  const jumpForm = (
    <form
      className="jump"
      onSubmit={(e) => {
        e.preventDefault();
        const why = jumpProblem(jump, st.meta?.opsTotal ?? 0);
        setJumpError(why);
        if (!why) void store.jumpToOp(Number(jump.trim()));
      }}
    >
      <label>
        {t('ctl.op')}
        <input aria-label={t('ctl.jumpAria')} data-testid="jump-op" inputMode="numeric" value={jump} size={7} placeholder="N"
          aria-invalid={jumpError ? true : undefined} aria-describedby={jumpError ? 'jump-error' : undefined}
          onChange={(e) => {
            setJump(e.target.value);
            setJumpError(null);
          }} />
      </label>
      <button type="submit" disabled={disabled}>{t('ctl.jump')}</button>
      {jumpError && <span id="jump-error" className="jump-error" role="alert" data-testid="jump-error">{jumpError}</span>}
    </form>
  );
  const breakpoint = (
    <>
      <label>
        {t('ctl.breakpoint')}
        <select
          aria-label={t('ctl.breakpointAria')}
          value={st.breakpoint.kind}
          onChange={(e) => store.setBreakpoint({ kind: e.target.value as BreakpointKind, obj: obj === '' ? undefined : Number(obj) })}
        >
          {kinds.map((b) => (
            <option key={b.kind} value={b.kind}>{bpLabel(b.kind)}</option>
          ))}
        </select>
      </label>
      {needsObj && (
        <label>
          {t('ctl.objectId')}
          <input
            aria-label={t('ctl.objectIdAria')}
            size={6}
            value={obj}
            onChange={(e) => {
              setObj(e.target.value);
              store.setBreakpoint({ kind: st.breakpoint.kind, obj: e.target.value === '' ? undefined : Number(e.target.value) });
            }}
          />
        </label>
      )}
      <ActionButton name="runToBreakpoint" />
      {st.lastHit && (
        <span className="hit" role="status" data-hit={st.lastHit.found ? 'true' : 'false'} data-testid="breakpoint-hit">
          {st.lastHit.found
            ? t('ctl.stopped', { seq: st.lastHit.seq })
            : t('ctl.noHit', { what: t(`bpw.${st.lastHit.bp.kind}` as MsgKey), seq: st.lastHit.seq })}
        </span>
      )}
    </>
  );
  const position = (
    <span className="pos" data-testid="position" aria-live="polite" data-seq-total={total?.n ?? undefined} data-seq-total-final={total?.final}>
      {f && total ? t('ctl.position', { done: f.opsDone, inflight: f.inflight ? '+' : '', total: f.opsTotal, seq: f.seq, seqTotal: total.text }) : ''}
    </span>
  );
  const status = (
    <>
      {st.meta && <CheckpointInfo meta={st.meta} />}
      {st.busy && <span className="busy">{t('ctl.working')}</span>}
      {st.progress && (
        <progress aria-label={t('ctl.progress', { what: st.progress.what })} value={st.progress.done} max={Math.max(1, st.progress.total)} />
      )}
    </>
  );
  if (narrow) {
    // a phone: only the playback row, the position and the timeline stay
    // on screen (sticky); the jump box, the breakpoint and the timeline's
    // legend scroll with the page (styles.css: .controls-more)
    return (
      <>
        <section className="controls" aria-label={t('ctl.aria')} ref={bar}>
          <div className="row">
            {playback}
            {position}
          </div>
          <Timeline tl={tl} />
        </section>
        <section className="controls-more" aria-label={t('ctl.moreAria')}>
          <div className="row">
            {jumpForm}
          </div>
          <div className="row">
            {breakpoint}
            {status}
          </div>
          <TimelineLegend tl={tl} />
        </section>
      </>
    );
  }
  return (
    <section className="controls" aria-label={t('ctl.aria')} ref={bar}>
      <div className="row">
        {playback}
        {jumpForm}
      </div>
      <div className="row">
        {breakpoint}
        {position}
        {status}
      </div>
      <Timeline tl={tl}>
        <TimelineLegend tl={tl} />
      </Timeline>
    </section>
  );
}

/** The narrow layout (a phone): styles.css's max-width 600px. */
const NARROW = '(max-width: 600px)';

function useNarrow(): boolean {
  const query = () => (typeof window.matchMedia === 'function' ? window.matchMedia(NARROW) : null);
  const [narrow, setNarrow] = useState(() => query()?.matches ?? false);
  useEffect(() => {
    const mq = query();
    if (!mq) return;
    const on = () => setNarrow(mq.matches);
    on();
    mq.addEventListener?.('change', on);
    return () => mq.removeEventListener?.('change', on);
  }, []);
  return narrow;
}

/** The sticky bar's height, as --sticky-h on the document (styles.css:
 * the panels' scroll-margin-top keeps a heading scrolled to out from
 * under the bar). */
function useStickyHeight() {
  const ro = useRef<ResizeObserver | null>(null);
  return useCallback((el: HTMLElement | null) => {
    ro.current?.disconnect();
    ro.current = null;
    const root = document.documentElement;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const set = () => root.style.setProperty('--sticky-h', `${Math.ceil(el.getBoundingClientRect().height)}px`);
    ro.current = new ResizeObserver(set);
    ro.current.observe(el);
    set();
  }, []);
}

type TimelineData = {
  counter: TimelineCounter;
  setCounter: (c: TimelineCounter) => void;
  buckets: ReturnType<typeof timelineBuckets>;
  counters: string[];
  peak: number;
};

function useTimelineData(): TimelineData {
  const st = useAppState();
  const [counter, setCounter] = useState<TimelineCounter>('paths');
  const buckets = useMemo(() => (st.meta ? timelineBuckets(st.meta, counter) : []), [st.meta, counter]);
  const counters = useMemo(() => (st.meta ? plottableCounters(st.meta) : []), [st.meta]);
  const peak = useMemo(() => Math.max(0, ...buckets.map(perOp)), [buckets]);
  return { counter, setCounter, buckets, counters, peak };
}

function Timeline({ tl, children }: { tl: TimelineData; children?: ReactNode }) {
  const store = useStore();
  const st = useAppState();
  const f = st.frame;
  const total = st.meta?.opsTotal ?? 0;
  const wrap = useRef<HTMLDivElement>(null);
  const width = useWidth(wrap, 800);
  const { buckets } = tl;
  const svg = useD3<SVGSVGElement>((el) => renderTimeline(el, buckets, total, f?.opsDone ?? 0, width), [buckets, total, f?.opsDone, width]);
  // scrubbing: the latest position wins; one seek in flight at a time
  // while seeks are in flight the slider shows where it was moved to
  const pending = useRef<number | null>(null);
  const running = useRef(false);
  const [local, setLocal] = useState<number | null>(null);
  const scrub = async (op: number) => {
    pending.current = op;
    setLocal(op);
    if (running.current) return;
    running.current = true;
    while (pending.current !== null) {
      const op = pending.current;
      pending.current = null;
      await store.jumpToOp(op);
    }
    running.current = false;
    setLocal(null);
  };
  return (
    <div className="timeline" ref={wrap}>
      <svg ref={svg} className="markers" aria-hidden="true" />
      <input
        type="range"
        aria-label={t('ctl.timeline')}
        min={0}
        max={total}
        value={local ?? f?.opsDone ?? 0}
        disabled={!f}
        onChange={(e) => void scrub(Number(e.target.value))}
        style={{ width: '100%' }}
      />
      {children}
    </div>
  );
}

function TimelineLegend({ tl }: { tl: TimelineData }) {
  const { counter, setCounter, counters, peak } = tl;
  return (
    <div className="legend timeline-legend" data-testid="timeline-legend" data-counter={counter}>
      <label>
        {t('ctl.plot')}{' '}
        <select aria-label={t('ctl.plotAria')} value={counter} onChange={(e) => setCounter(e.target.value)}>
          <option value="paths">{t('ctl.paths')}</option>
          {counters.map((k) => (
            <option key={k} value={k}>{k}</option>
          ))}
        </select>
      </label>
      {counter === 'paths' &&
        TIMELINE_SERIES.map((x) => (
          <span key={x.id} data-series={x.id}>
            <i style={{ background: x.color }} /> {t(`series.${x.id}`)}
          </span>
        ))}
      <span className="small" data-testid="timeline-peak" data-peak={peak}>
        {t('ctl.height', { what: counter === 'paths' ? t('ctl.counted') : counter, peak: peak >= 10 ? Math.round(peak) : peak.toFixed(2) })}
      </span>
    </div>
  );
}

const MiB = (n: number) => `${Math.round(n / (1 << 20))} MiB`;

/** The run's checkpoints and their memory budget (engine.ts): a big trace
 * gets fewer checkpoints, so its backward seeks replay more. */
function CheckpointInfo({ meta }: { meta: RunMeta }) {
  const degraded = meta.checkpointFailures > 0;
  return (
    <span
      className="ckpt"
      data-testid="checkpoint-info"
      data-checkpoints={meta.checkpoints}
      data-every={meta.checkpointEvery}
      data-bytes={meta.checkpointBytes}
      data-budget={meta.checkpointBudget}
      data-failures={meta.checkpointFailures}
      title={t('ctl.ckptTitle', { every: meta.checkpointEvery, budget: MiB(meta.checkpointBudget) }) + (degraded ? t('ctl.ckptFailed', { n: meta.checkpointFailures }) : '')}
    >
      {t('ctl.ckpt', { n: meta.checkpoints, bytes: MiB(meta.checkpointBytes), budget: MiB(meta.checkpointBudget) })}
      {degraded ? t('ctl.ckptShort') : ''}
    </span>
  );
}
