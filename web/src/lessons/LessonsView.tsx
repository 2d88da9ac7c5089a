// The lesson player's React views: the header button, and the lessons
// column beside the visualizer (the list with progress, or the player: the
// current stop / question / sandbox, the lesson's prose, its data tables).
import { useEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useAppState, useStore } from '../views/hooks';
import type { StopWatch } from './backend';
import { answerIds, lessonFormat, lessonItems, lessonVocabulary, positionText, stepTokens, type ChoiceQuestion, type ClickQuestion, type ClickTarget, type Lesson, type Question, type Stop } from './format';
import { clickedId, Marker } from './highlight';
import { Markdown } from '../lazyMarkdown';
import { GoalPicture } from './GoalPicture';
import { useLessons, useLessonState } from './mount';
import type { QuestionUi } from './store';
import './lessons.css';

export function LessonsButton() {
  const l = useLessons();
  const st = useLessonState();
  return (
    <button type="button" className="lessons-toggle" aria-pressed={st.open} onClick={() => (st.open ? l.close() : void l.showList())}>
      Lessons
    </button>
  );
}

/** The lessons column; nothing while closed. */
export function LessonColumn() {
  const st = useLessonState();
  if (!st.open) return null;
  return (
    <aside className="lesson-col" aria-label="Lessons" data-testid="lesson-col">
      <Marks />
      <RunLoading />
      {st.error && (
        <p className="error" role="alert" data-testid="lesson-error">
          {st.error}
        </p>
      )}
      {st.current ? <Player id={st.current} /> : <LessonList />}
    </aside>
  );
}

/** Covers the visualizer while a lesson opens its own run, so that the
 * lesson's text never sits over the previous run. */
function RunLoading() {
  const st = useLessonState();
  const [host, setHost] = useState<Element | null>(null);
  useEffect(() => setHost(document.querySelector('main > .col')), []);
  useEffect(() => {
    const main = document.querySelector('main');
    if (!main) return;
    if (st.loadingRun) main.setAttribute('data-lesson-loading', 'true');
    else main.removeAttribute('data-lesson-loading');
    return () => main.removeAttribute('data-lesson-loading');
  }, [st.loadingRun]);
  if (!st.loadingRun || !host) return null;
  return createPortal(
    <div className="lesson-loading" role="status" data-testid="lesson-loading">
      <span className="spinner" aria-hidden="true" /> Opening {st.loadingRun}…
    </div>,
    host,
  );
}

/** Highlights and focus on the visualizer; clicks answering a click question. */
function Marks() {
  const l = useLessons();
  const st = useLessonState();
  const marker = useRef<Marker | null>(null);
  useEffect(() => {
    const m = new Marker(document.body);
    marker.current = m;
    m.start();
    return () => m.stop();
  }, []);
  useEffect(() => {
    marker.current?.set(st.marks);
    const first = st.marks.focus[0];
    if (first) {
      const panel = document.querySelector(`main [data-panel="${first === 'data' ? 'lesson-data' : ['slabinfo', 'sysfs', 'stats', 'events'].includes(first) ? 'text' : first}"]`);
      if (panel && 'scrollIntoView' in panel) panel.scrollIntoView({ block: 'nearest' });
    }
  }, [st.marks]);
  const items = useMemo(() => (st.current && st.lessons[st.current] ? lessonItems(st.lessons[st.current]) : []), [st.current, st.lessons]);
  const it = items[st.item];
  const qid = it?.kind === 'question' ? it.question.id : null;
  useEffect(() => {
    const armed = st.armed;
    if (!armed || !qid) return;
    document.body.setAttribute('data-lesson-armed', armed);
    const onClick = (e: MouseEvent) => {
      const t = e.target as Element | null;
      if (!t || t.closest('.lesson-col') || !t.closest('main')) return;
      const id = clickedId(t, armed);
      if (id === null) return;
      void l.answerClick(qid, id);
    };
    document.addEventListener('click', onClick, true);
    return () => {
      document.removeEventListener('click', onClick, true);
      document.body.removeAttribute('data-lesson-armed');
    };
  }, [st.armed, qid, l]);
  return null;
}

function LessonList() {
  const l = useLessons();
  const st = useLessonState();
  if (!st.index) return <p role="status">Loading the lessons…</p>;
  const titles = new Map(st.index.map((e, i) => [e.id, `${i + 1}. ${e.title}`]));
  return (
    <section aria-labelledby="lesson-list-h">
      <h2 id="lesson-list-h">Lessons</h2>
      <p className="small">Each lesson plays a scenario on the model: narrated stops, questions to predict what happens next, and a sandbox to try it yourself. Progress is kept in this browser.</p>
      <ol className="lesson-list">
        {st.index.map((e, i) => {
          const s = l.summary(e.id);
          const missing = e.prerequisites.filter((p) => !l.summary(p)?.done);
          return (
            <li key={e.id} data-lesson-id={e.id} data-done={s?.done ? 'true' : 'false'}>
              <button type="button" className="lesson-open" onClick={() => void l.openLesson(e.id)} aria-describedby={`lp-${e.id}`}>
                {i + 1}. {e.title}
              </button>
              {s?.done && <span className="done-badge"> ✓ done</span>}
              <p className="small">{e.summary}{e.minutes ? ` (${e.minutes} min)` : ''}</p>
              {e.prerequisites.length > 0 && (
                <p className="small prereq" data-missing={missing.length}>
                  Prerequisites: {e.prerequisites.map((p) => `${titles.get(p) ?? p}${l.summary(p)?.done ? ' ✓' : ''}`).join('; ')}
                  {missing.length ? ' (not done yet: you may still start here)' : ''}
                </p>
              )}
              <p className="small progress-line" id={`lp-${e.id}`} data-testid={`progress-${e.id}`}
                data-stops={s ? `${s.stopsSeen}/${s.stops}` : ''} data-questions={s ? `${s.answered}/${s.questions}` : ''}
                data-correct={s?.correct ?? 0} data-goal={s?.goal ? 'true' : 'false'}>
                {s
                  ? `Progress: stops seen ${s.stopsSeen}/${s.stops} · questions answered ${s.answered}/${s.questions} (${s.correct} right) · sandbox goal ${s.goal ? 'reached ✓' : 'not yet'}`
                  : 'Progress: …'}
              </p>
              {s && <progress max={s.stops + s.questions + 1} value={s.stopsSeen + s.answered + (s.goal ? 1 : 0)} aria-label={`${e.title}: progress`} />}
            </li>
          );
        })}
      </ol>
      <button type="button" onClick={() => { if (confirm('Forget the progress of every lesson?')) void l.resetProgress(); }}>
        Reset all progress
      </button>
    </section>
  );
}

function Player({ id }: { id: string }) {
  const l = useLessons();
  const st = useLessonState();
  const lesson = st.lessons[id];
  const items = useMemo(() => (lesson ? lessonItems(lesson) : []), [lesson]);
  const headRef = useRef<HTMLHeadingElement>(null);
  if (!lesson) return <p role="status">Loading lesson {id}…</p>;
  const it = items[st.item];
  const nStops = lesson.stops.length;
  const seen = new Set(st.progress[id]?.seen ?? []);
  return (
    <section className="player" aria-labelledby="player-h" data-lesson-id={id} data-item={st.item} data-items={items.length}>
      <nav className="player-nav" aria-label="Lesson navigation">
        <button type="button" className="link" onClick={() => void l.showList()}>
          ← All lessons
        </button>
      </nav>
      <h2 id="player-h" ref={headRef}>{lesson.title}</h2>
      <ol className="stop-dots" aria-label="Stops">
        {lesson.stops.map((s, i) => {
          const idx = items.findIndex((x) => x.kind === 'stop' && x.index === i);
          return (
            <li key={s.id}>
              <button
                type="button"
                aria-current={st.item === idx ? 'step' : undefined}
                data-seen={seen.has(s.id) ? 'true' : 'false'}
                aria-label={`Stop ${i + 1}: ${s.title}${seen.has(s.id) ? ' (seen)' : ''}`}
                title={s.title}
                onClick={() => void l.goTo(idx)}
              >
                {i + 1}
              </button>
            </li>
          );
        })}
        <li>
          <button type="button" aria-current={it?.kind === 'sandbox' ? 'step' : undefined} aria-label="Try it: the sandbox" title="Try it" onClick={() => void l.goTo(items.length - 1)}>
            ★
          </button>
        </li>
      </ol>
      <div className="card-wrap" aria-busy={st.moving}>
        {it?.kind === 'stop' && <StopCard lesson={lesson} stop={it.stop} index={it.index} total={nStops} />}
        {it?.kind === 'question' && <QuestionCard lesson={lesson} q={it.question} />}
        {it?.kind === 'sandbox' && <SandboxCard lesson={lesson} />}
      </div>
      <div className="player-buttons">
        <button type="button" onClick={() => void l.prev()} disabled={st.item === 0}>
          ◀ Back
        </button>
        <span className="small" data-testid="item-pos">
          {st.item + 1} / {items.length}
          {st.moving ? ' · moving the visualizer…' : ''}
        </span>
        <button type="button" className="primary" onClick={() => void l.next()} disabled={st.item >= items.length - 1}>
          Next ▶
        </button>
      </div>
      <details className="prose" open={st.item === 0 ? true : undefined}>
        <summary>The lesson text</summary>
        <Markdown text={st.prose[id] ?? ''} className="md lesson-md" />
        <Sources lesson={lesson} />
      </details>
      <DataTables lesson={lesson} />
    </section>
  );
}

function Sources({ lesson }: { lesson: Lesson }) {
  const st = useLessonState();
  return (
    <div className="small sources" data-lesson-sources="">
      <p>Sources:</p>
      <ul>
        {lesson.seeds.map((s) => {
          const src = st.sources[s.file];
          return (
            <li key={s.file} data-source-id={s.file}>
              {src ? (
                <>
                  &ldquo;{src.title}&rdquo; ({src.where}, {src.date}
                  {src.authors ? `; ${src.authors}` : ''})
                  {src.url ? (
                    <>
                      {' · '}
                      <a href={src.url} rel="noreferrer noopener" target="_blank" title={src.url_what}>
                        {src.url}
                      </a>
                    </>
                  ) : null}
                </>
              ) : (
                s.file
              )}
            </li>
          );
        })}
      </ul>
      {lesson.commits.length ? <p>Commits: {lesson.commits.map((c) => c.id.slice(0, 12)).join(', ')}</p> : null}
    </div>
  );
}

function variantLabel(lesson: Lesson, v: string | undefined): string {
  if (!v || v === 'base') return `${lesson.preset ?? 'the trace’s preset'}`;
  return lesson.variants?.find((x) => x.id === v)?.label ?? v;
}

function ShareLink({ lesson, index }: { lesson: Lesson; index: number }) {
  const l = useLessons();
  const [copied, setCopied] = useState(false);
  const hash = l.stopLink(lesson.id, index);
  const href = `${location.origin}${location.pathname}${location.search}${hash}`;
  return (
    <p className="small share">
      <a href={hash} data-testid="stop-link">Link to this stop</a>{' '}
      <button
        type="button"
        className="link"
        onClick={() => {
          void navigator.clipboard?.writeText(href).then(() => setCopied(true), () => setCopied(false));
        }}
      >
        copy
      </button>
      {copied && <span role="status"> copied</span>}
    </p>
  );
}

function Watch({ w }: { w: StopWatch | null }) {
  if (!w || (!w.slabinfo.length && !w.sysfs.length && !w.stats.length)) return null;
  return (
    <div className="watch" aria-label="Watch at this stop" role="group">
      {w.slabinfo.length > 0 && (
        <pre className="text" tabIndex={0} aria-label="/proc/slabinfo lines">
          {w.slabinfoHeader + '\n'}
          {w.slabinfo.map((x) => (
            <span key={x.cache} data-lesson-watch={`slabinfo:${x.cache}`}>{x.line + '\n'}</span>
          ))}
        </pre>
      )}
      {w.sysfs.length > 0 && (
        <pre className="text" tabIndex={0} aria-label="sysfs lines">
          {w.sysfs.map((x) => (
            <span key={x.attr} data-lesson-watch={`sysfs:${x.attr}`}>{x.line + '\n'}</span>
          ))}
        </pre>
      )}
      {w.stats.length > 0 && (
        <ul className="watch-stats">
          {w.stats.map((x) => (
            <li key={x.name} data-lesson-watch={`stat:${x.name}`}>
              <code>{x.name}</code> = {x.value}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function StopCard({ lesson, stop, index, total }: { lesson: Lesson; stop: Stop; index: number; total: number }) {
  const l = useLessons();
  useLessonState();
  const w = l.watch(stop.id, stop.variant);
  return (
    <article className="card stop" data-testid="stop-card" data-stop-id={stop.id} data-stop-index={index} aria-labelledby={`stop-h-${stop.id}`}>
      <h3 id={`stop-h-${stop.id}`}>
        Stop {index + 1} of {total}: {stop.title}
      </h3>
      <p className="small meta">
        {variantLabel(lesson, stop.variant)} · {positionText(stop.at)}
        {stop.cache ? ` · cache ${stop.cache}` : ''}
        {stop.cpu !== undefined ? ` · CPU ${stop.cpu}` : ''} · look at: {stop.focus.join(', ')}
      </p>
      <Markdown text={stop.text} />
      <Watch w={w} />
      <ShareLink lesson={lesson} index={index} />
    </article>
  );
}

const TARGET_WORDS: Record<ClickTarget, string> = { slab: 'slab', object: 'object', sheaf: 'sheaf', cpu: 'CPU', node: 'node', list: 'list' };

function QuestionCard({ lesson, q }: { lesson: Lesson; q: Question }) {
  const l = useLessons();
  const st = useLessonState();
  const ui = l.question(q.id);
  const answered = ui.result !== null;
  const before = st.progress[lesson.id]?.questions[q.id];
  return (
    <article className="card question" data-testid="question-card" data-question-id={q.id} data-kind={q.kind} aria-labelledby={`q-h-${q.id}`}>
      <h3 id={`q-h-${q.id}`}>Predict</h3>
      <p className="small meta">{variantLabel(lesson, q.variant)} · asked at {positionText(q.at)}</p>
      <Markdown text={q.prompt} />
      {q.kind === 'choice' ? <Choices q={q} /> : <ClickAnswer q={q} armed={st.armed === q.target} />}
      {!answered && before && (
        <p className="small" data-testid="answered-before">
          You answered this before ({before.correct ? 'right' : 'not right yet'}); answer again or go on.
        </p>
      )}
      {answered && <Feedback q={q} ui={ui} />}
      <div className="form">
        {answered && !ui.revealed && !ui.shown && !ui.result!.ok && (
          <>
            <button type="button" onClick={() => l.retry(q.id)}>
              Try again
            </button>
            <button type="button" className="link" onClick={() => l.showAnswer(q.id)}>
              Show the answer
            </button>
          </>
        )}
        {answered && !ui.revealed && (ui.result!.ok || ui.shown) && (
          <button type="button" className="primary" onClick={() => void l.reveal(q.id)}>
            Reveal: run to {positionText(q.reveal)} ▶
          </button>
        )}
        {ui.revealed && <span className="small" data-testid="revealed">Revealed: the visualizer shows {positionText(q.reveal)}.</span>}
      </div>
    </article>
  );
}

/** A right answer gets the explanation; a wrong one a hint and another try,
 * the explanation and the answer only when the student asks for them. */
function Feedback({ q, ui }: { q: Question; ui: QuestionUi }) {
  const ok = ui.result!.ok;
  const answer = q.kind === 'choice'
    ? q.choices.filter((c) => answerIds(q).includes(c.id)).map((c) => c.text).join('; ')
    : candidateLabel(q.target, q.answer);
  return (
    <div className={`feedback ${ok ? 'right' : 'wrong'}`} role="status" data-testid="feedback" data-ok={ok ? 'true' : 'false'} data-shown={ui.shown ? 'true' : 'false'}>
      <p>
        <b>{ok ? '✓ Right.' : '✗ Not quite.'}</b>
      </p>
      {ok || ui.shown ? (
        <>
          {!ok && (
            <p data-testid="shown-answer">
              The answer: <Markdown text={answer} inline />
            </p>
          )}
          <div data-testid="explanation">
            <Markdown text={q.explanation} />
          </div>
        </>
      ) : (
        <div className="hint" data-testid="hint">
          <p className="small">Hint:</p>
          <Markdown text={q.hint} />
        </div>
      )}
    </div>
  );
}

function Choices({ q }: { q: ChoiceQuestion }) {
  const l = useLessons();
  const ui = l.question(q.id);
  const right = new Set(answerIds(q));
  const model = new Map((ui.choices ?? []).map((c) => [c.id, c]));
  return (
    <fieldset className="choices" disabled={ui.result !== null}>
      <legend>Your prediction</legend>
      {q.choices.map((c) => {
        const m = model.get(c.id);
        return (
          <div key={c.id} className="choice" data-choice-id={c.id} data-picked={ui.picked === c.id ? 'true' : 'false'}
            data-model={ui.revealed && m ? String(m.ok) : undefined}>
            <button type="button" aria-pressed={ui.picked === c.id} onClick={() => void l.answerChoice(q.id, c.id)}>
              <Markdown text={c.text} inline />
            </button>
            {ui.revealed && (
              <span className="small model-check">
                {right.has(c.id) ? ' ✓ what the model does' : ' ✗ not what the model does'}
                {m?.value !== undefined ? ` (model: ${String(m.value)})` : ''}
              </span>
            )}
          </div>
        );
      })}
    </fieldset>
  );
}

function candidateLabel(target: ClickTarget, c: number | string): string {
  if (target === 'list') return `list ${String(c).replace(':', ' of ')}`;
  return `${TARGET_WORDS[target]} ${c}`;
}

function ClickAnswer({ q, armed }: { q: ClickQuestion; armed: boolean }) {
  const l = useLessons();
  const ui = l.question(q.id);
  const [pick, setPick] = useState('');
  const cands = ui.candidates ?? [];
  useAppState();
  const answered = ui.result !== null;
  return (
    <div className="click-answer">
      <p className="small" data-testid="click-hint" data-armed={armed ? 'true' : 'false'} data-target={q.target}>
        {answered
          ? `You picked ${candidateLabel(q.target, ui.picked ?? '')}.`
          : `Click ${q.target === 'object' ? 'an' : 'a'} ${TARGET_WORDS[q.target]} in the visualizer${q.cache ? ` (cache ${q.cache})` : ''}, or pick one here:`}
      </p>
      {!answered && (
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            if (pick === '') return;
            void l.answerClick(q.id, q.target === 'list' ? pick : Number(pick));
          }}
        >
          <label>
            {TARGET_WORDS[q.target]}{' '}
            <select aria-label={`Pick a ${TARGET_WORDS[q.target]}`} value={pick} onChange={(e) => setPick(e.target.value)}>
              <option value="">choose…</option>
              {cands.map((c) => (
                <option key={String(c)} value={String(c)}>
                  {candidateLabel(q.target, c)}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={pick === ''}>
            Answer
          </button>
        </form>
      )}
    </div>
  );
}

function SandboxCard({ lesson }: { lesson: Lesson }) {
  const l = useLessons();
  const st = useLessonState();
  const app = useAppState();
  const store = useStore();
  const sb = lesson.sandbox;
  const ui = st.sandbox;
  const snap = app.frame?.snapshot;
  const cpus = sb.allow?.cpus ?? [...Array(snap?.topology.nr_cpus ?? 1).keys()];
  const caches = sb.allow?.caches ?? (snap?.caches.filter((c) => c.alive && !c.kmalloc).map((c) => c.name) ?? [sb.cache]);
  const ops = sb.allow?.ops ?? lessonVocabulary.vocabulary().ops;
  const [cpu, setCpu] = useState(String(cpus[0] ?? 0));
  const [op, setOp] = useState(ops[0] ?? 'alloc');
  const [cache, setCache] = useState(sb.cache);
  const [arg, setArg] = useState('');
  const [extra, setExtra] = useState('');
  const [stepKind, setStepKind] = useState('');
  const schedule = sb.allow?.steps === true;
  const opCount = ui.lines.filter((x) => !(schedule && lessonFormat.isStepsLine(x))).length;
  const live = store.liveHandles().filter((h) => h.cache === cache);
  const needsHandle = op === 'alloc' || op === 'free' || op === 'kfree' || op === 'kmalloc';
  const needsCount = op === 'alloc_bulk' || op === 'free_bulk';
  const autoHandle = () => {
    const used = new Set([...ui.lines.flatMap((x) => x.split(/\s+/)), ...store.liveHandles().map((h) => h.handle)]);
    let i = 0;
    while (used.has(`t${i}`)) i++;
    return `t${i}`;
  };
  const lineOf = (): string => {
    const parts = [`c${cpu}`, op];
    if (op === 'kfree') parts.push(arg || live[live.length - 1]?.handle || '');
    else if (op === 'kmalloc') parts.push(arg || '64', autoHandle());
    else {
      parts.push(cache);
      if (op === 'alloc') parts.push(arg || autoHandle());
      else if (op === 'free') parts.push(arg || live[live.length - 1]?.handle || '');
      else if (needsCount) {
        const m = /^(\d+)\s*(\S*)$/.exec(arg.trim());
        parts.push(m ? m[1] : '1', m && m[2] ? m[2] : op === 'alloc_bulk' ? `t${ui.lines.length}` : 'o');
      }
    }
    if (extra.trim()) parts.push(extra.trim());
    return parts.join(' ');
  };
  const ok = !!ui.result?.ok;
  return (
    <article className="card sandbox" data-testid="sandbox-card" aria-labelledby="sb-h" data-ok={ok ? 'true' : 'false'}>
      <h3 id="sb-h">Try it</h3>
      <Markdown text={sb.prompt} />
      {sb.hint && (
        <details>
          <summary>Hint</summary>
          <Markdown text={sb.hint} />
        </details>
      )}
      <GoalPicture goal={st.goals[lesson.id]} snap={snap} cpus={sb.allow?.cpus} />
      <ul className="goals" aria-label="Goals">
        {sb.goals.map((g) => {
          const r = ui.result?.goals.find((x) => x.id === g.id);
          return (
            <li key={g.id} data-goal-id={g.id} data-ok={r?.ok ? 'true' : 'false'}>
              {r?.ok ? '✓' : '○'} <Markdown text={g.text} inline />
              {r && !r.ok && r.message && r.message !== 'not run' ? <span className="small"> ({r.message})</span> : null}
            </li>
          );
        })}
      </ul>
      <p className="small" data-testid="sandbox-count" data-ops={opCount} data-limit={sb.limit.ops} data-steps={schedule ? stepTokens(ui.lines) : undefined}>
        {sb.limit.ops !== 0 && `${opCount} of at most ${sb.limit.ops ?? '∞'} op(s)`}
        {schedule && `${sb.limit.ops !== 0 ? ' · ' : ''}${stepTokens(ui.lines)} of at most ${sb.limit.steps ?? '∞'} CPU step(s)`}
        {sb.allow?.ops ? ` · ops: ${sb.allow.ops.join(', ')}` : ''}
        {sb.allow?.cpus ? ` · CPUs: ${sb.allow.cpus.join(', ')}` : ''}
        {sb.allow?.caches ? ` · caches: ${sb.allow.caches.join(', ')}` : ''}
      </p>
      {schedule && (
        <div className="form builder" role="group" aria-label="Step a CPU">
          <label>
            step
            <select aria-label="Sandbox step kind" value={stepKind} onChange={(e) => setStepKind(e.target.value)}>
              <option value="">one micro-step</option>
              <option value="/">until its op returns (or it spins)</option>
              <option value=":cmpxchg">until its next cmpxchg</option>
              <option value=":lock">until it takes a lock</option>
            </select>
          </label>
          {cpus.map((c) => (
            <button key={c} type="button" onClick={() => void l.sandboxStep(`c${c}${stepKind}`)}>
              Step CPU {c}
            </button>
          ))}
        </div>
      )}
      {sb.limit.ops !== 0 && (
      <form
        className="form builder"
        aria-label="Add an op"
        onSubmit={(e) => {
          e.preventDefault();
          void l.sandboxAdd(lineOf());
          setArg('');
          setExtra('');
        }}
      >
        <label>
          CPU
          <select aria-label="Sandbox CPU" value={cpu} onChange={(e) => setCpu(e.target.value)}>
            {cpus.map((c) => (
              <option key={c} value={c}>cpu {c}</option>
            ))}
          </select>
        </label>
        <label>
          op
          <select aria-label="Sandbox op" value={op} onChange={(e) => setOp(e.target.value)}>
            {ops.map((o) => (
              <option key={o} value={o}>{o}</option>
            ))}
          </select>
        </label>
        {op !== 'kmalloc' && op !== 'kfree' && (
          <label>
            cache
            <select aria-label="Sandbox cache" value={cache} onChange={(e) => setCache(e.target.value)}>
              {caches.map((c) => (
                <option key={c} value={c}>{c}</option>
              ))}
            </select>
          </label>
        )}
        {(needsHandle || needsCount) && (
          <label>
            {needsCount ? 'count [prefix]' : op === 'kmalloc' ? 'size' : op === 'alloc' ? 'handle' : 'handle to free'}
            <input
              aria-label={needsCount ? 'Sandbox count and prefix' : op === 'kmalloc' ? 'Sandbox size' : 'Sandbox handle'}
              size={10}
              list={op === 'free' || op === 'kfree' ? 'sb-live' : undefined}
              value={arg}
              placeholder={op === 'alloc' ? 'auto' : op === 'free' || op === 'kfree' ? (live[live.length - 1]?.handle ?? '') : needsCount ? '8 a' : '64'}
              onChange={(e) => setArg(e.target.value)}
            />
          </label>
        )}
        <datalist id="sb-live">
          {live.slice(-200).map((h) => (
            <option key={h.handle} value={h.handle} />
          ))}
        </datalist>
        {op !== 'flush' && op !== 'flush_all' && op !== 'shrink' && op !== 'destroy' && (
          <label>
            options
            <input aria-label="Sandbox options" size={14} value={extra} placeholder="gfp=…" onChange={(e) => setExtra(e.target.value)} />
          </label>
        )}
        <button type="submit">Add op</button>
      </form>
      )}
      {sb.limit.ops !== 0 && (
        <p className="small">
          The app&rsquo;s Free play panel (Allocate / Free) adds ops here too.
        </p>
      )}
      <label className="sb-text">
        {schedule ? 'Lines (one per line, trace syntax: steps lines like "steps c0/3 c1:cmpxchg"' + (sb.limit.ops !== 0 ? ', or ops' : '') + ')' : 'Op lines (one per line, trace syntax)'}
        <textarea aria-label="Sandbox op lines" rows={Math.max(3, Math.min(8, ui.lines.length + 1))} value={ui.text} spellCheck={false}
          onChange={(e) => l.sandboxSetText(e.target.value)} />
      </label>
      <div className="form">
        <button type="button" onClick={() => void l.sandboxApply()}>
          {schedule ? 'Run these lines' : 'Run these ops'}
        </button>
        <button type="button" onClick={() => void l.sandboxUndo()} disabled={ui.lines.length === 0}>
          {schedule ? 'Undo last line' : 'Undo last op'}
        </button>
        <button type="button" onClick={() => void l.sandboxReset()} disabled={ui.lines.length === 0}>
          Reset
        </button>
        <button type="button" onClick={() => void l.sandboxSolution()}>
          Load the stored solution
        </button>
      </div>
      {ui.problems.length > 0 && (
        <ul className="import-errors" data-testid="sandbox-problems">
          {ui.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      {ui.result && ui.result.errors.length > 0 && ui.problems.length === 0 && (
        <ul className="import-errors">
          {ui.result.errors.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      <p role="status" data-testid="sandbox-status" className={ok ? 'success' : 'small'}>
        {ui.running ? 'Running…' : ok ? '✓ Goal reached! Every goal holds on the model.' : ui.result ? 'Not yet: the goals above marked ○ do not hold.' : ''}
      </p>
      {st.progress[lesson.id]?.goal && !ok && <p className="small">You reached this goal before.</p>}
    </article>
  );
}

function cellText(v: unknown): string {
  if (v === null || v === undefined) return '…';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : v.toFixed(2);
  return String(v);
}

function DataTables({ lesson }: { lesson: Lesson }) {
  const l = useLessons();
  const st = useLessonState();
  const tables = lesson.data?.tables ?? [];
  const claims = lesson.claims ?? [];
  const focused = st.marks.focus.includes('data');
  useEffect(() => {
    if (focused) void l.loadExtras();
  }, [focused, l]);
  if (!tables.length && !claims.length) return null;
  const x = st.extras[lesson.id];
  const ex = x && x !== 'loading' ? x : null;
  return (
    <details className="panel lesson-data" data-panel="lesson-data" open={focused ? true : undefined}
      onToggle={(e) => (e.currentTarget as HTMLDetailsElement).open && void l.loadExtras()}>
      <summary>
        Figures{tables.length ? `: ${tables.length} table(s)` : ''}{claims.length ? `, ${claims.length} statement(s) checked on the model` : ''}
        {x === 'loading' ? ' (computing…)' : ''}
      </summary>
      {tables.map((t) => (
        <table key={t.id} className="counts data-table" data-table-id={t.id}>
          <caption>
            {t.title} <span className="small">({t.source === 'model' ? 'the model' : `from “${st.sources[t.source]?.title ?? t.source}”`}; empty cells: the model)</span>
          </caption>
          <thead>
            <tr>
              {t.columns.map((c) => (
                <th key={c} scope="col">{c}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {t.rows.map((r, i) => (
              <tr key={i}>
                {r.map((c, j) => (
                  <td key={j} className={c === null ? 'model-cell' : undefined}>
                    {c === null ? cellText(ex?.cells[`${t.id}:${i}:${t.columns[j]}`]) : String(c)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      ))}
      {claims.length > 0 && (
        <>
          <h3 className="small-h">What you should have seen</h3>
          <ul className="claims">
            {claims.map((c) => {
              const r = ex?.claims.find((y) => y.id === c.id);
              return (
                <li key={c.id} data-claim-id={c.id} data-ok={r ? String(r.ok) : undefined}>
                  {r ? (r.ok ? '✓ ' : '✗ ') : '… '}
                  <Markdown text={c.text} inline />
                  {c.variant ? <span className="small"> ({variantLabel(lesson, c.variant)})</span> : null}
                </li>
              );
            })}
          </ul>
        </>
      )}
    </details>
  );
}

