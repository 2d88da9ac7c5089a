// The actions' words in the UI language: the keyboard table's labels (by
// the shortcut's first key) and the buttons' text and accessible names (by
// action). state/actions.ts keeps the English originals for the test hook.
import type { AppState } from '../state/store';
import { keyLabel, type Action, type ActionName, type Shortcut } from '../state/actions';
import { t, type MsgKey } from '../i18n';

export const SHORTCUT_MSG: Record<string, MsgKey> = {
  ' ': 'act.togglePlay',
  ArrowRight: 'act.stepForward',
  ArrowLeft: 'act.stepBack',
  'Shift+ArrowRight': 'act.stepOp',
  'Shift+ArrowLeft': 'act.opBack',
  Home: 'act.toStart',
  End: 'act.toEnd',
  '+': 'act.faster',
  '-': 'act.slower',
  b: 'act.runToBreakpoint',
  '1': 'act.bp1',
  '2': 'act.bp2',
  '3': 'act.bp3',
  a: 'act.freeAlloc',
  f: 'act.freeFree',
  g: 'act.jumpToOp',
};

export function shortcutLabel(s: Shortcut): string {
  const k = SHORTCUT_MSG[s.keys[0]];
  return k ? t(k) : s.label;
}

/** A button's text and accessible name: [text, aria]. */
export const BUTTON_MSG: Partial<Record<ActionName, (st: AppState) => [MsgKey, MsgKey | null]>> = {
  togglePlay: (st) => (st.playing ? ['btn.pause', 'btn.pauseAria'] : ['btn.play', 'btn.playAria']),
  stepForward: () => ['btn.step', 'btn.stepAria'],
  stepBack: () => ['btn.stepBack', 'btn.stepBackAria'],
  stepOp: () => ['btn.stepOp', 'btn.stepOpAria'],
  opBack: () => ['btn.opBack', 'btn.opBackAria'],
  runToBreakpoint: () => ['btn.runToBreakpoint', 'btn.runToBreakpoint'],
  freeAlloc: () => ['btn.allocate', null],
  freeFree: () => ['btn.free', null],
};
/** Buttons whose text is a symbol: only the accessible name is words. */
export const ARIA_MSG: Partial<Record<ActionName, MsgKey>> = { toStart: 'btn.toStartAria', toEnd: 'btn.toEndAria' };

/** A button's title: the label and its first key. */
export function actionTitle(a: Action): string {
  const k = a.keys?.[0] !== undefined ? SHORTCUT_MSG[a.keys[0]] : undefined;
  const label = k ? t(k) : a.label;
  const cap = label.charAt(0).toUpperCase() + label.slice(1);
  return a.keys?.length ? `${cap} (${keyLabel(a.keys[0])})` : cap;
}
