// Types of the documents that cross the C API (docs/events.md, core/src/api/views.c
// view_snapshot_json). Schema 1.

export type Location =
  | 'none' | 'user' | 'main' | 'spare' | 'barn_full' | 'barn_empty' | 'freelist'
  | 'partial' | 'private' | 'bulk' | 'chain' | 'pages' | 'sheaf' | string;

export interface SvzEvent {
  seq: number;
  op: number;
  cpu: number;
  fn: string;
  kind: string;
  cache?: number;
  slab?: number;
  obj?: number;
  addr?: string;
  sheaf?: number;
  node?: number;
  from?: Location;
  to?: Location;
  lock?: string;
  stat?: string;
  check?: string;
  count: number;
  value: number;
  text: string;
  /** timed runs: the CPU's clock when the step began, and its price (cycles) */
  t?: number;
  cycles?: number;
  /** set by the engine on lanes events: a step chosen by hand */
  hand?: boolean;
}

export interface SnapConfig {
  preset: string;
  era: 'sheaves' | 'classic' | string;
  page_size: number;
  switches: Record<string, string | boolean>;
  /** the run's schedule (docs/trace-format.md §3.1); seed: random only;
   * steps: the trace's `steps` tokens */
  schedule?: { kind: string; seed?: string; steps: number };
}

export interface SnapNode {
  id: number;
  mem_pages: number;
  used_pages: number;
  has_memory: boolean;
  cpus: number[];
}

export interface SnapBarn {
  id: number;
  lock: number;
  nr_full: number;
  nr_empty: number;
  full: number[];
  empty: number[];
}

export interface SnapCacheNode {
  node: number;
  list_lock: number;
  nr_partial: number;
  nr_slabs: number;
  total_objects: number;
  partial: number[];
  full: number[];
  counters: Record<string, number>;
  barn: SnapBarn | null;
}

export interface SnapCacheCpu {
  cpu: number;
  /** s->cpu_sheaves->lock owner, or -1 */
  lock: number;
  /** the classic era's s->cpu_slab->lock (kmem_cache_cpu) owner, or -1 */
  cpu_slab_lock?: number;
  main: number | null;
  spare: number | null;
  /** kfree_rcu sheaf being filled (sheaves era) */
  rcu_free?: number | null;
  /** kmem_cache_cpu of the classic era: c->freelist (object ids, in order) */
  freelist?: number[];
  /** c->slab */
  slab?: number | null;
  /** c->partial, head first */
  partial?: number[];
  tid?: number;
}

export interface SnapCache {
  id: number;
  name: string;
  alive: boolean;
  kmalloc: boolean;
  has_sheaves: boolean;
  ctor: boolean;
  flags: string;
  size: number;
  object_size: number;
  align: number;
  offset: number;
  order: number;
  objects: number;
  min_order: number;
  min_objects: number;
  min_partial: number;
  sheaf_capacity: number;
  /** live caches: the figures `slubviz diff` prints, computed by the core
   * (core/src/model/stats.c): % of allocations on the slow path, and
   * n->list_lock acquisitions per 1000 ops done */
  alloc_slow_share?: number;
  list_lock_per_kop?: number;
  remote_node_defrag_ratio: number;
  fp_writes: number;
  slabs_allocated: number;
  slabs_freed: number;
  stats?: Record<string, number[]>;
  nodes?: SnapCacheNode[];
  cpus?: SnapCacheCpu[];
}

export interface SnapSheaf {
  id: number;
  cache: number;
  size: number;
  capacity: number;
  node: number;
  where: 'none' | 'main' | 'spare' | 'barn_full' | 'barn_empty' | 'detached' | string;
  /** the CPU (main, spare, rcu_free, rcu_pending: the one that queued it),
   * the node (barn lists) or the trace's handle id (prefilled) */
  where_id: number;
  /** prefilled: the trace's name for the sheaf */
  handle?: string;
  objects: number[];
}

export interface SnapFree {
  obj: number;
  raw: string | null;
  next: string | null;
}

export interface SnapOwner {
  obj: number;
  /** the trace's handle name */
  handle: string;
  /** call site label (at=), '' if none */
  site: string;
}

export interface SnapSlab {
  id: number;
  cache: number;
  node: number;
  order: number;
  objects: number;
  inuse: number;
  frozen: boolean;
  list: 'none' | 'partial' | 'full' | 'private' | string;
  pfn: number;
  base: string;
  slab: string;
  obj0: number;
  freelist: number[];
  freelist_broken: boolean;
  state: string;
  /** objects held by handles (only when the session has a trace) */
  owners?: SnapOwner[];
  free: SnapFree[];
}

export interface SnapCpu {
  cpu: number;
  node: number;
  op: number | null;
  frames: string[];
  bulk: number[];
  chain_len: number;
  pending: number | null;
  private: number[];
  sheaf_stash: number[];
  /** the lock the CPU spins on (owner -1: released since its last poll) */
  lock_wait?: { lock: string; node: number; cache: number; owner: number } | null;
  /** timed runs: simulated cycles, of which working, spinning, waiting */
  clock?: number;
  busy?: number;
  spin?: number;
  idle?: number;
}

export interface Snapshot {
  schema: number;
  seq: number;
  ops_done: number;
  inflight: number;
  /** the first op not returned yet (every op below it has) */
  first_pending?: number;
  stopped: boolean;
  reports: number;
  config: SnapConfig;
  topology: {
    nr_cpus: number;
    possible: number;
    present: number;
    online: number;
    nodes: SnapNode[];
  };
  caches: SnapCache[];
  sheaves: SnapSheaf[];
  slabs: SnapSlab[];
  large: { id: number; node: number; order: number; pfn: number; size: number }[];
  cpus: SnapCpu[];
}

/** svz_import_summary_json (docs/import.md, schema 1). */
export interface ImportSummary {
  schema: number;
  format: string;
  ok: boolean;
  error?: string;
  bytes: number;
  lines: number;
  truncated: boolean;
  /** The last line, cut short mid-event (no newline): not imported; 0 if none. */
  cut_line: number;
  comment_lines: number;
  blank_lines: number;
  events: number;
  kept: number;
  ops: number;
  skipped: Record<string, number>;
  unpaired: number;
  rebound: number;
  other_events: Record<string, number>;
  other_events_total: number;
  callchain_lines: number;
  caches: {
    name: string;
    bytes_req: number;
    bytes_alloc: number;
    object_size: number;
    align: number;
    flags: string;
    ctor: boolean;
    origin: 'trace' | 'inferred' | 'named-by-free' | 'recreated' | string;
    size_fallback: boolean;
    allocs: number;
    /** origin 'recreated': the first cache of the same name (other sizes) */
    recreates?: string;
  }[];
  pointers: { hashed: number; raw: number };
  cpus_seen: string;
  /** CPU columns beyond the model's CPUs ("300", "256-4095"; their events skipped), "" if none */
  cpus_beyond: string;
  header_cpus: number;
  /** trace-cmd report -i A -i B: each input's name, CPU count and the first
   * CPU its events replay on (all 0 when cpus_shared) */
  input_files?: { count: number; cpus_shared: boolean; files: { name: string; cpus: number; first_cpu: number }[] };
  topology: { nodes: number; cpus: number; node_mem: number };
  notes: Record<string, number>;
  gfp_unknown_names: string[];
  bad_lines: number;
  errors: { line: number; msg: string }[];
}

/** svz_manifest_json() (core/src/api/manifest.c): the core's vocabulary. The
 * app's lists of presets, switches, stats and formats come from here; its
 * types are the binding's (core/wasm/slubviz-api.d.ts). */
export type { Manifest, ManifestPreset, ManifestSwitch } from '../../../core/wasm/slubviz-api';
