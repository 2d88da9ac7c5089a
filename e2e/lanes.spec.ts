// Concurrency in time (issue 11, the browser part): the CPU lanes draw the
// run across time (steps, or simulated cycles under the timed schedule);
// "step this CPU" drives the race at 17c38c88294d to its list_del
// corruption report in the page, and step back from the report restores
// the drawn state exactly; the schedule and the steps chosen by hand
// travel in the live URL.
import { AppPage, expect, LanesArea, test } from './fixtures';

const RACE = '#s=race-17c38c88294d&preset=v7.0-17c38c88294d';

test('the lanes draw every CPU across the steps, coloured by kernel function', async ({ app, page, lanes }) => {
  await app.open(`${RACE}&sets=${encodeURIComponent('schedule=round-robin')}`);
  expect((await app.state()).scheduleKind).toBe('round-robin');
  // CPU 1 frees what CPU 0 allocated a round before: from op 63 on they take turns
  await app.act('seekSeq', 700);
  await app.waitSeq(700);
  await expect(lanes.svg).toHaveAttribute('data-lanes-axis', 'step');
  await expect(lanes.lanes).toHaveCount(2);
  // the default window: the last 120 steps, both CPUs in turn
  await lanes.waitEvents(120);
  await expect(lanes.segs).toHaveCount(120);
  await expect(lanes.svg.locator('g.lane-seg[data-lane-cpu="0"]').first()).toBeVisible();
  await expect(lanes.svg.locator('g.lane-seg[data-lane-cpu="1"]').first()).toBeVisible();
  await expect(lanes.current()).toHaveAttribute('data-lane-seq', '699');
  // every drawn step names its function, and the key lists them
  const fns = await lanes.segs.evaluateAll((els) => els.map((e) => e.getAttribute('data-lane-fn')));
  expect(fns.every((f) => !!f)).toBe(true);
  for (const fn of new Set(fns)) await expect(page.locator(`[data-lane-key-fn="${fn}"]`)).toHaveCount(1);
  // a bigger window
  await lanes.windowSize.selectOption('40');
  await app.idle();
  await lanes.waitEvents(40);
  // the lock view lists the cache's locks
  await expect(lanes.lockRow('list_lock', 0)).toHaveCount(1);
  // the legend explains the lanes' glyphs
  for (const id of ['lane-seg', 'lane-spin', 'lane-hold', 'lane-holder', 'lane-hand']) await expect(page.locator(`[data-legend="${id}"]`)).toHaveCount(1);
});

test('the timed scenario: lanes across simulated cycles, lock waits hatched, the holder marked', async ({ app, page, lanes }) => {
  test.setTimeout(240_000);
  await app.open('#s=ublk-bio256-timed');
  const st = await app.state();
  expect(st.scheduleKind).toBe('timed');
  expect(st.opsTotal).toBeGreaterThan(400_000);
  // 64 CPUs: the lanes of CPUs at work (a checkbox shows them all)
  await expect(lanes.svg).toHaveAttribute('data-lanes-shown', /^\d+$/);
  await page.getByRole('checkbox', { name: 'only CPUs at work' }).uncheck();
  await expect(lanes.lanes).toHaveCount(64);
  await page.getByRole('checkbox', { name: 'only CPUs at work' }).check();
  // into the run, then to a spin on list_lock
  await app.act('seekSeq', 30_000);
  await app.act('runToBreakpoint', { kind: 'list_lock_contended' });
  expect((await app.state()).seq).toBeGreaterThan(30_000);
  await expect(lanes.svg).toHaveAttribute('data-lanes-axis', 'cycles');
  const spin = lanes.svg.locator('g.lane-seg[data-lane-spin="1"]');
  await expect(spin.first()).toBeAttached();
  const holder = await spin.last().getAttribute('data-lane-holder');
  const seq = await spin.last().getAttribute('data-lane-seq');
  await expect(lanes.svg.locator(`path.lane-holder[data-lane-holder-for="${seq}"]`)).toHaveAttribute('data-lane-holder-cpu', holder!);
  // times run forward: every step starts where the simulated clock says
  const xs = await lanes.segs.evaluateAll((els) => els.map((e) => [Number(e.getAttribute('data-lane-x0')), Number(e.getAttribute('data-lane-x1'))]));
  expect(xs.every(([a, b]) => b >= a)).toBe(true);
  // responsive on a 411k-op run: a few steps and a window change
  const t0 = Date.now();
  for (let i = 0; i < 5; i++) await app.act('stepForward');
  await lanes.windowSize.selectOption('400');
  await app.idle();
  await lanes.waitEvents(400);
  test.info().annotations.push({ type: 'timing', description: `5 steps + window 400: ${Date.now() - t0} ms` });
  expect(Date.now() - t0).toBeLessThan(15_000);
});

test('step this CPU drives the race to the corruption report; step back restores the drawn state exactly', async ({ app, page, controls, lanes }) => {
  test.setTimeout(180_000);
  await app.open(RACE);
  // the trace's own schedule is explicit: serial, to build the race by hand
  await lanes.schedule.selectOption('serial');
  await app.ready();
  await app.waitHash({ sets: 'schedule=serial' });
  expect((await app.state()).scheduleKind).toBe('serial');
  // CPU 0's first 63 ops: slab S with one free object, on n->partial
  await controls.jumpInput.fill('63');
  await app.click(controls.jumpButton);
  expect((await app.state()).op).toBe(63);
  // CPU 0 by hand up to its cmpxchg: S's last object taken, S still listed
  for (let i = 0; i < 60 && (await lanes.currentKind()).kind !== 'cmpxchg'; i++) await lanes.stepCpu(0);
  expect(await lanes.currentKind()).toEqual({ kind: 'cmpxchg', fn: 'get_from_partial_node', cpu: '0' });
  await expect(lanes.lockRow('list_lock', 0)).toHaveAttribute('data-lock-holder', '0');
  // CPU 1 by hand: its free puts full slab S on its per-CPU partial list.
  // The drawn state of each position, less the free-play panel's count of
  // the handles live at the end of the run: the last hand step changes the
  // run's end (it now stops at the report), not the position before it.
  const drawn = async () => (await app.dump()).filter((l) => !l.includes('data-testid=live-handles'));
  let before: string[] = [];
  let beforeSeq = -1;
  for (let i = 0; i < 60; i++) {
    const st = await app.state();
    if (st.stopped) break;
    before = await drawn();
    beforeSeq = st.seq;
    await lanes.stepCpu(1);
  }
  let st = await app.state();
  expect(st.stopped).toBe(true);
  expect(st.runError).toContain('list_del corruption');
  // the report, in the page
  await expect(page.locator('pre.error[role=alert]')).toContainText('list_del corruption');
  await expect(lanes.current()).toHaveAttribute('data-lane-cpu', '1');
  await expect(lanes.svg.locator('g.lane-seg[data-lane-hand="1"]').first()).toBeAttached();
  expect(st.hand).toMatch(/^@\d+ c0x\d+ c1x\d+$/);
  await expect(lanes.handSteps).toHaveText(st.hand);
  await app.waitHash({ hand: st.hand, seq: String(st.seq) });
  // a stopped run takes no more steps by hand
  await expect(lanes.stepButton(0)).toBeDisabled();

  // step back from the report: the drawn state of the step before, exactly
  const reportSeq = st.seq;
  const report = await app.dump();
  await app.click(controls.stepBack);
  st = await app.state();
  expect(st.seq).toBe(beforeSeq);
  expect(st.stopped).toBe(false);
  expect(await drawn()).toEqual(before);
  await expect(page.locator('pre.error[role=alert]')).toHaveCount(0);
  // the hand steps are part of the run: forward again, the same report
  await app.click(controls.step);
  st = await app.state();
  expect(st.seq).toBe(reportSeq);
  expect(st.stopped).toBe(true);
  expect(await app.dump()).toEqual(report);
  // and from the start: a seek replays them
  await app.act('toStart');
  await app.act('seekSeq', reportSeq);
  expect(await app.dump()).toEqual(report);

  // the run so far as a trace steps line
  await app.click(lanes.stepsLineButton);
  await expect(lanes.stepsLine).toHaveText(/^steps c0x\d+ c1x\d+$/);
});

test('the schedule and the steps chosen by hand round-trip through the URL', async ({ app, page, context, lanes }) => {
  await app.open(RACE);
  await lanes.schedule.selectOption('random');
  await app.ready();
  await lanes.seed.fill('5');
  await app.click(lanes.seedSet);
  await app.ready();
  await app.waitHash({ sets: 'schedule=random seed=5' });
  let st = await app.state();
  expect(st.schedule).toBe('random seed=5');
  expect(st.scheduleKind).toBe('random');
  // where both CPUs have an op in flight
  await app.act('seekSeq', 700);
  for (let i = 0; i < 200; i++) {
    const ops = await page.evaluate(() => window.__slubviz!.snapshot()!.cpus.map((c) => c.op));
    if (ops.every((o) => o !== null)) break;
    await app.act('stepForward');
  }
  const at = (await app.state()).seq;
  // a CPU chosen by hand: whichever the schedule would not have run next
  await app.act('stepForward');
  const next = (await app.state()).event!.cpu;
  await app.act('stepBack');
  await lanes.stepCpu(1 - next);
  await app.act('stepForward');
  st = await app.state();
  expect(st.hand).toBe(`@${at} c${1 - next}`);
  await app.waitHash({ sets: 'schedule=random seed=5', hand: st.hand, seq: String(at + 2) });
  const drawn = await app.dump();
  const url = page.url();

  // the same address in a new page: the same run, at the same step
  const other = await context.newPage();
  const lanes2 = new LanesArea(other, new AppPage(other));
  await other.goto(url);
  await lanes2.app.ready();
  await expect.poll(async () => (await lanes2.app.state()).seq).toBe(at + 2);
  const st2 = await lanes2.app.state();
  expect(st2.schedule).toBe('random seed=5');
  expect(st2.hand).toBe(st.hand);
  await expect(lanes2.schedule).toHaveValue('random');
  await expect(lanes2.seed).toHaveValue('5');
  expect(await lanes2.app.dump()).toEqual(drawn);

  // forgetting the hand steps gives the schedule's run back
  await lanes2.app.click(lanes2.clearHand);
  expect((await lanes2.app.state()).hand).toBe('');
  await lanes2.app.waitHash({ hand: null });
  await other.close();

  // back to the trace's own schedule: no schedule in the address
  await lanes.schedule.selectOption('');
  await app.ready();
  await app.waitHash({ sets: null });
  expect((await app.state()).scheduleKind).toBe('explicit');
});
