/* Harness v1parse: the v1 parser alone (svz_trace_parse, no model), so
 * parser inputs run many times faster than through svz_open.
 * Input: v1 text, taken with its length (NUL bytes included).
 * Oracles: an error has a message and a place within the text; a parsed
 * trace exports to v1 text that parses back the same (fz_check_trace_export). */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "slubviz/trace.h"

int svz_fuzz_v1parse(const uint8_t *data, size_t size)
{
	fz_init();
	struct svz_config base;
	struct svz_trace t;
	struct svz_error err;
	memset(&err, 0, sizeof err);
	svz_config_default(&base);
	if (svz_trace_parse((const char *)data, size, &base, &t, &err)) {
		size_t lines = 1;
		for (size_t i = 0; i < size; i++)
			lines += data[i] == '\n';
		if (!err.msg[0] || err.line > lines + 1)
			svz_fuzz_fail("v1parse", "parse error without a message or past the end: %u:%u: '%s' (%zu lines)",
				      err.line, err.col, err.msg, lines);
		return 0;
	}
	if (t.nr_ops <= 4 * FZ_MAX_OPS)
		fz_check_trace_export("v1parse", &t);
	svz_trace_free(&t);
	return 0;
}
