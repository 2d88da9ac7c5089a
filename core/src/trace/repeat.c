/* v1 statements: an op line or a repeat block is compiled once (tokens into
 * templates, a body into a sibling chain), counted against the trace's
 * limits before anything is built, then expanded into svz_ops. */
#include "trace/parser.h"

#include <stdlib.h>

#include "lib/util.h"

/* ---- statements: compile, then expand ----------------------------------- */

static int new_stmt(struct parser *P, uint8_t kind, uint32_t *id)
{
	struct prog *pg = &P->prog;

	if (!GROW(pg->stmts, pg->cstmts, pg->nstmts + 1))
		return oom(P, P->line);
	*id = pg->nstmts++;
	memset(&pg->stmts[*id], 0, sizeof pg->stmts[*id]);
	pg->stmts[*id].kind = kind;
	pg->stmts[*id].line = P->line;
	pg->stmts[*id].next = NONE;
	pg->stmts[*id].body = NONE;
	return 0;
}

static int compile_op(struct parser *P, const struct scope *scope, bool validate, uint32_t *id)
{
	struct prog *pg = &P->prog;
	struct stmt *s;
	bool templated = false;

	if (new_stmt(P, ST_OP, id))
		return -1;
	if (!GROW(pg->toks, pg->ctoks, pg->ntoks + P->ntoks))
		return oom(P, P->line);
	pg->stmts[*id].tok0 = pg->ntoks;
	pg->stmts[*id].ntoks = P->ntoks;
	for (uint32_t i = 0; i < P->ntoks; i++) {
		struct ttok *tt = &pg->toks[pg->ntoks++];

		if (compile_token(P, &P->toks[i], scope, P->line, tt))
			return -1;
		templated |= tt->nparts > 0;
	}
	s = &pg->stmts[*id];
	s->templated = templated;
	s->total.ops = 1;
	/* A bulk op's handles count too: known unless its name or count is computed. */
	if (s->ntoks >= 2 && pg->toks[s->tok0 + 1].nparts) {
		s->dyn = true;
	} else if (s->ntoks >= 4) {
		const struct ttok *count = &pg->toks[s->tok0 + 3];
		uint64_t x;

		if (is_bulk_op(&pg->toks[s->tok0 + 1].t)) {
			if (count->nparts)
				s->dyn = true;
			else if (parse_uint(count->t.s, count->t.len, MAX_BULK, &x))
				s->total.bulk = x;
		}
	}
	if (!templated && validate) {
		struct svz_op scratch;

		if (parse_op(P, P->toks, P->ntoks, P->line, true, &scratch))
			return -1;
	}
	return 0;
}

static uint64_t sat_add(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }
static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/* acc += count runs of a body (each run is one iteration) */
static void tally_times(struct tally *acc, uint64_t count, const struct tally *body)
{
	acc->ops = sat_add(acc->ops, sat_mul(count, body->ops));
	acc->bulk = sat_add(acc->bulk, sat_mul(count, body->bulk));
	acc->iters = sat_add(acc->iters, sat_add(count, sat_mul(count, body->iters)));
}

static int compile_repeat(struct parser *P, struct scope *scope, uint32_t *id);

/* Reads body lines up to the matching '}' into a sibling chain. */
static int compile_body(struct parser *P, struct scope *scope, uint32_t repeat_id)
{
	uint32_t last = NONE;
	int r;

	while ((r = next_line(P)) > 0) {
		const struct tok *tk = P->toks;
		uint32_t id;

		if (P->ntoks == 0)
			continue;
		if (tok_is(&tk[0], "}")) {
			if (P->ntoks > 1)
				return fail_tok(P, P->line, &tk[1], "expected end of line after '}', got '%s'",
						qtok(P, &tk[1]));
			return 0;
		}
		if (tok_is(&tk[0], "repeat")) {
			if (compile_repeat(P, scope, &id))
				return -1;
		} else if (looks_like_op(tk, P->ntoks)) {
			if (compile_op(P, scope, true, &id))
				return -1;
		} else {
			return fail_tok(P, P->line, &tk[0],
					"expected an op, a nested repeat or '}' inside a repeat, got '%s'",
					qtok(P, &tk[0]));
		}
		{
			struct stmt *rep = &P->prog.stmts[repeat_id];
			const struct stmt *s = &P->prog.stmts[id];

			if (last == NONE)
				rep->body = id;
			else
				P->prog.stmts[last].next = id;
			last = id;
			rep->body_dyn |= s->dyn;
			rep->body_total.ops = sat_add(rep->body_total.ops, s->total.ops);
			rep->body_total.bulk = sat_add(rep->body_total.bulk, s->total.bulk);
			rep->body_total.iters = sat_add(rep->body_total.iters, s->total.iters);
		}
	}
	if (r < 0)
		return -1;
	{
		const struct stmt *rep = &P->prog.stmts[repeat_id];
		return fail_tok(P, rep->line, &rep->brace,
				"expected '}' closing this repeat, got end of file");
	}
}

/* "repeat COUNT [VAR] {" at the current line, then its body. */
static int compile_repeat(struct parser *P, struct scope *scope, uint32_t *id)
{
	const struct tok *tk = P->toks;
	uint32_t n = P->ntoks, brace;
	struct stmt *s;
	struct tok var = { "i", 1, 0 };
	uint64_t count = 0;
	bool literal;

	if (scope->depth >= MAX_REPEAT_DEPTH)
		return fail_tok(P, P->line, &tk[0], "expected at most %d nested repeats, got a %dth",
				MAX_REPEAT_DEPTH, MAX_REPEAT_DEPTH + 1);
	if (n < 2 || tok_is(&tk[1], "{"))
		return n < 2 ? fail(P, P->line, end_col(tk, n), "expected a repeat count, got end of line")
			     : fail_tok(P, P->line, &tk[1], "expected a repeat count, got '{'");
	brace = n >= 3 && is_ident_start(tk[2].s[0]) ? 3 : 2;
	if (brace == 3) {
		for (uint32_t i = 0; i < tk[2].len; i++)
			if (!is_ident(tk[2].s[i]))
				return fail_tok(P, P->line, &tk[2], "expected a variable name, got '%s'",
						qtok(P, &tk[2]));
		var = tk[2];
	}
	if (brace >= n)
		return fail(P, P->line, end_col(tk, n), "expected '{' at the end of the repeat line, got end of line");
	if (!tok_is(&tk[brace], "{"))
		return fail_tok(P, P->line, &tk[brace], "expected %s'{', got '%s'",
				brace == 2 ? "a variable name or " : "", qtok(P, &tk[brace]));
	if (brace + 1 < n)
		return fail_tok(P, P->line, &tk[brace + 1], "expected end of line after '{', got '%s'",
				qtok(P, &tk[brace + 1]));
	if (new_stmt(P, ST_REPEAT, id))
		return -1;
	s = &P->prog.stmts[*id];
	s->kw = tk[0];
	s->brace = tk[brace];
	if (compile_token(P, &tk[1], scope, P->line, &P->prog.stmts[*id].count))
		return -1;
	s = &P->prog.stmts[*id];
	literal = s->count.nparts == 0;
	if (literal && !parse_uint(tk[1].s, tk[1].len, MAX_REPEAT_COUNT, &count))
		return fail_tok(P, P->line, &tk[1], "expected a repeat count of 0..%u, got '%s'",
				MAX_REPEAT_COUNT, qtok(P, &tk[1]));
	/* The variable's token points into the text, which outlives the scope. */
	scope->vars[scope->depth++] = var;
	if (compile_body(P, scope, *id)) {
		scope->depth--;
		return -1;
	}
	scope->depth--;
	s = &P->prog.stmts[*id];
	s->dyn = !literal || s->body_dyn;
	if (!s->dyn)
		tally_times(&s->total, count, &s->body_total);
	return 0;
}

static int expand(struct parser *P, uint32_t first, int64_t *env, int depth);

static int expand_op(struct parser *P, struct stmt *s, const int64_t *env)
{
	struct prog *pg = &P->prog;
	const struct ttok *tt = &pg->toks[s->tok0];
	struct svz_op op;

	if (s->have_proto)
		return push_op(P, &s->proto, &tt[0].t);
	if (!s->templated) {
		if (!GROW(P->xtoks, P->cxtoks, s->ntoks))
			return oom(P, s->line);
		for (uint32_t i = 0; i < s->ntoks; i++)
			P->xtoks[i] = tt[i].t;
		if (parse_op(P, P->xtoks, s->ntoks, s->line, false, &op))
			return -1;
		/* Same text every time: later iterations reuse the parsed op. */
		s->proto = op;
		s->have_proto = true;
		return push_op(P, &op, &tt[0].t);
	}
	if (!GROW(P->xtoks, P->cxtoks, s->ntoks) || !GROW(P->xoffs, P->cxoffs, s->ntoks))
		return oom(P, s->line);
	P->xlen = 0;
	for (uint32_t i = 0; i < s->ntoks; i++) {
		size_t off;
		uint32_t len;

		if (tt[i].nparts == 0) {
			P->xtoks[i] = tt[i].t;
			continue;
		}
		if (expand_token(P, &tt[i], env, s->line, &off, &len))
			return -1;
		/* Pointers only once all are expanded: xbuf may move meanwhile. */
		P->xoffs[i] = off;
		P->xtoks[i] = (struct tok){ NULL, len, tt[i].t.col };
	}
	for (uint32_t i = 0; i < s->ntoks; i++)
		if (tt[i].nparts)
			P->xtoks[i].s = P->xbuf + P->xoffs[i];
	if (parse_op(P, P->xtoks, s->ntoks, s->line, false, &op))
		return -1;
	return push_op(P, &op, &tt[0].t);
}

static int expand_repeat(struct parser *P, uint32_t id, int64_t *env, int depth)
{
	struct stmt *s = &P->prog.stmts[id];
	uint64_t count = 0;

	if (s->count.nparts == 0) {
		parse_uint(s->count.t.s, s->count.t.len, MAX_REPEAT_COUNT, &count);
	} else {
		size_t off;
		uint32_t len;

		P->xlen = 0;
		if (expand_token(P, &s->count, env, s->line, &off, &len))
			return -1;
		if (!parse_uint(P->xbuf + off, len, MAX_REPEAT_COUNT, &count))
			return fail_tok(P, s->line, &s->count.t,
					"expected a repeat count of 0..%u, got '%s'", MAX_REPEAT_COUNT,
					quote(P, P->xbuf + off, len));
	}
	for (uint64_t k = 0; k < count; k++) {
		if (++P->iterations > SVZ_TRACE_MAX_ITERATIONS)
			return fail_tok(P, s->line, &s->kw,
					"trace expands to more than %u repeat iterations (the limit)",
					SVZ_TRACE_MAX_ITERATIONS);
		env[depth] = (int64_t)k;
		if (expand(P, P->prog.stmts[id].body, env, depth + 1))
			return -1;
	}
	return 0;
}

static int expand(struct parser *P, uint32_t first, int64_t *env, int depth)
{
	for (uint32_t id = first; id != NONE; id = P->prog.stmts[id].next) {
		struct stmt *s = &P->prog.stmts[id];

		if (s->kind == ST_OP ? expand_op(P, s, env) : expand_repeat(P, id, env, depth))
			return -1;
	}
	return 0;
}

static void prog_reset(struct prog *pg)
{
	pg->nstmts = pg->ntoks = pg->nparts = pg->nnodes = 0;
}

void prog_free(struct prog *pg)
{
	free(pg->stmts);
	free(pg->toks);
	free(pg->parts);
	free(pg->nodes);
	memset(pg, 0, sizeof *pg);
}

/* ---- counting ahead: the limits before expansion ------------------------ */

enum { T_COUNTED, T_UNKNOWN, T_OPS, T_BULK, T_ITERS };

static int over_limits(const struct parser *P, const struct tally *acc)
{
	if (sat_add(P->t->nr_ops, acc->ops) > SVZ_TRACE_MAX_OPS)
		return T_OPS;
	if (sat_add(P->t->nr_handle_lists, acc->bulk) > SVZ_TRACE_MAX_OPS)
		return T_BULK;
	if (sat_add(P->iterations, acc->iters) > SVZ_TRACE_MAX_ITERATIONS)
		return T_ITERS;
	return T_COUNTED;
}

/* A computed token's text (a repeat count, an op name, a bulk count); false
 * if it does not evaluate (quietly: expansion reports it). */
static bool eval_token(struct parser *P, const struct ttok *tt, const int64_t *env, struct tok *out)
{
	size_t off;
	uint32_t len;

	if (!tt->nparts) {
		*out = tt->t;
		return true;
	}
	P->xlen = 0;
	if (expand_token(P, tt, env, 0, &off, &len))
		return false;
	*out = (struct tok){ P->xbuf + off, len, tt->t.col };
	return true;
}

/* Adds what the chain from `first` expands to into *acc, evaluating only
 * computed counts, and stops as soon as a limit is exceeded: T_COUNTED,
 * T_UNKNOWN when an expression fails (expansion stops there with its error,
 * within what was counted), or the limit exceeded. Runs with P->quiet. */
static int tally_chain(struct parser *P, uint32_t first, int64_t *env, int depth, struct tally *acc)
{
	for (uint32_t id = first; id != NONE; id = P->prog.stmts[id].next) {
		const struct stmt *s = &P->prog.stmts[id];
		struct tok t;
		uint64_t count;
		int r;

		if (!s->dyn) {
			acc->ops = sat_add(acc->ops, s->total.ops);
			acc->bulk = sat_add(acc->bulk, s->total.bulk);
			acc->iters = sat_add(acc->iters, s->total.iters);
		} else if (s->kind == ST_OP) {
			/* only ops own tokens (toks stays NULL in a trace of repeats
			 * without ops) */
			const struct ttok *tt = &P->prog.toks[s->tok0];

			acc->ops = sat_add(acc->ops, 1);
			if (!eval_token(P, &tt[1], env, &t))
				return T_UNKNOWN;
			if (is_bulk_op(&t) && s->ntoks >= 4) {
				if (!eval_token(P, &tt[3], env, &t) ||
				    !parse_uint(t.s, t.len, MAX_BULK, &count))
					return T_UNKNOWN;
				acc->bulk = sat_add(acc->bulk, count);
			}
		} else {
			if (!eval_token(P, &s->count, env, &t) ||
			    !parse_uint(t.s, t.len, MAX_REPEAT_COUNT, &count))
				return T_UNKNOWN;
			if (!s->body_dyn) {
				tally_times(acc, count, &s->body_total);
			} else {
				for (uint64_t k = 0; k < count; k++) {
					acc->iters = sat_add(acc->iters, 1);
					if ((r = over_limits(P, acc)) != T_COUNTED)
						return r;
					env[depth] = (int64_t)k;
					if ((r = tally_chain(P, P->prog.stmts[id].body, env, depth + 1, acc)) !=
					    T_COUNTED)
						return r;
				}
			}
		}
		if ((r = over_limits(P, acc)) != T_COUNTED)
			return r;
	}
	return T_COUNTED;
}

/* For a repeat, count what it expands to and check the limits before
 * building anything, then reserve exactly that. */
int run_statement(struct parser *P, bool is_repeat)
{
	struct scope scope = { .depth = 0 };
	int64_t env[MAX_REPEAT_DEPTH] = { 0 };
	struct tally acc = { 0, 0, 0 };
	uint32_t id;
	const struct stmt *s;
	int r;

	prog_reset(&P->prog);
	if (is_repeat ? compile_repeat(P, &scope, &id) : compile_op(P, &scope, false, &id))
		return -1;
	if (!is_repeat)
		return expand(P, id, env, 0);
	P->quiet = true;
	r = tally_chain(P, id, env, 0, &acc);
	P->quiet = false;
	s = &P->prog.stmts[id];
	if (r == T_OPS)
		return fail_tok(P, s->line, &s->kw, "trace expands to more than %u ops (the limit)",
				SVZ_TRACE_MAX_OPS);
	if (r == T_BULK)
		return fail_tok(P, s->line, &s->kw,
				"trace expands to more than %u bulk handles (the limit)", SVZ_TRACE_MAX_OPS);
	if (r == T_ITERS)
		return fail_tok(P, s->line, &s->kw,
				"trace expands to more than %u repeat iterations (the limit)",
				SVZ_TRACE_MAX_ITERATIONS);
	if (r == T_COUNTED &&
	    (!GROW(P->t->ops, P->cap_ops, P->t->nr_ops + (uint32_t)acc.ops) ||
	     !GROW(P->t->handle_lists, P->cap_lists, P->t->nr_handle_lists + (uint32_t)acc.bulk)))
		return oom(P, s->line);
	memset(env, 0, sizeof env);
	return expand(P, id, env, 0);
}
