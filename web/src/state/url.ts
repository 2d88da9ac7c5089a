// Share links: the URL hash carries the scenario (or a compact encoding of
// a custom trace), the config and the position.
//   #s=basics&preset=v7.0-rc1&sets=fix1%3D1&seq=42
//   #t=<base64url(deflate-raw(trace))>&seq=42
//   ...&cache=bio-256&ab=1&bpreset=v7.0-rc1&bsets=fix1%3D1   (A/B compare)
//   ...&sets=schedule%3Drandom+seed%3D5   (the schedule is a set)
//   ...&hand=%40510+c0x6+c1x6   (steps chosen by hand, engine/hand.ts)
// A link is input from anyone: its trace is capped compressed
// (LINK_MAX_COMPRESSED) and inflated (LINK_MAX_TRACE, checked while
// inflating, so a small link cannot be a decompression bomb), and the
// inflate reports progress and can be cancelled (the store opens it like an
// import). Links above the caps are never made (encodeShare refuses).

/** The scenario the app opens by default (and instead of a bad link). */
export const DEFAULT_SCENARIO = 'basics';

/** A bundled scenario's file, by id (its name without .trace). */
export const scenarioPath = (id: string): string => `scenarios/${id}.trace`;

/** Largest compressed trace a link carries (bytes after base64). */
export const LINK_MAX_COMPRESSED = 512 << 10;
/** Largest trace a link inflates to (bytes). */
export const LINK_MAX_TRACE = 4 << 20;

/** A share link that cannot be opened; the message says why. */
export class LinkError extends Error {
  override name = 'LinkError';
}

export interface ShareState {
  scenario?: string;
  trace?: string;
  /** the compressed trace (#t=), before inflateLink() */
  code?: string;
  preset?: string;
  sets?: string;
  seq?: number;
  /** the cache shown, by name */
  cache?: string;
  /** A/B compare: side B's preset and sets (side A is preset/sets) */
  compare?: { preset: string; sets: string };
  /** steps chosen by hand (engine/hand.ts text form) */
  hand?: string;
}

function b64url(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function unb64url(s: string): Uint8Array<ArrayBuffer> {
  if (!/^[A-Za-z0-9_-]*$/.test(s)) throw new LinkError('the trace in this link is damaged (not base64url)');
  let bin: string;
  try {
    bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    throw new LinkError('the trace in this link is damaged (bad base64 length)');
  }
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

async function pipe(bytes: Uint8Array<ArrayBuffer>, t: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(t);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The last trace compressed: the live URL asks again on every step. */
let lastCompressed: { text: string; code: Promise<string> } | null = null;

export function compressTrace(text: string): Promise<string> {
  if (lastCompressed?.text !== text)
    lastCompressed = { text, code: pipe(new TextEncoder().encode(text), new CompressionStream('deflate-raw')).then(b64url) };
  return lastCompressed.code;
}

export async function decompressTrace(code: string): Promise<string> {
  return inflateLink(code);
}

const KiB = (n: number) => `${Math.round(n / 1024)} KiB`;

export interface InflateOpts {
  maxCompressed?: number;
  maxTrace?: number;
  /** compressed bytes fed so far, of `total`; inflated bytes so far */
  progress?: (done: number, total: number, inflated: number) => void;
  /** polled between chunks: true stops the inflate (LinkError 'cancelled') */
  cancelled?: () => boolean;
  chunk?: number;
}

/** Inflates a link's #t= code within the caps, chunk by chunk. Throws
 * LinkError: over a cap, damaged, cancelled. */
export async function inflateLink(code: string, o: InflateOpts = {}): Promise<string> {
  const maxIn = o.maxCompressed ?? LINK_MAX_COMPRESSED;
  const maxOut = o.maxTrace ?? LINK_MAX_TRACE;
  // base64: 4 chars per 3 bytes; refuse before decoding anything big
  if (Math.floor((code.length * 3) / 4) > maxIn)
    throw new LinkError(`the trace in this link is too large: ${KiB((code.length * 3) / 4)} compressed (the limit is ${KiB(maxIn)})`);
  const bytes = unb64url(code);
  const chunk = o.chunk ?? 64 << 10;
  const ds = new DecompressionStream('deflate-raw');
  const writer = ds.writable.getWriter();
  const reader = ds.readable.getReader();
  let stop: LinkError | null = null;
  let fed = 0;
  let out = 0;
  // the writer feeds chunks while the reader below drains (and counts) them
  const feeding = (async () => {
    for (let at = 0; at < bytes.length && !stop; at += chunk) {
      if (o.cancelled?.()) {
        stop = new LinkError('opening the link was cancelled');
        break;
      }
      await writer.write(bytes.subarray(at, Math.min(bytes.length, at + chunk)));
      fed = Math.min(bytes.length, at + chunk);
      o.progress?.(fed, bytes.length, out);
    }
    if (stop) await writer.abort(stop);
    else await writer.close();
  })().catch(() => undefined);
  const parts: Uint8Array[] = [];
  try {
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      if (o.cancelled?.()) {
        stop ??= new LinkError('opening the link was cancelled');
        break;
      }
      out += r.value.length;
      if (out > maxOut) {
        stop = new LinkError(`the trace in this link is too large: it inflates to more than ${KiB(maxOut)} (the limit)`);
        break;
      }
      parts.push(r.value);
    }
  } catch (e) {
    stop ??= new LinkError(`the trace in this link is damaged (${e instanceof Error ? e.message : String(e)})`);
  }
  if (stop) {
    await reader.cancel(stop).catch(() => undefined);
    await feeding;
    throw stop;
  }
  await feeding;
  if (o.cancelled?.()) throw new LinkError('opening the link was cancelled');
  o.progress?.(bytes.length, bytes.length, out);
  const all = new Uint8Array(out);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return new TextDecoder().decode(all);
}

export async function encodeShare(st: ShareState): Promise<string> {
  const p = new URLSearchParams();
  if (st.trace !== undefined) {
    if (st.trace.length > LINK_MAX_TRACE) throw new LinkError(`this trace is too large for a share link (over ${KiB(LINK_MAX_TRACE)})`);
    const code = await compressTrace(st.trace);
    if ((code.length * 3) / 4 > LINK_MAX_COMPRESSED) throw new LinkError(`this trace is too large for a share link (over ${KiB(LINK_MAX_COMPRESSED)} compressed)`);
    p.set('t', code);
  }
  else if (st.scenario) p.set('s', st.scenario);
  if (st.preset) p.set('preset', st.preset);
  if (st.sets) p.set('sets', st.sets);
  if (st.cache) p.set('cache', st.cache);
  if (st.compare) {
    p.set('ab', '1');
    if (st.compare.preset) p.set('bpreset', st.compare.preset);
    if (st.compare.sets) p.set('bsets', st.compare.sets);
  }
  if (st.hand) p.set('hand', st.hand);
  if (st.seq !== undefined) p.set('seq', String(st.seq));
  return '#' + p.toString();
}

/** The link's fields; a trace stays compressed (`code`, see inflateLink). */
export function parseShare(hash: string): ShareState {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  const st: ShareState = {};
  const t = p.get('t');
  if (t) st.code = t;
  const s = p.get('s');
  if (s) st.scenario = s;
  const preset = p.get('preset');
  if (preset) st.preset = preset;
  const sets = p.get('sets');
  if (sets) st.sets = sets;
  const cache = p.get('cache');
  if (cache) st.cache = cache;
  if (p.get('ab') === '1') st.compare = { preset: p.get('bpreset') ?? '', sets: p.get('bsets') ?? '' };
  const hand = p.get('hand');
  if (hand) st.hand = hand;
  const seq = p.get('seq');
  if (seq !== null && /^\d+$/.test(seq)) st.seq = Number(seq);
  return st;
}

/** parseShare and inflateLink (default caps). */
export async function decodeShare(hash: string): Promise<ShareState> {
  const { code, ...st } = parseShare(hash);
  if (code !== undefined) st.trace = await inflateLink(code);
  return st;
}
