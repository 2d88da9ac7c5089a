/* svz_trace_to_v1(): a parsed or imported trace written back as native v1
 * text (docs/trace-format.md) that parses into the same config, caches and
 * ops, so an imported trace can be saved and replayed identically.
 *
 * The topology is always written out; the kernel switches as the preset
 * plus a `set` for every switch that differs from it; repeat blocks come
 * out expanded. */
#include "slubviz/import.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slubviz/gfp.h"
#include "slubviz/sizing.h"

struct obuf {
	char *s;
	size_t len, cap;
	bool oom;
};

static bool ob_reserve(struct obuf *b, size_t n)
{
	if (b->oom)
		return false;
	if (b->len + n + 1 <= b->cap)
		return true;
	size_t cap = b->cap ? b->cap : 4096;
	while (cap < b->len + n + 1) {
		if (cap > SIZE_MAX / 2) {
			b->oom = true;
			return false;
		}
		cap *= 2;
	}
	char *s = realloc(b->s, cap);
	if (!s) {
		b->oom = true;
		return false;
	}
	b->s = s;
	b->cap = cap;
	return true;
}

static void ob_put(struct obuf *b, const char *s, size_t n)
{
	if (!ob_reserve(b, n))
		return;
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
}

static void ob_printf(struct obuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ob_printf(struct obuf *b, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof tmp) {
		ob_put(b, tmp, (size_t)n);
		return;
	}
	if (!ob_reserve(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

static void put_size(struct obuf *b, uint64_t v)
{
	static const char suf[] = "KMGT";
	int k = -1;
	while (v && v % 1024 == 0 && k < 3) {
		v /= 1024;
		k++;
	}
	if (k >= 0)
		ob_printf(b, "%" PRIu64 "%c", v, suf[k]);
	else
		ob_printf(b, "%" PRIu64, v);
}

static void put_switches(struct obuf *b, const struct svz_config *cfg)
{
	static const char *const era[] = { "sheaves", "classic" };
	static const char *const src[] = { "online", "present", "possible" };
	static const char *const form[] = { "fraction", "loop" };
	const struct svz_switches *sw = &cfg->sw;
	struct svz_config ref;
	svz_config_default(&ref);
	if (cfg->preset[0] && svz_preset_apply(&ref, cfg->preset) == 0)
		ob_printf(b, "preset %s\n", cfg->preset);
	const struct svz_switches *r = &ref.sw;
	struct obuf sets = { 0 };
	if (sw->era != r->era && (unsigned)sw->era < 2)
		ob_printf(&sets, " era=%s", era[sw->era]);
	if (sw->cpu_source != r->cpu_source && (unsigned)sw->cpu_source < 3)
		ob_printf(&sets, " cpu_source=%s", src[sw->cpu_source]);
	if (sw->order_form != r->order_form && (unsigned)sw->order_form < 2)
		ob_printf(&sets, " order_form=%s", form[sw->order_form]);
#define B(field, key) \
	if (sw->field != r->field) \
		ob_printf(&sets, " " key "=%d", sw->field ? 1 : 0);
	B(freelist_random, "freelist_random")
	B(freelist_hardened, "freelist_hardened")
	B(refill_on_spin, "fix1")
	B(barn_all_nodes, "fix2")
	B(deferred_freelist, "deferred_freelist")
	B(batched_partial, "batched_partial")
	B(continue_on_error, "continue_on_error")
#undef B
	if (sets.oom)
		b->oom = true;
	if (sets.len)
		ob_printf(b, "set%s\n", sets.s);
	free(sets.s);
	if (sw->seed != r->seed)
		ob_printf(b, "seed %" PRIu64 "\n", sw->seed);
}

static void put_topology(struct obuf *b, const struct svz_topology *t)
{
	if (t->page_size && t->page_size != 4096)
		ob_printf(b, "page_size %u\n", t->page_size);
	for (int n = 0; n < t->nr_nodes; n++) {
		ob_printf(b, "node %d mem=", n);
		put_size(b, t->node_mem_bytes[n]);
		ob_put(b, "\n", 1);
	}
	for (int n = 0; n < t->nr_nodes; n++) {
		bool any = false;
		for (int c = 0; c < t->nr_cpus;) {
			if (t->cpu_node[c] != n) {
				c++;
				continue;
			}
			int e = c;
			while (e + 1 < t->nr_cpus && t->cpu_node[e + 1] == n)
				e++;
			ob_printf(b, "%s%d", any ? "," : "cpus ", c);
			if (e > c)
				ob_printf(b, "-%d", e);
			any = true;
			c = e + 1;
		}
		if (any)
			ob_printf(b, " node=%d\n", n);
	}
	if (t->possible != t->nr_cpus || t->present != t->nr_cpus || t->online != t->nr_cpus)
		ob_printf(b, "cpu_counts possible=%d present=%d online=%d\n", t->possible,
			  t->present, t->online);
}

/* "PREFIX" of a bulk op's first handle "PREFIX[0]". */
static void put_prefix(struct obuf *b, const char *first)
{
	const char *br = strrchr(first, '[');
	ob_put(b, first, br ? (size_t)(br - first) : strlen(first));
}

char *svz_trace_to_v1(const struct svz_trace *t, size_t *len)
{
	struct obuf b = { 0 };
	char gfp[200], flags[200];

	if (t->description && t->description[0]) {
		const char *p = t->description;
		for (;;) {
			const char *nl = strchr(p, '\n');
			size_t n = nl ? (size_t)(nl - p) : strlen(p);
			ob_put(&b, "#", 1);
			if (n)
				ob_put(&b, " ", 1);
			ob_put(&b, p, n);
			ob_put(&b, "\n", 1);
			if (!nl)
				break;
			p = nl + 1;
		}
	}
	ob_printf(&b, "slubviz-trace 1\n");
	put_topology(&b, &t->config.topo);
	put_switches(&b, &t->config);
	for (uint32_t i = 0; i < t->nr_caches; i++) {
		const struct svz_cache_decl *d = &t->caches[i];
		ob_printf(&b, "cache %s size=%u", d->name, d->object_size);
		if (d->align)
			ob_printf(&b, " align=%u", d->align);
		if (d->flags) {
			svz_slab_flags_format(d->flags, flags, sizeof flags);
			ob_printf(&b, " flags=%s", flags);
		}
		if (d->ctor)
			ob_printf(&b, " ctor");
		if (d->sheaf_capacity)
			ob_printf(&b, " sheaf_capacity=%u", d->sheaf_capacity);
		ob_put(&b, "\n", 1);
	}
	for (uint32_t i = 0; i < t->nr_ops && !b.oom; i++) {
		const struct svz_op *o = &t->ops[i];
		const char *cache = o->cache < t->nr_caches ? t->caches[o->cache].name : "?";
		bool has_gfp = false, has_node = false, has_at = true;
		ob_printf(&b, "c%u %s", o->cpu, svz_op_name((enum svz_op_type)o->type));
		switch (o->type) {
		case SVZ_OP_ALLOC:
			ob_printf(&b, " %s %s", cache, t->handle_names[o->handle]);
			has_gfp = has_node = true;
			break;
		case SVZ_OP_FREE:
			ob_printf(&b, " %s %s", cache, t->handle_names[o->handle]);
			break;
		case SVZ_OP_KMALLOC:
			ob_printf(&b, " %u %s", o->size, t->handle_names[o->handle]);
			has_gfp = has_node = true;
			break;
		case SVZ_OP_KFREE:
			ob_printf(&b, " %s", t->handle_names[o->handle]);
			break;
		case SVZ_OP_ALLOC_BULK:
		case SVZ_OP_FREE_BULK:
			ob_printf(&b, " %s %u ", cache, o->count);
			put_prefix(&b, t->handle_names[t->handle_lists[o->handle]]);
			has_gfp = o->type == SVZ_OP_ALLOC_BULK;
			break;
		case SVZ_OP_PREFILL:
			ob_printf(&b, " %s %u %s", cache, o->count, t->handle_names[o->sheaf]);
			has_gfp = true;
			break;
		case SVZ_OP_ALLOC_FROM_SHEAF:
			ob_printf(&b, " %s %s %s", cache, t->handle_names[o->sheaf],
				  t->handle_names[o->handle]);
			has_gfp = true;
			break;
		case SVZ_OP_RETURN_SHEAF:
			ob_printf(&b, " %s %s", cache, t->handle_names[o->sheaf]);
			has_gfp = true;
			break;
		case SVZ_OP_KFREE_RCU:
			ob_printf(&b, " %s", t->handle_names[o->handle]);
			break;
		case SVZ_OP_RCU_BARRIER:
			has_at = false;
			break;
		case SVZ_OP_FLUSH:
		case SVZ_OP_FLUSH_ALL:
		case SVZ_OP_SHRINK:
		case SVZ_OP_DESTROY:
			ob_printf(&b, " %s", cache);
			has_at = false;
			break;
		default: /* an op this exporter does not know yet: the round trip tests catch it */
			ob_printf(&b, " # op type %u not exportable", o->type);
			has_at = false;
			break;
		}
		if (has_gfp && o->gfp != GFP_KERNEL) {
			svz_gfp_format(o->gfp, gfp, sizeof gfp);
			if (strlen(gfp) >= 120) /* the v1 parser takes gfp= values below 128 bytes */
				snprintf(gfp, sizeof gfp, "0x%x", o->gfp);
			ob_printf(&b, " gfp=%s", gfp);
		}
		if (has_node && o->node >= 0)
			ob_printf(&b, " node=%d", o->node);
		if (has_at && o->site && o->site < t->nr_sites)
			ob_printf(&b, " at=%s", t->sites[o->site]);
		ob_put(&b, "\n", 1);
	}
	if (b.oom) {
		free(b.s);
		return NULL;
	}
	if (!b.s)
		ob_put(&b, "", 0);
	if (len)
		*len = b.len;
	return b.s;
}
