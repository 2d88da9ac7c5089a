/* Harness import: every import format, forced and detected.
 * Input: byte 0 picks the format (auto, v1, ftrace, trace-cmd, perf,
 * bpftrace, malloc-lab: byte % 7), byte 1 the chunk size of the streaming
 * feed (0: one chunk), the rest is the text.
 *
 * Oracles: the streaming import (svz_import_begin/feed/end, chunks of any
 * size) and the one-shot svz_import() agree on the outcome and on the
 * summary JSON; a failed import says why; an opened session replays with
 * the validator, renders every view, and its v1 export replays
 * identically (docs/import.md). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "slubviz/import.h"
#include "slubviz/slubviz.h"

static const char *const formats[] = { "", "v1", "ftrace", "trace-cmd", "perf", "bpftrace", "malloc-lab" };
#define NFORMATS (sizeof formats / sizeof formats[0])

/* The session's summary is the import report plus, when the preset merged
 * some of the trace's caches (find_mergeable()), an "aliases" array the
 * session appends (session.c note_aliases()): the report's text up to its
 * closing brace, then ,"aliases":[{"cache":...}]} or nothing. */
static bool same_summary(const char *report, const char *session)
{
	static const char tail[] = ",\"aliases\":[{\"cache\":";
	size_t body = strlen(report);
	if (body == 0 || report[body - 1] != '}')
		return strcmp(report, session) == 0;
	body--;
	if (strncmp(report, session, body) != 0)
		return false;
	const char *rest = session + body;
	size_t n = strlen(rest);
	return strcmp(rest, "}") == 0 ||
	       (strncmp(rest, tail, sizeof tail - 1) == 0 && n >= 3 && strcmp(rest + n - 3, "}]}") == 0);
}

int svz_fuzz_import(const uint8_t *data, size_t size)
{
	fz_init();
	if (size < 2)
		return 0;
	const char *fmt = formats[data[0] % NFORMATS];
	size_t chunk = data[1];
	const char *text = (const char *)data + 2;
	size_t len = size - 2;
	if (len > (1u << 20))
		return 0;

	(void)svz_import_detect(text, len);

	/* one-shot */
	enum svz_import_format f = SVZ_FMT_AUTO;
	if (fmt[0] && svz_import_format_parse(fmt, &f))
		svz_fuzz_fail("import", "format '%s' not recognised", fmt);
	struct svz_trace t;
	struct svz_import_report rep;
	struct svz_error err;
	int rc1 = svz_import(text, len, f, NULL, NULL, &t, &rep, &err);
	char *json1 = rc1 == 0 ? svz_import_report_json(&rep) : NULL;
	char *txt1 = svz_import_report_text(&rep);
	if (rc1 == 0)
		svz_trace_free(&t);
	svz_import_report_free(&rep);
	free(txt1);

	/* streaming */
	int imp = svz_import_begin(fmt);
	if (imp <= 0)
		svz_fuzz_fail("import", "svz_import_begin(%s) failed: %s", fmt, svz_last_error());
	for (size_t off = 0; off < len;) {
		size_t n = chunk && len - off > chunk ? chunk : len - off;
		if (svz_import_feed(imp, text + off, (int)n))
			svz_fuzz_fail("import", "svz_import_feed failed");
		off += n;
		(void)svz_import_lines(imp);
	}
	int h = svz_import_end(imp, NULL, NULL);
	/* one-shot and streaming open the same way; a session may still fail
	 * to start after a successful import (the model refuses the trace) */
	if (rc1 != 0 && h > 0)
		svz_fuzz_fail("import", "svz_import failed (%s) but the streaming import opened",
			      err.msg);
	if (h < 0) {
		if (!svz_last_error()[0])
			svz_fuzz_fail("import", "the import failed without a message");
	} else {
		if (json1 && !same_summary(json1, svz_import_summary_json(h)))
			svz_fuzz_fail("import", "streaming (chunk %zu) and one-shot summaries differ:\n%s\n---\n%s",
				      chunk, json1, svz_import_summary_json(h));
		if (svz_ops_total(h) <= FZ_MAX_OPS) {
			int rc = fz_run_ops("import", h);
			fz_views(h, fz_hash_bytes(data, size) % 4 == 1);
			fz_check_export("import", h, rc, fz_hash_bytes(data, size) % 8 == 0);
		}
		svz_close(h);
	}
	free(json1);

	/* bad ids fail cleanly */
	if (svz_import_feed(0, "x", 1) != -1 || svz_import_lines(-1) != -1 ||
	    svz_import_end(1 << 20, NULL, NULL) != -1)
		svz_fuzz_fail("import", "a bad import id did not fail");
	svz_import_cancel(1 << 20);
	return 0;
}
