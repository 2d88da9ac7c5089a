// Reading the picture (issue 13, item 5): the legend names every glyph with
// the colours the renderers draw; the timeline separates alloc and free
// slow paths, shows density and plots a chosen counter; call-path names
// link to the preset's kernel on elixir.bootlin.com; per-era breakpoints
// leave the position alone when they find nothing; the jump box says why it
// refuses its text.
import { axeClean, expect, test } from './fixtures';
import { LegendArea } from './pages/legend';
import { shot } from './pages/lessons';

test('the legend: every glyph, drawn as the views draw it', async ({ app, page }) => {
  await app.open();
  await app.act('loadScenario', 'sheaf-cycle');
  await app.act('stepOp');
  await app.idle();
  const legend = new LegendArea(page);
  await legend.open();
  for (const id of ['cpu-idle', 'cpu-busy', 'cpu-running', 'cpu-focus', 'node-mem', 'node-nomem', 'sheaf-bar', 'no-sheaf', 'touched', 'barn-slot',
    'slab-bar', 'slab-frozen', 'slab-selected', 'freelist-arrow', 'obj-free', 'obj-allocated', 'obj-sheaf', 'obj-bulk', 'obj-chain', 'obj-lost', 'obj-cpu_freelist', 'obj-rcu']) {
    await expect(legend.item(id), id).toBeVisible();
  }
  // the sheaf bar's blue is the drawn sheaf fill; the running CPU's colour is the CPU of this step
  const drawnSheaf = await page.locator('[data-panel=sheaves] g[data-where=main] rect.fill').first().getAttribute('fill');
  expect(await legend.fill('sheaf-bar', 1)).toBe(drawnSheaf);
  await app.act('stepForward');
  const st = await app.state();
  const cpuFill = await page.locator(`[data-panel=topology] [data-cpu="${st.event!.cpu}"] rect`).first().getAttribute('fill');
  expect(await legend.fill('cpu-running')).toBe(cpuFill);
  await shot(page, 'legend');
  await axeClean(page);
});

test('the timeline: alloc and free slow paths apart, density, a chosen counter', async ({ app, controls, page }) => {
  test.setTimeout(120_000);
  await app.open();
  // v7.0+fix1+fix2 on ublk-bio256: alloc_slowpath stays 0 (lesson 06's
  // stop fix2-end, checked by the lesson check) while memoryless CPUs free
  // every object to its slab (free_slowpath)
  await app.act('loadScenario', 'ublk-bio256', { config: { preset: 'v7.0+fix1+fix2', seed: '', switches: {} } });
  await app.ready();
  expect(await controls.buckets.count()).toBeGreaterThan(10);
  await expect(page.locator('.timeline g.bk rect[data-series=free_slow]').first()).toBeAttached();
  await expect(page.locator('.timeline g.bk rect[data-series=alloc_slow]')).toHaveCount(0);
  const densities = await controls.buckets.evaluateAll((gs) => gs.map((g) => Number(g.getAttribute('data-density'))));
  expect(Math.max(...densities)).toBe(1);
  expect(densities.every((d) => d >= 0 && d <= 1)).toBe(true);
  await expect(controls.timelineLegend.locator('[data-series=alloc_slow]')).toContainText('alloc slow path');
  await expect(controls.timelineLegend.locator('[data-series=free_slow]')).toContainText('free slow path');
  // one counter: its columns only
  await controls.timelineCounter.selectOption('sheaf_refill');
  await expect(controls.timelineLegend).toHaveAttribute('data-counter', 'sheaf_refill');
  await expect(page.locator('.timeline g.bk rect[data-series=sheaf_refill]').first()).toBeAttached();
  await expect(page.locator('.timeline g.bk rect:not([data-series=sheaf_refill])')).toHaveCount(0);
  await expect(controls.timelineCounter.locator('option[value=alloc_slowpath]')).toHaveCount(0);
  await shot(page, 'timeline-fix2');
});

test('call-path names link to the preset\'s kernel source on elixir.bootlin.com', async ({ app, page }) => {
  await app.open();
  await app.act('loadScenario', 'sheaf-cycle');
  await app.act('stepForward');
  await app.idle();
  const cp = page.getByTestId('callpath');
  const fn = await cp.getAttribute('data-fn');
  // sheaf-cycle runs under v7.0+fix1+fix2: kernel=7.0
  await expect(cp.locator(`a[data-kernel-fn="${fn}"]`).first()).toHaveAttribute('href', `https://elixir.bootlin.com/linux/v7.0/A/ident/${fn}`);
  await expect(cp.getByTestId('kernel-source')).toHaveAttribute('href', 'https://elixir.bootlin.com/linux/v7.0/source/mm/slub.c');
  await page.getByRole('combobox', { name: 'Preset' }).selectOption('v6.19');
  await app.ready();
  await app.act('stepForward');
  await app.idle();
  await expect(cp.getByTestId('kernel-source')).toHaveAttribute('href', 'https://elixir.bootlin.com/linux/v6.19/source/mm/slub.c');
});

test('per-era breakpoints; nothing found leaves the position alone and says so', async ({ app, controls, page }) => {
  await app.open();
  await app.act('loadScenario', 'sheaf-cycle');
  await app.idle();
  const kinds = await controls.breakpoint.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  expect(kinds).toEqual(expect.arrayContaining(['barn_get_fail', 'sheaf_refill', 'no_barn', 'list_lock_contended', 'object_freed']));
  await controls.breakpoint.selectOption('barn_get_fail');
  await app.click(controls.runToBreakpoint);
  await expect(controls.breakpointHit).toHaveAttribute('data-hit', 'true');
  const st = await app.state();
  expect(st.event?.stat).toBe('barn_get_fail');
  // one node, with memory: it has a barn, "no barn" never happens
  await controls.breakpoint.selectOption('no_barn');
  await app.click(controls.runToBreakpoint);
  await expect(controls.breakpointHit).toHaveAttribute('data-hit', 'false');
  await expect(controls.breakpointHit).toContainText('the position is unchanged');
  expect((await app.state()).seq).toBe(st.seq);
  // the classic era has no barns: its breakpoints leave them out
  await page.getByRole('combobox', { name: 'Preset' }).selectOption('v6.6');
  await app.ready();
  const classic = await controls.breakpoint.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  expect(classic).not.toContain('barn_get_fail');
  expect(classic).toContain('list_lock_contended');
  // the "no barn" breakpoint chosen before is not one of this era's: back to the first
  await expect(controls.breakpoint).toHaveValue('alloc_slowpath');
});

test('the jump box says why it refuses "abc" and an op past the end', async ({ app, controls }) => {
  await app.open();
  const before = await app.state();
  await controls.jumpInput.fill('abc');
  await controls.jumpButton.click();
  await expect(controls.jumpError).toHaveText(`"abc" is not an op number: type a whole number from 0 to ${before.opsTotal}`);
  await expect(controls.jumpInput).toHaveAttribute('aria-invalid', 'true');
  expect((await app.state()).seq).toBe(before.seq);
  await controls.jumpInput.fill(String(before.opsTotal + 1));
  await controls.jumpButton.click();
  await expect(controls.jumpError).toContainText(`past the end: the trace has ${before.opsTotal} ops`);
  await axeClean(app.page);
  await controls.jumpInput.fill('2');
  await expect(controls.jumpError).toHaveCount(0);
  await controls.jumpButton.click();
  await app.idle();
  expect((await app.state()).op).toBe(2);
});
