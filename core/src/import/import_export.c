/* svz_trace_to_v1(): a parsed or imported trace written back as native v1
 * text (docs/trace-format.md) that parses into the same config, caches and
 * ops, so an imported trace can be saved and replayed identically.
 *
 * The topology is always written out; the kernel switches as the preset
 * plus a `set` for every switch that differs from it; repeat blocks come
 * out expanded. */
#include "slubviz/import.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slubviz/gfp.h"
#include "slubviz/sizing.h"
#include "lib/sbuf.h"

static void put_switches(struct sbuf *b, const struct svz_config *cfg)
{
	static const char *const era[] = { "sheaves", "classic" };
	static const char *const src[] = { "online", "present", "possible" };
	static const char *const form[] = { "fraction", "loop" };
	const struct svz_switches *sw = &cfg->sw;
	struct svz_config ref;
	svz_config_default(&ref);
	if (cfg->preset[0] && svz_preset_apply(&ref, cfg->preset) == 0)
		sb_printf(b, "preset %s\n", cfg->preset);
	const struct svz_switches *r = &ref.sw;
	struct sbuf sets = { 0 };
	if (sw->era != r->era && (unsigned)sw->era < 2)
		sb_printf(&sets, " era=%s", era[sw->era]);
	if (sw->cpu_source != r->cpu_source && (unsigned)sw->cpu_source < 3)
		sb_printf(&sets, " cpu_source=%s", src[sw->cpu_source]);
	if (sw->order_form != r->order_form && (unsigned)sw->order_form < 2)
		sb_printf(&sets, " order_form=%s", form[sw->order_form]);
	if (sw->kernel != r->kernel)
		sb_printf(&sets, " kernel=%u.%u", sw->kernel / 100, sw->kernel % 100);
	/* every on/off switch, from the one list (a switch missing here would
	 * be lost on the way back: try_thisnode, frozen_partial...) */
#define VALUE_SWITCH(name, choices, what)
#define BOOL_SWITCH(key, field, alias, what) \
	if (sw->field != r->field) \
		sb_printf(&sets, " " #key "=%d", sw->field ? 1 : 0);
#include "model/switches.def"
#undef BOOL_SWITCH
#undef VALUE_SWITCH
	if (sets.oom)
		b->oom = true;
	if (sets.len)
		sb_printf(b, "set%s\n", sets.s);
	sb_free(&sets);
	if (sw->seed != r->seed)
		sb_printf(b, "seed %" PRIu64 "\n", sw->seed);
}

/* The schedule (docs/trace-format.md §3.1): its kind, cost overrides and
 * explicit steps, as the parser reads them. */
static void put_schedule(struct sbuf *b, const struct svz_trace *t)
{
	const struct svz_schedule *s = &t->config.sched;
	char buf[64];
	if (s->kind != SVZ_SCHED_SERIAL) {
		svz_schedule_text(s, buf, sizeof buf);
		sb_printf(b, "schedule %s\n", buf);
	}
	const char *key, *what;
	uint64_t cycles;
	for (int i = 0; svz_cost_info(i, &key, &cycles, &what) == 0; i++)
		if (s->cost[i])
			sb_printf(b, "set cost.%s=%u\n", key, s->cost[i] - 1);
	for (uint32_t i = 0; i < t->nr_steps; i++) {
		svz_sched_step_text(&t->steps[i], buf, sizeof buf);
		sb_printf(b, "%s%s%s", i % 16 ? " " : "steps ", buf, i % 16 == 15 || i + 1 == t->nr_steps ? "\n" : "");
	}
}

static void put_topology(struct sbuf *b, const struct svz_topology *t)
{
	if (t->page_size && t->page_size != 4096)
		sb_printf(b, "page_size %u\n", t->page_size);
	for (int n = 0; n < t->nr_nodes; n++) {
		sb_printf(b, "node %d mem=", n);
		sb_size(b, t->node_mem_bytes[n]);
		sb_putn(b, "\n", 1);
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
			sb_printf(b, "%s%d", any ? "," : "cpus ", c);
			if (e > c)
				sb_printf(b, "-%d", e);
			any = true;
			c = e + 1;
		}
		if (any)
			sb_printf(b, " node=%d\n", n);
	}
	if (t->possible != t->nr_cpus || t->present != t->nr_cpus || t->online != t->nr_cpus)
		sb_printf(b, "cpu_counts possible=%d present=%d online=%d\n", t->possible,
			  t->present, t->online);
}

/* "PREFIX" of a bulk op's first handle "PREFIX[0]". */
static void put_prefix(struct sbuf *b, const char *first)
{
	const char *br = strrchr(first, '[');
	sb_putn(b, first, br ? (size_t)(br - first) : strlen(first));
}

static void put_word(struct sbuf *b, const char *s)
{
	sb_putc(b, ' ');
	sb_puts(b, s);
}

static void put_num(struct sbuf *b, uint32_t v)
{
	sb_putc(b, ' ');
	sb_putu(b, v);
}

char *svz_trace_to_v1(const struct svz_trace *t, size_t *len)
{
	struct sbuf b = { 0 };
	char gfp[200], flags[200];

	if (t->description && t->description[0]) {
		const char *p = t->description;
		for (;;) {
			const char *nl = strchr(p, '\n');
			size_t n = nl ? (size_t)(nl - p) : strlen(p);
			sb_putn(&b, "#", 1);
			if (n)
				sb_putn(&b, " ", 1);
			sb_putn(&b, p, n);
			sb_putn(&b, "\n", 1);
			if (!nl)
				break;
			p = nl + 1;
		}
	}
	sb_printf(&b, "slubviz-trace 1\n");
	put_topology(&b, &t->config.topo);
	put_switches(&b, &t->config);
	put_schedule(&b, t);
	for (uint32_t i = 0; i < t->nr_caches; i++) {
		const struct svz_cache_decl *d = &t->caches[i];
		sb_printf(&b, "cache %s size=%u", d->name, d->object_size);
		if (d->align)
			sb_printf(&b, " align=%u", d->align);
		if (d->flags) {
			svz_slab_flags_format(d->flags, flags, sizeof flags);
			sb_printf(&b, " flags=%s", flags);
		}
		if (d->ctor)
			sb_printf(&b, " ctor");
		if (d->sheaf_capacity)
			sb_printf(&b, " sheaf_capacity=%u", d->sheaf_capacity);
		sb_putn(&b, "\n", 1);
	}
	/* The op lines are most of the text (a 1M-line import, 937k of them):
	 * written piece by piece, not through sb_printf()'s format parsing
	 * (most of the export's time in the page), and the gfp text kept
	 * for the next op with the same flags. */
	uint32_t gfp_of = GFP_KERNEL; /* never formatted: the first other flags are */
	for (uint32_t i = 0; i < t->nr_ops && !b.oom; i++) {
		const struct svz_op *o = &t->ops[i];
		const char *cache = o->cache < t->nr_caches ? t->caches[o->cache].name : "?";
		bool has_gfp = false, has_node = false, has_at = true;
		sb_putc(&b, 'c');
		sb_putu(&b, o->cpu);
		put_word(&b, svz_op_name((enum svz_op_type)o->type));
		switch (o->type) {
		case SVZ_OP_ALLOC:
			put_word(&b, cache);
			put_word(&b, t->handle_names[o->handle]);
			has_gfp = has_node = true;
			break;
		case SVZ_OP_FREE:
			put_word(&b, cache);
			put_word(&b, t->handle_names[o->handle]);
			break;
		case SVZ_OP_KMALLOC:
			put_num(&b, o->size);
			put_word(&b, t->handle_names[o->handle]);
			has_gfp = has_node = true;
			break;
		case SVZ_OP_KFREE:
			put_word(&b, t->handle_names[o->handle]);
			break;
		case SVZ_OP_ALLOC_BULK:
		case SVZ_OP_FREE_BULK:
			put_word(&b, cache);
			put_num(&b, o->count);
			sb_putc(&b, ' ');
			put_prefix(&b, t->handle_names[t->handle_lists[o->handle]]);
			has_gfp = o->type == SVZ_OP_ALLOC_BULK;
			break;
		case SVZ_OP_PREFILL:
			put_word(&b, cache);
			put_num(&b, o->count);
			put_word(&b, t->handle_names[o->sheaf]);
			has_gfp = true;
			break;
		case SVZ_OP_ALLOC_FROM_SHEAF:
			put_word(&b, cache);
			put_word(&b, t->handle_names[o->sheaf]);
			put_word(&b, t->handle_names[o->handle]);
			has_gfp = true;
			break;
		case SVZ_OP_RETURN_SHEAF:
			put_word(&b, cache);
			put_word(&b, t->handle_names[o->sheaf]);
			has_gfp = true;
			break;
		case SVZ_OP_KFREE_RCU:
			put_word(&b, t->handle_names[o->handle]);
			break;
		case SVZ_OP_RCU_BARRIER:
			has_at = false;
			break;
		case SVZ_OP_WORK:
			put_num(&b, o->count);
			has_at = false;
			break;
		case SVZ_OP_FLUSH:
		case SVZ_OP_FLUSH_ALL:
		case SVZ_OP_SHRINK:
		case SVZ_OP_DESTROY:
			put_word(&b, cache);
			has_at = false;
			break;
		default: /* an op this exporter does not know yet: the round trip tests catch it */
			sb_printf(&b, " # op type %u not exportable", o->type);
			has_at = false;
			break;
		}
		if (has_gfp && o->gfp != GFP_KERNEL) {
			if (o->gfp != gfp_of) {
				svz_gfp_format(o->gfp, gfp, sizeof gfp);
				if (strlen(gfp) >= 120) /* the v1 parser takes gfp= values below 128 bytes */
					snprintf(gfp, sizeof gfp, "0x%x", o->gfp);
				gfp_of = o->gfp;
			}
			sb_puts(&b, " gfp=");
			sb_puts(&b, gfp);
		}
		if (has_node && o->node >= 0) {
			sb_puts(&b, " node=");
			sb_putu(&b, (uint32_t)o->node);
		}
		if (has_at && o->site && o->site < t->nr_sites) {
			sb_puts(&b, " at=");
			sb_puts(&b, t->sites[o->site]);
		}
		sb_putc(&b, '\n');
	}
	if (b.oom) {
		free(b.s);
		return NULL;
	}
	if (!b.s)
		sb_putn(&b, "", 0);
	if (len)
		*len = b.len;
	return b.s;
}
