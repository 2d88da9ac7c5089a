/* Hostile inputs, bounded: every case of core/tests/data/hostile.tsv (the one
 * list; test/hostile.test.mjs reads it too and compares the wasm builds)
 * exits 2 from `slubviz run` with exactly the expected first line of stderr,
 * within a time and peak-RSS bound, and every other entry point reads the
 * same bytes the same way: `slubviz import`, svz_open(), svz_open_any() and
 * the streaming svz_import_*().
 *
 * The table: name, kind, run arguments ('-' for none), input, expected first
 * line of stderr ('FILE' stands for the input's path). Kinds:
 *   parse    the trace is refused: every entry point reports the same line
 *            ("FILE:L:C: error: ..."; the C API, which has no file name,
 *            "trace:L:C: error: ...")
 *   runtime  it parses, the replay stops: exit 2, "trace:L:C: error: ..."
 *   args     the command line (preset, --set) is refused; svz_open() with
 *            the same preset/sets says the same
 *   input    not a trace at all: the importers refuse it
 * Inputs are generated: \n \r \t \\ \xHH escapes, and \*N:TEXT\* repeats
 * TEXT N times (\# in TEXT is the repetition's index), so a 10 MB line is
 * a dozen bytes in the table.
 *
 * SVZ_HOSTILE_PRINT=1 prints each case's actual first line and figures
 * instead of checking (to write a new case's expectation, then review it). */
#define _DEFAULT_SOURCE /* wait4(), malloc_trim() */
#include <errno.h>
#include <fcntl.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "slubviz/slubviz.h"

#if defined(__SANITIZE_ADDRESS__)
#define ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ASAN 1
#endif
#endif

/* Bounds per CLI run (ASan's shadow memory and slowdown included). */
#ifdef ASAN
#define MAX_RSS_KB (512L << 10)
#define MAX_SECONDS 120.0 /* a hang guard: names_budget takes ~20 s, 60 s with other jobs on 2 cores */
#else
#define MAX_RSS_KB (256L << 10)
#define MAX_SECONDS 30.0 /* a hang guard, not a speed target: names_budget takes ~10 s loaded */
#endif

struct buf {
	char *s;
	size_t len, cap;
};

static void put(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap < b->len + n + 1)
			cap *= 2;
		b->s = realloc(b->s, cap);
		if (!b->s) {
			perror("realloc");
			exit(1);
		}
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
		: c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Escapes of s[0..n) into out; `index` replaces \# (-1: not allowed). */
static void unescape(struct buf *out, const char *s, size_t n, long index)
{
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c != '\\' || i + 1 >= n) {
			put(out, &c, 1);
			continue;
		}
		c = s[++i];
		char e = c == 'n' ? '\n' : c == 'r' ? '\r' : c == 't' ? '\t' : c;
		if (c == 'x' && i + 2 < n && hexval(s[i + 1]) >= 0 && hexval(s[i + 2]) >= 0) {
			e = (char)(hexval(s[i + 1]) * 16 + hexval(s[i + 2]));
			i += 2;
		} else if (c == '#' && index >= 0) {
			char num[24];
			int k = snprintf(num, sizeof num, "%ld", index);
			put(out, num, (size_t)k);
			continue;
		}
		put(out, &e, 1);
	}
}

/* The table's input column -> bytes. */
static void decode(const char *s, struct buf *out)
{
	out->len = 0;
	put(out, "", 0);
	for (;;) {
		const char *gen = strstr(s, "\\*");
		if (!gen) {
			unescape(out, s, strlen(s), -1);
			return;
		}
		unescape(out, s, (size_t)(gen - s), -1);
		char *colon;
		long count = strtol(gen + 2, &colon, 10);
		const char *text = colon + 1, *end = strstr(text, "\\*");
		if (*colon != ':' || !end || count < 0) {
			fprintf(stderr, "hostile.tsv: bad generator at '%.20s'\n", gen);
			exit(1);
		}
		for (long i = 0; i < count; i++)
			unescape(out, text, (size_t)(end - text), i);
		s = end + 2;
	}
}

struct run_result {
	int status;   /* exit status, or 128 + signal */
	long rss_kb;  /* peak RSS of the child */
	double secs;
	char *out, *err;
	size_t out_len, err_len;
};

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct buf b = { 0 };
	char chunk[65536];
	size_t n;

	put(&b, "", 0);
	while (f && (n = fread(chunk, 1, sizeof chunk, f)) > 0)
		put(&b, chunk, n);
	if (f)
		fclose(f);
	*len = b.len;
	return b.s;
}

/* Runs the CLI with argv, stdout/stderr to files; peak RSS via wait4(). */
static void run_cli(char *const argv[], const char *dir, struct run_result *r)
{
	char outp[512], errp[512];
	struct timespec t0, t1;
	struct rusage ru;
	int st;

	snprintf(outp, sizeof outp, "%s/stdout", dir);
	snprintf(errp, sizeof errp, "%s/stderr", dir);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid_t pid = fork();
	if (pid == 0) {
		int o = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int e = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
			_exit(127);
		/* a runaway case is killed rather than hanging the suite */
		struct rlimit cpu = { (rlim_t)MAX_SECONDS * 4, (rlim_t)MAX_SECONDS * 4 };
		setrlimit(RLIMIT_CPU, &cpu);
#ifndef ASAN
		struct rlimit as = { 2ul << 30, 2ul << 30 };
		setrlimit(RLIMIT_AS, &as);
#endif
		execv(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &st, 0, &ru) < 0) {
		perror("fork/wait4");
		exit(1);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	r->rss_kb = ru.ru_maxrss;
	r->secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	r->out = slurp(outp, &r->out_len);
	r->err = slurp(errp, &r->err_len);
}

/* The first line of s (without '\n'), in a static buffer. */
static const char *first_line(const char *s)
{
	static char line[1024];
	size_t n = strcspn(s, "\n");
	snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), s);
	return line;
}

static char *replace_file(const char *expect, const char *path)
{
	struct buf b = { 0 };
	const char *p = strstr(expect, "FILE");
	put(&b, "", 0);
	if (!p) {
		put(&b, expect, strlen(expect));
		return b.s;
	}
	put(&b, expect, (size_t)(p - expect));
	put(&b, path, strlen(path));
	put(&b, p + 4, strlen(p + 4));
	return b.s;
}

/* "(auto): MSG" of both "slubviz run: cannot import 'F' (auto): MSG" and
 * svz_open_any()'s "import (auto): MSG". */
static const char *import_msg(const char *s)
{
	const char *p = strstr(s, " (");
	return p ? p + 1 : s;
}

/* Streaming import in 4 KiB chunks (lines straddle them): the handle or -1. */
static int open_streaming(const char *data, size_t len, const char *preset, const char *sets)
{
	int imp = svz_import_begin("");
	CHECK(imp > 0);
	for (size_t o = 0; o < len; o += 4096)
		svz_import_feed(imp, data + o, (int)(len - o < 4096 ? len - o : 4096));
	return svz_import_end(imp, preset, sets);
}

struct args {
	const char *preset;
	struct buf sets;
	char *argv[16];
	int argc;
};

static void parse_args(char *col, struct args *a)
{
	a->preset = NULL;
	a->sets.len = 0;
	put(&a->sets, "", 0);
	a->argc = 0;
	if (strcmp(col, "-") == 0)
		return;
	for (char *tok = strtok(col, " "); tok && a->argc < 14; tok = strtok(NULL, " ")) {
		a->argv[a->argc++] = tok;
		if (strcmp(tok, "--preset") == 0 || strcmp(tok, "--set") == 0) {
			char *v = strtok(NULL, " ");
			if (!v)
				break;
			a->argv[a->argc++] = v;
			if (tok[2] == 'p') {
				a->preset = v;
			} else {
				put(&a->sets, v, strlen(v));
				put(&a->sets, "\n", 1);
			}
		}
	}
}

struct hcase {
	const char *name, *kind_s, *input_spec, *expect_spec;
	char *argcol;
	int kind; /* index in kinds[] */
	char *expect; /* FILE replaced */
	char *expect_api; /* FILE as the C API names the text: "trace" */
	char *run_first;
};

static const char *const kinds[4] = { "parse", "runtime", "args", "input" };

/* The table, split in place; the number of cases or -1. */
static int read_table(char *table, struct hcase **out)
{
	struct hcase *cs = NULL;
	int n = 0;

	for (char *line = table, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		if (line[0] == '#' || line[0] == 0)
			continue;
		char *col[5];
		int ncol = 0;
		for (char *p = line; p && ncol < 5; ncol++) {
			col[ncol] = p;
			p = strchr(p, '\t');
			if (p)
				*p++ = 0;
		}
		int k = 0;
		while (ncol == 5 && k < 4 && strcmp(col[1], kinds[k]) != 0)
			k++;
		if (ncol != 5 || k == 4) {
			fprintf(stderr, "hostile.tsv: expected 5 columns and a known kind: %s\n", line);
			return -1;
		}
		cs = realloc(cs, sizeof *cs * (size_t)(n + 1));
		if (!cs)
			return -1;
		cs[n++] = (struct hcase){ col[0], col[1], col[3], col[4], col[2], k, NULL, NULL, NULL };
	}
	*out = cs;
	return n;
}

static void release_input(struct buf *b)
{
	free(b->s);
	*b = (struct buf){ 0 };
#if defined(__GLIBC__) && !defined(ASAN)
	malloc_trim(0); /* a child's peak RSS starts at ours */
#endif
}

int main(void)
{
	size_t tlen;
	char *table = svz_t_read_file("core/tests/data/hostile.tsv", &tlen);
	bool print = getenv("SVZ_HOSTILE_PRINT") != NULL;
	char dir[] = "/tmp/svz-hostile-XXXXXX";
	struct buf input = { 0 };
	struct args a = { 0 };
	struct hcase *cs = NULL;
	int per_kind[4] = { 0 };
	long max_rss = 0;
	double max_secs = 0;
	const char *max_rss_case = "", *max_secs_case = "";

	CHECK(table != NULL);
	int ncases = table ? read_table(table, &cs) : -1;
	CHECK(ncases >= 100);
	if (ncases < 0 || !mkdtemp(dir))
		return 1;

	/* Pass 1: the CLI, from a small parent (no API calls yet) so that each
	 * child's peak RSS is its own. */
	for (int c = 0; c < ncases; c++) {
		struct hcase *h = &cs[c];
		char path[600];

		per_kind[h->kind]++;
		snprintf(path, sizeof path, "%s/%s.trace", dir, h->name);
		decode(h->input_spec, &input);
		FILE *f = fopen(path, "wb");
		if (!f || fwrite(input.s, 1, input.len, f) != input.len || fclose(f)) {
			perror(path);
			return 1;
		}
		release_input(&input);
		h->expect = replace_file(h->expect_spec, path);
		h->expect_api = replace_file(h->expect_spec, "trace");
		char argcol[256];
		snprintf(argcol, sizeof argcol, "%s", h->argcol);
		parse_args(argcol, &a);

		char *argv[20] = { (char *)SVZ_CLI_PATH, (char *)"run", path };
		int argc = 3;
		for (int i = 0; i < a.argc; i++)
			argv[argc++] = a.argv[i];
		argv[argc] = NULL;
		struct run_result run;
		run_cli(argv, dir, &run);
		h->run_first = strdup(first_line(run.err));
		if (run.rss_kb > max_rss) {
			max_rss = run.rss_kb;
			max_rss_case = h->name;
		}
		if (run.secs > max_secs) {
			max_secs = run.secs;
			max_secs_case = h->name;
		}
		if (print) {
			char *p = strstr(h->run_first, path);
			printf("%s\t%d\t%ldKB\t%.2fs\t%.*s%s%s\n", h->name, run.status, run.rss_kb, run.secs,
			       p ? (int)(p - h->run_first) : (int)strlen(h->run_first), h->run_first,
			       p ? "FILE" : "", p ? p + strlen(path) : "");
		} else {
			if (run.status != 2 || strcmp(h->run_first, h->expect) != 0 ||
			    run.rss_kb > MAX_RSS_KB || run.secs > MAX_SECONDS)
				fprintf(stderr, "case %s: slubviz run: exit %d, %ld KB, %.2f s\n", h->name,
					run.status, run.rss_kb, run.secs);
			CHECK_EQ_INT(run.status, 2);
			CHECK_EQ_STR(h->run_first, h->expect);
			CHECK(run.rss_kb <= MAX_RSS_KB);
			CHECK(run.secs <= MAX_SECONDS);
		}
		free(run.out);
		free(run.err);

		/* slubviz import FILE: the same error for anything it reads (it
		 * does not replay, and takes no preset) */
		if (!print && (h->kind == 0 || h->kind == 3)) {
			char *iargv[] = { (char *)SVZ_CLI_PATH, (char *)"import", path, NULL };
			struct run_result imp;
			run_cli(iargv, dir, &imp);
			if (imp.status != 2)
				fprintf(stderr, "case %s: slubviz import\n", h->name);
			CHECK_EQ_INT(imp.status, 2);
			if (h->kind == 0)
				CHECK_EQ_STR(first_line(imp.err), h->run_first);
			else
				CHECK_EQ_STR(import_msg(first_line(imp.err)), import_msg(h->run_first));
			CHECK(imp.rss_kb <= MAX_RSS_KB);
			free(imp.out);
			free(imp.err);
		}
		unlink(path);
	}

	/* Pass 2: the C API on the same bytes. svz_open() and svz_open_any()
	 * take a C string: a NUL ends the text there, so only the streaming
	 * import sees past it. */
	for (int c = 0; c < ncases && !print; c++) {
		struct hcase *h = &cs[c];
		char argcol[256];

		snprintf(argcol, sizeof argcol, "%s", h->argcol);
		parse_args(argcol, &a);
		decode(h->input_spec, &input);
		const char *sets = a.sets.len ? a.sets.s : NULL;
		bool has_nul = memchr(input.s, 0, input.len) != NULL;
		for (int ep = has_nul ? 2 : 0; ep < 3; ep++) {
			static const char *const eps[3] = { "svz_open", "svz_open_any", "streaming" };
			int hd = ep == 0 ? svz_open(input.s, a.preset, sets)
			       : ep == 1 ? svz_open_any(input.s, a.preset, sets)
				         : open_streaming(input.s, input.len, a.preset, sets);
			const char *err = hd > 0 ? "" : svz_last_error();
			bool ok;
			if (h->kind == 1)
				ok = hd > 0 && svz_run_all(hd) == -1;
			else if (h->kind == 3 && ep == 0) /* svz_open reads v1 only */
				ok = hd < 0;
			else if (h->kind == 3)
				ok = hd < 0 && strcmp(import_msg(err), import_msg(h->expect)) == 0;
			else
				ok = hd < 0 && strcmp(err, h->expect_api) == 0;
			if (!ok)
				fprintf(stderr, "case %s: %s: handle %d, '%s'\n  want '%s'\n", h->name, eps[ep], hd,
					err, h->expect_api);
			CHECK(ok);
			if (hd > 0)
				svz_close(hd);
		}
	}
	char p[600];
	snprintf(p, sizeof p, "%s/stdout", dir);
	unlink(p);
	snprintf(p, sizeof p, "%s/stderr", dir);
	unlink(p);
	rmdir(dir);
	fprintf(stderr, "%d hostile cases (parse %d, runtime %d, args %d, input %d); peak RSS %ld KB (%s), "
		"slowest %.2f s (%s)\n", ncases, per_kind[0], per_kind[1], per_kind[2], per_kind[3],
		max_rss, max_rss_case, max_secs, max_secs_case);
	for (int c = 0; c < ncases; c++) {
		free(cs[c].expect);
		free(cs[c].expect_api);
		free(cs[c].run_first);
	}
	free(cs);
	free(table);
	free(input.s);
	free(a.sets.s);
	return print ? 0 : svz_t_done();
}
