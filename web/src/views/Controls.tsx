import { useEffect, useRef, useState } from 'react';
import type { BreakpointKind, RunMeta } from '../engine/protocol';
import { ready, type ActionName } from '../state/actions';
import { SPEEDS } from '../state/store';
import { renderTimeline } from '../viz/timeline';
import { PATH_COLORS, PATH_LABELS } from '../viz/common';
import { ActionButton } from './ActionButton';
import { useAppState, useD3, useStore } from './hooks';

/** The playback buttons, in their row's order. */
const PLAYBACK: ActionName[] = ['toStart', 'opBack', 'stepBack', 'togglePlay', 'stepForward', 'stepOp', 'toEnd'];

export function Controls() {
  const store = useStore();
  const st = useAppState();
  const f = st.frame;
  const disabled = !ready(st);
  const [jump, setJump] = useState('');
  const [obj, setObj] = useState('');
  return (
    <section className="controls" aria-label="Playback controls">
      <div className="row">
        {PLAYBACK.map((name) => (
          <ActionButton key={name} name={name} />
        ))}
        <label className="speed">
          speed
          <select aria-label="Speed (micro-steps per second)" value={st.speed} onChange={(e) => store.setSpeed(Number(e.target.value))}>
            {SPEEDS.map((s) => (
              <option key={s} value={s}>{s}/s</option>
            ))}
          </select>
        </label>
        <form
          className="jump"
          onSubmit={(e) => {
            e.preventDefault();
            const n = Number(jump);
            if (Number.isInteger(n) && n >= 0) void store.jumpToOp(n);
          }}
        >
          <label>
            op
            <input aria-label="Jump to op" inputMode="numeric" value={jump} size={7} onChange={(e) => setJump(e.target.value)} placeholder="N" />
          </label>
          <button type="submit" disabled={disabled}>Jump</button>
        </form>
      </div>
      <div className="row">
        <label>
          breakpoint
          <select
            aria-label="Breakpoint"
            value={st.breakpoint.kind}
            onChange={(e) => store.setBreakpoint({ kind: e.target.value as BreakpointKind, obj: obj === '' ? undefined : Number(obj) })}
          >
            <option value="alloc_slowpath">next alloc_slowpath</option>
            <option value="new_slab">next new slab</option>
            <option value="discard">next discard</option>
            <option value="object">object X changes</option>
          </select>
        </label>
        {st.breakpoint.kind === 'object' && (
          <label>
            object id
            <input
              aria-label="Object id"
              size={6}
              value={obj}
              onChange={(e) => {
                setObj(e.target.value);
                store.setBreakpoint({ kind: 'object', obj: e.target.value === '' ? undefined : Number(e.target.value) });
              }}
            />
          </label>
        )}
        <ActionButton name="runToBreakpoint" />
        {st.lastHit && (
          <span className="hit" role="status" data-hit={st.lastHit.found ? 'true' : 'false'}>
            {st.lastHit.found ? `stopped at step ${st.lastHit.seq}` : 'not found before the end'}
          </span>
        )}
        <span className="pos" data-testid="position" aria-live="polite">
          {f ? `op ${f.opsDone}${f.inflight ? '+' : ''} / ${f.opsTotal} · step ${f.seq} / ${st.meta?.seqTotal ?? '?'}` : ''}
        </span>
        {st.meta && <CheckpointInfo meta={st.meta} />}
        {st.busy && <span className="busy">working…</span>}
        {st.progress && (
          <progress aria-label={`${st.progress.what} progress`} value={st.progress.done} max={Math.max(1, st.progress.total)} />
        )}
      </div>
      <Timeline />
    </section>
  );
}

function Timeline() {
  const store = useStore();
  const st = useAppState();
  const f = st.frame;
  const total = st.meta?.opsTotal ?? 0;
  const [width, setWidth] = useState(800);
  const wrap = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = wrap.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => setWidth(Math.max(100, el.clientWidth)));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const svg = useD3<SVGSVGElement>((el) => renderTimeline(el, st.meta?.markers ?? [], total, f?.opsDone ?? 0, width), [st.meta, f?.opsDone, width]);
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
      const t = pending.current;
      pending.current = null;
      await store.jumpToOp(t);
    }
    running.current = false;
    setLocal(null);
  };
  return (
    <div className="timeline" ref={wrap}>
      <svg ref={svg} className="markers" aria-hidden="true" />
      <input
        type="range"
        aria-label="Timeline (op)"
        min={0}
        max={total}
        value={local ?? f?.opsDone ?? 0}
        disabled={!f}
        onChange={(e) => void scrub(Number(e.target.value))}
        style={{ width: '100%' }}
      />
      <div className="legend">
        {Object.entries(PATH_LABELS).map(([k, v]) => (
          <span key={k}>
            <i style={{ background: PATH_COLORS[k] }} /> {v}
          </span>
        ))}
      </div>
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
      title={`Seeks restore the nearest checkpoint (one every ${meta.checkpointEvery} ops) and replay from there. Checkpoints take at most ${MiB(meta.checkpointBudget)} of memory; a bigger trace gets fewer of them.${degraded ? ` The browser ran out of memory for ${meta.checkpointFailures} of them.` : ''}`}
    >
      {meta.checkpoints} checkpoints · {MiB(meta.checkpointBytes)} of {MiB(meta.checkpointBudget)}
      {degraded ? ' (memory short: fewer checkpoints)' : ''}
    </span>
  );
}
