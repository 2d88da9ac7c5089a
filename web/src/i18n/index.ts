// The UI's languages: message catalogs (en.ts is the source of truth and
// defines the keys; ko.ts has exactly the same keys, i18n.test.ts checks
// keys and {placeholders}), t() to format one, and the current language:
// ?lang= in the address, else the one picked before (localStorage), else
// the browser's (navigator.languages). Kernel identifiers, sysfs/slabinfo
// text and the core's event text are never in a catalog: a student greps
// mm/slub.c for them. Pure (the lesson worker imports it too); the React
// hooks are in hooks.ts. A catalog other than English may arrive later
// (catalogs.lazy.ts in the app's build): initLang and setLang wait for it.
import { catalogs, loadCatalog } from './catalogs';
import { en, type MsgKey } from './en';

export type { MsgKey };
export type Lang = 'en' | 'ko';
export const LANGS: readonly Lang[] = ['en', 'ko'];
/** Each language in its own words (the header's switch). */
export const LANG_NAMES: Record<Lang, string> = { en: 'English', ko: '한국어' };
/** The catalogs by language (in the app's build: those loaded so far). */
export const CATALOGS = catalogs;
export { loadCatalog };
export const LANG_KEY = 'slubviz.lang';

export type Vars = Record<string, string | number>;

export function isLang(s: unknown): s is Lang {
  return typeof s === 'string' && (LANGS as readonly string[]).includes(s);
}

/** The first of the browser's languages we have: ko-KR, ko -> ko; else en. */
export function detectLang(langs: readonly string[]): Lang {
  for (const l of langs) {
    const base = l.toLowerCase().split('-')[0];
    if (isLang(base)) return base;
  }
  return 'en';
}

/** One message of `lang` with its {name} placeholders filled in. */
export function format(lang: Lang, key: MsgKey, vars?: Vars): string {
  const s = CATALOGS[lang]?.[key] ?? en[key];
  return vars ? s.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m)) : s;
}

let current: Lang = 'en';
const listeners = new Set<() => void>();

export function getLang(): Lang {
  return current;
}

/** The message in the current language. */
export function t(key: MsgKey, vars?: Vars): string {
  return format(current, key, vars);
}

/** `${key}.one` for one, `${key}.other` for any other count ({n} is the count). */
export function tn(key: string, n: number, vars?: Vars): string {
  return t(`${key}.${n === 1 ? 'one' : 'other'}` as MsgKey, { n, ...vars });
}

function apply(lang: Lang): void {
  current = lang;
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
  for (const f of listeners) f();
}

/** The language at boot: ?lang=, then the remembered choice, then the browser's. */
export function initialLang(search: string, stored: string | null, browser: readonly string[]): Lang {
  const q = new URLSearchParams(search).get('lang');
  if (isLang(q)) return q;
  if (isLang(stored)) return stored;
  return detectLang(browser);
}

/** The language at boot, its catalog loaded (main.tsx waits for it before
 * the first render). */
export async function initLang(): Promise<Lang> {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(LANG_KEY);
  } catch {
    /* storage blocked: the browser's language */
  }
  const nav = typeof navigator !== 'undefined' ? (navigator.languages?.length ? navigator.languages : [navigator.language]) : [];
  const lang = initialLang(location.search, stored, nav);
  try {
    await loadCatalog(lang);
  } catch {
    /* the catalog did not load: English (format falls back per message) */
  }
  apply(lang);
  return current;
}

let wanted: Lang = current;

/** The header's switch: remembered, in <html lang>, and in the address
 * (?lang=, beside the live URL's hash) so a copied link keeps it. The page
 * switches once the language's catalog is in (at once if it is). */
export function setLang(lang: Lang): void {
  wanted = lang;
  try {
    localStorage.setItem(LANG_KEY, lang);
  } catch {
    /* storage blocked: this page only */
  }
  const q = new URLSearchParams(location.search);
  if (q.get('lang') !== lang) {
    q.set('lang', lang);
    history.replaceState(history.state, '', `${location.pathname}?${q.toString()}${location.hash}`);
  }
  if (CATALOGS[lang]) apply(lang);
  else
    void loadCatalog(lang).then(
      () => wanted === lang && apply(lang),
      () => undefined, // not loaded: the page stays in its language
    );
}

/** Calls `f` on every language switch; returns the unsubscribe (hooks.ts). */
export function subscribeLang(f: () => void): () => void {
  listeners.add(f);
  return () => listeners.delete(f);
}
