// IndexedDB that recovers (idb.ts, IdbStorage, IdbProgress) over a small
// in-memory fake of the IndexedDB API whose opens can fail, block or hang,
// whose other tabs can upgrade, and whose quota can run out.
import { describe, expect, test } from 'vitest';
import { IdbProgress } from '../lessons/progress';
import { IdbStorage, type StoredMeta } from './storage';

type Rec = { id: string } & Record<string, unknown>;

class FakeDb {
  onversionchange: (() => void) | null = null;
  onclose: (() => void) | null = null;
  closed = false;
  constructor(readonly f: FakeIdb) {}
  get objectStoreNames() {
    return { contains: (n: string) => this.f.stores.has(n) };
  }
  createObjectStore(n: string): void {
    this.f.stores.set(n, new Map());
  }
  transaction(names: string | string[]): FakeTx {
    if (this.closed) throw new DOMException('The database connection is closing.', 'InvalidStateError');
    return new FakeTx(this.f, [names].flat());
  }
  close(): void {
    this.closed = true;
  }
}

class FakeReq<T> {
  result!: T;
  error: DOMException | null = null;
  onsuccess: (() => void) | null = null;
  onerror: (() => void) | null = null;
}

class FakeTx {
  oncomplete: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  error: DOMException | null = null;
  private writes: (() => void)[] = [];
  private added = 0;
  constructor(
    readonly f: FakeIdb,
    readonly names: string[],
  ) {
    setTimeout(() => this.finish(), 0);
  }
  private answer<T>(v: () => T): FakeReq<T> {
    const r = new FakeReq<T>();
    queueMicrotask(() => {
      r.result = v();
      r.onsuccess?.();
    });
    return r;
  }
  objectStore(n: string) {
    const st = this.f.stores.get(n)!;
    return {
      put: (v: Rec) => {
        this.added += JSON.stringify(v).length;
        this.writes.push(() => st.set(v.id, structuredClone(v)));
        return this.answer(() => v.id);
      },
      delete: (id: string) => {
        this.writes.push(() => st.delete(id));
        return this.answer(() => undefined);
      },
      clear: () => {
        this.writes.push(() => st.clear());
        return this.answer(() => undefined);
      },
      get: (id: string) => this.answer(() => structuredClone(st.get(id))),
      getAll: () => this.answer(() => [...st.values()].map((v) => structuredClone(v))),
    };
  }
  private finish(): void {
    if (this.f.quota !== null && this.f.used() + this.added > this.f.quota) {
      // all or nothing, as IndexedDB does
      this.error = new DOMException('Quota exceeded', 'QuotaExceededError');
      this.onerror?.();
      this.onabort?.();
      return;
    }
    for (const w of this.writes) w();
    this.oncomplete?.();
  }
}

class FakeIdb {
  stores = new Map<string, Map<string, Rec>>();
  version = 0;
  quota: number | null = null;
  /** what the next opens do */
  script: ('fail' | 'block' | 'hang')[] = [];
  conns: FakeDb[] = [];
  used(): number {
    let n = 0;
    for (const s of this.stores.values()) for (const v of s.values()) n += JSON.stringify(v).length;
    return n;
  }
  open(_name: string, version: number) {
    const r = Object.assign(new FakeReq<FakeDb>(), { onupgradeneeded: null as (() => void) | null, onblocked: null as (() => void) | null });
    const how = this.script.shift();
    setTimeout(() => {
      if (how === 'hang') return;
      if (how === 'fail') {
        r.error = new DOMException('Internal error opening backing store', 'UnknownError');
        r.onerror?.();
        return;
      }
      if (how === 'block') {
        r.onblocked?.();
        return;
      }
      const db = new FakeDb(this);
      r.result = db;
      if (this.version < version) {
        this.version = version;
        r.onupgradeneeded?.();
      }
      this.conns.push(db);
      r.onsuccess?.();
    }, 0);
    return r;
  }
  /** another tab opens a newer version */
  upgradeElsewhere(): void {
    for (const c of this.conns) if (!c.closed) c.onversionchange?.();
  }
}

function meta(id: string): StoredMeta {
  return { id, name: `${id}.txt`, format: 'ftrace', created: id.charCodeAt(0), bytes: 1, lines: 1, ops: 1, v1Bytes: 1, summary: {} as StoredMeta['summary'], summaryText: '' };
}

function make(timeoutMs = 10_000) {
  const f = new FakeIdb();
  const s = new IdbStorage(() => f as unknown as IDBFactory, async () => ({ usage: 1e6, quota: 2e6 }), timeoutMs);
  return { f, s };
}

describe('IndexedDB storage that recovers', () => {
  test('a failed open is not kept: the next call opens again', async () => {
    const { f, s } = make();
    f.script = ['fail'];
    await expect(s.list()).rejects.toThrow(/backing store/);
    await s.put(meta('a'), 'text a');
    expect((await s.list()).map((m) => m.id)).toEqual(['a']);
    expect(s.conn.opens).toBe(2);
  });

  test('a blocked open says why, and the next call works', async () => {
    const { f, s } = make();
    f.script = ['block'];
    await expect(s.put(meta('a'), 'x')).rejects.toThrow('IndexedDB is blocked by another slubviz tab that is still open: close or reload it, then try again');
    await s.put(meta('a'), 'x');
    expect(await s.text('a')).toBe('x');
  });

  test('an open that hangs times out, and the next call works', async () => {
    const { f, s } = make(30);
    f.script = ['hang'];
    await expect(s.list()).rejects.toThrow(/timed out/);
    expect(await s.list()).toEqual([]);
  });

  test("another tab's upgrade closes our connection (not blocking it); the next call reopens, nothing lost", async () => {
    const { f, s } = make();
    await s.put(meta('a'), 'text a');
    f.upgradeElsewhere();
    expect(f.conns[0].closed).toBe(true);
    await s.put(meta('b'), 'text b');
    expect((await s.list()).map((m) => m.id)).toEqual(['b', 'a']);
    expect(await s.text('a')).toBe('text a');
    expect(s.conn.opens).toBe(2);
  });

  test('a connection closed under us (no event) is retried once on a fresh one', async () => {
    const { f, s } = make();
    await s.list();
    f.conns[0].close();
    expect(await s.meta('nope')).toBeNull();
    expect(s.conn.opens).toBe(2);
  });

  test('quota: a clear message, the stored traces kept whole, no half-stored trace', async () => {
    const { f, s } = make();
    await s.put(meta('a'), 'text a');
    f.quota = f.used() + 500;
    await expect(s.put(meta('b'), 'b'.repeat(10_000))).rejects.toThrow(
      "not stored: the browser's storage is full (1 MB used of 2 MB); this trace needs 10 kB. Delete stored traces to make room; the ones stored are kept.",
    );
    expect((await s.list()).map((m) => m.id)).toEqual(['a']);
    expect(await s.text('a')).toBe('text a');
    expect(await s.meta('b')).toBeNull();
    expect(await s.text('b')).toBeNull();
    // room made: it stores
    await s.remove('a');
    f.quota = null;
    await s.put(meta('b'), 'b'.repeat(10_000));
    expect((await s.list()).map((m) => m.id)).toEqual(['b']);
  });

  test('the lesson progress store recovers the same way', async () => {
    const f = new FakeIdb();
    const p = new IdbProgress(() => f as unknown as IDBFactory);
    f.script = ['fail'];
    await expect(p.all()).rejects.toThrow();
    await p.put({ id: '01-anatomy', item: 2, seen: [], questions: {}, sandboxDone: false } as never);
    f.upgradeElsewhere();
    expect((await p.all()).map((x) => x.id)).toEqual(['01-anatomy']);
  });
});
