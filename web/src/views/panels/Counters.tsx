// The counters panel: the selected cache's SLUB_STATS per CPU, with
// sparklines over the run (viz/sparkline.ts).
import { useState } from 'react';
import { renderSparkline } from '../../viz/sparkline';
import { Panel } from './Panel';
import { useAppState, useD3, HoldOffscreen } from '../hooks';
import { t } from '../../i18n';

function Spark({ values, cursor }: { values: number[]; cursor: number }) {
  const ref = useD3<SVGSVGElement>((el) => renderSparkline(el, values, cursor), [values, cursor]);
  return <svg ref={ref} aria-hidden="true" />;
}

/** Held while out of sight or veiled (HoldOffscreen). */
export function CountersView() {
  return <HoldOffscreen view={CountersViewBody} />;
}

function CountersViewBody() {
  const st = useAppState();
  const [all, setAll] = useState(false);
  const f = st.frame;
  const cache = f?.snapshot.caches.find((c) => c.id === st.selectedCache);
  if (!f || !cache?.stats) return <Panel id="counters" title={t('panel.counters')}><p>{t('panel.noCache')}</p></Panel>;
  const ncpu = f.snapshot.topology.nr_cpus;
  const showCpus = ncpu <= 8 ? [...Array(ncpu).keys()] : st.focusCpu !== null ? [st.focusCpu] : [];
  const sampleOps = st.meta?.sampleOps ?? [];
  let cursor = 0;
  for (let i = 0; i < sampleOps.length; i++) if (sampleOps[i] <= f.opsDone) cursor = i;
  const rows = Object.entries(cache.stats).filter(([, v]) => all || v.some((x) => x !== 0));
  return (
    <Panel
      id="counters"
      title={t('panel.counters')}
      extra={
        <label className="small">
          <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} /> {t('panel.showZero')}
        </label>
      }
    >
      <table className="counters">
        <caption>
          {t('panel.countersCaption', { cache: cache.name })}
        </caption>
        <thead>
          <tr>
            <th scope="col">{t('panel.stat')}</th>
            {showCpus.map((c) => (
              <th scope="col" key={c}>cpu {c}</th>
            ))}
            <th scope="col">{t('panel.total')}</th>
            <th scope="col">{t('panel.overRun')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([k, v]) => (
            <tr key={k} data-stat={k} data-total={v.reduce((a, b) => a + b, 0)}>
              <th scope="row">{k}</th>
              {showCpus.map((c) => (
                <td key={c}>{v[c]}</td>
              ))}
              <td>{v.reduce((a, b) => a + b, 0)}</td>
              <td>{st.meta?.samples[k] ? <Spark values={st.meta.samples[k]} cursor={cursor} /> : null}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length === 0 && <p>{t('panel.allZero')}</p>}
      {cache.nodes && cache.nodes.length > 0 && (
        <table className="counters" data-testid="node-counters">
          <caption>{t('panel.nodeCounters')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('panel.counter')}</th>
              {cache.nodes.map((n) => (
                <th scope="col" key={n.node}>{t('panel.node', { id: n.node })}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {Object.keys(cache.nodes[0].counters).map((k) => (
              <tr key={k} data-node-counter={k}>
                <th scope="row">{k}</th>
                {cache.nodes!.map((n) => (
                  <td key={n.node}>{n.counters[k]}</td>
                ))}
              </tr>
            ))}
            <tr>
              <th scope="row">{t('panel.slabsAllocFreed')}</th>
              <td colSpan={cache.nodes.length}>
                {cache.slabs_allocated} / {cache.slabs_freed} · freelist pointer writes {cache.fp_writes}
              </td>
            </tr>
          </tbody>
        </table>
      )}
    </Panel>
  );
}
