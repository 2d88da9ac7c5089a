// Trace text helpers for free play: appending ops, finding live handles.
// The engine parses traces; these helpers only add plain op lines (no
// repeat blocks) and read the plain ones back.

export interface FreeOp {
  cpu: number;
  /** kfree: a kmalloc'ed handle (the cache is then informative only) */
  op: 'alloc' | 'free' | 'kfree';
  cache: string;
  handle: string;
}

export function opLine(o: FreeOp): string {
  return o.op === 'kfree' ? `c${o.cpu} kfree ${o.handle}` : `c${o.cpu} ${o.op} ${o.cache} ${o.handle}`;
}

export function appendOps(trace: string, ops: FreeOp[]): string {
  if (ops.length === 0) return trace;
  const base = trace.endsWith('\n') || trace === '' ? trace : trace + '\n';
  const head = base.includes('# free play') ? '' : '# free play\n';
  return base + head + ops.map(opLine).join('\n') + '\n';
}

/** Handles allocated and not freed by the plain (non-repeat) ops of a
 * trace, in allocation order, with their cache (null for kmalloc). */
export function liveHandles(trace: string): { handle: string; cache: string | null }[] {
  const live = new Map<string, string | null>();
  let depth = 0;
  for (const raw of trace.split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    if (!line) continue;
    const t = line.split(/\s+/);
    if (t[0] === 'repeat') {
      depth++;
      continue;
    }
    if (t[0] === '}') {
      depth = Math.max(0, depth - 1);
      continue;
    }
    if (depth > 0 || !/^c\d+$/.test(t[0]) || line.includes('{')) continue;
    switch (t[1]) {
      case 'alloc':
        live.set(t[3], t[2]);
        break;
      case 'kmalloc':
        live.set(t[3], null);
        break;
      case 'free':
        live.delete(t[3]);
        break;
      case 'kfree':
        live.delete(t[2]);
        break;
    }
  }
  return [...live].map(([handle, cache]) => ({ handle, cache }));
}

/** A fresh handle name not used in the trace. */
export function freshHandle(trace: string, prefix = 'fp'): string {
  for (let i = 0; ; i++) {
    const h = `${prefix}${i}`;
    if (!new RegExp(`\\s${h}(\\s|$)`, 'm').test(trace)) return h;
  }
}
