/* perf script: ftrace's event lines (fmt_ftrace.c) with a sample period
 * before the event, which perf names with its subsystem ("kmem:kmalloc:");
 * perf script -g adds callchain lines. An import that started as ftrace
 * becomes perf at its first "kmem:" event. */
#include "import/importer.h"

/* " kmem:" in the line: an event column naming the kmem subsystem. */
enum claim perf_detect(const char *s, size_t n)
{
	for (size_t k = 0; k + 5 < n; k++)
		if (memcmp(s + k, " kmem:", 6) == 0)
			return CLAIM_NAMES;
	return CLAIM_NONE;
}
