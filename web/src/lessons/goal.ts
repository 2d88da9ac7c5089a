// The sandbox's goal as a picture (as Learn Git Branching shows its goal
// tree): the state the lesson's stored solution ends in, summarized for the
// sandbox's cache, beside the same summary of the state the student's
// attempt is in. Pure over a snapshot (the summary of the goal is computed
// in the lesson worker, the student's from the app's frame).
import type { Snapshot } from '../engine/types';
import { t } from '../i18n';

export interface CpuPicture {
  cpu: number;
  node: number;
  /** sheaves era: main and spare sheaf fill (null: none); classic: cpu slab free objects, cpu partial slabs */
  main: number | null;
  spare: number | null;
  capacity: number;
  /** classic era */
  cpuSlabFree: number | null;
  cpuPartial: number;
}

export interface NodePicture {
  node: number;
  partial: number;
  full: number;
  barn: { full: number; empty: number } | null;
}

export interface StatePicture {
  cache: string;
  era: string;
  /** the cache has per-CPU sheaves (every v7.0 cache but the bootstrap
   * ones; from v6.18 a classic cache created with sheaf_capacity) */
  sheaves: boolean;
  cpus: CpuPicture[];
  nodes: NodePicture[];
  /** objects in use, and slabs, of the cache */
  inuse: number;
  slabs: number;
}

/** The picture of `cacheName` in a snapshot (null: no such live cache). `cpus`
 * limits the CPUs drawn (the sandbox's allowed CPUs). */
export function statePicture(snap: Snapshot, cacheName: string, cpus?: number[]): StatePicture | null {
  const c = snap.caches.find((x) => x.name === cacheName && x.alive);
  if (!c) return null;
  const sheaf = (id: number | null | undefined) => (id === null || id === undefined ? null : snap.sheaves.find((s) => s.id === id) ?? null);
  const slabs = snap.slabs.filter((s) => s.cache === c.id);
  const nodeOf = new Map(snap.topology.nodes.flatMap((n) => n.cpus.map((cpu) => [cpu, n.id] as const)));
  return {
    cache: c.name,
    era: snap.config.era,
    sheaves: c.has_sheaves,
    cpus: (c.cpus ?? [])
      .filter((p) => !cpus || cpus.includes(p.cpu))
      .map((p) => {
        const cs = p.slab === null || p.slab === undefined ? null : slabs.find((s) => s.id === p.slab);
        return {
          cpu: p.cpu,
          node: nodeOf.get(p.cpu) ?? 0,
          main: sheaf(p.main)?.size ?? null,
          spare: sheaf(p.spare)?.size ?? null,
          capacity: c.sheaf_capacity,
          cpuSlabFree: cs ? (p.freelist?.length ?? 0) + cs.freelist.length : null,
          cpuPartial: p.partial?.length ?? 0,
        };
      }),
    nodes: (c.nodes ?? []).map((n) => ({
      node: n.node,
      partial: n.nr_partial,
      full: n.full.length,
      barn: n.barn ? { full: n.barn.nr_full, empty: n.barn.nr_empty } : null,
    })),
    inuse: slabs.reduce((a, s) => a + s.inuse, 0),
    slabs: slabs.length,
  };
}

/** What differs between two pictures, in words ([] if they match): the
 * student's attempt against the goal. */
export function pictureDiff(now: StatePicture, goal: StatePicture): string[] {
  const out: string[] = [];
  const fill = (v: number | null) => (v === null ? t('goal.none') : String(v));
  for (const g of goal.cpus) {
    const n = now.cpus.find((x) => x.cpu === g.cpu);
    if (!n) continue;
    // v6.18/v6.19: a classic cache may have sheaves too, so both are compared
    if (goal.sheaves) {
      if (n.main !== g.main) out.push(t('goal.diffMain', { cpu: g.cpu, now: fill(n.main), goal: fill(g.main) }));
      if (n.spare !== g.spare) out.push(t('goal.diffSpare', { cpu: g.cpu, now: fill(n.spare), goal: fill(g.spare) }));
    }
    if (goal.era === 'classic') {
      if (n.cpuSlabFree !== g.cpuSlabFree) out.push(t('goal.diffCpuSlab', { cpu: g.cpu, now: fill(n.cpuSlabFree), goal: fill(g.cpuSlabFree) }));
      if (n.cpuPartial !== g.cpuPartial) out.push(t('goal.diffCpuPartial', { cpu: g.cpu, now: n.cpuPartial, goal: g.cpuPartial }));
    }
  }
  for (const g of goal.nodes) {
    const n = now.nodes.find((x) => x.node === g.node);
    if (!n) continue;
    if (n.partial !== g.partial) out.push(t('goal.diffPartial', { node: g.node, now: n.partial, goal: g.partial }));
    if (g.barn && n.barn && (n.barn.full !== g.barn.full || n.barn.empty !== g.barn.empty)) {
      out.push(t('goal.diffBarn', { node: g.node, full: n.barn.full, empty: n.barn.empty, gfull: g.barn.full, gempty: g.barn.empty }));
    }
  }
  return out;
}
