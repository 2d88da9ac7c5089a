/* The v1 directives (docs/trace-format.md, "Directives"): the topology
 * (node, cpus, cpu_counts, page_size), the settings (preset, set, seed) and
 * cache declarations. One table, `directives`, names them for the parser,
 * its error messages and the manifest. */
#include "trace/parser.h"

#include <stdio.h>
#include <stdlib.h>

#include "slubviz/gfp.h"
#include "slubviz/sizing.h"
#include "lib/util.h"

/* ---- topology ------------------------------------------------------------ */

/* Ids 0..n-1 as a message shows them: "0", "0-3", "c0-c7". */
static const char *id_range(struct parser *P, const char *prefix, int n)
{
	char *buf = P->quoted[P->qnext++ & 3];

	if (n <= 1)
		snprintf(buf, 48, "%s0", prefix);
	else
		snprintf(buf, 48, "%s0-%s%d", prefix, prefix, n - 1);
	return buf;
}

const char *node_range(struct parser *P) { return id_range(P, "", P->t->config.topo.nr_nodes); }

const char *cpu_range(struct parser *P) { return id_range(P, "c", P->t->config.topo.nr_cpus); }

/* The trace's topology replaces the base one entirely on its first
 * node/cpus directive; page size and explicitly set counts survive. */
static void begin_topology(struct parser *P)
{
	struct svz_topology *topo = &P->t->config.topo;

	if (P->topo_declared)
		return;
	P->topo_declared = true;
	topo->nr_nodes = 0;
	topo->nr_cpus = 0;
	memset(topo->node_mem_bytes, 0, sizeof topo->node_mem_bytes);
	memset(topo->cpu_node, 0, sizeof topo->cpu_node);
	topo->boot_online = 1;
}

static void note_topology(struct parser *P, const struct tok *first)
{
	P->topo_tok = *first;
	P->topo_line = P->line;
}

int topology_finalize(struct parser *P, uint32_t line, uint32_t col)
{
	struct svz_topology *topo = &P->t->config.topo;
	char msg[256];

	if (P->finalized)
		return 0;
	P->finalized = true;
	P->first_op_line = line;
	if (P->topo_declared) {
		int *counts[3] = { &topo->possible, &topo->present, &topo->online };

		if (topo->nr_cpus == 0)
			return fail(P, line, col,
				    "expected a 'cpus' directive before the first op (the trace "
				    "declares nodes), got none");
		for (int cpu = 0; cpu < topo->nr_cpus; cpu++)
			if (!P->cpu_decl_line[cpu])
				return fail(P, P->topo_line, P->topo_tok.col,
					    "expected CPU ids dense from 0, got no CPU %d (highest is %d)",
					    cpu, topo->nr_cpus - 1);
		for (int i = 0; i < 3; i++)
			if (!P->count_explicit[i])
				*counts[i] = topo->nr_cpus;
	}
	if (svz_topology_check(topo, msg, sizeof msg))
		return P->topo_line ? fail(P, P->topo_line, P->topo_tok.col, "%s", msg)
				    : fail(P, 0, 0, "%s", msg);
	return 0;
}

static int dir_node(struct parser *P, const struct tok *tk, uint32_t n)
{
	struct svz_topology *topo = &P->t->config.topo;
	struct tok v;
	uint64_t id, mem;

	begin_topology(P);
	note_topology(P, &tk[0]);
	if (n < 2)
		return fail(P, P->line, end_col(tk, n), "expected a node id, got end of line");
	if (!parse_uint(tk[1].s, tk[1].len, 1u << 20, &id) || id >= SVZ_MAX_NODES)
		return fail_tok(P, P->line, &tk[1], "expected a node id 0..%d, got '%s'",
				SVZ_MAX_NODES - 1, qtok(P, &tk[1]));
	if (id != (uint64_t)topo->nr_nodes)
		return fail_tok(P, P->line, &tk[1],
				"expected node %d next (node ids are dense from 0), got '%s'",
				topo->nr_nodes, qtok(P, &tk[1]));
	if (n < 3)
		return fail(P, P->line, end_col(tk, n), "expected mem=SIZE, got end of line");
	if (!tok_opt(&tk[2], "mem", &v))
		return fail_tok(P, P->line, &tk[2], "expected mem=SIZE, got '%s'", qtok(P, &tk[2]));
	if (!parse_size(v.s, v.len, UINT64_MAX, &mem))
		return fail_tok(P, P->line, &v, "expected a size like 0, 512M or 16G, got '%s'",
				qtok(P, &v));
	if (n > 3)
		return fail_tok(P, P->line, &tk[3], "expected end of line, got '%s'", qtok(P, &tk[3]));
	topo->node_mem_bytes[topo->nr_nodes++] = mem;
	return 0;
}

static int dir_cpus(struct parser *P, const struct tok *tk, uint32_t n)
{
	struct svz_topology *topo = &P->t->config.topo;
	bool these[SVZ_MAX_CPUS] = { false };
	struct tok v;
	uint64_t node;
	uint32_t i = 0;

	begin_topology(P);
	note_topology(P, &tk[0]);
	if (n < 2)
		return fail(P, P->line, end_col(tk, n),
			    "expected a CPU list like 0-3,32-35, got end of line");
	while (i <= tk[1].len) {
		struct tok item = { tk[1].s + i, 0, tk[1].col + i };
		const char *dash;
		uint64_t lo, hi;

		while (i + item.len < tk[1].len && tk[1].s[i + item.len] != ',')
			item.len++;
		dash = memchr(item.s, '-', item.len);
		if (item.len == 0)
			return fail_tok(P, P->line, &tk[1], "expected a CPU list like 0-3,32-35, got '%s'",
					qtok(P, &tk[1]));
		if (dash ? !parse_uint(item.s, (size_t)(dash - item.s), 1u << 20, &lo) ||
			   !parse_uint(dash + 1, item.len - (size_t)(dash - item.s) - 1, 1u << 20, &hi)
			 : !parse_uint(item.s, item.len, 1u << 20, &lo))
			return fail_tok(P, P->line, &item, "expected a CPU list like 0-3,32-35, got '%s'",
					qtok(P, &item));
		if (!dash)
			hi = lo;
		if (lo > hi)
			return fail_tok(P, P->line, &item,
					"expected a CPU range low-high, got '%s'", qtok(P, &item));
		if (hi >= SVZ_MAX_CPUS)
			return fail_tok(P, P->line, &item, "expected CPU ids 0..%d, got '%s'",
					SVZ_MAX_CPUS - 1, qtok(P, &item));
		for (uint64_t cpu = lo; cpu <= hi; cpu++) {
			if (P->cpu_decl_line[cpu] || these[cpu])
				return fail_tok(P, P->line, &item,
						"expected each CPU once, got CPU %d again (declared on line %u)",
						(int)cpu, these[cpu] ? P->line : P->cpu_decl_line[cpu]);
			these[cpu] = true;
		}
		i += item.len + 1;
	}
	if (n < 3)
		return fail(P, P->line, end_col(tk, n), "expected node=N, got end of line");
	if (!tok_opt(&tk[2], "node", &v))
		return fail_tok(P, P->line, &tk[2], "expected node=N, got '%s'", qtok(P, &tk[2]));
	if (!parse_uint(v.s, v.len, 1u << 20, &node) || node >= (uint64_t)topo->nr_nodes) {
		if (topo->nr_nodes == 0)
			return fail_tok(P, P->line, &tk[2],
					"expected node=N of a declared node (none declared yet), got '%s'",
					qtok(P, &tk[2]));
		return fail_tok(P, P->line, &tk[2], "expected node=N of a declared node (%s), got '%s'",
				node_range(P), qtok(P, &tk[2]));
	}
	if (n > 3)
		return fail_tok(P, P->line, &tk[3], "expected end of line, got '%s'", qtok(P, &tk[3]));
	for (int cpu = 0; cpu < SVZ_MAX_CPUS; cpu++) {
		if (!these[cpu])
			continue;
		P->cpu_decl_line[cpu] = P->line;
		topo->cpu_node[cpu] = (int)node;
		if (cpu + 1 > topo->nr_cpus)
			topo->nr_cpus = cpu + 1;
	}
	return 0;
}

/* Options of a directive: a name ending in '=' takes a value. */

/* The token is the option `name`; *value is what follows its '='. */
static bool opt_is(const struct tok *t, const char *name, struct tok *value)
{
	size_t n = strlen(name);

	if (name[n - 1] != '=')
		return tok_is(t, name);
	if (t->len < n || memcmp(t->s, name, n) != 0)
		return false;
	*value = (struct tok){ t->s + n, t->len - (uint32_t)n, t->col + (uint32_t)n };
	return true;
}

/* Token t as one of the options names[0..n): its index, or -1 with the
 * error set ("expected <expected>, got ..."); seen[] rejects a repeat. */
static int take_option(struct parser *P, const struct tok *t, const char *const *names, int n,
		       bool *seen, const char *expected, struct tok *value)
{
	int k;

	*value = (struct tok){ t->s, 0, t->col }; /* an option without '=' has no value */
	for (k = 0; k < n; k++)
		if (opt_is(t, names[k], value))
			break;
	if (k == n)
		return fail_tok(P, P->line, t, "expected %s, got '%s'", expected, qtok(P, t));
	if (seen[k])
		return fail_tok(P, P->line, t, "expected each option once, got a second '%s'",
				names[k]);
	seen[k] = true;
	return k;
}

/* The CPU counts: cpu_counts' options, svz_config_set keys (without the
 * '='), as count_explicit[] indexes them. */
static const char *const count_opts[3] = { "possible=", "present=", "online=" };

static const char *count_opt(int i) { return i < 3 ? count_opts[i] : NULL; }

/* One config key through svz_config_set; counts set here stay explicit. */
static int set_key(struct parser *P, const struct tok *at, const char *key, size_t keylen,
		   const char *value, size_t valuelen)
{
	char k[64], v[128], msg[sizeof P->err->msg];

	if (keylen >= sizeof k || valuelen >= sizeof v) {
		if (keylen >= sizeof k)
			return fail_tok(P, P->line, at, "expected a setting key, got '%s'",
					quote(P, key, keylen));
		return fail_tok(P, P->line, at, "expected a shorter value, got '%s'",
				quote(P, value, valuelen));
	}
	memcpy(k, key, keylen);
	k[keylen] = 0;
	memcpy(v, value, valuelen);
	v[valuelen] = 0;
	if (svz_config_set(&P->t->config, k, v, msg, sizeof msg))
		return fail_tok(P, P->line, at, "%s", msg);
	for (int i = 0; i < 3; i++) {
		if (strncmp(k, count_opts[i], keylen) == 0 && count_opts[i][keylen] == '=') {
			P->count_explicit[i] = true;
			note_topology(P, at);
		}
	}
	if (strcmp(k, "page_size") == 0)
		note_topology(P, at);
	return 0;
}

static int dir_cpu_counts(struct parser *P, const struct tok *tk, uint32_t n)
{
	bool seen[3] = { false };
	char expected[64];

	/* "possible=N, present=N or online=" + "N" */
	join_names(expected, sizeof expected, count_opt, "N, ", "N or ");
	strcat(expected, "N");
	if (n < 2)
		return fail(P, P->line, end_col(tk, n), "expected %s, got end of line", expected);
	for (uint32_t i = 1; i < n; i++) {
		struct tok v;
		int k = take_option(P, &tk[i], count_opts, 3, seen, expected, &v);

		if (k < 0 || set_key(P, &tk[i], count_opts[k], strlen(count_opts[k]) - 1, v.s, v.len))
			return -1;
	}
	note_topology(P, &tk[0]);
	return 0;
}

/* ---- caches -------------------------------------------------------------- */

bool svz_trace_cache_name_char(char c)
{
	return is_ident(c) || c == '.' || c == ':' || c == '-';
}

bool svz_trace_cache_name_reserved(const char *s, size_t len)
{
	/* mm/slab_common.c kmalloc_info[]: "kmalloc-", "kmalloc-cg-",
	 * "kmalloc-rcl-", "kmalloc-rnd-NN-" and "dma-kmalloc-" names */
	static const char *const prefixes[] = { "kmalloc-", "dma-kmalloc-" };

	for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
		if (len >= strlen(prefixes[i]) && memcmp(s, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	return false;
}

static bool cache_name_ok(const struct tok *t)
{
	if (t->len == 0 || t->len > SVZ_TRACE_MAX_CACHE_NAME)
		return false;
	for (uint32_t i = 0; i < t->len; i++)
		if (!svz_trace_cache_name_char(t->s[i]))
			return false;
	return true;
}

static int parse_slab_flags(struct parser *P, const struct tok *v, uint32_t *out)
{
	uint32_t i = 0, flags = 0;

	while (i <= v->len) {
		struct tok item = { v->s + i, 0, v->col + i };
		char name[48], msg[256];
		uint32_t f;

		while (i + item.len < v->len && v->s[i + item.len] != ',' && v->s[i + item.len] != '|')
			item.len++;
		if (item.len == 0 && v->len == 0)
			break; /* "flags=" means none */
		if (item.len == 0 || item.len >= sizeof name)
			goto bad;
		memcpy(name, item.s, item.len);
		name[item.len] = 0;
		if (svz_slab_flags_parse(name, &f, msg, sizeof msg))
			goto bad;
		flags |= f;
		i += item.len + 1;
		continue;
bad:
		return fail_tok(P, P->line, &item,
				"expected a slab flag (HWCACHE_ALIGN, TYPESAFE_BY_RCU, ACCOUNT, "
				"RECLAIM_ACCOUNT, ...), got '%s'", qtok(P, &item));
	}
	*out = flags;
	return 0;
}

/* The cache directive's options, in the order its messages list them. */
enum { C_SIZE, C_ALIGN, C_FLAGS, C_CTOR, C_SHEAF, NR_CACHE_OPTS };
static const char *const cache_opts[NR_CACHE_OPTS] = {
	[C_SIZE] = "size=", [C_ALIGN] = "align=", [C_FLAGS] = "flags=", [C_CTOR] = "ctor",
	[C_SHEAF] = "sheaf_capacity=",
};

static const char *cache_opt_at(int i) { return i < NR_CACHE_OPTS ? cache_opts[i] : NULL; }

static int dir_cache(struct parser *P, const struct tok *tk, uint32_t n)
{
	struct svz_trace *t = P->t;
	struct svz_cache_decl d;
	bool seen[NR_CACHE_OPTS] = { false };
	char expected[128] = "a cache option (";
	uint32_t id;

	memset(&d, 0, sizeof d);
	if (n < 2)
		return fail(P, P->line, end_col(tk, n), "expected a cache name, got end of line");
	if (!cache_name_ok(&tk[1]))
		return fail_tok(P, P->line, &tk[1],
				"expected a cache name of 1..%u letters, digits, '_', '.', ':' or "
				"'-', got '%s'", SVZ_TRACE_MAX_CACHE_NAME, qtok(P, &tk[1]));
	if (svz_trace_cache_name_reserved(tk[1].s, tk[1].len))
		return fail_tok(P, P->line, &tk[1],
				"expected a cache name outside the kmalloc caches' names, got '%s'",
				qtok(P, &tk[1]));
	if (t->nr_caches >= SVZ_TRACE_MAX_CACHES)
		return fail_tok(P, P->line, &tk[0], "expected at most %u caches, got a %uth",
				SVZ_TRACE_MAX_CACHES, SVZ_TRACE_MAX_CACHES + 1);
	id = strtab_find(&P->caches, tk[1].s, tk[1].len);
	if (id != NONE)
		return fail_tok(P, P->line, &tk[1],
				"expected a new cache name, got '%s' (declared on line %u)",
				qtok(P, &tk[1]), t->caches[id].line);
	memcpy(d.name, tk[1].s, tk[1].len);
	d.line = P->line;
	join_names(expected + strlen(expected), sizeof expected - strlen(expected), cache_opt_at,
		   ", ", ", ");
	strcat(expected, ")");
	for (uint32_t i = 2; i < n; i++) {
		struct tok v;
		uint64_t x;
		int opt;

		opt = take_option(P, &tk[i], cache_opts, NR_CACHE_OPTS, seen, expected, &v);
		if (opt < 0)
			return -1;
		switch (opt) {
		case C_SIZE:
			if (!parse_size(v.s, v.len, MAX_OBJECT_SIZE, &x) || x == 0)
				return fail_tok(P, P->line, &tk[i],
						"expected size=1..%u bytes, got '%s'", MAX_OBJECT_SIZE,
						qtok(P, &tk[i]));
			d.object_size = (uint32_t)x;
			break;
		case C_ALIGN:
			if (!parse_size(v.s, v.len, MAX_ALIGN, &x) || (x & (x - 1)))
				return fail_tok(P, P->line, &tk[i],
						"expected align=0 or a power of two up to %u, got '%s'",
						MAX_ALIGN, qtok(P, &tk[i]));
			d.align = (uint32_t)x;
			break;
		case C_FLAGS:
			if (parse_slab_flags(P, &v, &d.flags))
				return -1;
			break;
		case C_SHEAF:
			if (!parse_uint(v.s, v.len, MAX_SHEAF_CAPACITY, &x))
				return fail_tok(P, P->line, &tk[i],
						"expected sheaf_capacity=0..%u, got '%s'",
						MAX_SHEAF_CAPACITY, qtok(P, &tk[i]));
			d.sheaf_capacity = (uint32_t)x;
			break;
		case C_CTOR:
			d.ctor = true;
			break;
		}
	}
	if (!seen[C_SIZE])
		return fail(P, P->line, end_col(tk, n), "expected size=BYTES for cache '%s', got %s",
			    d.name, n > 2 ? "no size=" : "end of line");
	if (!GROW(t->caches, P->cap_caches, t->nr_caches + 1) ||
	    strtab_intern(&P->caches, tk[1].s, tk[1].len, NULL) == NONE)
		return oom(P, P->line);
	t->caches[t->nr_caches++] = d;
	return 0;
}

/* ---- directives ---------------------------------------------------------- */

int dir_header(struct parser *P, const struct tok *tk, uint32_t n)
{
	if (!tok_is(&tk[0], "slubviz-trace"))
		return fail_tok(P, P->line, &tk[0], "expected the header 'slubviz-trace 1', got '%s'",
				qtok(P, &tk[0]));
	if (n < 2)
		return fail(P, P->line, end_col(tk, n), "expected format version 1, got end of line");
	if (!tok_is(&tk[1], "1"))
		return fail_tok(P, P->line, &tk[1], "expected format version 1, got '%s'", qtok(P, &tk[1]));
	if (n > 2)
		return fail_tok(P, P->line, &tk[2], "expected end of line, got '%s'", qtok(P, &tk[2]));
	P->header_seen = true;
	return 0;
}

/* Directives that take exactly one value, handed to svz_config_set(). */
static int dir_single(struct parser *P, const struct tok *tk, uint32_t n, const char *key,
		      const char *what)
{
	if (n < 2)
		return fail(P, P->line, end_col(tk, n), "expected %s, got end of line", what);
	if (n > 2)
		return fail_tok(P, P->line, &tk[2], "expected end of line, got '%s'", qtok(P, &tk[2]));
	return set_key(P, &tk[1], key, strlen(key), tk[1].s, tk[1].len);
}

static int dir_page_size(struct parser *P, const struct tok *tk, uint32_t n)
{
	if (dir_single(P, tk, n, "page_size", "a page size"))
		return -1;
	note_topology(P, &tk[0]);
	return 0;
}

static int dir_preset(struct parser *P, const struct tok *tk, uint32_t n)
{
	return dir_single(P, tk, n, "preset", "a preset name");
}

static int dir_seed(struct parser *P, const struct tok *tk, uint32_t n)
{
	return dir_single(P, tk, n, "seed", "a seed");
}

static int dir_set(struct parser *P, const struct tok *tk, uint32_t n)
{
	if (n < 2)
		return fail(P, P->line, end_col(tk, n), "expected KEY=VALUE, got end of line");
	for (uint32_t i = 1; i < n; i++) {
		const char *eq = memchr(tk[i].s, '=', tk[i].len);

		if (!eq || eq == tk[i].s)
			return fail_tok(P, P->line, &tk[i], "expected KEY=VALUE, got '%s'", qtok(P, &tk[i]));
		if (set_key(P, &tk[i], tk[i].s, (size_t)(eq - tk[i].s), eq + 1,
			    tk[i].len - (size_t)(eq - tk[i].s) - 1))
			return -1;
	}
	return 0;
}

/* "schedule serial|round-robin|random [seed=N]|timed|explicit" */
static int dir_schedule(struct parser *P, const struct tok *tk, uint32_t n)
{
	char spec[128] = "", msg[sizeof P->err->msg];
	size_t len = 0;

	if (n < 2)
		return fail(P, P->line, end_col(tk, n),
			    "expected a schedule (" SVZ_SCHEDULE_CHOICES "), got end of line");
	for (uint32_t i = 1; i < n; i++) {
		if (len + tk[i].len + 2 > sizeof spec)
			return fail_tok(P, P->line, &tk[i], "expected end of line, got '%s'", qtok(P, &tk[i]));
		len += (size_t)snprintf(spec + len, sizeof spec - len, "%s%.*s", i > 1 ? " " : "",
					(int)tk[i].len, tk[i].s);
	}
	if (svz_schedule_parse(&P->t->config.sched, spec, msg, sizeof msg))
		return fail_tok(P, P->line, &tk[1], "%s", msg);
	return 0;
}

/* One token of a 'steps' line: [c]CPU, then nothing (one micro-step), xN
 * (N micro-steps), / or /N (until N ops return), :KIND (until an event of
 * that kind). */
static int parse_step(struct parser *P, const struct tok *t, struct svz_sched_step *st)
{
	const char *s = t->s, *e = t->s + t->len;
	uint64_t v;
	size_t k = 0;

	memset(st, 0, sizeof *st);
	st->line = P->line;
	st->col = t->col;
	st->count = 1;
	if (s < e && *s == 'c')
		s++;
	while (s + k < e && is_digit(s[k]))
		k++;
	if (!k || !parse_uint(s, k, SVZ_MAX_CPUS - 1, &v))
		goto bad;
	st->cpu = (uint16_t)v;
	s += k;
	if (s == e)
		return 0;
	char form = *s++;
	if (form == ':') {
		for (int i = 0; svz_event_kind_name(i); i++)
			if (strlen(svz_event_kind_name(i)) == (size_t)(e - s) &&
			    memcmp(s, svz_event_kind_name(i), (size_t)(e - s)) == 0) {
				st->until = SVZ_STEP_EVENT;
				st->event = (uint8_t)i;
				return 0;
			}
		return fail_tok(P, P->line, t, "expected an event kind after ':' (docs/events.md: lock, "
				"unlock, spin, cmpxchg, return ...), got '%s'", qtok(P, t));
	}
	if (form != 'x' && form != '/')
		goto bad;
	st->until = form == '/' ? SVZ_STEP_OPS : SVZ_STEP_COUNT;
	if (s == e && form == '/')
		return 0;
	if (s == e || !parse_uint(s, (size_t)(e - s), 1000000000, &v) || v == 0)
		goto bad;
	st->count = (uint32_t)v;
	return 0;
bad:
	return fail_tok(P, P->line, t, "expected a schedule step like 'c0' (one micro-step), 'c0x5' "
			"(five), 'c0/' (until its op returns or it spins), 'c0/3' (three ops) or "
			"'c0:cmpxchg' (until an event of that kind), got '%s'", qtok(P, t));
}

/* "steps TOKEN..." : the explicit schedule, appended in order. */
static int dir_steps(struct parser *P, const struct tok *tk, uint32_t n)
{
	struct svz_trace *t = P->t;

	if (n < 2)
		return fail(P, P->line, end_col(tk, n), "expected schedule steps like 'c0x3 c1/', got end of line");
	for (uint32_t i = 1; i < n; i++) {
		if (t->nr_steps >= SVZ_TRACE_MAX_OPS)
			return fail_tok(P, P->line, &tk[i], "expected at most %u schedule steps, got more",
					SVZ_TRACE_MAX_OPS);
		if (!GROW(t->steps, P->cap_steps, t->nr_steps + 1))
			return oom(P, P->line);
		if (parse_step(P, &tk[i], &t->steps[t->nr_steps]))
			return -1;
		t->nr_steps++;
	}
	return 0;
}

int schedule_finalize(struct parser *P)
{
	const struct svz_trace *t = P->t;

	for (uint32_t i = 0; i < t->nr_steps; i++)
		if (t->steps[i].cpu >= t->config.topo.nr_cpus)
			return fail(P, t->steps[i].line, t->steps[i].col,
				    "expected a CPU of %s in the schedule step, got c%u", cpu_range(P),
				    t->steps[i].cpu);
	return 0;
}

/* In the order docs/trace-format.md lists them (and so the messages and the
 * manifest). */
static const struct directive {
	const char *name;
	int (*fn)(struct parser *, const struct tok *, uint32_t);
} directives[] = {
	{ "page_size", dir_page_size },
	{ "node", dir_node },
	{ "cpus", dir_cpus },
	{ "cpu_counts", dir_cpu_counts },
	{ "preset", dir_preset },
	{ "set", dir_set },
	{ "seed", dir_seed },
	{ "cache", dir_cache },
	{ "schedule", dir_schedule },
	{ "steps", dir_steps },
};

#define NR_DIRECTIVES (sizeof directives / sizeof directives[0])

/* The directive keywords, in table order; NULL past the end. */
const char *svz_trace_directive_name(int i)
{
	return i >= 0 && (size_t)i < NR_DIRECTIVES ? directives[i].name : NULL;
}

const struct directive *find_directive(const struct tok *t)
{
	for (size_t i = 0; i < NR_DIRECTIVES; i++)
		if (tok_is(t, directives[i].name))
			return &directives[i];
	return NULL;
}

int run_directive(struct parser *P, const struct directive *d, const struct tok *tk, uint32_t n)
{
	if (P->finalized)
		return fail_tok(P, P->line, &tk[0],
				"expected an op or repeat (directives go before the first op, line %u), "
				"got '%s'", P->first_op_line, qtok(P, &tk[0]));
	return d->fn(P, tk, n);
}
