// slubviz lesson predicates, format 1 (docs/lessons.md, "Predicates").
//
// A predicate is a JSON value that says something checkable about the model
// at a position of a run: a SLUB_STATS counter, a sysfs attribute, a
// /proc/slabinfo column, a field of the snapshot document, or the events of
// a window of micro-steps. The lesson check (test/lessons.test.mjs) and the
// web lesson player evaluate the same predicates with this module.
//
// Pure ES module, no I/O: every input is a string or a plain object that
// the C API returned (svz_snapshot_json, svz_events_json, svz_sysfs,
// svz_slabinfo, and svz_stats_text for its page_alloc block, which the
// snapshot lacks). Counters are read from the snapshot; the names they are
// checked against are the core's (vocabulary.mjs).
//
//   import { evaluate, requirements } from './predicates.mjs';
//   const need = requirements(pred);      // what to fetch from the session
//   const ok = evaluate(pred, {
//     after:  { snapshot, slabinfo, sysfs: { 'pair-64': text }, stats },
//     before: { ... },                    // optional: state at the window start
//     events: [ ...event objects... ],    // optional: the window
//     target: 3,                          // optional: the clicked element
//   });

import { vocabulary } from './vocabulary.mjs';

export const PREDICATE_FORMAT = 1;

export class PredicateError extends Error {}

const COMPARATORS = ['==', '!=', '<', '<=', '>', '>=', 'in', 'not_in', 'between', 'contains'];
const LEAF_KEYS = ['stat', 'sysfs', 'slabinfo', 'snap', 'events', 'next', 'page_alloc', 'profile',
  'run_error', 'reports', 'const', 'sum', 'diff', 'ratio', 'times'];
// fields of svz_profile_json() (schema 1) a "profile" value reads: run
// figures, a profile line's cycles / share (by "fn" [+ "spin_on"] or by
// "rank") and its label, lock statistics (by "lock" [+ "node"])
const PROFILE_RUN = ['throughput_mops', 'spin_share', 'cycles_total', 'makespan', 'work_cycles', 'work_share', 'object_lines_cycles', 'object_lines_share'];
const PROFILE_LINE = ['share', 'cycles', 'line'];
const PROFILE_LOCK = ['acquisitions', 'contended', 'wait_total', 'wait_max'];
const PROFILE_FIELDS = [...PROFILE_RUN, ...PROFILE_LINE, ...PROFILE_LOCK];
const EVENT_FIELDS = ['seq', 'op', 'cpu', 'fn', 'kind', 'cache', 'slab', 'obj', 'addr', 'sheaf', 'node',
  'from', 'to', 'where', 'lock', 'stat', 'check', 'count', 'value', 'from_list', 'to_list'];
// Locations (the manifest's) that name a per-node list (qualified by the
// event's node) and per-CPU places (qualified by the event's cpu) in
// from_list / to_list and list ids ("KIND:N").
export const NODE_LIST_KINDS = ['partial', 'full', 'barn_full', 'barn_empty'];
export const CPU_LIST_KINDS = ['main', 'spare', 'cpu_slab', 'cpu_partial', 'cpu_freelist'];
const NODE_LISTS = new Set(NODE_LIST_KINDS);
const CPU_LISTS = new Set(CPU_LIST_KINDS);
const SLABINFO_COLUMNS = ['active_objs', 'num_objs', 'objsize', 'objperslab', 'pagesperslab', 'limit',
  'batchcount', 'sharedfactor', 'active_slabs', 'num_slabs', 'sharedavail'];
// the model's own per-cache counters: fields of the snapshot's caches
const MODEL_COUNTERS = ['fp_writes', 'slabs_allocated', 'slabs_freed'];
const PATH_FUNCS = ['length', 'sum', 'min', 'max', 'first', 'last', 'sorted', 'distinct'];

// ---- parsers of the C API's text views -------------------------------------

const memo = new WeakMap();
function cached(state, key, fn) {
  let m = memo.get(state);
  if (!m) memo.set(state, (m = {}));
  if (!(key in m)) m[key] = fn();
  return m[key];
}

function num(s) {
  if (s === undefined || s === null || s === '') return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

/** The page_alloc block of svz_stats_text() -> { N: { alloc: { ORDER: n },
 * free: { ORDER: n }, failed } } per node. */
export function parsePageAlloc(text) {
  const out = {};
  const lines = String(text).split('\n');
  const at = lines.findIndex((l) => l.startsWith('page_alloc'));
  for (const raw of at < 0 ? [] : lines.slice(at + 1)) {
    const t = raw.trim().split(/\s+/);
    const m = /^node(\d+)$/.exec(t[0]);
    if (!m) continue;
    const rec = { alloc: {}, free: {}, failed: 0 };
    let part = null;
    for (const tok of t.slice(1)) {
      if (tok === 'alloc' || tok === 'free') part = tok;
      else if (tok.startsWith('failed=')) rec.failed = num(tok.slice(7)) ?? 0;
      else {
        const o = /^order(\d+)=(\d+)$/.exec(tok);
        if (o && part) rec[part][Number(o[1])] = Number(o[2]);
      }
    }
    out[Number(m[1])] = rec;
  }
  return out;
}

/** The counters of a snapshot (svz_snapshot_json) -> { NAME: { stats: {
 * ITEM: { total, cpus } }, nodes: { N: { COUNTER: n } }, model: { fp_writes,
 * slabs_allocated, slabs_freed } } } per live cache. SLUB_STATS items are
 * those the snapshot's era counts (the manifest's eras, as svz_stats_text
 * lists them). */
export function snapshotCounters(snap) {
  const { statEras } = vocabulary();
  const era = snap.config?.era;
  const out = {};
  for (const c of snap.caches || []) {
    if (c.alive === false) continue;
    const stats = {};
    for (const [item, perCpu] of Object.entries(c.stats || {})) {
      const eras = statEras.get(item);
      if (eras && era !== undefined && !eras.includes(era)) continue;
      const cpus = {};
      perCpu.forEach((n, cpu) => (cpus[cpu] = n));
      stats[item] = { total: perCpu.reduce((a, b) => a + b, 0), cpus };
    }
    const nodes = {};
    for (const n of c.nodes || []) nodes[n.node] = { ...(n.counters || {}) };
    const model = {};
    for (const k of MODEL_COUNTERS) model[k] = c[k] ?? 0;
    out[c.name] = { stats, nodes, model };
  }
  return out;
}

/** svz_sysfs() ("./attr:value" lines) -> { ATTR: { raw, total, cpus, nodes } }.
 * total is the leading number of the value (null if it has none), cpus the
 * " C<cpu>=<n>" parts and nodes the " N<node>=<n>" parts (their leading
 * numbers; "C3=51(2)" gives 51). */
export function parseSysfs(text) {
  const out = {};
  for (const line of String(text).split('\n')) {
    const m = /^\.\/([^:]+):(.*)$/.exec(line);
    if (!m) continue;
    const raw = m[2];
    const toks = raw.trim().split(/\s+/);
    const lead = /^-?\d+/.exec(toks[0] || '');
    const rec = { raw, total: lead ? Number(lead[0]) : null, cpus: {}, nodes: {} };
    for (const tok of toks.slice(1)) {
      const c = /^([CN])(\d+)=(-?\d+)/.exec(tok);
      if (c) (c[1] === 'C' ? rec.cpus : rec.nodes)[Number(c[2])] = Number(c[3]);
    }
    out[m[1]] = rec;
  }
  return out;
}

/** svz_slabinfo() -> { NAME: { active_objs, num_objs, objsize, objperslab,
 * pagesperslab, limit, batchcount, sharedfactor, active_slabs, num_slabs,
 * sharedavail } } */
export function parseSlabinfo(text) {
  const out = {};
  for (const line of String(text).split('\n')) {
    if (!line.trim() || line.startsWith('slabinfo') || line.startsWith('#')) continue;
    const t = line.trim().split(/\s+/).filter((x) => x !== ':' && x !== 'tunables' && x !== 'slabdata');
    if (t.length !== 12) continue;
    const rec = {};
    SLABINFO_COLUMNS.forEach((c, i) => (rec[c] = Number(t[i + 1])));
    out[t[0]] = rec;
  }
  return out;
}

/** svz_events_json() text or its parsed document -> event array. */
export function parseEvents(doc) {
  const d = typeof doc === 'string' ? JSON.parse(doc) : doc;
  if (Array.isArray(d)) return d;
  if (d && Array.isArray(d.events)) return d.events;
  throw new PredicateError('events: expected {"events":[...]} or an array');
}

// ---- state access ------------------------------------------------------------

function stateOf(ctx, p) {
  const which = p.state ?? 'after';
  if (which !== 'after' && which !== 'before') {
    throw new PredicateError(`"state" must be "before" or "after", got ${JSON.stringify(which)}`);
  }
  const st = ctx[which];
  if (!st) throw new PredicateError(`this predicate needs the "${which}" state, which the context lacks`);
  return st;
}

function snapshotOf(st) {
  if (!st.snapshot) throw new PredicateError('the state has no snapshot');
  return cached(st, 'snapshot', () => (typeof st.snapshot === 'string' ? JSON.parse(st.snapshot) : st.snapshot));
}
function countersOf(st) {
  return cached(st, 'counters', () => snapshotCounters(snapshotOf(st)));
}
function pageAllocOf(st) {
  if (st.stats === undefined) throw new PredicateError('the state has no stats text (page_alloc)');
  return cached(st, 'page_alloc', () => parsePageAlloc(st.stats));
}
function slabinfoOf(st) {
  if (st.slabinfo === undefined) throw new PredicateError('the state has no slabinfo text');
  return cached(st, 'slabinfo', () => (typeof st.slabinfo === 'string' ? parseSlabinfo(st.slabinfo) : st.slabinfo));
}
function sysfsOf(st, cache) {
  const texts = st.sysfs || {};
  if (texts[cache] === undefined) throw new PredicateError(`the state has no sysfs text of cache ${cache}`);
  return cached(st, 'sysfs:' + cache, () => (typeof texts[cache] === 'string' ? parseSysfs(texts[cache]) : texts[cache]));
}

function profileOf(st) {
  if (st.profile === undefined) throw new PredicateError('the state has no profile (svz_profile_json)');
  const doc = cached(st, 'profile', () => (typeof st.profile === 'string' ? JSON.parse(st.profile) : st.profile));
  if (doc.schema !== 1) throw new PredicateError(`profile: expected schema 1, got ${JSON.stringify(doc.schema)}`);
  if (!doc.timed) throw new PredicateError('profile: the run is not timed (a lesson asks for it with "sets": {"schedule": "timed"})');
  return doc;
}
function runTextOf(st, key) {
  if (st[key] === undefined) throw new PredicateError(`the state has no ${key === 'runError' ? 'run error (svz_run_error)' : 'reports (svz_reports)'}`);
  return st[key];
}

/** A profile line's label, as the profile text prints it. */
export function profileLabel(line) {
  return line.spin_on ? `${line.fn}: spin on ${line.spin_on}` : line.fn;
}

function profileValue(p, st) {
  const doc = profileOf(st);
  const f = p.profile;
  if (PROFILE_RUN.includes(f)) return doc[f];
  if (PROFILE_LINE.includes(f)) {
    let line;
    if (p.rank !== undefined) line = doc.functions[p.rank - 1];
    else line = doc.functions.find((l) => l.fn === p.fn && (l.spin_on ?? null) === (p.spin_on ?? null));
    if (!line) {
      if (p.rank !== undefined) throw new PredicateError(`profile: the profile has ${doc.functions.length} lines, no rank ${p.rank}`);
      return f === 'line' ? null : 0; // a function that never ran (or never spun) costs nothing
    }
    return f === 'line' ? profileLabel(line) : line[f];
  }
  if (PROFILE_LOCK.includes(f)) {
    const rows = doc.locks.filter((l) => l.lock === p.lock && (p.node === undefined || l.node === p.node));
    return f === 'wait_max' ? Math.max(0, ...rows.map((l) => l[f])) : rows.reduce((a, l) => a + l[f], 0);
  }
  throw new PredicateError(`profile: unknown field ${JSON.stringify(f)} (${PROFILE_FIELDS.join(', ')})`);
}

/** Cache id of a cache name (or an id passed through), from any snapshot of the context. */
function cacheId(ctx, c) {
  if (typeof c === 'number') return c;
  for (const which of ['after', 'before']) {
    const st = ctx[which];
    if (!st || !st.snapshot) continue;
    const snap = snapshotOf(st);
    const hit = (snap.caches || []).find((x) => x.name === c);
    if (hit) return hit.id;
  }
  if (ctx.cacheIds && c in ctx.cacheIds) return ctx.cacheIds[c];
  throw new PredicateError(`unknown cache ${JSON.stringify(c)} (no snapshot names it)`);
}

// ---- snapshot paths ------------------------------------------------------------

/** Parse a snapshot path (docs/lessons.md, "Snapshot paths"). */
export function parsePath(path) {
  if (typeof path !== 'string' || !path) throw new PredicateError(`snap: expected a path string, got ${JSON.stringify(path)}`);
  let body = path;
  let func = null;
  const at = path.lastIndexOf('@');
  if (at >= 0 && !path.slice(at).includes(']') && !path.slice(at).includes(')')) {
    func = path.slice(at + 1);
    body = path.slice(0, at);
    if (!PATH_FUNCS.includes(func)) throw new PredicateError(`snap: unknown function @${func} in ${path} (${PATH_FUNCS.map((f) => '@' + f).join(', ')})`);
  }
  const steps = [];
  let i = 0;
  const n = body.length;
  // a pseudo-root: cache(NAME), slabs(NAME), sheaves(NAME)
  const root = /^(cache|slabs|sheaves)\(([^)]*)\)/.exec(body);
  if (root) {
    steps.push({ root: root[1], name: root[2] });
    i = root[0].length;
  }
  while (i < n) {
    if (body[i] === '.') {
      i++;
      continue;
    }
    if (body[i] === '[') {
      const j = body.indexOf(']', i);
      if (j < 0) throw new PredicateError(`snap: unclosed '[' in ${path}`);
      const inner = body.slice(i + 1, j);
      i = j + 1;
      if (/^-?\d+$/.test(inner)) {
        steps.push({ index: Number(inner) });
      } else {
        const m = /^(\??)([A-Za-z_][A-Za-z0-9_]*)(==|=|!=)(.*)$/.exec(inner);
        if (!m) throw new PredicateError(`snap: bad selector [${inner}] in ${path} (use [N], [field=value] or [?field=value])`);
        steps.push({ filter: m[1] === '?', field: m[2], neg: m[3] === '!=', value: m[4] });
      }
      continue;
    }
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(body.slice(i));
    if (!m) throw new PredicateError(`snap: unexpected ${JSON.stringify(body[i])} at column ${i + 1} of ${path}`);
    steps.push({ field: m[0], get: true });
    i += m[0].length;
  }
  return { steps, func };
}

function substTarget(v, ctx) {
  if (v === '$target') {
    if (ctx.target === undefined) throw new PredicateError('$target used outside a click question');
    return String(ctx.target);
  }
  return v;
}

function walkPath(snap, path, ctx) {
  const { steps, func } = parsePath(path);
  let cur = snap;
  for (const s of steps) {
    if (s.root) {
      const name = substTarget(s.name, ctx);
      const c = (snap.caches || []).find((x) => x.name === name);
      if (!c) throw new PredicateError(`snap: no cache named ${name} in the snapshot (${path})`);
      if (s.root === 'cache') cur = c;
      else cur = (snap[s.root] || []).filter((x) => x.cache === c.id);
      continue;
    }
    if (cur === undefined || cur === null) throw new PredicateError(`snap: ${path}: nothing to select from at ${describeStep(s)}`);
    if (s.get) {
      if (Array.isArray(cur)) {
        // a field of every element: the mapped list
        cur = cur.map((x) => (x === null || x === undefined ? undefined : x[s.field]));
      } else {
        cur = cur[s.field];
      }
      if (cur === undefined) throw new PredicateError(`snap: ${path}: no field "${s.field}"`);
      continue;
    }
    if (!Array.isArray(cur)) throw new PredicateError(`snap: ${path}: ${describeStep(s)} applies to an array, got ${typeof cur}`);
    if (s.index !== undefined) {
      const k = s.index < 0 ? cur.length + s.index : s.index;
      if (k < 0 || k >= cur.length) throw new PredicateError(`snap: ${path}: index ${s.index} out of range (length ${cur.length})`);
      cur = cur[k];
      continue;
    }
    const want = substTarget(s.value, ctx);
    const test = (x) => x !== null && x !== undefined && (String(x[s.field]) === String(want)) !== s.neg;
    if (s.filter) {
      cur = cur.filter(test);
    } else {
      const hit = cur.find(test);
      if (hit === undefined) throw new PredicateError(`snap: ${path}: no element with ${s.field}${s.neg ? '!=' : '='}${want}`);
      cur = hit;
    }
  }
  return func ? applyFunc(func, cur, path) : cur;
}

function describeStep(s) {
  if (s.index !== undefined) return `[${s.index}]`;
  if (s.get) return `.${s.field}`;
  return `[${s.filter ? '?' : ''}${s.field}${s.neg ? '!=' : '='}${s.value}]`;
}

function applyFunc(func, v, path) {
  if (!Array.isArray(v)) {
    if (func === 'length' && typeof v === 'string') return v.length;
    throw new PredicateError(`snap: ${path}: @${func} needs an array, got ${JSON.stringify(v)?.slice(0, 60)}`);
  }
  switch (func) {
    case 'length': return v.length;
    case 'sum': return v.reduce((a, b) => a + Number(b), 0);
    case 'min': return v.length ? Math.min(...v.map(Number)) : null;
    case 'max': return v.length ? Math.max(...v.map(Number)) : null;
    case 'first': return v.length ? v[0] : null;
    case 'last': return v.length ? v[v.length - 1] : null;
    case 'sorted': return v.every((x, i) => i === 0 || compareValues(v[i - 1], x) <= 0);
    case 'distinct': return new Set(v.map((x) => JSON.stringify(x))).size;
    default: throw new PredicateError(`snap: unknown function @${func}`);
  }
}

function compareValues(a, b) {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  // hex address strings of equal length compare as text
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

// ---- events ----------------------------------------------------------------------

function listId(loc, e) {
  if (loc === undefined) return undefined;
  if (NODE_LISTS.has(loc)) return e.node === undefined || e.node < 0 ? loc : `${loc}:${e.node}`;
  if (CPU_LISTS.has(loc)) return `${loc}:${e.cpu}`;
  return loc;
}

/** An event's field, including the derived from_list / to_list. */
export function eventField(e, f) {
  if (f === 'from_list') return listId(e.from, e);
  if (f === 'to_list') return listId(e.to, e);
  return e[f];
}

function matchValue(have, want, ctx, field) {
  if (Array.isArray(want)) return want.some((w) => matchValue(have, w, ctx, field));
  if (want !== null && typeof want === 'object') {
    if ('op' in want) {
      const rhs = resolveRhs(want.value, ctx);
      return compare(have, want.op, rhs, `event field ${field}`);
    }
    // a value expression: compare for equality with its value
    return matchValue(have, value(want, ctx), ctx, field);
  }
  if (want === '$target') want = ctx.target;
  if (field === 'cache' && typeof want === 'string') want = cacheId(ctx, want);
  if (have === undefined) return false;
  return String(have) === String(want);
}

/** Does event e match MATCH (every listed field)? */
export function matchEvent(e, match, ctx = {}) {
  if (!match || typeof match !== 'object' || Array.isArray(match)) {
    throw new PredicateError(`event match: expected an object of event fields, got ${JSON.stringify(match)}`);
  }
  for (const [f, want] of Object.entries(match)) {
    if (!EVENT_FIELDS.includes(f)) throw new PredicateError(`event match: unknown field "${f}" (${EVENT_FIELDS.join(', ')})`);
    if (!matchValue(eventField(e, f), want, ctx, f)) return false;
  }
  return true;
}

function eventsOf(ctx) {
  if (!ctx.events) throw new PredicateError('this predicate needs the events of a window, which the context lacks');
  return ctx.events;
}

// ---- values and predicates --------------------------------------------------------

function leafKey(p) {
  const keys = LEAF_KEYS.filter((k) => k in p);
  if (keys.length !== 1) return null;
  return keys[0];
}

function resolveRhs(v, ctx) {
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && leafKey(v)) return value(v, ctx);
  if (Array.isArray(v)) return v.map((x) => resolveRhs(x, ctx));
  if (v === '$target') return ctx.target;
  return v;
}

function statValue(p, st, ctx) {
  const c = countersOf(st)[p.cache];
  if (!c) throw new PredicateError(`stat: no cache ${p.cache} in the snapshot`);
  const name = p.stat;
  if (MODEL_COUNTERS.includes(name)) {
    if (p.cpu !== undefined || p.node !== undefined) throw new PredicateError(`stat: ${name} is per cache (no cpu/node)`);
    return c.model[name] ?? 0;
  }
  if (c.stats[name]) {
    if (p.node !== undefined) throw new PredicateError(`stat: ${name} is counted per CPU, not per node`);
    if (p.cpu === undefined) return c.stats[name].total;
    const cpu = p.cpu === '$target' ? Number(ctx.target) : p.cpu;
    return c.stats[name].cpus[cpu] ?? 0;
  }
  // a model counter of kmem_cache_node (list_lock, list_writes_locked, ...)
  const nodes = Object.keys(c.nodes);
  const known = nodes.some((n) => name in c.nodes[n]) || vocabulary().nodeCounters.includes(name);
  if (!known) throw new PredicateError(`stat: ${name} is neither a SLUB_STATS item nor a node counter of ${p.cache}`);
  if (p.cpu !== undefined) throw new PredicateError(`stat: ${name} is counted per node, not per CPU`);
  if (p.node !== undefined) return c.nodes[p.node]?.[name] ?? 0;
  return nodes.reduce((a, n) => a + (c.nodes[n][name] ?? 0), 0);
}

function sysfsValue(p, st) {
  const attrs = sysfsOf(st, p.cache);
  const a = attrs[p.sysfs];
  if (!a) throw new PredicateError(`sysfs: no attribute ${p.sysfs} for cache ${p.cache}`);
  if (p.raw) return a.raw;
  if (p.cpu !== undefined) return a.cpus[p.cpu] ?? 0;
  if (p.node !== undefined) return a.nodes[p.node] ?? 0;
  if (a.total === null) return a.raw;
  return a.total;
}

function slabinfoValue(p, st) {
  if (!SLABINFO_COLUMNS.includes(p.slabinfo)) {
    throw new PredicateError(`slabinfo: unknown column ${p.slabinfo} (${SLABINFO_COLUMNS.join(', ')})`);
  }
  const rows = slabinfoOf(st);
  const r = rows[p.cache];
  if (!r) throw new PredicateError(`slabinfo: no row for cache ${p.cache}`);
  return r[p.slabinfo];
}

function pageAllocValue(p, st) {
  const pages = pageAllocOf(st);
  const what = p.page_alloc;
  if (!['alloc', 'free', 'failed'].includes(what)) throw new PredicateError(`page_alloc: expected "alloc", "free" or "failed", got ${what}`);
  let total = 0;
  for (const [node, rec] of Object.entries(pages)) {
    if (p.node !== undefined && Number(node) !== p.node) continue;
    if (what === 'failed') total += rec.failed;
    else for (const [order, n] of Object.entries(rec[what])) if (p.order === undefined || Number(order) === p.order) total += n;
  }
  return total;
}

function rawLeaf(p, key, ctx) {
  switch (key) {
    case 'const': return p.const;
    case 'stat': return statValue(p, stateOf(ctx, p), ctx);
    case 'sysfs': return sysfsValue(p, stateOf(ctx, p));
    case 'slabinfo': return slabinfoValue(p, stateOf(ctx, p));
    case 'page_alloc': return pageAllocValue(p, stateOf(ctx, p));
    case 'snap': return walkPath(snapshotOf(stateOf(ctx, p)), p.snap, ctx);
    case 'profile': return profileValue(p, stateOf(ctx, p));
    case 'run_error': return runTextOf(stateOf(ctx, p), 'runError');
    case 'reports': return runTextOf(stateOf(ctx, p), 'reports');
    case 'events': return eventsOf(ctx).filter((e) => matchEvent(e, p.events, ctx)).length;
    case 'next': {
      const hit = eventsOf(ctx).find((e) => matchEvent(e, p.next, ctx));
      if (!hit) return null;
      return p.field ? eventField(hit, p.field) ?? null : hit;
    }
    case 'sum': return p.sum.reduce((a, v) => a + Number(value(v, ctx)), 0);
    case 'diff': return Number(value(p.diff[0], ctx)) - Number(value(p.diff[1], ctx));
    case 'times': return p.times.reduce((a, v) => a * Number(value(v, ctx)), 1);
    case 'ratio': {
      const b = Number(value(p.ratio[1], ctx));
      const a = Number(value(p.ratio[0], ctx));
      return b === 0 ? (a === 0 ? 0 : Infinity) : a / b;
    }
    default: throw new PredicateError(`unknown value kind ${key}`);
  }
}

/** The value of a value expression (a leaf without "op"). */
export function value(p, ctx) {
  if (p === null || typeof p !== 'object' || Array.isArray(p)) return p;
  const key = leafKey(p);
  if (!key) throw new PredicateError(`expected a value (one of ${LEAF_KEYS.join(', ')}), got ${JSON.stringify(p).slice(0, 120)}`);
  if (p.delta) {
    if (!['stat', 'sysfs', 'slabinfo', 'page_alloc', 'snap'].includes(key)) throw new PredicateError(`"delta" applies to stat, sysfs, slabinfo, page_alloc and snap values, not ${key}`);
    const after = rawLeaf({ ...p, state: 'after' }, key, ctx);
    const before = rawLeaf({ ...p, state: 'before' }, key, ctx);
    return Number(after) - Number(before);
  }
  return rawLeaf(p, key, ctx);
}

function compare(have, op, want, what) {
  switch (op) {
    case '==': return looseEq(have, want);
    case '!=': return !looseEq(have, want);
    case '<': return Number(have) < Number(want);
    case '<=': return Number(have) <= Number(want);
    case '>': return Number(have) > Number(want);
    case '>=': return Number(have) >= Number(want);
    case 'in': return Array.isArray(want) && want.some((w) => looseEq(have, w));
    case 'not_in': return Array.isArray(want) && !want.some((w) => looseEq(have, w));
    case 'between': {
      if (!Array.isArray(want) || want.length !== 2) throw new PredicateError(`${what}: "between" needs [low, high]`);
      return Number(have) >= Number(want[0]) && Number(have) <= Number(want[1]);
    }
    // an array holding the value, or a text (run_error, reports) holding it
    case 'contains': return Array.isArray(have) ? have.some((x) => looseEq(x, want)) : typeof have === 'string' && have.includes(String(want));
    default: throw new PredicateError(`${what}: unknown comparison ${JSON.stringify(op)} (${COMPARATORS.join(' ')})`);
  }
}

function looseEq(a, b) {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) return false;
  if (typeof a === 'object' || typeof b === 'object') return JSON.stringify(a) === JSON.stringify(b);
  return String(a) === String(b);
}

function truthy(v) {
  if (Array.isArray(v)) return v.length > 0;
  return Boolean(v);
}

/** Evaluate a predicate against a context; true or false. Throws
 * PredicateError when the predicate is malformed or its data is missing. */
export function evaluate(p, ctx) {
  if (p === true || p === false) return p;
  if (p === null || typeof p !== 'object' || Array.isArray(p)) {
    throw new PredicateError(`expected a predicate object, got ${JSON.stringify(p)}`);
  }
  if ('all' in p) return asList(p.all, 'all').every((q) => evaluate(q, ctx));
  if ('any' in p) return asList(p.any, 'any').some((q) => evaluate(q, ctx));
  if ('not' in p) return !evaluate(p.not, ctx);
  if ('event' in p) {
    const n = eventsOf(ctx).filter((e) => matchEvent(e, p.event, ctx)).length;
    if ('op' in p) return compare(n, p.op, resolveRhs(p.value, ctx), 'event count');
    return n >= 1;
  }
  if ('next' in p && 'is' in p) {
    const hit = eventsOf(ctx).find((e) => matchEvent(e, p.next, ctx));
    return hit ? matchEvent(hit, p.is, ctx) : false;
  }
  if (!leafKey(p)) throw new PredicateError(`unknown predicate ${JSON.stringify(p).slice(0, 160)}`);
  const have = value(p, ctx);
  if ('op' in p) return compare(have, p.op, resolveRhs(p.value, ctx), Object.keys(p)[0]);
  return truthy(have);
}

function asList(v, what) {
  if (!Array.isArray(v) || v.length === 0) throw new PredicateError(`"${what}" needs a non-empty array of predicates`);
  return v;
}

/** Evaluate and say why: { ok, value, error } with the left-hand value of
 * the top-level comparison (for test messages and the player's feedback). */
export function explain(p, ctx) {
  try {
    const ok = evaluate(p, ctx);
    let shown;
    try {
      if (p && typeof p === 'object' && leafKey(p)) shown = value(p, ctx);
      else if (p && p.event) shown = eventsOf(ctx).filter((e) => matchEvent(e, p.event, ctx)).length + ' matching event(s)';
      else if (p && p.next) shown = eventsOf(ctx).find((e) => matchEvent(e, p.next, ctx))?.text ?? 'no matching event';
    } catch {
      shown = undefined;
    }
    return { ok, value: shown };
  } catch (e) {
    if (e instanceof PredicateError) return { ok: false, error: e.message };
    throw e;
  }
}

// ---- static checks ---------------------------------------------------------------

/** The parts of the state a lesson position can capture (runner.mjs
 * captureState), as flags of requirements(); sysfs is a list of caches. */
export const STATE_NEEDS = ['snapshot', 'stats', 'pageAlloc', 'slabinfo', 'profile', 'run'];

/** What a predicate reads: { snapshot, stats (counters: from the snapshot),
 * pageAlloc (the stats text's page_alloc block), slabinfo, sysfs: [caches],
 * events, before, target }. The player and the checker fetch exactly this. */
export function requirements(p, acc = null) {
  const r = acc || { ...Object.fromEntries(STATE_NEEDS.map((k) => [k, false])), sysfs: [], events: false, before: false, target: false, caches: [] };
  const visit = (q) => {
    if (q === null || typeof q !== 'object') {
      if (q === '$target') r.target = true;
      return;
    }
    if (Array.isArray(q)) return q.forEach(visit);
    if (q.state === 'before' || q.delta) r.before = true;
    if ('stat' in q) r.stats = r.snapshot = true;
    if ('page_alloc' in q) r.stats = r.pageAlloc = true;
    if ('slabinfo' in q) r.slabinfo = true;
    if ('profile' in q) r.profile = true;
    if ('run_error' in q || 'reports' in q) r.run = true;
    if ('sysfs' in q && typeof q.cache === 'string' && !r.sysfs.includes(q.cache)) r.sysfs.push(q.cache);
    if ('snap' in q) {
      r.snapshot = true;
      if (String(q.snap).includes('$target')) r.target = true;
    }
    if ('event' in q || 'events' in q || 'next' in q) {
      r.events = true;
      r.snapshot = true; // cache names in matches resolve through the snapshot
    }
    if (typeof q.cache === 'string' && !r.caches.includes(q.cache)) r.caches.push(q.cache);
    for (const v of Object.values(q)) visit(v);
  };
  visit(p);
  return r;
}

/** Is `name` a counter the snapshot has (the manifest's SLUB_STATS items
 * and node counters, the model's own)? */
export function isCounter(name) {
  const v = vocabulary();
  return v.statEras.has(name) || v.nodeCounters.includes(name) || MODEL_COUNTERS.includes(name);
}

/** Shape errors of a predicate (strings; [] if it is well formed). Checks
 * keys, comparators, event fields, snapshot path syntax; not the data. */
export function validatePredicate(p, where = 'predicate') {
  const errs = [];
  const bad = (w, m) => errs.push(`${w}: ${m}`);
  const checkValue = (v, w) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return;
    const k = leafKey(v);
    if (!k) {
      bad(w, `expected exactly one of ${LEAF_KEYS.join(', ')}; got keys ${Object.keys(v).join(', ')}`);
      return;
    }
    if (['stat', 'sysfs', 'slabinfo'].includes(k) && typeof v.cache !== 'string') bad(w, `${k} needs "cache": a cache name`);
    if (k === 'stat' && !isCounter(v.stat)) bad(w, `unknown counter ${JSON.stringify(v.stat)} (a SLUB_STATS item, a node counter or ${MODEL_COUNTERS.join(', ')})`);
    if (k === 'snap') {
      try {
        parsePath(v.snap);
      } catch (e) {
        bad(w, e.message);
      }
    }
    if (k === 'slabinfo' && !SLABINFO_COLUMNS.includes(v.slabinfo)) bad(w, `unknown slabinfo column ${v.slabinfo}`);
    if (k === 'profile') {
      if (!PROFILE_FIELDS.includes(v.profile)) bad(w, `unknown profile field ${JSON.stringify(v.profile)} (${PROFILE_FIELDS.join(', ')})`);
      else if (PROFILE_LINE.includes(v.profile) && (v.rank === undefined) === (v.fn === undefined)) bad(w, `profile ${v.profile} needs either "fn" (and optional "spin_on") or "rank"`);
      else if (v.rank !== undefined && !(Number.isInteger(v.rank) && v.rank >= 1)) bad(w, '"rank" must be 1 (the top line) or more');
      else if (PROFILE_LOCK.includes(v.profile) && typeof v.lock !== 'string') bad(w, `profile ${v.profile} needs "lock": list_lock, barn_lock, ...`);
    }
    if ((k === 'run_error' || k === 'reports') && v[k] !== true) bad(w, `${k} takes true: {"${k}": true}`);
    if (k === 'events' || k === 'next') checkMatch(v[k], `${w}.${k}`);
    if (k === 'next' && v.field !== undefined && !EVENT_FIELDS.includes(v.field)) bad(w, `unknown event field ${v.field}`);
    if (['sum', 'diff', 'ratio', 'times'].includes(k)) {
      const arr = v[k];
      const many = k === 'sum' || k === 'times';
      if (!Array.isArray(arr) || (!many && arr.length !== 2) || arr.length === 0) bad(w, `${k} needs ${many ? 'a non-empty array' : 'two values'}`);
      else arr.forEach((x, i) => checkValue(x, `${w}.${k}[${i}]`));
    }
    if (v.state !== undefined && !['before', 'after'].includes(v.state)) bad(w, `"state" must be "before" or "after"`);
  };
  const checkMatch = (m, w) => {
    if (!m || typeof m !== 'object' || Array.isArray(m)) {
      bad(w, 'expected an object of event fields');
      return;
    }
    for (const [f, v] of Object.entries(m)) {
      if (!EVENT_FIELDS.includes(f)) bad(w, `unknown event field "${f}"`);
      const names = f === 'kind' ? vocabulary().eventKinds : f === 'fn' ? vocabulary().kernelFunctions : null;
      for (const x of names ? [v].flat() : []) if (typeof x === 'string' && !names.includes(x)) bad(`${w}.${f}`, `unknown ${f === 'kind' ? 'event kind' : 'kernel function'} "${x}"`);
      if (v && typeof v === 'object' && !Array.isArray(v)) {
        if ('op' in v && !COMPARATORS.includes(v.op)) bad(`${w}.${f}`, `unknown comparison ${v.op}`);
        else if (!('op' in v)) checkValue(v, `${w}.${f}`);
      }
    }
  };
  const visit = (q, w) => {
    if (q === true || q === false) return;
    if (q === null || typeof q !== 'object' || Array.isArray(q)) {
      bad(w, `expected a predicate object, got ${JSON.stringify(q)}`);
      return;
    }
    for (const k of ['all', 'any']) {
      if (k in q) {
        if (!Array.isArray(q[k]) || !q[k].length) bad(w, `"${k}" needs a non-empty array`);
        else q[k].forEach((x, i) => visit(x, `${w}.${k}[${i}]`));
        return;
      }
    }
    if ('not' in q) return visit(q.not, `${w}.not`);
    if ('event' in q) {
      checkMatch(q.event, `${w}.event`);
      if ('op' in q && !COMPARATORS.includes(q.op)) bad(w, `unknown comparison ${q.op}`);
      return;
    }
    if ('next' in q && 'is' in q) {
      checkMatch(q.next, `${w}.next`);
      checkMatch(q.is, `${w}.is`);
      return;
    }
    if (!leafKey(q)) {
      bad(w, `unknown predicate with keys ${Object.keys(q).join(', ')}`);
      return;
    }
    checkValue(q, w);
    if ('op' in q) {
      if (!COMPARATORS.includes(q.op)) bad(w, `unknown comparison ${JSON.stringify(q.op)} (${COMPARATORS.join(' ')})`);
      if (!('value' in q)) bad(w, `"op" needs a "value"`);
      else checkValue(q.value, `${w}.value`);
    }
  };
  visit(p, where);
  return errs;
}

export const _internals = { COMPARATORS, LEAF_KEYS, EVENT_FIELDS, SLABINFO_COLUMNS, PATH_FUNCS, NODE_LISTS, CPU_LISTS, PROFILE_FIELDS };
