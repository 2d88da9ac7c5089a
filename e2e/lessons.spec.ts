// The lesson player (issue 6): lessons 1 and 6 played end to end through
// the UI (every stop, every question answered right and revealed, the
// sandbox goal reached with UI ops and with the stored solution), progress
// surviving a reload (IndexedDB), a share link opening a stop, an axe scan
// of the list, a stop, a question and the sandbox. SVZ_SHOTS=1 saves
// screenshots to build-test/lesson-shots/.
import AxeBuilder from '@axe-core/playwright';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { Lesson } from '../web/src/lessons/format';
import { expect, SlubvizPage, test } from './fixtures';

const ROOT = join(__dirname, '..');
const lessonJson = (id: string) => JSON.parse(readFileSync(join(ROOT, 'lessons', id, 'lesson.json'), 'utf8')) as Lesson;

async function shot(page: Page, name: string): Promise<void> {
  if (process.env.SVZ_SHOTS) await page.screenshot({ path: join(ROOT, 'build-test/lesson-shots', `${name}.png`), fullPage: false });
}

async function axeClean(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** The player's page object (on top of the app's). */
class Player {
  readonly col;
  readonly next;
  constructor(
    readonly page: Page,
    readonly app: SlubvizPage,
  ) {
    this.col = page.getByTestId('lesson-col');
    this.next = page.getByRole('button', { name: 'Next ▶' });
  }

  async idle(): Promise<void> {
    await this.page.waitForFunction(() => !!window.__slubvizLessons);
    await this.page.evaluate(() => window.__slubvizLessons!.idle());
    await this.app.idle();
  }

  async item(): Promise<number> {
    return this.page.evaluate(() => window.__slubvizLessons!.state().item);
  }

  /** Steps prepared for an item id on a run. */
  async steps(lessonId: string, variant: string | undefined, id: string): Promise<{ at: number; from: number }> {
    return this.page.evaluate(([l, v, i]) => window.__slubvizLessons!.state().prepared[`${l}:${v}`].steps[i], [lessonId, variant ?? 'base', id] as const);
  }

  async openFromList(title: RegExp): Promise<void> {
    await this.page.getByRole('button', { name: 'Lessons', exact: true }).click();
    await this.col.getByRole('button', { name: title }).click();
    await this.idle();
  }

  /** Enter one op line with the sandbox's op builder (CPU, op, cache, handle or count, options). */
  async addOp(line: string): Promise<void> {
    const card = this.col.getByTestId('sandbox-card');
    const t = line.trim().split(/\s+/);
    const [cpu, op, cache] = [t[0].slice(1), t[1], t[2]];
    await card.getByRole('combobox', { name: 'Sandbox CPU' }).selectOption(cpu);
    await card.getByRole('combobox', { name: 'Sandbox op' }).selectOption(op);
    await card.getByRole('combobox', { name: 'Sandbox cache' }).selectOption(cache);
    let rest = t.slice(3);
    if (op === 'alloc' || op === 'free') {
      await card.getByRole('textbox', { name: 'Sandbox handle' }).fill(rest[0]);
      rest = rest.slice(1);
    } else if (op === 'alloc_bulk' || op === 'free_bulk') {
      await card.getByRole('textbox', { name: 'Sandbox count and prefix' }).fill(`${rest[0]} ${rest[1]}`);
      rest = rest.slice(2);
    }
    if (rest.length) await card.getByRole('textbox', { name: 'Sandbox options' }).fill(rest.join(' '));
    await card.getByRole('button', { name: 'Add op' }).click();
    await this.idle();
    await expect(card.getByRole('textbox', { name: 'Sandbox op lines' })).toHaveValue(new RegExp(`${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
  }

  /** Plays the whole lesson through the UI: every stop, every question
   * (answered right, then revealed), then the sandbox via `sandbox`. */
  async playAll(lesson: Lesson, sandbox: () => Promise<void>, shots = ''): Promise<void> {
    const total = await this.page.evaluate(() => Number(document.querySelector('.player')!.getAttribute('data-items')));
    for (let i = 0; i < total; i++) {
      if (i > 0) {
        await this.next.click();
        await this.idle();
      }
      expect(await this.item()).toBe(i);
      await expect(this.col.getByTestId('lesson-error')).toHaveCount(0);
      const stopCard = this.col.getByTestId('stop-card');
      const qCard = this.col.getByTestId('question-card');
      if (await stopCard.count()) {
        const id = (await stopCard.getAttribute('data-stop-id'))!;
        const stop = lesson.stops.find((s) => s.id === id)!;
        const steps = await this.steps(lesson.id, stop.variant, id);
        expect((await this.app.state()).seq).toBe(steps.at);
        // an element highlight is drawn with data-lesson-hl
        if (stop.highlight.some((h) => 'slab' in h || 'sheaf' in h || 'list' in h || 'stat' in h || 'slabinfo' in h || 'sysfs' in h)) {
          await expect(this.page.locator('[data-lesson-hl=true]').first()).toBeAttached();
        }
        await expect(this.page.locator(`main [data-panel="${['slabinfo', 'sysfs', 'stats', 'events'].includes(stop.focus[0]) ? 'text' : stop.focus[0] === 'data' ? 'lesson-data' : stop.focus[0]}"]`)).toHaveAttribute('data-lesson-focus', '0');
        if (shots && i < 3) await shot(this.page, `${shots}-${i}-stop-${id}`);
      } else if (await qCard.count()) {
        const qid = (await qCard.getAttribute('data-question-id'))!;
        const q = lesson.questions.find((x) => x.id === qid)!;
        const steps = await this.steps(lesson.id, q.variant, qid);
        expect((await this.app.state()).seq).toBe(steps.from);
        if (q.kind === 'choice') {
          const right = Array.isArray(q.answer) ? q.answer[0] : q.answer;
          await qCard.locator(`[data-choice-id="${right}"] button`).click();
        } else {
          // click the answer in the visualizer
          const sel = {
            slab: `[data-panel=partial] g.slab[data-slab-id="${q.answer}"], [data-panel=sheaves] [data-slab-id="${q.answer}"]`,
            object: `[data-object-id="${q.answer}"]`,
            sheaf: `[data-sheaf-id="${q.answer}"]`,
            cpu: `[data-panel=topology] [data-cpu="${q.answer}"]`,
            node: `[data-panel=topology] [data-node="${q.answer}"]`,
            list: '',
          }[q.target];
          await expect(this.col.getByTestId('click-hint')).toHaveAttribute('data-armed', 'true');
          if (sel) await this.page.locator(`main ${sel.split(', ').join(', main ')}`).first().click({ force: true });
          else {
            // a list: the keyboard picker
            await qCard.getByRole('combobox').selectOption(String(q.answer));
            await qCard.getByRole('button', { name: 'Answer' }).click();
          }
        }
        await this.idle();
        await expect(qCard.getByTestId('feedback')).toHaveAttribute('data-ok', 'true');
        if (shots && (q.kind === 'click' || i < 3)) await shot(this.page, `${shots}-${i}-question-${qid}`);
        await qCard.getByRole('button', { name: /^Reveal/ }).click();
        await this.idle();
        await expect(qCard.getByTestId('revealed')).toBeVisible();
        expect((await this.app.state()).seq).toBe(steps.at);
      } else {
        await expect(this.col.getByTestId('sandbox-card')).toBeVisible();
        await sandbox();
        await expect(this.col.getByTestId('sandbox-status')).toContainText('Goal reached');
        if (shots) await shot(this.page, `${shots}-${i}-sandbox`);
      }
    }
  }
}

test.describe.configure({ mode: 'serial' });

test('lesson 1 end to end with UI ops in the sandbox; progress survives a reload; axe', async ({ app, page }) => {
  test.setTimeout(120_000);
  const lesson = lessonJson('01-anatomy');
  const p = new Player(page, app);
  await app.open();
  await p.openFromList(/^1\. SLUB/);
  await axeClean(page);
  await p.playAll(lesson, async () => {
    const card = p.col.getByTestId('sandbox-card');
    // the stored solution's ops, entered one by one with the op builder
    for (const line of lesson.sandbox.solution) await p.addOp(line);
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
  await p.idle();
  await expect(p.col.getByTestId('sandbox-card')).toBeVisible();
  await expect(p.col.getByTestId('sandbox-status')).toContainText('Goal reached');
  await p.col.getByRole('button', { name: '← All lessons' }).click();
  const row = page.locator('.lesson-list li[data-lesson-id="01-anatomy"]');
  await expect(row).toHaveAttribute('data-done', 'true');
  await expect(page.getByTestId('progress-01-anatomy')).toHaveAttribute('data-stops', `${lesson.stops.length}/${lesson.stops.length}`);
  await expect(page.getByTestId('progress-01-anatomy')).toHaveAttribute('data-goal', 'true');
  await expect(page.locator('.lesson-list li[data-lesson-id="02-classic-paths"] .prereq')).toContainText('✓');
  await shot(page, 'list-after-reload');
  await axeClean(page);
});

test('lesson 6 end to end with the stored solution', async ({ app, page }) => {
  test.setTimeout(150_000);
  const lesson = lessonJson('06-sheaves-regression');
  const p = new Player(page, app);
  await app.open();
  await p.openFromList(/^6\. The cross-CPU/);
  await p.playAll(lesson, async () => {
    const card = p.col.getByTestId('sandbox-card');
    await card.getByRole('button', { name: 'Load the stored solution' }).click();
    await p.idle();
    await expect(card.getByRole('textbox', { name: 'Sandbox op lines' })).toHaveValue(lesson.sandbox.solution.join('\n'));
    await expect(card.locator('[data-goal-id]')).toHaveCount(lesson.sandbox.goals.length);
    await expect(card.locator('[data-goal-id][data-ok=false]')).toHaveCount(0);
  }, process.env.SVZ_SHOTS ? 'l6' : '');
  const progress = await page.evaluate(() => window.__slubvizLessons!.summaries()['06-sheaves-regression']);
  expect(progress).toMatchObject({ answered: lesson.questions.length, correct: lesson.questions.length, goal: true, done: true });
  // the data tables fill their model cells
  await page.locator('[data-panel=lesson-data] > summary').click();
  await expect(page.locator('[data-panel=lesson-data] td.model-cell').first()).not.toHaveText('…', { timeout: 60_000 });
  await expect(page.locator('[data-panel=lesson-data] [data-claim-id][data-ok=false]')).toHaveCount(0);
  await shot(page, 'l6-data');
});

test('a share link opens the player at a stop; a wrong click gets feedback', async ({ app, page }) => {
  const lesson = lessonJson('05-sheaves');
  await page.goto('./?anim=0#lesson=05-sheaves&stop=6');
  const p = new Player(page, app);
  await app.ready();
  await p.idle();
  const card = p.col.getByTestId('stop-card');
  await expect(card).toHaveAttribute('data-stop-index', '6');
  await expect(card).toHaveAttribute('data-stop-id', lesson.stops[6].id);
  const steps = await p.steps('05-sheaves', undefined, lesson.stops[6].id);
  expect((await app.state()).seq).toBe(steps.at);
  await expect(card.getByTestId('stop-link')).toHaveAttribute('href', '#lesson=05-sheaves&stop=6');
  // the next item: click the sheaf that becomes CPU 1's main; a wrong one first
  await p.next.click();
  await p.idle();
  const q = p.col.getByTestId('question-card');
  await expect(q).toHaveAttribute('data-question-id', 'q-barn-get');
  await page.locator('main [data-panel=barns] [data-sheaf-id]').first().waitFor();
  const wrong = await page.evaluate(() => {
    const ids = [...document.querySelectorAll('main [data-sheaf-id]')].map((e) => e.getAttribute('data-sheaf-id')).filter((x) => x !== 'none' && x !== '3');
    return ids[0];
  });
  await page.locator(`main [data-sheaf-id="${wrong}"]`).first().click({ force: true });
  await p.idle();
  await expect(q.getByTestId('feedback')).toHaveAttribute('data-ok', 'false');
  await shot(page, 'l5-wrong-click');
  await q.getByRole('button', { name: 'Try again' }).click();
  await page.locator('main [data-panel=barns] [data-sheaf-id="3"]').click({ force: true });
  await p.idle();
  await expect(q.getByTestId('feedback')).toHaveAttribute('data-ok', 'true');
  await axeClean(page);
});
