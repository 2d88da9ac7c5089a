// Uploaded traces, kept across reloads: IndexedDB in the browser (the
// worker writes and reads it), a Map in tests. Each trace is stored as its
// native v1 export (svz_export_v1), which re-opens much faster than a
// re-import and replays identically (docs/import.md), plus the import's
// diagnostics. The metadata and the text live in separate object stores so
// listing never loads a (possibly large) trace text.
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

function req<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error ?? new Error('IndexedDB request failed'));
  });
}

function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
}

export class IdbStorage implements TraceStorage {
  private db: Promise<IDBDatabase> | null = null;

  constructor(private readonly factory: IDBFactory = indexedDB) {}

  private open(): Promise<IDBDatabase> {
    this.db ??= new Promise((resolve, reject) => {
      const r = this.factory.open(DB, VERSION);
      r.onupgradeneeded = () => {
        const db = r.result;
        if (!db.objectStoreNames.contains(META)) db.createObjectStore(META, { keyPath: 'id' });
        if (!db.objectStoreNames.contains(TEXT)) db.createObjectStore(TEXT, { keyPath: 'id' });
      };
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error ?? new Error('cannot open IndexedDB'));
      r.onblocked = () => reject(new Error('IndexedDB is blocked by another tab'));
    });
    return this.db;
  }

  async list(): Promise<StoredMeta[]> {
    const db = await this.open();
    const all = await req(db.transaction(META).objectStore(META).getAll());
    return (all as StoredMeta[]).sort(byDate);
  }

  async put(meta: StoredMeta, v1: string): Promise<void> {
    const db = await this.open();
    const tx = db.transaction([META, TEXT], 'readwrite');
    tx.objectStore(TEXT).put({ id: meta.id, text: v1 });
    tx.objectStore(META).put(meta);
    await done(tx);
  }

  async meta(id: string): Promise<StoredMeta | null> {
    const db = await this.open();
    return ((await req(db.transaction(META).objectStore(META).get(id))) as StoredMeta | undefined) ?? null;
  }

  async text(id: string): Promise<string | null> {
    const db = await this.open();
    const r = (await req(db.transaction(TEXT).objectStore(TEXT).get(id))) as { text: string } | undefined;
    return r?.text ?? null;
  }

  async remove(id: string): Promise<void> {
    const db = await this.open();
    const tx = db.transaction([META, TEXT], 'readwrite');
    tx.objectStore(META).delete(id);
    tx.objectStore(TEXT).delete(id);
    await done(tx);
  }
}
