/* slubviz run --sysfs-tree DIR: write svz_sysfs_tree() as a directory shaped
 * like /sys/kernel/slab, one folder per cache and one file per attribute
 * holding what the kernel's show() prints (its "\n" included; a file whose
 * show() prints nothing is empty); a mergeable cache's folder is its unique
 * id (":0000064") and each of its names a symlink to it, as sysfs_slab_add()
 * and sysfs_slab_alias() make them. The kernel's tools/mm/slabinfo and the
 * like then read DIR bind-mounted on /sys/kernel/slab. */
#define _POSIX_C_SOURCE 200809L /* symlink() */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* DIR must be new or empty: a stale file from another run would read as
 * an attribute of this one. */
static int prepare_dir(const char *dir, char *err, size_t errlen)
{
	if (mkdir(dir, 0755) == 0)
		return 0;
	if (errno != EEXIST) {
		snprintf(err, errlen, "cannot create '%s': %s", dir, strerror(errno));
		return -1;
	}
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(err, errlen, "cannot open '%s': %s", dir, strerror(errno));
		return -1;
	}
	bool empty = true;
	for (struct dirent *e; (e = readdir(d));)
		empty &= strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
	closedir(d);
	if (!empty) {
		snprintf(err, errlen, "'%s' is not empty (give a new or empty directory)", dir);
		return -1;
	}
	return 0;
}

static int write_file(const char *path, const char *value, size_t len, char *err, size_t errlen)
{
	FILE *f = fopen(path, "w");
	if (!f || fwrite(value, 1, len, f) != len || (len && fputc('\n', f) == EOF) || fclose(f)) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	return 0;
}

int cli_write_sysfs_tree(const char *dir, const char *tree, char *err, size_t errlen)
{
	char path[4096], cache[128] = "";
	if (prepare_dir(dir, err, errlen))
		return -1;
	for (const char *line = tree; *line;) {
		size_t len = strcspn(line, "\n");
		if (strncmp(line, "cache ", 6) == 0) {
			snprintf(cache, sizeof cache, "%.*s", (int)(len - 6), line + 6);
			/* cache names are [A-Za-z0-9_.:-]{1,63}: only these two are paths */
			if (strcmp(cache, ".") == 0 || strcmp(cache, "..") == 0) {
				snprintf(err, errlen, "cache '%s' cannot be a directory name", cache);
				return -1;
			}
			snprintf(path, sizeof path, "%s/%s", dir, cache);
			if (mkdir(path, 0755)) {
				snprintf(err, errlen, "cannot create '%s': %s", path, strerror(errno));
				return -1;
			}
		} else if (strncmp(line, "link ", 5) == 0) {
			/* a merged cache's name: a symlink to its unique-id directory */
			char link[128];
			snprintf(link, sizeof link, "%.*s", (int)(len - 5), line + 5);
			if (!cache[0] || strcmp(link, ".") == 0 || strcmp(link, "..") == 0) {
				snprintf(err, errlen, "malformed sysfs tree line '%.*s'", (int)len, line);
				return -1;
			}
			snprintf(path, sizeof path, "%s/%s", dir, link);
			if (symlink(cache, path)) {
				snprintf(err, errlen, "cannot link '%s': %s", path, strerror(errno));
				return -1;
			}
		} else {
			size_t name = strcspn(line, "\t");
			if (!cache[0] || name >= len) {
				snprintf(err, errlen, "malformed sysfs tree line '%.*s'", (int)len, line);
				return -1;
			}
			snprintf(path, sizeof path, "%s/%s/%.*s", dir, cache, (int)name, line);
			if (write_file(path, line + name + 1, len - name - 1, err, errlen))
				return -1;
		}
		line += len + (line[len] == '\n');
	}
	return 0;
}
