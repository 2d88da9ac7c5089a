// Fixtures of the slubviz e2e tests: one page object per area of the page
// (as tldraw's e2e does): `app` (the whole app: open, state, actions by
// name), `controls` (playback), `importer` (the traces panel), `lessons`
// (the lesson player), `views` (the visualizer's panels). Every test also
// gets a console watcher that fails it on any console error or page error,
// on any Content-Security-Policy violation (a `securitypolicyviolation`
// event in the page, or the browser's CSP console message), and on the wasm
// glue's notices of loading the module's second half.
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { DeferredHalf } from '../core/wasm/slubviz-api';
import { AppPage } from './pages/app';
import { ControlsArea } from './pages/controls';
import { ImportArea } from './pages/import';
import { LanesArea } from './pages/lanes';
import { LessonsArea } from './pages/lessons';
import { ViewsArea } from './pages/views';

export { AppPage, ControlsArea, ImportArea, LanesArea, LessonsArea, ViewsArea };

/** No serious or critical axe violation on the page as it is. */
export async function axeClean(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

export const test = base.extend<{
  app: AppPage;
  controls: ControlsArea;
  importer: ImportArea;
  lessons: LessonsArea;
  views: ViewsArea;
  /** the CPU lanes, step this CPU, the lock view, the schedule picker */
  lanes: LanesArea;
  consoleErrors: string[];
}>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(`console.error: ${m.text()}`);
        else if (/Content Security Policy/i.test(m.text())) errors.push(`CSP (console ${m.type()}): ${m.text()}`);
        // the wasm glue's notices of an on-demand load of the module's
        // second half (the A/B view's first classic run) stay off the console
        else if (DeferredHalf.isNotice(m.text())) errors.push(`console.${m.type()}: ${m.text()}`);
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
    await use(new AppPage(page));
  },
  controls: async ({ page }, use) => {
    await use(new ControlsArea(page));
  },
  importer: async ({ page }, use) => {
    await use(new ImportArea(page));
  },
  lessons: async ({ page, app }, use) => {
    await use(new LessonsArea(page, app));
  },
  views: async ({ page }, use) => {
    await use(new ViewsArea(page));
  },
  lanes: async ({ page, app }, use) => {
    await use(new LanesArea(page, app));
  },
});

export { expect };
