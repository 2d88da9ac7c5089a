// Keyboard shortcuts: the keys of the actions (actions.ts), shown in the
// help panel.
import { SHORTCUTS, type Shortcut } from './actions';
import type { Store } from './store';

export { SHORTCUTS, type Shortcut };

export function keyName(e: KeyboardEvent): string {
  return (e.shiftKey && e.key.startsWith('Arrow') ? 'Shift+' : '') + e.key;
}

export function findShortcut(e: KeyboardEvent): Shortcut | undefined {
  if (e.ctrlKey || e.metaKey || e.altKey) return undefined;
  const t = e.target as HTMLElement | null;
  const tag = t?.tagName;
  if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || t?.isContentEditable) return undefined;
  // keep Space/Enter for focused buttons and other controls
  if ((e.key === ' ' || e.key === 'Enter') && t && t !== document.body && (tag === 'BUTTON' || t.getAttribute('role') === 'button' || t.getAttribute('role') === 'tab')) return undefined;
  const k = keyName(e);
  return SHORTCUTS.find((s) => s.keys.includes(k));
}

export function installShortcuts(store: Store): () => void {
  const on = (e: KeyboardEvent) => {
    const sc = findShortcut(e);
    if (!sc) return;
    e.preventDefault();
    void sc.run(store);
  };
  window.addEventListener('keydown', on);
  return () => window.removeEventListener('keydown', on);
}
