// Schedules in the browser module (docs/trace-format.md §3.1): the race at
// 17c38c88294d (scenarios/race-17c38c88294d.trace, seed 004) reproduces in
// wasm as natively: its explicit schedule stops the run with the
// validator's list_del corruption under v7.0-17c38c88294d and is harmless
// under v6.19 and v7.0+fix1+fix2; a schedule picked through the session's
// settings and CPUs stepped by hand reach the same corruption.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { SlubvizSession } from '../core/wasm/slubviz-api.mjs';
import { ROOT, loadBrowserModule, runNative } from './helpers.mjs';

const RACE = join(ROOT, 'scenarios/race-17c38c88294d.trace');
const text = readFileSync(RACE, 'utf8');
let mod;
beforeAll(async () => {
  mod = await loadBrowserModule();
});

describe('the race at 17c38c88294d in wasm', () => {
  test('the explicit schedule corrupts n->partial under 17c38c88294d only', () => {
    const s = SlubvizSession.open(mod, text, { preset: 'v7.0-17c38c88294d' });
    expect(s.runAll()).toBe(-1);
    expect(s.reports()).toContain('list_del corruption');
    s.close();
    for (const preset of ['v6.19', 'v7.0+fix1+fix2']) {
      const ok = SlubvizSession.open(mod, text, { preset });
      expect(ok.runAll(), preset).toBe(ok.opsTotal());
      expect(ok.validate(), preset).toBe('');
      ok.close();
    }
  });

  test('a random schedule picked in the settings behaves as natively', () => {
    // the first seed the native hunt finds stops the wasm run too
    const hunt = runNative(['hunt', RACE, '--seeds', '100']);
    const seed = /^seed=(\d+) /m.exec(hunt.stdout)?.[1];
    expect(seed, hunt.stdout + hunt.stderr).toBeTruthy();
    const s = SlubvizSession.open(mod, text, { sets: { schedule: `random seed=${seed}` } });
    expect(s.runAll()).toBe(-1);
    expect(s.reports()).toContain('list_del corruption');
    s.close();
  });

  test('stepping CPUs by hand reaches the corruption', () => {
    // serial schedule; CPU 0 to its 64th op's cmpxchg, then CPU 1's free
    const s = SlubvizSession.open(mod, text, { sets: { schedule: 'serial' } });
    expect(s.runToOp(63)).toBe(63);
    let steps = 0;
    while (!/cmpxchg/.test(s.eventsText(s.seq() - 1, 1)) && steps++ < 50) expect(s.stepCpu(0)).toBe(1);
    expect(s.eventsText(s.seq() - 1, 1)).toMatch(/op 63 cpu 0 get_from_partial_node: cmpxchg/);
    let r = 1;
    for (let i = 0; i < 50 && r === 1; i++) r = s.stepCpu(1);
    expect(r).toBe(-1); // the validator runs after every step a caller chose
    expect(s.reports()).toContain('list_del corruption');
    s.close();
  });
});
