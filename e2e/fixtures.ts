// Fixtures and the page object of the slubviz e2e tests. Every test gets a
// console watcher that fails it on any console error or page error, and on
// any Content-Security-Policy violation (a `securitypolicyviolation` event
// in the page, or the browser's CSP console message).
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import type { StateSummary } from '../web/src/testHook';

export class SlubvizPage {
  readonly step: Locator;
  readonly stepBack: Locator;
  readonly stepOp: Locator;
  readonly opBack: Locator;
  readonly play: Locator;
  readonly timeline: Locator;
  readonly jumpInput: Locator;
  readonly jumpButton: Locator;
  readonly breakpoint: Locator;
  readonly runToBreakpoint: Locator;
  readonly scenario: Locator;
  readonly preset: Locator;
  readonly allocate: Locator;
  readonly free: Locator;
  readonly share: Locator;
  readonly shareLink: Locator;
  readonly main: Locator;

  constructor(readonly page: Page) {
    this.step = page.getByRole('button', { name: 'Step', exact: true });
    this.stepBack = page.getByRole('button', { name: 'Step back', exact: true });
    this.stepOp = page.getByRole('button', { name: 'Step op', exact: true });
    this.opBack = page.getByRole('button', { name: 'Op back', exact: true });
    this.play = page.getByRole('button', { name: /^(Play|Pause)$/ });
    this.timeline = page.getByRole('slider', { name: 'Timeline (op)' });
    this.jumpInput = page.getByRole('textbox', { name: 'Jump to op' });
    this.jumpButton = page.getByRole('button', { name: 'Jump', exact: true });
    this.breakpoint = page.getByRole('combobox', { name: 'Breakpoint' });
    this.runToBreakpoint = page.getByRole('button', { name: 'Run to breakpoint' });
    this.scenario = page.getByRole('combobox', { name: 'Scenario' });
    this.preset = page.getByRole('combobox', { name: 'Preset' });
    this.allocate = page.getByRole('button', { name: 'Allocate', exact: true });
    this.free = page.getByRole('button', { name: 'Free', exact: true });
    this.share = page.getByRole('button', { name: 'Share link' });
    this.shareLink = page.getByTestId('share-link');
    this.main = page.locator('main');
  }

  /** Opens the app (animations off) and waits for the run to be ready. */
  async open(hash = ''): Promise<void> {
    await this.page.goto(`./?anim=0${hash}`);
    await this.ready();
  }

  async ready(): Promise<void> {
    await expect.poll(async () => (await this.stateOrNull())?.status ?? 'none', { timeout: 60_000 }).toBe('ready');
    await this.idle();
  }

  async idle(): Promise<void> {
    await this.page.waitForFunction(() => !!window.__slubviz);
    await this.page.evaluate(() => window.__slubviz!.idle());
  }

  async stateOrNull(): Promise<StateSummary | null> {
    return this.page.evaluate(() => window.__slubviz?.state() ?? null);
  }

  async state(): Promise<StateSummary> {
    await this.idle();
    return this.page.evaluate(() => window.__slubviz!.state());
  }

  /** The drawn state: data-* attributes of every element in <main>. */
  async dump(): Promise<string[]> {
    await this.idle();
    return this.page.evaluate(() => window.__slubviz!.dump('main'));
  }

  async act(name: string, ...args: unknown[]): Promise<void> {
    await this.page.evaluate(([n, a]) => window.__slubviz!.act(n as never, ...(a as unknown[])), [name, args] as const);
  }

  /** Clicks a control and waits until the engine has answered. */
  async click(l: Locator, times = 1): Promise<void> {
    for (let i = 0; i < times; i++) {
      await l.click();
      await this.idle();
    }
  }

  async waitSeq(seq: number): Promise<void> {
    await expect.poll(async () => (await this.state()).seq).toBe(seq);
  }

  /** The presets the preset picker offers (without "trace's own"). */
  async presetOptions(): Promise<string[]> {
    return this.preset.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).filter((v) => v !== ''));
  }

  /** A kernel switch's checkbox in the config panel. */
  switchBox(name: string): Locator {
    return this.page.getByRole('checkbox', { name, exact: true });
  }

  objectState(id: number): Locator {
    return this.page.locator(`[data-panel=slab] [data-object-id="${id}"]`);
  }

  mainSheaf(cpu: number): Locator {
    return this.page.locator(`[data-panel=sheaves] g.cpu-row[data-cpu="${cpu}"] g.sheaf[data-where=main]`);
  }
}

export const test = base.extend<{ app: SlubvizPage; consoleErrors: string[] }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(`console.error: ${m.text()}`);
        else if (/Content Security Policy/i.test(m.text())) errors.push(`CSP (console ${m.type()}): ${m.text()}`);
      });
      // the init script itself is not subject to the page's policy
      await page.exposeFunction('__svzCspViolation', (v: string) => errors.push(`CSP violation: ${v}`));
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (e) => {
          const w = window as unknown as { __svzCspViolation?: (v: string) => void };
          w.__svzCspViolation?.(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`);
        });
      });
      page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
      await use(errors);
      expect(errors, 'console errors during the test').toEqual([]);
    },
    { auto: true },
  ],
  app: async ({ page }, use) => {
    await use(new SlubvizPage(page));
  },
});

export { expect };
