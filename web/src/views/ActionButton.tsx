// A button of a store action (state/actions.ts): whether it is enabled and
// pressed come from the action's record, as the keyboard's and the test
// hook's do; its words from the catalogs (shortcuts.ts).
import { action, type ActionName } from '../state/actions';
import { t } from '../i18n';
import { useT } from '../i18n/hooks';
import { shownState, useSelect, useStore } from './hooks';
import { actionTitle, ARIA_MSG, BUTTON_MSG } from './shortcuts';

export function ActionButton({ name, args = [], disabled = false }: { name: ActionName; args?: unknown[]; disabled?: boolean }) {
  useT();
  const store = useStore();
  const a = action(name);
  const b = a.button;
  // what the button shows of the state, not the state: the same on most
  // steps while playing (the words are looked up below, in the language)
  const v = useSelect((s) => {
    const st = shownState(s);
    const msg = BUTTON_MSG[name]?.(st);
    return {
      textKey: msg?.[0],
      ariaKey: msg ? msg[1] : ARIA_MSG[name],
      text: !b ? a.label : typeof b.text === 'function' ? b.text(st) : b.text,
      aria: typeof b?.aria === 'function' ? b.aria(st) : b?.aria,
      enabled: a.enabled ? a.enabled(st) : true,
      pressed: b?.pressed?.(st),
    };
  });
  return (
    <button
      type="button"
      onClick={() => void a.run(store, ...args)}
      disabled={disabled || !v.enabled}
      aria-label={v.ariaKey ? t(v.ariaKey) : v.aria}
      aria-pressed={v.pressed}
      title={actionTitle(a)}
    >
      {v.textKey ? t(v.textKey) : v.text}
    </button>
  );
}
