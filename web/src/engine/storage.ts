// Uploaded traces, kept across reloads: IndexedDB in the browser (the
// worker writes and reads it), a Map in tests. Each trace is stored as its
// native v1 export (svz_export_v1), which re-opens much faster than a
// re-import and replays identically (docs/import.md), plus the import's
// diagnostics. The metadata and the text live in separate object stores so
// listing never loads a (possibly large) trace text.
import { done, IdbConnection, req } from './idb';
import type { ImportSummary } from './types';

export interface StoredMeta {
  id: string;
  /** the file name (or "pasted text", a sample's name) */
  name: string;
  format: string;
  /** Date.now() at import */
  created: number;
  /** size of the original input */
  bytes: number;
  lines: number;
  ops: number;
  /** size of the stored v1 text */
  v1Bytes: number;
  summary: ImportSummary;
  summaryText: string;
}

export interface TraceStorage {
  list(): Promise<StoredMeta[]>;
  put(meta: StoredMeta, v1: string): Promise<void>;
  meta(id: string): Promise<StoredMeta | null>;
  text(id: string): Promise<string | null>;
  remove(id: string): Promise<void>;
}

/** Newest first. */
function byDate(a: StoredMeta, b: StoredMeta): number {
  return b.created - a.created || (a.id < b.id ? 1 : -1);
}

export class MemoryStorage implements TraceStorage {
  private metas = new Map<string, StoredMeta>();
  private texts = new Map<string, string>();
  async list(): Promise<StoredMeta[]> {
    return [...this.metas.values()].sort(byDate);
  }
  async put(meta: StoredMeta, v1: string): Promise<void> {
    this.metas.set(meta.id, structuredClone(meta));
    this.texts.set(meta.id, v1);
  }
  async meta(id: string): Promise<StoredMeta | null> {
    return this.metas.get(id) ?? null;
  }
  async text(id: string): Promise<string | null> {
    return this.texts.get(id) ?? null;
  }
  async remove(id: string): Promise<void> {
    this.metas.delete(id);
    this.texts.delete(id);
  }
}

const DB = 'slubviz';
const VERSION = 1;
const META = 'traces';
const TEXT = 'texts';

const size = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(0)} MB` : `${Math.ceil(n / 1e3)} kB`);

function isQuota(e: unknown): boolean {
  return (e as { name?: string } | null)?.name === 'QuotaExceededError';
}

/** IndexedDB storage over a connection that recovers (idb.ts). A write is
 * one transaction (meta and text together), so a quota error leaves the
 * stored traces as they were; it says how full the storage is. */
export class IdbStorage implements TraceStorage {
  readonly conn: IdbConnection;

  constructor(
    factory: () => IDBFactory = () => indexedDB,
    private readonly estimate: () => Promise<{ usage?: number; quota?: number } | null> = async () =>
      (await globalThis.navigator?.storage?.estimate?.()) ?? null,
    timeoutMs?: number,
  ) {
    this.conn = new IdbConnection(
      DB,
      VERSION,
      (db) => {
        if (!db.objectStoreNames.contains(META)) db.createObjectStore(META, { keyPath: 'id' });
        if (!db.objectStoreNames.contains(TEXT)) db.createObjectStore(TEXT, { keyPath: 'id' });
      },
      factory,
      timeoutMs,
    );
  }

  async list(): Promise<StoredMeta[]> {
    const all = await this.conn.with((db) => req(db.transaction(META).objectStore(META).getAll()));
    return (all as StoredMeta[]).sort(byDate);
  }

  async put(meta: StoredMeta, v1: string): Promise<void> {
    try {
      await this.conn.with((db) => {
        const tx = db.transaction([META, TEXT], 'readwrite');
        tx.objectStore(TEXT).put({ id: meta.id, text: v1 });
        tx.objectStore(META).put(meta);
        return done(tx);
      });
    } catch (e) {
      if (!isQuota(e)) throw e;
      const est = await this.estimate().catch(() => null);
      const full = est?.usage !== undefined && est.quota ? ` (${size(est.usage)} used of ${size(est.quota)})` : '';
      throw new Error(
        `not stored: the browser's storage is full${full}; this trace needs ${size(v1.length)}. Delete stored traces to make room; the ones stored are kept.`,
      );
    }
  }

  async meta(id: string): Promise<StoredMeta | null> {
    return ((await this.conn.with((db) => req(db.transaction(META).objectStore(META).get(id)))) as StoredMeta | undefined) ?? null;
  }

  async text(id: string): Promise<string | null> {
    const r = (await this.conn.with((db) => req(db.transaction(TEXT).objectStore(TEXT).get(id)))) as { text: string } | undefined;
    return r?.text ?? null;
  }

  async remove(id: string): Promise<void> {
    await this.conn.with((db) => {
      const tx = db.transaction([META, TEXT], 'readwrite');
      tx.objectStore(META).delete(id);
      tx.objectStore(TEXT).delete(id);
      return done(tx);
    });
  }
}
