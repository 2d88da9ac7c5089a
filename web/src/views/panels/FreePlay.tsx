// The free-play panel: ops appended to the trace (allocate, free), the
// live handles and the trace's export.
import { useMemo, useState } from 'react';
import type { AppState } from '../../state/store';
import { ActionButton } from '../ActionButton';
import { Panel } from './Panel';
import { exportV1 } from '../Traces';
import { useSelect, useStore } from '../hooks';
import { t } from '../../i18n';

/** The caches free play can allocate from, one "id name" a line: the same
 * string while steps leave them alone (the panel, with its list of up to
 * 500 live handles, re-renders when they change, not on every step). */
const cacheLines = (st: AppState) =>
  (st.frame?.snapshot.caches.filter((c) => c.alive && !c.kmalloc) ?? []).map((c) => `${c.id} ${c.name}`).join('\n');

export function FreePlayPanel() {
  const st = useSelect((s) => ({
    hasFrame: s.frame !== null, caches: cacheLines(s), ncpu: s.frame?.snapshot.topology.nr_cpus ?? 1,
    meta: s.meta, trace: s.trace, freeOps: s.freeOps, scenario: s.scenario, traceRef: s.traceRef, fp: s.fp,
  }));
  const store = useStore();
  const [copied, setCopied] = useState('');
  const caches = useMemo(() => (st.caches ? st.caches.split('\n').map((l) => ({ id: Number(l.slice(0, l.indexOf(' '))), name: l.slice(l.indexOf(' ') + 1) })) : []), [st.caches]);
  const ncpu = st.ncpu;
  const live = store.liveHandles();
  const more = st.meta?.endHandlesMore ?? 0;
  const [handle, setHandle] = useState('');
  const [shareError, setShareError] = useState('');
  const download = () => {
    const blob = new Blob([st.trace], { type: 'text/plain' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `${st.scenario ?? 'custom'}${st.freeOps.length ? '-freeplay' : ''}.trace`;
    if (st.traceRef) {
      void exportV1(store);
      return;
    }
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  };
  return (
    <Panel id="freeplay" title={t('panel.freeplay')}>
      <div className="form">
        <label>
          CPU
          <select aria-label={t('panel.fpCpuAria')} value={st.fp.cpu} onChange={(e) => store.setFreePlay({ cpu: Number(e.target.value) })}>
            {[...Array(ncpu).keys()].map((c) => (
              <option key={c} value={c}>cpu {c}</option>
            ))}
          </select>
        </label>
        <label>
          {t('app.cache')}
          <select aria-label={t('panel.fpCacheAria')} value={st.fp.cache} onChange={(e) => store.setFreePlay({ cache: e.target.value })}>
            {caches.map((c) => (
              <option key={c.id} value={c.name}>{c.name}</option>
            ))}
          </select>
        </label>
        <ActionButton name="freeAlloc" />
        <label>
          {t('les.handle')}
          <select aria-label={t('panel.fpHandleAria')} value={handle} onChange={(e) => setHandle(e.target.value)}>
            <option value="">{t('panel.lastAllocated')}</option>
            {live.slice(-500).map((h) => (
              <option key={h.handle} value={h.handle}>
                {h.handle} ({h.cache}{h.site ? `, ${h.site}` : ''})
              </option>
            ))}
          </select>
        </label>
        <ActionButton name="freeFree" args={[handle || undefined]} disabled={live.length === 0} />
      </div>
      <p className="small" data-testid="live-handles" data-count={live.length + more}>
        {t('panel.liveHandles', { n: live.length + more })}{live.length > 500 || more ? t('panel.last500') : ''}
      </p>
      <p>
        {t('panel.opsAdded', { n: st.freeOps.length })} <code data-testid="free-ops">{st.freeOps.map((o) => `c${o.cpu} ${o.op} ${o.cache} ${o.handle}`).join('; ')}</code>
      </p>
      <div className="form">
        <button type="button" onClick={download}>{t('panel.downloadTrace')}</button>
        <button type="button" onClick={() => void exportV1(store)} disabled={!st.hasFrame} title={t('panel.exportTitle')}>
          {t('panel.exportV1')}
        </button>
        <button
          type="button"
          onClick={async () => {
            setShareError('');
            let hash: string;
            try {
              hash = await store.shareHash();
            } catch (e) {
              setShareError(e instanceof Error ? e.message : String(e));
              return;
            }
            history.replaceState(null, '', hash);
            const url = location.href;
            setCopied(url);
            try {
              await navigator.clipboard?.writeText(url);
            } catch {
              /* clipboard may be refused; the link is shown */
            }
          }}
        >
          {t('panel.shareLink')}
        </button>
        {copied && (
          <input aria-label={t('panel.shareLinkAria')} readOnly value={copied} size={40} data-testid="share-link" onFocus={(e) => e.target.select()} />
        )}
        {shareError && (
          <span className="error" role="alert" data-testid="share-error">
            {shareError}
          </span>
        )}
      </div>
    </Panel>
  );
}
