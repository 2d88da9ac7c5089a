// The engine worker's request loop (worker.ts runs it on the worker's
// messages; the tests run it in process behind a fake Worker): the shared
// loop (rpc/server.ts) over a Backend. An import (and its cancel) runs
// beside the engine requests, since it never touches the engine's session;
// 'held' (the trace texts, plain JS) is answered even after a trap. Frames
// go out with their snapshots' owners packed (wire.ts).
import { serve as serveRpc } from '../rpc/server';
import type { Message, Reply } from '../rpc/protocol';
import { Backend } from './backend';
import type { RequestBody } from './protocol';
import { packFrames } from './wire';

/** A request handler over the Backend `load(wasmBase)` makes (once: at
 * once with `loadNow`, else on 'init' or the first request); replies go to
 * `post`. */
export function serve(
  load: (wasmBase: string) => Promise<Backend>,
  post: (r: Reply) => void,
  wasmBase: string,
  { loadNow = false }: { loadNow?: boolean } = {},
): (req: Message<RequestBody>) => void {
  return serveRpc<RequestBody>(load, post, wasmBase, { concurrent: Backend.concurrent, afterTrap: (type) => type === 'held', encode: packFrames, loadNow });
}
