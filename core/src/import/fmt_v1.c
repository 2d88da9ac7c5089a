/* Native v1 (docs/trace-format.md): detected here, kept whole by the
 * framing and handed to svz_trace_parse() at the end (finish.c). */
#include "import/importer.h"

static bool word_is(struct slice w, const char *name)
{
	return name && slice_is(w, name);
}

/* "slubviz-trace 1", or a v1 trace missing its header (a directive or an
 * op line first): the v1 parser says what is wrong with it. The words are
 * the parser's own (svz_trace_directive_name(), svz_op_name()). */
enum claim v1_detect(const char *line, size_t len)
{
	struct slice t = trimmed(line, len);
	const char *s = t.s;
	size_t n = t.len;

	if (n >= 13 && memcmp(s, "slubviz-trace", 13) == 0 && (n == 13 || is_space(s[13])))
		return CLAIM_SURE;
	/* perf script's task "node", "cache" ... before a kmem event column */
	if (ftrace_kmem_event_line(s, n))
		return CLAIM_NONE;
	struct slice w = first_tok(t);
	if (slice_is(w, "repeat"))
		return CLAIM_SURE;
	for (int k = 0; svz_trace_directive_name(k); k++)
		if (word_is(w, svz_trace_directive_name(k)))
			return CLAIM_SURE;
	/* an op: "c3 alloc ...", "c{...} kfree ...", "c$cpu ..." */
	if (w.len >= 2 && s[0] == 'c' && (is_digit(s[1]) || s[1] == '{' || s[1] == '$')) {
		size_t b = w.len;
		while (b < n && is_space(s[b]))
			b++;
		struct slice op = first_tok((struct slice){ s + b, n - b });
		for (int k = 0; k < SVZ_OP__COUNT; k++)
			if (word_is(op, svz_op_name((enum svz_op_type)k)))
				return CLAIM_SURE;
	}
	return CLAIM_NONE;
}
