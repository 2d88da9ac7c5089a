// The app's catalogs (catalogs.lazy.ts): English at once, Korean once
// loaded, the same catalog ko.ts holds, fetched once however often asked.
import { describe, expect, test } from 'vitest';
import { catalogs, loadCatalog } from './catalogs.lazy';
import { en } from './en';
import { ko } from './ko';

describe('catalogs loaded on demand', () => {
  test('English is there from the start, Korean after loadCatalog', async () => {
    expect(catalogs.en).toBe(en);
    expect(catalogs.ko).toBeUndefined();
    const a = loadCatalog('ko');
    const b = loadCatalog('ko');
    await Promise.all([a, b]);
    expect(catalogs.ko).toBe(ko);
    await loadCatalog('en');
    expect(catalogs.en).toBe(en);
  });
});
