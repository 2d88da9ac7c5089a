// One IndexedDB connection that recovers (the trace storage, storage.ts,
// and the lesson progress, lessons/progress.ts): a failed, blocked or
// timed-out open is not kept, so the next call opens again; another tab
// upgrading the database (versionchange) gets our connection closed so it is
// not blocked, and the next call reopens; a call whose connection went away
// meanwhile runs once more on a fresh one.

/** an open that neither succeeds nor fails (some private modes) gives up */
export const OPEN_TIMEOUT_MS = 10_000;

export function req<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error ?? new Error('IndexedDB request failed'));
  });
}

export function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
}

/** The connection went away under us (closed for another tab's upgrade,
 * storage cleared): worth one retry on a fresh connection. */
function isGone(e: unknown): boolean {
  const n = (e as { name?: string } | null)?.name;
  return n === 'InvalidStateError' || n === 'TransactionInactiveError';
}

export class IdbConnection {
  private db: Promise<IDBDatabase> | null = null;
  /** opens so far (tests) */
  opens = 0;

  constructor(
    readonly name: string,
    readonly version: number,
    private readonly upgrade: (db: IDBDatabase) => void,
    private readonly factory: () => IDBFactory = () => indexedDB,
    private readonly timeoutMs = OPEN_TIMEOUT_MS,
  ) {}

  open(): Promise<IDBDatabase> {
    if (this.db) return this.db;
    this.opens++;
    const p = new Promise<IDBDatabase>((resolve, reject) => {
      let r: IDBOpenDBRequest;
      try {
        r = this.factory().open(this.name, this.version);
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
        return;
      }
      const timer = setTimeout(() => reject(new Error('IndexedDB did not open (timed out); nothing is stored for now')), this.timeoutMs);
      r.onupgradeneeded = () => this.upgrade(r.result);
      r.onsuccess = () => {
        clearTimeout(timer);
        const db = r.result;
        const drop = () => {
          if (this.db === p) this.db = null;
        };
        // another tab wants a newer version: let it (ours reopens on the next call)
        db.onversionchange = () => {
          db.close();
          drop();
        };
        db.onclose = drop;
        resolve(db);
      };
      r.onerror = () => {
        clearTimeout(timer);
        const e = r.error;
        reject(
          e?.name === 'VersionError'
            ? new Error('the stored data was written by a newer slubviz (another tab?): reload this page')
            : (e ?? new Error('cannot open IndexedDB')),
        );
      };
      r.onblocked = () => {
        clearTimeout(timer);
        reject(new Error('IndexedDB is blocked by another slubviz tab that is still open: close or reload it, then try again'));
      };
    });
    this.db = p;
    // never keep a failure: the next call tries again
    p.catch(() => {
      if (this.db === p) this.db = null;
    });
    return p;
  }

  /** Runs `fn` on the database; once more on a fresh connection if the
   * first one went away meanwhile. */
  async with<T>(fn: (db: IDBDatabase) => Promise<T>): Promise<T> {
    const db = await this.open();
    try {
      return await fn(db);
    } catch (e) {
      if (!isGone(e)) throw e;
      this.db = null;
      return fn(await this.open());
    }
  }
}
