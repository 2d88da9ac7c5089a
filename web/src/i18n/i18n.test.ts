// The catalogs: Korean has exactly English's keys and, in each message,
// exactly its {placeholders}; the language comes from ?lang=, then the
// remembered choice, then the browser's list.
import { describe, expect, test } from 'vitest';
import { en } from './en';
import { ko } from './ko';
import { CATALOGS, detectLang, format, initialLang, LANGS } from '.';

const holes = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('catalogs', () => {
  test('every language has exactly the keys of the English catalog', () => {
    for (const lang of LANGS) expect(Object.keys(CATALOGS[lang]).sort()).toEqual(Object.keys(en).sort());
  });

  test('each translation keeps the placeholders of its English message', () => {
    const bad = Object.keys(en).filter((k) => holes(ko[k as keyof typeof en]).join() !== holes(en[k as keyof typeof en]).join());
    expect(bad).toEqual([]);
  });

  test('no message is empty, and Korean messages are not left in English', () => {
    for (const lang of LANGS) expect(Object.entries(CATALOGS[lang]).filter(([, v]) => !v.trim()).map(([k]) => k)).toEqual([]);
    // a Korean message with English words and no Hangul is a forgotten one, unless it is only kernel names / symbols
    const untranslated = Object.entries(ko).filter(([k, v]) => !/[\uac00-\ud7a3]/.test(v) && /[a-z]{3,} [a-z]{3,} [a-z]{3,}/i.test(v) && v === en[k as keyof typeof en]);
    expect(untranslated).toEqual([]);
  });

  test('format fills placeholders and leaves unknown ones visible', () => {
    expect(format('en', 'ctl.stopped', { seq: 42 })).toBe('stopped at step 42');
    expect(format('ko', 'ctl.stopped', { seq: 42 })).toBe('단계 42에서 멈춤');
    expect(format('en', 'ctl.stopped')).toBe('stopped at step {seq}');
  });
});

describe('the language', () => {
  test('from the browser: any Korean tag is Korean, everything else English', () => {
    expect(detectLang(['ko-KR', 'en-US'])).toBe('ko');
    expect(detectLang(['ko'])).toBe('ko');
    expect(detectLang(['fr-FR', 'ko-KR'])).toBe('ko');
    expect(detectLang(['en-GB', 'ko'])).toBe('en');
    expect(detectLang(['de-DE'])).toBe('en');
    expect(detectLang([])).toBe('en');
  });

  test('?lang= wins over the remembered choice, which wins over the browser', () => {
    expect(initialLang('?lang=en', 'ko', ['ko-KR'])).toBe('en');
    expect(initialLang('', 'en', ['ko-KR'])).toBe('en');
    expect(initialLang('', null, ['ko-KR'])).toBe('ko');
    expect(initialLang('?lang=xx', 'bogus', ['ko-KR'])).toBe('ko');
  });
});

describe('the actions speak the UI language', () => {
  test('every keyboard shortcut and every action button has its message', async () => {
    const { SHORTCUTS, ACTIONS } = await import('../state/actions');
    const { SHORTCUT_MSG, BUTTON_MSG, ARIA_MSG } = await import('../views/shortcuts');
    expect(SHORTCUTS.filter((s) => !SHORTCUT_MSG[s.keys[0]]).map((s) => s.label)).toEqual([]);
    // a button with words (not only symbols) has its text in the catalogs
    const buttons = ACTIONS.filter((a) => 'button' in a && a.button).map((a) => a.name);
    expect(buttons.filter((n) => !BUTTON_MSG[n] && !ARIA_MSG[n])).toEqual([]);
    expect(Object.values(SHORTCUT_MSG).every((k) => k in en)).toBe(true);
  });
});
