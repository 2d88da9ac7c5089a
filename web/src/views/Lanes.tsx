// The CPU lanes panel (viz/lanes.ts over the frame's window of events),
// "step this CPU" (Store.stepCpu: a step chosen by hand, part of the run)
// and the steps chosen so far. Strings: views/lanes/strings.ts.
import { useMemo, useRef, useState } from 'react';
import { ready } from '../state/actions';
import { LANES_WINDOWS } from '../state/store';
import { lanesModel, renderLanes, windowFunctions } from '../viz/lanes';
import { useD3, useSelect, useStore, useWidth, HoldOffscreen } from './hooks';
import { STRINGS } from './lanes/strings';
import { Panel } from './panels/Panel';

const T = STRINGS;
/** Up to this many CPUs get a button each; more get a picker. */
const BUTTONS_MAX = 16;

/** "Step this CPU": a button per CPU (or a picker), the steps chosen so
 * far, forgetting them, the run as a steps line. */
export function StepCpuControls() {
  // what it shows of the frame, not the frame: the same on most steps
  const st = useSelect((s) => ({
    shown: s.frame !== null, stopped: s.frame?.stopped, atStart: s.frame?.seq === 0, cpus: s.frame?.snapshot.topology.nr_cpus ?? 0,
    sched: s.frame?.snapshot.config.schedule?.kind ?? 'serial',
    ready: ready(s), busy: s.busy && !s.playing, focusCpu: s.focusCpu, handNote: s.handNote, hand: s.hand,
  }));
  const store = useStore();
  const [pick, setPick] = useState(0);
  const [line, setLine] = useState<string | null>(null);
  if (!st.shown) return null;
  const { cpus, sched } = st;
  const off = !st.ready || st.busy || st.stopped;
  return (
    <div className="step-cpu" data-testid="step-cpu">
      <p className="small">{T.step.intro}</p>
      <div className="form">
        {cpus <= BUTTONS_MAX ? (
          [...Array(cpus).keys()].map((c) => (
            <button
              key={c}
              type="button"
              data-step-cpu={c}
              aria-label={T.step.aria(c)}
              aria-pressed={st.focusCpu === c ? true : undefined}
              disabled={off}
              onClick={() => void store.stepCpu(c)}
            >
              {T.step.button(c)}
            </button>
          ))
        ) : (
          <>
            <label>
              {T.step.pickLabel}{' '}
              <select aria-label={T.step.pickAria} value={st.focusCpu ?? pick} onChange={(e) => setPick(Number(e.target.value))}>
                {[...Array(cpus).keys()].map((c) => (
                  <option key={c} value={c}>{c}</option>
                ))}
              </select>
            </label>
            <button type="button" aria-label={T.step.stepPickedAria} disabled={off} onClick={() => void store.stepCpu(st.focusCpu ?? pick)}>
              {T.step.stepPicked}
            </button>
          </>
        )}
      </div>
      {st.handNote && (
        <p className="hand-note" role="status" data-testid="hand-note" data-note={st.handNote.kind}>
          {st.handNote.kind === 'refused'
            ? T.step.refused[st.handNote.why](st.handNote.cpu)
            : st.handNote.kind === 'dropped'
              ? T.step.dropped(st.handNote.seq)
              : T.step.badLink()}
        </p>
      )}
      <div className="form small">
        <span title={T.step.recordedHelp}>{T.step.recorded}:</span>
        <code className="hand-steps" data-testid="hand-steps">{st.hand || T.step.none}</code>
        {st.hand && (
          <button type="button" aria-label={T.step.clearAria} disabled={!st.ready || st.busy} onClick={() => void store.clearHand()}>
            {T.step.clear}
          </button>
        )}
        <button
          type="button"
          aria-label={T.step.stepsLineAria}
          disabled={!st.ready || st.busy || st.atStart}
          onClick={() => void store.stepsLine().then(setLine)}
        >
          {T.step.stepsLine}
        </button>
      </div>
      {line !== null && (
        <div className="small">
          {/* trace syntax, the same in every language */}
          <code className="steps-line" data-testid="steps-line">{`steps ${line}`}</code>
          <p>{T.step.stepsLineHelp(sched)}</p>
        </div>
      )}
    </div>
  );
}

/** Held while out of sight or veiled (HoldOffscreen). */
export function LanesView() {
  return <HoldOffscreen view={LanesViewBody} />;
}

function LanesViewBody() {
  const st = useSelect(({ frame, focusNode, focusCpu, lanesWindow, playing }) => ({ frame, focusNode, focusCpu, lanesWindow, playing }));
  const store = useStore();
  const f = st.frame;
  const wrap = useRef<HTMLDivElement>(null);
  const width = useWidth(wrap, 640);
  const snap = f?.snapshot;
  const events = f?.lanes;
  const many = (snap?.topology.nr_cpus ?? 0) > BUTTONS_MAX;
  const [busyOnly, setBusyOnly] = useState<boolean | null>(null);
  const only = busyOnly ?? many;
  const model = useMemo(
    () => (snap ? lanesModel(snap, events ?? [], st.focusNode, only, st.focusCpu) : null),
    [snap, events, st.focusNode, only, st.focusCpu],
  );
  const ref = useD3<SVGSVGElement>(
    (el) =>
      snap &&
      model &&
      renderLanes(el, snap, model, {
        width: width - 4,
        focusCpu: st.focusCpu,
        onSelectCpu: (cpu) => store.selectCpu(store.getState().focusCpu === cpu ? null : cpu),
        text: T.lanes,
        live: st.playing,
      }),
    [snap, model, width, st.focusCpu, st.playing],
  );
  const fns = useMemo(() => (model ? windowFunctions(model) : []), [model]);
  return (
    <Panel
      id="lanes"
      title={T.panel.title}
      extra={model && <small data-testid="lanes-axis">{model.axis === 'cycles' ? T.panel.axisTimed : T.panel.axisStep}</small>}
    >
      <div className="form">
        <label>
          {T.panel.windowLabel}{' '}
          <select aria-label={T.panel.windowAria} value={st.lanesWindow} onChange={(e) => void store.setLanesWindow(Number(e.target.value))}>
            {LANES_WINDOWS.map((n) => (
              <option key={n} value={n}>{n}</option>
            ))}
          </select>{' '}
          {T.panel.windowUnit}
        </label>
        <label title={T.panel.busyOnlyTitle}>
          <input type="checkbox" checked={only} onChange={(e) => setBusyOnly(e.target.checked)} /> {T.panel.busyOnly}
        </label>
      </div>
      <StepCpuControls />
      <div className="scroll lanes-wrap" ref={wrap} role="region" aria-label={T.panel.region}>
        <svg ref={ref} className="lanes" role="img" aria-label={T.lanes.label} />
      </div>
      {model && model.segs.length === 0 && <p className="small">{T.panel.empty}</p>}
      {fns.length > 0 && (
        <ul className="lanes-key small" aria-label={T.panel.keyAria} data-testid="lanes-key">
          {fns.map((x) => (
            <li key={x.fn} data-lane-key-fn={x.fn}>
              <i style={{ background: x.color }} aria-hidden="true" /> {x.fn}
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
