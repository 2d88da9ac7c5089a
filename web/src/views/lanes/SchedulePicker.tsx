// The schedule picker (header): which CPU runs the next micro-step
// (docs/trace-format.md §3.1). '' = the trace's own; random takes a seed;
// explicit is offered when the trace has `steps` lines. A change runs the
// trace again from the start (Store.setSchedule); the schedule travels in
// the config's sets (schedule=...), so in share links and the live URL.
import { useEffect, useState } from 'react';
import { useAppState, useStore } from '../hooks';
import { STRINGS } from './strings';

const T = STRINGS.sched;
const KINDS = ['serial', 'round-robin', 'random', 'timed', 'explicit'] as const;

/** The kind and random seed of a schedule spec ("random seed=5"). */
export function scheduleParts(spec: string | undefined): { kind: string; seed: string } {
  const words = (spec ?? '').trim().split(/\s+/).filter(Boolean);
  const seed = words.find((w) => w.startsWith('seed='))?.slice(5) ?? '1';
  return { kind: words[0] ?? '', seed };
}

/** The spec of a kind (and seed, for random). */
export function scheduleSpec(kind: string, seed: string): string {
  if (!kind) return '';
  return kind === 'random' ? `random seed=${/^\d+$/.test(seed) ? seed : '1'}` : kind;
}

export function SchedulePicker() {
  const st = useAppState();
  const store = useStore();
  const own = st.frame?.snapshot.config.schedule;
  const { kind, seed } = scheduleParts(st.config.schedule);
  const [seedText, setSeedText] = useState(seed);
  useEffect(() => setSeedText(seed), [seed]);
  // explicit needs the trace's steps lines
  const hasSteps = (own?.steps ?? 0) > 0;
  const kinds = KINDS.filter((k) => k !== 'explicit' || hasSteps || kind === 'explicit');
  const ownText = own ? `${own.kind}${own.kind === 'random' && own.seed ? ` seed=${own.seed}` : ''}` : '?';
  return (
    <span className="sched-picker" data-testid="schedule-picker" data-schedule={st.config.schedule ?? ''} title={T.title}>
      <label>
        {T.label}{' '}
        <select
          aria-label={T.aria}
          value={kind}
          disabled={!st.frame}
          onChange={(e) => void store.setSchedule(scheduleSpec(e.target.value, seedText))}
        >
          <option value="">{T.own(ownText)}</option>
          {kinds.map((k) => (
            <option key={k} value={k}>{T.kinds[k] ?? k}</option>
          ))}
        </select>
      </label>
      {kind === 'random' && (
        <form
          className="sched-seed"
          onSubmit={(e) => {
            e.preventDefault();
            void store.setSchedule(scheduleSpec('random', seedText.trim()));
          }}
        >
          <label>
            {T.seedLabel}{' '}
            <input aria-label={T.seedAria} size={5} inputMode="numeric" value={seedText} onChange={(e) => setSeedText(e.target.value)} />
          </label>{' '}
          <button type="submit">{T.seedSet}</button>
        </form>
      )}
    </span>
  );
}
