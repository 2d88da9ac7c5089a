/* slubviz import, and the opening of every trace file the CLI takes (run,
 * bench). A file goes through the browser's calls (slubviz.h):
 * svz_import_begin, svz_import_feed in chunks, svz_import_end; then the
 * session's svz_import_summary[_json] and svz_export_v1. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lib/sbuf.h"
#include "slubviz/import.h"
#include "slubviz/slubviz.h"
#include "slubviz/trace.h"

/* Feed a file (or stdin for "-") to import `imp` in chunks. -1 with errno. */
static int feed_file(int imp, const char *path)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	if (!f)
		return -1;
	static char chunk[1 << 20];
	int rc = 0;
	for (;;) {
		size_t n = fread(chunk, 1, sizeof chunk, f);
		if (n)
			svz_import_feed(imp, chunk, (int)n);
		if (n < sizeof chunk) {
			if (ferror(f)) {
				errno = errno ? errno : EIO;
				rc = -1;
			}
			break;
		}
	}
	if (f != stdin) {
		int e = errno;
		fclose(f);
		errno = e;
	}
	return rc;
}

/* A failed import: exit status 2, and on stderr "slubviz CMD: MSG" (MSG
 * alone when cmd is NULL), or with json the summary's JSON, where the
 * summary goes, with ok false and MSG as error: the session that would
 * have held the whole summary does not exist. */
static int import_fail(const char *cmd, bool json, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int import_fail(const char *cmd, bool json, const char *fmt, ...)
{
	char msg[5120]; /* a path of up to PATH_MAX and the importer's message */
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (!json) {
		if (cmd)
			return cli_fail(cmd, "%s", msg);
		fprintf(stderr, "%s\n", msg);
		return 2;
	}
	struct sbuf b = { 0 };
	sb_puts(&b, "{\"schema\":1,\"ok\":false,\"error\":");
	sb_json_str(&b, msg);
	sb_puts(&b, "}\n");
	fputs(b.oom ? "{\"schema\":1,\"ok\":false,\"error\":\"out of memory\"}\n" : b.s, stderr);
	sb_free(&b);
	return 2;
}

/* Import (or parse) a file of any format and open its session: 0 and *h,
 * or the exit status with the error printed (as JSON if json). */
static int import_session(const char *cmd, const char *path, const char *format,
			  const char *preset, const char *sets, bool json, int *h)
{
	enum svz_import_format f;
	if (format && *format && svz_import_format_parse(format, &f))
		return import_fail(cmd, json, "unknown format '%s' (%s)", format,
				   svz_import_format_list());
	int imp = svz_import_begin(format);
	if (imp < 0)
		return import_fail(cmd, json, "%s", svz_last_error());
	errno = 0;
	if (feed_file(imp, path)) {
		int e = errno;
		svz_import_cancel(imp);
		return import_fail(cmd, json, "cannot read '%s': %s", path, strerror(e));
	}
	*h = svz_import_end(imp, preset, sets);
	if (*h > 0)
		return 0;
	/* "import (FORMAT): MSG" when nothing could be imported; a v1 parse
	 * error or a session that cannot start, "trace:LINE:COL: error: ...":
	 * the library has no file name, the CLI puts the file's in, as a
	 * compiler names its input */
	const char *e = svz_last_error();
	if (strncmp(e, "import (", 8) == 0)
		return import_fail(cmd, json, "cannot import '%s' %s", path, e + 7);
	if (strncmp(e, "trace:", 6) == 0)
		return import_fail(NULL, json, "%s:%s", cli_input_name(path), e + 6);
	return import_fail(NULL, json, "%s", e);
}

/* A number at the top level of the import summary's JSON, 0 if absent. */
static unsigned long long summary_count(const char *json, const char *key)
{
	char k[64];
	snprintf(k, sizeof k, ",\"%s\":", key);
	const char *p = strstr(json, k);
	return p ? strtoull(p + strlen(k), NULL, 10) : 0;
}

/* Open a session on a trace file of any format: native v1 as is, anything
 * `slubviz import` reads imported first (one summary line on stderr unless
 * quiet). 0 and *h, or the exit status (error printed). */
int load_any_trace(const char *cmd, const char *path, const char *format, const char *preset,
		   const char *sets, bool quiet, int *h)
{
	int rc = import_session(cmd, path, format, preset, sets, false, h);
	if (rc || quiet)
		return rc;
	const char *json = svz_import_summary_json(*h);
	char fmt[32] = "";
	if (sscanf(json, "{\"schema\":1,\"format\":\"%31[^\"]\"", fmt) != 1 || strcmp(fmt, "v1") == 0)
		return 0;
	unsigned long long events = summary_count(json, "events"), kept = summary_count(json, "kept");
	fprintf(stderr, "slubviz %s: imported '%s' (%s): %llu events, %llu kept, %llu skipped, "
		"%llu bad lines (details: slubviz import)\n", cmd, path, fmt, events, kept,
		events - kept, summary_count(json, "bad_lines"));
	return 0;
}

/* slubviz import --bench N: import speed on a generated ftrace log, fed in
 * 64 KiB chunks like a file. */
static int import_bench(uint64_t n)
{
	size_t len;
	char *text = svz_import_synth_ftrace(n, &len);
	if (!text)
		return cli_fail("import", "out of memory generating %llu lines", (unsigned long long)n);
	int64_t total = 0;
	long reps = 0;
	do {
		struct svz_importer *im = svz_importer_new(SVZ_FMT_AUTO, NULL, NULL);
		struct svz_trace t;
		struct svz_import_report rep;
		int64_t t0 = cli_now_ns();
		for (size_t o = 0; im && o < len; o += 65536)
			svz_importer_feed(im, text + o, len - o < 65536 ? len - o : 65536);
		int r = svz_importer_finish(im, &t, &rep, NULL);
		total += cli_now_ns() - t0;
		svz_importer_free(im);
		svz_import_report_free(&rep);
		if (r) {
			free(text);
			return cli_fail("import", "bench: the generated log did not import");
		}
		svz_trace_free(&t);
		reps++;
	} while (total < 300000000 && reps < 1000);
	free(text);
	double per = (double)total / ((double)reps * (double)(n ? n : 1));
	printf("lines=%llu ns_per_line=%.2f lines_per_s=%.0f\n", (unsigned long long)n, per,
	       per > 0 ? 1e9 / per : 0.0);
	return 0;
}

/* The summary on stderr, the v1 text to `out` (stdout if NULL). */
static int write_import(int h, const char *out, bool json)
{
	fputs(json ? svz_import_summary_json(h) : svz_import_summary(h), stderr);
	if (json)
		fputc('\n', stderr);
	const char *v1 = svz_export_v1(h);
	size_t len = strlen(v1);
	if (!len)
		return cli_fail("import", "out of memory");
	if (out && strcmp(out, "-") == 0)
		out = NULL; /* -o -: stdout, as FILE - is stdin */
	FILE *f = out ? fopen(out, "wb") : stdout;
	if (!f)
		return cli_fail("import", "cannot write '%s': %s", out, strerror(errno));
	bool ok = fwrite(v1, 1, len, f) == len;
	if (out)
		ok &= fclose(f) == 0;
	if (!ok)
		return cli_fail("import", "cannot write '%s': %s", out ? out : "stdout", strerror(errno));
	return 0;
}

int svz_cmd_import(int argc, char **argv)
{
	const char *file = NULL, *format = NULL, *out = NULL;
	bool json = false;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v;
		bool m;
		if (a[0] != '-' || strcmp(a, "-") == 0) {
			if (file)
				return cli_fail("import", "expected one trace file, got a second: '%s'", a);
			file = a;
		} else if ((v = cli_opt_value(argc, argv, &i, "--format", &m)) || m) {
			if (!v || !*v)
				return cli_fail("import", "--format needs a format (%s)",
						svz_import_format_list());
			format = v;
		} else if (((v = cli_opt_value(argc, argv, &i, "-o", &m)) || m) ||
			   ((v = cli_opt_value(argc, argv, &i, "--output", &m)) || m)) {
			if (!v || !*v)
				return cli_fail("import", "-o needs a file name");
			out = v;
		} else if (strcmp(a, "--json") == 0) {
			json = true;
		} else if ((v = cli_opt_value(argc, argv, &i, "--bench", &m)) || m) {
			long long n;
			if (cli_count("import", "--bench", v, 1, 100000000, &n))
				return 2;
			return import_bench((uint64_t)n);
		} else {
			return cli_fail("import", "unknown option '%s' (see: slubviz help)", a);
		}
	}
	if (!file)
		return cli_fail("import", "expected a trace file (see: slubviz help)");
	int h;
	int rc = import_session("import", file, format, NULL, NULL, json, &h);
	if (rc)
		return rc;
	rc = write_import(h, out, json);
	svz_close(h);
	return rc;
}
