// The lesson player's React views (a chunk loaded on first use, mount.ts):
// the lessons column beside the visualizer (the list with progress, or the player: the
// current stop / question / sandbox, the lesson's prose, its data tables).
import { useEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useAppState, useStore } from '../views/hooks';
import type { StopWatch } from './backend';
import { answerIds, lessonFormat, lessonItems, lessonTranslation, lessonVocabulary, positionText, stepTokens, type ChoiceQuestion, type ClickQuestion, type ClickTarget, type IndexEntry, type Lesson, type Question, type Stop } from './format';
import { clickedId, Marker, panelOf } from './highlight';
import { Markdown } from '../lazyMarkdown';
import { GoalPicture } from './GoalPicture';
import { useLessons, useLessonState } from './mount';
import type { QuestionUi } from './store';
import './lessons.css';
import { t, type MsgKey } from '../i18n';
import { useLang } from '../i18n/hooks';

/** The lessons column; nothing while closed. */
export function LessonColumn() {
  const st = useLessonState();
  if (!st.open) return null;
  return (
    <aside className="lesson-col" aria-label={t('les.lessons')} data-testid="lesson-col">
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
      <span className="spinner" aria-hidden="true" /> {t('les.opening', { what: st.loadingRun })}
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
  }, [st.marks]);
  // the first focused panel scrolled into view once the visualizer is at
  // the position (a variant of the other era has other panels), at the
  // next frame: scrolled as the move began, it laid out the old page, and
  // the new one was laid out again (~40 ms of a lesson 06 variant switch).
  // A move to another run begins with the old one covered (loadingRun),
  // before `moving` (the lesson worker finds the position first).
  const first = st.marks.focus[0];
  const settling = st.moving || st.loadingRun !== null;
  useEffect(() => {
    if (!first || settling) return;
    const frame = requestAnimationFrame(() => {
      const panel = document.querySelector(`main [data-panel="${panelOf(first)}"]`);
      if (panel && 'scrollIntoView' in panel) panel.scrollIntoView({ block: 'nearest' });
    });
    return () => cancelAnimationFrame(frame);
  }, [st.marks, first, settling]);
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
  const lang = useLang();
  if (!st.index) return <p role="status">{t('les.loadingList')}</p>;
  // the index names each translation's title and summary
  const titleOf = (e: IndexEntry) => e.translations?.[lang]?.title ?? e.title;
  const titles = new Map(st.index.map((e, i) => [e.id, `${i + 1}. ${titleOf(e)}`]));
  return (
    <section aria-labelledby="lesson-list-h">
      <h2 id="lesson-list-h">{t('les.lessons')}</h2>
      <p className="small">{t('les.listIntro')}</p>
      <ol className="lesson-list">
        {st.index.map((e, i) => {
          const s = l.summary(e.id);
          const missing = e.prerequisites.filter((p) => !l.summary(p)?.done);
          return (
            <li key={e.id} data-lesson-id={e.id} data-done={s?.done ? 'true' : 'false'}>
              <button type="button" className="lesson-open" onClick={() => void l.openLesson(e.id)} aria-describedby={`lp-${e.id}`}
                lang={lang === 'en' || e.translations?.[lang] ? undefined : 'en'}>
                {i + 1}. {titleOf(e)}
              </button>
              {s?.done && <span className="done-badge">{t('les.done')}</span>}
              <p className="small" lang={e.translations?.[lang] ? lang : 'en'}>{e.translations?.[lang]?.summary ?? e.summary}{e.minutes ? t('les.minutes', { n: e.minutes }) : ''}</p>
              {e.prerequisites.length > 0 && (
                <p className="small prereq" data-missing={missing.length}>
                  {t('les.prereqs', { list: e.prerequisites.map((p) => `${titles.get(p) ?? p}${l.summary(p)?.done ? ' ✓' : ''}`).join('; ') })}
                  {missing.length ? t('les.prereqsMissing') : ''}
                </p>
              )}
              <p className="small progress-line" id={`lp-${e.id}`} data-testid={`progress-${e.id}`}
                data-stops={s ? `${s.stopsSeen}/${s.stops}` : ''} data-questions={s ? `${s.answered}/${s.questions}` : ''}
                data-correct={s?.correct ?? 0} data-goal={s?.goal ? 'true' : 'false'}>
                {s
                  ? t('les.progress', { seen: s.stopsSeen, stops: s.stops, answered: s.answered, questions: s.questions, correct: s.correct, goal: s.goal ? t('les.goalReached') : t('les.goalNotYet') })
                  : t('les.progressPending')}
              </p>
              {s && <progress max={s.stops + s.questions + 1} value={s.stopsSeen + s.answered + (s.goal ? 1 : 0)} aria-label={t('les.progressAria', { title: titleOf(e) })} />}
            </li>
          );
        })}
      </ol>
      <button type="button" onClick={() => { if (confirm(t('les.resetConfirm'))) void l.resetProgress(); }}>
        {t('les.reset')}
      </button>
    </section>
  );
}

/** The lesson in the UI's language: its translation's texts and prose, or
 * the English ones (`fallback`: the language has no translation of it). */
function useLocalized(id: string): { lesson: Lesson | undefined; prose: string; lang: string; fallback: boolean } {
  const st = useLessonState();
  const lang = useLang();
  const en = st.lessons[id];
  const tr = lang === 'en' ? undefined : st.translations[id]?.[lang];
  const lesson = useMemo(() => (en ? lessonTranslation.localizeLesson(en, tr?.json) : undefined), [en, tr]);
  return { lesson, prose: tr?.prose ?? st.prose[id] ?? '', lang: tr ? lang : 'en', fallback: lang !== 'en' && !tr };
}

function Player({ id }: { id: string }) {
  const l = useLessons();
  const st = useLessonState();
  const { lesson, prose, lang, fallback } = useLocalized(id);
  const items = useMemo(() => (lesson ? lessonItems(lesson) : []), [lesson]);
  const headRef = useRef<HTMLHeadingElement>(null);
  if (!lesson) return <p role="status">{t('les.loadingLesson', { id })}</p>;
  const it = items[st.item];
  const nStops = lesson.stops.length;
  const seen = new Set(st.progress[id]?.seen ?? []);
  return (
    <section className="player" aria-labelledby="player-h" data-lesson-id={id} data-item={st.item} data-items={items.length} data-lesson-lang={lang} lang={lang}>
      <nav className="player-nav" aria-label={t('les.nav')}>
        <button type="button" className="link" onClick={() => void l.showList()}>
          {t('les.all')}
        </button>
      </nav>
      <h2 id="player-h" ref={headRef}>{lesson.title}</h2>
      {fallback && (
        <p className="small" data-testid="lesson-untranslated">
          {t('les.untranslated')}
        </p>
      )}
      <ol className="stop-dots" aria-label={t('les.stops')}>
        {lesson.stops.map((s, i) => {
          const idx = items.findIndex((x) => x.kind === 'stop' && x.index === i);
          return (
            <li key={s.id}>
              <button
                type="button"
                aria-current={st.item === idx ? 'step' : undefined}
                data-seen={seen.has(s.id) ? 'true' : 'false'}
                aria-label={t('les.stopAria', { n: i + 1, title: s.title }) + (seen.has(s.id) ? t('les.seen') : '')}
                title={s.title}
                onClick={() => void l.goTo(idx)}
              >
                {i + 1}
              </button>
            </li>
          );
        })}
        <li>
          <button type="button" aria-current={it?.kind === 'sandbox' ? 'step' : undefined} aria-label={t('les.tryAria')} title={t('les.try')} onClick={() => void l.goTo(items.length - 1)}>
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
          {t('les.back')}
        </button>
        <span className="small" data-testid="item-pos">
          {st.item + 1} / {items.length}
          {st.moving ? t('les.moving') : ''}
        </span>
        <button type="button" className="primary" onClick={() => void l.next()} disabled={st.item >= items.length - 1}>
          {t('les.next')}
        </button>
      </div>
      <details className="prose" open={st.item === 0 ? true : undefined}>
        <summary>{t('les.text')}</summary>
        <Markdown text={prose} className="md lesson-md" />
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
      <p>{t('les.sources')}</p>
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
      {lesson.commits.length ? <p>{t('les.commits', { list: lesson.commits.map((c) => c.id.slice(0, 12)).join(', ') })}</p> : null}
    </div>
  );
}

function variantLabel(lesson: Lesson, v: string | undefined): string {
  if (!v || v === 'base') return lesson.preset ?? t('les.tracesPreset');
  return lesson.variants?.find((x) => x.id === v)?.label ?? v;
}

function ShareLink({ lesson, index }: { lesson: Lesson; index: number }) {
  const l = useLessons();
  const [copied, setCopied] = useState(false);
  const hash = l.stopLink(lesson.id, index);
  const href = `${location.origin}${location.pathname}${location.search}${hash}`;
  return (
    <p className="small share">
      <a href={hash} data-testid="stop-link">{t('les.link')}</a>{' '}
      <button
        type="button"
        className="link"
        onClick={() => {
          void navigator.clipboard?.writeText(href).then(() => setCopied(true), () => setCopied(false));
        }}
      >
        {t('les.copy')}
      </button>
      {copied && <span role="status">{t('les.copied')}</span>}
    </p>
  );
}

function Watch({ w }: { w: StopWatch | null }) {
  if (!w || (!w.slabinfo.length && !w.sysfs.length && !w.stats.length)) return null;
  return (
    <div className="watch" aria-label={t('les.watch')} role="group">
      {w.slabinfo.length > 0 && (
        <pre className="text" tabIndex={0} aria-label={t('les.slabinfoLines')}>
          {w.slabinfoHeader + '\n'}
          {w.slabinfo.map((x) => (
            <span key={x.cache} data-lesson-watch={`slabinfo:${x.cache}`}>{x.line + '\n'}</span>
          ))}
        </pre>
      )}
      {w.sysfs.length > 0 && (
        <pre className="text" tabIndex={0} aria-label={t('les.sysfsLines')}>
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
        {t('les.stopOf', { n: index + 1, total, title: stop.title })}
      </h3>
      <p className="small meta">
        {variantLabel(lesson, stop.variant)} · {positionText(stop.at)}
        {stop.cache ? t('les.cacheMeta', { cache: stop.cache }) : ''}
        {stop.cpu !== undefined ? t('les.cpuMeta', { cpu: stop.cpu }) : ''}
        {t('les.lookAt', { list: stop.focus.join(', ') })}
      </p>
      <Markdown text={stop.text} />
      <Watch w={w} />
      <ShareLink lesson={lesson} index={index} />
    </article>
  );
}

const targetWord = (x: ClickTarget) => t(`les.target.${x}` as MsgKey);

function QuestionCard({ lesson, q }: { lesson: Lesson; q: Question }) {
  const l = useLessons();
  const st = useLessonState();
  const ui = l.question(q.id);
  const answered = ui.result !== null;
  const before = st.progress[lesson.id]?.questions[q.id];
  return (
    <article className="card question" data-testid="question-card" data-question-id={q.id} data-kind={q.kind} aria-labelledby={`q-h-${q.id}`}>
      <h3 id={`q-h-${q.id}`}>{t('les.predict')}</h3>
      <p className="small meta">{t('les.askedAt', { variant: variantLabel(lesson, q.variant), pos: positionText(q.at) })}</p>
      <Markdown text={q.prompt} />
      {q.kind === 'choice' ? <Choices q={q} /> : <ClickAnswer q={q} armed={st.armed === q.target} />}
      {!answered && before && (
        <p className="small" data-testid="answered-before">
          {t('les.answeredBefore', { how: before.correct ? t('les.right') : t('les.notRightYet') })}
        </p>
      )}
      {answered && <Feedback q={q} ui={ui} />}
      <div className="form">
        {answered && !ui.revealed && !ui.shown && !ui.result!.ok && (
          <>
            <button type="button" onClick={() => l.retry(q.id)}>
              {t('les.tryAgain')}
            </button>
            <button type="button" className="link" onClick={() => l.showAnswer(q.id)}>
              {t('les.showAnswer')}
            </button>
          </>
        )}
        {answered && !ui.revealed && (ui.result!.ok || ui.shown) && (
          <button type="button" className="primary" onClick={() => void l.reveal(q.id)}>
            {t('les.reveal', { pos: positionText(q.reveal) })}
          </button>
        )}
        {ui.revealed && <span className="small" data-testid="revealed">{t('les.revealed', { pos: positionText(q.reveal) })}</span>}
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
        <b>{ok ? t('les.ok') : t('les.notQuite')}</b>
      </p>
      {ok || ui.shown ? (
        <>
          {!ok && (
            <p data-testid="shown-answer">
              {t('les.theAnswer')} <Markdown text={answer} inline />
            </p>
          )}
          <div data-testid="explanation">
            <Markdown text={q.explanation} />
          </div>
        </>
      ) : (
        <div className="hint" data-testid="hint">
          <p className="small">{t('les.hint')}</p>
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
      <legend>{t('les.yourPrediction')}</legend>
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
                {right.has(c.id) ? t('les.modelDoes') : t('les.modelDoesNot')}
                {m?.value !== undefined ? t('les.modelValue', { value: String(m.value) }) : ''}
              </span>
            )}
          </div>
        );
      })}
    </fieldset>
  );
}

function candidateLabel(target: ClickTarget, c: number | string): string {
  if (target === 'list') {
    const [list, node] = String(c).split(':');
    return node === undefined ? `${targetWord('list')} ${list}` : t('les.listOf', { list, node });
  }
  return `${targetWord(target)} ${c}`;
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
          ? t('les.youPicked', { what: candidateLabel(q.target, ui.picked ?? '') })
          : t(q.target === 'object' ? 'les.clickAn' : 'les.clickA', { what: targetWord(q.target), cache: q.cache ? t('les.clickCache', { cache: q.cache }) : '' })}
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
            {targetWord(q.target)}{' '}
            <select aria-label={t(q.target === 'object' ? 'les.pickAn' : 'les.pickA', { what: targetWord(q.target) })} value={pick} onChange={(e) => setPick(e.target.value)}>
              <option value="">{t('les.choose')}</option>
              {cands.map((c) => (
                <option key={String(c)} value={String(c)}>
                  {candidateLabel(q.target, c)}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={pick === ''}>
            {t('les.answer')}
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
      <h3 id="sb-h">{t('les.try')}</h3>
      <Markdown text={sb.prompt} />
      {sb.hint && (
        <details>
          <summary>{t('les.hintSummary')}</summary>
          <Markdown text={sb.hint} />
        </details>
      )}
      <GoalPicture goal={st.goals[lesson.id]} snap={snap} cpus={sb.allow?.cpus} />
      <ul className="goals" aria-label={t('les.goals')}>
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
        {sb.limit.ops !== 0 && t('les.opsCount', { n: opCount, limit: sb.limit.ops ?? '∞' })}
        {schedule && (sb.limit.ops !== 0 ? ' · ' : '') + t('les.stepsCount', { n: stepTokens(ui.lines), limit: sb.limit.steps ?? '∞' })}
        {sb.allow?.ops ? t('les.allowOps', { list: sb.allow.ops.join(', ') }) : ''}
        {sb.allow?.cpus ? t('les.allowCpus', { list: sb.allow.cpus.join(', ') }) : ''}
        {sb.allow?.caches ? t('les.allowCaches', { list: sb.allow.caches.join(', ') }) : ''}
      </p>
      {schedule && (
        <div className="form builder" role="group" aria-label={t('les.stepGroupAria')}>
          <label>
            {t('les.stepLabel')}
            <select aria-label={t('les.stepKindAria')} value={stepKind} onChange={(e) => setStepKind(e.target.value)}>
              <option value="">{t('les.stepOne')}</option>
              <option value="/">{t('les.stepReturn')}</option>
              <option value=":cmpxchg">{t('les.stepCmpxchg')}</option>
              <option value=":lock">{t('les.stepLock')}</option>
            </select>
          </label>
          {cpus.map((c) => (
            <button key={c} type="button" onClick={() => void l.sandboxStep(`c${c}${stepKind}`)}>
              {t('les.stepCpu', { cpu: c })}
            </button>
          ))}
        </div>
      )}
      {sb.limit.ops !== 0 && (
      <form
        className="form builder"
        aria-label={t('les.addOpAria')}
        onSubmit={(e) => {
          e.preventDefault();
          void l.sandboxAdd(lineOf());
          setArg('');
          setExtra('');
        }}
      >
        <label>
          CPU
          <select aria-label={t('les.sbCpuAria')} value={cpu} onChange={(e) => setCpu(e.target.value)}>
            {cpus.map((c) => (
              <option key={c} value={c}>cpu {c}</option>
            ))}
          </select>
        </label>
        <label>
          op
          <select aria-label={t('les.sbOpAria')} value={op} onChange={(e) => setOp(e.target.value)}>
            {ops.map((o) => (
              <option key={o} value={o}>{o}</option>
            ))}
          </select>
        </label>
        {op !== 'kmalloc' && op !== 'kfree' && (
          <label>
            {t('app.cache')}
            <select aria-label={t('les.sbCacheAria')} value={cache} onChange={(e) => setCache(e.target.value)}>
              {caches.map((c) => (
                <option key={c} value={c}>{c}</option>
              ))}
            </select>
          </label>
        )}
        {(needsHandle || needsCount) && (
          <label>
            {needsCount ? t('les.countPrefix') : op === 'kmalloc' ? t('les.size') : op === 'alloc' ? t('les.handle') : t('les.handleToFree')}
            <input
              aria-label={needsCount ? t('les.sbCountAria') : op === 'kmalloc' ? t('les.sbSizeAria') : t('les.sbHandleAria')}
              size={10}
              list={op === 'free' || op === 'kfree' ? 'sb-live' : undefined}
              value={arg}
              placeholder={op === 'alloc' ? t('les.auto') : op === 'free' || op === 'kfree' ? (live[live.length - 1]?.handle ?? '') : needsCount ? '8 a' : '64'}
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
            {t('les.options')}
            <input aria-label={t('les.sbOptionsAria')} size={14} value={extra} placeholder="gfp=…" onChange={(e) => setExtra(e.target.value)} />
          </label>
        )}
        <button type="submit">{t('les.addOp')}</button>
      </form>
      )}
      {sb.limit.ops !== 0 && (
        <p className="small">
          {t('les.freePlayToo')}
        </p>
      )}
      <label className="sb-text">
        {schedule ? t(sb.limit.ops !== 0 ? 'les.linesStepsOrOps' : 'les.linesSteps') : t('les.opLines')}
        <textarea aria-label={t('les.opLinesAria')} rows={Math.max(3, Math.min(8, ui.lines.length + 1))} value={ui.text} spellCheck={false}
          onChange={(e) => l.sandboxSetText(e.target.value)} />
      </label>
      <div className="form">
        <button type="button" onClick={() => void l.sandboxApply()}>
          {t(schedule ? 'les.runLines' : 'les.run')}
        </button>
        <button type="button" onClick={() => void l.sandboxUndo()} disabled={ui.lines.length === 0}>
          {t(schedule ? 'les.undoLine' : 'les.undo')}
        </button>
        <button type="button" onClick={() => void l.sandboxReset()} disabled={ui.lines.length === 0}>
          {t('les.resetSb')}
        </button>
        <button type="button" onClick={() => void l.sandboxSolution()}>
          {t('les.solution')}
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
        {ui.running ? t('les.running') : ok ? t('les.goalOk') : ui.result ? t('les.goalNo') : ''}
      </p>
      {st.progress[lesson.id]?.goal && !ok && <p className="small">{t('les.goalBefore')}</p>}
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
        {t('les.figures')}{tables.length ? t('les.tables', { n: tables.length }) : ''}{claims.length ? t('les.claims', { n: claims.length }) : ''}
        {x === 'loading' ? t('les.computing') : ''}
      </summary>
      {tables.map((tb) => (
        <table key={tb.id} className="counts data-table" data-table-id={tb.id}>
          <caption>
            {tb.title} <span className="small">({t('les.emptyCells', { source: tb.source === 'model' ? t('les.theModel') : t('les.fromSource', { title: st.sources[tb.source]?.title ?? tb.source }) })})</span>
          </caption>
          <thead>
            <tr>
              {tb.columns.map((c) => (
                <th key={c} scope="col">{c}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {tb.rows.map((r, i) => (
              <tr key={i}>
                {r.map((c, j) => (
                  <td key={j} className={c === null ? 'model-cell' : undefined}>
                    {c === null ? cellText(ex?.cells[`${tb.id}:${i}:${tb.columns[j]}`]) : String(c)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      ))}
      {claims.length > 0 && (
        <>
          <h3 className="small-h">{t('les.shouldHaveSeen')}</h3>
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

