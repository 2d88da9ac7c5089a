// Steps chosen by hand (hand.ts) and the engine's replay of them: the race
// at 17c38c88294d driven to its list_del corruption by stepping CPUs, step
// back from the report, seeks and op seeks over hand steps, the pre-pass's
// tail, a re-open from the hand text (share links), and every schedule.
import { beforeAll, describe, expect, test } from 'vitest';
import type { SlubvizModule } from '../../../core/wasm/slubviz-api';
import { Engine } from './engine';
import { encodeHand, handBefore, HandError, HandMap, parseHand, stepsLine } from './hand';
import { loadModule, scenario } from './testing';

describe('hand steps: text form', () => {
  test('encode and parse round-trip, runs anchored at @seq', () => {
    const steps = [
      { seq: 10, cpu: 0 }, { seq: 11, cpu: 0 }, { seq: 12, cpu: 1 },
      { seq: 40, cpu: 2 }, { seq: 41, cpu: 2 }, { seq: 42, cpu: 2 },
      { seq: 100, cpu: 0 },
    ];
    const text = encodeHand(steps);
    expect(text).toBe('@10 c0x2 c1 @40 c2x3 @100 c0');
    expect(parseHand(text)).toEqual(steps);
    expect(parseHand('  @3 1 c1x2 ')).toEqual([{ seq: 3, cpu: 1 }, { seq: 4, cpu: 1 }, { seq: 5, cpu: 1 }]);
    expect(encodeHand([])).toBe('');
    expect(parseHand('')).toEqual([]);
  });

  test('bad texts say why', () => {
    expect(() => parseHand('c0')).toThrow(HandError);
    expect(() => parseHand('c0')).toThrow(/before any @seq/);
    expect(() => parseHand('@5 c0 @5 c1')).toThrow(/not after step 5/);
    expect(() => parseHand('@5 x')).toThrow(/"x" is not a step/);
    expect(() => parseHand('@5 c0x0')).toThrow(/runs no step/);
    expect(() => parseHand('@5 c99999')).toThrow();
    expect(() => parseHand('@1 c0x9999999')).toThrow(/more than/);
  });

  test('handBefore, HandMap lookups, steps lines', () => {
    const steps = parseHand('@10 c0x2 c1 @40 c2');
    expect(handBefore(steps, 12)).toEqual([{ seq: 10, cpu: 0 }, { seq: 11, cpu: 0 }]);
    const m = new HandMap(steps);
    expect(m.at(12)).toBe(1);
    expect(m.at(13)).toBeUndefined();
    expect(m.next(0)).toBe(10);
    expect(m.next(13)).toBe(40);
    expect(m.next(41)).toBeUndefined();
    expect(m.last).toBe(40);
    expect(stepsLine([0, 0, 0, 1, 0, 0])).toBe('c0x3 c1 c0x2');
  });
});

let mod: SlubvizModule;
beforeAll(async () => {
  mod = await loadModule();
});

const RACE = scenario('race-17c38c88294d');
const PRESET = 'v7.0-17c38c88294d';

/** Serial run of the race; CPU 0 by hand up to op 63's cmpxchg, then CPU 1
 * by hand until the run stops (test/sched.test.mjs, by hand). */
function driveRace(e: Engine): { before: string; beforeSeq: number } {
  e.open(RACE, PRESET, 'schedule=serial');
  let f = e.seekOp(63);
  expect(f.opsDone).toBe(63);
  for (let i = 0; i < 50 && f.event?.kind !== 'cmpxchg'; i++) {
    const r = e.stepCpu(0);
    expect(r.refused).toBeNull();
    f = r.frame;
  }
  expect(f.event?.text).toMatch(/op 63 cpu 0 get_from_partial_node: cmpxchg/);
  let before = '';
  let beforeSeq = -1;
  for (let i = 0; i < 50 && !f.stopped; i++) {
    before = JSON.stringify([f.snapshot, f.event, f.recent]);
    beforeSeq = f.seq;
    const r = e.stepCpu(1);
    expect(r.refused).toBeNull();
    f = r.frame;
  }
  expect(f.stopped).toBe(true);
  expect(f.runError).toContain('list_del corruption');
  return { before, beforeSeq };
}

describe('the engine replays hand steps', () => {
  test('stepping CPUs by hand reaches the corruption; step back restores the step before exactly', () => {
    const e = new Engine(mod);
    const { before, beforeSeq } = driveRace(e);
    const end = e.frame();
    // the run's future is the hand step's: it stops there
    expect(e.meta!.seqTotal).toBe(end.seq);
    expect(e.meta!.runError).toContain('list_del corruption');
    expect(e.meta!.handSteps).toBeGreaterThan(5);
    const back = e.seek(end.seq - 1);
    expect(back.seq).toBe(beforeSeq);
    expect(back.stopped).toBe(false);
    expect(JSON.stringify([back.snapshot, back.event, back.recent])).toBe(before);
    // and forward again: the same report
    const again = e.step(1);
    expect(again.stopped).toBe(true);
    expect(JSON.stringify(again.snapshot)).toBe(JSON.stringify(end.snapshot));
    // a far seek back and forward replays the hand steps
    e.seek(0);
    expect(JSON.stringify(e.seek(end.seq).snapshot)).toBe(JSON.stringify(end.snapshot));
    e.close();
  });

  test('re-opening with the hand text reproduces the run (share links)', () => {
    const e = new Engine(mod);
    driveRace(e);
    const end = e.frame();
    const hand = e.handText();
    expect(hand).toMatch(/^@\d+ c0x\d+ c1x\d+$/);
    const g = new Engine(mod);
    const { meta } = g.open(RACE, PRESET, 'schedule=serial', 0, undefined, parseHand(hand));
    expect(meta.seqTotal).toBe(end.seq);
    expect(meta.handDropped).toBe(-1);
    expect(JSON.stringify(g.seek(end.seq).snapshot)).toBe(JSON.stringify(end.snapshot));
    // op seeks over the hand steps stop where svz_run_to_op would
    const f = g.seekOp(63);
    expect(f.opsDone).toBe(63);
    expect(f.inflight).toBe(0);
    expect(g.seekOp(meta.opsTotal).seq).toBe(end.seq);
    e.close();
    g.close();
  });

  test('a hand step replaces the future; forgetting them gives the schedule back', () => {
    const e = new Engine(mod);
    const m0 = e.open(RACE, PRESET, 'schedule=serial').meta;
    expect(m0.runError).toBe('');
    e.seekOp(63);
    const at = e.frame().seq;
    e.stepCpu(0);
    e.stepCpu(0);
    e.seek(at + 1);
    const r = e.stepCpu(1);
    // op 63 is in flight on CPU 0: CPU 1's free of o0 may start
    expect(r.refused).toBeNull();
    expect(r.hand).toBe(`@${at} c0 c1`);
    const c = e.clearHand();
    expect(c.hand).toBe('');
    expect(c.frame.seq).toBe(at);
    expect(c.meta.seqTotal).toBe(m0.seqTotal);
    expect(c.meta.handSteps).toBe(0);
    e.close();
  });

  test('a CPU with nothing it may run is refused, nothing changes', () => {
    const e = new Engine(mod);
    e.open(RACE, PRESET, 'schedule=serial');
    // CPU 1's first op frees o0, which CPU 0's op 0 allocates: it waits
    const r = e.stepCpu(1);
    expect(r.refused).toBe('waits');
    expect(r.frame.seq).toBe(0);
    expect(r.hand).toBe('');
    e.close();
  });

  test('hand steps from a link that cannot run are dropped from there on', () => {
    const e = new Engine(mod);
    const { meta } = e.open(RACE, PRESET, 'schedule=serial', 0, undefined, parseHand('@0 c1 c0'));
    expect(meta.handDropped).toBe(0);
    expect(meta.handSteps).toBe(0);
    expect(meta.runError).toBe('');
    e.close();
  });

  test.each(['round-robin', 'random seed=3', 'timed'])('under %s: lanes carry the window, a hand step replays exactly', (sched) => {
    const e = new Engine(mod);
    e.lanesWindow = 40;
    e.open(RACE, 'v6.19', `schedule=${sched}`);
    let f = e.step(30);
    expect(f.lanes?.length).toBe(30);
    f = e.seekOp(70);
    expect(f.lanes?.length).toBe(40);
    if (sched === 'timed') {
      expect(f.lanes!.every((x) => typeof x.t === 'number' && typeof x.cycles === 'number')).toBe(true);
      // a step runs from t for its cycles: the clock after it
      const last = f.event!;
      expect(last.t! + last.cycles!).toBe(f.snapshot.cpus[last.cpu].clock);
      // and a CPU's next step starts where its last one ended, or later (idle)
      const byCpu = new Map<number, number>();
      for (const x of f.lanes!) {
        const end = byCpu.get(x.cpu);
        if (end !== undefined) expect(x.t!).toBeGreaterThanOrEqual(end);
        byCpu.set(x.cpu, x.t! + x.cycles!);
      }
    } else {
      expect(f.lanes![0].t).toBeUndefined();
      expect(f.snapshot.cpus[0].clock).toBeUndefined();
    }
    // the CPU the schedule would not pick next, by hand
    const at = f.seq;
    const next = e.step(1).event!.cpu;
    e.seek(at);
    const r = e.stepCpu(1 - next);
    expect(r.refused).toBeNull();
    expect(r.frame.event?.cpu).toBe(1 - next);
    f = e.step(5);
    const want = JSON.stringify([f.snapshot, f.lanes]);
    expect(f.lanes!.find((x) => x.seq === at)?.hand).toBe(true);
    e.seek(3);
    expect(JSON.stringify([e.seek(f.seq).snapshot, e.frame().lanes])).toBe(want);
    expect(e.frame().snapshot.config.schedule?.kind).toBe(sched.split(' ')[0]);
    e.close();
  });

  test('the run so far as a steps line replays in the core (schedule explicit)', () => {
    const e = new Engine(mod);
    driveRace(e);
    const end = e.frame();
    const line = e.stepsLine();
    expect(line).toMatch(/^c0x\d+ c1x\d+$/);
    const text = RACE.replace(/^schedule explicit\nsteps .*$/m, `schedule explicit\nsteps ${line}`);
    const g = new Engine(mod);
    const { meta } = g.open(text, PRESET, '');
    expect(meta.seqTotal).toBe(end.seq);
    expect(meta.runError).toContain('list_del corruption');
    e.close();
    g.close();
  });
});
