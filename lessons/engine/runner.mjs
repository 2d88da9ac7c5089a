// Drive a slubviz session to lesson positions and capture what predicates
// read (docs/lessons.md, "Positions"). Pure ES module; the session is any
// object with the methods of SlubvizSession (core/wasm/slubviz-api.mjs, the
// binding the tests and the web app share): step, runToOp, runAll,
// opsTotal, opsDone, seq, snapshotJson, eventsJson, statsText, slabinfo,
// sysfs, runError, reports, profileJson, close.

import { describePosition } from './lesson-format.mjs';
import { STATE_NEEDS, matchEvent, parseEvents } from './predicates.mjs';
import { vocabulary } from './vocabulary.mjs';

export class PositionError extends Error {}

/** Capture the parts of the state `need` asks for (see requirements()):
 * counters are read from the snapshot, the stats text only for page_alloc. */
export function captureState(session, need) {
  const st = {};
  if (need.snapshot || need.stats) st.snapshot = session.snapshotJson();
  if (need.pageAlloc) st.stats = session.statsText();
  if (need.slabinfo) st.slabinfo = session.slabinfo();
  if (need.profile) st.profile = session.profileJson();
  if (need.run) {
    st.runError = session.runError();
    st.reports = session.reports();
  }
  if (need.sysfs && need.sysfs.length) {
    st.sysfs = {};
    for (const c of need.sysfs) st.sysfs[c] = session.sysfs(c);
  }
  return st;
}

/** Events with from <= seq < to (the session must be at `to` or just past
 * it, and the window must still be retained). */
export function windowEvents(session, from, to) {
  const n = to - from;
  if (n <= 0) return [];
  const ring = vocabulary().eventRing;
  if (n > ring) throw new PositionError(`an event window of ${n} micro-steps is longer than the ${ring} events the model keeps`);
  const evs = parseEvents(session.eventsJson(from, n)).filter((e) => e.seq >= from && e.seq < to);
  if (evs.length !== n) throw new PositionError(`expected ${n} events from #${from}, the model returned ${evs.length} (not retained?)`);
  return evs;
}

const NO_NEEDS = { ...Object.fromEntries(STATE_NEEDS.map((k) => [k, false])), sysfs: [] };

function mergeNeeds(a, b) {
  const out = Object.fromEntries(STATE_NEEDS.map((k) => [k, a[k] || b[k]]));
  return { ...out, sysfs: [...new Set([...(a.sysfs || []), ...(b.sysfs || [])])] };
}

/** `have` reads at least what `want` reads. */
function covers(have, want) {
  for (const k of STATE_NEEDS) if (want[k] && !have[k]) return false;
  return (want.sysfs || []).every((c) => (have.sysfs || []).includes(c));
}

function posKey(p) {
  return JSON.stringify(p);
}

/**
 * Resolve positions to step counts ("steps" = svz_seq at that point: the
 * number of micro-steps run; the current event is steps - 1).
 * `session` must be freshly opened; it is left at the end of the run.
 * Returns { steps: Map(posKey -> steps), opsTotal, stepsTotal, runError,
 * opEnds: Map(steps -> op) }. Throws PositionError for a position that
 * does not exist. `atPosition(key, steps)`, if given, is called where the
 * session stands at a resolved position (an op's start or end), so that
 * its state can be read there.
 */
export function resolvePositions(session, positions, atPosition = null) {
  const opsTotal = session.opsTotal();
  const out = new Map();
  const opEnds = new Map(); // steps -> N for positions that end op N
  const uniq = new Map();
  for (const p of positions) uniq.set(posKey(p), p);
  const byOp = [...uniq.values()].filter((p) => !('seq' in p) && !('end' in p));
  // an op's events are scanned from its start, so scans come before plain
  // "end of op N" at the same op
  byOp.sort((a, b) => a.op - b.op || ('event' in b) - ('event' in a));
  const opEvents = new Map();
  for (const p of byOp) {
    const key = posKey(p);
    if (p.op === -1) {
      out.set(key, 0);
      if (atPosition && session.seq() === 0) atPosition(key, 0);
      continue;
    }
    if (p.op >= opsTotal) throw new PositionError(`${describePosition(p)}: the trace has ${opsTotal} ops (0..${opsTotal - 1})`);
    if ('event' in p) {
      let evs = opEvents.get(p.op);
      const nth = p.nth ?? 0;
      const matching = (list) => list.filter((e) => e.op === p.op && matchEvent(e, p.event, {}));
      if (!evs) {
        const passed = session.opsDone() > p.op;
        session.runToOp(p.op);
        const s0 = session.seq();
        session.runToOp(p.op + 1);
        const s1 = session.seq();
        evs = passed ? [] : windowEvents(session, s0, s1);
        // under an interleaving schedule op N may start before op N-1
        // returns, or never return (a run stopped by a report): its events
        // are then before s0, so read what the model retains up to s1
        if (matching(evs).length <= nth && s1 > 0) {
          evs = windowEvents(session, Math.max(0, s1 - vocabulary().eventRing), s1).filter((e) => e.op === p.op);
        }
        opEvents.set(p.op, evs);
      }
      const hits = matching(evs);
      if (hits.length <= nth) {
        const why = session.runError() ? ` (the run stopped: ${session.runError()})` : '';
        throw new PositionError(`${describePosition(p)}: op ${p.op} has ${hits.length} matching event(s)${why}`);
      }
      out.set(key, hits[nth].seq + 1);
    } else {
      if (session.opsDone() <= p.op) {
        const r = session.runToOp(p.op + 1);
        if (r < 0 && session.opsDone() <= p.op) throw new PositionError(`${describePosition(p)}: the run stopped at op ${session.opsDone()}: ${session.runError()}`);
      }
      // steps at the end of op N: scanning may have run past it already
      const ev = opEvents.get(p.op);
      const steps = ev ? ev[ev.length - 1].seq + 1 : session.seq();
      out.set(key, steps);
      opEnds.set(steps, p.op);
      if (atPosition && session.seq() === steps) atPosition(key, steps);
    }
  }
  session.runAll();
  const stepsTotal = session.seq();
  const runError = session.runError();
  for (const p of uniq.values()) {
    const key = posKey(p);
    if ('end' in p) out.set(key, stepsTotal);
    else if ('seq' in p) {
      if (p.seq >= stepsTotal) throw new PositionError(`${describePosition(p)}: the run has ${stepsTotal} micro-steps (#0..#${stepsTotal - 1})`);
      out.set(key, p.seq + 1);
    }
  }
  return { steps: out, opsTotal, stepsTotal, runError, opEnds };
}

/**
 * Run a set of probes on one configuration. A probe is
 *   { id, at: POS, from?: POS, need: requirements(...), events?: bool }
 * and yields the predicate context { after, before, events } with `after`
 * the state at `at`, `before` the state at `from` (default: the start) and
 * `events` the micro-steps between them (only if probe.events).
 * `open()` returns a fresh session on the configuration; it is called once
 * (resolve and capture), or twice when some state or window could not be
 * read while resolving (a position inside an op, an event window). Returns { results: Map(id -> {ctx, steps} |
 * {error}), info: {opsTotal, stepsTotal, runError} }.
 */
export function runProbes(open, probes) {
  const results = new Map();
  const positions = [];
  for (const pr of probes) {
    positions.push(pr.at);
    if (pr.from) positions.push(pr.from);
  }
  // what each position's probes read there: captured in the resolving run
  // where it stands at the position, so that a second run is needed only
  // for the rest (positions inside an op, event windows)
  const needAt = new Map(); // posKey -> need
  const addNeed = (pos, need) => needAt.set(posKey(pos), mergeNeeds(needAt.get(posKey(pos)) ?? NO_NEEDS, { ...NO_NEEDS, ...need }));
  for (const pr of probes) {
    addNeed(pr.at, pr.need);
    if (pr.need.before || pr.from) addNeed(pr.from ?? { op: -1 }, pr.need);
  }
  const early = new Map(); // steps -> { need, state }
  const atPosition = (key, steps) => {
    const need = needAt.get(key);
    const e = early.get(steps);
    if (!need || (e && covers(e.need, need))) return;
    const all = e ? mergeNeeds(e.need, need) : need;
    early.set(steps, { need: all, state: captureState(s1, all) });
  };
  let res;
  const s1 = open();
  try {
    res = resolvePositions(s1, positions.concat([{ op: -1 }]), atPosition);
  } catch (e) {
    // resolve one by one so that one bad position fails only its probes
    s1.close();
    res = null;
    const good = [];
    for (const pr of probes) {
      const s = open();
      try {
        resolvePositions(s, [pr.at, ...(pr.from ? [pr.from] : [])]);
        good.push(pr);
      } catch (err) {
        results.set(pr.id, { error: err.message });
      } finally {
        s.close();
      }
    }
    if (!good.length) return { results, info: null };
    const again = runProbes(open, good);
    for (const [k, v] of again.results) results.set(k, v);
    return { results, info: again.info };
  }
  s1.close();

  // capture points: steps -> { need, events windows ending there }
  const points = new Map();
  const point = (steps) => {
    if (!points.has(steps)) points.set(steps, { need: NO_NEEDS, state: null });
    return points.get(steps);
  };
  const plan = [];
  for (const pr of probes) {
    const at = res.steps.get(posKey(pr.at));
    const from = pr.from ? res.steps.get(posKey(pr.from)) : 0;
    if (from > at) {
      results.set(pr.id, { error: `the window starts at ${describePosition(pr.from)} (step ${from}), after ${describePosition(pr.at)} (step ${at})` });
      continue;
    }
    if (pr.events && at - from > vocabulary().eventRing) {
      results.set(pr.id, { error: `the event window ${describePosition(pr.from || { op: -1 })} .. ${describePosition(pr.at)} has ${at - from} micro-steps, more than the ${vocabulary().eventRing} the model keeps` });
      continue;
    }
    const need = { ...NO_NEEDS, ...pr.need };
    point(at).need = mergeNeeds(point(at).need, need);
    if (pr.need.before || pr.from) point(from).need = mergeNeeds(point(from).need, need);
    plan.push({ pr, at, from });
  }
  const windows = new Map(); // "from:at" -> events
  const wanted = new Map(); // at -> [from...]
  for (const { pr, at, from } of plan) {
    if (!pr.events) continue;
    if (!wanted.has(at)) wanted.set(at, new Set());
    wanted.get(at).add(from);
  }

  for (const [steps, p] of points) {
    const e = early.get(steps);
    if (e && !wanted.has(steps) && covers(e.need, p.need)) p.state = e.state;
  }
  const order = [...points.keys()].filter((steps) => points.get(steps).state === null).sort((a, b) => a - b);
  const s2 = order.length ? open() : null;
  try {
    for (const steps of order) {
      if (steps > 0) {
        const op = res.opEnds.get(steps);
        if (op !== undefined && s2.seq() < steps) s2.runToOp(op + 1);
        while (s2.seq() < steps) if (s2.step() !== 1) break;
        if (s2.seq() !== steps) throw new PositionError(`could not reach micro-step ${steps} (at ${s2.seq()})`);
      }
      const p = points.get(steps);
      p.state = captureState(s2, p.need);
      for (const from of wanted.get(steps) || []) windows.set(`${from}:${steps}`, windowEvents(s2, from, steps));
    }
  } finally {
    s2?.close();
  }
  for (const { pr, at, from } of plan) {
    const ctx = { after: points.get(at).state, before: points.get(from)?.state ?? null };
    if (pr.events) ctx.events = windows.get(`${from}:${at}`);
    results.set(pr.id, { ctx, steps: { at, from } });
  }
  return { results, info: { opsTotal: res.opsTotal, stepsTotal: res.stepsTotal, runError: res.runError } };
}
