// Frames across the worker boundary. A snapshot's slabs[].owners (one
// {obj, handle, site} per live object held by a handle) is almost all of a
// big state's snapshot (30,000 live objects: 1.27 of 1.34 MB of JSON), and
// the page's structured clone of so many small objects was most of a
// playing frame. The worker packs each slab's owners (packFrames: the
// objects as one typed array, the handles as one string, the sites as a
// table); the page unpacks them (unpackFrames) into the same `owners`
// property, built from the packed form the first time it is read, so
// every reader sees the same snapshot. ownerSites() counts a slab's call
// sites from the packed form without building its owners.
//
// A slab whose owners did not change shares its owners array with the
// engine's earlier snapshots (Engine.snapshot()), so the worker packs an
// array once and sends the same packed form, with the same token, every
// frame; ownersKey() is that token on the page, what a view compares
// instead of the owners.
import type { SnapOwner, SnapSlab, Snapshot } from './types';

/** A slab's owners as they cross: `handles` joined by '\n' (trace tokens
 * hold no newline; a list with one that does goes as it is). */
interface PackedOwners {
  obj: Uint32Array;
  handles: string | string[];
  /** the distinct call sites, each owner's index among them, and how
   * many owners each has */
  sites: string[];
  site: Uint32Array;
  counts: Uint32Array;
  /** the same for the same owners array; a worker's first token is random,
   * so a restarted worker's tokens are not an earlier one's */
  token: number;
}

const PACKED = '__ownersPacked';
type WireSlab = Omit<SnapSlab, 'owners'> & { [PACKED]?: PackedOwners };

let lastToken = Math.floor(Math.random() * 2 ** 48);
/** Worker side: the packed form of each owners array (shared by the
 * snapshots whose slab did not change). */
const packedArray = new WeakMap<SnapOwner[], PackedOwners>();

function packOnce(owners: SnapOwner[]): PackedOwners {
  let p = packedArray.get(owners);
  if (!p) packedArray.set(owners, (p = pack(owners)));
  return p;
}

function pack(owners: SnapOwner[]): PackedOwners {
  const obj = new Uint32Array(owners.length);
  const site = new Uint32Array(owners.length);
  const handles: string[] = [];
  const siteIndex = new Map<string, number>();
  const counts: number[] = [];
  let newline = false;
  owners.forEach((o, i) => {
    obj[i] = o.obj;
    handles.push(o.handle);
    newline ||= o.handle.includes('\n');
    let s = siteIndex.get(o.site);
    if (s === undefined) {
      siteIndex.set(o.site, (s = siteIndex.size));
      counts.push(0);
    }
    site[i] = s;
    counts[s]++;
  });
  const sites = [...siteIndex.keys()];
  return { obj, handles: newline ? handles : handles.join('\n'), sites, site, counts: Uint32Array.from(counts), token: ++lastToken };
}

function unpack(p: PackedOwners): SnapOwner[] {
  const handles = typeof p.handles === 'string' ? (p.obj.length ? p.handles.split('\n') : []) : p.handles;
  return Array.from(p.obj, (obj, i) => ({ obj, handle: handles[i], site: p.sites[p.site[i]] }));
}

/** The packed owners of slabs unpacked on the page, by slab. */
const packedOf = new WeakMap<SnapSlab, PackedOwners>();
/** The token of a slab's packed owners, and the owners built from them once read. */
const tokenOf = new WeakMap<SnapSlab, { token: number; built?: SnapOwner[] }>();

/** What a slab's owners are, for comparing two snapshots' slabs: the
 * token they came packed with while they are the ones built from it, else
 * the owners themselves. */
export function ownersKey(slab: SnapSlab): number | SnapOwner[] | undefined {
  const t = tokenOf.get(slab);
  if (t && (packedOf.has(slab) || slab.owners === t.built)) return t.token;
  return slab.owners;
}

/** A slab's contents as one string (two equal keys: the same slab drawn),
 * without building owners that came packed. */
export function slabKey(slab: SnapSlab): string {
  return JSON.stringify(Object.keys(slab).map((k) => [k, k === 'owners' ? ownersKey(slab) : slab[k as keyof SnapSlab]]));
}

/** How many of a slab's owners each call site has (in order of first
 * appearance), without building the owners when they came packed. */
export function ownerSites(slab: SnapSlab): Map<string, number> {
  const counts = new Map<string, number>();
  const p = packedOf.get(slab);
  if (p) p.sites.forEach((site, i) => counts.set(site, p.counts[i]));
  else for (const o of slab.owners ?? []) counts.set(o.site, (counts.get(o.site) ?? 0) + 1);
  return counts;
}

function packSnapshot(snap: Snapshot): Snapshot {
  const slabs = snap.slabs.map((s): SnapSlab | WireSlab => {
    if (!s.owners) return s;
    const { owners, ...rest } = s;
    return { ...rest, [PACKED]: packOnce(owners) };
  });
  return { ...snap, slabs: slabs as SnapSlab[] };
}

function unpackSnapshot(snap: Snapshot): void {
  for (const s of snap.slabs as WireSlab[]) {
    const p = s[PACKED];
    if (!p) continue;
    delete s[PACKED];
    const slab = s as SnapSlab;
    packedOf.set(slab, p);
    const token = { token: p.token } as { token: number; built?: SnapOwner[] };
    tokenOf.set(slab, token);
    // the owners built on first read, then a plain property like any other
    const settle = (owners: SnapOwner[]) => {
      Object.defineProperty(slab, 'owners', { value: owners, writable: true, enumerable: true, configurable: true });
      packedOf.delete(slab);
    };
    Object.defineProperty(slab, 'owners', {
      enumerable: true,
      configurable: true,
      get() {
        const owners = (token.built = unpack(p));
        settle(owners);
        return owners;
      },
      set: settle,
    });
  }
}

interface HasSnapshot {
  snapshot: Snapshot;
}

const isFrame = (x: unknown): x is HasSnapshot =>
  typeof x === 'object' && x !== null && 'snapshot' in x && typeof (x as HasSnapshot).snapshot === 'object' && (x as HasSnapshot).snapshot !== null;

/** A reply's frames: itself, or its `frame` (open, hand steps). */
function withFrames(result: unknown, each: (f: HasSnapshot) => HasSnapshot): unknown {
  if (isFrame(result)) return each(result);
  if (typeof result === 'object' && result !== null && 'frame' in result && isFrame(result.frame)) return { ...result, frame: each(result.frame) };
  return result;
}

/** Worker side: a reply with its frames' owners packed (new objects: the
 * engine keeps the snapshot it answered). */
export function packFrames(result: unknown): unknown {
  return withFrames(result, (f) => ({ ...f, snapshot: packSnapshot(f.snapshot) }));
}

/** Page side: the reply as it was before packFrames (in place). */
export function unpackFrames(result: unknown): unknown {
  return withFrames(result, (f) => {
    unpackSnapshot(f.snapshot);
    return f;
  });
}
