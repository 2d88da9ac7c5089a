// The engine worker's request loop (worker.ts runs it on the worker's
// messages; the tests run it in process behind a fake Worker): engine
// requests one at a time in arrival order; an import (and its cancel)
// beside them, since it never touches the engine's session.
//
// A wasm trap (isTrap) is answered with `trap: true` and breaks this
// instance: it may be corrupt, so every later request fails (as a trap)
// except 'held' (the trace texts, plain JS), which the client fetches for
// the worker it starts instead (client.ts).
import { Backend, isTrap } from './backend';
import type { Reply, Request } from './protocol';

class Broken extends Error {}

/** A request handler over the Backend `load(wasmBase)` makes (once, on
 * 'init' or the first request); replies go to `post`. */
export function serve(load: (wasmBase: string) => Promise<Backend>, post: (r: Reply) => void, wasmBase: string): (req: Request) => void {
  let backend: Promise<Backend> | null = null;
  /** the trap that broke the instance */
  let broken: string | null = null;

  async function handle(req: Request): Promise<unknown> {
    if (req.type === 'init') wasmBase = req.wasmBase;
    backend ??= load(wasmBase);
    const b = await backend;
    if (req.type === 'init') return null;
    if (broken !== null && req.type !== 'held') throw new Broken(`the engine is restarting after: ${broken}`);
    const progress = (done: number, total: number, what: string, lines?: number) =>
      post({ id: req.id, type: 'progress', done, total, what, lines });
    const { id: _id, ...body } = req;
    return b.handle(body, progress);
  }

  async function answer(req: Request): Promise<void> {
    const t0 = performance.now();
    try {
      const result = await handle(req);
      post({ id: req.id, type: 'ok', result, ms: performance.now() - t0 });
    } catch (err) {
      const trapped = isTrap(err);
      // a trap names its kind ("RuntimeError: unreachable")
      const message = err instanceof Error ? (trapped ? `${err.name}: ${err.message}` : err.message) : String(err);
      if (trapped && broken === null) broken = message;
      post({ id: req.id, type: 'error', message, trap: trapped || err instanceof Broken });
    }
  }

  let chain: Promise<void> = Promise.resolve();
  return (req) => {
    if (Backend.concurrent(req.type)) {
      void answer(req);
      return;
    }
    chain = chain.then(() => answer(req));
  };
}
