// The worker side of the protocol (protocol.ts): a request loop over a
// handler made once from the wasm module (as the worker starts, or on
// 'init' or the first request).
// Requests run one at a time in arrival order, except those the options
// call concurrent (they never touch the queued requests' state: an import
// beside the engine's session, its cancel, the held texts).
//
// A wasm trap (isTrap) is answered with `trap: true` and breaks this
// instance: it may be corrupt, so every later request fails (as a trap)
// except those `afterTrap` allows (plain JS state the client fetches for
// the worker it starts instead, client.ts).
import { DeferredHalf, type SlubvizModule, type SlubvizModuleFactory } from '../../../core/wasm/slubviz-api';
import type { Body, Cancel, InitBody, Message, ProgressFn, Reply } from './protocol';

/** What a worker does with each request but 'init'. */
export interface Handler<B extends Body> {
  /** `signal` fires when the caller cancels the request */
  handle(body: B, progress: ProgressFn, signal: AbortSignal): unknown;
}

export interface ServeOptions<B extends Body> {
  /** requests that may run beside the queue */
  concurrent?(type: B['type']): boolean;
  /** requests still answered after a trap */
  afterTrap?(type: B['type']): boolean;
  /** a result as it crosses to the page (the client's `decode` undoes it) */
  encode?(result: unknown): unknown;
  /** load from `wasmBase` at once, not on 'init' (workerWasmBase()) */
  loadNow?: boolean;
}

/** Where a worker loads the wasm from: its name, which the page's spawn sets
 * to the wasm's folder (rpc/client.ts), so the load starts as the worker
 * starts; the page's 'init' reaches a new worker only once the page's
 * thread is next free (42 ms after the worker was ready, in a traced cold
 * load here). A worker started without a name waits for 'init'. */
export function workerWasmBase(scope: { name: string; location: { href: string } }): { wasmBase: string; loadNow: boolean } {
  if (scope.name) return { wasmBase: scope.name, loadNow: true };
  return { wasmBase: new URL('../wasm/', scope.location.href).href, loadNow: false };
}

/** A wasm trap (unreachable, out-of-bounds access, Emscripten's abort(),
 * stack overflow): the instance may be corrupt and is not used again. */
export function isTrap(e: unknown): boolean {
  if (typeof WebAssembly !== 'undefined' && e instanceof WebAssembly.RuntimeError) return true;
  return e instanceof RangeError && /call stack/i.test(e.message);
}

class Broken extends Error {}

/** A request handler over the Handler `load(wasmBase)` makes; replies go to `post`. */
export function serve<B extends Body>(
  load: (wasmBase: string) => Promise<Handler<B>>,
  post: (r: Reply) => void,
  wasmBase: string,
  opts: ServeOptions<B> = {},
): (req: Message<B | InitBody> | Cancel) => void {
  let handler: Promise<Handler<B>> | null = null;
  /** where `handler` loads from */
  let handlerBase = wasmBase;
  if (opts.loadNow) {
    handler = load(wasmBase);
    handler.catch(() => undefined); // reported to 'init' (or dropped for init's other base)
  }
  /** the trap that broke the instance */
  let broken: string | null = null;
  /** the requests running or queued, by id */
  const running = new Map<number, AbortController>();

  async function handle(req: Message<B | InitBody>, signal: AbortSignal): Promise<unknown> {
    const init = req.type === 'init';
    if (init) wasmBase = (req as Message<InitBody>).wasmBase;
    if (handler === null || (init && wasmBase !== handlerBase)) {
      handler = load(wasmBase);
      handlerBase = wasmBase;
    }
    const h = await handler;
    if (init) return null;
    const { id, ...rest } = req as Message<B>;
    const body = rest as unknown as B;
    if (broken !== null && !opts.afterTrap?.(body.type)) throw new Broken(`the engine is restarting after: ${broken}`);
    return h.handle(body, (done, total, what, lines) => post({ id, type: 'progress', done, total, what, lines }), signal);
  }

  async function answer(req: Message<B | InitBody>, signal: AbortSignal): Promise<void> {
    const t0 = performance.now();
    try {
      const result = await handle(req, signal);
      post({ id: req.id, type: 'ok', result: opts.encode ? opts.encode(result) : result, ms: performance.now() - t0 });
    } catch (err) {
      const trapped = isTrap(err);
      // a trap names its kind ("RuntimeError: unreachable")
      const message = err instanceof Error ? (trapped ? `${err.name}: ${err.message}` : err.message) : String(err);
      if (trapped && broken === null) broken = message;
      post({ id: req.id, type: 'error', message, trap: trapped || err instanceof Broken });
    } finally {
      running.delete(req.id);
    }
  }

  let chain: Promise<void> = Promise.resolve();
  return (msg) => {
    if ('cancel' in msg) {
      running.get(msg.id)?.abort();
      return;
    }
    const req = msg;
    const ac = new AbortController();
    running.set(req.id, ac);
    if (req.type !== 'init' && opts.concurrent?.(req.type as B['type'])) {
      void answer(req, ac.signal);
      return;
    }
    chain = chain.then(() => answer(req, ac.signal));
  };
}

/** The deferred half's bytes at once: a synchronous XHR (a worker may). */
function readNow(url: string): ArrayBuffer {
  const xhr = new XMLHttpRequest();
  xhr.open('GET', url, false);
  xhr.responseType = 'arraybuffer';
  xhr.send();
  if (xhr.status !== 200) throw new Error(`${url}: HTTP ${xhr.status}`);
  return xhr.response as ArrayBuffer;
}

async function fetchBytes(url: string): Promise<ArrayBuffer> {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return r.arrayBuffer();
}

/** The wasm module served from `base` (the folder of slubviz_core.{mjs,wasm}),
 * and its deferred half (slubviz_core.deferred.wasm): the caller says when
 * to prefetch it; a call into it before then loads it at once. */
export async function loadWasm(base: string, print: (s: string) => void = () => {}): Promise<{ mod: SlubvizModule; deferred: DeferredHalf }> {
  // the module downloads and compiles while the glue loads (the glue would
  // only start fetching it once loaded itself)
  const [glue, compiled] = await Promise.all([
    import(/* @vite-ignore */ `${base}slubviz_core.mjs`) as Promise<{ default: SlubvizModuleFactory }>,
    fetchBytes(`${base}slubviz_core.wasm`).then((bytes) => WebAssembly.compile(bytes)),
  ]);
  const url = `${base}slubviz_core.deferred.wasm`;
  const deferred = new DeferredHalf(() => readNow(url), () => fetchBytes(url));
  // Emscripten only logs an error thrown by instantiateWasm and never
  // settles its promise: the error (a glue and module of two versions from
  // a stale cache: LinkError) must fail the load, not hang it
  let failed: (e: unknown) => void = () => {};
  const failure = new Promise<never>((_, reject) => (failed = reject));
  const mod = await Promise.race([
    glue.default({
      print,
      // the glue's notices of an on-demand load are not warnings: the
      // 'deferredWasm' request tells how the half came
      printErr: (s: string) => {
        if (!DeferredHalf.isNotice(s)) console.warn(s);
      },
      instantiateWasm: (imports, done) => {
        try {
          const instance = new WebAssembly.Instance(compiled, imports);
          done(instance, compiled);
          return instance.exports;
        } catch (e) {
          failed(e);
          throw e;
        }
      },
      ...deferred.factoryOptions(),
    }),
    failure,
  ]);
  return { mod: deferred.attach(mod), deferred };
}
