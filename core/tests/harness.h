/* Minimal test harness: CHECK keeps going and counts, the process exits
 * non-zero if anything failed. Prints "N passed, N failed" at the end. */
#ifndef SVZ_TEST_HARNESS_H
#define SVZ_TEST_HARNESS_H

#include <stdio.h>
#include <string.h>

extern int svz_t_pass, svz_t_fail;

#define CHECK(cond) do { if (cond) svz_t_pass++; else { svz_t_fail++; \
	fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); } } while (0)
#define CHECK_EQ_INT(a, b) do { long long _a = (long long)(a), _b = (long long)(b); \
	if (_a == _b) svz_t_pass++; else { svz_t_fail++; \
	fprintf(stderr, "%s:%d: %s == %lld, expected %s == %lld\n", __FILE__, __LINE__, #a, _a, #b, _b); } } while (0)
#define CHECK_EQ_STR(a, b) do { const char *_a = (a), *_b = (b); \
	if (_a && _b && strcmp(_a, _b) == 0) svz_t_pass++; else { svz_t_fail++; \
	fprintf(stderr, "%s:%d: %s\n   got: %s\n  want: %s\n", __FILE__, __LINE__, #a, _a ? _a : "(null)", _b ? _b : "(null)"); } } while (0)

/* Read a whole file relative to the source tree; NULL on failure. Caller frees. */
char *svz_t_read_file(const char *relpath, size_t *len);
int svz_t_done(void); /* prints the summary, returns the exit status */

/* Model helpers over the public API. */
/* Value of " C<cpu>=" on a sysfs stat line ("./alloc_slowpath:77 C1=3 ..."), 0 if absent, -1 if no such file. */
long long svz_t_stat_cpu(const char *sysfs, const char *attr, int cpu);
/* The value of "./attr:" (its first number), -1 if no such file. */
long long svz_t_stat_total(const char *sysfs, const char *attr);
/* svz_open + svz_run_all; the handle (or -1, after printing the error). */
int svz_t_run(const char *text, const char *preset, const char *sets);
/* Text of the last event. */
const char *svz_t_last_event(int h);
/* Step `cpu` until its last event contains `what` (at most 50 steps);
 * 1 if it did. */
int svz_t_step_until(int h, int cpu, const char *what);

#endif
