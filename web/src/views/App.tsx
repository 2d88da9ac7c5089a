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
import { lazy, Suspense, useState } from 'react';
import { gloss } from '../state/gloss';
import { LanesView } from './Lanes';
import { SchedulePicker } from './lanes/SchedulePicker';
import { LockView } from './LockView';
import { ConfigPanel, RunPickers } from './Side';
import { StartCard } from './StartCard';
import { useLiveUrl } from './liveUrl';
import { TracesPanel } from './Traces';
import { Transitions } from './Transitions';
import { useAppState, useHeightsHeldWhilePlaying, useScrollableRegions, useSelect, useStore, Veiled } from './hooks';
import { LessonsButton } from '../lessons/LessonsButton';
import { t } from '../i18n';
import { useLang } from '../i18n/hooks';
import { LangSwitch } from '../i18n/LangSwitch';
import { shortcutLabel } from './shortcuts';
import { loadLessonViews, useLessonPick } from '../lessons/mount';

function CachePicker() {
  const st = useAppState();
  const store = useStore();
  const caches = st.frame?.snapshot.caches.filter((c) => c.alive) ?? [];
  return (
    <label>
      {t('app.cache')}{' '}
      <select aria-label={t('app.cacheAria')} value={st.selectedCache ?? ''} onChange={(e) => store.selectCache(Number(e.target.value))}>
        {caches.map((c) => (
          <option key={c.id} value={c.id}>
            {t('app.cacheOption', { name: c.name, size: c.size, objects: c.objects, order: c.order, sheaf: c.has_sheaves ? t('app.cacheSheaf', { cap: c.sheaf_capacity }) : '' })}
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
      <button type="button" onClick={store.dismissNotice} aria-label={t('app.dismiss')}>
        ×
      </button>
    </div>
  );
}

/** The step in one line: the engineer's event text and, beside it, what
 * it means in plain words (state/gloss.ts). */
function StepLine() {
  const st = useAppState();
  const f = st.frame;
  const ev = f?.event ?? null;
  return (
    <section className="step-line" aria-label={t('app.stepLineAria')} data-testid="step-line" data-seq={f?.seq ?? -1}>
      {ev ? (
        <>
          <code className="step-text">{ev.text}</code> <span className="gloss" data-testid="gloss">{gloss(ev, f?.snapshot)}</span>
        </>
      ) : (
        <span className="gloss" data-testid="gloss">
          {f ? t('app.beforeFirst') : ''}
        </span>
      )}
    </section>
  );
}

/** A/B compare on and off (side B starts on another preset). */
function CompareButton() {
  const st = useSelect(({ compare, config, frame, presets }) => ({ compare, config, presets, shown: !!frame, framePreset: frame?.snapshot.config.preset }));
  const store = useStore();
  const on = !!st.compare;
  const mine = st.config.preset || st.framePreset;
  return (
    <button
      type="button"
      aria-pressed={on}
      disabled={!st.shown}
      onClick={() => store.setCompare(on ? null : { preset: st.presets.find((p) => p.name !== mine)?.name ?? '' })}
    >
      {t('app.compare')}
    </button>
  );
}

function Status() {
  const st = useSelect(({ status, progress, traceName, importing, frame }) => ({
    status, progress, traceName, importing, shown: !!frame, preset: frame?.snapshot.config.preset, era: frame?.snapshot.config.era,
  }));
  return (
    <>
      <span className="status" role="status" data-status={st.status}>
        {st.status === 'loading'
          ? `${t('app.loading')}${st.progress ? ` ${Math.round((100 * st.progress.done) / Math.max(1, st.progress.total))}%` : '…'}`
          : st.status === 'error'
            ? t('app.error')
            : st.shown
              ? `${st.traceName ? `${st.traceName} · ` : ''}${st.preset} · ${t('app.era', { era: st.era ?? '' })}`
              : ''}
      </span>
      {st.importing && (
        <span className="status" data-testid="header-import">
          {t('app.importing', { name: st.importing.name, pct: Math.round((100 * st.importing.done) / Math.max(1, st.importing.total)) })}
        </span>
      )}
    </>
  );
}

function Alerts() {
  const st = useSelect(({ error, notice }) => ({ error, notice }));
  return (
    <>
      {st.error && (
        <div className="error" role="alert">
          {st.error}
        </div>
      )}
      {st.notice && <Notice notice={st.notice} />}
    </>
  );
}

// A/B compare (its second engine, the timeline) is a chunk loaded when
// compare is first switched on.
const LazyCompareView = lazy(() => import('./Compare').then((m) => ({ default: m.CompareView })));

function CompareView() {
  const on = useSelect((st) => !!st.compare);
  if (!on) return null;
  return (
    <Suspense fallback={<p role="status">{t('app.loading')}…</p>}>
      <LazyCompareView />
    </Suspense>
  );
}

// The lessons column is in the player's chunk (lessons/mount.ts), loaded
// with the player on first use: it is open only once that code is in.
const LazyLessonColumn = lazy(() => loadLessonViews().then((m) => ({ default: m.LessonColumn })));

function LessonColumn() {
  const open = useLessonPick((l) => l.open);
  if (!open) return null;
  return (
    <Suspense fallback={<p role="status">{t('les.loadingList')}</p>}>
      <LazyLessonColumn />
    </Suspense>
  );
}

/** The model's views by panel id (the embed's `views=` picks some). */
const VIEWS: Record<string, () => React.JSX.Element> = {
  topology: TopologyView,
  sheaves: SheavesView,
  barns: BarnsView,
  partial: PartialListsView,
  slab: SlabDetailView,
  callpath: CallPathView,
  counters: CountersView,
  lanes: LanesView,
  locks: LockView,
};

/** On a phone the lesson and the visualizer take turns (styles.css). */
function PhoneTabs({ view, setView }: { view: 'lesson' | 'viz'; setView: (v: 'lesson' | 'viz') => void }) {
  return (
    // a landmark (the nav) around the group: nothing outside one (axe)
    <nav className="phone-tabs" aria-label={t('app.phoneTabs')}>
      <div role="group" aria-label={t('app.phoneTabs')}>
        <button type="button" aria-pressed={view === 'lesson'} onClick={() => setView('lesson')}>
          {t('app.tabLesson')}
        </button>
        <button type="button" aria-pressed={view === 'viz'} onClick={() => setView('viz')}>
          {t('app.tabViz')}
        </button>
      </div>
    </nav>
  );
}

function FullApp() {
  const store = useStore();
  const lessonOpen = useLessonPick((l) => l.open);
  const veiled = useLessonPick((l) => l.loadingRun !== null);
  const [view, setView] = useState<'lesson' | 'viz'>('lesson');
  useLiveUrl(store);
  useScrollableRegions(store);
  useHeightsHeldWhilePlaying(store);
  return (
    <>
      <a
        className="skip-link"
        href="#main"
        onClick={(e) => {
          // focus without touching the address (it carries the run)
          e.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        {t('app.skip')}
      </a>
      <header>
        <h1>slubviz</h1>
        <span className="sub">{t('app.sub')}</span>
        <LessonsButton />
        <RunPickers />
        <SchedulePicker />
        <CachePicker />
        <CompareButton />
        <Status />
        <LangSwitch />
      </header>
      <Alerts />
      <StartCard />
      <Controls />
      <StepLine />
      <CompareView />
      {lessonOpen && <PhoneTabs view={view} setView={setView} />}
      <Veiled.Provider value={veiled}>
        <main id="main" tabIndex={-1} data-phone-view={lessonOpen ? view : 'viz'}>
          <LessonColumn />
          <div className="col">
            <Legend />
            <TopologyView />
            <LanesView />
            <LockView />
            <SheavesView />
            <BarnsView />
            <PartialListsView />
            <SlabDetailView />
            <TracesPanel />
          </div>
          <div className="col">
            <CallPathView />
            <CountersView />
            <TextViews />
            <FreePlayPanel />
            <ConfigPanel />
            <Panel id="help" title={t('panel.help')}>
              <dl className="keys">
                {SHORTCUTS.map((s) => (
                  <div key={s.label}>
                    <dt>{s.keys.map((k) => (k === ' ' ? t('app.space') : k)).join(' / ')}</dt>
                    <dd>{shortcutLabel(s)}</dd>
                  </div>
                ))}
              </dl>
            </Panel>
          </div>
        </main>
      </Veiled.Provider>
      <Transitions />
    </>
  );
}

/** ?embed=1: a compact player for a course page's iframe: the run of the
 * link (a scenario, or a lesson stop), the controls and the views named by
 * `views=` (default: sheaves, barns, call path), no app chrome. */
function EmbedApp({ views }: { views: string[] }) {
  const st = useAppState();
  const store = useStore();
  useScrollableRegions(store);
  useHeightsHeldWhilePlaying(store);
  const shown = views.filter((v) => VIEWS[v]);
  return (
    <div className="embed" data-testid="embed">
      <h1 className="sr-only">{t('app.embedTitle')}</h1>
      <Alerts />
      <Controls />
      <StepLine />
      <main id="main" data-embed-views={shown.join(',')}>
        <LessonColumn />
        <div className="col">
          {shown.map((v) => {
            const V = VIEWS[v];
            return <V key={v} />;
          })}
        </div>
      </main>
      <p className="small embed-foot">
        {st.frame ? `${st.scenario ?? st.traceName ?? t('app.trace')} · ${st.frame.snapshot.config.preset} · ` : ''}
        <a href={`./${location.hash}`} target="_blank" rel="noopener">
          {t('app.openInSlubviz')}
        </a>
      </p>
      <Transitions />
    </div>
  );
}

export function App() {
  useLang(); // a language switch re-renders the whole page
  const q = new URLSearchParams(location.search);
  if (q.get('embed') === '1') return <EmbedApp views={(q.get('views') ?? 'sheaves,barns,callpath').split(',')} />;
  return <FullApp />;
}
