// The app's catalogs (web/vite.config.ts puts this module in place of
// catalogs.ts in the app's build): English in the main chunk, any other
// language fetched when it is first chosen (index.ts waits for it before
// switching, so no screen is drawn half translated).
import { en, type MsgKey } from './en';
import type { Lang } from '.';

export const catalogs: Partial<Record<Lang, Record<MsgKey, string>>> = { en };

const loaders: Record<Exclude<Lang, 'en'>, () => Promise<Record<MsgKey, string>>> = {
  ko: () => import('./ko').then((m) => m.ko),
};
const pending = new Map<Lang, Promise<void>>();

export function loadCatalog(lang: Lang): Promise<void> {
  if (lang === 'en' || catalogs[lang]) return Promise.resolve();
  let p = pending.get(lang);
  if (!p) {
    p = loaders[lang]().then((c) => {
      catalogs[lang] = c;
    });
    // a failed fetch may be retried by the next choice
    p.catch(() => pending.delete(lang));
    pending.set(lang, p);
  }
  return p;
}
