// The engine worker's requests and replies, carried by the shared worker
// protocol (rpc/protocol.ts: ids, 'ok' / 'error' / 'progress' replies).
import type { DeferredState } from '../../../core/wasm/slubviz-api';
import type { InitBody } from '../rpc/protocol';
import type { StoredMeta } from './storage';
import type { Manifest, Snapshot, SvzEvent } from './types';

export type BreakpointKind =
  | 'alloc_slowpath' | 'new_slab' | 'discard' | 'object'
  // per era: sheaves (barn_get_fail, sheaf_refill, no_barn), both (a contended list_lock, a chosen object freed by its user)
  | 'barn_get_fail' | 'sheaf_refill' | 'no_barn' | 'list_lock_contended' | 'object_freed';

export interface Breakpoint {
  kind: BreakpointKind;
  /** object id, for kind 'object' */
  obj?: number;
}

export interface RunMeta {
  opsTotal: number;
  /** micro-steps of the whole run (until the pre-pass is done: of the
   * part it has run, a lower bound) */
  seqTotal: number;
  /** the pre-pass has run to the end: the samples, checkpoints, end
   * handles and seqTotal are final (else it goes on in the background,
   * request 'prepass') */
  prepassDone: boolean;
  /** ops the pre-pass has run so far (opsTotal once done) */
  prepassOps: number;
  description: string;
  /** op index at the end of each sample (the sparkline x axis) */
  sampleOps: number[];
  /** summed SLUB_STATS over all caches and CPUs at each sample */
  samples: Record<string, number[]>;
  checkpoints: number;
  checkpointEvery: number;
  /** wasm heap bytes the checkpoints take, and their budget */
  checkpointBytes: number;
  checkpointBudget: number;
  /** svz_checkpoint calls that failed (out of wasm memory): the run has
   * fewer checkpoints than planned, seeks replay more */
  checkpointFailures: number;
  runError: string;
  /** handles still live at the end of the trace (from the snapshot's
   * owners), the ones free play can free; at most END_HANDLES_MAX */
  endHandles: EndHandle[];
  /** live handles left out of endHandles */
  endHandlesMore: number;
  /** steps chosen by hand in the run (engine/hand.ts) */
  handSteps: number;
  /** the seq of the first hand step a replay could not run (a link's
   * steps for another trace or config: dropped from there on), or -1 */
  handDropped: number;
}

/** What a step chosen by hand (or forgetting them) answers: the new
 * position, the run's new meta (its future changed) and its hand steps
 * (hand.ts text form); `refused` says why nothing ran. */
export interface HandReply {
  frame: Frame;
  meta: RunMeta;
  hand: string;
  refused: HandRefusal | null;
}

/** Why a step chosen by hand did not run: the run has stopped, no such
 * CPU, the CPU is idle and its next op waits (or it has none left), the
 * CPU cannot run for another reason. */
export type HandRefusal = 'stopped' | 'no_cpu' | 'waits' | 'cannot';

export interface EndHandle {
  handle: string;
  cache: string;
  kmalloc: boolean;
  site: string;
}

/** An import that produced a trace: its v1 text is held by the worker
 * under `ref` (and stored in IndexedDB when asked). */
export interface ImportOk {
  ok: true;
  ref: string;
  meta: StoredMeta;
  stored: boolean;
  storeError: string;
  /** worker time: streaming import (begin..end), export to v1, storing */
  ms: { import: number; export: number; store: number };
}

export interface ImportFail {
  ok: false;
  cancelled: boolean;
  /** svz_last_error(): why nothing could be imported */
  error: string;
  name: string;
  bytes: number;
  lines: number;
}

export type ImportResult = ImportOk | ImportFail;

export interface Frame {
  seq: number;
  opsDone: number;
  opsTotal: number;
  inflight: number;
  stopped: boolean;
  runError: string;
  snapshot: Snapshot;
  /** the micro-step just run (seq - 1), null at seq 0 */
  event: SvzEvent | null;
  /** a few events up to and including `event`, oldest first */
  recent: SvzEvent[];
  /** a breakpoint was hit (runUntil) */
  hit?: boolean;
  /** the lanes view's window: the last events up to `event`, oldest
   * first (the engine's lanesWindow; absent when 0) */
  lanes?: SvzEvent[];
}

/** The engine worker's requests (the first, 'init', is the protocol's). */
export type RequestBody =
  | InitBody
  /** svz_manifest_json: the presets, switches, stats ... the UI offers */
  | { type: 'manifest' }
  | {
      type: 'open';
      /** the trace text, or '' with `ref` (a text the worker holds: an import) */
      trace: string;
      ref?: string;
      /** v1 lines appended to the trace (free play) */
      append?: string;
      preset: string;
      sets: string;
      checkpointEvery?: number;
      /** steps chosen by hand, replayed (engine/hand.ts text form) */
      hand?: string;
      /** the lanes view's window (see 'lanes') */
      lanes?: number;
      /** return after this many ms of pre-pass (the first screen), the
       * rest running in the background ('prepass'); absent: all of it */
      foregroundMs?: number;
    }
  /** run the open trace's pre-pass on while the engine is idle (between
   * other requests); answers the final meta, or null when another trace
   * was opened first. Progress: ops done. */
  | { type: 'prepass' }
  | { type: 'step'; count: number }
  | { type: 'stepOp'; count: number }
  | { type: 'seek'; seq: number }
  | { type: 'seekOp'; op: number }
  | { type: 'runUntil'; bp: Breakpoint; maxSteps?: number }
  /** step this CPU: one micro-step of `cpu`, chosen by hand (svz_step_cpu) */
  | { type: 'stepCpu'; cpu: number }
  /** forget the steps chosen by hand */
  | { type: 'clearHand' }
  /** the lanes view's window (events per frame, 0 = none); answers a frame */
  | { type: 'lanes'; window: number }
  /** the run so far as a `steps` line (every micro-step's CPU) */
  | { type: 'stepsLine' }
  | { type: 'text'; what: 'slabinfo' | 'sysfs' | 'stats' | 'validate' | 'reports'; cache?: string }
  | { type: 'frame' }
  /** stream `source` through svz_import_* in chunks (progress: bytes,
   * lines); cancelled through the call's signal */
  | { type: 'import'; source: Blob; name: string; format: string; store: boolean }
  /** svz_export_v1 of the open session */
  | { type: 'export' }
  | { type: 'storedList' }
  /** loads a stored trace's text under ref "stored:<id>" */
  | { type: 'storedOpen'; storedId: string }
  | { type: 'storedDelete'; storedId: string }
  /** a held text (share links of imports), null if above maxBytes */
  | { type: 'getText'; ref: string; maxBytes: number }
  /** the trace texts the worker holds, for the worker that replaces it
   * after a trap (plain JS state, answered even by a broken worker) */
  | { type: 'held' }
  /** the texts a replaced worker held */
  | { type: 'adopt'; held: Held }
  /** test only: trap the wasm instance (svz_debug_trap) */
  /** how the wasm module's deferred half came (DeferredHalf.state) */
  | { type: 'deferredWasm' }
  | { type: 'debugTrap'; kind: 'abort' | 'unreachable' };

/** Trace texts a worker holds (imports by ref), handed to its successor. */
export interface Held {
  texts: [string, string][];
  openRef: string | null;
  pendingRef: string | null;
}

export type RequestType = RequestBody['type'];

export interface OpenResult {
  meta: RunMeta;
  frame: Frame;
  /** the steps chosen by hand the run replays (those that could run) */
  hand: string;
}

export type ReplyPayload = {
  init: null;
  manifest: Manifest;
  open: OpenResult;
  prepass: RunMeta | null;
  step: Frame;
  stepOp: Frame;
  seek: Frame;
  seekOp: Frame;
  runUntil: Frame;
  stepCpu: HandReply;
  clearHand: HandReply;
  lanes: Frame;
  stepsLine: string;
  text: string;
  frame: Frame;
  import: ImportResult;
  export: { text: string; bytes: number };
  storedList: StoredMeta[];
  storedOpen: { ref: string; meta: StoredMeta };
  storedDelete: StoredMeta[];
  getText: string | null;
  held: Held;
  adopt: null;
  deferredWasm: DeferredState;
  debugTrap: null;
};
