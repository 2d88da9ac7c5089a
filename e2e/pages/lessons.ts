// The lesson player (web/src/lessons/LessonsView.tsx): the lessons column,
// its list, a lesson's stops, questions and sandbox, and the player's test
// hook (window.__slubvizLessons). SVZ_SHOTS=1 saves screenshots to
// build-test/lesson-shots/.
import { expect, type Locator, type Page } from '@playwright/test';
import { join } from 'node:path';
import type { Lesson } from '../../web/src/lessons/format';
import type { AppPage } from './app';
import { keepScreenshot } from './shots';

const ROOT = join(__dirname, '../..');

export async function shot(page: Page, name: string): Promise<void> {
  if (process.env.SVZ_SHOTS) await keepScreenshot(page, { path: join(ROOT, 'build-test/lesson-shots', `${name}.png`), fullPage: false });
}

/** The lesson player (on top of the app). */
export class LessonsArea {
  readonly col: Locator;
  readonly next: Locator;
  constructor(
    readonly page: Page,
    readonly app: AppPage,
  ) {
    this.col = page.getByTestId('lesson-col');
    this.next = page.getByRole('button', { name: 'Next ▶' });
  }

  /** The question card shown, and its parts. */
  get question(): Locator {
    return this.col.getByTestId('question-card');
  }

  /** Go on with Next until the question `qid` is shown. */
  async nextUntilQuestion(qid: string): Promise<void> {
    const shown = async () => ((await this.question.count()) ? this.question.getAttribute('data-question-id') : null);
    for (let i = 0; i < 40 && (await shown()) !== qid; i++) {
      await this.next.click();
      await this.idle();
    }
    await expect(this.question).toHaveAttribute('data-question-id', qid);
  }

  /** Pick a choice of the question shown. */
  async choose(choiceId: string): Promise<void> {
    await this.question.locator(`[data-choice-id="${choiceId}"] button`).click();
    await this.idle();
  }

  /** A lesson's row in the list, and its progress line. */
  listItem(id: string): Locator {
    return this.page.locator(`.lesson-list li[data-lesson-id="${id}"]`);
  }

  progress(id: string): Locator {
    return this.page.getByTestId(`progress-${id}`);
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

  /** Type lines into the sandbox's text box and run them. */
  async typeLines(text: string): Promise<void> {
    const card = this.col.getByTestId('sandbox-card');
    const box = card.getByRole('textbox', { name: 'Sandbox op lines' });
    await box.fill('');
    await box.pressSequentially(text);
    await card.getByRole('button', { name: /^Run these (lines|ops)$/ }).click();
    await this.idle();
  }

  /** The sandbox's "Step CPU n" helper: `kind` is the step select's label. */
  async stepCpu(cpu: number, kind = 'one micro-step'): Promise<void> {
    const card = this.col.getByTestId('sandbox-card');
    await card.getByRole('combobox', { name: 'Sandbox step kind' }).selectOption({ label: kind });
    await card.getByRole('button', { name: `Step CPU ${cpu}` }).click();
    await this.idle();
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
