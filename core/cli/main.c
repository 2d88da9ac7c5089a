/* slubviz: the command line driver.
 *
 *   slubviz run TRACE [options]    run a trace, print events / kernel views
 *   slubviz import FILE [options]  convert a real trace (ftrace, perf ...) to v1 (cmd_import.c)
 *   slubviz sizes ...              cache geometry (cmd_sizes.c)
 *   slubviz presets                the kernel presets
 *   slubviz manifest               the vocabulary (manifest.c) as JSON
 *   slubviz bench TRACE [options]  time a whole-trace run
 *
 * It drives the model through the same C API as the browser (slubviz.h);
 * session.h only adds access to the model so events can be streamed as
 * they happen. Exit status: 0 on success, 2 on bad input or when the run
 * stopped on a kernel-style report (printed on stderr). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/engine.h"
#include "model/model.h"
#include "model/timing.h"
#include "api/session.h"
#include "cli.h"
#include "slubviz/config.h"
#include "slubviz/import.h"
#include "slubviz/slubviz.h"
#include "slubviz/trace.h"


/* The help text; its lists (formats, setting keys) are printed from the
 * core's tables by print_usage(), where the @FORMATS@ and @KEYS@ lines are. */
static const char usage[] =
"usage: slubviz <command> [arguments]\n"
"\n"
"  slubviz run TRACE [--preset NAME] [--set KEY=VALUE]... [--events] [--stats]\n"
"                    [--slabinfo] [--sysfs CACHE] [--sysfs-tree DIR] [--json]\n"
"      Run a trace (v1, or any format 'slubviz import' reads) to the end and\n"
"      print 'ops DONE/TOTAL steps N', any kernel-style reports, then the views\n"
"      asked for. With one view (--stats, --slabinfo or --sysfs) and no\n"
"      --events, stdout holds that view alone and the rest goes to stderr,\n"
"      so 'slubviz run T --slabinfo > F' is a /proc/slabinfo for slabtop:\n"
"@FORMATS@\n"
"        --preset NAME     kernel preset, overriding the trace's (slubviz presets)\n"
"@KEYS@\n"
"        --events          one line per micro-step, as it happens (docs/events.md)\n"
"        --stats           SLUB_STATS counters and the model's own, per cache\n"
"        --slabinfo        /proc/slabinfo\n"
"        --sysfs CACHE     /sys/kernel/slab/CACHE as 'find . -exec grep -aH . {} +'\n"
"        --sysfs-tree DIR  write /sys/kernel/slab as a directory (new or empty):\n"
"                          one folder per cache, one file per attribute\n"
"        --json            everything as one JSON document (schema 1)\n"
"        --stats-only-raw, --slabinfo-only-raw\n"
"                          print exactly that view and nothing else\n"
"        --schedule S      which CPU runs each micro-step: serial (default),\n"
"                          round-robin, 'random seed=N', timed, explicit (the\n"
"                          trace's 'steps'); docs/trace-format.md, Schedules\n"
"        --cost KEY=CYCLES one entry of the timed schedule's cost table\n"
"        --profile         (timed) a perf-report-like profile, lock statistics,\n"
"                          per-CPU busy/spin/idle and 'throughput mops=N'\n"
"  slubviz hunt TRACE [--preset P] [--set K=V]... [--seeds N] [--from S]\n"
"      Run TRACE under N random schedules (seeds S..S+N-1, default 1..100),\n"
"      the validator after every micro-step; print the first seed whose run\n"
"      stops, or 'none'. Exit 1 if a seed was found\n"
"  slubviz costs [--cost KEY=CYCLES]...\n"
"      The timed schedule's cost table (docs/timing.md)\n"
"  slubviz import FILE [--format F] [-o OUT] [--json]\n"
"      Import a real trace (ftrace / trace_pipe text, trace-cmd report, perf\n"
"      script, the bpftrace one-liner of docs/import.md, malloc-lab .rep) and\n"
"      write it as v1 to OUT (default, or -: stdout); the diagnostics summary\n"
"      goes to stderr (--json: as JSON). Exit 2 if nothing could be imported.\n"
"  slubviz import --bench N\n"
"      Import a generated N-line ftrace log in memory and print\n"
"      'lines=N ns_per_line=NS lines_per_s=R'\n"
"  slubviz sizes ...       slab geometry; 'slubviz sizes --help'\n"
"  slubviz presets         the kernel presets: name, settings, description\n"
"  slubviz manifest        the core's vocabulary as JSON (presets, switches,\n"
"                          stats, ops, import formats, limits)\n"
"  slubviz diff TRACE --a PRESET --b PRESET [--cache NAME] [--set KEY=VALUE]...\n"
"               [--schedule S] [--cost KEY=CYCLES]... [--json]\n"
"      Replay TRACE under both presets; counters side by side with absolute and\n"
"      relative differences, the slow-path share and list_lock acquisitions\n"
"      per 1000 ops; with --schedule timed, the throughput and spin share\n"
"  slubviz bench TRACE [--preset NAME] [--set KEY=VALUE]... [--events] [--repeat N]\n"
"               [--warmup W]\n"
"      Run the trace W times untimed (default 0), then N times (default: repeat\n"
"      for at least 0.5 s) and print 'ops=OPS steps=STEPS ns_per_op=NS' (per\n"
"      timed run; events recorded, not printed, with --events)\n"
"  slubviz help            this text\n"
"\n"
"Exit status: 0 on success, 2 on bad input or a run stopped by a kernel-style\n"
"report (printed on stderr).\n";

/* An option's line, then its words from the table, wrapped under the text
 * (column 26) within 80 columns. */
static void print_list(FILE *f, const char *head, int (*word)(int, const char **), const char *tail)
{
	const char *w;
	int col = 79;

	fprintf(f, "%s", head);
	for (int i = 0, n = 0; word(i, &w) >= 0; i++) {
		if (!w)
			continue;
		if (n++)
			col += fprintf(f, ",");
		if (col + 1 + (int)strlen(w) > 79)
			col = fprintf(f, "\n%25s", "") - 1;
		col += fprintf(f, " %s", w);
	}
	fprintf(f, "%s\n", tail);
}

static int format_word(int i, const char **w)
{
	if (i >= SVZ_FMT__COUNT)
		return -1;
	*w = i == SVZ_FMT_AUTO ? NULL : svz_import_format_name((enum svz_import_format)i);
	return 0;
}

static int key_word(int i, const char **w)
{
	const char *alias, *choices, *what;

	return svz_switch_info(i, w, &alias, &choices, &what);
}

static void print_usage(FILE *f)
{
	for (const char *p = usage; *p;) {
		size_t n = strcspn(p, "\n") + 1;

		if (strncmp(p, "@FORMATS@\n", n) == 0)
			print_list(f, "        --format F        the trace's format (default: detected; see\n"
				      "                          docs/import.md):", format_word, "");
		else if (strncmp(p, "@KEYS@\n", n) == 0)
			print_list(f, "        --set KEY=VALUE   a setting applied last (keys as in a trace's 'set'):",
				   key_word, "");
		else
			fwrite(p, 1, n, f);
		p += n;
	}
}

int cli_fail(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "slubviz%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 2;
}

/* Whole file (or stdin for "-"), NUL-terminated. NULL with errno set.
 * Shared with the other commands (cli.h). */
char *read_file(const char *path)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	if (!f)
		return NULL;
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap);
	while (buf) {
		if (len + 1 >= cap) {
			char *nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		size_t n = fread(buf + len, 1, cap - 1 - len, f);
		len += n;
		if (n == 0) {
			if (ferror(f)) {
				int e = errno ? errno : EIO;
				free(buf);
				buf = NULL;
				errno = e;
			}
			break;
		}
	}
	if (buf)
		buf[len] = 0;
	if (f != stdin) {
		int e = errno;
		fclose(f);
		errno = e;
	}
	if (!buf && !errno)
		errno = ENOMEM;
	return buf;
}

/* Options shared by run and bench. */
struct opts {
	const char *trace;
	const char *format;
	const char *preset;
	struct sbuf sets;
	bool events, stats, slabinfo, json, stats_raw, slabinfo_raw, profile;
	const char *sysfs, *sysfs_tree;
	long long repeat, warmup;
};

/* "--name VALUE" or "--name=VALUE": the value, advancing *i; NULL if absent. */
const char *cli_opt_value(int argc, char **argv, int *i, const char *name, bool *matched)
{
	size_t n = strlen(name);
	const char *a = argv[*i];
	*matched = false;
	if (strncmp(a, name, n) != 0)
		return NULL;
	if (a[n] == '=') {
		*matched = true;
		return a + n + 1;
	}
	if (a[n] != 0)
		return NULL;
	*matched = true;
	if (*i + 1 >= argc)
		return NULL;
	return argv[++*i];
}

int cli_count(const char *cmd, const char *opt, const char *v, long long lo, long long hi, long long *out)
{
	char *end;
	errno = 0;
	long long n = v ? strtoll(v, &end, 10) : 0;
	if (!v || !*v || *end || errno || n < lo || n > hi)
		return cli_fail(cmd, "%s needs a count of %lld..%lld, got '%s'", opt, lo, hi, v ? v : "");
	*out = n;
	return 0;
}

static int parse_opts(const char *cmd, int argc, char **argv, struct opts *o, bool bench)
{
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v;
		bool m;
		if (a[0] != '-' || strcmp(a, "-") == 0) {
			if (o->trace)
				return cli_fail(cmd, "expected one trace file, got a second: '%s'", a);
			o->trace = a;
			continue;
		}
		if ((v = cli_opt_value(argc, argv, &i, "--format", &m)) || m) {
			if (!v || !*v)
				return cli_fail(cmd, "--format needs a format (%s)",
					    svz_import_format_list());
			o->format = v;
		} else if ((v = cli_opt_value(argc, argv, &i, "--preset", &m)) || m) {
			if (!v)
				return cli_fail(cmd, "--preset needs a preset name (try: slubviz presets)");
			o->preset = v;
		} else if ((v = cli_opt_value(argc, argv, &i, "--set", &m)) || m) {
			if (!v || !strchr(v, '=') || v[0] == '=')
				return cli_fail(cmd, "--set needs KEY=VALUE, got '%s'", v ? v : "");
			sb_printf(&o->sets, "%s\n", v);
		} else if ((v = cli_opt_value(argc, argv, &i, "--schedule", &m)) || m) {
			if (!v || !*v)
				return cli_fail(cmd, "--schedule needs a schedule (" SVZ_SCHEDULE_CHOICES ")");
			sb_printf(&o->sets, "schedule=%s\n", v);
		} else if ((v = cli_opt_value(argc, argv, &i, "--cost", &m)) || m) {
			if (!v || !strchr(v, '=') || v[0] == '=')
				return cli_fail(cmd, "--cost needs KEY=CYCLES (see: slubviz costs), got '%s'", v ? v : "");
			sb_printf(&o->sets, "cost.%s\n", v);
		} else if (strcmp(a, "--events") == 0) {
			o->events = true;
		} else if (bench && ((v = cli_opt_value(argc, argv, &i, "--repeat", &m)) || m)) {
			if (cli_count(cmd, "--repeat", v, 1, 100000000, &o->repeat))
				return 2;
		} else if (bench && ((v = cli_opt_value(argc, argv, &i, "--warmup", &m)) || m)) {
			if (cli_count(cmd, "--warmup", v, 0, 1000, &o->warmup))
				return 2;
		} else if (!bench && strcmp(a, "--profile") == 0) {
			o->profile = true;
		} else if (!bench && strcmp(a, "--stats") == 0) {
			o->stats = true;
		} else if (!bench && strcmp(a, "--slabinfo") == 0) {
			o->slabinfo = true;
		} else if (!bench && ((v = cli_opt_value(argc, argv, &i, "--sysfs-tree", &m)) || m)) {
			if (!v || !*v)
				return cli_fail(cmd, "--sysfs-tree needs a directory");
			o->sysfs_tree = v;
		} else if (!bench && ((v = cli_opt_value(argc, argv, &i, "--sysfs", &m)) || m)) {
			if (!v || !*v)
				return cli_fail(cmd, "--sysfs needs a cache name");
			o->sysfs = v;
		} else if (!bench && strcmp(a, "--json") == 0) {
			o->json = true;
		} else if (!bench && strcmp(a, "--stats-only-raw") == 0) {
			o->stats_raw = true;
		} else if (!bench && strcmp(a, "--slabinfo-only-raw") == 0) {
			o->slabinfo_raw = true;
		} else {
			return cli_fail(cmd, "unknown option '%s' (see: slubviz help)", a);
		}
	}
	if (!o->trace)
		return cli_fail(cmd, "expected a trace file (see: slubviz help)");
	return 0;
}

/* Read and open: 0 and *h, or the exit status (error printed). */
static int open_trace(const char *cmd, struct opts *o, int *h)
{
	return load_any_trace(cmd, o->trace, o->format, o->preset, o->sets.s, false, h);
}

/* The column of the op on trace line `line` (one op per line), 1 if none. */
static unsigned op_col(int h, unsigned line)
{
	const struct svz_trace *t = svz_session_trace(h);
	for (uint32_t i = 0; t && i < t->nr_ops; i++)
		if (t->ops[i].line == line)
			return t->ops[i].col ? t->ops[i].col : 1;
	return 1;
}

/* A banner line of a kernel-style report: blank, or only '=' / '-'. */
static bool banner(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && (s[i] == '=' || s[i] == '-' || s[i] == ' '))
		i++;
	return i == n;
}

const char *cli_input_name(const char *path)
{
	return strcmp(path, "-") ? path : "<stdin>";
}

/* A stopped run on stderr: first "FILE:LINE:COL: error: ..." for the op at
 * fault (so the position leads, as in a parse error), then every report.
 * Shared with slubviz diff. */
void print_stop(int h, const char *path)
{
	const char *r = svz_reports(h);
	if (!r[0])
		r = svz_run_error(h);
	unsigned line = 0;
	const char *msg = NULL, *at, *moved = NULL, *moved_end = NULL;
	size_t msg_len = 0;
	/* the model's own "trace:LINE: error: MSG" line, else the first
	 * "trace:LINE" it mentions and its first line that is not a banner */
	for (const char *p = r; *p; p = at[0] ? at + 1 : at) {
		at = strchr(p, '\n');
		if (!at)
			at = p + strlen(p);
		int n = 0;
		if (sscanf(p, "trace:%u: error: %n", &line, &n) == 1 && n > 0) {
			msg = p + n;
			msg_len = (size_t)(at - msg);
			moved = p;
			moved_end = at[0] ? at + 1 : at;
			break;
		}
		line = 0;
		if (!msg && !banner(p, (size_t)(at - p))) {
			msg = p;
			msg_len = (size_t)(at - p);
		}
	}
	if (!line) {
		const char *tr = strstr(r, "trace:");
		if (!tr || sscanf(tr, "trace:%u", &line) != 1) {
			const struct svz_trace *t = svz_session_trace(h);
			int done = svz_ops_done(h);
			line = t && t->nr_ops ? t->ops[done < (int)t->nr_ops ? done : (int)t->nr_ops - 1].line : 0;
		}
	}
	if (!msg) {
		msg = "the run stopped";
		msg_len = strlen(msg);
	}
	if (line)
		fprintf(stderr, "%s:%u:%u: error: %.*s\n", cli_input_name(path), line, op_col(h, line),
			(int)msg_len, msg);
	else
		fprintf(stderr, "%s: error: %.*s\n", cli_input_name(path), (int)msg_len, msg);
	/* the rest of the report, without the line that went first */
	if (moved) {
		fwrite(r, 1, (size_t)(moved - r), stderr);
		r = moved_end;
	}
	if (r[0]) {
		fputs(r, stderr);
		if (r[strlen(r) - 1] != '\n')
			fputc('\n', stderr);
	}
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\t': fputs("\\t", f); break;
		case '\r': fputs("\\r", f); break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

static void sink_text(void *ctx, const struct model *m, const struct event *ev)
{
	(void)ctx;
	char buf[1024];
	event_text(m, ev, buf, sizeof buf);
	fputs(buf, stdout);
	fputc('\n', stdout);
}

static void sink_json(void *ctx, const struct model *m, const struct event *ev)
{
	struct sbuf *b = ctx;
	char buf[1536];
	event_json(m, ev, buf, sizeof buf);
	sb_printf(b, "%s%s", b->len ? "," : "", buf);
}

static bool is_kmalloc_name(const char *n)
{
	return strncmp(n, "kmalloc-", 8) == 0 || strncmp(n, "dma-kmalloc-", 12) == 0;
}

static int cmd_run(int argc, char **argv)
{
	struct opts o = { 0 };
	int h, rc = parse_opts("run", argc, argv, &o, false);
	if (rc)
		goto out;
	rc = open_trace("run", &o, &h);
	if (rc)
		goto out;
	const struct svz_trace *t = svz_session_trace(h);
	if (o.sysfs && !is_kmalloc_name(o.sysfs)) {
		bool found = false;
		for (uint32_t i = 0; i < t->nr_caches; i++)
			found |= strcmp(t->caches[i].name, o.sysfs) == 0;
		if (!found) {
			rc = cli_fail("run", "unknown cache '%s' (not declared in the trace)", o.sysfs);
			goto close;
		}
	}
	bool raw = o.stats_raw || o.slabinfo_raw;
	if (o.profile && t->config.sched.kind != SVZ_SCHED_TIMED) {
		rc = cli_fail("run", "--profile needs the timed schedule (--schedule timed)");
		goto close;
	}
	struct model *m = svz_session_model(h);
	struct sbuf events = { 0 };
	if (o.events && !raw) {
		m->sink = o.json ? sink_json : sink_text;
		m->sink_ctx = o.json ? (void *)&events : NULL;
	} else {
		svz_set_events(h, 0);
	}
	int r = svz_run_all(h);
	m = svz_session_model(h);
	m->sink = NULL;
	m->sink_ctx = NULL;
	bool stopped = r < 0;

	const char *sysfs = "";
	if (o.sysfs && !raw) {
		sysfs = svz_sysfs(h, o.sysfs);
		if (!sysfs[0]) {
			fflush(stdout);
			rc = cli_fail("run", "unknown cache '%s' (no such cache in this run)", o.sysfs);
			sb_free(&events);
			goto close;
		}
		sysfs = strdup(sysfs);
	}

	if (o.sysfs_tree) {
		char err[512];
		if (cli_write_sysfs_tree(o.sysfs_tree, svz_sysfs_tree(h), err, sizeof err)) {
			fflush(stdout);
			rc = cli_fail("run", "--sysfs-tree: %s", err);
			if (o.sysfs && !raw)
				free((char *)sysfs);
			sb_free(&events);
			goto close;
		}
	}
	if (raw) {
		if (o.stats_raw)
			fputs(svz_stats_text(h), stdout);
		if (o.slabinfo_raw)
			fputs(svz_slabinfo(h), stdout);
	} else if (o.json) {
		printf("{\"schema\":%d,\"ops_done\":%d,\"ops_total\":%d,\"steps\":%lld,\"stopped\":%s",
		       SVZ_EVENT_SCHEMA, svz_ops_done(h), svz_ops_total(h), (long long)svz_seq(h),
		       stopped ? "true" : "false");
		if (o.events)
			printf(",\"events\":[%s]", events.s ? events.s : "");
		fputs(",\"stats\":", stdout);
		json_str(stdout, svz_stats_text(h));
		fputs(",\"slabinfo\":", stdout);
		json_str(stdout, svz_slabinfo(h));
		if (o.sysfs) {
			fputs(",\"sysfs\":", stdout);
			json_str(stdout, sysfs ? sysfs : "");
		}
		fputs(",\"reports\":", stdout);
		json_str(stdout, svz_reports(h));
		fputs("}\n", stdout);
	} else {
		/* one view asked for: stdout is that view alone (what the kernel
		 * file holds, for slabtop and the like); the summary goes to stderr */
		FILE *status = (int)o.stats + (int)o.slabinfo + (o.sysfs != NULL) == 1 && !o.events
			       ? stderr : stdout;
		fprintf(status, "ops %d/%d steps %lld\n", svz_ops_done(h), svz_ops_total(h),
			(long long)svz_seq(h));
		if (!stopped)
			fputs(svz_reports(h), status);
		if (o.stats)
			fputs(svz_stats_text(h), stdout);
		if (o.slabinfo)
			fputs(svz_slabinfo(h), stdout);
		if (o.sysfs)
			fputs(sysfs ? sysfs : "", stdout);
		if (o.profile) {
			fputs(svz_profile_text(h), stdout);
		}
	}
	if (o.sysfs && !raw)
		free((char *)sysfs);
	sb_free(&events);
	fflush(stdout);
	if (stopped) {
		print_stop(h, o.trace);
		rc = 2;
	}
close:
	svz_close(h);
out:
	sb_free(&o.sets);
	return rc;
}

int64_t cli_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int cmd_bench(int argc, char **argv)
{
	struct opts o = { 0 };
	int h, rc = parse_opts("bench", argc, argv, &o, true);
	if (rc)
		goto out;
	rc = open_trace("bench", &o, &h);
	if (rc)
		goto out;
	svz_set_events(h, o.events);
	int cp = svz_checkpoint(h);
	if (cp < 0) {
		rc = cli_fail("bench", "out of memory");
		goto close;
	}
	int64_t total = 0, steps = 0;
	long reps = 0, runs = 0;
	int ops = 0;
	for (;;) {
		if (runs > 0 && svz_restore(h, cp)) {
			rc = cli_fail("bench", "out of memory");
			goto close;
		}
		/* the first --warmup runs untimed: a JIT (wasm under Node) has
		 * compiled the hot code by the timed ones */
		bool timed = runs++ >= o.warmup;
		int64_t seq0 = svz_seq(h), t0 = cli_now_ns();
		int r = svz_run_all(h);
		if (timed) {
			total += cli_now_ns() - t0;
			reps++;
		}
		if (r < 0) {
			print_stop(h, o.trace);
			rc = 2;
			goto close;
		}
		if (!timed)
			continue;
		ops = r;
		steps = svz_seq(h) - seq0;
		if (o.repeat ? reps >= o.repeat : total >= 500000000)
			break;
	}
	double per_op = ops ? (double)total / ((double)reps * ops) : 0.0;
	printf("ops=%d steps=%lld ns_per_op=%.2f\n", ops, (long long)steps, per_op);
close:
	svz_close(h);
out:
	sb_free(&o.sets);
	return rc;
}

static int cmd_presets(int argc, char **argv)
{
	(void)argv;
	if (argc > 0)
		return cli_fail("presets", "expected no arguments, got '%s'", argv[0]);
	int w = 0;
	for (int i = 0; svz_preset_name(i); i++)
		if ((int)strlen(svz_preset_name(i)) > w)
			w = (int)strlen(svz_preset_name(i));
	for (int i = 0; svz_preset_name(i); i++)
		printf("%-*s  %s  # %s%s\n", w, svz_preset_name(i), svz_preset_settings(i),
		       svz_preset_desc(i), strcmp(svz_preset_name(i), svz_newest_preset()) == 0 ? " (default)" : "");
	return 0;
}

static int cmd_manifest(int argc, char **argv)
{
	if (argc > 0)
		return cli_fail("manifest", "expected no arguments, got '%s'", argv[0]);
	fputs(svz_manifest_json(), stdout);
	return 0;
}

int main(int argc, char **argv)
{
	static char outbuf[1 << 16];
	setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
	if (argc < 2 || strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "-h") == 0) {
		print_usage(stderr);
		return 2;
	}
	const char *cmd = argv[1];
	int rc;
	if (strcmp(cmd, "run") == 0)
		rc = cmd_run(argc - 2, argv + 2);
	else if (strcmp(cmd, "sizes") == 0)
		rc = svz_cmd_sizes(argc - 1, argv + 1);
	else if (strcmp(cmd, "presets") == 0)
		rc = cmd_presets(argc - 2, argv + 2);
	else if (strcmp(cmd, "manifest") == 0)
		rc = cmd_manifest(argc - 2, argv + 2);
	else if (strcmp(cmd, "bench") == 0)
		rc = cmd_bench(argc - 2, argv + 2);
	else if (strcmp(cmd, "import") == 0)
		rc = svz_cmd_import(argc - 2, argv + 2);
	else if (strcmp(cmd, "diff") == 0)
		rc = svz_cmd_diff(argc - 2, argv + 2);
	else if (strcmp(cmd, "hunt") == 0)
		rc = svz_cmd_hunt(argc - 2, argv + 2);
	else if (strcmp(cmd, "costs") == 0)
		rc = svz_cmd_costs(argc - 2, argv + 2);
	else {
		cli_fail(NULL, "unknown command '%s'", cmd);
		print_usage(stderr);
		rc = 2;
	}
	fflush(stdout);
	return rc;
}
