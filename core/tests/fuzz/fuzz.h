/* Fuzz harnesses (core/tests/fuzz/README.md): one entry point per harness,
 * shared by the libFuzzer binaries (libfuzzer_main.c, build-fuzz/) and by
 * the corpus replay test (core/tests/test_fuzz_corpus.c, every build).
 *
 * An entry returns 0 for every input, and calls svz_fuzz_fail() (which
 * aborts, so libFuzzer saves the input and ctest fails) when an oracle does
 * not hold: a stated property of the public API, or the validator after an
 * op. Crashes and sanitizer reports need no oracle. */
#ifndef SVZ_FUZZ_H
#define SVZ_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int svz_fuzz_v1(const uint8_t *data, size_t size);      /* v1 text: open, replay, views, export */
int svz_fuzz_import(const uint8_t *data, size_t size);  /* format byte, chunk byte, text */
int svz_fuzz_sched(const uint8_t *data, size_t size);   /* v1 text, NUL, schedule bytes */
int svz_fuzz_restore(const uint8_t *data, size_t size); /* v1 text, NUL, action bytes */
/* The parsers alone, no session: many times faster per input. */
int svz_fuzz_v1parse(const uint8_t *data, size_t size);     /* v1 text */
int svz_fuzz_importparse(const uint8_t *data, size_t size); /* as import */

struct svz_fuzz_harness {
	const char *name; /* also the corpus/regressions directory name */
	int (*fn)(const uint8_t *, size_t);
};
extern const struct svz_fuzz_harness svz_fuzz_harnesses[];

/* Set by a driver to name the input in svz_fuzz_fail()'s message. */
extern const char *svz_fuzz_input_name;

void svz_fuzz_fail(const char *harness, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

/* ---- shared by the harnesses ---- */

/* Called first by every entry: the model's own per-op validation (test
 * builds) is turned off, the harnesses validate themselves (fz_run_ops). */
void fz_init(void);
/* data[0..size) as a NUL-terminated string (a NUL in the data ends it
 * early, as for any C string caller). malloc'd; NULL only on OOM. */
char *fz_strndup(const uint8_t *data, size_t size);
/* Length of the text part of "text NUL tail" inputs. */
size_t fz_text_len(const uint8_t *data, size_t size);
/* Ops cap: longer traces are opened but not replayed (bounded time). */
#define FZ_MAX_OPS 20000
/* The sched and restore inputs, "trace NUL control bytes": opens the trace
 * and points *ctl at the control bytes. Returns the handle, or -1 when the
 * trace does not open or has more than FZ_MAX_OPS ops (not worth stepping). */
int fz_open_with_controls(const uint8_t *data, size_t size, const uint8_t **ctl, size_t *nctl);
/* May the validator be asserted on this session? Not under the
 * cpu_partial_free preset, which models a kernel whose free path races
 * (the validator reporting list_del corruption is that model's output). */
int fz_validator_applies(int h);
/* Asserts svz_validate() == "" when no op is in flight and the validator
 * applies. */
void fz_check_valid(const char *harness, int h, const char *when);
/* Replay micro-step by micro-step under the default scheduler, validating after ops
 * (every op for the first ones, then spot checks). Returns svz_run_all()'s
 * result: ops done, or -1 on a stopping error. */
int fz_run_ops(const char *harness, int h);
/* Every view once (events, slabinfo, sysfs of each cache, stats, reports,
 * import summaries, and the snapshot if asked: the costliest): they must
 * not crash. */
void fz_views(int h, int snapshot);
/* FNV-1a over a string, chained. */
uint64_t fz_hash(uint64_t h, const char *s);
/* The model's state as the API shows it: snapshot JSON, seq, ops done,
 * run error and reports. */
uint64_t fz_state_hash(int h);
/* The v1 export parses back into the same config, caches and ops, and
 * when `replay`, reopens and replays like h: same result, ops, seq, stats
 * and slabinfo (docs/import.md). h must have been replayed to its end,
 * with result rc. Replays cost a second session: callers ask for it on a
 * fixed share of inputs (fz_hash_bytes). */
void fz_check_export(const char *harness, int h, int rc, int replay);
/* A parsed or imported trace: its v1 export parses back into the same
 * config, caches and ops, and exporting that changes nothing. */
struct svz_trace;
void fz_check_trace_export(const char *harness, const struct svz_trace *t);
void fz_check_same_ops(const char *harness, const struct svz_trace *a, const struct svz_trace *b);
uint64_t fz_hash_bytes(const uint8_t *data, size_t size);

#endif
