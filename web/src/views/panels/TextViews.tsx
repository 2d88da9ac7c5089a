// The kernel text views: /proc/slabinfo, /sys/kernel/slab/<cache>/, the
// stats dump and the recent events, as tabs.
import { type TextTab } from '../../state/store';
import { Panel } from './Panel';
import { useAppState, useStore } from '../hooks';
import { t } from '../../i18n';

export function TextViews() {
  const st = useAppState();
  const store = useStore();
  const cache = st.frame?.snapshot.caches.find((c) => c.id === st.selectedCache);
  const tabs: [TextTab, string][] = [
    ['slabinfo', '/proc/slabinfo'],
    ['sysfs', `/sys/kernel/slab/${cache?.name ?? '…'}/`],
    ['stats', 'stats'],
    ['events', t('panel.recentEvents')],
  ];
  return (
    <Panel id="text" title={t('panel.text')}>
      <div role="tablist" aria-label={t('panel.textAria')}>
        {tabs.map(([k, label]) => (
          <button key={k} type="button" role="tab" aria-selected={st.textTab === k} onClick={() => store.setTextTab(k)}>
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={st.textTab}>
        {st.textTab === 'events' ? (
          <ol className="events" data-testid="events" tabIndex={0}>
            {(st.frame?.recent ?? []).map((e) => (
              <li key={e.seq} data-seq={e.seq}>
                <code>{e.text}</code>
              </li>
            ))}
          </ol>
        ) : (
          <pre className="text" data-testid={`text-${st.textTab}`} tabIndex={0}>{st.text}</pre>
        )}
      </div>
    </Panel>
  );
}
