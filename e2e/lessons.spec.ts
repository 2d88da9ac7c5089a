// The lesson player (issue 6): lessons 1 and 6 played end to end through
// the UI (every stop, every question answered right and revealed, the
// sandbox goal reached with UI ops and with the stored solution), progress
// surviving a reload (IndexedDB), a share link opening a stop, an axe scan
// of the list, a stop, a question and the sandbox. SVZ_SHOTS=1 saves
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
