// The CPU lanes (web/src/views/Lanes.tsx, viz/lanes.ts), "step this CPU",
// the lock view (LockView.tsx) and the schedule picker (lanes/SchedulePicker.tsx).
import { expect, type Locator, type Page } from '@playwright/test';
import type { AppPage } from './app';

export class LanesArea {
  readonly panel: Locator;
  readonly svg: Locator;
  /** the drawn micro-steps (one per event of the window) */
  readonly segs: Locator;
  readonly lanes: Locator;
  readonly windowSize: Locator;
  readonly handSteps: Locator;
  readonly handNote: Locator;
  readonly clearHand: Locator;
  readonly stepsLineButton: Locator;
  readonly stepsLine: Locator;
  readonly locks: Locator;
  readonly schedule: Locator;
  readonly seed: Locator;
  readonly seedSet: Locator;

  constructor(
    readonly page: Page,
    readonly app: AppPage,
  ) {
    this.panel = page.locator('[data-panel="lanes"]');
    this.svg = this.panel.locator('svg.lanes');
    this.segs = this.svg.locator('g.lane-seg');
    this.lanes = this.svg.locator('g.lane');
    this.windowSize = page.getByRole('combobox', { name: 'Steps the lanes show' });
    this.handSteps = page.getByTestId('hand-steps');
    this.handNote = page.getByTestId('hand-note');
    this.clearHand = page.getByRole('button', { name: 'Forget the steps chosen by hand' });
    this.stepsLineButton = page.getByRole('button', { name: 'Show the run so far as a steps line' });
    this.stepsLine = page.getByTestId('steps-line');
    this.locks = page.locator('[data-panel="locks"]');
    this.schedule = page.getByRole('combobox', { name: 'Schedule', exact: true });
    this.seed = page.getByRole('textbox', { name: 'Random schedule seed' });
    this.seedSet = page.getByTestId('schedule-picker').getByRole('button', { name: 'set' });
  }

  /** The "step this CPU" button of a CPU. */
  stepButton(cpu: number): Locator {
    return this.page.getByRole('button', { name: `Step CPU ${cpu}`, exact: true });
  }

  /** Steps CPU `cpu` by hand once and waits for the engine. */
  async stepCpu(cpu: number): Promise<void> {
    await this.app.click(this.stepButton(cpu));
  }

  /** The drawn event of the current step (the lanes' last segment). */
  current(): Locator {
    return this.svg.locator('g.lane-seg[data-lane-current="1"]');
  }

  /** The kind and kernel function of the current step, as drawn. */
  async currentKind(): Promise<{ kind: string | null; fn: string | null; cpu: string | null }> {
    const c = this.current();
    if ((await c.count()) === 0) return { kind: null, fn: null, cpu: null };
    return { kind: await c.getAttribute('data-lane-kind'), fn: await c.getAttribute('data-lane-fn'), cpu: await c.getAttribute('data-lane-cpu') };
  }

  /** A lock row of the lock view: list_lock / barn_lock of a node, or the per-CPU lock (node -1). */
  lockRow(lock: string, node: number): Locator {
    return this.locks.locator(`tr[data-lock="${lock}"][data-lock-node="${node}"]`).first();
  }

  /** Waits until the lanes draw `n` events. */
  async waitEvents(n: number): Promise<void> {
    await expect(this.svg).toHaveAttribute('data-lanes-events', String(n));
  }
}
