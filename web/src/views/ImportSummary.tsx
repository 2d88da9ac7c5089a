// The import's result, shown before the replay: the diagnostics summary,
// or why nothing could be read. A chunk (issue 14: main JS), loaded with
// the first import (TracesBody.tsx: loadImportSummary); the store shows a
// result only once this code is in, so the page drawn never depends on
// when it arrived.
import { useEffect, useRef } from 'react';
import type { ImportFail, ImportOk } from '../engine/protocol';
import type { ImportSummary } from '../engine/types';
import type { ImportView } from '../state/store';
import { useAppState, useStore } from './hooks';
import { t, type MsgKey } from '../i18n';
import { exportV1, fmtBytes } from './Traces';

// the import's notes (the core's names), in words: imp.note.<name>
const NOTE_NAMES = new Set(['no_cpu', 'gfp_unknown', 'gfp_layout', 'node_dropped', 'free_other_cache', 'kmalloc_size_differs', 'names_adjusted', 'ts_backwards', 'lost_events', 'lost_unknown', 'realloc_in_place']);

function SummaryFail({ r }: { r: ImportFail }) {
  return (
    <div className="import-summary" data-testid="import-summary" data-ok="false" data-cancelled={r.cancelled ? 'true' : 'false'}>
      <p role="alert" className="error">
        {r.cancelled ? t('imp.cancelled', { name: r.name }) : t('imp.nothing', { name: r.name })} {t('imp.read', { bytes: fmtBytes(r.bytes), lines: r.lines })}
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
        {t('imp.events', { events: s.events, kept: s.kept, skipped: s.events - s.kept, ops: s.ops, unpaired: s.unpaired })}
        {s.rebound ? t('imp.rebound', { n: s.rebound }) : ''}.
      </p>
      <Counts title={t('imp.skippedBy')} rows={skipped.map(([k, n]) => [k, n, reasons.find((r) => r.name === k)?.text ?? k])} />
      {s.caches.length > 0 && (
        <div className="table-wrap">
          <table className="counts caches" data-testid="import-caches">
            <caption>{t('imp.caches', { n: s.caches.length })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('app.cache')}</th>
                <th scope="col">bytes_req → bytes_alloc</th>
                <th scope="col">{t('imp.declared')}</th>
                <th scope="col">{t('imp.how')}</th>
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
                    {c.size_fallback ? t('imp.atBytesAlloc') : ''}
                  </td>
                  <td>
                    {c.origin === 'inferred'
                      ? t('imp.inferred')
                      : c.origin === 'named-by-free'
                        ? t('imp.namedByFree')
                        : c.origin === 'recreated'
                          ? t('imp.recreated', { first: c.recreates ?? '' })
                          : t('imp.named')}
                  </td>
                  <td>{c.allocs}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p>
        {t('imp.pointers')}{' '}
        {s.pointers.hashed > 0 && (
          <span data-testid="hashed">
            {t('imp.hashed', { n: s.pointers.hashed })}{' '}
          </span>
        )}
        {s.pointers.raw > 0 && <span>{t('imp.raw', { n: s.pointers.raw })} </span>}
        {s.pointers.hashed + s.pointers.raw === 0 && t('panel.none')}
      </p>
      <p data-testid="import-topology">
        {t('imp.cpusSeen', { cpus: s.cpus_seen || (s.notes.no_cpu ? t('imp.unknown') : t('panel.none')) })}
        {s.cpus_seen && s.notes.no_cpu ? t('imp.unknownFor', { n: s.notes.no_cpu }) : ''}
        {s.cpus_beyond ? t('imp.cpusBeyond', { cpus: s.cpus_beyond }) : ''}
        {s.header_cpus ? t('imp.headerSays', { cpus: s.header_cpus }) : ''}
        {t('imp.topology', { nodes: s.topology.nodes, mem: fmtBytes(s.topology.node_mem), cpus: s.topology.cpus })}
      </p>
      {s.input_files && s.input_files.count > 1 && (
        <p data-testid="import-inputs" data-count={s.input_files.count}>
          {t('imp.inputs', { n: s.input_files.count })}
          {s.input_files.cpus_shared
            ? t('imp.inputsShared')
            : s.input_files.files
                .map((f) => t('imp.inputFile', { name: f.name, cpus: f.cpus, range: f.cpus > 1 ? `${f.first_cpu}-${f.first_cpu + f.cpus - 1}` : `${f.first_cpu}` }))
                .join(', ')}
        </p>
      )}
      {notes.length > 0 && (
        <ul className="notes" data-testid="import-notes">
          {notes.map(([k, n]) => (
            <li key={k} data-note={k}>
              {t('imp.note', { n, what: NOTE_NAMES.has(k) ? t(`imp.note.${k}` as MsgKey) : k })}
            </li>
          ))}
          {s.gfp_unknown_names.length > 0 && <li>{t('imp.gfpUnknown', { list: s.gfp_unknown_names.join(', ') })}</li>}
        </ul>
      )}
      {others.length > 0 && (
        <p>
          {t('imp.otherEvents', { n: s.other_events_total, list: others.map(([k, n]) => `${k} ${n}`).join(', ') })}
        </p>
      )}
      {s.callchain_lines > 0 && <p>{t('imp.callchain', { n: s.callchain_lines })}</p>}
      {s.cut_line > 0 && (
        <p data-testid="import-cut-line">
          {t('imp.cut', { n: s.cut_line })}
        </p>
      )}
      <div data-testid="import-bad-lines" data-bad-lines={s.bad_lines}>
        {s.bad_lines === 0 ? (
          <p>{t('imp.noErrors')}</p>
        ) : (
          <>
            <p>
              {t('imp.badLines', { n: s.bad_lines })}
            </p>
            <ul className="import-errors" data-testid="import-errors">
              {s.errors.map((e, i) => (
                <li key={i} data-line={e.line}>
                  {t('imp.line', { n: e.line })} {e.msg}
                </li>
              ))}
              {s.bad_lines > s.errors.length && <li>{t('slab.andMore', { n: s.bad_lines - s.errors.length })}</li>}
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
        {t('imp.title', { name: r.meta.name, format: s.format, lines: s.lines, bytes: fmtBytes(s.bytes) })}
      </h3>
      <SummaryBody s={s} />
      <p className="small">
        {r.stored ? t('imp.kept') : r.storeError ? t('imp.notStoredWhy', { why: r.storeError }) : t('imp.notStored')}
        {r.ms.import >= 200 ? t('imp.took', { s: (r.ms.import / 1000).toFixed(2), rate: Math.round(r.meta.lines / Math.max(0.001, r.ms.import / 1000)).toLocaleString('en-US') }) : ''}
      </p>
      <div className="form">
        <button type="button" className="primary" onClick={() => void store.replayImport()} disabled={st.status === 'loading'}>
          {open ? t('imp.replayAgain') : t('imp.replay')}
        </button>
        {open && (
          <button type="button" onClick={() => void exportV1(store)}>
            {t('panel.exportV1')}
          </button>
        )}
        <button type="button" onClick={() => store.dismissImport()}>
          {t('imp.closeSummary')}
        </button>
      </div>
      <details>
        <summary>{t('imp.asText')}</summary>
        <pre className="text">{r.meta.summaryText}</pre>
      </details>
    </div>
  );
}

export function ImportResultView({ v }: { v: ImportView }) {
  return v.result.ok ? <SummaryOk r={v.result} open={v.open} /> : <SummaryFail r={v.result} />;
}
