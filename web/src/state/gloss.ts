// The plain-language gloss of a step: one sentence beside the engineer's
// event text, for a reader who does not know mm/slub.c yet ("CPU 5's main
// sheaf is empty: it looks for a full sheaf in the barn"). Generated from
// the event's fields with one template per event kind (KIND_GLOSS), one
// phrase per location (PLACE) and one per decision (CHECK_GLOSS); the names
// are the manifest's (event_kinds, locations, checks, locks), the phrases
// the catalog's (i18n/), and a test checks every name has its phrase.
import type { Snapshot, SvzEvent } from '../engine/types';
import { format, getLang, type Lang, type MsgKey, type Vars } from '../i18n';
import { en } from '../i18n/en';

/** The catalog's phrases under a prefix, by the name after it: the names
 * are the manifest's (gloss.test.ts checks every one has its phrase), not
 * a list typed here. */
function keysUnder(prefix: string, fallback: string): Record<string, MsgKey> {
  return Object.fromEntries(
    Object.keys(en)
      .filter((k) => k.startsWith(prefix) && k !== fallback)
      .map((k) => [k.slice(prefix.length), k as MsgKey]),
  );
}

/** Where a thing sits, in words (the manifest's `locations`): message keys. */
export const PLACE = keysUnder('place.', 'place.somewhere');

/** The decisions of `check` events (the manifest's `checks`), in words: message keys. */
export const CHECK_GLOSS = keysUnder('check.', 'check.other');

const LOCK: Record<string, MsgKey> = {
  list_lock: 'lock.list_lock',
  barn_lock: 'lock.barn_lock',
  cpu_sheaves_lock: 'lock.cpu_sheaves_lock',
  cpu_slab_lock: 'lock.cpu_slab_lock',
};

interface Ctx {
  m: (key: MsgKey, vars?: Vars) => string;
  /** the event's count of `what`, in words ("one object", "60 objects") */
  n: (what: 'object' | 'freeObject') => string;
  /** the sentence's words: who, cache, from, to, lock */
  w: { who: string; cache: string; from: string; to: string; lock: string };
}

const plural = (n: number): 'one' | 'other' => (n === 1 ? 'one' : 'other');
const pages = (c: Ctx, order: number) => c.m(`gloss.page.${plural(1 << order)}`, { n: 1 << order });

/** One template per event kind (the manifest's `event_kinds`). */
export const KIND_GLOSS: Record<string, (e: SvzEvent, c: Ctx) => string> = {
  lock: (_, c) => c.m('gloss.lock', c.w),
  unlock: (_, c) => c.m('gloss.unlock', c.w),
  trylock_fail: (e, c) => c.m('gloss.trylock_fail', { ...c.w, holder: e.value }),
  spin: (e, c) => c.m('gloss.spin', { ...c.w, holder: e.value }),
  cmpxchg: (e, c) =>
    e.count >= 0
      ? c.m('gloss.cmpxchgTake', { who: c.w.who, objs: c.n('freeObject'), inuse: e.value })
      : c.m('gloss.cmpxchgGive', { who: c.w.who, objs: c.n('object'), inuse: e.value }),
  take_object: (_, c) => c.m('gloss.take_object', { ...c.w, objs: c.n('object') }),
  put_object: (_, c) => c.m('gloss.put_object', { ...c.w, objs: c.n('object') }),
  move_slab: (_, c) => c.m('gloss.move_slab', c.w),
  move_sheaf: (e, c) => c.m(`gloss.move_sheaf.${plural(e.value)}`, { ...c.w, n: e.value }),
  stat: (e, c) => c.m('gloss.stat', { who: c.w.who, stat: e.stat ?? c.m('gloss.statEvent'), n: e.value }),
  new_slab: (e, c) => c.m('gloss.new_slab', { ...c.w, n: e.value }),
  discard_slab: (_, c) => c.m('gloss.discard_slab', c.w),
  page_alloc: (e, c) => c.m('gloss.page_alloc', { who: c.w.who, pages: pages(c, e.count) }),
  page_free: (e, c) => c.m('gloss.page_free', { who: c.w.who, pages: pages(c, e.count) }),
  page_alloc_fail: (e, c) => c.m('gloss.page_alloc_fail', { who: c.w.who, pages: pages(c, e.count) }),
  sheaf_alloc: (e, c) => c.m('gloss.sheaf_alloc', { who: c.w.who, n: e.value }),
  sheaf_free: (_, c) => c.m('gloss.sheaf_free', c.w),
  check: (e, c) => c.m('gloss.check', { who: c.w.who, why: c.m((e.check && CHECK_GLOSS[e.check]) || 'check.other') }),
  return: (e, c) => c.m(e.obj !== undefined ? 'gloss.returnObj' : 'gloss.returnDone', c.w),
  report: (_, c) => c.m('gloss.report', c.w),
};

/** The gloss of one step: a plain sentence, or '' before the first step. */
export function gloss(ev: SvzEvent | null, snap?: Snapshot | null, lang: Lang = getLang()): string {
  if (!ev) return '';
  const m = (key: MsgKey, vars?: Vars) => format(lang, key, vars);
  const cache = ev.cache !== undefined ? snap?.caches.find((c) => c.id === ev.cache)?.name : undefined;
  const place = (p: string | undefined) => (p && PLACE[p] ? m(PLACE[p]) : p || m('place.somewhere'));
  const count = Math.abs(ev.count);
  const ctx: Ctx = {
    m,
    n: (what) => m(`gloss.${what}.${plural(count)}`, { n: count }),
    w: {
      who: m('gloss.who', { cpu: ev.cpu }),
      cache: cache ?? m('gloss.theCache'),
      from: place(ev.from),
      to: place(ev.to),
      lock: ev.lock && LOCK[ev.lock] ? m(LOCK[ev.lock]) : m('lock.other'),
    },
  };
  const tpl = KIND_GLOSS[ev.kind];
  const s = tpl ? tpl(ev, ctx) : m('gloss.runs', { who: ctx.w.who, fn: ev.fn });
  return s.charAt(0).toUpperCase() + s.slice(1) + '.';
}
