/* svz_reopen(): another session on a session's parsed trace must be the
 * session svz_open() of the same text gives, under any preset and sets,
 * whichever of the two is closed first; an import keeps its report, without
 * the alias notes of the first session's preset. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "slubviz/import.h"
#include "slubviz/slubviz.h"

/* What a run shows at its end: every view a person reads, one string. */
static char *end_state(int h)
{
	svz_run_all(h);
	size_t n = 64;
	char *out = malloc(n);
	if (!out)
		return NULL;
	snprintf(out, n, "ops %d/%d seq %lld\n", svz_ops_done(h), svz_ops_total(h), (long long)svz_seq(h));
	/* one view at a time: a view's text lasts until the next call */
	const char *(*const views[])(int) = { svz_stats_text, svz_slabinfo, svz_snapshot_json, svz_reports,
					      svz_run_error, svz_import_summary, svz_import_summary_json };
	for (size_t i = 0; i < sizeof views / sizeof *views; i++) {
		const char *v = views[i](h);
		size_t len = strlen(out) + strlen(v) + 2;
		if (len > n) {
			char *bigger = realloc(out, len);
			if (!bigger) {
				free(out);
				return NULL;
			}
			out = bigger;
			n = len;
		}
		strcat(out, v);
		strcat(out, "\n");
	}
	return out;
}

/* The trace's own run under `preset`/`sets` opened fresh, against a reopen
 * of a session that ran under another preset first (closed before or after
 * the reopened one runs). */
static void same_as_open(const char *what, const char *text, bool any, const char *preset, const char *sets,
			 bool close_first)
{
	int fresh = any ? svz_open_any(text, preset, sets) : svz_open(text, preset, sets);
	CHECK(fresh > 0);
	if (fresh <= 0) {
		fprintf(stderr, "%s under '%s' / '%s': %s\n", what, preset ? preset : "", sets ? sets : "", svz_last_error());
		return;
	}
	char *want = end_state(fresh);
	svz_close(fresh);

	int first = any ? svz_open_any(text, "v6.8", "seed=99") : svz_open(text, "v6.8", "seed=99");
	CHECK(first > 0);
	if (first <= 0) {
		free(want);
		return;
	}
	/* the first session ran (and read its import report) before the reopen */
	char *before = end_state(first);
	int h = svz_reopen(first, preset, sets);
	CHECK(h > 0);
	if (close_first)
		svz_close(first);
	char *got = h > 0 ? end_state(h) : NULL;
	if (!want || !got || strcmp(want, got) != 0)
		fprintf(stderr, "%s under '%s' / '%s': a reopen differs from an open\n", what, preset ? preset : "",
			sets ? sets : "");
	CHECK(want && got && strcmp(want, got) == 0);
	/* a reopen of the reopen: the same again */
	int h2 = h > 0 ? svz_reopen(h, preset, sets) : -1;
	CHECK(h2 > 0);
	if (h > 0)
		svz_close(h);
	char *again = h2 > 0 ? end_state(h2) : NULL;
	CHECK(want && again && strcmp(want, again) == 0);
	if (h2 > 0)
		svz_close(h2);
	if (!close_first) {
		/* the first session is untouched by the others */
		char *after = end_state(first);
		CHECK(before && after && strcmp(before, after) == 0);
		free(after);
		svz_close(first);
	}
	free(before);
	free(want);
	free(got);
	free(again);
}

int main(void)
{
	static const char *const scenarios[] = { "scenarios/basics.trace", "scenarios/ublk-bio256.trace",
						 "scenarios/kfree-rcu.trace", "scenarios/slub-bulk-bench.trace" };
	for (size_t i = 0; i < sizeof scenarios / sizeof *scenarios; i++) {
		char *text = svz_t_read_file(scenarios[i], NULL);
		CHECK(text != NULL);
		if (!text)
			continue;
		/* "" is the trace's own preset, not the first session's v6.8 */
		same_as_open(scenarios[i], text, false, "", NULL, i % 2 == 0);
		same_as_open(scenarios[i], text, false, "v6.19", "cpu_partial_objects=1\nfreelist_random=1", i % 2 == 1);
		same_as_open(scenarios[i], text, false, "v7.0-rc1", "seed=5", true);
		free(text);
	}

	/* an import: its report comes along; the alias note is the reopened
	 * preset's (merged under v6.19, apart under slab_nomerge=1) */
	static const char ftrace[] =
		"  kworker/0:1-42  [000] ....  100.000001: kmem_cache_alloc: call_site=f+0x1/0x2 ptr=00000000aaaa0000 "
		"bytes_req=192 bytes_alloc=192 gfp_flags=GFP_KERNEL node=-1 accounted=false name=foo\n"
		"  kworker/0:1-42  [000] ....  100.000002: kmem_cache_alloc: call_site=f+0x1/0x2 ptr=00000000bbbb0000 "
		"bytes_req=192 bytes_alloc=192 gfp_flags=GFP_KERNEL node=-1 accounted=false name=bar\n";
	same_as_open("an ftrace import", ftrace, true, "v6.19", NULL, true);
	same_as_open("an ftrace import", ftrace, true, "v6.19", "slab_nomerge=1", false);

	/* refusals: no such session, no such preset (the source goes on) */
	CHECK_EQ_INT(svz_reopen(0, NULL, NULL), -1);
	CHECK_EQ_INT(svz_reopen(12345, NULL, NULL), -1);
	char *text = svz_t_read_file("scenarios/basics.trace", NULL);
	int h = text ? svz_open(text, NULL, NULL) : -1;
	CHECK(h > 0);
	if (h > 0) {
		CHECK_EQ_INT(svz_reopen(h, "v9.99-nope", NULL), -1);
		CHECK(strstr(svz_last_error(), "unknown preset 'v9.99-nope'") != NULL);
		CHECK_EQ_INT(svz_reopen(h, NULL, "no_such_key=1"), -1);
		CHECK(svz_last_error()[0] != 0);
		svz_run_all(h);
		CHECK_EQ_INT(svz_ops_done(h), svz_ops_total(h));
		svz_close(h);
	}
	free(text);
	return svz_t_done();
}
