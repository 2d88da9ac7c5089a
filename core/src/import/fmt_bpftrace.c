/* The bpftrace one-liner of docs/import.md: "svz CPU EVENT key=value ..."
 * per kmem event, after bpftrace's "Attaching N probes..." banner. */
#include "import/importer.h"

#include <stdio.h>

enum claim bpftrace_detect(const char *line, size_t len)
{
	struct slice t = trimmed(line, len);

	if (ftrace_kmem_event_line(t.s, t.len)) /* perf script's task "svz" */
		return CLAIM_NONE;
	if ((t.len > 4 && memcmp(t.s, "svz ", 4) == 0) || (t.len > 10 && memcmp(t.s, "Attaching ", 10) == 0))
		return CLAIM_SURE;
	return CLAIM_NONE;
}

/* The bpftrace one-liner: "svz CPU EVENT key=value ...". */
void bpftrace_line(struct svz_importer *im, const char *s, size_t n, uint64_t line)
{
	char ex[64], msg[160];
	size_t i = 0;
	struct slice tk[3];
	for (int t = 0; t < 3; t++) {
		while (i < n && is_space(s[i]))
			i++;
		size_t b = i;
		while (i < n && !is_space(s[i]))
			i++;
		tk[t] = (struct slice){ s + b, i - b };
	}
	if (!slice_is(tk[0], "svz")) {
		if ((n > 10 && memcmp(s, "Attaching ", 10) == 0) || imp_lost_line(im, s, n)) {
			im->rep.comment_lines++;
			return;
		}
		imp_bad_line(im, line, "expected 'svz CPU EVENT FIELDS' (the bpftrace one-liner), got '%s'",
			     imp_excerpt(s, n, 40, ex, sizeof ex));
		return;
	}
	uint64_t cpu;
	if (!imp_parse_dec(tk[1].s, tk[1].len, &cpu)) {
		imp_bad_line(im, line, "expected a CPU number after 'svz', got '%s'",
			     imp_excerpt(tk[1].s, tk[1].len, 20, ex, sizeof ex));
		return;
	}
	if (imp_cpu_out_of_range(im, line, cpu, tk[1]))
		return;
	struct slice name = tk[2];
	if (name.len && name.s[name.len - 1] == ':')
		name.len--;
	int kind = imp_kmem_kind(name);
	if (kind < 0) {
		if (!name.len) {
			imp_bad_line(im, line, "expected an event name after the CPU, got end of line");
			return;
		}
		imp_other_event(im, name.s, name.len);
		return;
	}
	struct ev ev;
	imp_init_ev(&ev, kind, name, (int64_t)cpu);
	if (imp_parse_fields(s + i, n - i, &ev, msg, sizeof msg)) {
		imp_bad_line(im, line, "%.*s: %s", (int)name.len, name.s, msg);
		return;
	}
	imp_apply_event(im, &ev, line);
}
