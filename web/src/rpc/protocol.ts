// The message protocol between the page and a wasm worker (the engine
// worker, engine/, and the lesson worker, lessons/): typed {id, type}
// requests; every request gets exactly one reply with its id ('ok' or
// 'error'); a long one may send 'progress' messages with that id first.
// A caller cancels a request by sending {id, cancel: true}: the handler
// sees its AbortSignal fire and answers early (its one reply, as ever).
// Each worker names its requests in a union of bodies ({type, ...fields})
// and its replies in a map from type to payload; client.ts and server.ts
// carry them.

/** A request body: its `type` and fields. */
export interface Body {
  type: string;
}

/** Every worker's first request: where slubviz_core.{mjs,wasm} are served. */
export interface InitBody {
  type: 'init';
  wasmBase: string;
}

/** A request on the wire. */
export type Message<B extends Body> = B & { id: number };

/** Cancels request `id` (not answered itself). */
export interface Cancel {
  id: number;
  cancel: true;
}

/** The replies' payloads by request type. */
export type Payloads<B extends Body> = { [T in B['type']]: unknown };

export type Reply =
  | { id: number; type: 'ok'; result: unknown; ms: number }
  /** trap: the worker's wasm instance trapped (it must not be used again) */
  | { id: number; type: 'error'; message: string; trap?: boolean }
  | { id: number; type: 'progress'; done: number; total: number; what: string; lines?: number };

export type ProgressFn = (done: number, total: number, what: string, lines?: number) => void;

/** What a caller holds: a worker behind a client, or a backend in process (tests). */
export interface Api<B extends Body, P extends Payloads<B>> {
  /** `signal` cancels the request (a handler that can stop early does) */
  call<T extends B>(body: T, onProgress?: ProgressFn, signal?: AbortSignal): Promise<P[T['type']]>;
}

/** A request lost to a worker crash (the client replaces the worker). */
export class EngineCrash extends Error {
  override name = 'EngineCrash';
}
