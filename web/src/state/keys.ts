// Keyboard shortcuts: key -> named store action. Shown in the help panel.
import type { Store } from './store';

export interface Shortcut {
  keys: string[];
  label: string;
  run: (s: Store) => unknown;
}

export const SHORTCUTS: Shortcut[] = [
  { keys: [' ', 'k'], label: 'play / pause', run: (s) => s.togglePlay() },
  { keys: ['ArrowRight', '.'], label: 'Step (one micro-step)', run: (s) => s.stepForward() },
  { keys: ['ArrowLeft', ','], label: 'Step back (one micro-step)', run: (s) => s.stepBack() },
  { keys: ['Shift+ArrowRight', ']'], label: 'step one op', run: (s) => s.stepOp() },
  { keys: ['Shift+ArrowLeft', '['], label: 'back one op', run: (s) => s.opBack() },
  { keys: ['Home'], label: 'to start', run: (s) => s.toStart() },
  { keys: ['End'], label: 'to end', run: (s) => s.toEnd() },
  { keys: ['+', '='], label: 'faster', run: (s) => s.faster() },
  { keys: ['-'], label: 'slower', run: (s) => s.slower() },
  { keys: ['b'], label: 'run to breakpoint', run: (s) => s.runToBreakpoint() },
  { keys: ['1'], label: 'break at next alloc_slowpath', run: (s) => s.runToBreakpoint({ kind: 'alloc_slowpath' }) },
  { keys: ['2'], label: 'break at next new slab', run: (s) => s.runToBreakpoint({ kind: 'new_slab' }) },
  { keys: ['3'], label: 'break at next discard', run: (s) => s.runToBreakpoint({ kind: 'discard' }) },
  { keys: ['a'], label: 'free play: allocate', run: (s) => s.freeAlloc() },
  { keys: ['f'], label: 'free play: free the last handle', run: (s) => s.freeFree() },
  { keys: ['g'], label: 'jump to op… (focus the op box)', run: () => (document.querySelector('input[aria-label="Jump to op"]') as HTMLInputElement | null)?.focus() },
];

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
