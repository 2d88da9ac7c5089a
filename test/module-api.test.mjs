// (b) The browser module (build-wasm/slubviz_core.mjs), loaded under Node,
// runs every scenario through the C API and produces the same stats and
// slabinfo text as the native CLI.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { SlubvizError, SlubvizSession } from '../core/wasm/slubviz-api.mjs';
import { ROOT, describeRun, listScenarios, loadBrowserModule, runNative } from './helpers.mjs';

const scenarios = listScenarios();

// API view -> the native CLI flag that prints exactly that text.
const VIEWS = [
  ['svz_stats_text', (s) => s.statsText(), '--stats-only-raw'],
  ['svz_slabinfo', (s) => s.slabinfo(), '--slabinfo-only-raw'],
];

let mod;
beforeAll(async () => {
  mod = await loadBrowserModule();
});

describe('browser module (C API) vs native CLI', () => {
  test('there are scenarios to compare', () => {
    expect(scenarios, 'no scenarios/*.trace: nothing would be compared').not.toHaveLength(0);
  });

  test('exports exactly the allow-list', () => {
    const exported = readExportList();
    for (const name of exported) {
      expect(typeof mod[name], `Module.${name}`).toBe('function');
    }
    for (const name of ['ccall', 'cwrap', 'UTF8ToString', 'stringToUTF8', 'lengthBytesUTF8']) {
      expect(typeof mod[name], `Module.${name}`).toBe('function');
    }
  });

  describe.each(scenarios)('%s', (trace) => {
    // Integers across the boundary, int64_t (BigInt) included: the CLI's
    // first line is 'ops DONE/TOTAL steps SEQ' (svz_ops_done, svz_ops_total,
    // svz_seq).
    test('svz_ops_done / svz_ops_total / svz_seq', () => {
      const native = runNative(['run', trace]);
      const first = native.stdout.toString('utf8').split('\n')[0];
      let session;
      try {
        session = SlubvizSession.open(mod, readFileSync(join(ROOT, trace), 'utf8'));
      } catch (e) {
        if (!(e instanceof SlubvizError)) throw e;
        expect(native.status, describeRun('native', native)).not.toBe(0);
        return;
      }
      try {
        session.runAll();
        expect(typeof mod._svz_seq(session.h)).toBe('bigint');
        expect(`ops ${session.opsDone()}/${session.opsTotal()} steps ${session.seq()}`).toBe(first);
      } finally {
        session.close();
      }
    });

    test.each(VIEWS)('%s', (_name, view, flag) => {
      const text = readFileSync(join(ROOT, trace), 'utf8');
      const native = runNative(['run', trace, flag]);
      expect(native.signal, describeRun('native', native)).toBeNull();

      let session;
      try {
        session = SlubvizSession.open(mod, text);
      } catch (e) {
        if (!(e instanceof SlubvizError)) throw e;
        // The trace does not parse: the CLI must refuse it too.
        expect(native.status, `svz_open failed (${e.message}) but the CLI did not\n` +
          describeRun('native', native)).not.toBe(0);
        return;
      }
      try {
        // -1 (a stopping error, e.g. a double free) still leaves a state to
        // print; the CLI prints it too.
        session.runAll();
        expect(view(session)).toBe(native.stdout.toString('utf8'));
      } finally {
        session.close();
      }
    });
  });
});

function readExportList() {
  return JSON.parse(readFileSync(join(ROOT, 'core/wasm/exported_functions.json'), 'utf8'));
}
