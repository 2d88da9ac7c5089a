import { describe, expect, test } from 'vitest';
import { appendOps, freshHandle, liveHandles } from './trace';
import { compressTrace, decodeShare, decompressTrace, encodeShare } from './url';

const T = `slubviz-trace 1
cache c size=64
c0 alloc c a
c0 alloc c b
c0 kmalloc 100 k
repeat 3 {
  c0 alloc c r{$i}
}
c0 free c a # comment
`;

describe('trace helpers', () => {
  test('liveHandles follows plain ops, skips repeats', () => {
    expect(liveHandles(T)).toEqual([
      { handle: 'b', cache: 'c' },
      { handle: 'k', cache: null },
    ]);
  });
  test('appendOps adds a free-play section once', () => {
    const t1 = appendOps(T, [{ cpu: 1, op: 'alloc', cache: 'c', handle: 'x' }]);
    expect(t1.endsWith('# free play\nc1 alloc c x\n')).toBe(true);
    expect(appendOps('a', [])).toBe('a');
  });
  test('freshHandle avoids used names', () => {
    expect(freshHandle('c0 alloc c fp0\nc0 alloc c fp1\n')).toBe('fp2');
  });
});

describe('share links', () => {
  test('trace compression round trip', async () => {
    const code = await compressTrace(T);
    expect(code).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(await decompressTrace(code)).toBe(T);
  });
  test('encode/decode', async () => {
    const st = { scenario: 'basics', preset: 'v7.0-rc1', sets: 'fix1=1\nseed=3', seq: 42 };
    const h = await encodeShare(st);
    expect(h.startsWith('#s=basics')).toBe(true);
    expect(await decodeShare(h)).toEqual(st);
    expect(await decodeShare(await encodeShare({ trace: T, seq: 0 }))).toEqual({ trace: T, seq: 0 });
    expect(await decodeShare('')).toEqual({});
  });
});
