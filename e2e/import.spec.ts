// Importing real kernel traces in the browser (issue 5): upload, drag and
// drop, paste, samples; the summary before the replay; junk; export; the
// stored traces across a reload; a large log streamed with a progress bar.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures';

const DATA = join(__dirname, '../core/tests/data/ftrace');
const V54 = 'ftrace-kmem-v5.4-changbin-pS-mixed.txt';
const V612 = 'ftrace-kmem-v6.12-rostedt-node-accounted-name.txt';

test('upload a sample file: the summary first, then the replay; call sites in the slab detail', async ({ app, page, views, importer }) => {
  await app.open();
  await importer.file.setInputFiles(join(DATA, V612));
  const s = await importer.summary();
  // 8 events, all kept; 4 allocations never freed; names_cache named by its frees
  await expect(s).toHaveAttribute('data-ok', 'true');
  await expect(s).toHaveAttribute('data-format', 'ftrace');
  await expect(s).toHaveAttribute('data-events', '8');
  await expect(s).toHaveAttribute('data-kept', '8');
  await expect(s).toHaveAttribute('data-open', 'false');
  await expect(s.getByTestId('import-events')).toContainText('4 allocations never freed');
  await expect(s.getByTestId('import-caches').locator('tr[data-cache]')).toHaveCount(3);
  await expect(s.getByTestId('import-caches').locator('tr[data-cache=names_cache]')).toHaveAttribute('data-origin', 'named-by-free');
  await expect(s.getByTestId('hashed')).toBeVisible();
  await expect(s.getByTestId('import-notes').locator('li[data-note=no_cpu]')).toBeVisible();
  // not replayed yet: the scenario still runs
  expect((await app.state()).scenario).toBe('basics');

  await s.getByRole('button', { name: 'Replay', exact: true }).click();
  await app.ready();
  let st = await app.state();
  expect(st.traceName).toBe(V612);
  expect(st.traceRef).toMatch(/^stored:/);
  expect(st.opsTotal).toBe(8);
  await expect(s).toHaveAttribute('data-open', 'true');
  await expect(app.status).toContainText(V612);

  // replay it: step to the end, the live objects carry their call sites
  await app.act('toEnd');
  st = await app.state();
  expect(st.op).toBe(8);
  const owners = await page.evaluate(() => window.__slubviz!.snapshot()!.slabs.flatMap((x) => x.owners ?? []));
  expect(owners.length).toBeGreaterThan(0);
  const withSite = owners.find((o) => o.site !== '')!;
  // pick the cache of that object and see the site in the slab detail
  const cache = await page.evaluate((obj) => {
    const snap = window.__slubviz!.snapshot()!;
    const slab = snap.slabs.find((x) => (x.owners ?? []).some((o) => o.obj === obj))!;
    return { cache: slab.cache, slab: slab.id };
  }, withSite.obj);
  await app.act('selectCache', cache.cache);
  await app.act('selectSlab', cache.slab);
  const cell = views.slabObjects(`[data-object-id="${withSite.obj}"]`);
  await expect(cell).toHaveAttribute('data-site', withSite.site);
  await expect(cell).toHaveAttribute('data-owner', withSite.handle);
  await expect(views.owners.locator(`tr[data-owner-obj="${withSite.obj}"]`)).toContainText(withSite.site);
  // filter by call site: the matching object stays, the others are dimmed
  await views.siteFilter.fill(withSite.site);
  await expect(cell).toHaveAttribute('data-site-match', 'true');
  await expect(views.slabObjects('[data-site-match=false]').first()).toBeVisible();
  await views.siteFilter.fill('no-such-site');
  await expect(views.slabObjects('[data-site-match=true]')).toHaveCount(0);
  await expect(views.owners.locator('tbody tr')).toHaveCount(0);

  // export as native v1
  const dl = page.waitForEvent('download');
  await s.getByRole('button', { name: 'Export v1' }).click();
  const d = await dl;
  expect(d.suggestedFilename()).toBe('ftrace-kmem-v6.12-rostedt-node-accounted-name.v1.trace');
  const text = await new Promise<string>((resolve, reject) => {
    void d.createReadStream().then((rs) => {
      let t = '';
      rs.on('data', (c: Buffer) => (t += c.toString('utf8')));
      rs.on('end', () => resolve(t));
      rs.on('error', reject);
    });
  });
  expect(text).toContain('slubviz-trace 1\n');
  expect(text).toContain(`at=${withSite.site}`);
});

test('the sample menu, the paste box and drag and drop import too', async ({ app, page, importer }) => {
  await app.open();
  const samples = importer.samples;
  // "choose…" + every sample (vite.config.ts copies core/tests/data/ftrace/*.{txt,rep})
  const nSamples = readdirSync(DATA).filter((f) => /\.(txt|rep)$/.test(f)).length;
  await expect(samples.locator('option')).toHaveCount(nSamples + 1);
  await samples.selectOption('trace-cmd-report.txt');
  await importer.importSample.click();
  let s = await importer.summary();
  await expect(s).toHaveAttribute('data-format', 'trace-cmd');
  await s.getByRole('button', { name: 'Replay', exact: true }).click();
  await app.ready();
  expect((await app.state()).traceName).toBe('trace-cmd-report.txt');

  // trace-cmd report -i host.dat -i guest.dat: its header gives host.dat 2
  // CPUs and guest.dat 4, so guest.dat's CPUs replay after host.dat's (2-5)
  await samples.selectOption('trace-cmd-report-two-inputs.txt');
  await importer.importSample.click();
  s = await importer.summary();
  await expect(s).toContainText('trace-cmd-report-two-inputs.txt');
  const inputs = s.getByTestId('import-inputs');
  await expect(inputs).toHaveAttribute('data-count', '2');
  await expect(inputs).toContainText('host.dat (cpus=2) as CPU 0-1');
  await expect(inputs).toContainText('guest.dat (cpus=4) as CPU 2-5');

  // paste a malloc-lab trace
  await importer.pasteToggle.click();
  await importer.pasted.fill('20000\n2\n4\n1\na 0 512\na 1 128 @1\nf 0\nf 1\n');
  await importer.importPasted.click();
  s = await importer.summary();
  await expect(s).toHaveAttribute('data-format', 'malloc-lab');
  await expect(s).toHaveAttribute('data-ops', '4');

  // drop a file on the drop zone
  const dt = await page.evaluateHandle(() => {
    const d = new DataTransfer();
    d.items.add(new File(['  4582.696626: kmem_cache_alloc: call_site=getname_flags+0x47/0x1f0 ptr=00000000e70e10e0 bytes_req=4096 bytes_alloc=4096 gfp_flags=GFP_KERNEL node=-1 accounted=false\n'], 'dropped.txt'));
    return d;
  });
  await importer.dropzone.dispatchEvent('drop', { dataTransfer: dt });
  s = await importer.summary();
  await expect(s).toContainText('dropped.txt');
  await expect(s).toHaveAttribute('data-ops', '1');
  // stored: the two samples, the paste and the drop
  await expect(importer.stored.locator('tr[data-stored-id]')).toHaveCount(4);
});

test('junk input shows the errors and the page keeps working', async ({ app, controls, importer }) => {
  await app.open();
  await app.click(controls.step, 3);
  // binary junk: nothing can be imported
  await importer.file.setInputFiles({ name: 'junk.bin', mimeType: 'application/octet-stream', buffer: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3, 10, 0xff, 0xfe, 10]) });
  let s = await importer.summary();
  await expect(s).toHaveAttribute('data-ok', 'false');
  await expect(s.getByRole('alert')).toContainText('Nothing could be imported from junk.bin');
  await expect(s.getByTestId('import-errors')).toContainText('line 1');
  // a file with good and bad lines: imported, the bad lines listed by number
  const good = '  1.000001: kmalloc: call_site=f+0x1/0x2 ptr=0000000011111111 bytes_req=64 bytes_alloc=64 gfp_flags=GFP_KERNEL\n';
  await importer.file.setInputFiles({ name: 'mixed.txt', mimeType: 'text/plain', buffer: Buffer.from(`${good}hello world\n${good.replace('11111111', '22222222')}\u0001\u0002\n`) });
  s = await importer.summary();
  await expect(s).toHaveAttribute('data-ok', 'true');
  await expect(s).toHaveAttribute('data-bad-lines', '2');
  await expect(s.getByTestId('import-errors').locator('li[data-line="2"]')).toContainText("line 2: expected an event line");
  await expect(s.getByTestId('import-errors').locator('li[data-line="4"]')).toBeVisible();
  // the open run was never touched and still steps
  let st = await app.state();
  expect(st.scenario).toBe('basics');
  expect(st.seq).toBe(3);
  await app.click(controls.step);
  st = await app.state();
  expect(st.seq).toBe(4);
  expect(st.status).toBe('ready');
  // and the next import works
  await importer.file.setInputFiles(join(DATA, V54));
  s = await importer.summary();
  await expect(s).toHaveAttribute('data-events', '9');
});

test('stored traces survive a reload, open and delete', async ({ app, page, views, importer }) => {
  await app.open();
  await importer.file.setInputFiles(join(DATA, 'perf-script-callchain.txt'));
  await expect(await importer.summary()).toHaveAttribute('data-format', 'perf');
  const rows = importer.stored.locator('tr[data-stored-id]');
  await expect(rows).toHaveCount(1);
  await page.reload();
  await app.ready();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-name', 'perf-script-callchain.txt');
  await importer.storedButton('Open', 'perf-script-callchain.txt').click();
  await app.ready();
  const st = await app.state();
  expect(st.traceName).toBe('perf-script-callchain.txt');
  expect(st.opsTotal).toBeGreaterThan(0);
  await expect(rows.first()).toHaveAttribute('data-open', 'true');
  await expect(importer.summaryBox).toHaveAttribute('data-format', 'perf');
  // a preset change replays the same stored trace
  await views.preset.selectOption('v6.19');
  await app.ready();
  expect((await app.state()).traceName).toBe('perf-script-callchain.txt');
  await importer.storedButton('Delete', 'perf-script-callchain.txt').click();
  await expect(rows).toHaveCount(0);
  await page.reload();
  await app.ready();
  await expect(importer.stored).toHaveCount(0);
  expect((await app.state()).stored).toEqual([]);
});

test('a large log streams in the worker with a progress bar; the page stays responsive', async ({ app, page, importer }) => {
  await app.open();
  // 200k lines (~34 MB) generated in the page
  const out = await page.evaluate(async () => {
    const h = window.__slubviz!;
    const blob = h.synthFtrace(200_000);
    // let the generator's garbage go before watching frames
    await new Promise((r) => setTimeout(r, 1000));
    let gaps = 0;
    let maxGap = 0;
    let last = performance.now();
    let on = true;
    const tick = (t: number) => {
      maxGap = Math.max(maxGap, t - last);
      if (t - last > 200) gaps++;
      last = t;
      if (on) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    const res = await h.act('importFile', blob, 'synth-200k.txt');
    on = false;
    const st = h.state();
    return { size: blob.size, ok: (res as { ok: boolean }).ok, view: st.importView, maxGap, gaps };
  });
  expect(out.ok).toBe(true);
  expect(out.size).toBeGreaterThan(30e6);
  expect(out.view?.format).toBe('ftrace');
  expect(out.view?.events).toBeGreaterThan(180_000);
  // the main thread kept drawing frames while the worker imported
  expect(out.gaps, `max frame gap ${out.maxGap} ms`).toBeLessThan(3);
  await expect(importer.summaryBox).toHaveAttribute('data-ok', 'true');
  // the progress bar was shown with bytes and lines while it ran
  const seen = await page.evaluate(() => window.__slubviz!.state());
  expect(seen.importing).toBeNull();
});

test('cancel a large import', async ({ app, page, importer }) => {
  await app.open();
  // Cancel is pressed on the first progress update (from a frame callback,
  // so a fast machine cannot finish the import first)
  const r = await page.evaluate(async () => {
    const h = window.__slubviz!;
    const blob = h.synthFtrace(400_000);
    let sawBar = false;
    let clicked = false;
    const watch = () => {
      const st = h.state();
      if (st.importing && st.importing.updates > 0 && !clicked) {
        const bar = document.querySelector('[data-testid=import-progress]');
        const btn = [...document.querySelectorAll('button')].find((b) => b.textContent === 'Cancel import');
        sawBar = !!bar && Number(bar.getAttribute('data-lines')) > 0;
        if (btn) {
          btn.click();
          clicked = true;
        }
      }
      if (!clicked) requestAnimationFrame(watch);
    };
    requestAnimationFrame(watch);
    const res = (await h.act('importFile', blob, 'synth-400k.txt')) as { ok: boolean; cancelled?: boolean };
    return { ok: res.ok, cancelled: res.cancelled, sawBar, clicked };
  });
  expect(r).toEqual({ ok: false, cancelled: true, sawBar: true, clicked: true });
  const s = await importer.summary();
  await expect(s).toHaveAttribute('data-cancelled', 'true');
  await expect(importer.progress).toHaveCount(0);
  expect((await app.state()).stored).toEqual([]);
  // the page goes on: the next import works
  await importer.file.setInputFiles(join(DATA, 'bpftrace-oneliner.txt'));
  await expect(s).toHaveAttribute('data-format', 'bpftrace');
});
