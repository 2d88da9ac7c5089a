#include "harness.h"

#include <stdlib.h>

#include "slubviz/slubviz.h"

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

long long svz_t_stat_cpu(const char *sysfs, const char *attr, int cpu)
{
	char key[80];
	snprintf(key, sizeof key, "./%s:", attr);
	const char *l = strstr(sysfs, key);
	if (!l)
		return -1;
	const char *end = strchr(l, '\n');
	char pat[24];
	snprintf(pat, sizeof pat, " C%d=", cpu);
	const char *p = strstr(l, pat);
	if (!p || (end && p > end))
		return 0;
	return atoll(p + strlen(pat));
}

long long svz_t_stat_total(const char *sysfs, const char *attr)
{
	char key[80];
	snprintf(key, sizeof key, "./%s:", attr);
	const char *l = strstr(sysfs, key);
	return l ? atoll(l + strlen(key)) : -1;
}

int svz_t_run(const char *text, const char *preset, const char *sets)
{
	int h = svz_open(text, preset, sets);
	if (h <= 0) {
		fprintf(stderr, "open: %s\n", svz_last_error());
		return -1;
	}
	svz_run_all(h);
	return h;
}

const char *svz_t_last_event(int h)
{
	return svz_events_text(h, svz_seq(h) - 1, 1);
}

int svz_t_step_until(int h, int cpu, const char *what)
{
	for (int i = 0; i < 50; i++) {
		if (svz_step_cpu(h, cpu) != 1)
			return 0;
		if (strstr(svz_t_last_event(h), what))
			return 1;
	}
	return 0;
}
