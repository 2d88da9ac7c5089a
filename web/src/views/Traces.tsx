// Traces: bring your own kernel trace. Drag and drop (here or anywhere on
// the page), a file picker, a paste box and the bundled samples; the import
// runs in the worker, streamed in chunks, with a progress bar; its
// diagnostics summary is shown before the replay; the trace can be exported
// as native v1; uploaded traces are kept in IndexedDB (listed, deletable).
import { useEffect, useRef, useState } from 'react';
import type { ImportFail, ImportOk } from '../engine/protocol';
import type { ImportSummary } from '../engine/types';
import type { Store } from '../state/store';
import { Panel } from './panels/Panel';
import { useAppState, useStore } from './hooks';

const NOTES: Record<string, string> = {
  no_cpu: 'events had no CPU column (trimmed lines): CPU unknown, replayed on CPU 0',
  gfp_unknown: 'events had gfp flags the model does not know (dropped)',
  node_dropped: 'node targets of 64 and up were dropped',
  free_other_cache: "kmem_cache_free named another cache than the object's",
  kmalloc_size_differs: "kmalloc events show a bytes_alloc the model's kmalloc caches do not have",
  names_adjusted: 'cache names were changed to fit the v1 alphabet',
  ts_backwards: 'times timestamps went backwards (several dumps in one file?): replayed in file order',
  lost_events: 'events were lost by the tracer: allocations and frees may not pair up',
  realloc_in_place: 'reallocs stayed in place',
};

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

function SummaryFail({ r }: { r: ImportFail }) {
  return (
    <div className="import-summary" data-testid="import-summary" data-ok="false" data-cancelled={r.cancelled ? 'true' : 'false'}>
      <p role="alert" className="error">
        {r.cancelled ? `Import of ${r.name} cancelled` : `Nothing could be imported from ${r.name}`} ({fmtBytes(r.bytes)}, {r.lines} lines read)
        {r.cancelled ? '' : ':'}
      </p>
      {!r.cancelled && (
        <pre className="import-errors" data-testid="import-errors">
          {r.error.replace(/ \((line \d+)/, '\n($1')}
        </pre>
      )}
    </div>
  );
}

function Counts({ title, rows }: { title: string; rows: [string, number, string][] }) {
  if (rows.length === 0) return null;
  return (
    <table className="counts">
      <caption>{title}</caption>
      <tbody>
        {rows.map(([k, n, what]) => (
          <tr key={k} data-key={k} data-count={n}>
            <td>{n}</td>
            <th scope="row">{what}</th>
            <td>
              <code>{k}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function SummaryBody({ s }: { s: ImportSummary }) {
  const reasons = useAppState().skipReasons;
  const skipped = Object.entries(s.skipped).filter(([, n]) => n > 0);
  const notes = Object.entries(s.notes).filter(([k, n]) => n > 0 && k !== 'header_ops');
  const others = Object.entries(s.other_events);
  return (
    <>
      <p data-testid="import-events">
        <b>{s.events}</b> kmem events read, <b>{s.kept}</b> kept, <b>{s.events - s.kept}</b> skipped → <b>{s.ops}</b> ops;{' '}
        <b>{s.unpaired}</b> allocations never freed in the trace{s.rebound ? ` (${s.rebound} allocated again while live)` : ''}.
      </p>
      <Counts title="skipped, by reason" rows={skipped.map(([k, n]) => [k, n, reasons.find((r) => r.name === k)?.text ?? k])} />
      {s.caches.length > 0 && (
        <table className="counts caches" data-testid="import-caches">
          <caption>caches created ({s.caches.length})</caption>
          <thead>
            <tr>
              <th scope="col">cache</th>
              <th scope="col">bytes_req → bytes_alloc</th>
              <th scope="col">declared</th>
              <th scope="col">how</th>
              <th scope="col">allocs</th>
            </tr>
          </thead>
          <tbody>
            {s.caches.slice(0, 50).map((c) => (
              <tr key={c.name} data-cache={c.name} data-origin={c.origin}>
                <td>
                  <code>{c.name}</code>
                </td>
                <td>
                  {c.bytes_req} → {c.bytes_alloc}
                </td>
                <td>
                  size={c.object_size}
                  {c.align ? ` align=${c.align}` : ''}
                  {c.flags !== '0' ? ` ${c.flags}` : ''}
                  {c.ctor ? ' ctor' : ''}
                  {c.size_fallback ? ' (at bytes_alloc)' : ''}
                </td>
                <td>
                  {c.origin === 'inferred'
                    ? 'inferred from the sizes (no name= in the trace)'
                    : c.origin === 'named-by-free'
                      ? 'inferred, named by its kmem_cache_free name='
                      : 'named in the trace'}
                </td>
                <td>{c.allocs}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p>
        pointers:{' '}
        {s.pointers.hashed > 0 && (
          <span data-testid="hashed">
            {s.pointers.hashed} hashed (%p): they pair allocations with frees, but the kernel's slab layout is lost (the model places objects itself).{' '}
          </span>
        )}
        {s.pointers.raw > 0 && <span>{s.pointers.raw} raw addresses (used to pair allocations with frees). </span>}
        {s.pointers.hashed + s.pointers.raw === 0 && 'none'}
      </p>
      <p data-testid="import-topology">
        CPUs seen: {s.cpus_seen || (s.notes.no_cpu ? 'unknown' : 'none')}
        {s.cpus_seen && s.notes.no_cpu ? `; unknown for ${s.notes.no_cpu} events` : ''}
        {s.header_cpus ? ` (the header says ${s.header_cpus})` : ''} · suggested topology: {s.topology.nodes} node(s) with{' '}
        {fmtBytes(s.topology.node_mem)} each, {s.topology.cpus} CPU(s)
      </p>
      {notes.length > 0 && (
        <ul className="notes" data-testid="import-notes">
          {notes.map(([k, n]) => (
            <li key={k} data-note={k}>
              note: {n} {NOTES[k] ?? k}
            </li>
          ))}
          {s.gfp_unknown_names.length > 0 && <li>unknown gfp names: {s.gfp_unknown_names.join(', ')}</li>}
        </ul>
      )}
      {others.length > 0 && (
        <p>
          other events skipped ({s.other_events_total}): {others.map(([k, n]) => `${k} ${n}`).join(', ')}
        </p>
      )}
      {s.callchain_lines > 0 && <p>{s.callchain_lines} stack and callchain lines skipped (perf -g, ftrace ' =&gt; ' frames)</p>}
      {s.cut_line > 0 && (
        <p data-testid="import-cut-line">
          input cut short: the last line ({s.cut_line}) ends without a newline before its event is complete; it was not imported.
        </p>
      )}
      <div data-testid="import-bad-lines" data-bad-lines={s.bad_lines}>
        {s.bad_lines === 0 ? (
          <p>errors: none</p>
        ) : (
          <>
            <p>
              <b>{s.bad_lines}</b> line(s) could not be read (skipped, the import went on):
            </p>
            <ul className="import-errors" data-testid="import-errors">
              {s.errors.map((e, i) => (
                <li key={i} data-line={e.line}>
                  line {e.line}: {e.msg}
                </li>
              ))}
              {s.bad_lines > s.errors.length && <li>… and {s.bad_lines - s.errors.length} more</li>}
            </ul>
          </>
        )}
      </div>
    </>
  );
}

function SummaryOk({ r, open }: { r: ImportOk; open: boolean }) {
  const store = useStore();
  const st = useAppState();
  const s = r.meta.summary;
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [r.ref]);
  return (
    <div
      ref={ref}
      className="import-summary"
      data-testid="import-summary"
      data-ok="true"
      data-open={open ? 'true' : 'false'}
      data-format={s.format}
      data-events={s.events}
      data-kept={s.kept}
      data-ops={s.ops}
      data-bad-lines={s.bad_lines}
      data-stored={r.stored ? 'true' : 'false'}
    >
      <h3>
        {r.meta.name}: {s.format}, {s.lines} lines, {fmtBytes(s.bytes)}
      </h3>
      <SummaryBody s={s} />
      <p className="small">
        {r.stored ? 'Kept in this browser (stored traces below).' : `Not stored${r.storeError ? `: ${r.storeError}` : ''}.`}
        {r.ms.import >= 200 ? ` Imported in ${(r.ms.import / 1000).toFixed(2)} s (${Math.round(r.meta.lines / Math.max(0.001, r.ms.import / 1000)).toLocaleString('en-US')} lines/s).` : ''}
      </p>
      <div className="form">
        <button type="button" className="primary" onClick={() => void store.replayImport()} disabled={st.status === 'loading'}>
          {open ? 'Replay again' : 'Replay'}
        </button>
        {open && (
          <button type="button" onClick={() => void exportV1(store)}>
            Export v1
          </button>
        )}
        <button type="button" onClick={() => store.dismissImport()}>
          Close summary
        </button>
      </div>
      <details>
        <summary>the summary as text (slubviz import)</summary>
        <pre className="text">{r.meta.summaryText}</pre>
      </details>
    </div>
  );
}

export function TracesPanel() {
  const st = useAppState();
  const store = useStore();
  // "auto" is the core's name for detection (import_formats.def)
  const [format, setFormat] = useState('auto');
  const [paste, setPaste] = useState('');
  const [sample, setSample] = useState('');
  const fileRef = useRef<HTMLInputElement>(null);
  const [zoneOver, setZoneOver] = useState(false);
  const pageOver = useWindowDrop(store);
  const imp = st.importing;
  const busy = !!imp;
  const v = st.importView;
  return (
    <Panel id="traces" title="Traces: import your own">
      <div
        className={`dropzone${zoneOver || pageOver ? ' over' : ''}`}
        data-testid="dropzone"
        data-dragover={zoneOver || pageOver ? 'true' : 'false'}
        onDragOver={(e) => {
          e.preventDefault();
          setZoneOver(true);
        }}
        onDragLeave={() => setZoneOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          e.stopPropagation();
          setZoneOver(false);
          const f = e.dataTransfer.files?.[0];
          if (f && !busy) void store.importFile(f, f.name, format);
        }}
      >
        <p>
          Drop a kernel trace here: ftrace (<code>trace</code>, <code>trace_pipe</code>), <code>trace-cmd report</code>, <code>perf script</code>, the
          bpftrace one-liner, a malloc-lab <code>.rep</code> or a slubviz v1 trace.
        </p>
        <div className="form">
          <label className="file">
            <span className="button-like">Choose file…</span>
            <input
              ref={fileRef}
              type="file"
              aria-label="Trace file"
              disabled={busy}
              onChange={(e) => {
                const f = e.target.files?.[0];
                if (f) void store.importFile(f, f.name, format);
                e.target.value = '';
              }}
            />
          </label>
          <label>
            format{' '}
            <select aria-label="Import format" value={format} onChange={(e) => setFormat(e.target.value)}>
              {st.importFormats.map((f) => (
                <option key={f.name} value={f.name}>
                  {f.label}
                </option>
              ))}
            </select>
          </label>
        </div>
      </div>
      <div className="form">
        <label>
          sample{' '}
          <select aria-label="Sample trace" value={sample} onChange={(e) => setSample(e.target.value)}>
            <option value="">choose a sample…</option>
            {st.samples.map((x) => (
              <option key={x.file} value={x.file} title={x.description}>
                {x.file} ({fmtBytes(x.bytes)})
              </option>
            ))}
          </select>
        </label>
        <button type="button" disabled={busy || !sample} onClick={() => void store.importSample(sample)}>
          Import sample
        </button>
      </div>
      <details className="paste">
        <summary>paste a trace</summary>
        <textarea aria-label="Pasted trace text" rows={6} cols={60} value={paste} onChange={(e) => setPaste(e.target.value)} placeholder="paste ftrace / perf / trace-cmd / .rep / v1 text" />
        <div className="form">
          <button type="button" disabled={busy || paste.trim() === ''} onClick={() => void store.importText(paste, 'pasted text', format)}>
            Import pasted text
          </button>
        </div>
      </details>
      {imp && (
        <div className="import-progress" data-testid="import-progress" data-done={imp.done} data-total={imp.total} data-lines={imp.lines}>
          <progress aria-label={`importing ${imp.name}`} value={imp.done} max={Math.max(1, imp.total)} />{' '}
          {imp.what === 'store' ? 'storing' : imp.what === 'link' ? 'inflating' : 'importing'} {imp.name}: {fmtBytes(imp.done)} of {fmtBytes(imp.total)}, {imp.lines.toLocaleString('en-US')} lines{' '}
          <button type="button" onClick={() => void store.cancelImport()}>
            Cancel import
          </button>
        </div>
      )}
      {v && (v.result.ok ? <SummaryOk r={v.result} open={v.open} /> : <SummaryFail r={v.result} />)}
      <StoredList />
    </Panel>
  );
}

function StoredList() {
  const st = useAppState();
  const store = useStore();
  return (
    <div className="stored">
      <h3>Stored traces ({st.stored.length})</h3>
      {st.storedError && (
        <p className="error" role="alert">
          {st.storedError}
        </p>
      )}
      {st.stored.length === 0 ? (
        <p className="small">Imported traces are kept in this browser (IndexedDB) and listed here.</p>
      ) : (
        <table className="counts stored-list" data-testid="stored-traces">
          <thead>
            <tr>
              <th scope="col">name</th>
              <th scope="col">format</th>
              <th scope="col">ops</th>
              <th scope="col">imported</th>
              <th scope="col">
                <span className="sr-only">actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {st.stored.map((m) => (
              <tr key={m.id} data-stored-id={m.id} data-name={m.name} data-open={st.traceRef === `stored:${m.id}` ? 'true' : 'false'}>
                <td>{m.name}</td>
                <td>{m.format}</td>
                <td>{m.ops.toLocaleString('en-US')}</td>
                <td>{new Date(m.created).toLocaleString()}</td>
                <td>
                  <button type="button" aria-label={`Open ${m.name}`} disabled={st.status === 'loading'} onClick={() => void store.openStored(m.id)}>
                    Open
                  </button>{' '}
                  <button type="button" aria-label={`Delete ${m.name}`} onClick={() => void store.deleteStored(m.id)}>
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
