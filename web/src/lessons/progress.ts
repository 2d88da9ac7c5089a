// Lesson progress, kept across reloads: IndexedDB in the browser (database
// "slubviz-lessons", its own, so the trace store's versions stay apart), a
// Map in tests and where IndexedDB is unavailable.

export interface QuestionProgress {
  /** the choice id(s) or the clicked element id answered first */
  first: string;
  /** answered right at least once */
  correct: boolean;
  /** the answer was revealed (the player ran to the reveal position) */
  revealed: boolean;
}

export interface LessonProgress {
  id: string;
  /** stop ids seen */
  seen: string[];
  questions: Record<string, QuestionProgress>;
  /** the sandbox goals were all reached */
  goal: boolean;
  /** the last sandbox attempt (op lines) */
  sandbox: string[];
  /** where the student was (item index) */
  item: number;
  updated: number;
}

export function emptyProgress(id: string): LessonProgress {
  return { id, seen: [], questions: {}, goal: false, sandbox: [], item: 0, updated: 0 };
}

export interface ProgressStorage {
  all(): Promise<LessonProgress[]>;
  put(p: LessonProgress): Promise<void>;
  clear(): Promise<void>;
}

export class MemoryProgress implements ProgressStorage {
  private m = new Map<string, LessonProgress>();
  async all(): Promise<LessonProgress[]> {
    return [...this.m.values()].map((p) => structuredClone(p));
  }
  async put(p: LessonProgress): Promise<void> {
    this.m.set(p.id, structuredClone(p));
  }
  async clear(): Promise<void> {
    this.m.clear();
  }
}

const DB = 'slubviz-lessons';
const VERSION = 1;
const STORE = 'progress';

function req<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error ?? new Error('IndexedDB request failed'));
  });
}

export class IdbProgress implements ProgressStorage {
  private db: Promise<IDBDatabase> | null = null;

  private open(): Promise<IDBDatabase> {
    this.db ??= new Promise((resolve, reject) => {
      const r = indexedDB.open(DB, VERSION);
      r.onupgradeneeded = () => {
        if (!r.result.objectStoreNames.contains(STORE)) r.result.createObjectStore(STORE, { keyPath: 'id' });
      };
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error ?? new Error('IndexedDB open failed'));
      r.onblocked = () => reject(new Error('IndexedDB open blocked'));
    });
    return this.db;
  }

  async all(): Promise<LessonProgress[]> {
    const db = await this.open();
    return req(db.transaction(STORE, 'readonly').objectStore(STORE).getAll() as IDBRequest<LessonProgress[]>);
  }

  async put(p: LessonProgress): Promise<void> {
    const db = await this.open();
    const tx = db.transaction(STORE, 'readwrite');
    tx.objectStore(STORE).put(p);
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error ?? new Error('IndexedDB write failed'));
      tx.onabort = () => reject(tx.error ?? new Error('IndexedDB write aborted'));
    });
  }

  async clear(): Promise<void> {
    const db = await this.open();
    const tx = db.transaction(STORE, 'readwrite');
    tx.objectStore(STORE).clear();
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error ?? new Error('IndexedDB clear failed'));
    });
  }
}

/** IndexedDB if the browser has it, else memory. */
export function defaultProgressStorage(): ProgressStorage {
  return typeof indexedDB !== 'undefined' ? new IdbProgress() : new MemoryProgress();
}

/** A lesson's progress in numbers, for the list. */
export interface ProgressSummary {
  stopsSeen: number;
  stops: number;
  answered: number;
  correct: number;
  questions: number;
  goal: boolean;
  done: boolean;
}

export function summarizeProgress(p: LessonProgress | undefined, stops: string[], questions: string[]): ProgressSummary {
  const seen = new Set(p?.seen ?? []);
  const stopsSeen = stops.filter((s) => seen.has(s)).length;
  const qs = questions.map((q) => p?.questions[q]).filter((x): x is QuestionProgress => !!x);
  const answered = qs.length;
  const correct = qs.filter((q) => q.correct).length;
  const goal = !!p?.goal;
  return {
    stopsSeen, stops: stops.length, answered, correct, questions: questions.length, goal,
    done: stopsSeen === stops.length && answered === questions.length && goal,
  };
}
