// The app as a whole: opening it, its state through the test hook
// (window.__slubviz), running actions by name. The areas (controls.ts,
// import.ts, lessons.ts, views.ts) hold the locators of their part of the page.
import { expect, type Locator, type Page } from '@playwright/test';
import type { StateSummary } from '../../web/src/testHook';

export class AppPage {
  readonly main: Locator;
  /** the header's status lines: the first names the trace, preset and era */
  readonly statuses: Locator;
  readonly status: Locator;
  /** what the user should know that is not an error (a restart, a bad link) */
  readonly notice: Locator;
  /** the run's error */
  readonly alert: Locator;
  /** the step in one line: the event's text and its plain-language gloss */
  readonly stepLine: Locator;
  readonly gloss: Locator;

  constructor(readonly page: Page) {
    this.main = page.locator('main');
    this.statuses = page.locator('header .status');
    this.status = this.statuses.first();
    this.notice = page.getByTestId('notice');
    this.alert = page.locator('.error[role=alert]');
    this.stepLine = page.getByTestId('step-line');
    this.gloss = page.getByTestId('gloss');
  }

  /** The address's hash fields (the live URL), as a plain object. */
  async hashFields(): Promise<Record<string, string>> {
    const h = await this.page.evaluate(() => location.hash);
    return Object.fromEntries(new URLSearchParams(h.replace(/^#/, '')));
  }

  /** Waits until the live URL carries `want` (the fields named, others free). */
  async waitHash(want: Record<string, string | null>): Promise<void> {
    await expect
      .poll(async () => {
        const f = await this.hashFields();
        return Object.fromEntries(Object.keys(want).map((k) => [k, f[k] ?? null]));
      })
      .toEqual(want);
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

  /** How the engine's wasm module got its deferred half (testHook.ts). */
  async deferredWasm(): Promise<string> {
    return this.page.evaluate(() => window.__slubviz!.deferredWasm());
  }

  /** The drawn state: data-* attributes of every element in <main>. */
  async dump(): Promise<string[]> {
    await this.idle();
    return this.page.evaluate(() => window.__slubviz!.dump('main'));
  }

  /** Runs a store action by name (web/src/state/actions.ts). */
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
}
