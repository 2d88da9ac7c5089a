/* Replays the fuzz corpus (core/tests/fuzz/corpus/<harness>/) and every
 * crash reproducer (core/tests/fuzz/regressions/<harness>/) through the
 * harness entry points, without libFuzzer, so every build (the ASan test
 * build, the arena-moving build) checks them. The harness sources are
 * included here rather than listed in CMake: the top-level test glob
 * builds each test_*.c from itself and harness.c only. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#include "fuzz/fuzz_common.c"
#include "fuzz/fuzz_import.c"
#include "fuzz/fuzz_importparse.c"
#include "fuzz/fuzz_restore.c"
#include "fuzz/fuzz_sched.c"
#include "fuzz/fuzz_v1.c"
#include "fuzz/fuzz_v1parse.c"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs every file of core/tests/fuzz/<kind>/<harness>/ in name order (an
 * oracle failure or a sanitizer report aborts the test, naming the file).
 * Returns the number of files, -1 if the directory is missing. */
static int replay_dir(const struct svz_fuzz_harness *hz, const char *kind)
{
	char rel[256];
	snprintf(rel, sizeof rel, "core/tests/fuzz/%s/%s", kind, hz->name);
	char dir[1024];
	snprintf(dir, sizeof dir, "%s/%s", SVZ_SOURCE_DIR, rel);
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	char **names = NULL;
	size_t n = 0, cap = 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.' || strcmp(e->d_name, "README.md") == 0)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			char **t = realloc(names, cap * sizeof *t);
			if (!t)
				break;
			names = t;
		}
		names[n] = malloc(strlen(e->d_name) + 1);
		if (!names[n])
			break;
		strcpy(names[n++], e->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof *names, cmp_str);
	for (size_t i = 0; i < n; i++) {
		char path[1024];
		snprintf(path, sizeof path, "%s/%s", rel, names[i]);
		size_t len = 0;
		char *data = svz_t_read_file(path, &len);
		CHECK(data != NULL);
		if (data) {
			svz_fuzz_input_name = path;
			CHECK_EQ_INT(hz->fn((const uint8_t *)data, len), 0);
			svz_fuzz_input_name = NULL;
		}
		free(data);
		free(names[i]);
	}
	free(names);
	return (int)n;
}

int main(void)
{
	for (const struct svz_fuzz_harness *hz = svz_fuzz_harnesses; hz->name; hz++) {
		int corpus = replay_dir(hz, "corpus");
		int regressions = replay_dir(hz, "regressions");
		printf("%-8s %4d corpus files, %3d regressions\n", hz->name, corpus,
		       regressions < 0 ? 0 : regressions);
		/* every harness has a committed corpus */
		CHECK(corpus > 0);
	}
	return svz_t_done();
}
