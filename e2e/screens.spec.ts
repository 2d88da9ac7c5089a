// Every screen, every theme (issue 13, item 7): no horizontal scroll from
// 1440 down to 360 px (screenshots kept in build-test/screens/), a phone
// layout where the lesson and the visualizer take turns, the dark theme
// (prefers-color-scheme) with axe clean in light and dark, and a skip link.
import { join } from 'node:path';
import { axeClean, expect, test, type AppPage } from './fixtures';
import { CompareArea } from './pages/firsthour';
import { keepScreenshot } from './pages/shots';

const SHOTS = join(__dirname, '../build-test/screens');

async function noSideScroll(app: AppPage, what: string): Promise<void> {
  await app.idle();
  const [scroll, client] = await app.page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  expect(scroll, `page width ${scroll} > ${client}: ${what}`).toBeLessThanOrEqual(client);
}

for (const [w, h] of [
  [1440, 900],
  [1024, 768],
  [390, 844],
  [360, 740],
] as const) {
  test(`no horizontal scroll at ${w}x${h}: the app, a lesson, the A/B view`, async ({ app, page }) => {
    await page.setViewportSize({ width: w, height: h });
    await app.open('#s=basics&seq=40');
    await noSideScroll(app, 'basics at step 40');
    await keepScreenshot(page, { path: join(SHOTS, `${w}-app.png`) });
    await app.open('#lesson=01-anatomy');
    await expect(page.locator('section.player[data-lesson-id="01-anatomy"]')).toBeVisible();
    await noSideScroll(app, 'lesson 01');
    await keepScreenshot(page, { path: join(SHOTS, `${w}-lesson.png`) });
    await app.open('#s=partial-churn&ab=1&bpreset=v6.19&seq=30');
    await expect(page.getByTestId('compare')).toHaveAttribute('data-synced', 'true');
    await noSideScroll(app, 'A/B');
    await keepScreenshot(page, { path: join(SHOTS, `${w}-compare.png`), fullPage: true });
  });
}

test('on a phone the lesson and the visualizer take turns', async ({ app, page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await app.open('#lesson=01-anatomy');
  const lesson = page.getByTestId('lesson-col');
  const sheaves = page.locator('main [data-panel=sheaves]');
  const tabs = page.getByRole('group', { name: 'Show the lesson or the visualizer' });
  await expect(lesson).toBeVisible();
  await expect(sheaves).toBeHidden();
  await tabs.getByRole('button', { name: 'Visualizer' }).click();
  await expect(lesson).toBeHidden();
  await expect(sheaves).toBeVisible();
  await tabs.getByRole('button', { name: 'Lesson' }).click();
  await expect(lesson).toBeVisible();
  await expect(sheaves).toBeHidden();
  // wide screens show both, without the tabs
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(tabs).toBeHidden();
  await expect(lesson).toBeVisible();
  await expect(sheaves).toBeVisible();
});

for (const scheme of ['light', 'dark'] as const) {
  test(`axe clean in the ${scheme} theme: start card, A/B view, lesson`, async ({ app, page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await app.open('#s=basics&seq=40');
    const bg = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    // --bg: #fff in light, #15181d = rgb(21, 24, 29) in dark (styles.css)
    expect(bg).toBe(scheme === 'dark' ? 'rgb(21, 24, 29)' : 'rgb(255, 255, 255)');
    await expect(page.getByTestId('start-card')).toBeVisible();
    await axeClean(page);
    await new CompareArea(page).toggle.click();
    await expect(page.getByTestId('compare')).toHaveAttribute('data-synced', 'true');
    await axeClean(page);
    await app.open('#lesson=01-anatomy');
    await expect(page.locator('section.player')).toBeVisible();
    // the opening cover dims the visualizer on purpose: check the page it uncovers
    await expect(page.getByTestId('lesson-loading')).toHaveCount(0);
    await axeClean(page);
    await keepScreenshot(page, { path: join(SHOTS, `${scheme}-lesson.png`) });
  });
}

test('a skip link: the first Tab shows it, Enter moves focus to the visualizer', async ({ app, page }) => {
  await app.open();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to the visualizer' });
  await expect(skip).toBeFocused();
  const top = await skip.evaluate((e) => e.getBoundingClientRect().top);
  expect(top).toBeGreaterThanOrEqual(0);
  const hash = await page.evaluate(() => location.hash);
  await page.keyboard.press('Enter');
  await expect(page.locator('main#main')).toBeFocused();
  // the address keeps the run's link, and no notice about a bad link
  expect(await page.evaluate(() => location.hash)).toBe(hash);
  await expect(app.notice).toHaveCount(0);
});
