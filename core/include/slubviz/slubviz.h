/* slubviz public API: the one boundary between the model and its drivers
 * (the native CLI, the WebAssembly module in the browser's worker, tests).
 *
 * Like sql.js, only handles, integers and versioned text cross it: a
 * session is an int handle; state comes back as JSON documents carrying
 * "schema": N (docs/events.md), or as the kernel's own text formats
 * (/proc/slabinfo, /sys/kernel/slab/<cache>/<attr>). Returned strings belong
 * to the session and stay valid until the next call on it.
 *
 * The wasm build exports exactly the functions listed in
 * core/wasm/exported_functions.json; keep the two in sync. */
#ifndef SLUBVIZ_H
#define SLUBVIZ_H

#include <stdint.h>

#define SVZ_EVENT_SCHEMA 1
#define SVZ_SNAPSHOT_SCHEMA 1

/* The core's vocabulary as JSON (schema 1): presets, switches, stats, event
 * kinds, kernel functions, trace ops and directives, import formats, limits.
 * Static text, built on the first call; no session needed. */
const char *svz_manifest_json(void);

/* Open a session on a v1 trace. `preset` (may be NULL or "") overrides the
 * trace's preset; `sets` is "key=value" lines applied last (may be NULL).
 * Returns a handle > 0, or -1: svz_last_error() says why (file:line:col). */
int svz_open(const char *trace_text, const char *preset, const char *sets);
const char *svz_last_error(void);
void svz_close(int h);
/* Another session on session h's trace under `preset` and `sets`: the run
 * svz_open() of the same text would give, without parsing it again (a
 * trace that expands to a million ops parses in a fraction of a second).
 * The sessions share the parsed trace; either may be closed first. Returns
 * a handle, or -1 (svz_last_error()). */
int svz_reopen(int h, const char *preset, const char *sets);

/* Events on/off (on by default). Off still counts sequence numbers. */
void svz_set_events(int h, int on);

/* Advance one micro-step under the default scheduler (ops to completion in
 * trace order). Returns 1 if a step ran, 0 at the end of the trace, -1 if
 * the run stopped on an error (svz_run_error()). */
int svz_step(int h);
/* Advance one micro-step of `cpu`: continue its in-flight op, or start its
 * next op in trace order. 1 stepped, 0 nothing left for that CPU, -1 error. */
int svz_step_cpu(int h, int cpu);
/* Run until op index `op` (exclusive) has completed, or the end. Returns the
 * number of ops now completed, -1 on a stopping error. */
int svz_run_to_op(int h, int op);
int svz_run_all(int h);

int svz_ops_total(int h);
int svz_ops_done(int h);     /* ops completed */
int64_t svz_seq(int h);      /* micro-steps so far = next event's seq */
const char *svz_run_error(int h); /* kernel-style report of the stopping error, "" if none */
const char *svz_reports(int h);   /* every report so far (continue_on_error runs) */

/* Time travel: a checkpoint is a copy of the model's arena. */
int svz_checkpoint(int h);               /* id >= 0 */
int svz_restore(int h, int checkpoint);  /* 0 or -1 */
void svz_checkpoint_drop(int h, int checkpoint);

/* Views. */
const char *svz_snapshot_json(int h);              /* whole model state */
/* The same with each slab's "owners_v", its owners' version, and its
 * "owners" only where they differ from those this call last sent for that
 * slab id; "" when memory ran out. The page's engine keeps what it was
 * sent (core/wasm/slubviz-api.mjs, SlubvizSession.snapshotShared()), so a
 * frame costs what changed. */
const char *svz_snapshot_lean_json(int h);
const char *svz_events_json(int h, int64_t from_seq, int max); /* retained events */
const char *svz_events_text(int h, int64_t from_seq, int max);
const char *svz_slabinfo(int h);                   /* /proc/slabinfo */
const char *svz_sysfs(int h, const char *cache);   /* find ... -exec grep -aH . */
/* All of /sys/kernel/slab: "cache NAME" lines, each followed by its files
 * as "FILE<TAB>VALUE" (VALUE without the trailing newline, maybe empty). */
const char *svz_sysfs_tree(int h);
const char *svz_stats_text(int h);                 /* per-cache SLUB_STATS + model counters */
const char *svz_stat_totals_json(int h);           /* SLUB_STATS and slab counts summed over caches and CPUs */
const char *svz_validate(int h);                   /* "" if all invariants hold, else reports */
/* The timed schedule's profile so far (docs/timing.md): the text of
 * `slubviz run --profile` (a perf-report-like profile, lock statistics,
 * per-CPU busy/spin/idle, spin share, throughput), and the same as JSON
 * schema 1: {"schema":1,"timed":true,"throughput_mops":F,"spin_share":F,
 * "cycles_total":N,"makespan":N,"work_cycles":N,"work_share":F,
 * "functions":[{"fn":S,"spin_on"?:LOCK,"cycles":N,"share":F}...] (by
 * cycles, descending; share of cycles_total), "locks":[{"lock":S,"node":N,
 * "acquisitions":N,"contended":N,"wait_total":N,"wait_max":N}...],
 * "cpus":[{"cpu":N,"busy":N,"spin":N,"idle":N}...]}, or
 * {"schema":1,"timed":false} when the run is not timed. */
const char *svz_profile_text(int h);
const char *svz_profile_json(int h);

/* Real traces (docs/import.md). svz_open_any() takes any supported format:
 * native v1 is parsed as by svz_open() (same errors); ftrace, trace-cmd
 * report, perf script, the bpftrace one-liner's output and malloc-lab .rep
 * are imported first (format detected). Bad lines are skipped and reported
 * in the session's import summary; -1 only when nothing could be imported
 * (svz_last_error() then holds the reason). */
int svz_open_any(const char *text, const char *preset, const char *sets);
/* Streaming import for large logs: begin (format "" or NULL = detect, else
 * "ftrace", "trace-cmd", "perf", "bpftrace", "malloc-lab", "v1") -> id > 0;
 * feed chunks of any size (lines may straddle them; 0, or -1 for a bad id);
 * lines read so far (progress); end opens the session exactly as
 * svz_open_any() and frees the import (or cancel frees it). */
int svz_import_begin(const char *format);
int svz_import_feed(int imp, const char *data, int len);
int svz_import_lines(int imp);
int svz_import_end(int imp, const char *preset, const char *sets);
void svz_import_cancel(int imp);
/* The import's diagnostics: text, or JSON {"schema":1,...}; "" if the
 * session was opened from v1 text with svz_open(). */
const char *svz_import_summary(int h);
const char *svz_import_summary_json(int h);
/* The session's trace (imported or not) as native v1 text that replays
 * identically. */
const char *svz_export_v1(int h);

#endif
