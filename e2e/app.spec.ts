// End-to-end tests of the slubviz web app (system Chromium, animations off).
// They read state through window.__slubviz and data-* attributes, not pixels.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { AppPage, axeClean, expect, test, type ViewsArea } from './fixtures';

async function drawnSheaf(views: ViewsArea) {
  const m = views.mainSheaf(0);
  return { id: await m.getAttribute('data-sheaf-id'), size: await m.getAttribute('data-size') };
}

async function objectStates(app: AppPage): Promise<Record<string, string>> {
  return app.page.evaluate(() => {
    const out: Record<string, string> = {};
    document.querySelectorAll('[data-panel=slab] [data-object-id]').forEach((e) => {
      out[e.getAttribute('data-object-id')!] = e.getAttribute('data-object-state')!;
    });
    return out;
  });
}

test('loads the default scenario', async ({ app, views }) => {
  await app.open();
  const st = await app.state();
  expect(st.scenario).toBe('basics');
  expect(st.seq).toBe(0);
  expect(st.opsTotal).toBeGreaterThan(0);
  expect(st.checkpoints).toBeGreaterThan(1);
  await expect(views.panel('topology').locator('[data-node]')).not.toHaveCount(0);
  await expect(views.panel('topology').locator('[data-cpu]')).not.toHaveCount(0);
  await expect(views.mainSheaf(0)).toHaveCount(1);
  await expect(views.panel('barns').locator('[data-barn-node]')).not.toHaveCount(0);
  await expect(app.page.getByTestId('text-slabinfo')).toContainText('slabinfo - version: 2.1');
});

// The Release module is split (core/wasm/split.mjs): the first screen runs
// on its first half alone, and the worker fetches the other once it is up.
// 'on-demand' would mean the first screen called into the second half.
test('the first screen needs only the first half of the wasm module; the other is prefetched', async ({ app }) => {
  await app.open();
  await expect.poll(() => app.deferredWasm(), { timeout: 15_000 }).toBe('prefetched');
  // and the other era (classic SLUB, in that half) runs
  await app.act('setConfig', { preset: 'v6.8' });
  await app.idle();
  expect((await app.state()).status).toBe('ready');
  expect(await app.deferredWasm()).toBe('prefetched');
});

// The engine worker starts from a small entry of its own (web/src/early.ts,
// web/vite.config.ts), so the wasm loads while the main chunk is still on
// its way. Here the main chunk is held back until the worker has asked for
// the wasm: started by the main chunk instead, it asks only after the hold
// gives up (10 s), and the test fails.
test('the worker asks for the wasm before the main chunk has arrived', async ({ app, page }) => {
  let wasmAsked: () => void = () => {};
  const asked = new Promise<void>((resolve) => (wasmAsked = resolve));
  page.on('request', (r) => {
    if (/\/wasm\/slubviz_core\.wasm$/.test(r.url())) wasmAsked();
  });
  const main = /\/assets\/index-[^/]+\.js$/;
  const held: boolean[] = [];
  await page.route(main, async (route) => {
    held.push(await Promise.race([asked.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000))]));
    await route.continue();
  });
  await app.open();
  expect(held).toEqual([true]);
  expect((await app.state()).status).toBe('ready');
});

test('Step and Step back move a sheaf and an object, and undo it', async ({ app, controls, views }) => {
  await app.open();
  let sheafMoved = false;
  let objectMoved = false;
  for (let i = 0; i < 60 && !(sheafMoved && objectMoved); i++) {
    const sheaf0 = await drawnSheaf(views);
    const objs0 = await objectStates(app);
    await app.click(controls.step);
    const sheaf1 = await drawnSheaf(views);
    const objs1 = await objectStates(app);
    const changedObj = Object.keys(objs1).find((k) => objs0[k] !== undefined && objs0[k] !== objs1[k]);
    const changedSheaf = sheaf0.id !== sheaf1.id || sheaf0.size !== sheaf1.size;
    if (changedSheaf || changedObj) {
      // Step back restores exactly what was drawn before
      await app.click(controls.stepBack);
      expect(await drawnSheaf(views)).toEqual(sheaf0);
      if (changedObj) expect((await objectStates(app))[changedObj]).toBe(objs0[changedObj]);
      await app.click(controls.step);
      expect(await drawnSheaf(views)).toEqual(sheaf1);
      if (changedObj) expect((await objectStates(app))[changedObj]).toBe(objs1[changedObj]);
      sheafMoved ||= changedSheaf;
      objectMoved ||= !!changedObj;
    }
  }
  expect(sheafMoved, 'a main sheaf changed within 60 steps').toBe(true);
  expect(objectMoved, 'an object changed state within 60 steps').toBe(true);
});

test('N steps forward then N back restore the exact drawn state', async ({ app, controls }) => {
  await app.open();
  await app.act('seekSeq', 9);
  await app.waitSeq(9);
  const before = await app.dump();
  const N = 15;
  await app.click(controls.step, N);
  expect((await app.state()).seq).toBe(9 + N);
  const forward = await app.dump();
  expect(forward).not.toEqual(before);
  await app.click(controls.stepBack, N);
  expect((await app.state()).seq).toBe(9);
  expect(await app.dump()).toEqual(before);
});

test('scrub the timeline and jump to an op', async ({ app, controls }) => {
  await app.open();
  const total = (await app.state()).opsTotal;
  await controls.timeline.focus();
  await app.page.keyboard.press('End');
  await expect.poll(async () => (await app.state()).op).toBe(total);
  await app.page.keyboard.press('Home');
  await expect.poll(async () => (await app.state()).op).toBe(0);
  for (let i = 0; i < 3; i++) await app.page.keyboard.press('ArrowRight');
  await expect.poll(async () => (await app.state()).op).toBe(3);

  await controls.jumpInput.fill('5');
  await app.click(controls.jumpButton);
  let st = await app.state();
  expect(st.op).toBe(5);
  expect(st.inflight).toBe(0);
  // back to an earlier op: a restore from a checkpoint, same drawn state as
  // getting there by stepping
  await controls.jumpInput.fill('2');
  await app.click(controls.jumpButton);
  const viaJump = await app.dump();
  await app.act('toStart');
  await app.click(controls.stepOp, 2);
  st = await app.state();
  expect(st.op).toBe(2);
  expect(await app.dump()).toEqual(viaJump);
  await app.click(controls.opBack);
  expect((await app.state()).op).toBe(1);
});

test('breakpoints stop on the next new slab and the next discard', async ({ app, controls }) => {
  await app.open();
  await controls.breakpoint.selectOption('new_slab');
  await app.click(controls.runToBreakpoint);
  let st = await app.state();
  expect(st.event?.kind).toBe('new_slab');
  await expect(app.page.locator('.hit')).toHaveAttribute('data-hit', 'true');
  await expect(app.page.getByTestId('callpath')).toHaveAttribute('data-kind', 'new_slab');

  await controls.breakpoint.selectOption('discard');
  await app.click(controls.runToBreakpoint);
  st = await app.state();
  expect(st.event?.kind).toBe('discard_slab');

  // the keyboard shortcut runs the same action
  await app.act('toStart');
  await app.page.locator('body').press('2');
  await expect.poll(async () => (await app.state()).event?.kind).toBe('new_slab');
});

test('keyboard shortcuts step and play', async ({ app }) => {
  await app.open();
  await app.page.locator('body').press('ArrowRight');
  await app.waitSeq(1);
  await app.page.locator('body').press('ArrowRight');
  await app.waitSeq(2);
  await app.page.locator('body').press('ArrowLeft');
  await app.waitSeq(1);
  await app.page.locator('body').press('Shift+ArrowRight');
  await expect.poll(async () => (await app.state()).op).toBe(1);
  await app.page.locator('body').press('End');
  await expect.poll(async () => (await app.state()).op).toBe((await app.state()).opsTotal);
  await app.page.locator('body').press('Home');
  await app.waitSeq(0);
  await app.act('setSpeed', 1000);
  await app.page.locator('body').press(' ');
  await expect.poll(async () => (await app.state()).seq).toBeGreaterThan(5);
  await app.page.locator('body').press(' ');
  await expect.poll(async () => (await app.state()).playing).toBe(false);
});

test('free play: allocate and free on a chosen CPU, download the trace', async ({ app, views }) => {
  await app.open('#s=sheaf-cycle');
  const st0 = await app.state();
  expect(st0.scenario).toBe('sheaf-cycle');
  await app.page.getByRole('combobox', { name: 'Free play CPU' }).selectOption('1');
  await app.click(views.allocate);
  await expect.poll(async () => (await app.state()).freeOps).toBe(1);
  let st = await app.state();
  expect(st.opsTotal).toBe(st0.opsTotal + 1);
  expect(st.op).toBe(st.opsTotal);
  expect(st.event?.kind).toBe('return');
  expect(st.event?.cpu).toBe(1);
  const trace = await app.page.evaluate(() => window.__slubviz!.trace());
  expect(trace).toMatch(/c1 alloc pair-64 fp0\n$/);

  await app.click(views.free);
  await expect.poll(async () => (await app.state()).freeOps).toBe(2);
  st = await app.state();
  expect(st.opsTotal).toBe(st0.opsTotal + 2);
  expect(st.op).toBe(st.opsTotal);
  await expect(app.page.getByTestId('free-ops')).toContainText('c1 free pair-64 fp0');
  await expect(views.panel('callpath').locator('.error')).toHaveCount(0);

  const download = app.page.waitForEvent('download');
  await app.page.getByRole('button', { name: 'Download trace' }).click();
  const d = await download;
  expect(d.suggestedFilename()).toBe('sheaf-cycle-freeplay.trace');
});

test('the preset picker offers the core\'s presets; the race preset opens with cpu_partial_free on', async ({ app, views }) => {
  await app.open();
  // the list is the core's (svz_manifest_json), the same as slubviz presets
  const cli = spawnSync(join(__dirname, '..', 'build', 'slubviz'), ['presets'], { encoding: 'utf8' });
  expect(cli.status).toBe(0);
  const names = cli.stdout.trimEnd().split('\n').map((l) => l.split(/\s+/)[0]);
  await expect.poll(() => views.presetOptions()).toEqual(names);
  expect(names).toContain('v7.0-17c38c88294d');
  await views.preset.selectOption('v7.0-17c38c88294d');
  await app.ready();
  await expect(app.statuses).toContainText('v7.0-17c38c88294d');
  expect((await app.state()).error).toBeNull();
  await expect(views.switchBox('cpu_partial_free')).toBeChecked();
  await expect(views.switchBox('fix1')).not.toBeChecked();
  // the import panel's formats are the core's too
  const manifest = spawnSync(join(__dirname, '..', 'build', 'slubviz'), ['manifest'], { encoding: 'utf8' });
  const labels = (JSON.parse(manifest.stdout) as { import_formats: { label: string }[] }).import_formats.map((f) => f.label);
  const picker = app.page.getByRole('combobox', { name: 'Import format' });
  expect(await picker.locator('option').allTextContents()).toEqual(labels);
});

test('share link round trip: scenario, config and position', async ({ app, context, controls, views }) => {
  await app.open();
  await views.preset.selectOption('v7.0-rc1');
  await app.ready();
  await app.act('jumpToOp', 3);
  await app.click(controls.step, 2);
  const st = await app.state();
  const drawn = await app.dump();
  await views.share.click();
  await expect(views.shareLink).toHaveValue(/#s=basics&preset=v7.0-rc1&seq=\d+/);
  const url = await views.shareLink.inputValue();

  const other = await context.newPage();
  const errors: string[] = [];
  other.on('pageerror', (e) => errors.push(e.message));
  const app2 = new AppPage(other);
  await other.goto(url);
  await app2.ready();
  await expect.poll(async () => (await app2.state()).seq).toBe(st.seq);
  expect((await app2.state()).scenario).toBe('basics');
  await expect(other.locator('header .status')).toContainText('v7.0-rc1');
  expect(await app2.dump()).toEqual(drawn);
  expect(errors).toEqual([]);
});

test('share link round trip: a free-play trace travels compressed', async ({ app, context, views }) => {
  await app.open();
  await app.click(views.allocate);
  await expect.poll(async () => (await app.state()).freeOps).toBe(1);
  const trace = await app.page.evaluate(() => window.__slubviz!.trace());
  const st = await app.state();
  await views.share.click();
  await expect(views.shareLink).toHaveValue(/#t=/);
  const other = await context.newPage();
  await other.goto(await views.shareLink.inputValue());
  const app2 = new AppPage(other);
  await app2.ready();
  await expect.poll(async () => (await app2.state()).seq).toBe(st.seq);
  expect(await other.evaluate(() => window.__slubviz!.trace())).toBe(trace);
});

test('64-CPU scenario: topology marks memoryless nodes; seeks use checkpoints', async ({ app, controls, views }) => {
  await app.open('#s=ublk-bio256');
  const st = await app.state();
  expect(st.opsTotal).toBeGreaterThan(100_000);
  await expect(views.panel('topology').locator('[data-cpu]')).toHaveCount(64);
  await expect(views.panel('topology').locator('[data-memoryless=true]')).toHaveCount(6);
  await expect(views.panel('sheaves').locator('g.cpu-row')).toHaveCount(64);
  // focus node 5: its 8 CPUs only
  await app.page.getByRole('combobox', { name: 'Focus node' }).selectOption('5');
  await expect(views.panel('sheaves').locator('g.cpu-row')).toHaveCount(8);
  await expect(views.panel('topology').locator('[data-node="5"]')).toHaveAttribute('data-focus', 'true');
  await expect(app.page.getByTestId('node-counters')).toContainText('list_lock');
  await controls.jumpInput.fill('150000');
  await app.click(controls.jumpButton);
  expect((await app.state()).op).toBe(150000);
  // far past where the background pre-pass had counted when the run
  // opened: the step count shown is never below the step ("≥" while it counts)
  const seq = (await app.state()).seq;
  const shownTotal = async () => {
    const m = /step (\d+) \/ ≥?(\d+)/.exec((await controls.position.textContent()) ?? '');
    return m && Number(m[1]) === seq ? Number(m[2]) : -1;
  };
  await expect.poll(shownTotal).toBeGreaterThanOrEqual(seq);
  expect(Number(await controls.position.getAttribute('data-seq-total'))).toBeGreaterThanOrEqual(seq);
  await app.click(controls.stepBack);
  expect((await app.state()).op).toBe(149999);
});

test('no serious or critical accessibility violations (axe)', async ({ app, page }) => {
  await app.open();
  await app.act('seekSeq', 30);
  await app.idle();
  const scan = () => axeClean(page);
  await scan();
  // the lessons page (its list; e2e/lessons.spec.ts scans the player too)
  await page.getByRole('button', { name: 'Lessons', exact: true }).click();
  await expect(page.locator('.lesson-list li[data-lesson-id] .progress-line').first()).toContainText('stops seen');
  await scan();
});
