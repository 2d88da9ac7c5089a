// The sandbox's schedule helpers (format.ts): the "Step CPU n" button's
// line editing, the step count shown against limit.steps, and the run a
// steps sandbox opens before the student gave any step (its starting trace
// says `schedule explicit`, which needs steps).
import { describe, expect, test } from 'vitest';
import { appendStep, sandboxRun, stepTokens, type Lesson } from './format';

describe('sandbox steps helpers', () => {
  test('appendStep starts a steps line, appends tokens, folds repeated single steps', () => {
    expect(appendStep([], 'c0')).toEqual(['steps c0']);
    expect(appendStep(['steps c0/63'], 'c0')).toEqual(['steps c0/63 c0']);
    expect(appendStep(['steps c0/63 c0'], 'c0')).toEqual(['steps c0/63 c0x2']);
    expect(appendStep(['steps c0/63 c0x2'], 'c0')).toEqual(['steps c0/63 c0x3']);
    // another CPU, or a step that is not a single micro-step: a new token
    expect(appendStep(['steps c0/63 c0x3'], 'c1')).toEqual(['steps c0/63 c0x3 c1']);
    expect(appendStep(['steps c0/63 c0x3'], 'c0/')).toEqual(['steps c0/63 c0x3 c0/']);
    expect(appendStep(['steps c0/63 c0/'], 'c0')).toEqual(['steps c0/63 c0/ c0']);
    expect(appendStep(['steps c0'], 'c0')).toEqual(['steps c0x2']);
    // after an op line: a new steps line
    expect(appendStep(['c0 alloc x a'], 'c1')).toEqual(['c0 alloc x a', 'steps c1']);
  });

  test('stepTokens counts the tokens of steps lines only', () => {
    expect(stepTokens(['steps c0/63 c0x6 c1/', 'c0 alloc x a', 'steps c1'])).toBe(4);
    expect(stepTokens([])).toBe(0);
  });

  test('a steps sandbox runs serially until the student gives steps', () => {
    const l = { sandbox: { scenario: { inline: '' }, preset: 'v6.19', sets: { seed: 3 }, cache: 'x', limit: { ops: 0, steps: 4 }, allow: { steps: true } } } as unknown as Lesson;
    expect(sandboxRun(l, []).sets).toEqual({ seed: 3, schedule: 'serial' });
    expect(sandboxRun(l, ['steps c0']).sets).toEqual({ seed: 3 });
    const plain = { sandbox: { ...l.sandbox, allow: undefined } } as unknown as Lesson;
    expect(sandboxRun(plain, []).sets).toEqual({ seed: 3 });
  });
});
