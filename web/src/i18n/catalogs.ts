// The catalogs by language, all of them in the module: what the tests, the
// workers and Node see. The app's own build swaps in catalogs.lazy.ts
// (web/vite.config.ts), which fetches a language's catalog when it is
// first chosen (issue 14: Korean is not in the main chunk).
import { en, type MsgKey } from './en';
import { ko } from './ko';
import type { Lang } from '.';

export const catalogs: Record<Lang, Record<MsgKey, string>> = { en, ko };

/** Every catalog is already here. */
export function loadCatalog(_lang: Lang): Promise<void> {
  return Promise.resolve();
}
