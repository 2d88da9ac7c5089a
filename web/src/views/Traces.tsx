// Traces: bring your own kernel trace. Drag and drop (here or anywhere on
// the page), a file picker, a paste box and the bundled samples; the import
// runs in the worker, streamed in chunks, with a progress bar; its
// diagnostics summary is shown before the replay; the trace can be exported
// as native v1; uploaded traces are kept in IndexedDB (listed, deletable).
// The panel's content is TracesBody.tsx, in the main chunk: all it draws
// before an import is there from the start (loaded on first use, a share
// link or a restarted engine drew the panel with or without its drop
// zone); only the import's result is a chunk (ImportSummary.tsx).
import { useEffect, useState } from 'react';
import type { Store } from '../state/store';
import { Panel } from './panels/Panel';
import { useAppState, useStore } from './hooks';
import { t } from '../i18n';
import { ImportUi } from './TracesBody';

export function fmtBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1 << 20) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / (1 << 20)).toFixed(1)} MiB`;
}

function download(text: string, name: string): void {
  const blob = new Blob([text], { type: 'text/plain' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

export async function exportV1(store: Store): Promise<void> {
  const r = await store.exportV1();
  download(r.text, r.name);
}

/** Drops of files anywhere on the page import them (and never navigate away). */
export function useWindowDrop(store: Store): boolean {
  const [over, setOver] = useState(false);
  useEffect(() => {
    let depth = 0;
    const hasFiles = (e: DragEvent) => !!e.dataTransfer && [...e.dataTransfer.types].includes('Files');
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth++;
      setOver(true);
    };
    const leave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const overFn = (e: DragEvent) => {
      if (hasFiles(e)) e.preventDefault();
    };
    const drop = (e: DragEvent) => {
      depth = 0;
      setOver(false);
      const f = e.dataTransfer?.files?.[0];
      if (!f) return;
      e.preventDefault();
      if (!store.getState().importing) void store.importFile(f, f.name);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragleave', leave);
    window.addEventListener('dragover', overFn);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('dragover', overFn);
      window.removeEventListener('drop', drop);
    };
  }, [store]);
  return over;
}

/** The import's format: the core's list (its manifest), "auto" detects. */
export function FormatPicker({ value, onChange }: { value: string; onChange: (format: string) => void }) {
  const st = useAppState();
  return (
    <label>
      {t('imp.format')}{' '}
      <select aria-label={t('imp.formatAria')} value={value} onChange={(e) => onChange(e.target.value)}>
        {st.importFormats.map((f) => (
          <option key={f.name} value={f.name}>
            {f.label}
          </option>
        ))}
      </select>
    </label>
  );
}

export function TracesPanel() {
  const store = useStore();
  const pageOver = useWindowDrop(store);
  return (
    <Panel id="traces" title={t('imp.panel')}>
      <ImportUi pageOver={pageOver} />
    </Panel>
  );
}
