/* The format table (import_formats.def): names for messages, the manifest
 * and the CLI; detection from a first content line. */
#include "import/importer.h"

#include <stdio.h>

const struct import_format import_formats[SVZ_FMT__COUNT] = {
#define IMPORT_FORMAT(f, name, aliases, label, events, detect, line, end) \
	[f] = { name, aliases, label, events, detect, line, end },
#include "import/import_formats.def"
#undef IMPORT_FORMAT
};

/* every enum value has its row, in order */
enum {
#define IMPORT_FORMAT(f, ...) ROW_##f,
#include "import/import_formats.def"
#undef IMPORT_FORMAT
	NR_ROWS
};
#define IMPORT_FORMAT(f, ...) _Static_assert((int)ROW_##f == (int)f, #f " is out of order");
#include "import/import_formats.def"
#undef IMPORT_FORMAT
_Static_assert((int)NR_ROWS == (int)SVZ_FMT__COUNT, "import_formats.def: one row per enum svz_import_format");

const char *svz_import_format_name(enum svz_import_format f)
{
	return (unsigned)f < SVZ_FMT__COUNT ? import_formats[f].name : "?";
}

const char *svz_import_format_aliases(enum svz_import_format f)
{
	return (unsigned)f < SVZ_FMT__COUNT ? import_formats[f].aliases : "";
}

const char *svz_import_format_label(enum svz_import_format f)
{
	return (unsigned)f < SVZ_FMT__COUNT ? import_formats[f].label : "";
}

const char *svz_import_format_list(void)
{
	static char list[128];

	if (!list[0])
		for (int f = 0; f < SVZ_FMT__COUNT; f++)
			snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", f ? ", " : "",
				 import_formats[f].name);
	return list;
}

/* The name or one of the space-separated aliases. */
int svz_import_format_parse(const char *name, enum svz_import_format *out)
{
	size_t len = name ? strlen(name) : 0;

	for (int f = 0; name && f < SVZ_FMT__COUNT; f++) {
		bool hit = strcmp(name, import_formats[f].name) == 0;

		for (const char *a = import_formats[f].aliases; !hit && *a;) {
			size_t n = strcspn(a, " ");

			hit = len && n == len && memcmp(a, name, n) == 0;
			a += n + (a[n] == ' ');
		}
		if (hit) {
			*out = (enum svz_import_format)f;
			return 0;
		}
	}
	return -1;
}

enum svz_import_format imp_detect_line(const char *s, size_t n, bool by_names)
{
	enum svz_import_format best = SVZ_FMT_FTRACE;
	enum claim most = CLAIM_NONE;

	for (int f = 0; f < SVZ_FMT__COUNT; f++) {
		enum claim c = import_formats[f].detect ? import_formats[f].detect(s, n) : CLAIM_NONE;

		if (c == CLAIM_NAMES && !by_names)
			continue;
		if (c > most) {
			most = c;
			best = (enum svz_import_format)f;
		}
	}
	return best;
}
