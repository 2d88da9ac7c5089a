/* Helpers shared by the fuzz harnesses (fuzz.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "api/session.h"
#include "slubviz/import.h"
#include "slubviz/slubviz.h"
#include "slubviz/trace.h"

const char *svz_fuzz_input_name;

const struct svz_fuzz_harness svz_fuzz_harnesses[] = {
	{ "v1", svz_fuzz_v1 },
	{ "import", svz_fuzz_import },
	{ "sched", svz_fuzz_sched },
	{ "restore", svz_fuzz_restore },
	{ "v1parse", svz_fuzz_v1parse },
	{ "importparse", svz_fuzz_importparse },
	{ NULL, NULL },
};

void svz_fuzz_fail(const char *harness, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "svz-fuzz %s: ", harness);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s%s\n", svz_fuzz_input_name ? "\n  input: " : "",
		svz_fuzz_input_name ? svz_fuzz_input_name : "");
	fflush(stderr);
	abort();
}

void fz_init(void)
{
	/* validate_every=0; read by model_init() on each open */
	setenv("SLUBVIZ_VALIDATE_EVERY", "0", 1);
}

char *fz_strndup(const uint8_t *data, size_t size)
{
	size_t n = 0;
	while (n < size && data[n])
		n++;
	char *s = malloc(n + 1);
	if (!s)
		return NULL;
	if (n)
		memcpy(s, data, n);
	s[n] = 0;
	return s;
}

size_t fz_text_len(const uint8_t *data, size_t size)
{
	const uint8_t *z = size ? memchr(data, 0, size) : NULL;
	return z ? (size_t)(z - data) : size;
}

int fz_validator_applies(int h)
{
	const struct svz_trace *t = svz_session_trace(h);
	return t && !t->config.sw.cpu_partial_free;
}

void fz_check_valid(const char *harness, int h, const char *when)
{
	struct model *m = svz_session_model(h);
	if (!m || WORLD(m)->inflight || !fz_validator_applies(h))
		return;
	const char *v = svz_validate(h);
	if (v[0])
		svz_fuzz_fail(harness, "validator %s (op %d of %d, seq %lld):\n%.2000s", when,
			      svz_ops_done(h), svz_ops_total(h), (long long)svz_seq(h), v);
}

int fz_run_ops(const char *harness, int h)
{
	/* micro-steps (svz_run_to_op() from op 0 each time would be quadratic) */
	int done = svz_ops_done(h), r;
	while ((r = svz_step(h)) == 1) {
		int now = svz_ops_done(h);
		if (now != done && (now <= 256 || now % 64 == 0))
			fz_check_valid(harness, h, "after an op");
		done = now;
	}
	if (r < 0)
		return -1;
	if (done != svz_ops_total(h))
		svz_fuzz_fail(harness, "svz_step() ended after %d of %d ops", done, svz_ops_total(h));
	fz_check_valid(harness, h, "at the end");
	return done;
}

void fz_views(int h, int snapshot)
{
	if (snapshot)
		(void)svz_snapshot_json(h);
	(void)svz_events_json(h, svz_seq(h) - 16, 16);
	(void)svz_events_text(h, svz_seq(h) - 16, 16);
	(void)svz_slabinfo(h);
	(void)svz_stats_text(h);
	(void)svz_reports(h);
	(void)svz_run_error(h);
	(void)svz_import_summary(h);
	(void)svz_import_summary_json(h);
	const struct svz_trace *t = svz_session_trace(h);
	for (uint32_t i = 0; t && i < t->nr_caches && i < 8; i++)
		(void)svz_sysfs(h, t->caches[i].name);
	(void)svz_sysfs(h, "kmalloc-64");
	(void)svz_sysfs(h, "no-such-cache");
}

uint64_t fz_hash(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 0x100000001b3ull;
	return (h ^ 0xff) * 0x100000001b3ull; /* separator: "ab"+"c" != "a"+"bc" */
}

uint64_t fz_state_hash(int h)
{
	char nums[64];
	snprintf(nums, sizeof nums, "%lld %d", (long long)svz_seq(h), svz_ops_done(h));
	uint64_t x = 0xcbf29ce484222325ull;
	x = fz_hash(x, nums);
	x = fz_hash(x, svz_snapshot_json(h));
	x = fz_hash(x, svz_run_error(h));
	x = fz_hash(x, svz_reports(h));
	return x;
}

static char *dup_str(const char *s)
{
	size_t n = strlen(s) + 1;
	char *c = malloc(n);
	if (c)
		memcpy(c, s, n);
	return c;
}

/* The export parses back into the same config, caches and ops (line
 * numbers aside): docs/import.md. */
void fz_check_same_ops(const char *harness, const struct svz_trace *a, const struct svz_trace *b)
{
	const char *what = NULL;
	uint32_t at = 0;
	if (a->nr_ops != b->nr_ops)
		what = "op count";
	else if (a->nr_caches != b->nr_caches)
		what = "cache count";
	else if (memcmp(&a->config, &b->config, sizeof a->config) != 0)
		what = "config";
	for (uint32_t i = 0; !what && i < a->nr_caches; i++) {
		/* field by field: the name's bytes after its NUL and padding may differ */
		const struct svz_cache_decl *x = &a->caches[i], *y = &b->caches[i];
		if (strcmp(x->name, y->name) != 0 || x->object_size != y->object_size ||
		    x->align != y->align || x->flags != y->flags || x->ctor != y->ctor ||
		    x->sheaf_capacity != y->sheaf_capacity)
			what = "cache", at = i;
	}
	for (uint32_t i = 0; !what && i < a->nr_ops; i++) {
		const struct svz_op *x = &a->ops[i], *y = &b->ops[i];
		if (x->type != y->type || x->cpu != y->cpu || x->node != y->node || x->gfp != y->gfp ||
		    x->cache != y->cache || x->size != y->size || x->count != y->count ||
		    strcmp(a->sites[x->site], b->sites[y->site]) != 0)
			what = "op", at = i;
	}
	if (what)
		svz_fuzz_fail(harness, "the v1 export parses back with a different %s (#%u)", what, at);
}

void fz_check_trace_export(const char *harness, const struct svz_trace *t)
{
	size_t len = 0;
	char *v1 = svz_trace_to_v1(t, &len);
	if (!v1)
		return;
	struct svz_config base;
	struct svz_trace b;
	struct svz_error err;
	svz_config_default(&base);
	if (svz_trace_parse(v1, len, &base, &b, &err))
		svz_fuzz_fail(harness, "the v1 export does not parse: %u:%u: %s\n--- export:\n%.3000s",
			      err.line, err.col, err.msg, v1);
	fz_check_same_ops(harness, t, &b);
	/* exporting the export changes nothing, from the header on: the
	 * description (the comment lines above it) is free text, and a CR or
	 * NUL in a trace's comment is not kept byte for byte */
	char *again = svz_trace_to_v1(&b, NULL);
	const char *h1 = strstr(v1, "slubviz-trace 1\n"), *h2 = again ? strstr(again, "slubviz-trace 1\n") : NULL;
	if (again && (!h1 || !h2 || strcmp(h1, h2) != 0))
		svz_fuzz_fail(harness, "exporting the v1 export changes it:\n%.1500s\n---\n%.1500s", v1, again);
	free(again);
	svz_trace_free(&b);
	free(v1);
}

void fz_check_export(const char *harness, int h, int rc, int replay)
{
	fz_check_trace_export(harness, svz_session_trace(h));
	char *v1 = replay ? dup_str(svz_export_v1(h)) : NULL;
	if (!v1)
		return;
	int h2 = svz_open(v1, NULL, NULL);
	if (h2 < 0)
		svz_fuzz_fail(harness, "the v1 export does not open: %s\n--- export:\n%.3000s",
			      svz_last_error(), v1);
	int rc2 = svz_run_all(h2);
	char *st1 = dup_str(svz_stats_text(h)), *si1 = dup_str(svz_slabinfo(h));
	const char *st2 = svz_stats_text(h2);
	int same_stats = st1 && strcmp(st1, st2) == 0;
	const char *si2 = svz_slabinfo(h2);
	int same_slabinfo = si1 && strcmp(si1, si2) == 0;
	if (rc2 != rc || svz_ops_done(h2) != svz_ops_done(h) || svz_seq(h2) != svz_seq(h) ||
	    !same_stats || !same_slabinfo)
		svz_fuzz_fail(harness,
			      "the v1 export replays differently: rc %d/%d ops %d/%d seq %lld/%lld "
			      "stats %s slabinfo %s\n--- export:\n%.3000s",
			      rc, rc2, svz_ops_done(h), svz_ops_done(h2), (long long)svz_seq(h),
			      (long long)svz_seq(h2), same_stats ? "same" : "differ",
			      same_slabinfo ? "same" : "differ", v1);
	free(st1);
	free(si1);
	svz_close(h2);
	free(v1);
}

uint64_t fz_hash_bytes(const uint8_t *data, size_t size)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < size; i++)
		h = (h ^ data[i]) * 0x100000001b3ull;
	return h;
}

int fz_open_with_controls(const uint8_t *data, size_t size, const uint8_t **ctl, size_t *nctl)
{
	size_t tlen = fz_text_len(data, size);
	char *text = fz_strndup(data, tlen);
	if (!text)
		return -1;
	*ctl = data + tlen + (tlen < size);
	*nctl = size - tlen - (tlen < size);
	int h = svz_open(text, NULL, NULL);
	free(text);
	if (h >= 0 && svz_ops_total(h) > FZ_MAX_OPS) {
		svz_close(h);
		return -1;
	}
	return h;
}
