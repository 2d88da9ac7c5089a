/* The end of an import: the cut last line, the fatal cases (empty input,
 * nothing recognised, a v1 parse error), the suggested topology, and the
 * trace and report handed to the caller. */
#include "import/importer.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void imp_set_fatal(struct svz_importer *im, const char *fmt, ...)
{
	va_list ap;
	im->rep.fatal = true;
	va_start(ap, fmt);
	vsnprintf(im->rep.fatal_msg, sizeof im->rep.fatal_msg, fmt, ap);
	va_end(ap);
}

static void oom_err(struct svz_error *err)
{
	if (err) {
		memset(err, 0, sizeof *err);
		snprintf(err->msg, sizeof err->msg, "out of memory");
	}
}

static int finish_v1(struct svz_importer *im, struct svz_trace *out, struct svz_error *err)
{
	struct svz_error e;
	if (im->oom) {
		oom_err(err);
		return -1;
	}
	if (svz_trace_parse(im->text.s ? im->text.s : "", im->text.len, &im->base, out, &e)) {
		char buf[640];
		svz_error_format(&e, "trace", buf, sizeof buf);
		imp_set_fatal(im, "%s", buf);
		if (err)
			*err = e;
		return -1;
	}
	im->rep.v1_ops = out->nr_ops;
	im->rep.v1_caches = out->nr_caches;
	im->rep.ops = out->nr_ops;
	im->rep.nr_cpus = out->config.topo.nr_cpus;
	im->rep.nr_nodes = out->config.topo.nr_nodes;
	im->rep.node_mem = out->config.topo.node_mem_bytes[0];
	return 0;
}

int svz_importer_finish(struct svz_importer *im, struct svz_trace *out,
			struct svz_import_report *report, struct svz_error *err)
{
	struct svz_error scratch;
	if (!err)
		err = &scratch;
	memset(err, 0, sizeof *err);
	memset(out, 0, sizeof *out);
	if (!im) {
		oom_err(err);
		if (report)
			memset(report, 0, sizeof *report);
		return -1;
	}
	imp_end_input(im);
	int rc = -1;
	struct svz_import_report *r = &im->rep;
	if (im->fmt == SVZ_FMT_AUTO && im->ftrace_hint)
		im->fmt = SVZ_FMT_FTRACE;
	r->format = im->fmt;
	if (im->oom) {
		oom_err(err);
		goto out;
	}
	if (r->fatal) /* the input could not be read at all (UTF-16) */
		goto fatal;
	if (im->fmt == SVZ_FMT_V1) {
		rc = finish_v1(im, out, err);
		goto out;
	}
	if (r->bytes == 0) {
		imp_set_fatal(im, "empty input: nothing to import");
		goto fatal;
	}
	if (im->fmt == SVZ_FMT_AUTO) {
		if (r->bad_lines)
			imp_set_fatal(im, "no trace lines recognised: %" PRIu64 " lines could not be read "
				      "(line %" PRIu64 ": %s)", r->bad_lines,
				      r->nr_errors ? r->errors[0].line : 0, r->nr_errors ? r->errors[0].msg : "");
		else
			imp_set_fatal(im, "no trace lines: only blank lines and comments");
		goto fatal;
	}
	if (r->events == 0 && r->bad_lines > 0 && r->other_events == 0) {
		imp_set_fatal(im, "no kmem events recognised as %s: %" PRIu64 " lines could not be read "
			      "(line %" PRIu64 ": %s)", svz_import_format_name(im->fmt), r->bad_lines,
			      r->nr_errors ? r->errors[0].line : 0, r->nr_errors ? r->errors[0].msg : "");
		goto fatal;
	}
	if (import_formats[im->fmt].end) {
		import_formats[im->fmt].end(im);
		if (r->fatal)
			goto fatal;
	}

	imp_name_from_frees(im);
	r->unpaired = im->live + r->rebound;

	/* suggested topology */
	struct svz_config cfg = im->base;
	struct svz_topology *t = &cfg.topo;
	int cpus = im->max_cpu + 1;
	if (r->header_cpus > cpus)
		cpus = r->header_cpus;
	if (cpus < 1)
		cpus = 1;
	if (cpus > SVZ_MAX_CPUS)
		cpus = SVZ_MAX_CPUS;
	int nodes = r->max_node + 1;
	if (nodes < 1)
		nodes = 1;
	uint64_t mem = 1ull << 30;
	while (mem < (1ull << 40) && r->peak_live_bytes * 2 / (uint64_t)nodes > mem)
		mem *= 2;
	uint32_t page = t->page_size ? t->page_size : 4096;
	memset(t, 0, sizeof *t);
	t->page_size = page;
	t->nr_nodes = nodes;
	for (int n = 0; n < nodes; n++)
		t->node_mem_bytes[n] = mem;
	t->nr_cpus = cpus;
	for (int c = 0; c < cpus; c++)
		t->cpu_node[c] = (int)((int64_t)c * nodes / cpus);
	t->possible = t->present = t->online = cpus;
	t->boot_online = 1;
	r->nr_cpus = cpus;
	r->nr_nodes = nodes;
	r->node_mem = mem;

	/* the report's cache list */
	if (im->nr_caches) {
		r->caches = calloc(im->nr_caches, sizeof *r->caches);
		if (!r->caches) {
			oom_err(err);
			goto out;
		}
		for (uint32_t c = 0; c < im->nr_caches; c++)
			r->caches[c] = im->cx[c].info;
		r->nr_caches = im->nr_caches;
	}
	struct sbuf desc = { 0 };
	sb_printf(&desc, "Imported from %s by slubviz: %" PRIu64 " events read, %" PRIu64 " kept, %"
		  PRIu64 " skipped; %" PRIu64 " allocations never freed.",
		  svz_import_format_name(im->fmt), r->events, r->kept, r->events - r->kept, r->unpaired);
	if (desc.oom) {
		oom_err(err);
		goto out;
	}
	out->description = desc.s;
	out->config = cfg;
	if (im->nr_ops) {
		struct svz_op *ops = realloc(im->ops, im->nr_ops * sizeof *ops);
		if (ops)
			im->ops = ops;
	}
	out->ops = im->ops;
	out->nr_ops = im->nr_ops;
	im->ops = NULL;
	im->nr_ops = 0;
	out->caches = im->caches;
	out->nr_caches = im->nr_caches;
	im->caches = NULL;
	im->nr_caches = 0;
	out->handle_names = im->handles;
	out->nr_handles = im->nr_handles;
	im->handles = NULL;
	im->nr_handles = 0;
	out->sites = im->sites.names;
	out->nr_sites = im->sites.n;
	strtab_free(&im->sites, false);
	rc = 0;
	goto out;
fatal:
	if (err)
		snprintf(err->msg, sizeof err->msg, "%.511s", r->fatal_msg);
out:
	if (report) {
		*report = *r;
		im->rep.errors = NULL;
		im->rep.caches = NULL;
	}
	if (rc) {
		if (!r->fatal && report) {
			report->fatal = true;
			snprintf(report->fatal_msg, sizeof report->fatal_msg, "%s", err->msg);
		}
		svz_trace_free(out);
	}
	return rc;
}

void svz_import_report_free(struct svz_import_report *r)
{
	if (!r)
		return;
	free(r->errors);
	free(r->caches);
	r->errors = NULL;
	r->caches = NULL;
	r->nr_errors = r->nr_caches = 0;
}

int svz_import(const char *text, size_t len, enum svz_import_format fmt,
	       const struct svz_config *base, const struct svz_import_limits *lim,
	       struct svz_trace *out, struct svz_import_report *report, struct svz_error *err)
{
	struct svz_importer *im = svz_importer_new(fmt, base, lim);
	if (!im) {
		oom_err(err);
		memset(out, 0, sizeof *out);
		if (report)
			memset(report, 0, sizeof *report);
		return -1;
	}
	svz_importer_feed(im, text ? text : "", text ? len : 0);
	int rc = svz_importer_finish(im, out, report, err);
	svz_importer_free(im);
	return rc;
}

