// The position line of Controls.tsx: the step count it shows while the
// background pre-pass is still counting (engine/protocol.ts RunMeta).
import { describe, expect, test } from 'vitest';
import { stepTotal } from './Controls';

describe('stepTotal', () => {
  test('no run yet: unknown', () => {
    expect(stepTotal(0, null)).toEqual({ n: null, final: false, text: '?' });
  });
  test('the pre-pass has run to the end: the run total, as it is', () => {
    expect(stepTotal(120, { seqTotal: 5000, prepassDone: true })).toEqual({ n: 5000, final: true, text: '5000' });
  });
  test('still counting, before its frontier: at least the part it has run', () => {
    expect(stepTotal(10, { seqTotal: 37258, prepassDone: false })).toEqual({ n: 37258, final: false, text: '≥37258' });
  });
  // what a user saw playing ublk-bio256 at 10,000 steps/s: "step 121870 /
  // 37258", the frontier the pre-pass had when the run opened
  test('still counting, played past its frontier: never a total below the step shown', () => {
    expect(stepTotal(121870, { seqTotal: 37258, prepassDone: false })).toEqual({ n: 121870, final: false, text: '≥121870' });
  });
});
