// The embed player (issue 13, item 8): ?embed=1 in a course page's iframe
// shows one scenario (or one lesson stop), the controls and the chosen
// views, with no app chrome, at the iframe's own size.
import { expect, test } from './fixtures';

const BASE = `http://127.0.0.1:${process.env.SVZ_E2E_PORT ?? 4178}/`;

async function coursePage(page: import('@playwright/test').Page, src: string, w = 640, h = 480) {
  await page.setContent(`<!doctype html><title>course</title><h1>A course page</h1><iframe title="slubviz" src="${BASE}${src}" width="${w}" height="${h}"></iframe>`);
  const frame = page.frameLocator('iframe');
  await expect(frame.getByTestId('embed')).toBeVisible({ timeout: 60_000 });
  return frame;
}

test('?embed=1 in an iframe: one scenario, the controls and the chosen views, no app chrome', async ({ page }) => {
  const frame = await coursePage(page, '?embed=1&anim=0&views=sheaves,callpath#s=basics&seq=10');
  await expect(frame.getByTestId('step-line')).toHaveAttribute('data-seq', '10');
  await expect(frame.locator('header')).toHaveCount(0);
  await expect(frame.getByTestId('start-card')).toHaveCount(0);
  await expect(frame.locator('[data-panel=sheaves]')).toHaveCount(1);
  await expect(frame.locator('[data-panel=callpath]')).toHaveCount(1);
  await expect(frame.locator('[data-panel=traces]')).toHaveCount(0);
  await expect(frame.locator('[data-panel=config]')).toHaveCount(0);
  await frame.getByRole('button', { name: 'Step', exact: true }).click();
  await expect(frame.getByTestId('step-line')).toHaveAttribute('data-seq', '11');
  await expect(frame.getByTestId('gloss')).not.toBeEmpty();
  // fits its 640 px frame
  const [scroll, client] = await frame.locator('html').evaluate((e) => [e.scrollWidth, e.clientWidth]);
  expect(scroll).toBeLessThanOrEqual(client);
  await expect(frame.getByRole('link', { name: 'open in slubviz' })).toHaveAttribute('target', '_blank');
});

test('?embed=1 with a lesson stop shows that stop beside the views', async ({ page }) => {
  const frame = await coursePage(page, '?embed=1&anim=0&views=sheaves#lesson=01-anatomy&stop=2', 900, 600);
  await expect(frame.locator('section.player[data-lesson-id="01-anatomy"]')).toBeVisible();
  await expect(frame.locator('[data-testid=stop-card]')).toHaveAttribute('data-stop-index', '2');
  await expect(frame.locator('[data-panel=sheaves]')).toHaveCount(1);
  await expect(frame.locator('header')).toHaveCount(0);
  // the stop alone: not the lesson's navigation, prose or tables
  await expect(frame.locator('section.player .stop-dots')).toBeHidden();
  await expect(frame.locator('section.player .player-buttons')).toBeHidden();
  await expect(frame.locator('section.player > details.prose')).toBeHidden();
  await expect(frame.locator('[data-testid=stop-card]')).toBeVisible();
});
