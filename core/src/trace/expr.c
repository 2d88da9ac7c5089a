/* Templates in v1 tokens (docs/trace-format.md, "Repeat blocks"): a token
 * is split into literal text, {expr} and $VAR parts; an expression is
 * compiled to a small stack program (enode) and evaluated per iteration. */
#include "trace/parser.h"

#include <stdio.h>
#include <stdlib.h>

#include "lib/util.h"

/* ---- templates and expressions ------------------------------------------- */

struct ecomp {
	struct parser *P;
	const struct scope *scope;
	const char *s;  /* token text */
	uint32_t len, pos, col0, line;
	int depth, sp, max_sp;
};

static int emit(struct ecomp *ec, uint8_t kind, int64_t val, uint32_t col)
{
	struct prog *pg = &ec->P->prog;

	if (!GROW(pg->nodes, pg->cnodes, pg->nnodes + 1))
		return oom(ec->P, ec->line);
	pg->nodes[pg->nnodes++] = (struct enode){ kind, col, val };
	ec->sp += kind <= EN_VAR ? 1 : kind == EN_NEG ? 0 : -1;
	if (ec->sp > ec->max_sp)
		ec->max_sp = ec->sp;
	return 0;
}

static uint32_t ecol(const struct ecomp *ec) { return ec->col0 + ec->pos; }

static int efail_here(struct ecomp *ec, const char *expected)
{
	if (ec->pos >= ec->len)
		return fail(ec->P, ec->line, ecol(ec), "expected %s, got end of token", expected);
	return fail(ec->P, ec->line, ecol(ec), "expected %s, got '%c'", expected, ec->s[ec->pos]);
}

/* $NAME at ec->pos: emits the variable's depth. */
static int e_var(struct ecomp *ec)
{
	uint32_t start = ec->pos, col = ecol(ec);
	size_t n;

	ec->pos++;
	if (ec->pos >= ec->len || !is_ident_start(ec->s[ec->pos]))
		return efail_here(ec, "a variable name after '$'");
	while (ec->pos < ec->len && is_ident(ec->s[ec->pos]))
		ec->pos++;
	n = ec->pos - start - 1;
	for (int d = ec->scope->depth - 1; d >= 0; d--) {
		const struct tok *v = &ec->scope->vars[d];
		if (v->len == n && memcmp(v->s, ec->s + start + 1, n) == 0)
			return emit(ec, EN_VAR, d, col);
	}
	{
		char vars[128] = "";

		for (int d = ec->scope->depth - 1; d >= 0; d--) {
			size_t used = strlen(vars);
			snprintf(vars + used, sizeof vars - used, "%s$%.*s", used ? ", " : "",
				 (int)ec->scope->vars[d].len, ec->scope->vars[d].s);
		}
		return fail(ec->P, ec->line, col, "expected a repeat variable (%s), got '%s'",
			    vars[0] ? vars : "none in scope", quote(ec->P, ec->s + start, n + 1));
	}
}

static int e_sum(struct ecomp *ec);

static int e_unary(struct ecomp *ec)
{
	bool nests = ec->pos < ec->len && (ec->s[ec->pos] == '-' || ec->s[ec->pos] == '(');
	int r;

	/* Only '(' and a sign nest: 32 of them around a number are allowed. */
	if (nests && ++ec->depth > MAX_EXPR_DEPTH)
		return fail(ec->P, ec->line, ecol(ec),
			    "expected at most %d nested parentheses or signs, got more", MAX_EXPR_DEPTH);
	if (ec->pos < ec->len && ec->s[ec->pos] == '-') {
		uint32_t col = ecol(ec);

		ec->pos++;
		r = e_unary(ec) || emit(ec, EN_NEG, 0, col);
	} else if (ec->pos < ec->len && ec->s[ec->pos] == '(') {
		ec->pos++;
		r = e_sum(ec);
		if (!r && (ec->pos >= ec->len || ec->s[ec->pos] != ')'))
			r = efail_here(ec, "an operator or ')'");
		ec->pos++;
	} else if (ec->pos < ec->len && ec->s[ec->pos] == '$') {
		r = e_var(ec);
	} else if (ec->pos < ec->len && is_digit(ec->s[ec->pos])) {
		uint32_t start = ec->pos;
		uint64_t x;

		while (ec->pos < ec->len && is_digit(ec->s[ec->pos]))
			ec->pos++;
		if (!parse_uint(ec->s + start, ec->pos - start, INT64_MAX, &x))
			r = fail(ec->P, ec->line, ec->col0 + start, "expected a number below 2^63, got '%s'",
				 quote(ec->P, ec->s + start, ec->pos - start));
		else
			r = emit(ec, EN_NUM, (int64_t)x, ec->col0 + start);
	} else {
		r = efail_here(ec, "a number, $VAR, '-' or '('");
	}
	if (nests)
		ec->depth--;
	return r ? -1 : 0;
}

static int e_product(struct ecomp *ec)
{
	if (e_unary(ec))
		return -1;
	while (ec->pos < ec->len && strchr("*/%", ec->s[ec->pos])) {
		char c = ec->s[ec->pos];
		uint32_t col = ecol(ec);

		ec->pos++;
		if (e_unary(ec) || emit(ec, c == '*' ? EN_MUL : c == '/' ? EN_DIV : EN_MOD, 0, col))
			return -1;
	}
	return 0;
}

static int e_sum(struct ecomp *ec)
{
	if (e_product(ec))
		return -1;
	while (ec->pos < ec->len && (ec->s[ec->pos] == '+' || ec->s[ec->pos] == '-')) {
		char c = ec->s[ec->pos];
		uint32_t col = ecol(ec);

		ec->pos++;
		if (e_product(ec) || emit(ec, c == '+' ? EN_ADD : EN_SUB, 0, col))
			return -1;
	}
	return 0;
}

static int add_part(struct parser *P, uint32_t line, struct part p)
{
	if (!GROW(P->prog.parts, P->prog.cparts, P->prog.nparts + 1))
		return oom(P, line);
	P->prog.parts[P->prog.nparts++] = p;
	return 0;
}

int compile_token(struct parser *P, const struct tok *t, const struct scope *scope,
			 uint32_t line, struct ttok *out)
{
	struct ecomp ec = { P, scope, t->s, t->len, 0, t->col, line, 0, 0, 0 };
	uint32_t lit = 0;

	out->t = *t;
	out->part0 = P->prog.nparts;
	out->nparts = 0;
	if (!memchr(t->s, '{', t->len) && !memchr(t->s, '}', t->len) && !memchr(t->s, '$', t->len))
		return 0;
	while (ec.pos < ec.len) {
		char c = ec.s[ec.pos];
		struct part p = { true, NULL, 0, P->prog.nnodes, 0 };

		if (c != '{' && c != '$' && c != '}') {
			ec.pos++;
			continue;
		}
		if (c == '}')
			return fail(P, line, ecol(&ec), "expected '{' before '}', got a stray '}'");
		if (ec.pos > lit && add_part(P, line, (struct part){ false, ec.s + lit, ec.pos - lit, 0, 0 }))
			return -1;
		ec.sp = ec.max_sp = 0;
		if (c == '$') {
			if (e_var(&ec))
				return -1;
		} else {
			uint32_t open = ecol(&ec);

			ec.pos++;
			if (e_sum(&ec))
				return -1;
			if (ec.pos >= ec.len)
				return fail(P, line, ecol(&ec),
					    "expected '}' closing the '{' at column %u, got end of token", open);
			if (ec.s[ec.pos] != '}')
				return efail_here(&ec, "an operator (+ - * / %) or '}'");
			ec.pos++;
		}
		if (ec.max_sp > EVAL_STACK)
			return fail(P, line, t->col, "expected a simpler expression, got '%s'", qtok(P, t));
		p.nnodes = P->prog.nnodes - p.node0;
		if (add_part(P, line, p))
			return -1;
		lit = ec.pos;
	}
	if (ec.len > lit && add_part(P, line, (struct part){ false, ec.s + lit, ec.len - lit, 0, 0 }))
		return -1;
	out->nparts = P->prog.nparts - out->part0;
	return 0;
}

static int eval(struct parser *P, const struct part *p, const int64_t *env, uint32_t line,
		int64_t *out)
{
	int64_t st[EVAL_STACK];
	int sp = 0;

	for (uint32_t i = 0; i < p->nnodes; i++) {
		const struct enode *e = &P->prog.nodes[p->node0 + i];
		int64_t a, b, r = 0;
		bool ovf = false;

		switch (e->kind) {
		case EN_NUM: st[sp++] = e->val; continue;
		case EN_VAR: st[sp++] = env[e->val]; continue;
		case EN_NEG:
			if (st[sp - 1] == INT64_MIN)
				goto overflow;
			st[sp - 1] = -st[sp - 1];
			continue;
		}
		b = st[--sp];
		a = st[sp - 1];
		switch (e->kind) {
		case EN_ADD: ovf = __builtin_add_overflow(a, b, &r); break;
		case EN_SUB: ovf = __builtin_sub_overflow(a, b, &r); break;
		case EN_MUL: ovf = __builtin_mul_overflow(a, b, &r); break;
		case EN_DIV:
		case EN_MOD:
			if (b == 0)
				return fail(P, line, e->col, "expected a non-zero divisor, got 0");
			if (a == INT64_MIN && b == -1)
				goto overflow;
			r = e->kind == EN_DIV ? a / b : a % b;
			break;
		}
		if (ovf)
			goto overflow;
		st[sp - 1] = r;
		continue;
overflow:
		return fail(P, line, e->col, "expected a result within 64 bits, got an overflow");
	}
	*out = st[0];
	return 0;
}

int expand_token(struct parser *P, const struct ttok *tt, const int64_t *env,
			uint32_t line, size_t *off, uint32_t *len)
{
	*off = P->xlen;
	for (uint32_t i = 0; i < tt->nparts; i++) {
		const struct part *p = &P->prog.parts[tt->part0 + i];
		char num[24];
		const char *s = p->s;
		size_t n = p->len;

		if (p->is_expr) {
			int64_t v;

			if (eval(P, p, env, line, &v))
				return -1;
			/* "%lld" by hand: snprintf was a third of expanding the
			 * repeat blocks of a big trace */
			uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;
			char *d = num + sizeof num;
			do
				*--d = (char)('0' + u % 10);
			while ((u /= 10) != 0);
			if (v < 0)
				*--d = '-';
			s = d;
			n = (size_t)(num + sizeof num - d);
		}
		if (P->xlen + n > P->xcap) {
			size_t ncap = P->xcap ? P->xcap * 2 : 256;
			char *nb;

			while (ncap < P->xlen + n)
				ncap *= 2;
			nb = realloc(P->xbuf, ncap);
			if (!nb)
				return oom(P, line);
			P->xbuf = nb;
			P->xcap = ncap;
		}
		memcpy(P->xbuf + P->xlen, s, n);
		P->xlen += n;
	}
	if (P->xlen - *off > UINT32_MAX / 2)
		return fail(P, line, tt->t.col, "expected a shorter token, got '%s'", qtok(P, &tt->t));
	*len = (uint32_t)(P->xlen - *off);
	return 0;
}
