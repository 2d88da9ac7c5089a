// The lesson backend: what the lesson player asks of the model, computed on
// its own wasm instance (the lesson worker, worker.ts; Node tests use it in
// process). It resolves stop and question positions to step counts for the
// visualizer, captures each question's window (state at `at`, state at
// `reveal`, the events between) and evaluates the checks with the shared
// predicate engine, runs sandbox attempts (check.mjs runSandbox) and fills
// data tables and claims. Pure TypeScript over the module: no worker or DOM.
//
// The runner opens a run twice (resolve, then capture) and the extras open
// every variant again: a run's parsed session is kept (RUNS_KEPT of them)
// with a checkpoint at its start, and opening it again restores that
// checkpoint instead of parsing the trace again.
import { manifest, SlubvizSession, type SlubvizModule } from '../../../core/wasm/slubviz-api';
import type { LessonReplyPayload, LessonRequestBody } from './protocol';
import { statePicture, type StatePicture } from './goal';
import type { Snapshot } from '../engine/types';
import {
  check, lessonFormat, lessonVocabulary, predicates, runner, runOf, type CapturedState, type Highlight, type Lesson, type OpenFn, type PredicateContext,
  type Probe, type ProbeResult, type Question, type SandboxRun,
} from './format';

/** Per stop: what the text views show for its sysfs / slabinfo / stat highlights. */
export interface StopWatch {
  slabinfo: { cache: string; line: string }[];
  slabinfoHeader: string;
  sysfs: { attr: string; line: string }[];
  stats: { name: string; value: string }[];
}

export interface PreparedVariant {
  lessonId: string;
  variant: string;
  /** stop / question id -> resolved steps (at; from for questions) */
  steps: Record<string, { at: number; from: number }>;
  /** stop / question id -> why its position could not be resolved */
  errors: Record<string, string>;
  watch: Record<string, StopWatch>;
  opsTotal: number;
  stepsTotal: number;
  runError: string;
}

export interface ChoiceResult {
  id: string;
  ok: boolean;
  value?: unknown;
  error?: string;
}

export interface ClickResult {
  ok: boolean;
  value?: unknown;
  error?: string;
}

export interface Extras {
  /** "tableId:row:column" -> value */
  cells: Record<string, unknown>;
  claims: { id: string; ok: boolean; message: string }[];
}

/** parsed runs kept for re-opening */
const RUNS_KEPT = 4;

interface KeptRun {
  session: SlubvizSession;
  /** checkpoint at step 0 */
  start: number;
  /** lent out (a runner has it open) */
  lent: boolean;
}

function fmt(v: unknown): string {
  if (v === undefined) return '';
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s.length > 120 ? s.slice(0, 120) + '…' : s;
}

export class LessonBackend {
  private lessons = new Map<string, Lesson>();
  private texts = new Map<string, string>();
  private prepared = new Map<string, PreparedVariant>();
  private contexts = new Map<string, PredicateContext>();
  /** parsed runs by trace and config, least recently used first */
  private runs = new Map<string, KeptRun>();
  private readonly reuseRuns: boolean;

  /** the lesson engine checks and reads with the core's names (its manifest) */
  constructor(
    readonly mod: SlubvizModule,
    opts: { reuseRuns?: boolean } = {},
  ) {
    lessonVocabulary.useManifest(manifest(mod));
    this.reuseRuns = opts.reuseRuns ?? true;
  }

  /** A session on the run `key` names: a kept one back at its start, else
   * a fresh one from `open` (kept when a checkpoint fits). Its close()
   * hands it back. */
  private session(key: string, open: () => SlubvizSession): SlubvizSession {
    const kept = this.runs.get(key);
    if (kept && !kept.lent) {
      this.runs.delete(key);
      if (kept.session.restore(kept.start) === 0) return this.lend(key, kept);
      kept.session.close();
    }
    const s = open();
    if (!this.reuseRuns || kept) return s;
    // the model is built on first use: the checkpoint is of the built one
    s.seq();
    const start = s.checkpoint();
    if (start < 0) return s;
    return this.lend(key, { session: s, start, lent: false });
  }

  private lend(key: string, run: KeptRun): SlubvizSession {
    run.lent = true;
    this.runs.set(key, run);
    for (const [k, r] of this.runs) {
      if (this.runs.size <= RUNS_KEPT) break;
      if (r.lent) continue;
      this.runs.delete(k);
      r.session.close();
    }
    return new Proxy(run.session, {
      get(target, prop) {
        if (prop === 'close') return () => (run.lent = false);
        const v = Reflect.get(target, prop) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  }

  /** Sessions for the shared runner. */
  readonly open: OpenFn = (trace, opts) => SlubvizSession.open(this.mod, trace, opts);

  private readScenario = (file: string): string => {
    const t = this.texts.get(file);
    if (t === undefined) throw new Error(`scenario ${file} was not loaded`);
    return t;
  };

  /** One request of the lesson worker (protocol.ts). */
  handle<T extends LessonRequestBody>(req: T): LessonReplyPayload[T['type']] {
    const body = req as LessonRequestBody;
    const r = ((): unknown => {
      switch (body.type) {
        case 'init':
          return null;
        case 'load':
          this.load(body.lesson, body.scenarios);
          return null;
        case 'prepare':
          return this.prepare(body.lessonId, body.variant);
        case 'choices':
          return this.choices(body.lessonId, body.qid);
        case 'click':
          return this.click(body.lessonId, body.qid, body.target);
        case 'candidates':
          return this.candidates(body.lessonId, body.qid);
        case 'sandbox':
          return this.sandbox(body.lessonId, body.lines);
        case 'extras':
          return this.extras(body.lessonId);
        case 'goal':
          return this.goal(body.lessonId);
      }
    })();
    return r as LessonReplyPayload[T['type']];
  }

  /** Register a lesson with the scenario files it uses (path -> text). */
  load(lesson: Lesson, scenarios: Record<string, string>): void {
    const errs = lessonFormat.validateLesson(lesson);
    if (errs.length) throw new Error(`lesson ${lesson.id}: ${errs.slice(0, 3).join('; ')}`);
    for (const [k, v] of Object.entries(scenarios)) this.texts.set(k, v);
    const old = this.lessons.get(lesson.id);
    if (old && JSON.stringify(old) !== JSON.stringify(lesson)) {
      for (const k of [...this.prepared.keys()]) if (k.startsWith(lesson.id + ':')) this.prepared.delete(k);
      for (const k of [...this.contexts.keys()]) if (k.startsWith(lesson.id + ':')) this.contexts.delete(k);
    }
    this.lessons.set(lesson.id, lesson);
  }

  private lesson(id: string): Lesson {
    const l = this.lessons.get(id);
    if (!l) throw new Error(`lesson ${id} is not loaded`);
    return l;
  }

  private opener(lesson: Lesson, variant: string): () => SlubvizSession {
    const cfg = runOf(lesson, variant);
    const text = 'inline' in cfg.scenario ? cfg.scenario.inline : this.readScenario(cfg.scenario.file);
    const sets = lessonFormat.setsText(cfg.sets) || null;
    const key = JSON.stringify([text, cfg.preset, sets]);
    return () => this.session(key, () => SlubvizSession.open(this.mod, text, { preset: cfg.preset, sets }));
  }

  /** Resolve every stop and question position of one run (a variant) and
   * capture the questions' windows; cached per lesson and variant. */
  prepare(lessonId: string, variant = 'base'): PreparedVariant {
    const hit = this.prepared.get(`${lessonId}:${variant}`);
    if (hit) return hit;
    const lesson = this.lesson(lessonId);
    const probes = this.positionProbes(lesson, variant);
    return this.keepPrepared(lesson, variant, probes.length ? runner.runProbes(this.opener(lesson, variant), probes) : null);
  }

  /** The probes of a variant's stops and questions (ids "stop:ID", "q:ID"). */
  private positionProbes(lesson: Lesson, variant: string): Probe[] {
    const mine = (v: string | undefined) => (v ?? 'base') === variant;
    const probes: Probe[] = [];
    for (const s of lesson.stops.filter((x) => mine(x.variant))) {
      const cache = s.cache ?? lesson.cache;
      probes.push({
        id: `stop:${s.id}`,
        at: s.at,
        need: {
          // counters are read from the snapshot
          snapshot: s.highlight.some((h) => 'stat' in h),
          stats: s.highlight.some((h) => 'stat' in h),
          slabinfo: s.highlight.some((h) => 'slabinfo' in h),
          sysfs: s.highlight.some((h) => 'sysfs' in h) ? [cache] : [],
        },
      });
    }
    for (const q of lesson.questions.filter((x) => mine(x.variant))) {
      const preds = q.kind === 'choice' ? q.choices.map((c) => c.check) : [q.check];
      const merged = check.mergeReq(preds.map((p) => predicates.requirements(p)));
      const need = { ...merged, snapshot: merged.snapshot || q.kind === 'click', before: true };
      probes.push({ id: `q:${q.id}`, at: q.reveal, from: q.at, need, events: need.events });
    }
    return probes;
  }

  /** The prepared variant from the run of its position probes (and maybe
   * others: only "stop:" and "q:" results are read), kept. */
  private keepPrepared(lesson: Lesson, variant: string, run: ReturnType<typeof runner.runProbes> | null): PreparedVariant {
    const lessonId = lesson.id;
    const out: PreparedVariant = { lessonId, variant, steps: {}, errors: {}, watch: {}, opsTotal: 0, stepsTotal: 0, runError: '' };
    if (run) {
      const { results, info } = run;
      if (info) {
        out.opsTotal = info.opsTotal;
        out.stepsTotal = info.stepsTotal;
        out.runError = info.runError;
      }
      for (const [pid, r] of results) {
        if (!/^(stop|q):/.test(pid)) continue;
        const id = pid.replace(/^(stop|q):/, '');
        if (!r.steps || r.error) {
          out.errors[id] = r.error ?? 'not resolved';
          continue;
        }
        out.steps[id] = r.steps;
        if (pid.startsWith('q:') && r.ctx) this.contexts.set(`${lessonId}:${id}`, r.ctx);
        if (pid.startsWith('stop:') && r.ctx) {
          const stop = lesson.stops.find((s) => s.id === id)!;
          out.watch[id] = this.watchOf(stop.highlight, stop.cache ?? lesson.cache, r);
        }
      }
    }
    this.prepared.set(`${lessonId}:${variant}`, out);
    return out;
  }

  private watchOf(hl: Highlight[], cache: string, r: ProbeResult): StopWatch {
    const st: CapturedState = r.ctx?.after ?? {};
    const w: StopWatch = { slabinfo: [], slabinfoHeader: '', sysfs: [], stats: [] };
    const lines = (st.slabinfo ?? '').split('\n');
    w.slabinfoHeader = lines.find((l) => l.startsWith('# name')) ?? '';
    for (const h of hl) {
      if ('slabinfo' in h) {
        const line = lines.find((l) => l.split(/\s+/)[0] === h.slabinfo);
        if (line) w.slabinfo.push({ cache: h.slabinfo, line });
      } else if ('sysfs' in h) {
        const line = (st.sysfs?.[cache] ?? '').split('\n').find((l) => l.startsWith(`./${h.sysfs}:`));
        if (line) w.sysfs.push({ attr: h.sysfs, line });
      } else if ('stat' in h) {
        const e = predicates.explain({ stat: h.stat, cache, op: '>=', value: -Infinity }, r.ctx ?? {});
        w.stats.push({ name: h.stat, value: e.error ? '?' : fmt(e.value) });
      }
    }
    return w;
  }

  private question(lessonId: string, qid: string): { q: Question; ctx: PredicateContext } {
    const lesson = this.lesson(lessonId);
    const q = lesson.questions.find((x) => x.id === qid);
    if (!q) throw new Error(`lesson ${lessonId} has no question ${qid}`);
    const p = this.prepare(lessonId, q.variant ?? 'base');
    const ctx = this.contexts.get(`${lessonId}:${qid}`);
    if (!ctx) throw new Error(`question ${qid}: ${p.errors[qid] ?? 'its window was not captured'}`);
    return { q, ctx };
  }

  /** Every choice's check on the question's window. */
  choices(lessonId: string, qid: string): ChoiceResult[] {
    const { q, ctx } = this.question(lessonId, qid);
    if (q.kind !== 'choice') throw new Error(`question ${qid} is not a choice question`);
    return q.choices.map((c) => {
      const e = predicates.explain(c.check, ctx);
      return { id: c.id, ok: !e.error && e.ok, value: e.value === undefined ? undefined : fmt(e.value), error: e.error };
    });
  }

  /** The clicked element against the question's check. */
  click(lessonId: string, qid: string, target: number | string): ClickResult {
    const { q, ctx } = this.question(lessonId, qid);
    if (q.kind !== 'click') throw new Error(`question ${qid} is not a click question`);
    const e = predicates.explain(q.check, { ...ctx, target });
    return { ok: !e.error && e.ok, value: e.value === undefined ? undefined : fmt(e.value), error: e.error };
  }

  /** What can be clicked at the question's `at` (its `before` snapshot). */
  candidates(lessonId: string, qid: string): (number | string)[] {
    const { q, ctx } = this.question(lessonId, qid);
    if (q.kind !== 'click') return [];
    const snap = ctx.before?.snapshot;
    if (!snap) return [];
    return lessonFormat.clickCandidates(JSON.parse(snap), q.target, q.cache);
  }

  /** A sandbox attempt: the lesson's starting trace plus `lines`. */
  sandbox(lessonId: string, lines: string[]): SandboxRun {
    return check.runSandbox(this.lesson(lessonId), lines, { open: this.open, readScenario: this.readScenario });
  }

  /** The sandbox's goal as a picture: the state the stored solution ends in. */
  goal(lessonId: string): StatePicture | null {
    const l = this.lesson(lessonId);
    const sb = l.sandbox;
    const base = 'inline' in sb.scenario ? sb.scenario.inline : this.readScenario(sb.scenario.file);
    const s = this.open(lessonFormat.sandboxTrace(base, lessonFormat.sandboxLines(sb.solution)), { preset: sb.preset ?? '', sets: lessonFormat.setsText(sb.sets) || null });
    try {
      s.runAll();
      return statePicture(JSON.parse(s.snapshotJson()) as Snapshot, sb.cache, sb.allow?.cpus);
    } finally {
      s.close();
    }
  }

  /** Data table cells the model fills and the lesson's claims. */
  extras(lessonId: string): Extras {
    const lesson = this.lesson(lessonId);
    const byVariant = new Map<string, { probe: Probe; use: (r: ProbeResult) => void }[]>();
    const want = (v: string | undefined, probe: Probe, use: (r: ProbeResult) => void) => {
      const k = v ?? 'base';
      if (!byVariant.has(k)) byVariant.set(k, []);
      byVariant.get(k)!.push({ probe, use });
    };
    const cells: Record<string, unknown> = {};
    const claims: Extras['claims'] = [];
    const needOf = (p: unknown) => predicates.requirements(p as never);
    for (const t of lesson.data?.tables ?? []) {
      (t.model ?? []).forEach((m, j) => {
        want(m.variant, { id: `data:${t.id}:${j}`, at: m.at ?? { end: true }, need: needOf(m.value), events: false }, (r) => {
          const e = predicates.explain({ ...(m.value as object), op: '>=', value: -Infinity }, r.ctx ?? {});
          cells[`${t.id}:${m.row}:${m.column}`] = e.error ? `error: ${e.error}` : e.value;
        });
      });
    }
    for (const c of lesson.claims ?? []) {
      if (c.compare) {
        const sides: Record<string, number> = {};
        const done = () => {
          if (!('left' in sides) || !('right' in sides)) return;
          const f = c.compare!.factor ?? 1;
          const a = sides.left;
          const b = sides.right * f;
          const ok = ({ '==': a === b, '!=': a !== b, '<': a < b, '<=': a <= b, '>': a > b, '>=': a >= b } as Record<string, boolean>)[c.compare!.op] ?? false;
          claims.push({ id: c.id, ok, message: `${a} ${c.compare!.op} ${f === 1 ? '' : `${f} × `}${sides.right}` });
        };
        for (const side of ['left', 'right'] as const) {
          const spec = c.compare[side];
          want(spec.variant, { id: `claim:${c.id}:${side}`, at: spec.at ?? { end: true }, need: needOf(spec.value), events: false }, (r) => {
            const e = predicates.explain({ ...(spec.value as object), op: '>=', value: -Infinity }, r.ctx ?? {});
            sides[side] = Number(e.value);
            done();
          });
        }
        continue;
      }
      const req = needOf(c.check);
      want(c.variant, { id: `claim:${c.id}`, at: c.at ?? { end: true }, from: c.from, need: req, events: req.events && !!c.from }, (r) => {
        const e = predicates.explain(c.check!, r.ctx ?? {});
        claims.push({ id: c.id, ok: !e.error && e.ok, message: e.error ?? (e.value === undefined ? '' : `value ${fmt(e.value)}`) });
      });
    }
    for (const [variant, list] of byVariant) {
      // a variant's stops and questions are resolved in the same runs (a
      // later switch to it finds them prepared instead of running it again)
      const positions = this.prepared.has(`${lessonId}:${variant}`) ? [] : this.positionProbes(lesson, variant);
      let results: Map<string, ProbeResult>;
      try {
        const run = runner.runProbes(this.opener(lesson, variant), [...positions, ...list.map((x) => x.probe)]);
        if (positions.length) this.keepPrepared(lesson, variant, run);
        results = run.results;
      } catch (e) {
        for (const { probe } of list) if (probe.id.startsWith('claim:')) claims.push({ id: probe.id.split(':')[1], ok: false, message: String(e) });
        continue;
      }
      for (const { probe, use } of list) {
        const r = results.get(probe.id);
        if (!r || r.error) {
          if (probe.id.startsWith('claim:')) claims.push({ id: probe.id.split(':')[1], ok: false, message: r?.error ?? 'not run' });
          continue;
        }
        use(r);
      }
    }
    const order = new Map((lesson.claims ?? []).map((c, i) => [c.id, i]));
    const seen = new Set<string>();
    const uniq = claims.filter((c) => (seen.has(c.id) ? false : (seen.add(c.id), true)));
    uniq.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
    return { cells, claims: uniq };
  }
}
