// The browser module in two halves (core/wasm/split.mjs: a Release build
// splits slubviz_core.wasm by what the page's first screen runs). The
// deferred half comes either on the first call into it or when prefetched;
// either way the module answers as the native CLI does.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { DeferredHalf, SlubvizSession } from '../core/wasm/slubviz-api.mjs';
import { ROOT, WASM_BINARY, WASM_DEFERRED, describeRun, loadBrowserModule, runNative } from './helpers.mjs';

// classic SLUB (per-CPU slabs): none of it runs on the first screen (basics,
// under the default preset, of the sheaves era)
const CLASSIC = 'scenarios/lesson-classic-paths.trace';

function statsLikeTheCli(mod) {
  const native = runNative(['run', CLASSIC, '--stats-only-raw']);
  expect(native.status, describeRun('native', native)).toBe(0);
  const s = SlubvizSession.open(mod, readFileSync(join(ROOT, CLASSIC), 'utf8'));
  try {
    s.runAll();
    expect(s.statsText()).toBe(native.stdout.toString('utf8'));
  } finally {
    s.close();
  }
}

// the glue's notices around an on-demand load, as the page recognises them
// to keep them off its console (DeferredHalf.isNotice)
const glueNotices = (mod) => mod.printed.filter((l) => DeferredHalf.isNotice(l));

describe('the deferred half of the browser module', () => {
  test('the Release build is split, and a fresh module has not loaded its second half', async () => {
    expect(existsSync(WASM_DEFERRED), `${WASM_DEFERRED} (scripts/build.sh wasm)`).toBe(true);
    const mod = await loadBrowserModule();
    expect(mod.deferred.state).toBe('pending');
  });

  test('loads on the first call into it, and the run matches the native CLI', async () => {
    const mod = await loadBrowserModule();
    statsLikeTheCli(mod);
    expect(mod.deferred.state).toBe('on-demand');
    // Emscripten's glue says when it loads the half, once: the placeholder
    // hit, then the load; both are the page's notices, nothing else is
    expect(glueNotices(mod)).toHaveLength(2);
    expect(glueNotices(mod)[0]).toMatch(/^placeholder function called: \S+$/);
    expect(mod.printed.filter((l) => /deferred|placeholder/.test(l))).toEqual(glueNotices(mod));
  });

  test('prefetched, no call waits for it, and the run matches the native CLI', async () => {
    const mod = await loadBrowserModule();
    await mod.deferred.prefetch();
    expect(mod.deferred.state).toBe('prefetched');
    statsLikeTheCli(mod);
    expect(mod.deferred.state).toBe('prefetched');
    expect(glueNotices(mod)).toHaveLength(0);
  });

  /** What running the classic trace (code in the second half) throws, if anything. */
  const classicRunError = (mod) => {
    try {
      SlubvizSession.open(mod, readFileSync(join(ROOT, CLASSIC), 'utf8')).runAll();
    } catch (e) {
      return e;
    }
    return undefined;
  };

  // (the worker's loop, rpc/server.ts, drops an instance that trapped and
  // the client starts another: the failed call never half-ran silently)
  test('a half that cannot be loaded fails the call as a trap, naming the file', async () => {
    const mod = await loadBrowserModule(() => {
      throw new Error('HTTP 404');
    });
    const err = classicRunError(mod);
    expect(err).toBeInstanceOf(WebAssembly.RuntimeError);
    expect(err.message).toBe('slubviz_core.deferred.wasm could not be loaded: HTTP 404');
    expect(mod.deferred.state).toBe('pending');
  });

  test('a half that does not fit this module (another build) fails the call as a trap too', async () => {
    // the first half's bytes stand for a second half of another build: it
    // compiles, and cannot be instantiated with this module's exports
    const mod = await loadBrowserModule(() => readFileSync(WASM_BINARY));
    const err = classicRunError(mod);
    expect(err).toBeInstanceOf(WebAssembly.RuntimeError);
    expect(err.message).toMatch(/^slubviz_core\.deferred\.wasm could not be loaded: /);
    expect(mod.deferred.state).toBe('pending');
  });
});
