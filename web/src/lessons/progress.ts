// Lesson progress, kept across reloads: IndexedDB in the browser (database
// "slubviz-lessons", its own, so the trace store's versions stay apart), a
// Map in tests and where IndexedDB is unavailable.
import { done, IdbConnection, req } from '../engine/idb';

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

/** IndexedDB over a connection that recovers (engine/idb.ts). */
export class IdbProgress implements ProgressStorage {
  readonly conn: IdbConnection;

  constructor(factory?: () => IDBFactory) {
    this.conn = new IdbConnection(
      DB,
      VERSION,
      (db) => {
        if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE, { keyPath: 'id' });
      },
      factory,
    );
  }

  all(): Promise<LessonProgress[]> {
    return this.conn.with((db) => req(db.transaction(STORE, 'readonly').objectStore(STORE).getAll() as IDBRequest<LessonProgress[]>));
  }

  put(p: LessonProgress): Promise<void> {
    return this.conn.with((db) => {
      const tx = db.transaction(STORE, 'readwrite');
      tx.objectStore(STORE).put(p);
      return done(tx);
    });
  }

  clear(): Promise<void> {
    return this.conn.with((db) => {
      const tx = db.transaction(STORE, 'readwrite');
      tx.objectStore(STORE).clear();
      return done(tx);
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
