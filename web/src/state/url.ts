// Share links: the URL hash carries the scenario (or a compact encoding of
// a custom trace), the config and the position.
//   #s=basics&preset=v7.0-rc1&sets=fix1%3D1&seq=42
//   #t=<base64url(deflate-raw(trace))>&seq=42

export interface ShareState {
  scenario?: string;
  trace?: string;
  preset?: string;
  sets?: string;
  seq?: number;
  cache?: string;
}

function b64url(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function unb64url(s: string): Uint8Array<ArrayBuffer> {
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

async function pipe(bytes: Uint8Array<ArrayBuffer>, t: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(t);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export async function compressTrace(text: string): Promise<string> {
  return b64url(await pipe(new TextEncoder().encode(text), new CompressionStream('deflate-raw')));
}

export async function decompressTrace(code: string): Promise<string> {
  return new TextDecoder().decode(await pipe(unb64url(code), new DecompressionStream('deflate-raw')));
}

export async function encodeShare(st: ShareState): Promise<string> {
  const p = new URLSearchParams();
  if (st.trace !== undefined) p.set('t', await compressTrace(st.trace));
  else if (st.scenario) p.set('s', st.scenario);
  if (st.preset) p.set('preset', st.preset);
  if (st.sets) p.set('sets', st.sets);
  if (st.cache) p.set('cache', st.cache);
  if (st.seq !== undefined) p.set('seq', String(st.seq));
  return '#' + p.toString();
}

export async function decodeShare(hash: string): Promise<ShareState> {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  const st: ShareState = {};
  const t = p.get('t');
  if (t) st.trace = await decompressTrace(t);
  const s = p.get('s');
  if (s) st.scenario = s;
  const preset = p.get('preset');
  if (preset) st.preset = preset;
  const sets = p.get('sets');
  if (sets) st.sets = sets;
  const cache = p.get('cache');
  if (cache) st.cache = cache;
  const seq = p.get('seq');
  if (seq !== null && /^\d+$/.test(seq)) st.seq = Number(seq);
  return st;
}
