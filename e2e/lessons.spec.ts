// The lesson player (issue 6): lessons 1, 6 and 9 played end to end through
// the UI (every stop, every question answered right and revealed, the
// sandbox goal reached with UI ops and with the stored solution), progress
// surviving a reload (IndexedDB), a share link opening a stop, an axe scan
// of the list, a stop, a question and the sandbox; lesson 9's sandbox
// solved by typing CPU steps and with the "Step CPU n" helper. SVZ_SHOTS=1 saves
// screenshots to build-test/lesson-shots/.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Lesson } from '../web/src/lessons/format';
import { axeClean, expect, test } from './fixtures';
import { shot } from './pages/lessons';

const ROOT = join(__dirname, '..');
const lessonJson = (id: string) => JSON.parse(readFileSync(join(ROOT, 'lessons', id, 'lesson.json'), 'utf8')) as Lesson;

test.describe.configure({ mode: 'serial' });

test('lesson 1 end to end with UI ops in the sandbox; progress survives a reload; axe', async ({ app, page, lessons }) => {
  test.setTimeout(120_000);
  const lesson = lessonJson('01-anatomy');
  await app.open();
  await lessons.openFromList(/^1\. SLUB/);
  await axeClean(page);
  await lessons.playAll(lesson, async () => {
    const card = lessons.col.getByTestId('sandbox-card');
    // the stored solution's ops, entered one by one with the op builder
    for (const line of lesson.sandbox.solution) await lessons.addOp(line);
    await expect(card.getByTestId('sandbox-count')).toHaveAttribute('data-ops', String(lesson.sandbox.solution.length));
    expect((await app.state()).op).toBe((await app.state()).opsTotal);
    await axeClean(page);
  }, process.env.SVZ_SHOTS ? 'l1' : '');
  const progress = await page.evaluate(() => window.__slubvizLessons!.summaries()['01-anatomy']);
  expect(progress).toMatchObject({ stopsSeen: lesson.stops.length, answered: lesson.questions.length, correct: lesson.questions.length, goal: true, done: true });

  // reload: the player resumes at the sandbox (the URL names the lesson),
  // its last attempt replayed; the list shows the progress kept in IndexedDB
  await page.reload();
  await app.ready();
  await lessons.idle();
  await expect(lessons.col.getByTestId('sandbox-card')).toBeVisible();
  await expect(lessons.col.getByTestId('sandbox-status')).toContainText('Goal reached');
  await lessons.col.getByRole('button', { name: '← All lessons' }).click();
  const row = lessons.listItem('01-anatomy');
  await expect(row).toHaveAttribute('data-done', 'true');
  await expect(lessons.progress('01-anatomy')).toHaveAttribute('data-stops', `${lesson.stops.length}/${lesson.stops.length}`);
  await expect(lessons.progress('01-anatomy')).toHaveAttribute('data-goal', 'true');
  await expect(lessons.listItem('02-classic-paths').locator('.prereq')).toContainText('✓');
  await shot(page, 'list-after-reload');
  await axeClean(page);
});

test('lesson 6 end to end with the stored solution', async ({ app, page, lessons, views }) => {
  test.setTimeout(150_000);
  const lesson = lessonJson('06-sheaves-regression');
  await app.open();
  await lessons.openFromList(/^6\. The cross-CPU/);
  await lessons.playAll(lesson, async () => {
    const card = lessons.col.getByTestId('sandbox-card');
    await card.getByRole('button', { name: 'Load the stored solution' }).click();
    await lessons.idle();
    await expect(card.getByRole('textbox', { name: 'Sandbox op lines' })).toHaveValue(lesson.sandbox.solution.join('\n'));
    await expect(card.locator('[data-goal-id]')).toHaveCount(lesson.sandbox.goals.length);
    await expect(card.locator('[data-goal-id][data-ok=false]')).toHaveCount(0);
  }, process.env.SVZ_SHOTS ? 'l6' : '');
  const progress = await page.evaluate(() => window.__slubvizLessons!.summaries()['06-sheaves-regression']);
  expect(progress).toMatchObject({ answered: lesson.questions.length, correct: lesson.questions.length, goal: true, done: true });
  // the data tables fill their model cells
  await page.locator('[data-panel=lesson-data] > summary').click();
  await expect(views.panel('lesson-data').locator('td.model-cell').first()).not.toHaveText('…', { timeout: 60_000 });
  await expect(views.panel('lesson-data').locator('[data-claim-id][data-ok=false]')).toHaveCount(0);
  await shot(page, 'l6-data');
});

test('a share link opens the player at a stop; a wrong click gets feedback', async ({ app, page, lessons, views }) => {
  const lesson = lessonJson('05-sheaves');
  await page.goto('./?anim=0#lesson=05-sheaves&stop=6');
  await app.ready();
  await lessons.idle();
  const card = lessons.col.getByTestId('stop-card');
  await expect(card).toHaveAttribute('data-stop-index', '6');
  await expect(card).toHaveAttribute('data-stop-id', lesson.stops[6].id);
  const steps = await lessons.steps('05-sheaves', undefined, lesson.stops[6].id);
  expect((await app.state()).seq).toBe(steps.at);
  await expect(card.getByTestId('stop-link')).toHaveAttribute('href', '#lesson=05-sheaves&stop=6');
  // the next item: click the sheaf that becomes CPU 1's main; a wrong one first
  await lessons.next.click();
  await lessons.idle();
  const q = lessons.col.getByTestId('question-card');
  await expect(q).toHaveAttribute('data-question-id', 'q-barn-get');
  await views.panel('barns').locator('[data-sheaf-id]').first().waitFor();
  const wrong = await page.evaluate(() => {
    const ids = [...document.querySelectorAll('main [data-sheaf-id]')].map((e) => e.getAttribute('data-sheaf-id')).filter((x) => x !== 'none' && x !== '3');
    return ids[0];
  });
  await page.locator(`main [data-sheaf-id="${wrong}"]`).first().click({ force: true });
  await lessons.idle();
  await expect(q.getByTestId('feedback')).toHaveAttribute('data-ok', 'false');
  await shot(page, 'l5-wrong-click');
  await q.getByRole('button', { name: 'Try again' }).click();
  await views.panel('barns').locator('[data-sheaf-id="3"]').click({ force: true });
  await lessons.idle();
  await expect(q.getByTestId('feedback')).toHaveAttribute('data-ok', 'true');
  await axeClean(page);
});

test('a stop scrolls its first focused panel into view once the visualizer is at it, after a move to another run too', async ({ app, page, lessons, views }) => {
  const lesson = lessonJson('06-sheaves-regression');
  // stop 6 (run fix1) focuses the call path, stop 7 (run fix2) the barns
  expect([lesson.stops[6].variant, lesson.stops[6].focus[0], lesson.stops[7].variant, lesson.stops[7].focus[0]]).toEqual(['fix1', 'callpath', 'fix2', 'barns']);
  await page.setViewportSize({ width: 1100, height: 600 });
  await page.goto('./?anim=0#lesson=06-sheaves-regression&stop=6');
  await app.ready();
  await lessons.idle();
  await expect(views.panel('callpath')).toBeInViewport();
  // the student scrolls to the foot of the page, where the barns are not
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(views.panel('callpath')).not.toBeInViewport();
  await expect(views.panel('barns')).not.toBeInViewport();
  // the next stop's share link followed in the same tab
  await page.evaluate(() => { window.location.hash = '#lesson=06-sheaves-regression&stop=7'; });
  await expect(lessons.col.getByTestId('stop-card')).toHaveAttribute('data-stop-index', '7');
  await lessons.idle();
  await expect(views.panel('barns')).toHaveAttribute('data-lesson-focus', '0');
  await expect(views.panel('barns')).toBeInViewport();
});

test('a wrong answer gets a hint and another try, never the solution; "Show the answer" shows it', async ({ app, page, lessons }) => {
  const lesson = lessonJson('01-anatomy');
  const q = lesson.questions.find((x) => x.id === 'q-active-first')!;
  const q2 = lesson.questions.find((x) => x.id === 'q-num-objs')!;
  if (q.kind !== 'choice' || q2.kind !== 'choice') throw new Error('expected choice questions');
  const wrong = (x: typeof q) => x.choices.find((c) => c.id !== x.answer)!.id;
  await app.open();
  await lessons.openFromList(/^1\. SLUB/);
  await lessons.nextUntilQuestion(q.id);
  await lessons.choose(wrong(q));
  const card = lessons.question;
  await expect(card.getByTestId('feedback')).toHaveAttribute('data-ok', 'false');
  // the hint, not the explanation, not the right choice, no reveal
  await expect(card.getByTestId('hint')).toContainText(q.hint.replace(/`/g, '').slice(0, 40));
  await expect(card.getByTestId('explanation')).toHaveCount(0);
  await expect(card.getByTestId('shown-answer')).toHaveCount(0);
  await expect(card).not.toContainText(q.explanation.replace(/`/g, '').slice(0, 40));
  await expect(card.locator('[data-choice-id][data-model]')).toHaveCount(0);
  await expect(card.getByRole('button', { name: /^Reveal/ })).toHaveCount(0);
  await shot(page, 'l1-wrong-hint');
  // another try: right this time, the explanation and the reveal follow
  await card.getByRole('button', { name: 'Try again' }).click();
  await lessons.choose(q.answer as string);
  await expect(card.getByTestId('feedback')).toHaveAttribute('data-ok', 'true');
  await expect(card.getByTestId('explanation')).toBeVisible();
  await expect(card.getByTestId('hint')).toHaveCount(0);
  await expect(card.getByRole('button', { name: /^Reveal/ })).toBeVisible();
  // the next question: wrong, then "Show the answer"
  await lessons.nextUntilQuestion(q2.id);
  await lessons.choose(wrong(q2));
  await expect(card.getByTestId('hint')).toBeVisible();
  await card.getByRole('button', { name: 'Show the answer' }).click();
  await expect(card.getByTestId('feedback')).toHaveAttribute('data-shown', 'true');
  await expect(card.getByTestId('shown-answer')).toContainText(q2.choices.find((c) => c.id === q2.answer)!.text);
  await expect(card.getByTestId('explanation')).toBeVisible();
  await expect(card.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  await expect(card.getByRole('button', { name: /^Reveal/ })).toBeVisible();
  await axeClean(page);
});

test('opening a lesson covers the visualizer until the lesson\'s own run is shown; the sandbox draws its goal', async ({ app, page, lessons }) => {
  test.setTimeout(120_000);
  await app.open();
  expect((await app.state()).scenario).not.toBe('ublk-bio256');
  await page.getByRole('button', { name: 'Lessons', exact: true }).click();
  await lessons.col.getByRole('button', { name: /^6\. The cross-CPU/ }).click();
  // lesson 06 prepares its positions on ublk-bio256 (a million micro-steps):
  // meanwhile the old run is covered
  const cover = page.getByTestId('lesson-loading');
  await expect(cover).toBeVisible();
  await expect(app.main).toHaveAttribute('data-lesson-loading', 'true');
  await shot(page, 'l6-loading');
  await lessons.idle();
  await expect(cover).toHaveCount(0);
  await expect(app.main).not.toHaveAttribute('data-lesson-loading', 'true');
  expect((await app.state()).scenario).toBe('ublk-bio256');
  await expect(lessons.col.getByTestId('stop-card')).toHaveAttribute('data-stop-id', 'machine');

  // lesson 5's sandbox: the goal picture (the stored solution's end) beside the state now
  await lessons.col.getByRole('button', { name: '← All lessons' }).click();
  await lessons.col.getByRole('button', { name: /^5\. / }).click();
  await lessons.idle();
  await lessons.col.getByRole('button', { name: 'Try it: the sandbox' }).click();
  await lessons.idle();
  const goal = lessons.col.getByTestId('goal-picture');
  await expect(goal).toHaveAttribute('data-state', 'ready');
  // one picture, each row read across: the goal's column left of now's, on the same line
  await expect(goal.locator('svg.goal-svg')).toHaveCount(1);
  const row = goal.locator('[data-cpu-row]').first();
  const [g, n] = [await row.locator('[data-side=goal]').boundingBox(), await row.locator('[data-side=now]').boundingBox()];
  expect(g && n && n.x >= g.x + g.width && Math.abs(n.y - g.y) < 2).toBe(true);
  const before = Number(await goal.getAttribute('data-differences'));
  expect(before).toBeGreaterThan(0);
  await lessons.col.getByTestId('sandbox-card').getByRole('button', { name: 'Load the stored solution' }).click();
  await lessons.idle();
  await expect(goal).toHaveAttribute('data-differences', '0');
  await expect(goal).toContainText('matches the goal');
  await shot(page, 'l5-goal');
  await axeClean(page);
});

test('lesson 9: the race reproduced in the sandbox by typing the steps, and by stepping CPUs', async ({ app, page, lessons }) => {
  test.setTimeout(120_000);
  const lesson = lessonJson('09-bisection-crash');
  await app.open();
  await lessons.openFromList(/^9\. The bisection/);
  await lessons.col.getByRole('button', { name: 'Try it: the sandbox' }).click();
  await lessons.idle();
  const card = lessons.col.getByTestId('sandbox-card');
  await expect(card).toBeVisible();
  // steps only: no op builder, a step counter
  await expect(card.getByRole('button', { name: 'Add op' })).toHaveCount(0);
  await expect(lessons.col.getByTestId('lesson-error')).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Step CPU 1' })).toBeVisible();
  await axeClean(page);

  // a schedule that lets CPU 1 free one micro-step too early: no corruption
  await lessons.typeLines(lesson.sandbox.wrong.join('\n'));
  await expect(card.getByTestId('sandbox-status')).toContainText('Not yet');
  await expect(card.locator('[data-goal-id=g-corrupt]')).toHaveAttribute('data-ok', 'false');

  // the stored solution, typed into the page
  await lessons.typeLines(lesson.sandbox.solution.join('\n'));
  await expect(card.getByTestId('sandbox-status')).toContainText('Goal reached');
  await expect(card.getByTestId('sandbox-count')).toHaveAttribute('data-steps', '3');
  await expect(card.locator('[data-goal-id][data-ok=false]')).toHaveCount(0);
  // the visualizer shows the stopped run: CPU 0 never finished op 63
  expect((await app.state()).op).toBe(63);

  // by hand: CPU 0 to its 64th op, six single micro-steps (one c0x6 token), CPU 1 to its op's return
  await card.getByRole('button', { name: 'Reset' }).click();
  await lessons.idle();
  await lessons.typeLines('steps c0/63');
  for (let i = 0; i < 5; i++) await lessons.stepCpu(0);
  await expect(card.getByTestId('sandbox-status')).toContainText('Not yet');
  await lessons.stepCpu(0);
  await lessons.stepCpu(1, 'until its op returns (or it spins)');
  await expect(card.getByRole('textbox', { name: 'Sandbox op lines' })).toHaveValue('steps c0/63 c0x6 c1/');
  await expect(card.getByTestId('sandbox-status')).toContainText('Goal reached');

  // a step the model cannot run names the student's line
  await lessons.typeLines('steps c1/');
  await expect(card).toContainText('your line 1');
  const progress = await page.evaluate(() => window.__slubvizLessons!.summaries()['09-bisection-crash']);
  expect(progress).toMatchObject({ goal: true });
});

test('lesson 9 end to end: stops and questions on a run that stops on its report', async ({ app, page, lessons }) => {
  test.setTimeout(120_000);
  const lesson = lessonJson('09-bisection-crash');
  await app.open();
  await lessons.openFromList(/^9\. The bisection/);
  await lessons.playAll(lesson, async () => {
    const card = lessons.col.getByTestId('sandbox-card');
    await card.getByRole('button', { name: 'Load the stored solution' }).click();
    await lessons.idle();
    await expect(card.locator('[data-goal-id][data-ok=false]')).toHaveCount(0);
  });
  const progress = await page.evaluate(() => window.__slubvizLessons!.summaries()['09-bisection-crash']);
  expect(progress).toMatchObject({ answered: lesson.questions.length, correct: lesson.questions.length, goal: true, done: true });
});
