#include "harness.h"

#include <stdlib.h>

int svz_t_pass, svz_t_fail;

char *svz_t_read_file(const char *relpath, size_t *len)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", SVZ_SOURCE_DIR, relpath);
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "cannot open %s\n", path);
		return NULL;
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (buf) {
		buf[n] = 0;
		if (len)
			*len = (size_t)n;
	}
	return buf;
}

int svz_t_done(void)
{
	printf("%d passed, %d failed\n", svz_t_pass, svz_t_fail);
	return svz_t_fail ? 1 : 0;
}
