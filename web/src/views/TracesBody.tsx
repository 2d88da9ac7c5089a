// The import UI (the Traces panel's content, Traces.tsx): the drop zone,
// the file picker, the paste box, the samples, the progress bar and the
// stored traces, all in the main chunk (drawn before any use); the
// import's result (ImportSummary.tsx) is a chunk loaded with the first
// import.
import { useEffect, useRef, useState } from 'react';
import type { ImportView } from '../state/store';
import { useAppState, useStore } from './hooks';
import { t } from '../i18n';
import { Rich } from '../i18n/Rich';
import { fmtBytes, FormatPicker } from './Traces';
import { chunk } from './chunk';

const summary = chunk(() => import('./ImportSummary'));

/** The import result's view code, loaded once (a failed load is tried
 * again next time). The store awaits it before it shows a result (main.tsx:
 * its env's importResultCode). */
export function loadImportSummary(): Promise<void> {
  return summary.load();
}

/** The result, drawn once its code is in (at once when the store awaited it). */
function ImportResult({ v }: { v: ImportView }) {
  const [, arrived] = useState(0);
  useEffect(() => {
    if (!summary.get()) void summary.load().then(() => arrived((n) => n + 1));
  }, []);
  const code = summary.get();
  return code ? <code.ImportResultView v={v} /> : null;
}

/** The panel's content (Traces.tsx draws the panel around it). */
export function ImportUi({ pageOver }: { pageOver: boolean }) {
  const st = useAppState();
  const store = useStore();
  // "auto" is the core's name for detection (import_formats.def)
  const [format, setFormat] = useState('auto');
  const [paste, setPaste] = useState('');
  const [sample, setSample] = useState('');
  const fileRef = useRef<HTMLInputElement>(null);
  const [zoneOver, setZoneOver] = useState(false);
  const imp = st.importing;
  const busy = !!imp;
  const v = st.importView;
  return (
    <>
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
          <Rich k="imp.drop" />
        </p>
        <div className="form">
          <label className="file">
            <span className="button-like">{t('imp.choose')}</span>
            <input
              ref={fileRef}
              type="file"
              aria-label={t('imp.fileAria')}
              disabled={busy}
              onChange={(e) => {
                const f = e.target.files?.[0];
                if (f) void store.importFile(f, f.name, format);
                e.target.value = '';
              }}
            />
          </label>
          <FormatPicker value={format} onChange={setFormat} />
        </div>
      </div>
      <div className="form">
        <label>
          {t('imp.sample')}{' '}
          <select aria-label={t('imp.sampleAria')} value={sample} onChange={(e) => setSample(e.target.value)}>
            <option value="">{t('imp.chooseSample')}</option>
            {st.samples.map((x) => (
              <option key={x.file} value={x.file} title={x.description}>
                {x.file} ({fmtBytes(x.bytes)})
              </option>
            ))}
          </select>
        </label>
        <button type="button" disabled={busy || !sample} onClick={() => void store.importSample(sample)}>
          {t('imp.importSample')}
        </button>
      </div>
      <details className="paste">
        <summary>{t('imp.paste')}</summary>
        <textarea aria-label={t('imp.pasteAria')} rows={6} cols={60} value={paste} onChange={(e) => setPaste(e.target.value)} placeholder={t('imp.pastePlaceholder')} />
        <div className="form">
          <button type="button" disabled={busy || paste.trim() === ''} onClick={() => void store.importText(paste, 'pasted text', format)}>
            {t('imp.importPasted')}
          </button>
        </div>
      </details>
      {imp && (
        <div className="import-progress" data-testid="import-progress" data-done={imp.done} data-total={imp.total} data-lines={imp.lines}>
          <progress aria-label={t('imp.progressAria', { name: imp.name })} value={imp.done} max={Math.max(1, imp.total)} />{' '}
          {t(imp.what === 'store' ? 'imp.storing' : imp.what === 'link' ? 'imp.inflating' : 'imp.importing', { name: imp.name, done: fmtBytes(imp.done), total: fmtBytes(imp.total), lines: imp.lines.toLocaleString('en-US') })}{' '}
          <button type="button" onClick={() => void store.cancelImport()}>
            {t('imp.cancel')}
          </button>
        </div>
      )}
      {v && <ImportResult v={v} />}
      <StoredList />
    </>
  );
}

function StoredList() {
  const st = useAppState();
  const store = useStore();
  return (
    <div className="stored">
      <h3>{t('imp.stored', { n: st.stored.length })}</h3>
      {st.storedError && (
        <p className="error" role="alert">
          {st.storedError}
        </p>
      )}
      {st.stored.length === 0 ? (
        <p className="small">{t('imp.storedNone')}</p>
      ) : (
        <table className="counts stored-list" data-testid="stored-traces">
          <thead>
            <tr>
              <th scope="col">{t('imp.name')}</th>
              <th scope="col">{t('imp.format')}</th>
              <th scope="col">ops</th>
              <th scope="col">{t('imp.imported')}</th>
              <th scope="col">
                <span className="sr-only">{t('imp.actions')}</span>
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
                  <button type="button" aria-label={t('imp.openAria', { name: m.name })} disabled={st.status === 'loading'} onClick={() => void store.openStored(m.id)}>
                    {t('imp.open')}
                  </button>{' '}
                  <button type="button" aria-label={t('imp.deleteAria', { name: m.name })} onClick={() => void store.deleteStored(m.id)}>
                    {t('imp.delete')}
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
