/* trace-cmd report: ftrace's event lines (fmt_ftrace.c) after a header of
 * its own ("version = 6", "cpus=4"); libtraceevent's kmem plugin puts the
 * resolved call site before the fields (fmt_ftrace.c reads it). */
#include "import/importer.h"

enum claim trace_cmd_detect(const char *line, size_t len)
{
	struct slice t = trimmed(line, len);

	if ((t.len > 5 && memcmp(t.s, "cpus=", 5) == 0) || (t.len > 9 && memcmp(t.s, "version =", 9) == 0))
		return CLAIM_SURE;
	return CLAIM_NONE;
}
