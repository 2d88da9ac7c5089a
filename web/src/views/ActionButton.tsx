// A button of a store action (state/actions.ts): its text, accessible name,
// title (label and key) and whether it is enabled come from the action's
// record, as the keyboard's and the test hook's do.
import { action, title, type ActionName } from '../state/actions';
import { useAppState, useStore } from './hooks';

export function ActionButton({ name, args = [], disabled = false }: { name: ActionName; args?: unknown[]; disabled?: boolean }) {
  const store = useStore();
  const st = useAppState();
  const a = action(name);
  const b = a.button;
  const text = !b ? a.label : typeof b.text === 'function' ? b.text(st) : b.text;
  const aria = typeof b?.aria === 'function' ? b.aria(st) : b?.aria;
  return (
    <button
      type="button"
      onClick={() => void a.run(store, ...args)}
      disabled={disabled || (a.enabled ? !a.enabled(st) : false)}
      aria-label={aria}
      aria-pressed={b?.pressed?.(st)}
      title={title(a)}
    >
      {text}
    </button>
  );
}
