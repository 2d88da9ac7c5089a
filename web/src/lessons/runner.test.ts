// runner.mjs runProbes: states at op starts and ends are read in the run
// that resolves the positions; a second run is opened only for what that
// run cannot read (a position inside an op, an event window), and either
// way a probe sees the state a fresh session has at its step.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { manifest, SlubvizSession, type SlubvizModule } from '../../../core/wasm/slubviz-api';
import { loadModule, ROOT } from '../engine/testing';
import { lessonVocabulary, runner, type Probe } from './format';

let mod: SlubvizModule;
beforeAll(async () => {
  mod = await loadModule();
  lessonVocabulary.useManifest(manifest(mod));
});

const trace = () => readFileSync(join(ROOT, 'scenarios/basics.trace'), 'utf8');

/** runProbes with a counting opener. */
function run(probes: Probe[]) {
  const text = trace();
  let opened = 0;
  const out = runner.runProbes(() => {
    opened++;
    return SlubvizSession.open(mod, text);
  }, probes);
  return { ...out, opened };
}

/** The state a fresh session has after `steps` micro-steps. */
function stateAt(steps: number, need: Probe['need']) {
  const s = SlubvizSession.open(mod, trace());
  try {
    while (s.seq() < steps) expect(s.step()).toBe(1);
    return runner.captureState(s, need);
  } finally {
    s.close();
  }
}

const need = { snapshot: true, stats: true, slabinfo: true, sysfs: ['demo-64'] };

test('op ends and the start: one run, the states a fresh session has there', () => {
  const r = run([
    { id: 'end2', at: { op: 2 }, need },
    { id: 'start', at: { op: -1 }, need: { snapshot: true } },
    { id: 'window', at: { op: 5 }, from: { op: 3 }, need: { snapshot: true, before: true } },
  ]);
  expect(r.opened).toBe(1);
  for (const id of ['end2', 'start', 'window']) {
    const p = r.results.get(id)!;
    expect(p.error).toBeUndefined();
    expect(p.ctx!.after).toEqual(stateAt(p.steps!.at, id === 'end2' ? need : { snapshot: true }));
  }
  const w = r.results.get('window')!;
  expect(w.ctx!.before).toEqual(stateAt(w.steps!.from, { snapshot: true }));
});

test('an event window still gets its second run, with the same states', () => {
  const r = run([
    { id: 'end2', at: { op: 2 }, need },
    { id: 'events', at: { op: 4 }, from: { op: 3 }, need: { snapshot: true }, events: true },
  ]);
  expect(r.opened).toBe(2);
  const e = r.results.get('events')!;
  expect(e.ctx!.events!.length).toBe(e.steps!.at - e.steps!.from);
  expect(r.results.get('end2')!.ctx!.after).toEqual(stateAt(r.results.get('end2')!.steps!.at, need));
});
