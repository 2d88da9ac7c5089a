/* `slubviz import` and `slubviz run` on imported formats, through the built
 * CLI (SVZ_CLI_PATH): exit codes, where the summary and the v1 go, --sysfs
 * on an imported cache, --format, --bench. */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

#define DATA SVZ_SOURCE_DIR "/core/tests/data/ftrace/"

static char tmpdir[64];

struct res {
	int status;
	char *out, *err;
};

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return calloc(1, 1);
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	size_t n;
	while (buf && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (len + 1 >= cap) {
			char *b = realloc(buf, cap * 2);
			if (!b)
				break;
			buf = b;
			cap *= 2;
		}
	}
	fclose(f);
	if (buf)
		buf[len] = 0;
	return buf;
}

/* Runs "slubviz ARGS" with stdout and stderr captured. */
static struct res run(const char *args)
{
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "'%s' %s >'%s/out' 2>'%s/err'", SVZ_CLI_PATH, args, tmpdir, tmpdir);
	int st = system(cmd);
	struct res r;
	r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	char p[128];
	snprintf(p, sizeof p, "%s/out", tmpdir);
	r.out = slurp(p);
	snprintf(p, sizeof p, "%s/err", tmpdir);
	r.err = slurp(p);
	return r;
}

static void res_free(struct res *r)
{
	free(r->out);
	free(r->err);
}

static bool contains(const char *hay, const char *needle)
{
	if (hay && strstr(hay, needle))
		return true;
	fprintf(stderr, "  missing '%s' in:\n%s\n", needle, hay ? hay : "(null)");
	return false;
}

static void write_file(const char *name, const char *text)
{
	char p[128];
	snprintf(p, sizeof p, "%s/%s", tmpdir, name);
	FILE *f = fopen(p, "wb");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* As write_file(), for bytes that may include NULs. */
static void write_bytes(const char *name, const char *data, size_t len)
{
	char p[128];
	snprintf(p, sizeof p, "%s/%s", tmpdir, name);
	FILE *f = fopen(p, "wb");
	if (f) {
		fwrite(data, 1, len, f);
		fclose(f);
	}
}

int main(void)
{
	char args[1024];
	snprintf(tmpdir, sizeof tmpdir, "/tmp/svz-import-cli-XXXXXX");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}

	/* import: summary on stderr, v1 on stdout */
	struct res r = run("import " DATA "ftrace-kmem-v6.12-rostedt-node-accounted-name.txt");
	CHECK_EQ_INT(r.status, 0);
	CHECK(contains(r.err, "format: ftrace\n"));
	CHECK(contains(r.err, "events: 8 kmem events read, 8 kept, 0 skipped -> 8 ops\n"));
	CHECK(contains(r.out, "slubviz-trace 1\n"));
	CHECK(contains(r.out, "cache names_cache size=4096\n"));
	CHECK(contains(r.out, "c0 free names_cache pe70e10e0 at=do_sys_openat2+0xa7/0xd0\n"));
	res_free(&r);

	/* -o -: stdout (as FILE - is stdin), no file named '-' */
	r = run("import " DATA "ftrace-kmem-v6.12-rostedt-node-accounted-name.txt -o -");
	CHECK_EQ_INT(r.status, 0);
	CHECK(contains(r.out, "slubviz-trace 1\n"));
	CHECK(access("-", F_OK) != 0);
	res_free(&r);

	/* -o OUT, --json; the output runs like the input */
	snprintf(args, sizeof args, "import " DATA "bpftrace-oneliner.txt -o %s/b.trace --json", tmpdir);
	r = run(args);
	CHECK_EQ_INT(r.status, 0);
	CHECK_EQ_STR(r.out, "");
	CHECK(contains(r.err, "{\"schema\":1,\"format\":\"bpftrace\",\"ok\":true,"));
	res_free(&r);
	snprintf(args, sizeof args, "run %s/b.trace --slabinfo", tmpdir);
	struct res a = run(args);
	r = run("run " DATA "bpftrace-oneliner.txt --slabinfo");
	CHECK_EQ_INT(a.status, 0);
	CHECK_EQ_INT(r.status, 0);
	CHECK_EQ_STR(r.out, a.out);
	/* one view: just the summary on stderr (6 events kept: 6 ops) */
	CHECK(strncmp(a.err, "ops 6/6 ", 8) == 0 && !strchr(a.err, '\n')[1]);
	CHECK(contains(r.err, "slubviz run: imported '"));
	CHECK(contains(r.err, "(bpftrace): 6 events, 6 kept, 0 skipped, 0 bad lines"));
	res_free(&a);
	res_free(&r);

	/* --sysfs on a cache the import created */
	r = run("run " DATA "ftrace-kmem-v5.4-x86_64-vmware-liulangrenaaa.txt --sysfs inferred-5678-10320");
	CHECK_EQ_INT(r.status, 0);
	/* one view: stdout holds it alone, the summary goes to stderr */
	CHECK(contains(r.err, "ops 15/15 "));
	CHECK(!contains(r.out, "ops "));
	CHECK(contains(r.out, "object_size:10320\n"));
	res_free(&r);
	/* a constructor cache: kmem_cache_alloc bytes_req=576 bytes_alloc=584
	 * (radix_tree_node); the kernel's object_size is 576, slab_size 584 */
	r = run("run " DATA "trace-cmd-report-kmem-plugin-v6.x.txt --sysfs radix_tree_node");
	CHECK_EQ_INT(r.status, 0);
	CHECK(contains(r.out, "/object_size:576\n"));
	CHECK(contains(r.out, "/slab_size:584\n"));
	CHECK(contains(r.out, "/ctor:radix_tree_node_ctor+0x0/0x20\n"));
	res_free(&r);
	/* no cache at all (a free-only trace): /proc/slabinfo still has the two
	 * header lines of print_slabinfo_header() */
	r = run("run " DATA "ftrace-bom-free-only.txt --slabinfo");
	CHECK_EQ_INT(r.status, 0);
	CHECK(contains(r.err, "ops 0/0 "));
	CHECK(strncmp(r.out, "slabinfo - version: 2.1\n# name            <active_objs> ", 56) == 0);
	CHECK(contains(r.err, "(ftrace): 3 events, 0 kept, 3 skipped, 0 bad lines"));
	res_free(&r);
	r = run("run " DATA "malloc-lab-short.rep --format malloc-lab --stats");
	CHECK_EQ_INT(r.status, 0);
	CHECK(contains(r.err, "ops 8/8 "));
	res_free(&r);

	/* junk: exit 2, one line saying why */
	write_file("junk.txt", "hello\nworld\n");
	snprintf(args, sizeof args, "import %s/junk.txt", tmpdir);
	r = run(args);
	CHECK_EQ_INT(r.status, 2);
	CHECK_EQ_STR(r.out, "");
	char want[512];
	snprintf(want, sizeof want,
		 "slubviz import: cannot import '%s/junk.txt' (ftrace): no kmem events recognised as "
		 "ftrace: 2 lines could not be read (line 1: expected an event line 'TASK-PID [CPU] "
		 "FLAGS TIMESTAMP: EVENT: FIELDS', got 'hello')\n", tmpdir);
	CHECK_EQ_STR(r.err, want);
	res_free(&r);
	/* with --json the failure is the summary's JSON, where the summary
	 * goes (stderr): ok false and the text form's message as error */
	snprintf(args, sizeof args, "import %s/junk.txt --json", tmpdir);
	r = run(args);
	CHECK_EQ_INT(r.status, 2);
	CHECK_EQ_STR(r.out, "");
	snprintf(want, sizeof want,
		 "{\"schema\":1,\"ok\":false,\"error\":\"cannot import '%s/junk.txt' (ftrace): no kmem "
		 "events recognised as ftrace: 2 lines could not be read (line 1: expected an event "
		 "line 'TASK-PID [CPU] FLAGS TIMESTAMP: EVENT: FIELDS', got 'hello')\"}\n", tmpdir);
	CHECK_EQ_STR(r.err, want);
	res_free(&r);
	r = run("import /nonexistent/x.txt --json");
	CHECK_EQ_INT(r.status, 2);
	CHECK(contains(r.err, "{\"schema\":1,\"ok\":false,\"error\":\"cannot read '/nonexistent/x.txt': "));
	res_free(&r);
	/* UTF-16 text (byte-order mark FF FE, "cpus=4\n" in UTF-16LE): fatal at
	 * once, exit 2, one message naming the mark and iconv; with --json
	 * the same message as the JSON error. Nothing was detected yet, so
	 * the format says auto. */
	static const char u16[] = "\xFF\xFE" "c\0p\0u\0s\0=\0" "4\0\n\0";
	write_bytes("u16.txt", u16, sizeof u16 - 1);
	snprintf(args, sizeof args, "import %s/u16.txt", tmpdir);
	r = run(args);
	CHECK_EQ_INT(r.status, 2);
	CHECK_EQ_STR(r.out, "");
	snprintf(want, sizeof want,
		 "slubviz import: cannot import '%s/u16.txt' (auto): UTF-16 text (byte-order mark FF "
		 "FE): convert it to UTF-8, e.g. iconv -f utf-16 -t utf-8 FILE\n", tmpdir);
	CHECK_EQ_STR(r.err, want);
	res_free(&r);
	snprintf(args, sizeof args, "import %s/u16.txt --json", tmpdir);
	r = run(args);
	CHECK_EQ_INT(r.status, 2);
	CHECK_EQ_STR(r.out, "");
	snprintf(want, sizeof want,
		 "{\"schema\":1,\"ok\":false,\"error\":\"cannot import '%s/u16.txt' (auto): UTF-16 "
		 "text (byte-order mark FF FE): convert it to UTF-8, e.g. iconv -f utf-16 -t utf-8 "
		 "FILE\"}\n", tmpdir);
	CHECK_EQ_STR(r.err, want);
	res_free(&r);

	/* trace-cmd report --ts-diff through the CLI: a kmalloc with the first
	 * record's blanks, its kfree with "(+88000)": both read and kept */
	write_file("tsdiff.txt",
		   "cpus=2\n"
		   "  bash-7 [000] 52.000001:          kmalloc: call_site=c0ffee ptr=0xffff8880aa000000 "
		   "bytes_req=64 bytes_alloc=64 gfp_flags=GFP_KERNEL\n"
		   "  bash-7 [001] 52.088001: (+88000) kfree: call_site=c0ffee ptr=0xffff8880aa000000\n");
	snprintf(args, sizeof args, "import %s/tsdiff.txt", tmpdir);
	r = run(args);
	CHECK_EQ_INT(r.status, 0);
	CHECK(contains(r.err, "format: trace-cmd\n"));
	CHECK(contains(r.err, "events: 2 kmem events read, 2 kept, 0 skipped -> 2 ops\n"));
	res_free(&r);

	/* trace-cmd report -i host.dat -i guest.dat: host.dat has cpus=2, so
	 * guest.dat's CPU n replays as CPU 2+n; 2 + 4 = 6 CPUs (ops as in
	 * test_import.c, from the fixture's CPU columns) */
	r = run("import " DATA "trace-cmd-report-two-inputs.txt");
	CHECK_EQ_INT(r.status, 0);
	CHECK(contains(r.err, "format: trace-cmd\n"));
	CHECK(contains(r.err, "events: 6 kmem events read, 6 kept, 0 skipped -> 6 ops\n"));
	CHECK(contains(r.err, "CPUs seen: 0-3,5 (6 CPUs in the header)\n"));
	CHECK(contains(r.err, "note: 2 input files (trace-cmd report -i ... -i ...), read as one trace "
			      "in the order printed; each file's CPUs replay after the previous files': "
			      "host.dat (cpus=2) as CPUs 0-1, guest.dat (cpus=4) as CPUs 2-5; "
			      "allocations and frees pair across the files\n"));
	CHECK(contains(r.err, "errors: none\n"));
	CHECK(contains(r.out, "\ncpus 0-5 node=0\n"));
	CHECK(contains(r.out, "\nc1 kmalloc 640 pffff888103a4c800 at=__alloc_skb+0x8e\n"
			      "c3 kmalloc 640 pffff888003a4c800 at=__alloc_skb+0x8e\n"));
	CHECK(contains(r.out, "\nc0 kfree pffff888103a4c800 at=skb_release_data+0x128\n"
			      "c2 kfree pffff888003a4c800 at=skb_release_data+0x128\n"));
	res_free(&r);
	snprintf(args, sizeof args, "import " DATA "trace-cmd-report-two-inputs.txt --json");
	r = run(args);
	CHECK_EQ_INT(r.status, 0);
	CHECK(contains(r.err, "\"input_files\":{\"count\":2,\"cpus_shared\":false,\"files\":["
			      "{\"name\":\"host.dat\",\"cpus\":2,\"first_cpu\":0},"
			      "{\"name\":\"guest.dat\",\"cpus\":4,\"first_cpu\":2}]}"));
	res_free(&r);

	/* perf trace output: the message says so, naming the file and line */
	write_file("perftrace.txt",
		   "     0.000 bash/1234 kmem:kmalloc(call_site: 0xffffffff81a0b5aa, ptr: "
		   "0xffff888100000000, bytes_req: 64, bytes_alloc: 64, gfp_flags: 3264)\n");
	snprintf(args, sizeof args, "import %s/perftrace.txt", tmpdir);
	r = run(args);
	CHECK_EQ_INT(r.status, 2);
	snprintf(want, sizeof want, "slubviz import: cannot import '%s/perftrace.txt' (ftrace): no kmem "
		 "events recognised as ftrace: 1 lines could not be read (line 1: 'perf trace' output "
		 "(no CPU column, fields that are 0 left out): record with 'perf record -e "
		 "kmem:kmalloc -e kmem:kfree ...' and convert with 'perf script')\n", tmpdir);
	CHECK_EQ_STR(r.err, want);
	res_free(&r);

	/* a v1 parse error keeps its own form as the error, with the file's
	 * name for the library's "trace" (as every other format names it) */
	write_file("v2.trace", "slubviz-trace 2\n");
	snprintf(args, sizeof args, "import %s/v2.trace --json", tmpdir);
	r = run(args);
	CHECK_EQ_INT(r.status, 2);
	snprintf(want, sizeof want, "{\"schema\":1,\"ok\":false,\"error\":\"%s/v2.trace:1:15: error: "
		 "expected format version 1, got '2'\"}\n", tmpdir);
	CHECK_EQ_STR(r.err, want);
	res_free(&r);
	/* ... also with --format v1 (line 2 col 1: the word 'bogus'), and for
	 * stdin */
	write_file("bogus.trace", "slubviz-trace 1\nbogus\n");
	snprintf(args, sizeof args, "import --format v1 %s/bogus.trace", tmpdir);
	r = run(args);
	CHECK_EQ_INT(r.status, 2);
	snprintf(want, sizeof want, "%s/bogus.trace:2:1: error: expected a directive", tmpdir);
	CHECK_EQ_INT(strncmp(r.err, want, strlen(want)), 0);
	res_free(&r);
	snprintf(args, sizeof args, "run --format v1 %s/bogus.trace", tmpdir);
	r = run(args);
	CHECK_EQ_INT(r.status, 2);
	CHECK_EQ_INT(strncmp(r.err, want, strlen(want)), 0);
	res_free(&r);
	snprintf(args, sizeof args, "import --format v1 - < %s/bogus.trace", tmpdir);
	r = run(args);
	CHECK_EQ_INT(r.status, 2);
	CHECK_EQ_INT(strncmp(r.err, "<stdin>:2:1: error: expected a directive", 40), 0);
	res_free(&r);
	snprintf(args, sizeof args, "run %s/junk.txt", tmpdir);
	r = run(args);
	CHECK_EQ_INT(r.status, 2);
	CHECK(contains(r.err, "slubviz run: cannot import '"));
	res_free(&r);

	/* trace-cmd report -l: the CPU column without brackets ("%3d" and the
	 * latency flags); the kmalloc on CPU 2, its kfree on CPU 3 */
	write_file("lat.txt",
		   "cpus=4\n"
		   "    bash-1718    2d..2.  2275.416428: kmalloc:              call_site=__alloc_skb+0x8e/0x1d0 "
		   "ptr=0xffff888103a4c800 bytes_req=640 bytes_alloc=1024 gfp_flags=GFP_KERNEL|__GFP_NOWARN "
		   "node=-1 accounted=false\n"
		   "    bash-1718    3....   2275.416440: kfree:                call_site=skb_release_data+0x128/0x1a0 "
		   "ptr=0xffff888103a4c800\n");
	snprintf(args, sizeof args, "import %s/lat.txt", tmpdir);
	r = run(args);
	CHECK_EQ_INT(r.status, 0);
	CHECK(contains(r.err, "CPUs seen: 2-3 (4 CPUs in the header)\n"));
	CHECK(contains(r.out, "\nc2 kmalloc 640 pffff888103a4c800 gfp=GFP_KERNEL|__GFP_NOWARN "
			      "at=__alloc_skb+0x8e/0x1d0\n"));
	CHECK(contains(r.out, "\nc3 kfree pffff888103a4c800 at=skb_release_data+0x128/0x1a0\n"));
	res_free(&r);

	/* perf script -F comm,tid,cpu,event,trace: no time column, CPU 2 */
	write_file("notime.txt",
		   "     Web Content  1718 [002] kmem:kmalloc: call_site=__alloc_skb+0x8e "
		   "ptr=0xffff888103a4c800 bytes_req=640 bytes_alloc=1024 gfp_flags=GFP_KERNEL node=-1 "
		   "accounted=false\n");
	snprintf(args, sizeof args, "import %s/notime.txt", tmpdir);
	r = run(args);
	CHECK_EQ_INT(r.status, 0);
	CHECK(contains(r.err, "format: perf\n"));
	CHECK(contains(r.out, "\nc2 kmalloc 640 pffff888103a4c800 at=__alloc_skb+0x8e\n"));
	res_free(&r);

	/* perf script -g prints the task name unpadded: a task "node" is not
	 * v1's directive (one kmalloc of 64 on CPU 1, a raw pointer; then a
	 * kfree of a NULL %p, which libtraceevent prints "(nil)": free-null) */
	write_file("node.txt",
		   "node  4242 [001]  5678.123456: kmem:kmalloc: call_site=ffffffff81a0b5aa "
		   "ptr=0xffff888100000000 bytes_req=64 bytes_alloc=64 gfp_flags=GFP_KERNEL\n"
		   "node  4242 [001]  5678.123457: kmem:kfree: call_site=ffffffff81a0b5aa ptr=(nil)\n");
	snprintf(args, sizeof args, "import %s/node.txt", tmpdir);
	r = run(args);
	CHECK_EQ_INT(r.status, 0);
	CHECK(contains(r.err, "format: perf\n"));
	CHECK(contains(r.err, "events: 2 kmem events read, 1 kept, 1 skipped -> 1 ops\n"));
	CHECK(contains(r.err, "errors: none"));
	CHECK(contains(r.out, "\nc1 kmalloc 64 pffff888100000000 at=ffffffff81a0b5aa\n"));
	res_free(&r);
	/* ... while a v1 line without the header still gets the v1 parser's error */
	write_file("nohdr.trace", "node 0 mem=1G\n");
	snprintf(args, sizeof args, "import %s/nohdr.trace", tmpdir);
	r = run(args);
	CHECK_EQ_INT(r.status, 2);
	CHECK(contains(r.err, "expected the header 'slubviz-trace 1', got 'node'"));
	res_free(&r);

	/* v1 errors keep their form, naming the file */
	write_file("bad.trace", "slubviz-trace 2\n");
	snprintf(args, sizeof args, "run %s/bad.trace", tmpdir);
	r = run(args);
	CHECK_EQ_INT(r.status, 2);
	snprintf(want, sizeof want, "%s/bad.trace:1:15: error: expected format version 1, got '2'\n",
		 tmpdir);
	CHECK_EQ_STR(r.err, want);
	res_free(&r);

	/* option errors */
	r = run("import " DATA "malloc-lab-short.rep --format csv");
	CHECK_EQ_INT(r.status, 2);
	CHECK_EQ_STR(r.err, "slubviz import: unknown format 'csv' (auto, v1, ftrace, trace-cmd, perf, "
		     "bpftrace, malloc-lab)\n");
	res_free(&r);
	r = run("import");
	CHECK_EQ_INT(r.status, 2);
	CHECK_EQ_STR(r.err, "slubviz import: expected a trace file (see: slubviz help)\n");
	res_free(&r);
	r = run("import --bench 0");
	CHECK_EQ_INT(r.status, 2);
	res_free(&r);
	r = run("import /nonexistent/x.txt");
	CHECK_EQ_INT(r.status, 2);
	CHECK(contains(r.err, "slubviz import: cannot read '/nonexistent/x.txt': "));
	res_free(&r);

	/* the benchmark hook */
	r = run("import --bench 2000");
	CHECK_EQ_INT(r.status, 0);
	CHECK(contains(r.out, "lines=2000 ns_per_line="));
	CHECK(contains(r.out, " lines_per_s="));
	res_free(&r);

	/* stdin */
	snprintf(args, sizeof args, "import - < " DATA "trace-cmd-report.txt");
	r = run(args);
	CHECK_EQ_INT(r.status, 0);
	CHECK(contains(r.err, "format: trace-cmd\n"));
	res_free(&r);

	snprintf(args, sizeof args, "rm -rf '%s'", tmpdir);
	if (system(args) != 0)
		fprintf(stderr, "could not remove %s\n", tmpdir);
	return svz_t_done();
}
