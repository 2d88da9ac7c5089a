// The plain-language gloss of a step: one sentence beside the engineer's
// event text, for a reader who does not know mm/slub.c yet ("CPU 5's main
// sheaf is empty: it looks for a full sheaf in the barn"). Generated from
// the event's fields with one template per event kind (KIND_GLOSS), one
// phrase per location (PLACE) and one per decision (CHECK_GLOSS); the names
// are the manifest's (event_kinds, locations) and engine.h's CHECKS, and a
// test checks every manifest name has its entry.
import type { Snapshot, SvzEvent } from '../engine/types';

/** Where a thing sits, in words (the manifest's `locations`). */
export const PLACE: Record<string, string> = {
  none: 'nowhere',
  user: 'the caller',
  main: 'the main sheaf',
  spare: 'the spare sheaf',
  barn_full: "the barn's full sheaves",
  barn_empty: "the barn's empty sheaves",
  freelist: "a slab's free list",
  partial: "the node's partial slabs",
  private: 'a private list of slabs',
  bulk: 'the bulk array',
  chain: 'a chain of freed objects',
  pages: 'the page allocator',
  sheaf: 'a sheaf',
  cpu_freelist: "the CPU's lockless free list",
  cpu_slab: "the CPU's own slab",
  cpu_partial: "the CPU's partial slabs",
};

/** The decisions of `check` events (engine.h CHECKS), in words. */
export const CHECK_GLOSS: Record<string, string> = {
  MAIN_EMPTY: 'the main sheaf is empty, so the fast path cannot serve this',
  MAIN_FULL: 'the main sheaf is full, so the freed object cannot go there',
  NO_SHEAVES: 'this cache has no sheaves: it uses the slabs directly',
  NO_BARN: 'this node has no barn (no memory of its own): no sheaf exchange',
  BARN_NO_FULL: 'the barn has no full sheaf to give',
  BARN_NO_EMPTY: 'the barn has no empty sheaf to give',
  BARN_TOO_MANY_FULL: 'the barn already holds as many full sheaves as it may',
  NO_BLOCKING: 'this caller may not sleep, so no sheaf refill: the slow way instead',
  NO_SPINNING: 'this caller may not even spin on a lock',
  PARTIAL_EMPTY: 'the node has no partially used slab to take from',
  NODE_MISMATCH: 'the caller asked for another memory node than this CPU\'s',
  DEFRAG_SKIP: 'it decides not to look at other nodes this time',
  NO_NODE: 'that node has no memory, so nothing to take there',
  REMOTE_OBJECT: 'the object belongs to another node: it goes straight back to its slab',
  OUT_OF_MEMORY: 'there is no memory left: the allocation fails',
  SHORT_REFILL: 'the refill found fewer objects than it wanted',
  SURPLUS: 'the slab had more free objects than needed',
  DRAIN_NEEDED: 'some objects are still in use',
  SWAP_SPARE: 'it swaps the main and spare sheaves',
  SHEAF_EMPTY: 'the prefilled sheaf is empty: no object',
  RCU_FAIL: 'no RCU sheaf to batch into: the classic kfree_rcu path',
  CLASSIC_NO_PREFILL: 'prefilled sheaves do not exist in this kernel',
  KEEP_EMPTY: 'the empty slab is kept, the node has few partial slabs',
  ISOLATED: 'another refill is using this slab: it is left alone',
};

const LOCK: Record<string, string> = {
  list_lock: "the node's list lock",
  barn_lock: "the barn's lock",
  cpu_sheaves_lock: "the CPU's sheaves lock",
  cpu_slab_lock: "the CPU's kmem_cache_cpu lock",
};

interface Ctx {
  who: string;
  cache: string;
  n: (one: string, many?: string) => string;
  from: string;
  to: string;
  lock: string;
}

const plural = (count: number) => (one: string, many = `${one}s`) => (Math.abs(count) === 1 ? `one ${one}` : `${Math.abs(count)} ${many}`);

/** One template per event kind (the manifest's `event_kinds`). */
export const KIND_GLOSS: Record<string, (e: SvzEvent, c: Ctx) => string> = {
  lock: (_, c) => `${c.who} takes ${c.lock}`,
  unlock: (_, c) => `${c.who} lets go of ${c.lock}`,
  trylock_fail: (e, c) => `${c.who} tries ${c.lock}, but CPU ${e.value} holds it: it does not wait`,
  spin: (e, c) => `${c.who} waits for ${c.lock}, held by CPU ${e.value}`,
  cmpxchg: (e, c) =>
    e.count >= 0
      ? `${c.who} grabs ${c.n('free object')} of a slab in one atomic update (${e.value} now in use)`
      : `${c.who} gives ${c.n('object')} back to its slab in one atomic update (${e.value} still in use)`,
  take_object: (_, c) => `${c.who} takes ${c.n('object')} out of ${c.from} into ${c.to}`,
  put_object: (_, c) => `${c.who} puts ${c.n('object')} from ${c.from} into ${c.to}`,
  move_slab: (_, c) => `${c.who} moves a slab from ${c.from} to ${c.to}`,
  move_sheaf: (e, c) => `${c.who} moves a sheaf of ${e.value} object${e.value === 1 ? '' : 's'} from ${c.from} to ${c.to}`,
  stat: (e, c) => `${c.who} counts one more ${e.stat ?? 'event'} (${e.value} on this CPU)`,
  new_slab: (e, c) => `${c.who} builds a new slab of ${e.value} objects for ${c.cache} on fresh pages`,
  discard_slab: (_, c) => `${c.who} gives an empty slab of ${c.cache} back to the page allocator`,
  page_alloc: (e, c) => `${c.who} asks the page allocator for ${1 << e.count} page${e.count ? 's' : ''}`,
  page_free: (e, c) => `${c.who} returns ${1 << e.count} page${e.count ? 's' : ''} to the page allocator`,
  page_alloc_fail: (e, c) => `${c.who} asks for ${1 << e.count} page${e.count ? 's' : ''} and gets none`,
  sheaf_alloc: (e, c) => `${c.who} makes a new empty sheaf with room for ${e.value} objects`,
  sheaf_free: (_, c) => `${c.who} throws away an empty sheaf`,
  check: (e, c) => `${c.who}: ${(e.check && CHECK_GLOSS[e.check]) ?? 'it takes a decision'}`,
  return: (e, c) => (e.obj !== undefined ? `${c.who} hands the object to the caller: done` : `${c.who} is done with this operation`),
  report: (_, c) => `${c.who} finds something wrong and prints a kernel error report`,
};

/** The gloss of one step: a plain sentence, or '' before the first step. */
export function gloss(ev: SvzEvent | null, snap?: Snapshot | null): string {
  if (!ev) return '';
  const cache = ev.cache !== undefined ? snap?.caches.find((c) => c.id === ev.cache)?.name : undefined;
  const ctx: Ctx = {
    who: `CPU ${ev.cpu}`,
    cache: cache ?? 'the cache',
    n: plural(ev.count),
    from: PLACE[ev.from ?? ''] ?? ev.from ?? 'somewhere',
    to: PLACE[ev.to ?? ''] ?? ev.to ?? 'somewhere',
    lock: LOCK[ev.lock ?? ''] ?? 'a lock',
  };
  const t = KIND_GLOSS[ev.kind];
  const s = t ? t(ev, ctx) : `${ctx.who} runs ${ev.fn}`;
  return s.charAt(0).toUpperCase() + s.slice(1) + '.';
}
