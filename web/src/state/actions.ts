// The store's actions as one list: each record names a store method and
// says how people and tests reach it (its label, keyboard keys, when it is
// enabled, its button). The buttons (views/Controls.tsx, the free-play
// panel), the keyboard table (keys.ts, the help panel) and the test hook
// (window.__slubviz.act) all read this list; an action is added here once.
// The lesson player's store keeps its actions the same way (actionsOf,
// runAction: lessons/store.ts).
import type { AppState, Store } from './store';

/** Members of S that are methods (the actions a record may name). */
export type MethodOf<S> = { [K in keyof S]: S[K] extends (...a: never[]) => unknown ? K : never }[keyof S] & string;
type Method = MethodOf<Store>;

export interface Shortcut {
  keys: readonly string[];
  label: string;
  run: (s: Store) => unknown;
}

/** An action of store S (state St). */
export interface ActionOf<S, St, N extends string = string> {
  /** the store method, and the name tests call it by */
  name: N;
  /** what it does, for the keyboard table and the button's title */
  label: string;
  /** keyboard keys (KeyboardEvent.key; "Shift+" for shifted arrows) */
  keys?: readonly string[];
  /** whether its button and keys work now (always, if absent) */
  enabled?: (st: St) => boolean;
  run: (s: S, ...args: unknown[]) => unknown;
  /** what the keys do when not `run` (a value to ask for first) */
  onKey?: (s: S) => unknown;
  /** more keys that run it with fixed arguments */
  presets?: { keys: readonly string[]; label: string; args: unknown[] }[];
  /** its button: visible text and accessible name (may depend on the state) */
  button?: { text: string | ((st: St) => string); aria?: string | ((st: St) => string); pressed?: (st: St) => boolean };
}

export type Action<N extends Method = Method> = ActionOf<Store, AppState, N>;

/** The record maker of store S's actions: run calls the method of that name. */
export function actionsOf<S, St>() {
  return <const N extends MethodOf<S>>(
    name: N,
    label: string,
    more: Omit<ActionOf<S, St, N>, 'name' | 'label' | 'run'> & { run?: ActionOf<S, St>['run'] } = {},
  ): ActionOf<S, St, N> => {
    const run = more.run ?? ((s: S, ...args: unknown[]) => (s[name] as (...a: unknown[]) => unknown).apply(s, args));
    return { name, label, ...more, run };
  };
}

const def = actionsOf<Store, AppState>();

/** A trace is open and the engine is ready. */
export const ready = (st: AppState): boolean => !!st.frame && st.status === 'ready';

// In the keyboard table's order.
export const ACTIONS = [
  def('togglePlay', 'play / pause', {
    keys: [' ', 'k'],
    enabled: ready,
    button: { text: (st) => (st.playing ? '❚❚ pause' : '▶ play'), aria: (st) => (st.playing ? 'Pause' : 'Play'), pressed: (st) => st.playing },
  }),
  def('stepForward', 'Step (one micro-step)', { keys: ['ArrowRight', '.'], enabled: ready, button: { text: 'step ▶', aria: 'Step' } }),
  def('stepBack', 'Step back (one micro-step)', { keys: ['ArrowLeft', ','], enabled: ready, button: { text: '◀ step', aria: 'Step back' } }),
  def('stepOp', 'step one op', { keys: ['Shift+ArrowRight', ']'], enabled: ready, button: { text: 'op ▶▶', aria: 'Step op' } }),
  def('opBack', 'back one op', { keys: ['Shift+ArrowLeft', '['], enabled: ready, button: { text: '◀◀ op', aria: 'Op back' } }),
  def('toStart', 'to start', { keys: ['Home'], enabled: ready, button: { text: '|◀', aria: 'To start' } }),
  def('toEnd', 'to end', { keys: ['End'], enabled: ready, button: { text: '▶|', aria: 'To end' } }),
  def('faster', 'faster', { keys: ['+', '='] }),
  def('slower', 'slower', { keys: ['-'] }),
  def('runToBreakpoint', 'run to breakpoint', {
    keys: ['b'],
    enabled: ready,
    presets: [
      { keys: ['1'], label: 'break at next alloc_slowpath', args: [{ kind: 'alloc_slowpath' }] },
      { keys: ['2'], label: 'break at next new slab', args: [{ kind: 'new_slab' }] },
      { keys: ['3'], label: 'break at next discard', args: [{ kind: 'discard' }] },
    ],
    button: { text: 'Run to breakpoint', aria: 'Run to breakpoint' },
  }),
  def('freeAlloc', 'free play: allocate', { keys: ['a'], enabled: (st) => !!st.frame && !!st.fp.cache, button: { text: 'Allocate' } }),
  def('freeFree', 'free play: free the last handle', { keys: ['f'], enabled: (st) => !!st.frame, button: { text: 'Free' } }),
  def('jumpToOp', 'jump to op… (focus the op box)', {
    keys: ['g'],
    onKey: () => (document.querySelector('input[data-testid=jump-op]') as HTMLInputElement | null)?.focus(),
  }),
  def('seekSeq', 'go to micro-step N'),
  def('play', 'play'),
  def('pause', 'pause'),
  def('setSpeed', 'set the speed (micro-steps per second)'),
  def('setBreakpoint', 'set the breakpoint'),
  def('selectCache', 'select a cache'),
  def('selectSlab', 'select a slab'),
  def('selectCpu', 'focus a CPU'),
  def('selectNode', 'show one node\'s CPUs'),
  def('setTextTab', 'show a text view'),
  def('setAnim', 'set the animation time'),
  def('setFreePlay', 'set the free-play CPU and cache'),
  def('restart', 'run the trace again'),
  def('setConfig', 'change the preset or switches'),
  def('loadScenario', 'open a bundled scenario'),
  def('openTrace', 'open a trace text'),
  def('openRef', 'open a trace the worker holds'),
  def('importFile', 'import a file'),
  def('importText', 'import pasted text'),
  def('importSample', 'import a bundled sample'),
  def('cancelImport', 'cancel the import'),
  def('replayImport', 'open the imported trace'),
  def('dismissImport', 'close the import summary'),
  def('refreshStored', 'list the stored traces'),
  def('openStored', 'open a stored trace'),
  def('deleteStored', 'delete a stored trace'),
  def('exportV1', 'export the trace as v1'),
  def('setSiteFilter', 'filter the slab detail by call site'),
  def('dismissNotice', 'dismiss the notice'),
  def('openLink', 'open a share link'),
  def('setCompare', 'compare with another kernel (A/B), or stop'),
  def('setSchedule', 'change the schedule (serial, round-robin, random seed=N, timed, explicit)'),
  def('stepCpu', 'step this CPU (one micro-step of a CPU chosen by hand)'),
  def('clearHand', 'forget the steps chosen by hand'),
  def('stepsLine', 'the run so far as a trace steps line'),
  def('setLanesWindow', 'how many steps the CPU lanes show'),
  def('dismissHandNote', 'dismiss the note about steps chosen by hand'),
] as const;

export type ActionName = (typeof ACTIONS)[number]['name'];

const BY_NAME = new Map<string, Action>(ACTIONS.map((a) => [a.name, a as Action]));

export function action(name: ActionName): Action {
  return BY_NAME.get(name)!;
}

/** A key as the keyboard table writes it. */
export function keyLabel(k: string): string {
  return k === ' ' ? 'Space' : k.replace('ArrowRight', '→').replace('ArrowLeft', '←').replace(/^[a-z]$/, (c) => c.toUpperCase());
}

/** A button's title: the label and its first key. */
export function title(a: Action): string {
  const label = a.label.charAt(0).toUpperCase() + a.label.slice(1);
  return a.keys?.length ? `${label} (${keyLabel(a.keys[0])})` : label;
}

/** The keyboard table: every key the actions take, in the list's order. */
export const SHORTCUTS: Shortcut[] = ACTIONS.flatMap((x) => {
  const a = x as Action;
  const guard = (s: Store, fn: () => unknown) => (a.enabled && !a.enabled(s.getState()) ? undefined : fn());
  const out: Shortcut[] = [];
  if (a.keys) out.push({ keys: a.keys, label: a.label, run: (s) => guard(s, () => (a.onKey ? a.onKey(s) : a.run(s))) });
  for (const p of a.presets ?? []) out.push({ keys: p.keys, label: p.label, run: (s) => guard(s, () => a.run(s, ...p.args)) });
  return out;
});

/** Runs the action `name` of `list` on `store` (a test hook), then waits
 * for the store to settle. */
export async function runAction<S extends { idle(): Promise<void> }>(
  list: readonly { name: string; run: (s: S, ...args: unknown[]) => unknown }[],
  store: S,
  name: string,
  args: unknown[],
  what = 'action',
): Promise<unknown> {
  const a = list.find((x) => x.name === name);
  if (!a) throw new Error(`no ${what} ${name}`);
  const r = await a.run(store, ...args);
  await store.idle();
  return r;
}

/** Runs an app action by name (window.__slubviz.act). */
export function act(store: Store, name: ActionName, ...args: unknown[]): Promise<unknown> {
  return runAction(ACTIONS as readonly Action[], store, name, args);
}
