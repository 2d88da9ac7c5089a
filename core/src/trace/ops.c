/* The v1 ops (docs/trace-format.md, "Ops"): one table, `op_specs`, gives
 * each op's name, arguments and options to the parser, its error messages,
 * svz_op_name() and the manifest. */
#include "trace/parser.h"

#include <stdio.h>
#include <stdlib.h>

#include "slubviz/gfp.h"
#include "lib/util.h"

/* ---- the op table ------------------------------------------------------- */

/* An op's options, in the order its messages list them. */
enum { O_GFP, O_NODE, O_AT, NR_OP_OPTS };
enum { OPT_GFP = 1 << O_GFP, OPT_NODE = 1 << O_NODE, OPT_AT = 1 << O_AT };
static const char *const op_opt_names[NR_OP_OPTS] = { [O_GFP] = "gfp", [O_NODE] = "node",
						       [O_AT] = "at" };

enum { ARG_CACHE, ARG_HANDLE, ARG_SIZE, ARG_COUNT, ARG_PREFIX, ARG_SHEAF, ARG_CYCLES };
/* the most cycles one work op may take */
#define MAX_WORK_CYCLES 100000000u

/* Indexed by enum svz_op_type: the table's order is the enum's, the
 * manifest's and the "expected an op (...)" message's. */
static const struct op_spec {
	const char *name;
	uint8_t nargs, args[3], opts;
} op_specs[] = {
	[SVZ_OP_ALLOC] = { "alloc", 2, { ARG_CACHE, ARG_HANDLE }, OPT_GFP | OPT_NODE | OPT_AT },
	[SVZ_OP_FREE] = { "free", 2, { ARG_CACHE, ARG_HANDLE }, OPT_AT },
	[SVZ_OP_KMALLOC] = { "kmalloc", 2, { ARG_SIZE, ARG_HANDLE }, OPT_GFP | OPT_NODE | OPT_AT },
	[SVZ_OP_KFREE] = { "kfree", 1, { ARG_HANDLE }, OPT_AT },
	[SVZ_OP_ALLOC_BULK] = { "alloc_bulk", 3, { ARG_CACHE, ARG_COUNT, ARG_PREFIX }, OPT_GFP | OPT_AT },
	[SVZ_OP_FREE_BULK] = { "free_bulk", 3, { ARG_CACHE, ARG_COUNT, ARG_PREFIX }, OPT_AT },
	[SVZ_OP_FLUSH] = { "flush", 1, { ARG_CACHE }, 0 },
	[SVZ_OP_FLUSH_ALL] = { "flush_all", 1, { ARG_CACHE }, 0 },
	[SVZ_OP_SHRINK] = { "shrink", 1, { ARG_CACHE }, 0 },
	[SVZ_OP_DESTROY] = { "destroy", 1, { ARG_CACHE }, 0 },
	/* prefilled sheaves (v6.18+) and kfree_rcu (v7.0 rcu_free sheaves) */
	[SVZ_OP_PREFILL] = { "prefill_sheaf", 3, { ARG_CACHE, ARG_COUNT, ARG_SHEAF }, OPT_GFP | OPT_AT },
	[SVZ_OP_ALLOC_FROM_SHEAF] = { "alloc_from_sheaf", 3, { ARG_CACHE, ARG_SHEAF, ARG_HANDLE },
				      OPT_GFP | OPT_AT },
	[SVZ_OP_RETURN_SHEAF] = { "return_sheaf", 2, { ARG_CACHE, ARG_SHEAF }, OPT_GFP | OPT_AT },
	[SVZ_OP_KFREE_RCU] = { "kfree_rcu", 1, { ARG_HANDLE }, OPT_AT },
	[SVZ_OP_RCU_BARRIER] = { "rcu_barrier", 0, { 0 }, 0 },
	/* the rest of a request, for the timed schedule (docs/timing.md) */
	[SVZ_OP_WORK] = { "work", 1, { ARG_CYCLES }, 0 },
};

#define NR_OP_SPECS (sizeof op_specs / sizeof op_specs[0])
_Static_assert(NR_OP_SPECS == SVZ_OP__COUNT, "one op_specs row per enum svz_op_type");

/* The op's type, or -1. */
static int find_op(const struct tok *t)
{
	for (size_t i = 0; i < NR_OP_SPECS; i++)
		if (tok_is(t, op_specs[i].name))
			return (int)i;
	return -1;
}

const char *svz_op_name(enum svz_op_type t)
{
	return (unsigned)t < NR_OP_SPECS ? op_specs[t].name : "?";
}

static const char *op_at(int i) { return (size_t)i < NR_OP_SPECS ? op_specs[i].name : NULL; }

bool is_bulk_op(const struct tok *t)
{
	int type = find_op(t);
	return type == SVZ_OP_ALLOC_BULK || type == SVZ_OP_FREE_BULK;
}

bool looks_like_op(const struct tok *tk, uint32_t n)
{
	if (tk[0].len >= 2 && tk[0].s[0] == 'c' &&
	    (is_digit(tk[0].s[1]) || tk[0].s[1] == '{' || tk[0].s[1] == '$'))
		return true;
	return n >= 2 && find_op(&tk[1]) >= 0;
}

static bool handle_name_ok(const char *s, size_t len)
{
	if (len == 0)
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (!is_ident(c) && c != '.' && c != ':' && c != '[' && c != ']' && c != '-')
			return false;
	}
	return true;
}

/* A handle name or call-site label, interned within the names budget:
 * its id, or NONE with the error set. */
static uint32_t intern_name(struct parser *P, struct strtab *st, const char *s, size_t len,
			    uint32_t line, const struct tok *at)
{
	bool added;
	uint32_t id;

	if (P->name_bytes + len + 1 > SVZ_TRACE_MAX_NAME_BYTES && strtab_find(st, s, len) == NONE) {
		fail_tok(P, line, at,
			 "trace names more than %u bytes of distinct handles and call sites (the limit)",
			 SVZ_TRACE_MAX_NAME_BYTES);
		return NONE;
	}
	id = strtab_intern(st, s, len, &added);
	if (id == NONE)
		oom(P, line);
	else if (added)
		P->name_bytes += len + 1;
	return id;
}

int push_op(struct parser *P, const struct svz_op *op, const struct tok *at)
{
	struct svz_trace *t = P->t;

	if (t->nr_ops >= SVZ_TRACE_MAX_OPS)
		return fail_tok(P, op->line, at, "trace expands to more than %u ops (the limit)",
				SVZ_TRACE_MAX_OPS);
	if (!GROW(t->ops, P->cap_ops, t->nr_ops + 1))
		return oom(P, op->line);
	t->ops[t->nr_ops++] = *op;
	return 0;
}

/* prefix[0] .. prefix[count-1] appended to handle_lists; returns the first index. */
static int push_bulk_handles(struct parser *P, const struct tok *prefix, uint32_t count,
			     uint32_t line, uint32_t *first)
{
	struct svz_trace *t = P->t;
	size_t need = prefix->len + 16;

	if ((uint64_t)t->nr_handle_lists + count > SVZ_TRACE_MAX_OPS)
		return fail_tok(P, line, prefix, "trace expands to more than %u bulk handles (the limit)",
				SVZ_TRACE_MAX_OPS);
	if (!GROW(t->handle_lists, P->cap_lists, t->nr_handle_lists + count))
		return oom(P, line);
	if (need > P->cnamebuf) {
		char *nb = realloc(P->namebuf, need);
		if (!nb)
			return oom(P, line);
		P->namebuf = nb;
		P->cnamebuf = need;
	}
	memcpy(P->namebuf, prefix->s, prefix->len);
	*first = t->nr_handle_lists;
	for (uint32_t i = 0; i < count; i++) {
		int n = snprintf(P->namebuf + prefix->len, 16, "[%u]", i);
		uint32_t id = intern_name(P, &P->handles, P->namebuf, prefix->len + (size_t)n, line,
					  prefix);

		if (id == NONE)
			return -1;
		t->handle_lists[t->nr_handle_lists++] = id;
	}
	return 0;
}

int parse_op(struct parser *P, const struct tok *tk, uint32_t n, uint32_t line, bool dry,
	     struct svz_op *op)
{
	const struct svz_topology *topo = &P->t->config.topo;
	const struct op_spec *spec;
	const struct tok *handle = NULL, *sheaf_tok = NULL, *opt[NR_OP_OPTS] = { NULL };
	uint64_t cpu;
	int type;
	char optlist[64] = "", ops[256];

	memset(op, 0, sizeof *op);
	op->line = line;
	op->node = SVZ_NO_NODE;
	op->cache = SVZ_NO_CACHE;
	if (tk[0].len < 2 || tk[0].s[0] != 'c' ||
	    !parse_uint(tk[0].s + 1, tk[0].len - 1, 1u << 20, &cpu))
		return fail_tok(P, line, &tk[0], "expected a CPU like 'c3', got '%s'", qtok(P, &tk[0]));
	if (cpu >= (uint64_t)topo->nr_cpus)
		return fail_tok(P, line, &tk[0], "expected a declared CPU (%s), got '%s'",
				cpu_range(P), qtok(P, &tk[0]));
	op->cpu = (uint16_t)cpu;
	op->col = (uint16_t)(tk[0].col < UINT16_MAX ? tk[0].col : UINT16_MAX);
	type = n < 2 ? -1 : find_op(&tk[1]);
	if (type < 0) {
		join_names(ops, sizeof ops, op_at, ", ", ", ");
		if (n < 2)
			return fail(P, line, end_col(tk, n), "expected an op (%s), got end of line", ops);
		return fail_tok(P, line, &tk[1], "expected an op (%s), got '%s'", ops, qtok(P, &tk[1]));
	}
	spec = &op_specs[type];
	op->type = (uint8_t)type;
	if (spec->opts & OPT_GFP)
		op->gfp = GFP_KERNEL;

	for (uint32_t a = 0; a < spec->nargs; a++) {
		static const char *const what[] = { "a cache name", "a handle name", "a kmalloc size",
						    "a bulk count", "a handle prefix", "a sheaf handle name",
						    "cycles" };
		const struct tok *arg = &tk[2 + a];
		uint64_t x;

		if (2 + a >= n)
			return fail(P, line, end_col(tk, n), "expected %s, got end of line",
				     what[spec->args[a]]);
		switch (spec->args[a]) {
		case ARG_CACHE:
			op->cache = strtab_find(&P->caches, arg->s, arg->len);
			if (op->cache == NONE)
				return fail_tok(P, line, arg,
						"expected a cache declared with 'cache', got '%s'",
						qtok(P, arg));
			break;
		case ARG_SIZE:
			if (!parse_size(arg->s, arg->len, MAX_OBJECT_SIZE, &x) || x == 0)
				return fail_tok(P, line, arg,
						"expected a kmalloc size of 1..%u bytes, got '%s'",
						MAX_OBJECT_SIZE, qtok(P, arg));
			op->size = (uint32_t)x;
			break;
		case ARG_COUNT:
			if (!parse_uint(arg->s, arg->len, MAX_BULK, &x) || x == 0)
				return fail_tok(P, line, arg, "expected a bulk count of 1..%u, got '%s'",
						MAX_BULK, qtok(P, arg));
			op->count = (uint32_t)x;
			break;
		case ARG_CYCLES:
			if (!parse_uint(arg->s, arg->len, MAX_WORK_CYCLES, &x) || x == 0)
				return fail_tok(P, line, arg, "expected cycles of 1..%u, got '%s'",
						MAX_WORK_CYCLES, qtok(P, arg));
			op->count = (uint32_t)x;
			break;
		case ARG_SHEAF:
		case ARG_HANDLE:
		case ARG_PREFIX:
			if (!handle_name_ok(arg->s, arg->len))
				return fail_tok(P, line, arg,
						"expected %s of letters, digits, '_', '.', ':', '[', "
						"']' or '-', got '%s'", what[spec->args[a]], qtok(P, arg));
			if (arg->len > SVZ_TRACE_MAX_NAME)
				return fail_tok(P, line, arg, "expected %s of at most %u bytes, got %u bytes",
						what[spec->args[a]], SVZ_TRACE_MAX_NAME, arg->len);
			if (spec->args[a] == ARG_SHEAF)
				sheaf_tok = arg;
			else
				handle = arg;
			break;
		}
	}

	for (uint32_t i = 2 + spec->nargs; i < n; i++) {
		const struct tok *o = &tk[i];
		struct tok v;
		int k;

		for (k = 0; k < NR_OP_OPTS; k++)
			if ((spec->opts & (1 << k)) && tok_opt(o, op_opt_names[k], &v))
				break;
		if (k == NR_OP_OPTS) {
			bool has_eq = memchr(o->s, '=', o->len) != NULL;

			/* the options this op takes, for the error only (building it
			 * for every op was a sixth of parsing a big trace) */
			for (int j = 0; j < NR_OP_OPTS; j++) {
				size_t used = strlen(optlist);

				if (spec->opts & (1 << j))
					snprintf(optlist + used, sizeof optlist - used, "%s%s=",
						 used ? ", " : "", op_opt_names[j]);
			}

			if (!has_eq && !optlist[0])
				return fail_tok(P, line, o, "expected end of line, got '%s'", qtok(P, o));
			if (!has_eq)
				return fail_tok(P, line, o,
						"expected end of line or an option (%s), got '%s'", optlist,
						qtok(P, o));
			if (!optlist[0])
				return fail_tok(P, line, o, "expected no options for %s, got '%s'",
						spec->name, qtok(P, o));
			return fail_tok(P, line, o, "expected an option of %s (%s), got '%s'", spec->name,
					optlist, qtok(P, o));
		}
		if (opt[k])
			return fail_tok(P, line, o, "expected each option once, got a second '%s='",
					op_opt_names[k]);
		opt[k] = o;

		if (k == O_GFP) {
			char val[128], msg[200];

			if (v.len >= sizeof val)
				return fail_tok(P, line, &v, "expected gfp flags, got '%s'", qtok(P, &v));
			memcpy(val, v.s, v.len);
			val[v.len] = 0;
			if (svz_gfp_parse(val, &op->gfp, msg, sizeof msg))
				return fail_tok(P, line, &v, "%s", msg);
		} else if (k == O_NODE) {
			uint64_t node;

			if (tok_is(&v, "-1")) {
				op->node = SVZ_NO_NODE;
			} else if (!parse_uint(v.s, v.len, 1u << 20, &node) ||
				   node >= (uint64_t)topo->nr_nodes) {
				return fail_tok(P, line, o, "expected node=-1 or a declared node (%s), got '%s'",
						node_range(P), qtok(P, o));
			} else {
				op->node = (int16_t)node;
			}
		} else if (v.len == 0) {
			return fail_tok(P, line, o, "expected a call site after at=, got nothing");
		} else if (v.len > SVZ_TRACE_MAX_NAME) {
			return fail_tok(P, line, &v, "expected a call site of at most %u bytes, got %u bytes",
					SVZ_TRACE_MAX_NAME, v.len);
		}
	}

	if (dry)
		return 0;
	if (handle && (op->type == SVZ_OP_ALLOC_BULK || op->type == SVZ_OP_FREE_BULK)) {
		if (push_bulk_handles(P, handle, op->count, line, &op->handle))
			return -1;
	} else if (handle) {
		op->handle = intern_name(P, &P->handles, handle->s, handle->len, line, handle);
		if (op->handle == NONE)
			return -1;
	}
	if (sheaf_tok) {
		/* sheaf handles share the handle namespace; the op carries it in
		 * `sheaf` (the object handle, if any, stays in `handle`) */
		op->sheaf = intern_name(P, &P->handles, sheaf_tok->s, sheaf_tok->len, line, sheaf_tok);
		if (op->sheaf == NONE)
			return -1;
	}
	if (opt[O_AT]) {
		op->site = intern_name(P, &P->sites, opt[O_AT]->s + 3, opt[O_AT]->len - 3, line,
				       opt[O_AT]);
		if (op->site == NONE)
			return -1;
	}
	return 0;
}
