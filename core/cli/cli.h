/* What the CLI's command files share (main.c, cmd_*.c). */
#ifndef SVZ_CLI_H
#define SVZ_CLI_H

#include <stdbool.h>
#include <stdint.h>

/* "slubviz CMD: MSG" on stderr; returns the exit status 2. */
int cli_fail(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "--name VALUE" or "--name=VALUE": the value, advancing *i; NULL if absent. */
const char *cli_opt_value(int argc, char **argv, int *i, const char *name, bool *matched);
/* An option's whole-number value in lo..hi: 0 and *out, or the exit status
 * with "OPT needs a count of LO..HI, got 'V'" printed (V NULL: none given). */
int cli_count(const char *cmd, const char *opt, const char *v, long long lo, long long hi, long long *out);
int64_t cli_now_ns(void);
/* Whole file (or stdin for "-"), NUL-terminated. NULL with errno set. */
char *read_file(const char *path);
/* How messages name the input file `path`: "<stdin>" for "-". The library
 * has no file name and says "trace:LINE..."; the CLI puts this in its place,
 * as a compiler names its input (main.c). */
const char *cli_input_name(const char *path);
/* A stopped run of the trace read from `path` on stderr (main.c). */
void print_stop(int h, const char *path);
/* Open a session on a trace file of any format (cmd_import.c): 0 and *h,
 * or the exit status with the error printed. */
int load_any_trace(const char *cmd, const char *path, const char *format, const char *preset,
		   const char *sets, bool quiet, int *h);

int svz_cmd_sizes(int argc, char **argv);
int svz_cmd_diff(int argc, char **argv);
int svz_cmd_import(int argc, char **argv);
int svz_cmd_hunt(int argc, char **argv);      /* cmd_hunt.c */
int svz_cmd_costs(int argc, char **argv);     /* cmd_hunt.c */
/* --sysfs-tree DIR (sysfs_tree.c): write svz_sysfs_tree() text as a directory.
 * 0, or -1 with a message in err. */
int cli_write_sysfs_tree(const char *dir, const char *tree, char *err, size_t errlen);

#endif
