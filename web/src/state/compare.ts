// A/B compare: the same trace under two kernels. Side A is the app's store;
// side B is a second Store on its own engine that opens A's trace under A's
// `compare` config and follows A to the same op (ops are the common unit:
// the two kernels take different micro-steps for one op). The counters are
// compared as `slubviz diff` prints them (core/cli/cmd_diff.c): every
// SLUB_STATS item of the cache summed over CPUs, and the slow-path share of
// allocations and n->list_lock acquisitions per 1000 ops, which the core
// computes for both (SnapCache.alloc_slow_share, list_lock_per_kop).
import type { SnapCache, Snapshot } from '../engine/types';
import { configSets, type AppState, type Config, type Store } from './store';

/** One counter of the cache on both sides (summed over CPUs). */
export interface DiffRow {
  stat: string;
  a: number;
  b: number;
}

/** One CPU's counter on both sides. */
export interface CpuDiffRow extends DiffRow {
  cpu: number;
}

const sum = (v: readonly number[] | undefined) => (v ?? []).reduce((x, y) => x + y, 0);

export function cacheByName(snap: Snapshot | null | undefined, name: string | undefined): SnapCache | undefined {
  return name === undefined ? undefined : snap?.caches.find((c) => c.alive && c.name === name);
}

/** The stat names of either side: side A's, then B's own. */
const statNames = (a: SnapCache | undefined, b: SnapCache | undefined) => [...new Set([...Object.keys(a?.stats ?? {}), ...Object.keys(b?.stats ?? {})])];

/** The counters that differ, in the stats' order (side A's, then B's
 * own): what `slubviz diff` lists, less the rows equal on both sides. */
export function diffCounters(a: SnapCache | undefined, b: SnapCache | undefined): DiffRow[] {
  return statNames(a, b)
    .map((stat) => ({ stat, a: sum(a?.stats?.[stat]), b: sum(b?.stats?.[stat]) }))
    .filter((r) => r.a !== r.b);
}

/** The per-CPU counters that differ most (|b - a|, largest first; ties in
 * CPU then stat order), at most n. */
export function topCpuDiffs(a: SnapCache | undefined, b: SnapCache | undefined, n: number): CpuDiffRow[] {
  const rows: CpuDiffRow[] = [];
  for (const stat of statNames(a, b)) {
    const va = a?.stats?.[stat] ?? [];
    const vb = b?.stats?.[stat] ?? [];
    for (let cpu = 0; cpu < Math.max(va.length, vb.length); cpu++) {
      const x = va[cpu] ?? 0;
      const y = vb[cpu] ?? 0;
      if (x !== y) rows.push({ cpu, stat, a: x, b: y });
    }
  }
  rows.sort((p, q) => Math.abs(q.b - q.a) - Math.abs(p.b - p.a) || p.cpu - q.cpu);
  return rows.slice(0, n);
}

/** cmd_diff.c rel(): "new", "-" or the signed change in %. */
export function relChange(a: number, b: number): string {
  if (a === 0) return b ? 'new' : '-';
  const r = (100 * (b - a)) / a;
  return `${r >= 0 ? '+' : ''}${r.toFixed(1)}%`;
}

/** What side B must run: A's trace (text, or the text of A's import) and
 * the compare config. */
function sourceKey(st: AppState): string {
  return JSON.stringify([st.scenario, st.traceRef, st.trace.length, st.trace.slice(0, 256), st.freeOps.length, st.compare && configSets(sideB(st)), st.compare?.preset]);
}

/** Side B's config: the compare config, under A's schedule unless it
 * names its own (the same trace under another kernel, same interleaving
 * rules; A's steps chosen by hand stay A's). */
export function sideB(st: AppState): Config {
  const c = st.compare!;
  return c.schedule ? c : { ...c, schedule: st.config.schedule };
}

/** Keeps side B on A's trace, under the compare config, at A's op. */
export class CompareSync {
  private key = '';
  private want: number | null = null;
  private moving = false;
  private unsub: () => void;

  constructor(
    readonly a: Store,
    readonly b: Store,
  ) {
    this.unsub = a.subscribe(() => void this.follow());
    void this.follow();
  }

  dispose(): void {
    this.unsub();
  }

  private async follow(): Promise<void> {
    const st = this.a.getState();
    if (!st.compare || st.status !== 'ready' || !st.frame) return;
    const key = sourceKey(st);
    if (key !== this.key) {
      this.key = key;
      const opts = { config: sideB(st), seq: 0 };
      if (st.traceRef) {
        const text = await this.a.engine.call({ type: 'getText', ref: st.traceRef, maxBytes: 1 << 30 });
        if (this.key !== key) return;
        await this.b.openTrace(text ?? '', { ...opts, scenario: null });
      } else await this.b.openTrace(st.trace, { ...opts, scenario: st.scenario });
      if (this.key !== key) return;
    }
    // the latest op wins; one seek in flight
    this.want = this.a.getState().frame?.opsDone ?? 0;
    if (this.moving) return;
    this.moving = true;
    try {
      while (this.want !== null) {
        const op = this.want;
        this.want = null;
        if (this.b.getState().frame && this.b.getState().frame!.opsDone !== op) await this.b.jumpToOp(op);
      }
      // the same cache on both sides, by name
      const sa = this.a.getState();
      const name = sa.frame?.snapshot.caches.find((c) => c.id === sa.selectedCache)?.name;
      const bc = cacheByName(this.b.getState().frame?.snapshot, name);
      if (bc && bc.id !== this.b.getState().selectedCache) this.b.selectCache(bc.id);
    } finally {
      this.moving = false;
    }
  }
}
