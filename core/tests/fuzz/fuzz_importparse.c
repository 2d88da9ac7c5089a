/* Harness importparse: the importers alone (no model), many times faster
 * per input than the import harness.
 * Input: as the import harness: format byte, chunk byte, text.
 * Oracles: one-shot svz_import() and the streaming importer fed in chunks
 * agree (outcome, report JSON); a failed import says why; an imported trace
 * exports to v1 text that parses back the same. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "slubviz/import.h"
#include "slubviz/trace.h"

int svz_fuzz_importparse(const uint8_t *data, size_t size)
{
	fz_init();
	if (size < 2)
		return 0;
	enum svz_import_format f = (enum svz_import_format)(data[0] % SVZ_FMT__COUNT);
	size_t chunk = data[1];
	const char *text = (const char *)data + 2;
	size_t len = size - 2;

	struct svz_trace t1, t2;
	struct svz_import_report r1, r2;
	struct svz_error e1, e2;
	int rc1 = svz_import(text, len, f, NULL, NULL, &t1, &r1, &e1);
	struct svz_importer *im = svz_importer_new(f, NULL, NULL);
	if (!im)
		svz_fuzz_fail("importparse", "svz_importer_new failed");
	for (size_t off = 0; off < len;) {
		size_t n = chunk && len - off > chunk ? chunk : len - off;
		svz_importer_feed(im, text + off, n);
		off += n;
	}
	int rc2 = svz_importer_finish(im, &t2, &r2, &e2);
	svz_importer_free(im);
	if (rc1 != rc2)
		svz_fuzz_fail("importparse", "one-shot import %s, streaming (chunk %zu) %s", rc1 ? "failed" : "succeeded",
			      chunk, rc2 ? "failed" : "succeeded");
	if (rc1 && r1.fatal && !r1.fatal_msg[0])
		svz_fuzz_fail("importparse", "a fatal import without a message");
	char *j1 = svz_import_report_json(&r1), *j2 = svz_import_report_json(&r2);
	char *txt = svz_import_report_text(&r1);
	if (j1 && j2 && strcmp(j1, j2) != 0)
		svz_fuzz_fail("importparse", "one-shot and streaming (chunk %zu) reports differ:\n%s\n---\n%s", chunk,
			      j1, j2);
	free(j1);
	free(j2);
	free(txt);
	if (rc1 == 0) {
		if (t1.nr_ops != t2.nr_ops)
			svz_fuzz_fail("importparse", "one-shot %u ops, streaming %u", t1.nr_ops, t2.nr_ops);
		if (t1.nr_ops <= 4 * FZ_MAX_OPS)
			fz_check_trace_export("importparse", &t1);
		svz_trace_free(&t1);
		svz_trace_free(&t2);
	}
	svz_import_report_free(&r1);
	svz_import_report_free(&r2);
	return 0;
}
