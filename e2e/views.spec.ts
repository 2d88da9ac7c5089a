// Views beyond the sheaves era's defaults: the classic era's kmem_cache_cpu
// (preset v6.19), event-driven transitions, the canvas for very large
// slabs, free play on handles made inside repeat blocks, an axe scan of
// the import and classic views.
import { join } from 'node:path';
import { axeClean, expect, test, type AppPage } from './fixtures';

/** The drawn kmem_cache_cpu rows against the snapshot's fields. */
async function checkKcpu(app: AppPage): Promise<{ freelist: number; partial: number }> {
  return app.page.evaluate(() => {
    const h = window.__slubviz!;
    const snap = h.snapshot()!;
    const cache = snap.caches.find((c) => c.id === h.state().selectedCache)!;
    let freelist = 0;
    let partial = 0;
    for (const c of cache.cpus!) {
      const row = document.querySelector(`[data-panel=sheaves] g.kcpu-row[data-cpu="${c.cpu}"]`);
      if (!row) throw new Error(`no kcpu row for cpu ${c.cpu}`);
      const want = (k: string, v: string) => {
        if (row.getAttribute(k) !== v) throw new Error(`cpu ${c.cpu} ${k}: drawn ${row.getAttribute(k)}, snapshot ${v}`);
      };
      want('data-tid', String(c.tid));
      want('data-c-slab', c.slab === null ? 'none' : String(c.slab));
      want('data-freelist-len', String(c.freelist!.length));
      want('data-partial-len', String(c.partial!.length));
      const fl = [...row.querySelectorAll('g.c-fl')].map((g) => Number(g.getAttribute('data-object-id')));
      if (JSON.stringify(fl) !== JSON.stringify(c.freelist!.slice(0, fl.length)) || (c.freelist!.length > 0 && fl.length === 0))
        throw new Error(`cpu ${c.cpu} c->freelist drawn ${fl}, snapshot ${c.freelist}`);
      for (const g of row.querySelectorAll('g.c-fl')) if (g.getAttribute('data-object-state') !== 'cpu_freelist') throw new Error('state');
      const ps = [...row.querySelectorAll('g.c-partial')].map((g) => Number(g.getAttribute('data-slab-id')));
      if (JSON.stringify(ps) !== JSON.stringify(c.partial)) throw new Error(`cpu ${c.cpu} c->partial drawn ${ps}, snapshot ${c.partial}`);
      if (ps.length) {
        const head = row.querySelector('g.c-partial[data-partial-pos="0"]')!;
        if (head.getAttribute('data-head-slabs') !== String(ps.length)) throw new Error('head->slabs');
      }
      freelist += fl.length;
      partial += ps.length;
    }
    return { freelist, partial };
  });
}

test('classic era (preset v6.19): c->slab, the c->freelist chain, the c->partial chain with head->slabs, tid', async ({ app, page, controls, views }) => {
  await app.open('#s=basics&preset=v6.19');
  await expect(app.statuses.first()).toContainText('v6.19 · classic era');
  await expect(views.panel('sheaves').locator('h2')).toContainText('kmem_cache_cpu');
  await expect(views.panel('sheaves').locator('g.kcpu-row')).toHaveCount(1);
  // no sheaves drawn for a cache without them
  await expect(views.panel('sheaves').locator('g.cpu-row')).toHaveCount(0);
  let seen = 0;
  for (let op = 1; op <= 6; op++) {
    await app.act('jumpToOp', op);
    const r = await checkKcpu(app);
    seen += r.freelist;
  }
  expect(seen, 'c->freelist objects drawn').toBeGreaterThan(0);
  // objects on a c->freelist are state "p" in the slab detail too
  await app.act('jumpToOp', 1);
  await expect(views.panel('slab').locator('g.obj[data-object-state=cpu_freelist]').first()).toBeVisible();
  await expect(views.panel('partial').locator('g.slab-list[data-list=cpu_slab] g.slab')).toHaveCount(1);

  // two CPUs, a per-CPU partial list (lesson 2's trace, its own preset v6.19)
  await app.act('loadScenario', 'lesson-classic-paths');
  await app.ready();
  let partial = 0;
  for (const op of [17, 20, 22, 24, 40, 41, 42, 44]) {
    await app.act('jumpToOp', op);
    partial = Math.max(partial, (await checkKcpu(app)).partial);
  }
  expect(partial, 'a c->partial chain was drawn').toBeGreaterThan(0);
  // steps inside an op too
  await app.act('jumpToOp', 22);
  for (let i = 0; i < 12; i++) {
    await app.click(controls.step);
    await checkKcpu(app);
  }
  // a click on a c->partial slab opens it in the slab detail
  for (const op of [17, 20, 22, 24, 40, 41, 42, 44]) {
    await app.act('jumpToOp', op);
    if ((await page.locator('g.c-partial').count()) > 0) break;
  }
  const ps = views.panel('sheaves').locator('g.c-partial').first();
  const id = await ps.getAttribute('data-slab-id');
  await ps.click();
  await expect(views.panel('slab').locator('svg[data-slab-id]')).toHaveAttribute('data-slab-id', id!);
  await expect(views.panel('sheaves').locator('g.c-partial').first()).toHaveAttribute('data-selected', 'true');
});

test('event-driven transitions: a moving object flies from source to target; none with animations off', async ({ app, page, controls }) => {
  await app.open();
  // step 19 of basics: take_object main -> user (the first fast-path alloc)
  await app.act('seekSeq', 19);
  await app.act('setAnim', 1500);
  await app.click(controls.step);
  let st = await app.state();
  expect(st.event?.kind).toBe('take_object');
  expect([st.event?.from, st.event?.to]).toEqual(['main', 'user']);
  await expect.poll(() => page.evaluate(() => window.__slubviz!.flights())).toContain(`object ${st.event!.obj} main->user`);
  await expect(page.locator('.flight')).toHaveCount(1);
  await expect(page.locator('.flight')).toHaveCount(0, { timeout: 5000 });
  // and back the other way: put_object user -> main at step 34
  await app.act('seekSeq', 34);
  await app.click(controls.step);
  st = await app.state();
  expect(st.event?.kind).toBe('put_object');
  await expect.poll(() => page.evaluate(() => window.__slubviz!.flights())).toContain(`object ${st.event!.obj} user->main`);
  // animations off (the tests' default): no ghost
  await app.act('setAnim', 0);
  const n = (await page.evaluate(() => window.__slubviz!.flights())).length;
  await app.act('seekSeq', 19);
  await app.click(controls.step);
  await app.click(controls.step);
  expect((await page.evaluate(() => window.__slubviz!.flights())).length).toBe(n);
  await expect(page.locator('.flight')).toHaveCount(0);
});

test('very large slabs are drawn on a canvas that keeps their state in data-* attributes', async ({ app, page, views }) => {
  await app.open();
  const trace = `slubviz-trace 1
node 0 mem=64M
cpus 0 node=0
preset v6.19
cache tiny-8 size=8
repeat 300 i {
  c0 alloc tiny-8 t{$i} at=tiny_user+0x{$i}/0x400
}
`;
  await app.act('openTrace', trace, { scenario: null });
  await app.ready();
  await app.act('toEnd');
  const canvas = views.panel('slab').locator('canvas');
  await expect(canvas).toHaveAttribute('data-render', 'canvas');
  await expect(views.panel('slab').locator('g.obj')).toHaveCount(0);
  const snapSlab = await page.evaluate(() => {
    const sel = document.querySelector('[data-panel=slab] canvas')!.getAttribute('data-slab-id');
    const s = window.__slubviz!.snapshot()!.slabs.find((x) => String(x.id) === sel)!;
    return { objects: s.objects, state: s.state, inuse: s.inuse };
  });
  expect(snapSlab.objects).toBeGreaterThan(256);
  await expect(canvas).toHaveAttribute('data-objects', String(snapSlab.objects));
  await expect(canvas).toHaveAttribute('data-states', snapSlab.state);
  await expect(canvas).toHaveAttribute('data-inuse', String(snapSlab.inuse));
  // pointing at the first object tells its state and owner
  await canvas.hover({ position: { x: 4, y: 4 } });
  await expect(page.getByTestId('canvas-hover')).toContainText('object #');
  // the call-site filter counts matches on the canvas too
  await page.getByLabel('Call site filter').fill('tiny_user+0x7/');
  await expect(canvas).toHaveAttribute('data-site-matches', '1');
  // stepping back redraws the canvas from the earlier snapshot
  await app.act('jumpToOp', 100);
  const st2 = await page.evaluate(() => {
    const sel = document.querySelector('[data-panel=slab] canvas')?.getAttribute('data-slab-id');
    return window.__slubviz!.snapshot()!.slabs.find((x) => String(x.id) === sel)?.state ?? null;
  });
  await expect(canvas).toHaveAttribute('data-states', st2!);
});

test('free play frees handles created inside repeat blocks', async ({ app, page, views }) => {
  await app.open('#s=lesson-classic-paths');
  const live = await page.evaluate(() => window.__slubviz!.liveHandles().map((h) => h.handle));
  expect(live).toContain('a7'); // made in `repeat 16 { c0 alloc demo-256 a{$i} }`
  const sel = page.getByRole('combobox', { name: 'Handle to free' });
  await expect(sel.locator('option[value=a7]')).toHaveCount(1);
  await sel.selectOption('a7');
  await page.getByRole('combobox', { name: 'Free play CPU' }).selectOption('1');
  await app.click(views.free);
  await expect.poll(async () => (await app.state()).freeOps).toBe(1);
  const st = await app.state();
  expect(st.op).toBe(st.opsTotal);
  expect(await page.evaluate(() => window.__slubviz!.trace())).toMatch(/c1 free demo-256 a7\n$/);
  await expect(views.panel('callpath').locator('.error')).toHaveCount(0);
  const after = await page.evaluate(() => window.__slubviz!.liveHandles().map((h) => h.handle));
  expect(after).not.toContain('a7');
  expect(after.length).toBe(live.length - 1);
});

test('axe: no serious or critical violations with an import summary and the classic view', async ({ app, page, importer }) => {
  await app.open('#s=lesson-classic-paths');
  await app.act('jumpToOp', 20);
  await importer.file.setInputFiles(join(__dirname, '../core/tests/data/ftrace/ftrace-kmem-v5.4-x86_64-vmware-liulangrenaaa.txt'));
  await importer.summary();
  await axeClean(page);
});

// While playing, a panel keeps the tallest height it has had (views/hooks.ts
// useHeightsHeldWhilePlaying): the panels below it stay put; paused, each
// panel has its own height again.
test('playing, no panel gets shorter; paused, the held heights are let go', async ({ app, page }) => {
  await app.open('#s=ublk-bio256');
  const heights = () =>
    page.evaluate(() =>
      Object.fromEntries([...document.querySelectorAll<HTMLElement>('.panel')].map((el) => [el.dataset.panel, el.getBoundingClientRect().height])),
    );
  const held = () => page.evaluate(() => [...document.querySelectorAll<HTMLElement>('.panel')].filter((el) => el.style.minHeight !== '').length);
  await app.act('setSpeed', 10000);
  void app.act('play');
  await expect.poll(async () => (await app.stateOrNull())?.playing).toBe(true);
  await expect.poll(held).toBeGreaterThan(5);
  let was = await heights();
  const seq0 = (await app.stateOrNull())!.seq;
  // sampled until the run has gone on a good way (the call path and the
  // counters change height with the step drawn)
  while ((await app.stateOrNull())!.seq < seq0 + 3000 && (await app.stateOrNull())!.playing) {
    const now = await heights();
    for (const [k, h] of Object.entries(now)) if (k in was) expect(h, `panel ${k}`).toBeGreaterThanOrEqual(was[k] - 0.5);
    was = now;
  }
  await app.act('pause');
  await expect.poll(held).toBe(0);
});
