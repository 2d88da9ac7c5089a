// Languages (issue 13, item 9): a Korean browser gets the Korean UI; the
// header's switch goes to English and back and survives a reload; lesson 01
// plays in Korean and a lesson without a translation says it is in English;
// kernel names stay as mm/slub.c spells them; axe is clean and nothing
// scrolls sideways at 390 px in Korean.
import { axeClean, expect, test, type AppPage } from './fixtures';
import { LanguageArea } from './pages/i18n';

const HANGUL = /[\uac00-\ud7a3]/;

async function noSideScroll(app: AppPage, what: string): Promise<void> {
  await app.idle();
  const [scroll, client] = await app.page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  expect(scroll, `page width ${scroll} > ${client}: ${what}`).toBeLessThanOrEqual(client);
}

test.describe('a Korean browser', () => {
  test.use({ locale: 'ko-KR' });

  test('gets the Korean UI; kernel names and the core\'s event text stay as they are', async ({ app, page }) => {
    const lang = new LanguageArea(page);
    await app.open('#s=basics&seq=40');
    await lang.expectLang('ko');
    await expect(page.getByRole('button', { name: '단계 실행' })).toBeEnabled();
    await expect(page.getByRole('heading', { name: '호출 경로' })).toBeVisible();
    await expect(app.gloss).toHaveText(HANGUL);
    // the event text is the core's, and the counters keep their SLUB_STATS names
    const text = await page.locator('.step-text').textContent();
    expect(text).not.toMatch(HANGUL);
    await expect(page.locator('[data-panel=counters] th[scope=row]').first()).toHaveText(/^[a-z_]+$/);
    // a step moves the page on, in Korean
    await page.getByRole('button', { name: '단계 실행' }).click();
    await app.idle();
    await expect(page.getByTestId('position')).toHaveText(/단계 41/);
  });

  test('the switch goes to English and back, and the choice survives a reload', async ({ app, page }) => {
    const lang = new LanguageArea(page);
    await app.open('#s=basics&seq=5');
    await lang.expectLang('ko');
    await lang.pick('en');
    await expect(page.getByRole('button', { name: 'Step', exact: true })).toBeEnabled();
    expect(await lang.urlLang()).toBe('en');
    // the run is untouched by the switch
    expect((await app.hashFields()).seq).toBe('5');
    await page.reload();
    await app.ready();
    await lang.expectLang('en');
    // remembered without the address's lang= too
    await app.open('#s=basics&seq=5');
    await lang.expectLang('en');
    await lang.pick('ko');
    await page.reload();
    await app.ready();
    await lang.expectLang('ko');
    await expect(page.getByRole('button', { name: '단계 실행' })).toBeEnabled();
  });

  test('lesson 01 plays in Korean; a lesson without a translation says it is in English', async ({ app, page, lessons }) => {
    await app.open('#lesson=01-anatomy');
    const player = page.locator('section.player[data-lesson-id="01-anatomy"]');
    await expect(player).toHaveAttribute('data-lesson-lang', 'ko');
    await expect(player.locator('#player-h')).toHaveText('SLUB의 구조와 /proc/slabinfo 한 줄씩 읽기');
    const stop = page.getByTestId('stop-card');
    await expect(stop).toContainText('캐시 넷, 아직 slab은 없음');
    // the figures and kernel names of the English text are there
    await expect(stop.locator('code', { hasText: 'objperslab' })).toBeVisible();
    await expect(page.getByTestId('lesson-untranslated')).toHaveCount(0);
    // the Korean Next button leads to the first question
    const next = page.getByRole('button', { name: '다음 ▶' });
    for (let i = 0; i < 5 && !(await lessons.question.count()); i++) {
      await next.click();
      await lessons.idle();
    }
    await expect(lessons.question).toHaveAttribute('data-question-id', 'q-active-first');
    await expect(lessons.question).toContainText('얼마일까요');
    await lessons.choose('sixteen');
    await expect(lessons.question.getByTestId('feedback')).toHaveAttribute('data-ok', 'true');
    await expect(lessons.question.getByTestId('explanation')).toContainText('16');
    // switching the language switches the lesson, at the same item
    const item = await player.getAttribute('data-item');
    await new LanguageArea(page).pick('en');
    await expect(player).toHaveAttribute('data-lesson-lang', 'en');
    await expect(player.locator('#player-h')).toHaveText("SLUB's anatomy, and /proc/slabinfo line by line");
    await expect(player).toHaveAttribute('data-item', item!);
    await new LanguageArea(page).pick('ko');
    await app.open('#lesson=02-classic-paths');
    const p2 = page.locator('section.player[data-lesson-id="02-classic-paths"]');
    await expect(p2).toHaveAttribute('data-lesson-lang', 'en');
    await expect(page.getByTestId('lesson-untranslated')).toHaveCount(1);
    await expect(page.getByTestId('lesson-untranslated')).toHaveText(HANGUL);
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`axe clean in Korean, ${scheme} theme: the app and lesson 01`, async ({ app, page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await app.open('#s=basics&seq=40');
      await new LanguageArea(page).expectLang('ko');
      await axeClean(page);
      await app.open('#lesson=01-anatomy');
      await expect(page.locator('section.player[data-lesson-lang="ko"]')).toBeVisible();
      await expect(page.getByTestId('lesson-loading')).toHaveCount(0);
      await axeClean(page);
    });
  }

  test('no horizontal scroll at 390 px in Korean: the app and lesson 01', async ({ app, page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await app.open('#s=basics&seq=40');
    await new LanguageArea(page).expectLang('ko');
    await noSideScroll(app, 'basics at step 40, Korean');
    await app.open('#lesson=01-anatomy');
    await expect(page.locator('section.player[data-lesson-lang="ko"]')).toBeVisible();
    await noSideScroll(app, 'lesson 01, Korean');
  });
});

test('an English browser gets English, and lang=ko in the address gives Korean', async ({ app, page }) => {
  const lang = new LanguageArea(page);
  await app.open('#s=basics');
  await lang.expectLang('en');
  await page.goto('./?anim=0&lang=ko#s=basics');
  await app.ready();
  await lang.expectLang('ko');
});
