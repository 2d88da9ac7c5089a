// Screenshots the e2e tests keep as a record (build-test/screens/,
// build-test/lesson-shots/). They are not what a test checks: the checks are
// the assertions beside them. Headless Chromium can stall a capture (no
// compositor frame ever comes; a fresh-clone CI run of 8d1997e waited out
// the 90 s test timeout and then the 90 s failure capture on a page whose DOM
// still answered), so a capture is bounded and a missed one is noted on the
// test, not turned into a failure of what the test checks.
import { errors, test, type Page, type PageScreenshotOptions } from '@playwright/test';

const SHOT_TIMEOUT_MS = 20_000;

export async function keepScreenshot(page: Page, options: PageScreenshotOptions & { path: string }): Promise<void> {
  try {
    await page.screenshot({ timeout: SHOT_TIMEOUT_MS, ...options });
  } catch (e) {
    if (!(e instanceof errors.TimeoutError)) throw e;
    test.info().annotations.push({ type: 'screenshot-missed', description: `${options.path}: ${e.message.split('\n')[0]}` });
  }
}
