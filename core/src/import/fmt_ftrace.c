/* ftrace text (/sys/kernel/tracing/trace, trace_pipe), also the event-line
 * parser of trace-cmd report and perf script (fmt_trace_cmd.c, fmt_perf.c).
 *
 * Event lines are anchored on "[CPU] ... TIMESTAMP: EVENT:" and read from
 * the CPU column rightwards, so task names may hold ':' and spaces; perf
 * script adds a sample period (trace-cmd report --ts-diff a "(+N)" there)
 * and names events "kmem:kmalloc:", which moves
 * an import from ftrace to perf, and may leave out the time. The latency
 * format (trace-cmd report -l, ftrace's options/latency-format) prints the
 * CPU without brackets, the flags right after it: "2d..2.". Lines trimmed to "EVENT: fields", the
 * function tracer's and stack tracer's lines, "[LOST n EVENTS]", trace-cmd's
 * "CPU:1 [n EVENTS DROPPED]", perf -g
 * callchains and ftrace " => " frames are recognised and counted. */
#include "import/importer.h"

#include <stdio.h>

/* Any line may be an event line: the format when no other claims it. */
enum claim ftrace_detect(const char *s, size_t n)
{
	(void)s;
	(void)n;
	return CLAIM_ANY;
}

/* A CPU number: its digits, INT64_MAX if huge. */
static bool cpu_digits(const char *s, size_t n, int64_t *cpu)
{
	uint64_t v = 0;
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!is_digit(s[i]))
			return false;
		v = v > 1000000000ull ? v : v * 10 + (uint64_t)(s[i] - '0');
	}
	*cpu = v > 1000000000ull ? INT64_MAX : (int64_t)v;
	return true;
}

/* "[003]": 1 and the CPU (INT64_MAX if huge); "[-1]": -1; otherwise 0. */
static int cpu_token(struct slice t, int64_t *cpu)
{
	if (t.len < 3 || t.s[0] != '[' || t.s[t.len - 1] != ']')
		return 0;
	if (t.s[1] == '-')
		return cpu_digits(t.s + 2, t.len - 3, &(int64_t){ 0 }) ? -1 : 0;
	return cpu_digits(t.s + 1, t.len - 2, cpu);
}

/* The latency format's CPU column: the CPU ("%3d") with the latency flags
 * right after it, no blank and no brackets: "2d..2." (trace-cmd report -l,
 * libtraceevent's data_latency_format(); ftrace's options/latency-format,
 * trace_print_lat_fmt()), or "2-0x1" (trace-cmd report -l -R: the raw
 * flags). The flags start with the irqs-off column ('.', 'd', 'D', 'b',
 * 'X'), never a digit, so the CPU ends there; then need-resched, hard/soft
 * irq, preempt depth and optional migrate-disable / lock-depth columns. */
static bool lat_cpu_token(struct slice t, int64_t *cpu)
{
	size_t d = 0;
	while (d < t.len && is_digit(t.s[d]))
		d++;
	size_t f = t.len - d;
	if (d == 0 || f == 0)
		return false;
	const char *fl = t.s + d;
	if (f > 3 && fl[0] == '-' && fl[1] == '0' && fl[2] == 'x') {
		if (!imp_parse_hex(fl + 3, f - 3, &(uint64_t){ 0 }))
			return false;
	} else {
		if (f < 4 || f > 8 || !memchr(".dDbX", fl[0], 5))
			return false;
		for (size_t i = 1; i < f; i++)
			if (fl[i] != '.' && !is_ident(fl[i]))
				return false;
	}
	return cpu_digits(t.s, d, cpu);
}

/* "312444.111637:" or "1234:" (counter clocks). */
static bool ts_token(struct slice t, uint64_t *ts)
{
	if (t.len < 2 || t.s[t.len - 1] != ':' || !is_digit(t.s[0]))
		return false;
	uint64_t sec = 0, frac = 0;
	size_t i = 0, fd = 0;
	for (; i < t.len - 1 && is_digit(t.s[i]); i++)
		sec = sec < 100000000000ull ? sec * 10 + (uint64_t)(t.s[i] - '0') : sec;
	if (i < t.len - 1 && t.s[i] == '.') {
		i++;
		for (; i < t.len - 1 && is_digit(t.s[i]); i++, fd++)
			if (fd < 9)
				frac = frac * 10 + (uint64_t)(t.s[i] - '0');
	}
	if (i != t.len - 1)
		return false;
	for (; fd < 9; fd++)
		frac *= 10;
	*ts = sec * 1000000000ull + frac;
	return true;
}

/* ftrace's options/latency-format time, relative to the trace's start in
 * us (lat_print_timestamp(): " %4lldus%c: ", the mark ' ' or one of
 * "+!#*@$" for a long gap to the next event): "0us" ":" or "3us+:" at
 * tk[t]. The index of the token after it, 0 if there is none. */
static size_t lat_ts(const struct slice *tk, size_t t, size_t nt, uint64_t *ts)
{
	struct slice x = tk[t];
	size_t d = 0;
	uint64_t us = 0;
	for (; d < x.len && is_digit(x.s[d]); d++)
		if (us < 100000000000000ull)
			us = us * 10 + (uint64_t)(x.s[d] - '0');
	if (d == 0 || x.len < d + 2 || x.s[d] != 'u' || x.s[d + 1] != 's')
		return 0;
	*ts = us * 1000;
	if (x.len == d + 2)
		return t + 1 < nt && slice_is(tk[t + 1], ":") ? t + 2 : 0;
	return x.len == d + 4 && memchr("+!#*@$", x.s[d + 2], 6) && x.s[d + 3] == ':' ? t + 1 : 0;
}

/* "kmalloc:" or "kmem:kmalloc:" (perf): the event name without subsystem. */
static bool event_token(struct slice t, struct slice *name, bool *subsys)
{
	if (t.len < 2 || t.s[t.len - 1] != ':' || !is_ident_start(t.s[0]))
		return false;
	size_t start = 0, colons = 0;
	for (size_t i = 0; i < t.len - 1; i++) {
		if (t.s[i] == ':') {
			if (++colons > 1 || i + 1 >= t.len - 1 || !is_ident_start(t.s[i + 1]))
				return false;
			start = i + 1;
		} else if (!is_ident(t.s[i])) {
			return false;
		}
	}
	name->s = t.s + start;
	name->len = t.len - 1 - start;
	*subsys = colons != 0;
	return true;
}

/* What may stand between the timestamp and the event: perf script's sample
 * period ("1"), or the "(+3000)" trace-cmd report --ts-diff prints, the
 * time since the previous record (trace-read.c trace_show_data():
 * "(+%lld)"; the first record gets blanks instead). */
static bool ts_gap_token(struct slice t)
{
	if (imp_parse_dec(t.s, t.len, &(uint64_t){ 0 }))
		return true;
	return t.len > 3 && t.s[0] == '(' && t.s[1] == '+' && t.s[t.len - 1] == ')' &&
	       imp_parse_dec(t.s + 2, t.len - 3, &(uint64_t){ 0 });
}

/* Up to 64 blank-separated tokens of a line, from the start. */
#define MAX_PREFIX_TOKS 64

/* A function name as the function tracer prints it: "do_filp_open",
 * "xas_load.isra.0", "do_filp_open+0x4/0xd0" (sym-offset). */
static bool symbol_token(struct slice t)
{
	if (!t.len || !is_ident_start(t.s[0]))
		return false;
	for (size_t i = 1; i < t.len; i++)
		if (!is_ident(t.s[i]) && t.s[i] != '.' && t.s[i] != '+' && t.s[i] != '/')
			return false;
	return true;
}

/* Does the line carry a kmem event as the ftrace family prints it: "...
 * TIMESTAMP: [PERIOD] EVENT: fields", or perf's "... [CPU] kmem:EVENT:
 * fields" (no time)? For detection: a perf task name is printed unpadded
 * and may be a word another format claims ("node  4242 [001] 5678.1:
 * kmem:kmalloc: ..."), but no other format has such an event column. */
bool ftrace_kmem_event_line(const char *s, size_t n)
{
	struct slice tk[MAX_PREFIX_TOKS], name;
	size_t i = 0, nt = imp_tokens(s, n, &i, tk, MAX_PREFIX_TOKS, true);
	bool subsys;
	uint64_t ts;

	for (size_t e = 1; e < nt; e++) {
		if (!event_token(tk[e], &name, &subsys) || imp_kmem_kind(name) < 0 ||
		    (e + 1 < nt && !memchr(tk[e + 1].s, '=', tk[e + 1].len) && tk[e + 1].s[0] != '('))
			continue;
		size_t t = e - 1;
		if (t > 0 && ts_gap_token(tk[t]))
			t--; /* perf's sample period, trace-cmd's --ts-diff */
		if (ts_token(tk[t], &ts) || (subsys && cpu_token(tk[e - 1], &(int64_t){ 0 }) == 1))
			return true;
	}
	return false;
}

/* What follows "TIMESTAMP:" when it is not "EVENT: fields" but another
 * tracer's standard output (tk: the tokens from there to the line's end):
 *   "<stack trace>" / "<user stack trace>"   options/stacktrace, perf-tools tpoint -s
 *   "func <-parent" / "func"                   the function tracer (print-parent on/off)
 * The kind it is counted under, or NULL. */
static const char *tracer_kind(const struct slice *tk, size_t n)
{
	if (n == 2 && slice_is(tk[0], "<stack") && slice_is(tk[1], "trace>"))
		return "<stack trace>";
	if (n == 3 && slice_is(tk[0], "<user") && slice_is(tk[1], "stack") && slice_is(tk[2], "trace>"))
		return "<user stack trace>";
	if (symbol_token(tk[0]) &&
	    (n == 1 || (n == 2 && tk[1].len > 2 && memcmp(tk[1].s, "<-", 2) == 0)))
		return "function";
	return NULL;
}

/* perf script --show-task-events / --show-mmap-events ... print perf's own
 * records after the time: "PERF_RECORD_COMM: x:1/1", "PERF_RECORD_MMAP2
 * 1/1: [...]", "PERF_RECORD_FORK(1:1):(0:0)". The record's name, or an
 * empty slice. */
static struct slice perf_record(struct slice t)
{
	static const char pfx[] = "PERF_RECORD_";
	size_t n = sizeof pfx - 1, e = n;
	if (t.len <= n || memcmp(t.s, pfx, n) != 0)
		return (struct slice){ NULL, 0 };
	while (e < t.len && is_ident(t.s[e]))
		e++;
	return (struct slice){ t.s, e };
}

/* libtraceevent's kmem plugin (trace-cmd report, perf script) prints the
 * call site it resolved before the event's own fields: "kmalloc:
 * (fw_core_handle_request+0x7b) call_site=... ptr=..." (plugin_kmem.c:
 * "(%s+0x%x) "). The text inside the parentheses, and *f moved past them;
 * an empty slice if there is none. */
static struct slice plugin_site(const char **f, const char *end)
{
	const char *p = *f;
	while (p < end && is_space(*p))
		p++;
	if (p >= end || *p != '(')
		return (struct slice){ NULL, 0 };
	const char *q = p + 1;
	while (q < end && *q != ')' && !is_space(*q))
		q++;
	if (q >= end || *q != ')' || q == p + 1 || (q + 1 < end && !is_space(q[1])))
		return (struct slice){ NULL, 0 };
	*f = q + 1;
	return (struct slice){ p + 1, (size_t)(q - p - 1) };
}

/* A call_site that is only a number: "%lx" before v5.4 ("c104deff"), or the
 * options/fields "0xffffffff92d10d97 (-1831793257)". */
static bool site_is_number(struct slice v)
{
	struct slice t = first_tok(v);
	uint64_t x;
	return imp_parse_knum(t.s, t.len, &x) || imp_parse_hex(t.s, t.len, &x);
}

/* "kmalloc:call_site=..." with no blank after the event's colon: no tracer
 * prints that (the kernel's trace_raw_output_prep() and print_event_fields()
 * put "%s: " / "%s:" + " %s=" per field, libtraceevent's users "%s: %s"),
 * so the text was retyped; said so (true) instead of "not an event line". */
static bool glued_event(struct svz_importer *im, struct slice t, uint64_t line)
{
	const char *eq = memchr(t.s, '=', t.len);
	struct slice name;
	bool subsys;
	char ex[64];

	if (!eq)
		return false;
	size_t c = (size_t)(eq - t.s);
	while (c && is_ident(t.s[c - 1]))
		c--;
	if (c < 2 || c == (size_t)(eq - t.s) || t.s[c - 1] != ':' || !is_ident_start(t.s[c]) ||
	    !event_token((struct slice){ t.s, c }, &name, &subsys))
		return false;
	int nl = c < 48 ? (int)c : 48, kl = eq - t.s - c < 32 ? (int)(eq - t.s - c) : 32;
	imp_bad_line(im, line, "expected a blank between the event name '%.*s' and its fields "
		     "(tracers print '%.*s %.*s=...'), got '%s'", nl, t.s, nl, t.s, kl, t.s + c,
		     imp_excerpt(t.s, t.len, 40, ex, sizeof ex));
	return true;
}

/* The kmem event "name:" whose fields start at f: parsed and applied. */
static void kmem_fields(struct svz_importer *im, struct slice name, int kind, int64_t cpu,
			const char *f, const char *end, uint64_t line)
{
	char msg[160];
	struct ev ev;
	imp_init_ev(&ev, kind, name, cpu);
	struct slice plugin = plugin_site(&f, end);
	if (imp_parse_fields(f, (size_t)(end - f), &ev, msg, sizeof msg)) {
		imp_bad_line(im, line, "%.*s: %s", (int)name.len, name.s, msg);
		return;
	}
	/* the plugin's symbol names the site better than a bare address */
	if (plugin.len && (!ev.site.s || site_is_number(ev.site)))
		ev.site = plugin;
	imp_apply_event(im, &ev, line);
}

/* ftrace / trace-cmd / perf script event lines. */
static void event_line(struct svz_importer *im, const char *s, size_t n, uint64_t line)
{
	struct slice tk[MAX_PREFIX_TOKS];
	size_t i = 0, nt = imp_tokens(s, n, &i, tk, MAX_PREFIX_TOKS, true);
	char ex[64];

	int64_t cpu = -1;
	int last_cpu_tok = -1;
	bool neg_cpu = false;
	for (size_t t = 0; t < nt; t++) {
		int64_t c;
		int k = cpu_token(tk[t], &c);
		if (k == 1) {
			cpu = c;
			last_cpu_tok = (int)t;
			neg_cpu = false;
			continue;
		}
		if (k == -1) {
			last_cpu_tok = (int)t;
			neg_cpu = true;
			continue;
		}
		/* TIMESTAMP: at t, then perhaps perf's sample period, the event at e */
		uint64_t ts = 0;
		bool timed = true;
		size_t e;
		struct slice name;
		bool subsys = false;
		const char *other = NULL;
		if (ts_token(tk[t], &ts)) {
			e = t + 1;
		} else if ((e = lat_ts(tk, t, nt, &ts)) != 0) {
		} else if (t > 0 && event_token(tk[t], &name, &subsys) && subsys &&
			   (t + 1 == nt || memchr(tk[t + 1].s, '=', tk[t + 1].len) || tk[t + 1].s[0] == '(')) {
			/* perf script -F without time: "comm tid [cpu] kmem:kmalloc: ..."
			 * (perf names events with their subsystem; ftrace always
			 * prints the time). No timestamp is needed to replay. */
			e = t;
			timed = false;
		} else {
			continue;
		}
		if (e < nt && !event_token(tk[e], &name, &subsys) && e + 1 < nt &&
		    ts_gap_token(tk[e]))
			e++; /* perf's sample period, trace-cmd's --ts-diff "(+N)" */
		if (e >= nt)
			continue;
		struct slice rec = timed ? perf_record(tk[e]) : (struct slice){ NULL, 0 };
		if (!rec.len && !event_token(tk[e], &name, &subsys)) {
			if (glued_event(im, tk[e], line))
				return;
			if (i < n || !(other = tracer_kind(tk + e, nt - e)))
				continue;
		}
		if (last_cpu_tok < 0 && t >= 2 && lat_cpu_token(tk[t - 1], &cpu))
			last_cpu_tok = (int)t - 1;
		if (last_cpu_tok < 0) {
			/* a task name like "x 1.5: y:" before the real columns? */
			bool later_cpu = false;
			for (size_t u = t + 1; u < nt && u < t + 5; u++)
				later_cpu |= cpu_token(tk[u], &(int64_t){ 0 }) != 0;
			if (later_cpu)
				continue;
		}
		/* found */
		if (neg_cpu) {
			imp_bad_line(im, line, "expected a CPU like [003], got '%s'",
				     imp_excerpt(tk[last_cpu_tok].s, tk[last_cpu_tok].len, 20, ex, sizeof ex));
			return;
		}
		if (last_cpu_tok >= 0 && imp_cpu_out_of_range(im, line, (uint64_t)cpu, tk[last_cpu_tok]))
			return;
		if ((subsys || rec.len) && im->fmt == SVZ_FMT_FTRACE && !im->fmt_given)
			im->fmt = SVZ_FMT_PERF;
		if (rec.len) {
			/* not part of the event stream's clock: perf prints the
			 * records it synthesised for tasks and maps that existed
			 * before the recording at 0.000000 */
			imp_other_event(im, rec.s, rec.len);
			return;
		}
		if (timed) {
			if (im->have_ts && ts < im->last_ts)
				im->rep.ts_backwards++;
			im->last_ts = ts;
			im->have_ts = true;
		}
		if (other) {
			imp_other_event(im, other, strlen(other));
			return;
		}
		int kind = imp_kmem_kind(name);
		if (kind < 0) {
			imp_other_event(im, name.s, name.len);
			return;
		}
		kmem_fields(im, name, kind, last_cpu_tok >= 0 ? cpu + im->cpu_base : -1,
			    tk[e].s + tk[e].len, s + n, line);
		return;
	}
	if (imp_lost_line(im, s, n))
		return;
	/* A line an author trimmed to "EVENT: fields" (no task, CPU or
	 * timestamp): the event with its CPU unknown. */
	struct slice name;
	bool subsys;
	if (nt >= 2 && event_token(tk[0], &name, &subsys) &&
	    (memchr(tk[1].s, '=', tk[1].len) || tk[1].s[0] == '(')) {
		int kind = imp_kmem_kind(name);
		if (kind < 0)
			imp_other_event(im, name.s, name.len);
		else
			kmem_fields(im, name, kind, -1, tk[0].s + tk[0].len, s + n, line);
		return;
	}
	if (nt >= 1 && glued_event(im, tk[0], line))
		return;
	/* perf script -g: "\t ffffffff8124d0a0 kmem_cache_alloc+0x1a0 ([kernel.kallsyms])";
	 * ftrace's stack trace: " => __kmalloc+0x1a0/0x2d0" (trace-cmd: "=> __kmalloc (ffff...)") */
	if ((nt >= 1 && (s[0] == '\t' || (im->fmt == SVZ_FMT_PERF && is_space(s[0]))) &&
	     imp_parse_hex(tk[0].s, tk[0].len, &(uint64_t){ 0 })) ||
	    (nt >= 2 && slice_is(tk[0], "=>"))) {
		im->rep.callchain_lines++;
		return;
	}
	if (perf_trace_line(s, n)) {
		/* its lines have no CPU and drop the fields that are 0 (a NULL
		 * ptr, node 0): perf.data holds them all, perf script prints them */
		imp_bad_line(im, line, "'perf trace' output (no CPU column, fields that are 0 left "
			     "out): record with 'perf record -e kmem:kmalloc -e kmem:kfree ...' and "
			     "convert with 'perf script'");
		return;
	}
	imp_bad_line(im, line, "expected an event line 'TASK-PID [CPU] FLAGS TIMESTAMP: EVENT: "
		     "FIELDS', got '%s'", imp_excerpt(s, n, 40, ex, sizeof ex));
}

/* One content line of the ftrace family: the header lines trace-cmd
 * report prints ("cpus=4", "version = 6", "CPU 3 is empty", "CPU:2
 * [SUBBUFFER START]"), else an event line; with several inputs, after the
 * input's name (fmt_trace_cmd.c). */
void ftrace_line(struct svz_importer *im, const char *s, size_t n, uint64_t line)
{
	struct svz_import_report *r = &im->rep;
	size_t i = 0;

	if (trace_cmd_input_header(im, s, n)) {
		r->comment_lines++;
		return;
	}
	i = trace_cmd_input_prefix(im, s, n);
	s += i;
	n -= i;
	i = 0;
	while (i < n && is_space(s[i]))
		i++;
	if ((n - i > 5 && memcmp(s + i, "cpus=", 5) == 0)) {
		r->comment_lines++;
		imp_header_cpus(im, s, n, "cpus=");
		return;
	}
	/* trace-cmd report marks where a CPU's ring-buffer page starts
	 * (trace-read.c: "CPU:%d [SUBBUFFER START]") */
	struct slice t = trimmed(s, n);
	if ((n - i > 9 && memcmp(s + i, "version =", 9) == 0) ||
	    (n - i > 12 && memcmp(s + i, "CPU ", 4) == 0 && memcmp(s + n - 8, "is empty", 8) == 0) ||
	    (t.len > 4 + 18 && memcmp(t.s, "CPU:", 4) == 0 &&
	     memcmp(t.s + t.len - 18, " [SUBBUFFER START]", 18) == 0)) {
		r->comment_lines++;
		return;
	}
	event_line(im, s, n, line);
}
