/* perf script: ftrace's event lines (fmt_ftrace.c) with a sample period
 * before the event, which perf names with its subsystem ("kmem:kmalloc:");
 * perf script -g adds callchain lines. An import that started as ftrace
 * becomes perf at its first "kmem:" event. */
#include "import/importer.h"

/* " kmem:" in the line: an event column naming the kmem subsystem. */
enum claim perf_detect(const char *s, size_t n)
{
	for (size_t k = 0; k + 5 < n; k++)
		if (memcmp(s + k, " kmem:", 6) == 0)
			return CLAIM_NAMES;
	return CLAIM_NONE;
}

/* `perf trace`, the strace-like tool (builtin-trace.c), not perf script:
 * trace__event_handler() prints the time in ms ("%10.3f ", "         ? "
 * if unknown), "(         ): " when it traces syscalls too, "comm/tid "
 * when it follows several threads, then "kmem:kmalloc(" + the fields +
 * ")": "call_site: ..., ptr: ..." with the fields that are 0 left out
 * (trace__fprintf_tp_fields()), or the event's print format with
 * --libtraceevent_print. No CPU column in either. */
bool perf_trace_line(const char *s, size_t n)
{
	struct slice t = trimmed(s, n), w = first_tok(t);
	size_t d = 0;

	while (d < w.len && is_digit(w.s[d]))
		d++;
	if (!slice_is(w, "?") && !(d && w.len == d + 4 && w.s[d] == '.' && is_digit(w.s[d + 1]) &&
				   is_digit(w.s[d + 2]) && is_digit(w.s[d + 3])))
		return false;
	/* a token "SYS:EVENT(" */
	for (size_t k = w.len; k < t.len; k++) {
		if (!is_space(t.s[k - 1]) || !is_ident_start(t.s[k]))
			continue;
		size_t e = k, colons = 0;
		while (e < t.len && (is_ident(t.s[e]) || (t.s[e] == ':' && e > k && t.s[e - 1] != ':'))) {
			colons += t.s[e] == ':';
			e++;
		}
		if (colons == 1 && e < t.len && t.s[e] == '(' && t.s[e - 1] != ':')
			return true;
	}
	return false;
}
