// The engine worker starts here, and loads and compiles its wasm while the
// app's own modules download and evaluate (issue 14, cold load: the
// worker's start was the first render's critical path). The build makes
// this module an entry of its own, which index.html runs before the main
// chunk has arrived (web/vite.config.ts, earlyEntry); main.tsx imports it
// first, which in dev is what runs it.
//
// The data the first run waits for (the scenario list, the address's
// scenario) is asked for here too, for the same reason: asked for once
// the main chunk had run, it sent the worker's 'open' ~100 ms later.
import { EngineClient } from './engine/client';
import { decodeLessonLink } from './lessons/link';
import { DEFAULT_SCENARIO, parseShare, scenarioPath } from './state/url';

export const base = new URL(import.meta.env.BASE_URL, location.href);
export const engine = EngineClient.create(new URL('wasm/', base).href);

/** A data file from the server; an HTTP error is the path's error. */
export async function fetchOk(path: string): Promise<Response> {
  const r = await fetch(new URL(path, base));
  if (!r.ok) throw new Error(`${path}: HTTP ${r.status}`);
  return r;
}

/** A data file's text; a server's SPA fallback answering a missing one
 * with index.html is a miss. */
async function fetchNew(path: string): Promise<string> {
  const r = await fetchOk(path);
  if (!path.endsWith('.html') && /text\/html/.test(r.headers.get('content-type') ?? '')) throw new Error(`${path}: not found`);
  return r.text();
}

/** Texts asked for before the app asks, each handed out once. */
const early = new Map<string, Promise<string>>();

function fetchEarly(path: string): void {
  const text = fetchNew(path);
  text.catch(() => undefined); // unclaimed (a link to no such scenario): no unhandled rejection
  early.set(path, text);
}

/** The scenario the address opens (none for a lesson or a trace in the link). */
function linkedScenarioPath(hash: string): string | null {
  if (decodeLessonLink(hash)) return null;
  const share = parseShare(hash);
  return share.code === undefined ? scenarioPath(share.scenario ?? DEFAULT_SCENARIO) : null;
}

fetchEarly('scenarios/index.json');
const linked = linkedScenarioPath(location.hash);
if (linked) fetchEarly(linked);

/** A data file's text: the early fetch's, the first time it is asked for. */
export function fetchText(path: string): Promise<string> {
  const text = early.get(path);
  early.delete(path);
  return text ?? fetchNew(path);
}
