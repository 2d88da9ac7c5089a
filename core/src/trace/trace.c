/* Trace format v1 parser (docs/trace-format.md): the line loop and the
 * public API. parser.h says which file does what. */
#include "trace/parser.h"

#include <stdio.h>
#include <stdlib.h>

#include "lib/util.h"

static int parse_lines(struct parser *P)
{
	int r;

	while ((r = next_line(P)) > 0) {
		const struct tok *tk = P->toks;
		uint32_t n = P->ntoks;
		const struct directive *d;

		if (n == 0)
			continue;
		if (!P->header_seen) {
			if (dir_header(P, tk, n))
				return -1;
			continue;
		}
		d = find_directive(&tk[0]);
		if (d) {
			if (run_directive(P, d, tk, n))
				return -1;
		} else if (tok_is(&tk[0], "repeat") || looks_like_op(tk, n)) {
			if (topology_finalize(P, P->line, tk[0].col) ||
			    run_statement(P, tok_is(&tk[0], "repeat")))
				return -1;
		} else if (tok_is(&tk[0], "}")) {
			return fail_tok(P, P->line, &tk[0],
					"expected a directive or an op, got '}' (no repeat is open)");
		} else {
			char dirs[128];

			join_names(dirs, sizeof dirs, svz_trace_directive_name, ", ", ", ");
			return fail_tok(P, P->line, &tk[0],
					"expected a directive (%s), an op like 'c0 alloc CACHE HANDLE' "
					"or repeat, got '%s'", dirs, qtok(P, &tk[0]));
		}
	}
	if (r < 0)
		return -1;
	if (!P->header_seen) {
		uint32_t line, col;

		eof_pos(P, &line, &col);
		return fail(P, line, col, "expected the header 'slubviz-trace 1', got end of file");
	}
	if (!P->finalized) {
		uint32_t line, col;

		eof_pos(P, &line, &col);
		return topology_finalize(P, line, col);
	}
	return 0;
}

/* ---- public API ---------------------------------------------------------- */

void svz_trace_free(struct svz_trace *t)
{
	if (!t)
		return;
	free(t->caches);
	free(t->ops);
	free(t->steps);
	/* the parser's names are pooled, the importers' each malloc'd */
	if (t->handle_names && !t->name_pool)
		for (uint32_t i = 0; i < t->nr_handles; i++)
			free(t->handle_names[i]);
	free(t->handle_names);
	free(t->handle_lists);
	if (t->sites && !t->name_pool)
		for (uint32_t i = 0; i < t->nr_sites; i++)
			free(t->sites[i]);
	free(t->sites);
	strpool_free(t->name_pool);
	free(t->description);
	memset(t, 0, sizeof *t);
}

/* The names the parser collected become the trace's (svz_trace_free()
 * releases them with it). */
static void hand_tables(struct parser *P, struct svz_trace *out)
{
	out->handle_names = P->handles.names;
	out->nr_handles = P->handles.n;
	out->sites = P->sites.names;
	out->nr_sites = P->sites.n;
	out->name_pool = P->pool.blocks;
	strtab_free(&P->handles, false);
	strtab_free(&P->sites, false);
}

int svz_trace_parse(const char *text, size_t len, const struct svz_config *base,
		    struct svz_trace *out, struct svz_error *err)
{
	struct svz_error scratch_err;
	struct parser *P;
	int rc = -1;

	if (!err)
		err = &scratch_err;
	memset(err, 0, sizeof *err);
	if (!out) {
		snprintf(err->msg, sizeof err->msg, "no trace to parse into");
		return -1;
	}
	memset(out, 0, sizeof *out);
	P = calloc(1, sizeof *P);
	if (!P) {
		snprintf(err->msg, sizeof err->msg, "out of memory");
		return -1;
	}
	P->text = text ? text : "";
	P->len = text ? len : 0;
	P->t = out;
	P->err = err;
	P->handles.pool = P->sites.pool = &P->pool;
	if (base)
		out->config = *base;
	else
		svz_config_default(&out->config);

	out->description = read_description(P->text, P->len);
	if (!out->description || strtab_intern(&P->sites, "", 0, NULL) == NONE) {
		oom(P, 0);
		goto done;
	}
	if (parse_lines(P) || schedule_finalize(P))
		goto done;
	/* Doubling left up to half the arrays unused; give it back if we can. */
	if (out->nr_ops) {
		struct svz_op *ops = realloc(out->ops, out->nr_ops * sizeof *ops);
		if (ops)
			out->ops = ops;
	}
	if (out->nr_handle_lists) {
		uint32_t *lists = realloc(out->handle_lists, out->nr_handle_lists * sizeof *lists);
		if (lists)
			out->handle_lists = lists;
	}
	hand_tables(P, out);
	rc = 0;
done:
	if (rc) {
		/* one free path releases everything */
		hand_tables(P, out);
		svz_trace_free(out);
	}
	strtab_free(&P->caches, true);
	prog_free(&P->prog);
	free(P->toks);
	free(P->xbuf);
	free(P->xtoks);
	free(P->xoffs);
	free(P->namebuf);
	free(P);
	return rc;
}

void svz_error_format(const struct svz_error *e, const char *filename, char *buf, size_t len)
{
	const char *f = filename && filename[0] ? filename : "<trace>";

	if (!buf || !len)
		return;
	if (e->line && e->col)
		snprintf(buf, len, "%s:%u:%u: error: %s", f, e->line, e->col, e->msg);
	else if (e->line)
		snprintf(buf, len, "%s:%u: error: %s", f, e->line, e->msg);
	else
		snprintf(buf, len, "%s: error: %s", f, e->msg);
}
