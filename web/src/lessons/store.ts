// The lesson player's store. Like the app store (state/store.ts), its state
// changes only through the named actions below, shared by the buttons and
// the test hook (window.__slubvizLessons). It drives the visualizer through
// the app store's own actions: opening a lesson's run (loadScenario /
// openTrace with the run's preset and settings), seeking to a stop's step
// count (seekSeq), selecting the cache, CPU and text view.
import { actionsOf, runAction, type ActionOf } from '../state/actions';
import type { Config, Store } from '../state/store';
import { configSets } from '../state/store';
import { opLine } from '../state/trace';
import type { ChoiceResult, ClickResult, Extras, PreparedVariant, StopWatch } from './backend';
import {
  anchorStop, answerIds, appendStep, itemOfStop, lessonFormat, lessonItems, lessonVocabulary, LESSON_FORMAT, predicates, runOf, sandboxRun, TEXT_TABS, type ClickTarget, type Highlight,
  type IndexEntry, type Item, type Lesson, type LessonIndex, type LessonSource, type LessonTranslation, type RunConfig, type SandboxRun, type TextTabView,
} from './format';
import { getLang, t } from '../i18n';
import { encodeLessonLink, type LessonLink } from './link';
import { emptyProgress, summarizeProgress, type LessonProgress, type ProgressStorage, type ProgressSummary } from './progress';
import type { LessonApi } from './protocol';
import type { StatePicture } from './goal';
import { initialLessonState as initial } from './initial';

export interface QuestionUi {
  /** choice picked / element clicked last */
  picked: string | null;
  /** the feedback of the last answer */
  result: { ok: boolean; message: string } | null;
  /** every choice's check on the window (after an answer) */
  choices: ChoiceResult[] | null;
  /** the student asked for the answer (the explanation is shown) */
  shown: boolean;
  /** the player ran to the reveal position */
  revealed: boolean;
  /** click questions: what can be clicked (keyboard picker) */
  candidates: (number | string)[] | null;
}

export interface SandboxUi {
  /** op lines of the attempt (free-play ops folded in) */
  lines: string[];
  /** the text box (may differ from lines until applied) */
  text: string;
  result: SandboxRun | null;
  /** rule problems found before running (limit, allowed ops) */
  problems: string[];
  running: boolean;
}

export interface LessonState {
  /** the lessons column is shown */
  open: boolean;
  index: IndexEntry[] | null;
  /** lessons/sources.json: the public sources the lessons cite, by id */
  sources: Record<string, LessonSource>;
  error: string | null;
  lessons: Record<string, Lesson>;
  prose: Record<string, string>;
  /** per lesson, per language: its translation and translated prose */
  translations: Record<string, Record<string, { json: LessonTranslation; prose: string }>>;
  progress: Record<string, LessonProgress>;
  /** the lesson played (null: the list) */
  current: string | null;
  item: number;
  /** the visualizer is being moved to an item */
  moving: boolean;
  /** the visualizer is opening another run (the lesson's, a variant's, the
   * sandbox's): what it will show, until it shows it */
  loadingRun: string | null;
  prepared: Record<string, PreparedVariant>;
  questions: Record<string, QuestionUi>;
  sandbox: SandboxUi;
  extras: Record<string, Extras | 'loading'>;
  /** the sandbox's goal picture per lesson (the stored solution's end state) */
  goals: Record<string, StatePicture | null | 'loading'>;
  /** marks on the visualizer (applied by the Marker) */
  marks: { highlight: Highlight[]; focus: string[] };
  /** click questions: the kind of element a click in the visualizer answers */
  armed: ClickTarget | null;
}

export interface LessonEnv {
  fetchText(path: string): Promise<string>;
  /** the page's URL hash (share links) */
  setHash?(hash: string): void;
}


const NO_Q: QuestionUi = { picked: null, result: null, choices: null, shown: false, revealed: false, candidates: null };

/** The app store config of a run: the preset, `seed`, the other settings as switches (in order). */
export function runAppConfig(run: RunConfig): Config {
  const switches: Record<string, string> = {};
  let seed = '';
  for (const [k, v] of Object.entries(run.sets)) {
    const s = typeof v === 'boolean' ? (v ? '1' : '0') : String(v);
    if (k === 'seed') seed = s;
    else switches[k] = s;
  }
  return { preset: run.preset, seed, switches };
}

function runKey(run: RunConfig): string {
  return JSON.stringify(run);
}

/** A run in words, for the loading state: "ublk-bio256 under v7.0-rc1". */
export function runLabel(run: RunConfig): string {
  const file = 'file' in run.scenario ? /^scenarios\/(.+)\.trace$/.exec(run.scenario.file)?.[1] : null;
  return `${file ?? 'the lesson’s trace'}${run.preset ? ` under ${run.preset}` : ''}`;
}

/** The views a sandbox's goals read: their text views and counters first. */
export function sandboxFocus(l: Lesson): string[] {
  const out: string[] = [];
  for (const g of l.sandbox.goals) {
    const r = predicates.requirements(g.check);
    if (r.slabinfo) out.push('slabinfo');
    if (r.sysfs.length) out.push('sysfs');
    if (r.stats) out.push('counters');
    if (r.events) out.push('events');
  }
  out.push('sheaves', 'partial');
  return [...new Set(out)];
}

type Listener = () => void;

export class LessonStore {
  private state: LessonState = initial();
  private listeners = new Set<Listener>();
  private pending = new Set<Promise<unknown>>();
  private moveToken = 0;
  private loading = new Map<string, Promise<Lesson>>();
  /** the sandbox trace opened in the visualizer, and the lines it holds */
  private sandboxOpened: { text: string; lines: string[] } | null = null;
  private absorbed = 0;

  constructor(
    readonly app: Store,
    readonly api: LessonApi,
    readonly storage: ProgressStorage,
    readonly env: LessonEnv,
  ) {
    app.subscribe(() => this.onAppChange());
  }

  getState = (): LessonState => this.state;

  subscribe = (l: Listener): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };

  private set(patch: Partial<LessonState>): void {
    this.state = { ...this.state, ...patch };
    for (const l of this.listeners) l();
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.pending.add(p);
    const done = () => this.pending.delete(p);
    p.then(done, done);
    return p;
  }

  /** Wait until the player and the visualizer have settled. */
  async idle(): Promise<void> {
    for (let i = 0; i < 20 && this.pending.size; i++) await Promise.allSettled([...this.pending]);
    await this.app.idle();
  }

  private fail(e: unknown): void {
    this.set({ error: e instanceof Error ? e.message : String(e), loadingRun: null });
  }

  /** the run moveTo last opened (runKey), to cover the old one at once when the next item needs another */
  private shownRun: string | null = null;

  /** Cover the visualizer until `run` is shown, if it is not the one shown. */
  private expectRun(run: RunConfig): void {
    if (runKey(run) !== this.shownRun || this.app.getState().status !== 'ready') this.set({ loadingRun: runLabel(run) });
  }

  // ---- data -------------------------------------------------------------------

  /** The lesson format's checks use the core's names: its manifest, from the app's engine. */
  private async useVocabulary(): Promise<void> {
    const m = await this.app.manifest();
    if (!m) throw new Error("the lessons need the engine's vocabulary, which could not be read");
    lessonVocabulary.useManifest(m);
  }

  private async loadIndex(): Promise<IndexEntry[]> {
    if (this.state.index) return this.state.index;
    await this.useVocabulary();
    const idx = JSON.parse(await this.env.fetchText('lessons/index.json')) as LessonIndex;
    if (idx.format !== LESSON_FORMAT) throw new Error(`lessons/index.json has format ${String(idx.format)}; this player knows format ${LESSON_FORMAT}`);
    const errs = lessonFormat.validateIndex(idx);
    if (errs.length) throw new Error(errs.slice(0, 3).join('; '));
    this.set({ index: idx.lessons });
    void this.loadSources();
    return idx.lessons;
  }

  /** The sources' citations are shown with a lesson; without them the
   * player names a source by its id, so a failure only warns. */
  private async loadSources(): Promise<void> {
    try {
      const doc = JSON.parse(await this.env.fetchText('lessons/sources.json')) as { sources?: Record<string, LessonSource> };
      this.set({ sources: doc.sources ?? {} });
    } catch (e) {
      console.warn('lesson sources unavailable:', e);
    }
  }

  private async loadProgress(): Promise<void> {
    if (Object.keys(this.state.progress).length) return;
    try {
      const all = await this.storage.all();
      const progress: Record<string, LessonProgress> = {};
      for (const p of all) progress[p.id] = p;
      this.set({ progress: { ...progress, ...this.state.progress } });
    } catch (e) {
      console.warn('lesson progress unavailable:', e);
    }
  }

  /** Fetch a lesson (JSON, prose, scenario files) and hand it to the backend. */
  private loadLesson(id: string): Promise<Lesson> {
    const have = this.state.lessons[id];
    if (have) return Promise.resolve(have);
    let p = this.loading.get(id);
    if (!p) {
      p = (async () => {
        const lesson = JSON.parse(await this.env.fetchText(`lessons/${id}/lesson.json`)) as Lesson;
        if (lesson.format !== LESSON_FORMAT) throw new Error(`lesson ${id} has format ${String(lesson.format)}; this player knows format ${LESSON_FORMAT}`);
        const entry = this.state.index?.find((e) => e.id === id) ?? null;
        await this.useVocabulary();
        const errs = lessonFormat.validateLesson(lesson, entry);
        if (errs.length) throw new Error(errs.slice(0, 3).join('; '));
        const files = new Set<string>();
        for (const sc of [lesson.scenario, lesson.sandbox.scenario, ...(lesson.variants ?? []).map((v) => v.scenario)]) if (sc && 'file' in sc) files.add(sc.file);
        const scenarios: Record<string, string> = {};
        await Promise.all([...files].map(async (f) => (scenarios[f] = await this.env.fetchText(f))));
        for (const [f, text] of Object.entries(scenarios)) this.scenarioTexts.set(f, text);
        const prose = await this.env.fetchText(`lessons/${id}/${lesson.prose}`);
        const translations = await this.loadTranslations(id, Object.keys(entry?.translations ?? {}));
        await this.api.call({ type: 'load', lesson, scenarios });
        this.set({
          lessons: { ...this.state.lessons, [id]: lesson },
          prose: { ...this.state.prose, [id]: prose },
          translations: { ...this.state.translations, [id]: translations },
        });
        return lesson;
      })();
      this.loading.set(id, p);
      p.catch(() => this.loading.delete(id));
    }
    return p;
  }

  /** The translations the index names (small files, all fetched with the
   * lesson so a language switch needs no fetch); one that fails to load is
   * left out and the lesson plays in English. */
  private async loadTranslations(id: string, langs: string[]): Promise<Record<string, { json: LessonTranslation; prose: string }>> {
    const out: Record<string, { json: LessonTranslation; prose: string }> = {};
    await Promise.all(
      langs.map(async (lang) => {
        try {
          const json = JSON.parse(await this.env.fetchText(`lessons/${id}/lesson.${lang}.json`)) as LessonTranslation;
          out[lang] = { json, prose: await this.env.fetchText(`lessons/${id}/${json.prose}`) };
        } catch (e) {
          console.warn(`lesson ${id}: the ${lang} translation is unavailable:`, e);
        }
      }),
    );
    return out;
  }

  private async prepare(lessonId: string, variant: string): Promise<PreparedVariant> {
    const key = `${lessonId}:${variant}`;
    const have = this.state.prepared[key];
    if (have) return have;
    const p = await this.api.call({ type: 'prepare', lessonId, variant });
    this.set({ prepared: { ...this.state.prepared, [key]: p } });
    return p;
  }

  private progressOf(id: string): LessonProgress {
    return this.state.progress[id] ?? emptyProgress(id);
  }

  private saveProgress(p: LessonProgress): void {
    const next = { ...p, updated: Date.now() };
    this.set({ progress: { ...this.state.progress, [p.id]: next } });
    void this.track(this.storage.put(next).catch((e: unknown) => console.warn('saving lesson progress failed:', e)));
  }

  /** Progress in numbers (lesson.json must be loaded for the totals). */
  summary(id: string): ProgressSummary | null {
    const l = this.state.lessons[id];
    if (!l) return null;
    return summarizeProgress(this.state.progress[id], l.stops.map((s) => s.id), l.questions.map((q) => q.id));
  }

  items(): Item[] {
    const l = this.state.current ? this.state.lessons[this.state.current] : null;
    return l ? lessonItems(l) : [];
  }

  question(qid: string): QuestionUi {
    return this.state.questions[qid] ?? NO_Q;
  }

  private setQuestion(qid: string, patch: Partial<QuestionUi>): void {
    this.set({ questions: { ...this.state.questions, [qid]: { ...this.question(qid), ...patch } } });
  }

  // ---- actions: list and navigation --------------------------------------------

  /** Show the lesson list (the lessons column opens). */
  showList = async (): Promise<void> => {
    this.set({ open: true, current: null, armed: null, marks: { highlight: [], focus: [] } });
    this.env.setHash?.(encodeLessonLink({ lesson: null }));
    await this.track(this.loadList());
  };

  private async loadList(): Promise<void> {
    try {
      const idx = await this.loadIndex();
      await this.loadProgress();
      await Promise.all(idx.map((e) => this.loadLesson(e.id).catch((err: unknown) => console.warn(`lesson ${e.id}:`, err))));
    } catch (e) {
      this.fail(e);
    }
  }

  /** Close the lessons column (back to free exploring). */
  close = (): void => {
    this.moveToken++;
    this.set({ open: false, armed: null, moving: false, loadingRun: null, marks: { highlight: [], focus: [] } });
    this.env.setHash?.('');
  };

  /** Open a lesson at a stop (index or id), or where the student left it. */
  openLesson = async (id: string, stop?: number | string): Promise<void> => {
    // the old run stays covered while the lesson loads and prepares its positions
    const entry = this.state.index?.find((e) => e.id === id);
    const title = entry?.translations?.[getLang()]?.title ?? entry?.title;
    this.set({ open: true, error: null, ...(this.state.current !== id ? { loadingRun: title ? `“${title}”` : t('les.lessonId', { id }) } : {}) });
    // the lesson drives the run (its preset changes from stop to stop): an
    // A/B side B would compare against a run nobody chose
    if (this.app.getState().compare) this.app.setCompare(null);
    await this.track(
      (async () => {
        try {
          const index = await this.loadIndex();
          if (!index.some((e) => e.id === id))
            throw new Error(t('les.noLesson', { id, list: index.map((e) => e.id).join(', ') }));
          await this.loadProgress();
          const lesson = await this.loadLesson(id);
          const items = lessonItems(lesson);
          let item: number;
          if (stop === undefined) item = Math.min(this.progressOf(id).item, items.length - 1);
          else {
            const idx = typeof stop === 'number' ? stop : lesson.stops.findIndex((s) => s.id === stop);
            if (idx < 0 || idx >= lesson.stops.length) throw new Error(t('les.noStop', { id, stop: String(stop), last: lesson.stops.length - 1 }));
            item = itemOfStop(items, idx);
          }
          if (this.state.current !== id) this.set({ questions: {}, sandbox: initial().sandbox });
          this.set({ current: id });
          const going = this.goTo(item);
          // the data tables and claims run every variant (seconds): the
          // lesson worker works them out while the first stop is read,
          // after that stop's positions
          if (lesson.data?.tables?.length || lesson.claims?.length) void this.loadExtras();
          await going;
        } catch (e) {
          this.fail(e);
        }
      })(),
    );
  };

  /** Open a share link (lessons/link.ts). */
  openLink = async (l: LessonLink): Promise<void> => {
    if (!l.lesson) await this.showList();
    else await this.openLesson(l.lesson, l.stop);
  };

  next = (): Promise<void> => this.goTo(this.state.item + 1);
  prev = (): Promise<void> => this.goTo(this.state.item - 1);

  /** Go to an item of the current lesson and move the visualizer there. */
  goTo = async (item: number): Promise<void> => {
    const id = this.state.current;
    if (!id) return;
    const lesson = this.state.lessons[id];
    const items = lessonItems(lesson);
    const i = Math.max(0, Math.min(items.length - 1, item));
    const it = items[i];
    const token = ++this.moveToken;
    this.set({ item: i, error: null, armed: null });
    const p = this.progressOf(id);
    this.saveProgress({ ...p, item: i });
    if (it.kind === 'stop') {
      const stop = it.stop;
      this.env.setHash?.(encodeLessonLink({ lesson: id, stop: it.index }));
      this.set({ marks: { highlight: stop.highlight, focus: stop.focus } });
      this.expectRun(runOf(lesson, stop.variant));
      await this.track(
        (async () => {
          try {
            // the run opens (engine worker) while its positions are resolved (lesson worker)
            const opening = this.openRun(token, runOf(lesson, stop.variant));
            opening.catch(() => undefined);
            const prep = await this.prepare(id, stop.variant ?? 'base');
            await opening;
            const steps = prep.steps[stop.id];
            if (!steps) throw new Error(`stop ${stop.id}: ${prep.errors[stop.id] ?? 'position not found'}`);
            const focusSlab = stop.highlight.find((h): h is { slab: number } => 'slab' in h)?.slab ?? null;
            await this.moveTo(token, runOf(lesson, stop.variant), steps.at, {
              cache: stop.cache ?? lesson.cache, cpu: stop.cpu ?? null, focus: stop.focus, slab: focusSlab,
            });
            if (token !== this.moveToken) return;
            const cur = this.progressOf(id);
            if (!cur.seen.includes(stop.id)) this.saveProgress({ ...cur, seen: [...cur.seen, stop.id] });
          } catch (e) {
            if (token === this.moveToken) this.fail(e);
          }
        })(),
      );
    } else if (it.kind === 'question') {
      const q = it.question;
      this.env.setHash?.(encodeLessonLink({ lesson: id }));
      const after = anchorStop(lesson, q);
      const focus = [...(after?.focus ?? [])];
      if (q.kind === 'click') {
        const f = { slab: ['partial', 'slab'], object: ['slab'], sheaf: ['sheaves', 'barns'], list: ['partial', 'sheaves', 'barns'], cpu: ['topology'], node: ['topology'] }[q.target];
        focus.unshift(...f.filter((x) => !focus.includes(x)));
      }
      this.set({ marks: { highlight: [], focus }, armed: q.kind === 'click' && !this.question(q.id).revealed ? q.target : null });
      this.expectRun(runOf(lesson, q.variant));
      await this.track(
        (async () => {
          try {
            const opening = this.openRun(token, runOf(lesson, q.variant));
            opening.catch(() => undefined);
            const prep = await this.prepare(id, q.variant ?? 'base');
            await opening;
            const steps = prep.steps[q.id];
            if (!steps) throw new Error(`question ${q.id}: ${prep.errors[q.id] ?? 'position not found'}`);
            const ui = this.question(q.id);
            await this.moveTo(token, runOf(lesson, q.variant), ui.revealed ? steps.at : steps.from, {
              cache: q.cache ?? after?.cache ?? lesson.cache, cpu: after?.cpu ?? null, focus, slab: null,
            });
            if (q.kind === 'click' && !ui.candidates) {
              const cands = await this.api.call({ type: 'candidates', lessonId: id, qid: q.id });
              this.setQuestion(q.id, { candidates: cands });
            }
          } catch (e) {
            if (token === this.moveToken) this.fail(e);
          }
        })(),
      );
    } else {
      this.env.setHash?.(encodeLessonLink({ lesson: id }));
      this.set({ marks: { highlight: [], focus: sandboxFocus(lesson) } });
      await this.track(this.openSandbox(token));
    }
  };

  /** The scenario files of the lessons loaded (loadLesson fetched them):
   * a move to a stop opens its run without fetching them again. */
  private readonly scenarioTexts = new Map<string, string>();

  /** Open `run` in the visualizer unless it is the one shown; false when
   * a newer move took over meanwhile. */
  private async openRun(token: number, run: RunConfig): Promise<boolean> {
    const text = 'inline' in run.scenario ? run.scenario.inline : (this.scenarioTexts.get(run.scenario.file) ?? (await this.env.fetchText(run.scenario.file)));
    if (token !== this.moveToken) return false;
    const config = runAppConfig(run);
    const st = this.app.getState();
    const same = st.status === 'ready' && !st.traceRef && st.trace === text && st.freeOps.length === 0 && configSets(st.config) === configSets(config) && st.config.preset === config.preset;
    if (!same) {
      const file = 'file' in run.scenario ? /^scenarios\/(.+)\.trace$/.exec(run.scenario.file) : null;
      this.set({ loadingRun: runLabel(run) });
      // a bundled scenario's text is in hand: opened as that scenario
      // without fetching it again (app.loadScenario)
      await this.app.openTrace(text, { scenario: file ? file[1] : null, config });
    }
    return token === this.moveToken;
  }

  /** Move the visualizer: open the run (if it is not the one shown), seek,
   * select the cache, CPU, slab and text view. */
  private async moveTo(
    token: number,
    run: RunConfig,
    steps: number,
    o: { cache: string; cpu: number | null; focus: string[]; slab: number | null },
    toEnd = false,
  ): Promise<void> {
    this.set({ moving: true });
    try {
      if (!(await this.openRun(token, run))) return;
      if (this.app.getState().status !== 'ready') throw new Error(this.app.getState().error ?? 'the run did not open');
      this.shownRun = runKey(run);
      if (toEnd) await this.app.toEnd();
      else if (this.app.getState().frame?.seq !== steps) await this.app.seekSeq(steps);
      if (token !== this.moveToken) return;
      const snap = this.app.getState().frame?.snapshot;
      const cache = snap?.caches.find((c) => c.name === o.cache && c.alive);
      if (cache && this.app.getState().selectedCache !== cache.id) this.app.selectCache(cache.id);
      this.app.selectCpu(o.cpu);
      this.app.selectSlab(o.slab !== null && snap?.slabs.some((s) => s.id === o.slab) ? o.slab : null);
      const tab = o.focus.find((f): f is TextTabView => (TEXT_TABS as readonly string[]).includes(f));
      if (tab && this.app.getState().textTab !== tab) this.app.setTextTab(tab);
    } finally {
      // the old run stays covered until the new one is at its position
      if (token === this.moveToken) this.set({ moving: false, loadingRun: null });
    }
  }

  // ---- actions: questions -------------------------------------------------------

  private currentQuestion(qid: string) {
    const l = this.state.current ? this.state.lessons[this.state.current] : null;
    const q = l?.questions.find((x) => x.id === qid);
    if (!l || !q) throw new Error(`no question ${qid} in the current lesson`);
    return { l, q };
  }

  private recordAnswer(lessonId: string, qid: string, picked: string, ok: boolean): void {
    const p = this.progressOf(lessonId);
    const prev = p.questions[qid];
    this.saveProgress({
      ...p,
      questions: { ...p.questions, [qid]: { first: prev?.first ?? picked, correct: (prev?.correct ?? false) || ok, revealed: prev?.revealed ?? false } },
    });
  }

  /** Answer a choice question: every choice's check is evaluated on the
   * model's window (at .. reveal); the picked one says right or wrong. */
  answerChoice = async (qid: string, choiceId: string): Promise<boolean> => {
    const { l, q } = this.currentQuestion(qid);
    if (q.kind !== 'choice') throw new Error(`${qid} is not a choice question`);
    this.setQuestion(qid, { picked: choiceId });
    return this.track(
      (async () => {
        let results: ChoiceResult[] | null = null;
        try {
          results = await this.api.call({ type: 'choices', lessonId: l.id, qid });
        } catch (e) {
          console.warn(`question ${qid}:`, e);
        }
        const r = results?.find((c) => c.id === choiceId);
        // the model's check decides; the stored answer if it cannot be evaluated
        const ok = r && !r.error ? r.ok : answerIds(q).includes(choiceId);
        this.setQuestion(qid, { result: { ok, message: ok ? 'Right.' : 'Not quite.' }, choices: results });
        this.recordAnswer(l.id, qid, choiceId, ok);
        return ok;
      })(),
    );
  };

  /** Answer a click question with an element id (a click in the visualizer
   * or the keyboard picker): the question's check with $target = the id. */
  answerClick = async (qid: string, target: number | string): Promise<boolean> => {
    const { l, q } = this.currentQuestion(qid);
    if (q.kind !== 'click') throw new Error(`${qid} is not a click question`);
    this.setQuestion(qid, { picked: String(target) });
    return this.track(
      (async () => {
        let r: ClickResult;
        try {
          r = await this.api.call({ type: 'click', lessonId: l.id, qid, target });
        } catch (e) {
          r = { ok: String(q.answer) === String(target), error: String(e) };
        }
        const ok = r.ok;
        this.setQuestion(qid, { result: { ok, message: ok ? 'Right.' : 'Not quite.' } });
        this.recordAnswer(l.id, qid, String(target), ok);
        return ok;
      })(),
    );
  };

  /** Show the answer (after a wrong one): the explanation and the right
   * choice or element; the reveal may follow. */
  showAnswer = (qid: string): void => {
    const { q } = this.currentQuestion(qid);
    this.setQuestion(qid, { shown: true });
    if (q.kind === 'click') this.set({ armed: null });
  };

  /** Try a question again (before the reveal). */
  retry = (qid: string): void => {
    this.setQuestion(qid, { picked: null, result: null, choices: null });
    const { q } = this.currentQuestion(qid);
    if (q.kind === 'click') this.set({ armed: q.target });
  };

  /** Reveal: run the visualizer on to the question's reveal position. */
  reveal = async (qid: string): Promise<void> => {
    const { l, q } = this.currentQuestion(qid);
    const token = ++this.moveToken;
    this.setQuestion(qid, { revealed: true });
    this.set({ armed: null });
    const p = this.progressOf(l.id);
    const prev = p.questions[qid];
    if (prev) this.saveProgress({ ...p, questions: { ...p.questions, [qid]: { ...prev, revealed: true } } });
    await this.track(
      (async () => {
        try {
          const prep = await this.prepare(l.id, q.variant ?? 'base');
          const steps = prep.steps[qid];
          if (!steps) throw new Error(`question ${qid}: ${prep.errors[qid] ?? 'position not found'}`);
          if (!this.question(qid).choices && q.kind === 'choice') {
            this.setQuestion(qid, { choices: await this.api.call({ type: 'choices', lessonId: l.id, qid }) });
          }
          const after = anchorStop(l, q);
          const hl: Highlight[] = [];
          if (q.kind === 'click') {
            const t = q.target;
            hl.push(t === 'object' ? { obj: Number(q.answer) } : t === 'list' ? { list: String(q.answer) } : ({ [t]: Number(q.answer) } as Highlight));
          }
          this.set({ marks: { highlight: hl, focus: this.state.marks.focus } });
          await this.moveTo(token, runOf(l, q.variant), steps.at, {
            cache: q.cache ?? after?.cache ?? l.cache, cpu: after?.cpu ?? null, focus: this.state.marks.focus, slab: null,
          });
        } catch (e) {
          if (token === this.moveToken) this.fail(e);
        }
      })(),
    );
  };

  // ---- actions: sandbox ------------------------------------------------------------

  private sandboxBase(l: Lesson): Promise<string> {
    const sc = l.sandbox.scenario;
    return 'inline' in sc ? Promise.resolve(sc.inline) : this.env.fetchText(sc.file);
  }

  private async openSandbox(token: number): Promise<void> {
    const id = this.state.current;
    if (!id) return;
    void this.track(this.loadGoal(id));
    const l = this.state.lessons[id];
    let lines = this.state.sandbox.lines;
    if (!lines.length && !this.state.sandbox.text) {
      lines = this.progressOf(id).sandbox ?? [];
      this.set({ sandbox: { ...this.state.sandbox, lines, text: lines.join('\n') } });
    }
    try {
      await this.runSandbox(token, l, lines);
    } catch (e) {
      if (token === this.moveToken) this.fail(e);
    }
  }

  /** Open the sandbox trace with `lines` in the visualizer (at its end) and evaluate the goals. */
  private async runSandbox(token: number, l: Lesson, lines: string[]): Promise<void> {
    const problems = lessonFormat.checkSandboxLines(l.sandbox, lines);
    this.set({ sandbox: { ...this.state.sandbox, lines, problems, running: true } });
    const base = await this.sandboxBase(l);
    const text = lessonFormat.sandboxTrace(base, lines);
    const run: RunConfig = { ...sandboxRun(l, lines), scenario: { inline: text } };
    this.sandboxOpened = { text, lines };
    this.absorbed = 0;
    await this.moveTo(token, run, 0, { cache: l.sandbox.cache, cpu: null, focus: this.state.marks.focus, slab: null }, true);
    await this.evaluateSandbox(l, lines, problems);
  }

  private async evaluateSandbox(l: Lesson, lines: string[], problems: string[]): Promise<void> {
    let result: SandboxRun;
    if (problems.length) result = { ok: false, goals: l.sandbox.goals.map((g) => ({ id: g.id, ok: false, message: 'not run' })), errors: problems };
    else {
      try {
        result = await this.api.call({ type: 'sandbox', lessonId: l.id, lines });
      } catch (e) {
        result = { ok: false, goals: [], errors: [e instanceof Error ? e.message : String(e)] };
      }
    }
    // a later attempt may have replaced this one
    if (this.state.sandbox.lines !== lines) return;
    this.set({ sandbox: { ...this.state.sandbox, result, running: false } });
    const p = this.progressOf(l.id);
    this.saveProgress({ ...p, goal: p.goal || result.ok, sandbox: lines });
  }

  /** Free play (the app's Allocate / Free) on the sandbox trace adds its ops to the attempt. */
  private onAppChange(): void {
    const o = this.sandboxOpened;
    const id = this.state.current;
    if (!o || !id || this.items()[this.state.item]?.kind !== 'sandbox') return;
    const st = this.app.getState();
    if (st.baseTrace !== o.text || st.freeOps.length === this.absorbed || st.status !== 'ready') return;
    this.absorbed = st.freeOps.length;
    const lines = [...o.lines, ...st.freeOps.map(opLine)];
    const l = this.state.lessons[id];
    const problems = lessonFormat.checkSandboxLines(l.sandbox, lines);
    this.set({ sandbox: { ...this.state.sandbox, lines, text: lines.join('\n'), problems, running: true } });
    void this.track(this.evaluateSandbox(l, lines, problems));
  }

  /** Edit the attempt's text box (applied by sandboxApply). */
  sandboxSetText = (text: string): void => this.set({ sandbox: { ...this.state.sandbox, text } });

  /** Run the text box's op lines. */
  sandboxApply = async (): Promise<void> => {
    const lines = lessonFormat.sandboxLines(this.state.sandbox.text);
    await this.sandboxSet(lines);
  };

  /** Append one op line and run. */
  sandboxAdd = async (line: string): Promise<void> => {
    await this.sandboxSet([...this.state.sandbox.lines, line.trim()]);
  };

  /** Append a CPU step (`c1`, `c1/`, `c1:cmpxchg`, ...) to the attempt's schedule and run. */
  sandboxStep = async (token: string): Promise<void> => {
    await this.sandboxSet(appendStep(this.state.sandbox.lines, token));
  };

  sandboxUndo = async (): Promise<void> => {
    await this.sandboxSet(this.state.sandbox.lines.slice(0, -1));
  };

  sandboxReset = async (): Promise<void> => {
    await this.sandboxSet([]);
  };

  /** Load the lesson's stored solution. */
  sandboxSolution = async (): Promise<void> => {
    const id = this.state.current;
    if (!id) return;
    await this.sandboxSet(lessonFormat.sandboxLines(this.state.lessons[id].sandbox.solution));
  };

  private async sandboxSet(lines: string[]): Promise<void> {
    const id = this.state.current;
    if (!id) return;
    const l = this.state.lessons[id];
    const token = ++this.moveToken;
    this.set({ sandbox: { ...this.state.sandbox, lines, text: lines.join('\n'), result: null } });
    await this.track(
      this.runSandbox(token, l, lines).catch((e: unknown) => {
        if (token === this.moveToken) this.fail(e);
        this.set({ sandbox: { ...this.state.sandbox, running: false } });
      }),
    );
  }

  private async loadGoal(id: string): Promise<void> {
    if (this.state.goals[id] !== undefined) return;
    this.set({ goals: { ...this.state.goals, [id]: 'loading' } });
    let g: StatePicture | null = null;
    try {
      g = await this.api.call({ type: 'goal', lessonId: id });
    } catch (e) {
      console.warn(`lesson ${id}: the goal picture:`, e);
    }
    this.set({ goals: { ...this.state.goals, [id]: g } });
  }

  // ---- actions: extras and progress -----------------------------------------------

  /** Compute the data tables' model cells and the claims. */
  loadExtras = async (): Promise<void> => {
    const id = this.state.current;
    if (!id || this.state.extras[id]) return;
    this.set({ extras: { ...this.state.extras, [id]: 'loading' } });
    await this.track(
      (async () => {
        try {
          const x = await this.api.call({ type: 'extras', lessonId: id });
          this.set({ extras: { ...this.state.extras, [id]: x } });
        } catch (e) {
          this.set({ extras: { ...this.state.extras, [id]: { cells: {}, claims: [{ id: 'error', ok: false, message: String(e) }] } } });
        }
      })(),
    );
  };

  /** Forget a lesson's progress (or every lesson's). */
  resetProgress = async (id?: string): Promise<void> => {
    if (id) {
      this.saveProgress(emptyProgress(id));
      if (this.state.current === id) this.set({ questions: {}, sandbox: initial().sandbox });
    } else {
      this.set({ progress: {}, questions: {}, sandbox: initial().sandbox });
      await this.track(this.storage.clear());
    }
  };

  /** The share link (URL hash) of a stop. */
  stopLink(lessonId: string, stopIndex: number): string {
    return encodeLessonLink({ lesson: lessonId, stop: stopIndex });
  }

  /** The watch lines (sysfs, slabinfo, stats) of a stop. */
  watch(stopId: string, variant: string | undefined): StopWatch | null {
    const id = this.state.current;
    if (!id) return null;
    return this.state.prepared[`${id}:${variant ?? 'base'}`]?.watch[stopId] ?? null;
  }
}

const def = actionsOf<LessonStore, LessonState>();

/** The player's actions, as the test hook calls them (state/actions.ts). */
export const LESSON_ACTIONS = [
  def('showList', 'show the lesson list'),
  def('close', 'close the lessons column'),
  def('openLesson', 'open a lesson'),
  def('openLink', 'open a lesson link'),
  def('next', 'the next item'),
  def('prev', 'the previous item'),
  def('goTo', 'go to an item'),
  def('answerChoice', 'answer a choice question'),
  def('answerClick', 'answer a click question'),
  def('retry', 'try a question again'),
  def('showAnswer', 'show the answer'),
  def('reveal', 'run to the reveal'),
  def('sandboxSetText', 'edit the sandbox ops'),
  def('sandboxApply', 'run the sandbox ops'),
  def('sandboxAdd', 'add a sandbox op'),
  def('sandboxStep', 'add a CPU step to the sandbox schedule'),
  def('sandboxUndo', 'undo the last sandbox op'),
  def('sandboxReset', 'reset the sandbox'),
  def('sandboxSolution', 'load the stored solution'),
  def('loadExtras', 'fill the data tables and claims'),
  def('resetProgress', 'forget the progress'),
] as const;

export type LessonActionName = (typeof LESSON_ACTIONS)[number]['name'];

export function lessonAct(store: LessonStore, name: LessonActionName, ...args: unknown[]): Promise<unknown> {
  return runAction(LESSON_ACTIONS as readonly ActionOf<LessonStore, LessonState>[], store, name, args, 'lesson action');
}
