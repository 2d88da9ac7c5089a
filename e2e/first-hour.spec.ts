// The first hour (issue 13, item 1) and the live URL (item 4): the start
// card on a first visit, the pickers in the header, the import panel below
// the model views, the plain-language gloss beside each step, the address
// following every action, and links pasted into the same tab.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type AppPage } from './fixtures';
import { CompareArea, StartCardArea } from './pages/firsthour';

const ROOT = join(__dirname, '..');
const firstLesson = (JSON.parse(readFileSync(join(ROOT, 'lessons/index.json'), 'utf8')) as { lessons: { id: string }[] }).lessons[0].id;

test('the start card shows on a first visit, leads into lesson 01 and is not shown again', async ({ app, page, lessons }) => {
  const start = new StartCardArea(page);
  await app.open();
  await expect(start.card).toBeVisible();
  await start.lesson1.click();
  await lessons.idle();
  // lessons/index.json lists 01-anatomy first
  expect(firstLesson).toBe('01-anatomy');
  await expect(page.locator(`section.player[data-lesson-id="${firstLesson}"]`)).toBeVisible();
  await expect(start.card).toHaveCount(0);
  await page.reload();
  await app.ready();
  await expect(page.getByTestId('lesson-col')).toBeVisible();
  await expect(start.card).toHaveCount(0);
});

test('the start card: closing it is remembered; "pick a scenario" goes to the header picker', async ({ app, page, views }) => {
  const start = new StartCardArea(page);
  await app.open();
  await start.scenario.click();
  await expect(views.scenario).toBeFocused();
  await expect(start.card).toHaveCount(0);
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await app.ready();
  await start.close.click();
  await expect(start.card).toHaveCount(0);
  await page.reload();
  await app.ready();
  await expect(start.card).toHaveCount(0);
});

test('the header holds the scenario, preset and cache pickers; the import panel comes after the model views', async ({ app, page, views }) => {
  await app.open();
  const header = page.locator('header');
  await expect(header.getByRole('combobox', { name: 'Scenario' })).toHaveValue('basics');
  await expect(header.getByRole('combobox', { name: 'Preset' })).toBeVisible();
  await expect(header.getByRole('combobox', { name: 'Cache' })).toBeVisible();
  // the traces panel follows the slab detail in the same column
  const after = await page.evaluate(() => {
    const slab = document.querySelector('[data-panel=slab]')!;
    const traces = document.querySelector('[data-panel=traces]')!;
    return slab.parentElement === traces.parentElement && !!(slab.compareDocumentPosition(traces) & Node.DOCUMENT_POSITION_FOLLOWING);
  });
  expect(after).toBe(true);
  await expect(views.panel('traces')).toBeVisible();
});

test('each step has a plain-language gloss beside its event text', async ({ app, controls }) => {
  await app.open();
  await expect(app.gloss).toContainText('press Step');
  // basics under its own preset (build/slubviz run scenarios/basics.trace --events):
  // #0 alloc_from_pcs: lock cpu_sheaves_lock; #1 barn_replace_empty_sheaf: barn has no full sheaf
  await app.click(controls.step);
  await expect(app.stepLine).toContainText('#0 op 0 cpu 0 alloc_from_pcs: lock cpu_sheaves_lock');
  await expect(app.gloss).toHaveText("CPU 0 takes the CPU's sheaves lock.");
  await app.click(controls.step);
  await expect(app.gloss).toHaveText('CPU 0: the barn has no full sheaf to give.');
  // #39 alloc_from_pcs: take 1 object(s) from main to user
  await app.act('seekSeq', 40);
  await expect(app.gloss).toHaveText('CPU 0 takes one object out of the main sheaf into the caller.');
  // every one of the first 60 steps has a sentence made from its fields
  await app.act('seekSeq', 0);
  for (let i = 0; i < 60; i++) {
    await app.click(controls.step);
    const g = (await app.gloss.textContent()) ?? '';
    expect(g, `step ${i}`).toMatch(/^CPU \d+.*\.$/);
    expect(g, `step ${i}`).not.toMatch(/somewhere|undefined|a lock\b|runs /);
  }
});

/** The state a link reproduces. */
async function where(app: AppPage) {
  const st = await app.state();
  const sel = app.page.locator('header select[aria-label="Cache"]');
  return {
    scenario: st.scenario,
    seq: st.seq,
    preset: await app.page.locator('header select[aria-label="Preset"]').inputValue(),
    cache: await sel.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.text.split(' ')[0] ?? ''),
    compare: await app.page.getByTestId('compare').count(),
  };
}

/** Opens the address as it is now in a fresh page of the same browser
 * context, and checks it shows the same run at the same place. */
async function roundTrip(app: AppPage, what: string) {
  const url = app.page.url();
  const here = await where(app);
  const other = await app.page.context().newPage();
  const app2 = new (app.constructor as typeof AppPage)(other);
  await other.goto(url);
  await app2.ready();
  await expect.poll(() => where(app2), { message: `round trip after ${what}: ${url}` }).toEqual(here);
  await other.close();
}

test('the address follows every action, and each address opens the same run (round trip)', async ({ app, page, controls, views }) => {
  await app.open();
  await app.waitHash({ s: 'basics', seq: '0' });
  await roundTrip(app, 'open');
  await app.click(controls.step, 3);
  await app.waitHash({ s: 'basics', seq: '3' });
  await roundTrip(app, 'step');
  await views.preset.selectOption('v6.19');
  await app.ready();
  await app.waitHash({ preset: 'v6.19', seq: '0' });
  await app.click(controls.stepOp, 2);
  const seq = String((await app.state()).seq);
  await app.waitHash({ preset: 'v6.19', seq });
  await roundTrip(app, 'preset and op steps');
  // a switch: the first boolean in the config panel
  const sw = page.locator('[data-panel=config] fieldset label.sw input[type=checkbox]').first();
  const name = (await sw.locator('xpath=..').textContent())!.trim();
  const on = await sw.isChecked();
  await sw.click();
  await app.ready();
  await app.waitHash({ sets: `${name}=${on ? 0 : 1}` });
  await roundTrip(app, 'a switch');
  // another cache than the default one (basics kmallocs later: at its end)
  await app.act('toEnd');
  const cache = page.locator('header select[aria-label="Cache"]');
  const options = await cache.locator('option').evaluateAll((os) => os.map((o) => [(o as HTMLOptionElement).value, o.textContent!.split(' ')[0]]));
  expect(options.length).toBeGreaterThan(1);
  await cache.selectOption(options[1][0]);
  await app.waitHash({ cache: options[1][1] });
  await roundTrip(app, 'the cache');
  // compare mode
  const cmp = new CompareArea(page);
  await cmp.toggle.click();
  await expect(cmp.section).toBeVisible();
  await app.waitHash({ ab: '1' });
  await roundTrip(app, 'A/B compare');
  await cmp.toggle.click();
  await app.waitHash({ ab: null });
});

test('a link pasted into the same tab opens there; an unknown scenario is named and the run stays', async ({ app, page }) => {
  await app.open();
  await app.act('seekSeq', 5);
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
  await page.evaluate(() => (location.hash = '#s=partial-churn&preset=v6.19&seq=7'));
  await expect.poll(async () => (await app.state()).scenario).toBe('partial-churn');
  await app.ready();
  await expect.poll(async () => (await app.state()).seq).toBe(7);
  await expect(page.locator('header select[aria-label="Preset"]')).toHaveValue('v6.19');
  // the same document: no reload
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
  // a bad scenario: named, and partial-churn stays open at step 7
  await page.evaluate(() => (location.hash = '#s=no-such-scenario&seq=3'));
  await expect(app.notice).toContainText('"no-such-scenario"');
  await expect(app.notice).toContainText('current run stays open');
  const st = await app.state();
  expect([st.scenario, st.seq, st.status]).toEqual(['partial-churn', 7, 'ready']);
});

test('an unknown lesson pasted into the same tab is named; the current run stays open', async ({ app, page }) => {
  await app.open('#s=partial-churn&seq=4');
  await page.evaluate(() => (location.hash = '#lesson=99-no-such-lesson'));
  await expect(page.getByTestId('lesson-error')).toContainText('99-no-such-lesson');
  const st = await app.state();
  expect([st.scenario, st.seq, st.status]).toEqual(['partial-churn', 4, 'ready']);
});
