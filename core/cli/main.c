/* slubviz: the command line driver.
 *
 *   slubviz run TRACE [options]    run a trace, print events / kernel views
 *   slubviz sizes ...              cache geometry (cmd_sizes.c)
 *   slubviz presets                the kernel presets
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

#include "engine.h"
#include "model.h"
#include "session.h"
#include "slubviz/config.h"
#include "slubviz/slubviz.h"
#include "slubviz/trace.h"

int svz_cmd_sizes(int argc, char **argv);

static const char usage[] =
"usage: slubviz <command> [arguments]\n"
"\n"
"  slubviz run TRACE [--preset NAME] [--set KEY=VALUE]... [--events] [--stats]\n"
"                    [--slabinfo] [--sysfs CACHE] [--json]\n"
"      Run a trace (format v1, docs/trace-format.md) to the end and print\n"
"      'ops DONE/TOTAL steps N', any kernel-style reports, then the views asked\n"
"      for:\n"
"        --preset NAME     kernel preset, overriding the trace's (slubviz presets)\n"
"        --set KEY=VALUE   a setting applied last (keys as in a trace's 'set')\n"
"        --events          one line per micro-step, as it happens (docs/events.md)\n"
"        --stats           SLUB_STATS counters and the model's own, per cache\n"
"        --slabinfo        /proc/slabinfo\n"
"        --sysfs CACHE     /sys/kernel/slab/CACHE as 'find . -exec grep -aH . {} +'\n"
"        --json            everything as one JSON document (schema 1)\n"
"        --stats-only-raw, --slabinfo-only-raw\n"
"                          print exactly that view and nothing else\n"
"  slubviz sizes ...       slab geometry; 'slubviz sizes --help'\n"
"  slubviz presets         the kernel presets: name, settings, description\n"
"  slubviz bench TRACE [--preset NAME] [--set KEY=VALUE]... [--events] [--repeat N]\n"
"      Run the trace N times (default: repeat for at least 0.5 s) and print\n"
"      'ops=OPS steps=STEPS ns_per_op=NS' (per run; events recorded, not printed,\n"
"      with --events)\n"
"  slubviz help            this text\n"
"\n"
"Exit status: 0 on success, 2 on bad input or a run stopped by a kernel-style\n"
"report (printed on stderr).\n";

static int fail(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "slubviz%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 2;
}

/* Whole file (or stdin for "-"), NUL-terminated. NULL with errno set. */
static char *read_file(const char *path)
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
	const char *preset;
	struct sbuf sets;
	bool events, stats, slabinfo, json, stats_raw, slabinfo_raw;
	const char *sysfs;
	long repeat;
};

/* "--name VALUE" or "--name=VALUE": the value, advancing *i; NULL if absent. */
static const char *opt_value(int argc, char **argv, int *i, const char *name, bool *matched)
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

static int parse_opts(const char *cmd, int argc, char **argv, struct opts *o, bool bench)
{
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v;
		bool m;
		if (a[0] != '-' || strcmp(a, "-") == 0) {
			if (o->trace)
				return fail(cmd, "expected one trace file, got a second: '%s'", a);
			o->trace = a;
			continue;
		}
		if ((v = opt_value(argc, argv, &i, "--preset", &m)) || m) {
			if (!v)
				return fail(cmd, "--preset needs a preset name (try: slubviz presets)");
			o->preset = v;
		} else if ((v = opt_value(argc, argv, &i, "--set", &m)) || m) {
			if (!v || !strchr(v, '=') || v[0] == '=')
				return fail(cmd, "--set needs KEY=VALUE, got '%s'", v ? v : "");
			sb_printf(&o->sets, "%s\n", v);
		} else if (strcmp(a, "--events") == 0) {
			o->events = true;
		} else if (bench && ((v = opt_value(argc, argv, &i, "--repeat", &m)) || m)) {
			char *end;
			errno = 0;
			long n = v ? strtol(v, &end, 10) : 0;
			if (!v || !*v || *end || errno || n < 1 || n > 100000000)
				return fail(cmd, "--repeat needs a count of 1..100000000, got '%s'", v ? v : "");
			o->repeat = n;
		} else if (!bench && strcmp(a, "--stats") == 0) {
			o->stats = true;
		} else if (!bench && strcmp(a, "--slabinfo") == 0) {
			o->slabinfo = true;
		} else if (!bench && ((v = opt_value(argc, argv, &i, "--sysfs", &m)) || m)) {
			if (!v || !*v)
				return fail(cmd, "--sysfs needs a cache name");
			o->sysfs = v;
		} else if (!bench && strcmp(a, "--json") == 0) {
			o->json = true;
		} else if (!bench && strcmp(a, "--stats-only-raw") == 0) {
			o->stats_raw = true;
		} else if (!bench && strcmp(a, "--slabinfo-only-raw") == 0) {
			o->slabinfo_raw = true;
		} else {
			return fail(cmd, "unknown option '%s' (see: slubviz help)", a);
		}
	}
	if (!o->trace)
		return fail(cmd, "expected a trace file (see: slubviz help)");
	return 0;
}

/* Read and open: 0 and *h, or the exit status (error printed). */
static int open_trace(const char *cmd, struct opts *o, int *h)
{
	char *text = read_file(o->trace);
	if (!text)
		return fail(cmd, "cannot read '%s': %s", o->trace, strerror(errno));
	*h = svz_open(text, o->preset, o->sets.s);
	free(text);
	if (*h < 0) {
		fprintf(stderr, "%s\n", svz_last_error());
		return 2;
	}
	return 0;
}

/* A stopped run: every report on stderr. */
static void print_stop(int h)
{
	const char *r = svz_reports(h);
	if (!r[0])
		r = svz_run_error(h);
	if (r[0]) {
		fputs(r, stderr);
		if (r[strlen(r) - 1] != '\n')
			fputc('\n', stderr);
	} else {
		fprintf(stderr, "slubviz run: the run stopped after %d of %d ops\n", svz_ops_done(h),
			svz_ops_total(h));
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
			rc = fail("run", "unknown cache '%s' (not declared in the trace)", o.sysfs);
			goto close;
		}
	}
	bool raw = o.stats_raw || o.slabinfo_raw;
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
			rc = fail("run", "unknown cache '%s' (no such cache in this run)", o.sysfs);
			sb_free(&events);
			goto close;
		}
		sysfs = strdup(sysfs);
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
		printf("ops %d/%d steps %lld\n", svz_ops_done(h), svz_ops_total(h), (long long)svz_seq(h));
		if (!stopped)
			fputs(svz_reports(h), stdout);
		if (o.stats)
			fputs(svz_stats_text(h), stdout);
		if (o.slabinfo)
			fputs(svz_slabinfo(h), stdout);
		if (o.sysfs)
			fputs(sysfs ? sysfs : "", stdout);
	}
	if (o.sysfs && !raw)
		free((char *)sysfs);
	sb_free(&events);
	fflush(stdout);
	if (stopped) {
		print_stop(h);
		rc = 2;
	}
close:
	svz_close(h);
out:
	sb_free(&o.sets);
	return rc;
}

static int64_t now_ns(void)
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
		rc = fail("bench", "out of memory");
		goto close;
	}
	int64_t total = 0, steps = 0;
	long reps = 0;
	int ops = 0;
	for (;;) {
		if (reps > 0 && svz_restore(h, cp)) {
			rc = fail("bench", "out of memory");
			goto close;
		}
		int64_t seq0 = svz_seq(h), t0 = now_ns();
		int r = svz_run_all(h);
		total += now_ns() - t0;
		reps++;
		if (r < 0) {
			print_stop(h);
			rc = 2;
			goto close;
		}
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
		return fail("presets", "expected no arguments, got '%s'", argv[0]);
	int w = 0;
	for (int i = 0; svz_preset_name(i); i++)
		if ((int)strlen(svz_preset_name(i)) > w)
			w = (int)strlen(svz_preset_name(i));
	for (int i = 0; svz_preset_name(i); i++)
		printf("%-*s  %s  # %s%s\n", w, svz_preset_name(i), svz_preset_settings(i),
		       svz_preset_desc(i), strcmp(svz_preset_name(i), svz_newest_preset()) == 0 ? " (default)" : "");
	return 0;
}

int main(int argc, char **argv)
{
	static char outbuf[1 << 16];
	setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
	if (argc < 2 || strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "-h") == 0) {
		fputs(usage, stderr);
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
	else if (strcmp(cmd, "bench") == 0)
		rc = cmd_bench(argc - 2, argv + 2);
	else {
		fail(NULL, "unknown command '%s'", cmd);
		fputs(usage, stderr);
		rc = 2;
	}
	fflush(stdout);
	return rc;
}
