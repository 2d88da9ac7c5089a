// A synthetic ftrace kmem log, the same shape as the core's import
// benchmark log (core/src/import/import_synth.c, `slubviz import --bench N`): a
// `trace` header, then event lines on 4 CPUs in the v6.x TP_printk format:
// kmem_cache_alloc/free of three named caches, kmalloc/kfree of assorted
// sizes, a few sched_switch lines; about 1000 objects live. Deterministic
// (a 32-bit xorshift, so the bytes differ from the C generator's). Built
// in pieces so a 1M-line log (~170 MB) never sits in one JS string: the
// browser benchmark and the tests turn the pieces into a Blob.

const HEADER = [
  '# tracer: nop',
  '#',
  '# entries-in-buffer/entries-written: 0/0   #P:4',
  '#',
  '#                                _-----=> irqs-off/BH-disabled',
  '#                               / _----=> need-resched',
  '#                              | / _---=> hardirq/softirq',
  '#                              || / _--=> preempt-depth',
  '#                              ||| / _-=> migrate-disable',
  '#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION',
  '#              | |         |   |||||     |         |',
];

const CACHES = [
  { name: 'names_cache', req: 4096, alloc: 4096 },
  { name: 'filp', req: 360, alloc: 384 },
  { name: 'dentry', req: 192, alloc: 192 },
];
const SIZES = [8, 24, 64, 100, 192, 256, 500, 1024, 2312, 4000];
const SITES = [
  'getname_flags+0x47/0x1f0',
  'alloc_empty_file+0x6b/0x110',
  'd_alloc+0x30/0x2a0',
  'kmalloc_reserve+0x81/0x110',
  'seq_open+0x33/0xa0',
  'load_elf_binary+0x21d/0x1750',
];
const LIVE = 1024;

function hex8(x: number): string {
  return (x >>> 0).toString(16).padStart(8, '0');
}

/** Yields the log in pieces of about `pieceBytes` characters (whole lines). */
export function* synthFtrace(lines: number, pieceBytes = 1 << 20): Generator<string> {
  let out = '';
  let n = 0;
  for (const h of HEADER) {
    if (n >= lines) break;
    out += h + '\n';
    n++;
  }
  let seed = 0x9e3779b9;
  const rnd = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return seed >>> 0;
  };
  let ts = 4582696626; // us
  let nextPtr = 0x1000;
  const live: { ptr: number; cache: number }[] = [];
  while (n < lines) {
    const r = rnd();
    const r2 = rnd();
    const cpu = r % 4;
    ts += 1 + ((r >>> 8) % 40);
    const task = (cpu === 3 ? 'kworker/3:1' : 'bash').padStart(16);
    const sec = Math.floor(ts / 1e6);
    const us = String(ts % 1e6).padStart(6, '0');
    const prefix = `${task}-${String(1200 + cpu).padEnd(7)} [${String(cpu).padStart(3, '0')}] ..... ${String(sec).padStart(6)}.${us}: `;
    const kind = (r >>> 20) % 16;
    const site = SITES[r2 % 6];
    let line: string;
    if (kind === 0) {
      line = `${prefix}sched_switch: prev_comm=bash prev_pid=${1200 + cpu} prev_prio=120 prev_state=S ==> next_comm=swapper/${cpu} next_pid=0 next_prio=120`;
    } else if (live.length > 0 && (live.length >= LIVE || kind < 8)) {
      const i = (r2 >>> 8) % live.length;
      const ob = live[i];
      live[i] = live[live.length - 1];
      live.pop();
      const h = hex8(Math.imul(ob.ptr, 2654435761));
      line =
        ob.cache >= 0
          ? `${prefix}kmem_cache_free: call_site=${site} ptr=00000000${h} name=${CACHES[ob.cache].name}`
          : `${prefix}kfree: call_site=${site} ptr=00000000${h}`;
    } else {
      const c = ((r2 >>> 8) % 5) - 2;
      const ob = { ptr: nextPtr++, cache: c < 0 ? -1 : c };
      const h = hex8(Math.imul(ob.ptr, 2654435761));
      if (ob.cache >= 0) {
        const k = CACHES[ob.cache];
        line = `${prefix}kmem_cache_alloc: call_site=${site} ptr=00000000${h} name=${k.name} bytes_req=${k.req} bytes_alloc=${k.alloc} gfp_flags=GFP_KERNEL node=-1 accounted=false`;
      } else {
        const sz = SIZES[(r2 >>> 16) % 10];
        let al = 8;
        while (al < sz) al *= 2;
        if (sz > 64 && sz <= 96) al = 96;
        else if (sz > 128 && sz <= 192) al = 192;
        line = `${prefix}kmalloc: call_site=${site} ptr=00000000${h} bytes_req=${sz} bytes_alloc=${al} gfp_flags=GFP_KERNEL${(r2 >>> 24) & 1 ? '|__GFP_ZERO' : ''} node=-1 accounted=false`;
      }
      live.push(ob);
    }
    out += line + '\n';
    n++;
    if (out.length >= pieceBytes) {
      yield out;
      out = '';
    }
  }
  if (out) yield out;
}

/** The log as a Blob, built piece by piece. */
export function synthFtraceBlob(lines: number): Blob {
  const parts: Blob[] = [];
  for (const p of synthFtrace(lines)) parts.push(new Blob([p]));
  return new Blob(parts, { type: 'text/plain' });
}
