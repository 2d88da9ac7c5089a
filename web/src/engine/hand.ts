// Steps chosen by hand ("step this CPU", svz_step_cpu): part of the run,
// like its schedule. A run is its trace, its config (the schedule among
// it) and the micro-steps a person chose: at step `seq` CPU `cpu` ran
// instead of the schedule's pick. The engine replays them at their seq
// (seeks, step back, the pre-pass), so checkpoints, share links and the
// crash recovery carry them; everything after the last one is the
// schedule's again.
//
// Text form (share links, the live URL): the steps lines' tokens of
// docs/trace-format.md §3.1 (`c1` one micro-step, `c1x3` three), each run
// of consecutive steps anchored at its first step by `@seq`:
//   "@6034 c0x5 c1x12 @7000 c2"
// = steps 6034..6038 on CPU 0, 6039..6050 on CPU 1, step 7000 on CPU 2.

export interface HandStep {
  seq: number;
  cpu: number;
}

export class HandError extends Error {
  override name = 'HandError';
}

/** Largest seq and CPU a hand text may name (sanity caps for links). */
const MAX_SEQ = 2 ** 40;
const MAX_CPU = 4096;
/** Most hand steps a text may expand to (a link is input from anyone). */
export const MAX_HAND_STEPS = 1_000_000;

/** The text form of hand steps (sorted by seq, seqs distinct). */
export function encodeHand(steps: readonly HandStep[]): string {
  const out: string[] = [];
  for (let i = 0; i < steps.length; ) {
    if (i === 0 || steps[i].seq !== steps[i - 1].seq + 1) out.push(`@${steps[i].seq}`);
    let j = i;
    while (j + 1 < steps.length && steps[j + 1].seq === steps[j].seq + 1 && steps[j + 1].cpu === steps[i].cpu) j++;
    const n = j - i + 1;
    out.push(n === 1 ? `c${steps[i].cpu}` : `c${steps[i].cpu}x${n}`);
    i = j + 1;
  }
  return out.join(' ');
}

/** Hand steps from their text form; throws HandError saying what is wrong. */
export function parseHand(text: string): HandStep[] {
  const out: HandStep[] = [];
  let seq = -1;
  for (const tok of text.trim().split(/\s+/)) {
    if (tok === '') continue;
    let m = /^@(\d{1,13})$/.exec(tok);
    if (m) {
      const s = Number(m[1]);
      if (s > MAX_SEQ) throw new HandError(`step ${tok} is out of range`);
      if (out.length && s <= out[out.length - 1].seq) throw new HandError(`step ${tok} is not after step ${out[out.length - 1].seq}`);
      seq = s;
      continue;
    }
    m = /^c?(\d{1,4})(?:x(\d{1,7}))?$/.exec(tok);
    if (!m) throw new HandError(`"${tok}" is not a step (c1, c1x3 or @seq)`);
    if (seq < 0) throw new HandError(`"${tok}" comes before any @seq`);
    const cpu = Number(m[1]);
    const n = m[2] === undefined ? 1 : Number(m[2]);
    if (cpu >= MAX_CPU) throw new HandError(`CPU ${cpu} is out of range`);
    if (n < 1) throw new HandError(`"${tok}" runs no step`);
    if (out.length + n > MAX_HAND_STEPS) throw new HandError(`more than ${MAX_HAND_STEPS} steps by hand`);
    for (let i = 0; i < n; i++) out.push({ seq: seq++, cpu });
  }
  return out;
}

/** The steps before `seq` (a step chosen at seq replaces the future). */
export function handBefore(steps: readonly HandStep[], seq: number): HandStep[] {
  let n = steps.length;
  while (n > 0 && steps[n - 1].seq >= seq) n--;
  return steps.slice(0, n);
}

/** The CPUs of consecutive micro-steps (from step 0) as one `steps`
 * line's tokens (docs/trace-format.md §3.1): "c0x12 c1x3 c0". */
export function stepsLine(cpus: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < cpus.length; ) {
    let j = i;
    while (j + 1 < cpus.length && cpus[j + 1] === cpus[i]) j++;
    const n = j - i + 1;
    out.push(n === 1 ? `c${cpus[i]}` : `c${cpus[i]}x${n}`);
    i = j + 1;
  }
  return out.join(' ');
}

/** Seq -> CPU lookups over sorted hand steps, with a cursor for the
 * forward replays (seeks step forward one seq at a time). */
export class HandMap {
  private readonly bySeq = new Map<number, number>();
  readonly steps: readonly HandStep[];

  constructor(steps: readonly HandStep[] = []) {
    this.steps = steps;
    for (const s of steps) this.bySeq.set(s.seq, s.cpu);
  }

  get size(): number {
    return this.steps.length;
  }

  /** the CPU chosen by hand at `seq`, or undefined (the schedule's pick) */
  at(seq: number): number | undefined {
    return this.bySeq.get(seq);
  }

  /** the first hand step at or after `seq`, or undefined */
  next(seq: number): number | undefined {
    // binary search: steps are sorted
    let lo = 0;
    let hi = this.steps.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.steps[mid].seq < seq) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.steps.length ? this.steps[lo].seq : undefined;
  }

  /** the last hand step's seq, or -1 */
  get last(): number {
    return this.steps.length ? this.steps[this.steps.length - 1].seq : -1;
  }
}
