import type { AppState } from '../state/store';
import { SHORTCUTS } from '../state/keys';
import { Controls } from './Controls';
import { Legend } from './Legend';
import { BarnsView } from './panels/Barns';
import { CallPathView } from './panels/CallPath';
import { CountersView } from './panels/Counters';
import { FreePlayPanel } from './panels/FreePlay';
import { Panel } from './panels/Panel';
import { PartialListsView } from './panels/PartialLists';
import { SheavesView } from './panels/Sheaves';
import { SlabDetailView } from './panels/SlabDetail';
import { TextViews } from './panels/TextViews';
import { TopologyView } from './panels/Topology';
import { ConfigPanel } from './Side';
import { TracesPanel } from './Traces';
import { Transitions } from './Transitions';
import { useAppState, useStore } from './hooks';
import { LessonColumn, LessonsButton } from '../lessons/LessonsView';

function CachePicker() {
  const st = useAppState();
  const store = useStore();
  const caches = st.frame?.snapshot.caches.filter((c) => c.alive) ?? [];
  return (
    <label>
      cache{' '}
      <select aria-label="Cache" value={st.selectedCache ?? ''} onChange={(e) => store.selectCache(Number(e.target.value))}>
        {caches.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name} ({c.size} B, {c.objects}/slab, order {c.order}{c.has_sheaves ? `, sheaf ${c.sheaf_capacity}` : ''})
          </option>
        ))}
      </select>
    </label>
  );
}

/** The engine restarted after a crash, or a share link was bad: said once,
 * dismissable, the run goes on. */
function Notice({ notice }: { notice: NonNullable<AppState['notice']> }) {
  const store = useStore();
  return (
    <div className="notice" role="status" data-testid="notice" data-kind={notice.kind}>
      <span>{notice.text}</span>
      <button type="button" onClick={store.dismissNotice} aria-label="Dismiss the notice">
        ×
      </button>
    </div>
  );
}

export function App() {
  const st = useAppState();
  return (
    <>
      <header>
        <h1>slubviz</h1>
        <span className="sub">the SLUB allocator, step by step</span>
        <LessonsButton />
        <CachePicker />
        <span className="status" role="status" data-status={st.status}>
          {st.status === 'loading'
            ? `loading${st.progress ? ` ${Math.round((100 * st.progress.done) / Math.max(1, st.progress.total))}%` : '…'}`
            : st.status === 'error'
              ? 'error'
              : st.frame
                ? `${st.traceName ? `${st.traceName} · ` : ''}${st.frame.snapshot.config.preset} · ${st.frame.snapshot.config.era} era`
                : ''}
        </span>
        {st.importing && (
          <span className="status" data-testid="header-import">
            importing {st.importing.name} {Math.round((100 * st.importing.done) / Math.max(1, st.importing.total))}%
          </span>
        )}
      </header>
      {st.error && (
        <div className="error" role="alert">
          {st.error}
        </div>
      )}
      {st.notice && <Notice notice={st.notice} />}
      <Controls />
      <main>
        <LessonColumn />
        <div className="col">
          <Legend />
          <TopologyView />
          <SheavesView />
          <BarnsView />
          <PartialListsView />
          <SlabDetailView />
        </div>
        <div className="col">
          <TracesPanel />
          <CallPathView />
          <CountersView />
          <TextViews />
          <FreePlayPanel />
          <ConfigPanel />
          <Panel id="help" title="Keyboard">
            <dl className="keys">
              {SHORTCUTS.map((s) => (
                <div key={s.label}>
                  <dt>{s.keys.map((k) => (k === ' ' ? 'Space' : k)).join(' / ')}</dt>
                  <dd>{s.label}</dd>
                </div>
              ))}
            </dl>
          </Panel>
        </div>
      </main>
      <Transitions />
    </>
  );
}
