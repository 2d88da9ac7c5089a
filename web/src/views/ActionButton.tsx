// A button of a store action (state/actions.ts): whether it is enabled and
// pressed come from the action's record, as the keyboard's and the test
// hook's do; its words from the catalogs (shortcuts.ts).
import { action, type ActionName } from '../state/actions';
import { t } from '../i18n';
import { useT } from '../i18n/hooks';
import { useAppState, useStore } from './hooks';
import { actionTitle, ARIA_MSG, BUTTON_MSG } from './shortcuts';

export function ActionButton({ name, args = [], disabled = false }: { name: ActionName; args?: unknown[]; disabled?: boolean }) {
  useT();
  const store = useStore();
  const st = useAppState();
  const a = action(name);
  const b = a.button;
  const msg = BUTTON_MSG[name]?.(st);
  const text = msg ? t(msg[0]) : !b ? a.label : typeof b.text === 'function' ? b.text(st) : b.text;
  const ariaKey = msg ? msg[1] : ARIA_MSG[name];
  const aria = ariaKey ? t(ariaKey) : typeof b?.aria === 'function' ? b.aria(st) : b?.aria;
  return (
    <button
      type="button"
      onClick={() => void a.run(store, ...args)}
      disabled={disabled || (a.enabled ? !a.enabled(st) : false)}
      aria-label={aria}
      aria-pressed={b?.pressed?.(st)}
      title={actionTitle(a)}
    >
      {text}
    </button>
  );
}
