// The lesson check (docs/lessons.md): every lesson of lessons/index.json is
// replayed on the browser wasm module under Node, and
//   - its JSON has the required shape (clear messages otherwise);
//   - every stop's position exists and what it highlights is there;
//   - every question's stated answer is what the model does (each choice's
//     check is true exactly for the right choices; a click question accepts
//     the stored answer and rejects other elements);
//   - every claim of the lesson holds, data tables' model cells compute and
//     their seed figures are quoted from the source excerpts kept in
//     lessons/sources.json;
//   - the sandbox's stored solution reaches every goal within the limit and
//     the stored wrong sample does not.
// Plus unit tests of the predicate engine (lessons/engine/predicates.mjs),
// and mutation tests proving that the check fails on wrong lessons.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { SlubvizSession, manifest } from '../core/wasm/slubviz-api.mjs';
import { ROOT, loadBrowserModule } from './helpers.mjs';
import {
  PredicateError, evaluate, explain, matchEvent, parsePageAlloc, parsePath, parseSlabinfo, parseSysfs,
  requirements, snapshotCounters, validatePredicate, value,
} from '../lessons/engine/predicates.mjs';
import { useManifest, vocabulary } from '../lessons/engine/vocabulary.mjs';
import {
  LESSON_FORMAT, checkSandboxLines, clickCandidates, isListId, runConfig, sandboxLines,
  sandboxTrace, setsText, validateIndex, validateLesson,
} from '../lessons/engine/lesson-format.mjs';
import { checkLesson, runSandbox } from '../lessons/engine/check.mjs';
import { captureState, resolvePositions, runProbes } from '../lessons/engine/runner.mjs';

const LESSONS = join(ROOT, 'lessons');
const SOURCES = JSON.parse(readFileSync(join(LESSONS, 'sources.json'), 'utf8'));
const index = JSON.parse(readFileSync(join(LESSONS, 'index.json'), 'utf8'));
const lessons = index.lessons.map((e) => {
  const dir = join(LESSONS, e.id);
  const file = join(dir, 'lesson.json');
  return {
    entry: e,
    dir,
    lesson: existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null,
    prose: existsSync(join(dir, 'lesson.md')) ? readFileSync(join(dir, 'lesson.md'), 'utf8') : null,
  };
});

let mod;
const open = (trace, opts) => SlubvizSession.open(mod, trace, opts);
const readScenario = (file) => readFileSync(join(ROOT, file), 'utf8');
const env = () => ({ open, readScenario, sources: SOURCES });

beforeAll(async () => {
  mod = await loadBrowserModule();
  useManifest(manifest(mod));
});

function failures(items, kind, id) {
  return items.filter((it) => it.kind === kind && (id === undefined || it.id === id) && !it.ok);
}
function describeFailures(list) {
  return list.map((it) => `${it.kind} ${it.id}: ${it.message}`).join('\n');
}

// ---- the predicate engine --------------------------------------------------

// the stats text is read for its page_alloc block only (counters come from
// the snapshot): its SLUB_STATS lines here disagree with SNAP on purpose
const STATS = `cache pair-64
  alloc_fastpath 1 C1=1
  barn_get 999 C3=999
  fp_writes 1
page_alloc
  node0 alloc order0=5 order2=1 free order0=1 failed=0
  node1 alloc order0=2 free failed=1
`;
const SYSFS = `./order:2
./alloc_slowpath:83555260 C0=33 C1=6717992 C43=4
./slabs_cpu_partial:1122(44) C0=51(2) C2=25(1)
./partial:23 N1=10 N5=13
./ctor:
`;
const SLABINFO = `slabinfo - version: 2.1
# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : slabdata <active_slabs> <num_slabs> <sharedavail>
UDPv6                 96     96   1344   24    2 : tunables    0    0    0 : slabdata      4      4      0
request_sock_TCPv6      0      0    312   52    1 : tunables    0    0    0 : slabdata      0      0      0
`;
const SNAP = {
  schema: 1, seq: 10, ops_done: 2, config: { era: 'sheaves' },
  topology: { nodes: [{ id: 0, cpus: [0, 1] }, { id: 1, cpus: [2, 3] }] },
  caches: [
    { id: 0, name: 'pair-64', alive: true, offset: 32, fp_writes: 320, slabs_allocated: 5, slabs_freed: 1,
      stats: { alloc_fastpath: [0, 600, 0, 0], alloc_slowpath: [1, 2, 0, 0], barn_get: [0, 0, 0, 5] },
      nodes: [{ node: 0, partial: [2, 0], full: [], nr_partial: 2,
        counters: { list_lock: 9, list_writes_locked: 52, list_ops_locked: 13, bulk_run_1: 4, bulk_run_2: 1, bulk_run_3: 0, bulk_run_4plus: 0 },
        barn: { id: 0, full: [7], empty: [] } },
      { node: 1, partial: [], full: [], nr_partial: 0,
        counters: { list_lock: 2, list_writes_locked: 8, list_ops_locked: 2, bulk_run_1: 0, bulk_run_2: 0, bulk_run_3: 0, bulk_run_4plus: 0 },
        barn: null }],
      cpus: [{ cpu: 0, main: 7, spare: null }, { cpu: 1, main: 8, spare: 9 }] },
    { id: 1, name: 'other.cache', offset: 0 },
  ],
  sheaves: [
    { id: 7, cache: 0, size: 60, where: 'barn_full', where_id: 0, objects: [1, 2] },
    { id: 8, cache: 0, size: 3, where: 'main', where_id: 1, objects: [5, 4, 3] },
    { id: 9, cache: 0, size: 0, where: 'spare', where_id: 1, objects: [] },
  ],
  slabs: [
    { id: 0, cache: 0, node: 0, objects: 4, inuse: 1, obj0: 0, list: 'partial', freelist: [3, 1, 2], free: [{ obj: 1, raw: 'aa', next: 'bb' }, { obj: 2, raw: 'cc', next: 'cc' }] },
    { id: 2, cache: 0, node: 0, objects: 4, inuse: 4, obj0: 4, list: 'partial', freelist: [], free: [] },
    { id: 3, cache: 1, node: 0, objects: 2, inuse: 0, obj0: 8, list: 'none', freelist: [8, 9], free: [] },
  ],
};
const EVENTS = [
  { seq: 10, op: 2, cpu: 1, fn: 'alloc_from_pcs', kind: 'lock', cache: 0, lock: 'cpu_sheaves_lock', count: 0, value: 0 },
  { seq: 11, op: 2, cpu: 1, fn: 'get_partial_node_bulk', kind: 'move_slab', cache: 0, slab: 2, node: 0, from: 'partial', to: 'private', count: 0, value: 4 },
  { seq: 12, op: 2, cpu: 1, fn: 'barn_replace_empty_sheaf', kind: 'move_sheaf', cache: 0, sheaf: 7, node: 0, from: 'barn_full', to: 'main', count: 0, value: 60 },
  { seq: 13, op: 2, cpu: 1, fn: '__pcs_replace_empty_main', kind: 'stat', cache: 0, stat: 'barn_get', count: 1, value: 1 },
  { seq: 14, op: 2, cpu: 1, fn: 'kmem_cache_alloc', kind: 'return', cache: 0, obj: 5, count: 0, value: 0 },
];
const BEFORE_SNAP = structuredClone(SNAP);
BEFORE_SNAP.caches[0].stats.barn_get = [0, 0, 0, 4];
BEFORE_SNAP.caches[0].fp_writes = 300;
const ctx = (extra = {}) => ({
  after: { snapshot: SNAP, stats: STATS, slabinfo: SLABINFO, sysfs: { 'pair-64': SYSFS } },
  before: { snapshot: BEFORE_SNAP },
  events: EVENTS,
  ...extra,
});

describe('lesson predicates (lessons/engine/predicates.mjs)', () => {
  test('snapshotCounters: SLUB_STATS per CPU, node counters, model counters; parsePageAlloc', () => {
    const s = snapshotCounters(SNAP);
    expect(s['pair-64'].stats.alloc_slowpath).toEqual({ total: 3, cpus: { 0: 1, 1: 2, 2: 0, 3: 0 } });
    expect(s['pair-64'].nodes[0].list_writes_locked).toBe(52);
    expect(s['pair-64'].model).toEqual({ fp_writes: 320, slabs_allocated: 5, slabs_freed: 1 });
    expect(s['other.cache']).toBeDefined();
    const p = parsePageAlloc(STATS);
    expect(p[0]).toEqual({ alloc: { 0: 5, 2: 1 }, free: { 0: 1 }, failed: 0 });
    expect(p[1].failed).toBe(1);
  });

  test('counters come from the snapshot, not the stats text; an era\'s items only; dead caches have none', () => {
    expect(value({ stat: 'barn_get', cache: 'pair-64' }, { after: { snapshot: SNAP } })).toBe(5);
    expect(() => value({ stat: 'barn_get', cache: 'pair-64' }, { after: { stats: STATS } })).toThrow(/no snapshot/);
    // cpu_partial_free is counted in the classic era only (the manifest's eras)
    expect(vocabulary().statEras.get('cpu_partial_free')).toEqual(['classic']);
    const classic = { ...SNAP, config: { era: 'classic' }, caches: [{ ...SNAP.caches[0], stats: { cpu_partial_free: [0, 3, 0, 0] } }] };
    expect(value({ stat: 'cpu_partial_free', cache: 'pair-64' }, { after: { snapshot: classic } })).toBe(3);
    const sheaves = { ...classic, config: { era: 'sheaves' } };
    expect(explain({ stat: 'cpu_partial_free', cache: 'pair-64', op: '>=', value: 0 }, { after: { snapshot: sheaves } }).error)
      .toMatch(/neither a SLUB_STATS item nor a node counter/);
    const dead = { ...SNAP, caches: [{ ...SNAP.caches[0], alive: false }] };
    expect(explain({ stat: 'barn_get', cache: 'pair-64', op: '>=', value: 0 }, { after: { snapshot: dead } }).error).toMatch(/no cache pair-64/);
  });

  test('parseSysfs: totals, C<cpu>= and N<node>= parts, raw text, empty values', () => {
    const s = parseSysfs(SYSFS);
    expect(s.order.total).toBe(2);
    expect(s.alloc_slowpath.cpus).toEqual({ 0: 33, 1: 6717992, 43: 4 });
    expect(s.slabs_cpu_partial).toMatchObject({ total: 1122, raw: '1122(44) C0=51(2) C2=25(1)', cpus: { 0: 51, 2: 25 } });
    expect(s.partial.nodes).toEqual({ 1: 10, 5: 13 });
    expect(s.ctor).toMatchObject({ raw: '', total: null });
  });

  test('parseSlabinfo: every column by name, long cache names', () => {
    const s = parseSlabinfo(SLABINFO);
    expect(s.UDPv6).toMatchObject({ active_objs: 96, num_objs: 96, objsize: 1344, objperslab: 24, pagesperslab: 2, active_slabs: 4, num_slabs: 4, sharedavail: 0 });
    expect(s.request_sock_TCPv6.objperslab).toBe(52);
  });

  test('stat, sysfs, slabinfo and page_alloc leaves', () => {
    const c = ctx();
    expect(evaluate({ stat: 'barn_get', cache: 'pair-64', cpu: 3, op: '>=', value: 1 }, c)).toBe(true);
    expect(evaluate({ stat: 'barn_get', cache: 'pair-64', cpu: 2, op: '>=', value: 1 }, c)).toBe(false);
    expect(value({ stat: 'list_writes_locked', cache: 'pair-64' }, c)).toBe(60);
    expect(value({ stat: 'list_writes_locked', cache: 'pair-64', node: 1 }, c)).toBe(8);
    expect(value({ stat: 'fp_writes', cache: 'pair-64' }, c)).toBe(320);
    expect(value({ sysfs: 'alloc_slowpath', cache: 'pair-64', cpu: 1 }, c)).toBe(6717992);
    expect(value({ sysfs: 'slabs_cpu_partial', cache: 'pair-64', raw: true }, c)).toBe('1122(44) C0=51(2) C2=25(1)');
    expect(evaluate({ slabinfo: 'num_slabs', cache: 'UDPv6', op: '==', value: 4 }, c)).toBe(true);
    expect(value({ page_alloc: 'alloc', order: 0 }, c)).toBe(7);
    expect(value({ page_alloc: 'alloc', node: 0 }, c)).toBe(6);
    expect(value({ page_alloc: 'failed' }, c)).toBe(1);
  });

  test('delta, sum, diff, ratio, times and value expressions on the right-hand side', () => {
    const c = ctx();
    expect(value({ stat: 'barn_get', cache: 'pair-64', delta: true }, c)).toBe(1);
    expect(value({ stat: 'fp_writes', cache: 'pair-64', delta: true }, c)).toBe(20);
    expect(value({ sum: [{ const: 2 }, { stat: 'alloc_slowpath', cache: 'pair-64' }] }, c)).toBe(5);
    expect(value({ diff: [{ const: 10 }, { const: 4 }] }, c)).toBe(6);
    expect(value({ ratio: [{ const: 1 }, { const: 4 }] }, c)).toBe(0.25);
    expect(value({ ratio: [{ const: 0 }, { const: 0 }] }, c)).toBe(0);
    expect(value({ times: [{ ratio: [{ const: 1 }, { const: 8 }] }, 1000] }, c)).toBe(125);
    expect(evaluate({ stat: 'alloc_slowpath', cache: 'pair-64', op: '==', value: { stat: 'alloc_slowpath', cache: 'pair-64', cpu: 0, state: 'after' } }, c)).toBe(false);
    expect(evaluate({ stat: 'alloc_slowpath', cache: 'pair-64', op: 'between', value: [3, 3] }, c)).toBe(true);
    expect(evaluate({ stat: 'alloc_slowpath', cache: 'pair-64', op: 'in', value: [1, 3] }, c)).toBe(true);
    expect(evaluate({ stat: 'alloc_slowpath', cache: 'pair-64', op: 'not_in', value: [1, 3] }, c)).toBe(false);
  });

  test('snapshot paths: fields, [N], [-1], [k=v], [?k=v] filters, mapping over arrays, @functions, pseudo-roots', () => {
    const c = ctx();
    expect(value({ snap: 'caches[name=pair-64].nodes[node=0].partial@length' }, c)).toBe(2);
    expect(value({ snap: 'cache(pair-64).nodes[0].barn.full' }, c)).toEqual([7]);
    expect(value({ snap: 'cache(other.cache).offset' }, c)).toBe(0);
    expect(value({ snap: 'slabs(pair-64)@length' }, c)).toBe(2);
    expect(value({ snap: 'slabs(pair-64).inuse@sum' }, c)).toBe(5);
    expect(value({ snap: 'slabs[id=0].freelist@sorted' }, c)).toBe(false);
    expect(value({ snap: 'slabs[id=3].freelist@sorted' }, c)).toBe(true);
    expect(value({ snap: 'slabs[0].free[-1].obj' }, c)).toBe(2);
    expect(value({ snap: 'sheaves[?where=main][?where_id=1][0].size' }, c)).toBe(3);
    expect(value({ snap: 'sheaves[?where!=barn_full]@length' }, c)).toBe(2);
    expect(value({ snap: 'sheaves.size@max' }, c)).toBe(60);
    expect(value({ snap: 'sheaves.where@distinct' }, c)).toBe(3);
    expect(value({ snap: 'slabs[id=0].freelist@first' }, c)).toBe(3);
    expect(evaluate({ snap: 'slabs[id=0].free.obj', op: 'contains', value: 2 }, c)).toBe(true);
    expect(evaluate({ snap: 'slabs[id=0].free[obj=1].raw', op: '!=', value: { snap: 'slabs[id=0].free[obj=1].next' } }, c)).toBe(true);
    expect(evaluate({ snap: 'slabs[id=0].free[obj=2].raw', op: '==', value: { snap: 'slabs[id=0].free[obj=2].next' } }, c)).toBe(true);
    expect(evaluate({ snap: 'slabs[id=$target].list', op: '==', value: 'partial' }, ctx({ target: 2 }))).toBe(true);
    expect(() => value({ snap: 'slabs[id=42].list' }, c)).toThrow(/no element with id=42/);
    expect(() => value({ snap: 'cache(nope).offset' }, c)).toThrow(/no cache named nope/);
    expect(() => parsePath('slabs[id=1')).toThrow(/unclosed/);
    expect(() => parsePath('slabs@median')).toThrow(/unknown function @median/);
  });

  test('events: match fields, comparisons, one-of lists, cache names, from_list/to_list, counts, next/is, $target', () => {
    const c = ctx();
    expect(evaluate({ event: { kind: 'move_sheaf', from: 'barn_full', to: 'main', cpu: 1 } }, c)).toBe(true);
    expect(evaluate({ event: { kind: 'move_sheaf', cpu: 3 } }, c)).toBe(false);
    expect(evaluate({ event: { kind: 'move_sheaf', cache: 'pair-64' } }, c)).toBe(true);
    expect(evaluate({ event: { kind: 'move_sheaf', cache: 'other.cache' } }, c)).toBe(false);
    expect(evaluate({ event: { kind: ['lock', 'unlock'] }, op: '==', value: 1 }, c)).toBe(true);
    expect(evaluate({ event: { kind: 'stat', value: { op: '>=', value: 1 } } }, c)).toBe(true);
    expect(evaluate({ event: { kind: 'lock', lock: 'list_lock' }, op: '==', value: 0 }, c)).toBe(true);
    expect(value({ events: { op: 2 } }, c)).toBe(5);
    expect(matchEvent(EVENTS[1], { from_list: 'partial:0', to_list: 'private' })).toBe(true);
    expect(matchEvent(EVENTS[2], { to_list: 'main:1', from_list: 'barn_full:0' })).toBe(true);
    expect(evaluate({ next: { kind: 'return' }, is: { obj: 5 } }, c)).toBe(true);
    expect(evaluate({ next: { kind: 'return' }, is: { obj: '$target' } }, ctx({ target: 5 }))).toBe(true);
    expect(evaluate({ next: { kind: 'return' }, is: { obj: '$target' } }, ctx({ target: 4 }))).toBe(false);
    expect(evaluate({ next: { kind: 'move_slab' }, is: { from_list: '$target' } }, ctx({ target: 'partial:0' }))).toBe(true);
    expect(evaluate({ next: { kind: 'discard_slab' }, is: { slab: 0 } }, c)).toBe(false);
    expect(value({ next: { kind: 'move_sheaf' }, field: 'sheaf' }, c)).toBe(7);
    expect(() => evaluate({ event: { colour: 'red' } }, c)).toThrow(/unknown field "colour"/);
    expect(() => evaluate({ event: { kind: 'lock' } }, { after: {} })).toThrow(PredicateError);
  });

  test('combinators and errors are explained, not thrown, by explain()', () => {
    const c = ctx();
    expect(evaluate({ all: [true, { not: false }, { any: [false, true] }] }, c)).toBe(true);
    expect(explain({ stat: 'barn_get', cache: 'pair-64', op: '>', value: 9 }, c)).toEqual({ ok: false, value: 5 });
    expect(explain({ stat: 'barn_get', cache: 'missing', op: '>', value: 0 }, c).error).toMatch(/no cache missing/);
    expect(explain({ stat: 'no_such_item', cache: 'pair-64', op: '>', value: 0 }, c).error).toMatch(/neither a SLUB_STATS item nor a node counter/);
    expect(explain({ stat: 'barn_get', cache: 'pair-64', state: 'before', op: '==', value: 4 }, c)).toMatchObject({ ok: true });
  });

  test('validatePredicate reports malformed predicates with their place', () => {
    expect(validatePredicate({ stat: 'alloc_slowpath', cache: 'c', op: '>=', value: 1 })).toEqual([]);
    expect(validatePredicate({ stat: 'list_lock', cache: 'c', op: '>=', value: 1 })).toEqual([]);
    expect(validatePredicate({ stat: 'x', cache: 'c', op: '>=', value: 1 }).join()).toMatch(/unknown counter "x"/);
    expect(validatePredicate({ stat: 'alloc_slowpath', op: '>=', value: 1 }, 'q')).toEqual(['q: stat needs "cache": a cache name']);
    expect(validatePredicate({ stat: 'alloc_slowpath', cache: 'c', op: '=~', value: 1 }).join()).toMatch(/unknown comparison "=~"/);
    expect(validatePredicate({ stat: 'alloc_slowpath', cache: 'c', op: '==' }).join()).toMatch(/"op" needs a "value"/);
    expect(validatePredicate({ event: { kind: 'move_slab', fn: 'deactivate_slab' } })).toEqual([]);
    expect(validatePredicate({ event: { kind: ['lock', 'teleport'] } }).join()).toMatch(/unknown event kind "teleport"/);
    expect(validatePredicate({ event: { fn: 'slab_alloc_magic' } }).join()).toMatch(/unknown kernel function "slab_alloc_magic"/);
    expect(validatePredicate({ all: [] }).join()).toMatch(/"all" needs a non-empty array/);
    expect(validatePredicate({ event: { kind: 'x', colour: 1 } }).join()).toMatch(/unknown event field "colour"/);
    expect(validatePredicate({ snap: 'slabs[' }).join()).toMatch(/unclosed/);
    expect(validatePredicate({ slabinfo: 'colour', cache: 'c' }).join()).toMatch(/unknown slabinfo column/);
    expect(validatePredicate({ frobnicate: 1 }).join()).toMatch(/unknown predicate/);
    expect(validatePredicate({ ratio: [{ const: 1 }] }).join()).toMatch(/ratio needs two values/);
  });

  test('requirements() says what to fetch', () => {
    const r = requirements({ all: [
      { stat: 'barn_get', cache: 'a', delta: true, op: '>=', value: 1 },
      { sysfs: 'order', cache: 'b', op: '==', value: 2 },
      { next: { kind: 'return' }, is: { obj: '$target' } },
      { slabinfo: 'num_objs', cache: 'c', op: '>', value: 0 },
    ] });
    expect(r).toMatchObject({ stats: true, before: true, sysfs: ['b'], events: true, snapshot: true, slabinfo: true, target: true });
    expect(requirements({ snap: 'slabs@length', op: '==', value: 0 })).toMatchObject({ snapshot: true, events: false, stats: false });
    // counters are read from the snapshot; only page_alloc needs the stats text
    expect(requirements({ stat: 'barn_get', cache: 'a', op: '>', value: 0 })).toMatchObject({ snapshot: true, stats: true, pageAlloc: false });
    expect(requirements({ page_alloc: 'alloc', op: '>', value: 0 })).toMatchObject({ snapshot: false, pageAlloc: true });
  });

  test('the parsers read what the C API really prints (basics.trace, both eras)', () => {
    for (const preset of ['v7.0+fix1+fix2', 'v6.19']) {
      const s = open(readScenario('scenarios/basics.trace'), { preset });
      try {
        s.runAll();
        const snap = s.snapshot();
        const c = { after: { snapshot: snap, stats: s.statsText(), slabinfo: s.slabinfo(), sysfs: { 'demo-64': s.sysfs('demo-64') } } };
        const cache = snap.caches.find((x) => x.name === 'demo-64');
        for (const item of ['alloc_fastpath', 'free_fastpath', 'alloc_slab']) {
          const fromSnap = cache.stats[item].reduce((a, b) => a + b, 0);
          expect(value({ stat: item, cache: 'demo-64' }, c), `${preset} ${item}`).toBe(fromSnap);
          expect(value({ sysfs: item, cache: 'demo-64' }, c), `${preset} ${item}`).toBe(fromSnap);
        }
        expect(value({ sysfs: 'objs_per_slab', cache: 'demo-64' }, c)).toBe(cache.objects);
        expect(value({ slabinfo: 'objperslab', cache: 'demo-64' }, c)).toBe(cache.objects);
        expect(value({ stat: 'fp_writes', cache: 'demo-64' }, c)).toBe(cache.fp_writes);
        expect(value({ stat: 'list_lock', cache: 'demo-64', node: 0 }, c)).toBe(cache.nodes[0].counters.list_lock);
      } finally {
        s.close();
      }
    }
  });
});

// ---- positions and the runner ------------------------------------------------

describe('lesson positions (lessons/engine/runner.mjs)', () => {
  test('op, op + event, seq and end positions resolve to step counts; bad ones are refused', () => {
    const text = readScenario('scenarios/basics.trace');
    const s = open(text, {});
    let res;
    try {
      res = resolvePositions(s, [{ op: -1 }, { op: 0 }, { op: 0, event: { kind: 'new_slab' } }, { op: 1, event: { kind: 'stat' }, nth: 0 }, { seq: 5 }, { end: true }]);
    } finally {
      s.close();
    }
    const at = (p) => res.steps.get(JSON.stringify(p));
    expect(at({ op: -1 })).toBe(0);
    expect(at({ op: 0, event: { kind: 'new_slab' } })).toBeLessThan(at({ op: 0 }));
    expect(at({ op: 1, event: { kind: 'stat' }, nth: 0 })).toBeGreaterThan(at({ op: 0 }));
    expect(at({ seq: 5 })).toBe(6);
    expect(at({ end: true })).toBe(res.stepsTotal);
    for (const bad of [{ op: 14 }, { seq: 10_000 }, { op: 0, event: { kind: 'report' } }]) {
      const t = open(text, {});
      try {
        expect(() => resolvePositions(t, [bad])).toThrow();
      } finally {
        t.close();
      }
    }
  });

  test('probes capture the state at a position, the state before, and the events between', () => {
    const text = readScenario('scenarios/basics.trace');
    const out = runProbes(() => open(text, {}), [
      { id: 'a', at: { op: 1 }, from: { op: 0 }, need: { snapshot: true, stats: true, before: true }, events: true },
      { id: 'b', at: { op: 0, event: { kind: 'new_slab' } }, need: { snapshot: true } },
      { id: 'c', at: { op: 99 }, need: { snapshot: true } },
    ]);
    const a = out.results.get('a');
    expect(a.ctx.events.every((e) => e.op === 1)).toBe(true);
    expect(evaluate({ stat: 'alloc_fastpath', cache: 'demo-64', delta: true, op: '==', value: 1 }, a.ctx)).toBe(true);
    const b = out.results.get('b');
    expect(JSON.parse(b.ctx.after.snapshot).slabs).toHaveLength(1);
    expect(out.results.get('c').error).toMatch(/has 14 ops/);
  });
});

// ---- the lesson files ------------------------------------------------------

describe('the lesson checker reads the core\'s names (its manifest)', () => {
  test('sandbox ops are the parser\'s ops, and only those', () => {
    const m = manifest(mod);
    const sb = { limit: { ops: 100 } };
    // every op the parser takes (svz_op_name via the manifest) passes the
    // checker's one-op-per-line rule; a word that is no op does not
    expect(vocabulary().ops).toEqual(m.ops);
    for (const op of m.ops) expect(checkSandboxLines(sb, [`c0 ${op} x y`]), op).toEqual([]);
    expect(checkSandboxLines(sb, ['c0 teleport x y']).join()).toMatch(/expected one op/);
    // and the parser really knows them: an op outside the list is refused by svz_open too
    expect(() => open('slubviz-trace 1\ncache x 64\nc0 teleport x h\n', {})).toThrow();
  });

  test('presets, setting keys and the event ring are the manifest\'s', () => {
    const m = manifest(mod);
    const l = structuredClone(lessons[0].lesson);
    expect(validateLesson(l, lessons[0].entry)).toEqual([]);
    for (const p of m.presets) expect(validateLesson({ ...l, preset: p.name }, lessons[0].entry), p.name).toEqual([]);
    expect(validateLesson({ ...l, preset: 'v9.99' }, lessons[0].entry).join()).toMatch(/unknown preset "v9.99"/);
    for (const sw of m.switches) for (const k of [sw.name, ...sw.aliases]) expect(validateLesson({ ...l, sets: { [k]: 1 } }, lessons[0].entry).join(), k).not.toMatch(/unknown setting key/);
    expect(validateLesson({ ...l, sets: { colour: 1 } }, lessons[0].entry).join()).toMatch(/unknown setting key "colour"/);
    expect(vocabulary().eventRing).toBe(m.limits.event_ring);
    expect(vocabulary().nodeCounters).toEqual(m.node_counters);
  });
});

describe('lesson files', () => {
  test('lessons/index.json has the format-1 shape', () => {
    expect(validateIndex(index)).toEqual([]);
    expect(index.format).toBe(LESSON_FORMAT);
    expect(index.lessons.length).toBe(9);
  });

  test('every lessons/<id>/ is in the index, and every index entry has a lesson.json and a lesson.md', () => {
    const dirs = readdirSync(LESSONS, { withFileTypes: true }).filter((d) => d.isDirectory() && d.name !== 'engine').map((d) => d.name).sort();
    expect(dirs).toEqual(index.lessons.map((l) => l.id).sort());
    for (const l of lessons) {
      expect(l.lesson, `${l.entry.id}/lesson.json`).not.toBeNull();
      expect(l.prose, `${l.entry.id}/lesson.md`).not.toBeNull();
    }
  });

  test('docs/lessons.md documents format 1 and lists every lesson\'s stops and questions', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'lessons.md'), 'utf8');
    expect(doc).toMatch(/^# Lessons \(format 1\)/);
    for (const l of lessons) {
      const start = doc.indexOf(`### ${l.entry.id}:`);
      expect(start, `docs/lessons.md has no section ### ${l.entry.id}:`).toBeGreaterThan(0);
      const next = doc.indexOf('\n### ', start + 1);
      const section = doc.slice(start, next < 0 ? undefined : next);
      for (const x of [...l.lesson.stops, ...l.lesson.questions]) expect(section, `${l.entry.id}: ${x.id} not listed`).toContain('`' + x.id + '`');
    }
  });

  test('the shape validator rejects broken lessons with clear messages', () => {
    const good = lessons[0].lesson;
    const broken = structuredClone(good);
    delete broken.sandbox.solution;
    broken.stops[0].focus = ['everything'];
    broken.questions[0].answer = 'nope';
    broken.questions[3].target = 'pixel';
    broken.stops[1].at = { op: 'x' };
    broken.claims[0].check = { stat: 'alloc_slowpath', op: '>', value: 0 };
    const errs = validateLesson(broken).join('\n');
    expect(errs).toMatch(/sandbox: "solution" must be a non-empty array of op lines/);
    expect(errs).toMatch(/stops\[0\] \(start\): unknown view "everything"/);
    expect(errs).toMatch(/questions\[0\] \(q-active-first\): "answer" must name choice id\(s\)/);
    expect(errs).toMatch(/questions\[3\] \(q-flush-slab\): "target" must be one of/);
    expect(errs).toMatch(/stops\[1\] \(new-slab\)\.at: "op" must be an integer >= -1/);
    expect(errs).toMatch(/claims\[0\] \(pi-raw\)\.check: stat needs "cache"/);
    expect(validateIndex({ format: 1, lessons: [{ id: 'b', title: 't', summary: 's', prerequisites: ['a'], seeds: ['x.txt'] }] }).join('\n'))
      .toMatch(/prerequisite a must be a lesson listed before it[\s\S]*is not a seed file name/);
  });

  test('sandbox helpers: lines, limit, allowed ops and CPUs, trace assembly', () => {
    const sb = { limit: { ops: 2 }, allow: { ops: ['alloc', 'free'], cpus: [0, 1] } };
    expect(sandboxLines('c0 alloc x a # first\n\n  c1 free x a\n')).toEqual(['c0 alloc x a', 'c1 free x a']);
    expect(checkSandboxLines(sb, ['c0 alloc x a', 'c1 free x a'])).toEqual([]);
    expect(checkSandboxLines(sb, ['c0 alloc x a', 'c0 alloc x b', 'c0 alloc x c']).join()).toMatch(/3 ops, the limit is 2/);
    expect(checkSandboxLines(sb, ['c2 alloc x a']).join()).toMatch(/CPU 2 is not allowed/);
    expect(checkSandboxLines(sb, ['c0 shrink x']).join()).toMatch(/op shrink is not allowed/);
    expect(checkSandboxLines(sb, ['cache y size=8']).join()).toMatch(/expected one op/);
    expect(checkSandboxLines(sb, ['c0 alloc x a{$i}']).join()).toMatch(/templates/);
    expect(sandboxTrace('slubviz-trace 1', ['c0 alloc x a'])).toBe('slubviz-trace 1\nc0 alloc x a\n');
    expect(setsText({ online: 1, present: 1 })).toBe('online=1\npresent=1');
    expect(isListId('barn_full:3')).toBe(true);
    expect(isListId('barn:3')).toBe(false);
  });
});

// ---- every lesson, replayed ------------------------------------------------

describe.each(lessons.map((l) => [l.entry.id, l]))('lesson %s', (id, L) => {
  let report = null;
  const lesson = L.lesson;

  beforeAll(() => {
    report = checkLesson(lesson, { ...env(), prose: L.prose });
  }, 5 * 60 * 1000);

  test('lesson.json has the format-1 shape and matches its index entry', () => {
    expect(validateLesson(lesson, L.entry)).toEqual([]);
    expect(lesson.title).toBe(L.entry.title);
    if (L.entry.preset) expect(lesson.preset).toBe(L.entry.preset);
    for (const v of [undefined, ...(lesson.variants || []).map((x) => x.id)]) expect(() => runConfig(lesson, v)).not.toThrow();
  });

  test('lesson.md is Markdown without raw HTML, and cites its seeds and commits', () => {
    expect(L.prose.trim().length).toBeGreaterThan(500);
    const outsideCode = L.prose.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
    expect(outsideCode, 'raw HTML tags in lesson.md').not.toMatch(/<\/?[a-zA-Z][^>]*>/);
    expect(failures(report.items, 'source', 'prose-cites'), describeFailures(failures(report.items, 'source', 'prose-cites'))).toEqual([]);
  });

  test('the lesson runs stop on a report only where expect_report says', () => {
    const f = failures(report.items, 'run');
    expect(f, describeFailures(f)).toEqual([]);
  });

  test.each(lesson.stops.map((s) => [s.id]))('stop %s: the position exists and its highlights are there', (sid) => {
    const f = failures(report.items, 'stop', sid);
    expect(f, describeFailures(f)).toEqual([]);
    expect(report.items.some((it) => it.kind === 'stop' && it.id === sid)).toBe(true);
  });

  test.each(lesson.questions.map((q) => [q.id, q.kind]))('question %s (%s): the stated answer is what the model does, a wrong answer is rejected', (qid) => {
    const f = failures(report.items, 'question', qid);
    expect(f, describeFailures(f)).toEqual([]);
    expect(report.items.some((it) => it.kind === 'question' && it.id === qid)).toBe(true);
  });

  test.each((lesson.claims || []).map((c) => [c.id]))('claim %s holds', (cid) => {
    const f = failures(report.items, 'claim', cid);
    expect(f, describeFailures(f)).toEqual([]);
    expect(report.items.some((it) => it.kind === 'claim' && it.id === cid)).toBe(true);
  });

  test('data tables: every model cell computes', () => {
    const f = failures(report.items, 'data');
    expect(f, describeFailures(f)).toEqual([]);
    for (const t of lesson.data?.tables || []) {
      for (const m of t.model || []) expect(report.values, `${t.id} row ${m.row} ${m.column}`).toHaveProperty([`${t.id}:${m.row}:${m.column}`]);
    }
  });

  test('seed figures are quoted from the source excerpts, in_seed commits are named by them', () => {
    const f = report.items.filter((it) => it.kind === 'source' && it.id !== 'prose-cites' && !it.ok);
    expect(f, describeFailures(f)).toEqual([]);
  });

  test('sandbox: the stored solution reaches every goal within the limit', () => {
    const f = failures(report.items, 'sandbox', 'solution');
    expect(f, describeFailures(f)).toEqual([]);
  });

  test('sandbox: the stored wrong sample is rejected', () => {
    const f = failures(report.items, 'sandbox', 'wrong');
    expect(f, describeFailures(f)).toEqual([]);
  });
});

// ---- the check can fail --------------------------------------------------------

describe('the lesson check rejects wrong lessons', () => {
  const base = () => structuredClone(lessons.find((l) => l.entry.id === '05-sheaves').lesson);
  const bad = (lesson) => checkLesson(lesson, env()).items.filter((it) => !it.ok);

  test('a choice marked right that the model does not do', () => {
    const l = base();
    l.questions[0].answer = 'barn';
    const f = bad(l);
    expect(f.map((x) => x.id)).toContain('q-first-source');
    expect(describeFailures(f)).toMatch(/choice barn .* is marked right but its check is false/);
  });

  test('a click answer the model does not do, and a check that accepts any click', () => {
    const l = base();
    l.questions.find((q) => q.id === 'q-barn-get').answer = 2;
    const q = l.questions.find((x) => x.id === 'q-refill-list');
    q.check = { event: { kind: 'move_slab' } };
    const msg = describeFailures(bad(l));
    expect(msg).toMatch(/q-barn-get: the check rejects the stored answer 2/);
    expect(msg).toMatch(/q-refill-list: the check accepts every list/);
  });

  test('a stop past the end, a missing highlight, a false claim', () => {
    const l = base();
    l.stops[1].at = { op: 5000 };
    l.stops[2].highlight.push({ sheaf: 999 });
    l.claims[0].check.all[0].value = 601;
    const msg = describeFailures(bad(l));
    expect(msg).toMatch(/stop first-refill: .*the trace has 1200 ops/);
    expect(msg).toMatch(/stop fast: .*sheaf 999 is not live/);
    expect(msg).toMatch(/claim all-fast: false/);
  });

  test('a sandbox whose goals accept the wrong sample, or whose solution breaks the limit', () => {
    const l = base();
    l.sandbox.wrong = l.sandbox.solution.slice();
    l.sandbox.limit.ops = 1;
    const msg = describeFailures(bad(l));
    expect(msg).toMatch(/sandbox solution: 2 ops, the limit is 1/);
    const l2 = base();
    l2.sandbox.wrong = l2.sandbox.solution.slice();
    expect(describeFailures(bad(l2))).toMatch(/sandbox wrong: the wrong sample reaches every goal/);
  });

  test('a seed figure that is not in the source, an in_seed commit it does not name, an uncited source', () => {
    const six = () => structuredClone(lessons.find((l) => l.entry.id === '06-sheaves-regression'));
    const L = six();
    const t = L.lesson.data.tables.find((x) => x.id === 'v619-counters');
    t.evidence[0] = t.evidence[0].replace(/:(\d)/, ':9$1'); // one digit more than the dump
    L.lesson.commits.find((c) => !c.in_seed).in_seed = true;
    const msg = describeFailures(checkLesson(L.lesson, env()).items.filter((it) => it.kind === 'source' && !it.ok));
    expect(msg).toMatch(/table-v619-counters: not in the excerpts of 004_1b4526f30475b866\.txt/);
    expect(msg).toMatch(/commit-[0-9a-f]{12}: commit .* is marked in_seed but no excerpt/);
    const L2 = six();
    const prose = L2.prose.replaceAll('severe performance regression', 'a regression');
    const cites = checkLesson(L2.lesson, { ...env(), prose }).items.filter((it) => it.id === 'prose-cites' && !it.ok);
    expect(describeFailures(cites)).toMatch(/does not cite the title of 004_1b4526f30475b866\.txt/);
  });

  test('runSandbox grades a student attempt goal by goal', () => {
    const l = base();
    const ok = runSandbox(l, ['c1 free pair-64 o[120]', 'c3 alloc pair-64 y'], env());
    expect(ok.ok).toBe(true);
    const half = runSandbox(l, ['c3 alloc pair-64 y'], env());
    expect(half.ok).toBe(false);
    expect(half.goals.find((g) => g.id === 'g-barn-get-cpu3').ok).toBe(false);
    expect(half.goals.find((g) => g.id === 'g-no-list-lock').ok).toBe(false);
    const broken = runSandbox(l, ['c3 free pair-64 nobody'], env());
    expect(broken.ok).toBe(false);
    expect(broken.errors.join()).toMatch(/the run stopped/);
  });

  test('click candidates follow the era and the cache', () => {
    const s = open(readScenario('scenarios/sheaf-cycle.trace'), {});
    try {
      s.runToOp(300);
      const snap = s.snapshot();
      expect(clickCandidates(snap, 'list', 'pair-64')).toEqual(['partial:0', 'full:0', 'barn_full:0', 'barn_empty:0', 'main:0', 'spare:0', 'main:1', 'spare:1']);
      expect(clickCandidates(snap, 'cpu')).toEqual([0, 1]);
      expect(clickCandidates(snap, 'sheaf', 'pair-64').length).toBe(snap.sheaves.length);
    } finally {
      s.close();
    }
  });
});

// ---- issue 11: schedules in the sandbox, the profile and the run's report ----

describe('sandbox steps (allow.steps) and expect_report', () => {
  const sb = { limit: { ops: 0, steps: 4 }, allow: { steps: true, cpus: [0, 1] } };

  test('steps lines are checked token by token, with the student\'s line numbers', () => {
    expect(checkSandboxLines(sb, ['steps c0/63 c0x6 c1/'])).toEqual([]);
    expect(checkSandboxLines(sb, ['steps c0 1 c1:cmpxchg c0/2'])).toEqual([]);
    expect(checkSandboxLines(sb, ['steps c0/ c0 c1', 'steps c1 c0']).join()).toMatch(/5 steps, the limit is 4/);
    expect(checkSandboxLines(sb, ['steps c0/', 'steps c2']).join()).toMatch(/line 2: CPU 2 is not allowed here/);
    expect(checkSandboxLines(sb, ['steps c0y3']).join()).toMatch(/line 1: expected a step like c0 .* got "c0y3"/);
    expect(checkSandboxLines(sb, ['steps c0:nonsense']).join()).toMatch(/line 1: step c0:nonsense: unknown event kind "nonsense"/);
    expect(checkSandboxLines(sb, ['steps']).join()).toMatch(/line 1: expected CPU steps/);
    // ops count against limit.ops, not steps; without allow.steps a steps line is no op
    expect(checkSandboxLines(sb, ['c0 alloc x a']).join()).toMatch(/1 ops, the limit is 0/);
    expect(checkSandboxLines({ limit: { ops: 2 } }, ['steps c0']).join()).toMatch(/line 1: expected one op/);
  });

  test('sandboxTrace puts steps after the schedule line and ops at the end', () => {
    const base = 'slubviz-trace 1\nschedule explicit\nc0 alloc x a\n';
    expect(sandboxTrace(base, ['steps c0', 'c1 free x a', 'steps c1'])).toBe(
      'slubviz-trace 1\nschedule explicit\nsteps c0\nsteps c1\nc0 alloc x a\nc1 free x a\n');
    expect(() => sandboxTrace('slubviz-trace 1\nc0 alloc x a\n', ['steps c0'])).toThrow(/no "schedule" line/);
  });

  test('the shape validator knows limit.steps, allow.steps and expect_report', () => {
    const l = structuredClone(lessons.find((x) => x.entry.id === '09-bisection-crash').lesson);
    expect(validateLesson(l)).toEqual([]);
    l.sandbox.allow.steps = 'yes';
    l.sandbox.expect_report = 1;
    l.expect_report = 'true';
    l.variants[0].expect_report = 0;
    const errs = validateLesson(l).join('\n');
    expect(errs).toMatch(/allow.steps must be true or false/);
    expect(errs).toMatch(/limit.steps needs "allow": \{"steps": true\}/);
    expect(errs).toMatch(/sandbox: "expect_report" must be true or false/);
    expect(errs).toMatch(/09-bisection-crash: "expect_report" must be true or false/);
    expect(errs).toMatch(/variants\[0\]: "expect_report" must be true or false/);
  });

  test('lesson 9\'s sandbox: the schedule decides; a bad step names the student\'s line', () => {
    const l = lessons.find((x) => x.entry.id === '09-bisection-crash').lesson;
    // CPU 1 frees o0 while CPU 0 holds list_lock with S full and still listed
    const hit = runSandbox(l, ['steps c0/63 c0:cmpxchg c1/'], env());
    expect(hit.errors).toEqual([]);
    expect(hit.ok).toBe(true);
    // the same free one micro-step earlier (S not yet full) or after op 63: no report
    for (const miss of [['steps c0/63 c0x5 c1/'], ['steps c0/64', 'steps c1/']]) {
      const r = runSandbox(l, miss, env());
      expect(r.errors, miss.join()).toEqual([]);
      expect(r.goals.find((g) => g.id === 'g-corrupt').ok, miss.join()).toBe(false);
    }
    // CPU 1's first op waits for CPU 0's alloc of o0: an error, even with expect_report
    const bad = runSandbox(l, sandboxLines('# CPU 1 first\nsteps c1/'), env());
    expect(bad.ok).toBe(false);
    expect(bad.errors.join()).toMatch(/your line 1 \("steps c1\/"\).*schedule step 'c1\/'/);
    // without expect_report the same corruption is an error
    const strict = structuredClone(l);
    delete strict.sandbox.expect_report;
    expect(runSandbox(strict, ['steps c0/63 c0:cmpxchg c1/'], env()).errors.join()).toMatch(/the run stopped: list_del corruption/);
  });

  test('a lesson run that should stop on a report and does not fails the check', () => {
    const l = structuredClone(lessons.find((x) => x.entry.id === '09-bisection-crash').lesson);
    l.variants[0].expect_report = true; // v6.19: the schedule is harmless
    delete l.expect_report; // 17c38c88294d: it stops
    const f = checkLesson(l, env()).items.filter((it) => it.kind === 'run' && !it.ok);
    expect(describeFailures(f)).toMatch(/run v6-19: the run of variant v6-19 should stop on a kernel-style report/);
    expect(describeFailures(f)).toMatch(/run base: the run of variant base stopped: list_del corruption/);
  });
});

describe('profile, run_error and reports values', () => {
  // a hand-made svz_profile_json() document: every expected value below is read off it
  const doc = {
    schema: 1, timed: true, throughput_mops: 12.5, spin_share: 0.25, cycles_total: 1000, makespan: 400,
    work_cycles: 200, work_share: 0.2,
    functions: [
      { fn: 'get_from_partial_node', spin_on: 'list_lock', cycles: 500, share: 0.5 },
      { fn: 'get_from_partial_node', cycles: 250, share: 0.25 },
      { fn: '__slab_free', cycles: 50, share: 0.05 }],
    locks: [
      { lock: 'list_lock', node: 0, acquisitions: 10, contended: 4, wait_total: 300, wait_max: 90 },
      { lock: 'list_lock', node: 1, acquisitions: 5, contended: 1, wait_total: 20, wait_max: 20 },
      { lock: 'barn_lock', node: 1, acquisitions: 7, contended: 0, wait_total: 0, wait_max: 0 }],
    cpus: [],
  };
  const ctx = { after: { profile: JSON.stringify(doc), runError: 'list_del corruption. next->prev', reports: '' } };

  test('run figures, lines by function or rank, lock statistics', () => {
    expect(value({ profile: 'throughput_mops' }, ctx)).toBe(12.5);
    expect(value({ profile: 'spin_share' }, ctx)).toBe(0.25);
    expect(value({ profile: 'work_share' }, ctx)).toBe(0.2);
    expect(value({ profile: 'share', fn: 'get_from_partial_node', spin_on: 'list_lock' }, ctx)).toBe(0.5);
    expect(value({ profile: 'share', fn: 'get_from_partial_node' }, ctx)).toBe(0.25);
    expect(value({ profile: 'cycles', fn: 'alloc_from_new_slab' }, ctx)).toBe(0);
    expect(value({ profile: 'line', rank: 1 }, ctx)).toBe('get_from_partial_node: spin on list_lock');
    expect(value({ profile: 'line', rank: 3 }, ctx)).toBe('__slab_free');
    expect(value({ profile: 'cycles', rank: 2 }, ctx)).toBe(250);
    expect(value({ profile: 'acquisitions', lock: 'list_lock' }, ctx)).toBe(15);
    expect(value({ profile: 'acquisitions', lock: 'list_lock', node: 1 }, ctx)).toBe(5);
    expect(value({ profile: 'wait_max', lock: 'list_lock' }, ctx)).toBe(90);
    expect(evaluate({ profile: 'line', rank: 1, op: 'contains', value: 'spin on list_lock' }, ctx)).toBe(true);
    expect(explain({ profile: 'line', rank: 4, op: '==', value: 'x' }, ctx).error).toMatch(/3 lines, no rank 4/);
    const untimed = { after: { profile: '{"schema":1,"timed":false}' } };
    expect(explain({ profile: 'throughput_mops', op: '>', value: 0 }, untimed).error).toMatch(/not timed/);
    expect(explain({ profile: 'throughput_mops', op: '>', value: 0 }, { after: {} }).error).toMatch(/no profile/);
  });

  test('run_error and reports: texts, contains on a text', () => {
    expect(evaluate({ run_error: true, op: 'contains', value: 'list_del corruption' }, ctx)).toBe(true);
    expect(evaluate({ reports: true, op: 'contains', value: 'list_del corruption' }, ctx)).toBe(false);
    expect(evaluate({ reports: true, op: '==', value: '' }, ctx)).toBe(true);
    expect(evaluate({ run_error: true }, ctx)).toBe(true);
    expect(requirements({ reports: true, op: '==', value: '' })).toMatchObject({ run: true, profile: false, snapshot: false });
    expect(requirements({ profile: 'spin_share', op: '<', value: 1 })).toMatchObject({ profile: true, run: false });
  });

  test('validatePredicate: fields, selectors, rank', () => {
    expect(validatePredicate({ profile: 'throughput_mops', op: '>', value: 0 })).toEqual([]);
    expect(validatePredicate({ profile: 'mips', op: '>', value: 0 }).join()).toMatch(/unknown profile field "mips"/);
    expect(validatePredicate({ profile: 'share', op: '>', value: 0 }).join()).toMatch(/needs either "fn" .* or "rank"/);
    expect(validatePredicate({ profile: 'share', rank: 0, op: '>', value: 0 }).join()).toMatch(/"rank" must be 1/);
    expect(validatePredicate({ profile: 'contended', op: '>', value: 0 }).join()).toMatch(/needs "lock"/);
    expect(validatePredicate({ reports: 'yes', op: '==', value: '' }).join()).toMatch(/reports takes true/);
  });

  test('a timed run\'s profile through the session: the model, not the document above', () => {
    const s = open(readScenario('scenarios/lesson-06-timed.trace'), { preset: 'v7.0-rc1' });
    try {
      s.runAll();
      const st = captureState(s, { profile: true, run: true });
      const c = { after: st };
      // the shares of the lines, the work and the objects' lines add up to the whole
      const p = JSON.parse(st.profile);
      expect(p.functions.reduce((a, f) => a + f.share, 0) + p.work_share + p.object_lines_share).toBeCloseTo(1, 9);
      expect(value({ profile: 'share', rank: 1 }, c)).toBe(p.functions[0].share);
      expect(value({ profile: 'throughput_mops' }, c)).toBeGreaterThan(0);
      expect(st.runError).toBe('');
    } finally {
      s.close();
    }
  });
});

describe('lesson 6\'s timed claims can fail', () => {
  test('a reversed throughput order and a wrong top profile line are reported', () => {
    const l = structuredClone(lessons.find((x) => x.entry.id === '06-sheaves-regression').lesson);
    l.stops = [];
    l.questions = [];
    l.data = { tables: [] };
    l.claims = l.claims.filter((c) => c.id === 'timed-fixes-help' || c.id === 'timed-rc1-top-spin');
    l.claims[0].compare.op = '<';
    l.claims[1].check.value = 'get_from_partial_node';
    const f = checkLesson(l, env()).items.filter((it) => it.kind === 'claim' && !it.ok);
    const msg = describeFailures(f);
    expect(msg).toMatch(/claim timed-fixes-help: timed-fix2: [\d.]+ < timed-rc1: [\d.]+ is false/);
    expect(msg).toMatch(/claim timed-rc1-top-spin: .*false at the end of the run \(value "get_from_partial_node: spin on list_lock"\)/);
  });
});
