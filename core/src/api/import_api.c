/* The C API's import entry points (slubviz.h): svz_open_any() and the
 * streaming svz_import_begin/feed/lines/end/cancel. Sessions come from
 * svz_session_adopt() (session.c), which also keeps the import summaries
 * for svz_import_summary() and friends. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/session.h"
#include "slubviz/import.h"
#include "slubviz/slubviz.h"

static struct svz_importer **imports;
static int nr_imports;

/* Finish an import and open its session; frees im. */
static int finish_open(struct svz_importer *im, const char *preset, const char *sets)
{
	struct svz_trace t;
	struct svz_import_report rep;
	struct svz_error err;
	int rc = svz_importer_finish(im, &t, &rep, &err);
	svz_importer_free(im);
	if (rc) {
		char msg[700];
		if (rep.format == SVZ_FMT_V1 && rep.fatal)
			snprintf(msg, sizeof msg, "%s", rep.fatal_msg); /* as svz_open() */
		else
			snprintf(msg, sizeof msg, "import (%s): %s", svz_import_format_name(rep.format),
				 rep.fatal ? rep.fatal_msg : err.msg);
		svz_session_set_error(msg);
		svz_import_report_free(&rep);
		return -1;
	}
	char *text = svz_import_report_text(&rep);
	char *json = svz_import_report_json(&rep);
	svz_import_report_free(&rep);
	return svz_session_adopt(&t, preset, sets, text, json);
}

int svz_open_any(const char *text, const char *preset, const char *sets)
{
	struct svz_importer *im = svz_importer_new(SVZ_FMT_AUTO, NULL, NULL);
	if (!im) {
		svz_session_set_error("out of memory");
		return -1;
	}
	if (text)
		svz_importer_feed(im, text, strlen(text));
	return finish_open(im, preset, sets);
}

static struct svz_importer *get_import(int id)
{
	return id >= 1 && id <= nr_imports ? imports[id - 1] : NULL;
}

int svz_import_begin(const char *format)
{
	enum svz_import_format f = SVZ_FMT_AUTO;
	if (format && format[0] && svz_import_format_parse(format, &f)) {
		char msg[200];
		snprintf(msg, sizeof msg, "unknown trace format '%.64s' (%s)", format,
			 svz_import_format_list());
		svz_session_set_error(msg);
		return -1;
	}
	struct svz_importer *im = svz_importer_new(f, NULL, NULL);
	if (!im) {
		svz_session_set_error("out of memory");
		return -1;
	}
	int slot = -1;
	for (int i = 0; i < nr_imports; i++)
		if (!imports[i]) {
			slot = i;
			break;
		}
	if (slot < 0) {
		struct svz_importer **t = realloc(imports, sizeof *t * (size_t)(nr_imports + 1));
		if (!t) {
			svz_importer_free(im);
			svz_session_set_error("out of memory");
			return -1;
		}
		imports = t;
		slot = nr_imports++;
	}
	imports[slot] = im;
	return slot + 1;
}

int svz_import_feed(int imp, const char *data, int len)
{
	struct svz_importer *im = get_import(imp);
	if (!im || len < 0 || (len > 0 && !data))
		return -1;
	svz_importer_feed(im, data, (size_t)len);
	return 0;
}

int svz_import_lines(int imp)
{
	struct svz_importer *im = get_import(imp);
	if (!im)
		return -1;
	uint64_t n = svz_importer_lines(im);
	return n > 0x7fffffff ? 0x7fffffff : (int)n;
}

int svz_import_end(int imp, const char *preset, const char *sets)
{
	struct svz_importer *im = get_import(imp);
	if (!im) {
		svz_session_set_error("no such import");
		return -1;
	}
	imports[imp - 1] = NULL;
	return finish_open(im, preset, sets);
}

void svz_import_cancel(int imp)
{
	struct svz_importer *im = get_import(imp);
	if (!im)
		return;
	imports[imp - 1] = NULL;
	svz_importer_free(im);
}
