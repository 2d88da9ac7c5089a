// The free-play panel: ops appended to the trace (allocate, free), the
// live handles and the trace's export.
import { useState } from 'react';
import { ActionButton } from '../ActionButton';
import { Panel } from './Panel';
import { exportV1 } from '../Traces';
import { useAppState, useStore } from '../hooks';

export function FreePlayPanel() {
  const st = useAppState();
  const store = useStore();
  const [copied, setCopied] = useState('');
  const f = st.frame;
  const caches = f?.snapshot.caches.filter((c) => c.alive && !c.kmalloc) ?? [];
  const ncpu = f?.snapshot.topology.nr_cpus ?? 1;
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
    <Panel id="freeplay" title="Free play">
      <div className="form">
        <label>
          CPU
          <select aria-label="Free play CPU" value={st.fp.cpu} onChange={(e) => store.setFreePlay({ cpu: Number(e.target.value) })}>
            {[...Array(ncpu).keys()].map((c) => (
              <option key={c} value={c}>cpu {c}</option>
            ))}
          </select>
        </label>
        <label>
          cache
          <select aria-label="Free play cache" value={st.fp.cache} onChange={(e) => store.setFreePlay({ cache: e.target.value })}>
            {caches.map((c) => (
              <option key={c.id} value={c.name}>{c.name}</option>
            ))}
          </select>
        </label>
        <ActionButton name="freeAlloc" />
        <label>
          handle
          <select aria-label="Handle to free" value={handle} onChange={(e) => setHandle(e.target.value)}>
            <option value="">last allocated</option>
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
        {live.length + more} handle(s) live at the end of the trace{live.length > 500 || more ? ' (the last 500 listed)' : ''}
      </p>
      <p>
        {st.freeOps.length} op(s) added: <code data-testid="free-ops">{st.freeOps.map((o) => `c${o.cpu} ${o.op} ${o.cache} ${o.handle}`).join('; ')}</code>
      </p>
      <div className="form">
        <button type="button" onClick={download}>Download trace</button>
        <button type="button" onClick={() => void exportV1(store)} disabled={!f} title="svz_export_v1: the trace as native v1 text, repeat blocks expanded">
          Export v1
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
          Share link
        </button>
        {copied && (
          <input aria-label="Share link" readOnly value={copied} size={40} data-testid="share-link" onFocus={(e) => e.target.select()} />
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
