/* Events: one per micro-step, kept in a ring for the API and streamed to a
 * sink (the CLI's --events). The schema is docs/events.md (version
 * SVZ_EVENT_SCHEMA); text and JSON are rendered from the same fields. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/engine.h"
#include "model/timing.h"
#include "slubviz/slubviz.h"

const char *const kfn_names[KFN__COUNT] = {
#define X(n) [KFN_##n] = #n,
	KFN_LIST(X)
#undef X
};

const char *const ev_kind_names[EV__COUNT] = {
#define X(k, s) [EV_##k] = s,
	EV_KINDS(X)
#undef X
};

const char *const loc_names[LOC__COUNT] = {
#define X(k, s) [LOC_##k] = s,
	LOCS(X)
#undef X
};

const char *const check_names[CHK__COUNT] = {
#define X(k, s) [CHK_##k] = #k,
	CHECKS(X)
#undef X
};

const char *const check_texts[CHK__COUNT] = {
#define X(k, s) [CHK_##k] = s,
	CHECKS(X)
#undef X
};

const char *const lock_names[LK__COUNT] = {
#define X(lk, name) [lk] = name,
	LOCK_KINDS(X)
#undef X
};

/* ev_record()'s rest, where an event needs more than its slot
 * (m->ev_more): a timed run's clock and price, a sink's copy. */
void ev_record_more(struct model *m, int cpu, struct event *ev)
{
	struct world *w = WORLD(m);
	if (w->cfg.sched.kind == SVZ_SCHED_TIMED) {
		uint64_t x = timing_price(m, cpu);
		ev->t = w->cpus[cpu].clock;
		ev->cycles = x > UINT32_MAX ? UINT32_MAX : (uint32_t)x;
	}
	if (m->sink)
		m->sink(m->sink_ctx, m, ev);
}

static const char *lock_name(const struct event *e)
{
	return lock_names[e->lock < LK__COUNT ? e->lock : LK_NONE];
}

void model_report(struct model *m, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	size_t len = strlen(buf);
	if (m->report_len + len + 2 > m->report_cap) {
		size_t cap = (m->report_cap + len + 2) * 2;
		char *r = realloc(m->report, cap);
		if (!r)
			return;
		m->report = r;
		m->report_cap = cap;
	}
	memcpy(m->report + m->report_len, buf, len);
	m->report_len += len;
	if (len == 0 || buf[len - 1] != '\n')
		m->report[m->report_len++] = '\n';
	m->report[m->report_len] = 0;
	WORLD(m)->reports++;
	if (!m->run_error[0])
		snprintf(m->run_error, sizeof m->run_error, "%s", buf);
}

static void where(const struct model *cm, idx_t cache, char *buf, size_t len)
{
	struct model *m = (struct model *)cm;
	snprintf(buf, len, "%s", cache != NIL ? cache_r(m, cache)->name : "-");
}

/* One line of plain English per event kind. */
void event_text(const struct model *cm, const struct event *e, char *buf, size_t len)
{
	struct model *m = (struct model *)cm;
	char cname[72], subj[160] = "";
	where(cm, e->cache, cname, sizeof cname);
	if (e->obj != NIL)
		snprintf(subj, sizeof subj, "object %016llx", (unsigned long long)obj_addr(m, e->obj));
	char slab[48] = "";
	if (e->slab != NIL)
		snprintf(slab, sizeof slab, "slab %016llx", (unsigned long long)slab_addr(m, e->slab));
	char head[64];
	snprintf(head, sizeof head, "#%lld op %u cpu %d %s", (long long)e->seq, e->op, e->cpu,
		 kfn_names[e->fn]);
	const char *from = loc_names[e->from], *to = loc_names[e->to];
	const char *lname = lock_name(e);
	switch ((enum ev_kind)e->kind) {
	case EV_LOCK:
		snprintf(buf, len, "%s: lock %s (node %d) [%s]", head, lname, e->node, cname);
		break;
	case EV_UNLOCK:
		snprintf(buf, len, "%s: unlock %s (node %d) [%s]", head, lname, e->node, cname);
		break;
	case EV_TRYLOCK_FAIL:
		snprintf(buf, len, "%s: trylock of %s (node %d) failed: held by cpu %lld [%s]", head,
			 lname, e->node, (long long)e->value, cname);
		break;
	case EV_SPIN:
		snprintf(buf, len, "%s: spin on %s (node %d) held by cpu %lld [%s]", head,
			 lname, e->node, (long long)e->value, cname);
		break;
	case EV_CMPXCHG:
		if (e->from == LOC_CPU_FREELIST || e->to == LOC_CPU_FREELIST) {
			snprintf(buf, len, "%s: this_cpu_cmpxchg of (c->freelist, tid): %d object(s) %s, tid now %lld [%s]",
				 head, e->count < 0 ? -e->count : e->count,
				 e->count < 0 ? "freed onto c->freelist" : "taken off c->freelist",
				 (long long)e->value, cname);
			break;
		}
		snprintf(buf, len, "%s: cmpxchg %s freelist: %d object(s) %s, inuse now %lld [%s]", head,
			 slab, e->count < 0 ? -e->count : e->count, e->count < 0 ? "freed" : "taken",
			 (long long)e->value, cname);
		break;
	case EV_TAKE_OBJECT:
		snprintf(buf, len, "%s: take %d object(s) from %s to %s%s%s (%s %lld) [%s]", head, e->count,
			 from, to, subj[0] ? ", last " : "", subj, e->sheaf != NIL ? "sheaf size" : "left",
			 (long long)e->value, cname);
		break;
	case EV_PUT_OBJECT:
		snprintf(buf, len, "%s: put %d object(s) from %s to %s%s%s (%s %lld) [%s]", head, e->count,
			 from, to, subj[0] ? ", last " : "", subj, e->sheaf != NIL ? "sheaf size" : "now",
			 (long long)e->value, cname);
		break;
	case EV_MOVE_SLAB:
		if (e->slab == NIL) {
			snprintf(buf, len, "%s: move %d slab(s) from %s to %s (node %d, nr_partial now %lld) [%s]",
				 head, e->count, from, to, e->node, (long long)e->value, cname);
			break;
		}
		snprintf(buf, len, "%s: move %s (node %d, inuse %lld) from %s to %s%s [%s]", head, slab,
			 e->node, (long long)e->value, from, to,
			 e->to == LOC_PARTIAL ? (e->item ? " tail" : " head") : "", cname);
		break;
	case EV_MOVE_SHEAF:
		if (e->sheaf == NIL) { /* barn_shrink(): every sheaf of the barn at once */
			snprintf(buf, len, "%s: move %d sheaf(s) out of the barn (node %d) [%s]", head,
				 e->count, e->node, cname);
			break;
		}
		snprintf(buf, len, "%s: move sheaf #%u (%lld objects) from %s to %s (node %d) [%s]", head,
			 e->sheaf, (long long)e->value, from, to, e->node, cname);
		break;
	case EV_STAT:
		snprintf(buf, len, "%s: stat %s += %d (cpu total %lld) [%s]", head, stat_names[e->item],
			 e->count, (long long)e->value, cname);
		break;
	case EV_NEW_SLAB:
		snprintf(buf, len, "%s: new %s on node %d: order %d, %lld objects, %s [%s]",
			 head, slab, e->node, e->count, (long long)e->value,
			 e->item ? "freelist not built yet (deferred)" : "freelist built", cname);
		break;
	case EV_DISCARD_SLAB:
		snprintf(buf, len, "%s: discard empty %s (node %d) [%s]", head, slab, e->node, cname);
		break;
	case EV_PAGE_ALLOC:
		snprintf(buf, len, "%s: page allocator: order-%d pages on node %d (pfn %lld) [%s]", head,
			 e->count, e->node, (long long)e->value, cname);
		break;
	case EV_PAGE_FREE:
		snprintf(buf, len, "%s: page allocator: free order-%d pages on node %d [%s]", head,
			 e->count, e->node, cname);
		break;
	case EV_PAGE_ALLOC_FAIL:
		snprintf(buf, len, "%s: page allocator: order-%d allocation failed [%s]", head, e->count, cname);
		break;
	case EV_SHEAF_NEW:
		snprintf(buf, len, "%s: allocate empty sheaf #%u (capacity %lld) [%s]", head, e->sheaf,
			 (long long)e->value, cname);
		break;
	case EV_SHEAF_FREE:
		snprintf(buf, len, "%s: free empty sheaf #%u [%s]", head, e->sheaf, cname);
		break;
	case EV_CHECK:
		snprintf(buf, len, "%s: %s [%s]", head, check_text(e), cname);
		break;
	case EV_RETURN:
		if (e->obj != NIL)
			snprintf(buf, len, "%s: return %s to the caller [%s]", head, subj, cname);
		else
			snprintf(buf, len, "%s: return %lld [%s]", head, (long long)e->value, cname);
		break;
	case EV_REPORT:
		snprintf(buf, len, "%s: error reported (see report) [%s]", head, cname);
		break;
	default:
		snprintf(buf, len, "%s: ?", head);
	}
}

void event_json(const struct model *cm, const struct event *e, char *buf, size_t len)
{
	struct model *m = (struct model *)cm;
	char text[512];
	event_text(cm, e, text, sizeof text);
	/* the text holds no quotes or backslashes (names are validated) */
	int n = snprintf(buf, len,
		"{\"seq\":%lld,\"op\":%u,\"cpu\":%d,\"fn\":\"%s\",\"kind\":\"%s\"",
		(long long)e->seq, e->op, e->cpu, kfn_names[e->fn], ev_kind_names[e->kind]);
#define ADD(...) do { if (n >= 0 && (size_t)n < len) n += snprintf(buf + n, len - (size_t)n, __VA_ARGS__); } while (0)
	if (e->cache != NIL)
		ADD(",\"cache\":%u", e->cache);
	if (e->slab != NIL)
		ADD(",\"slab\":%u", e->slab);
	if (e->obj != NIL)
		ADD(",\"obj\":%u,\"addr\":\"%016llx\"", e->obj, (unsigned long long)obj_addr(m, e->obj));
	if (e->sheaf != NIL)
		ADD(",\"sheaf\":%u", e->sheaf);
	if (e->node >= 0)
		ADD(",\"node\":%d", e->node);
	if (e->from || e->to)
		ADD(",\"from\":\"%s\",\"to\":\"%s\"", loc_names[e->from], loc_names[e->to]);
	if (e->lock)
		ADD(",\"lock\":\"%s\"", lock_name(e));
	if (e->kind == EV_MOVE_SLAB && e->to == LOC_PARTIAL)
		ADD(",\"where\":\"%s\"", e->item ? "tail" : "head");
	if (e->kind == EV_STAT)
		ADD(",\"stat\":\"%s\"", stat_names[e->item]);
	if (e->kind == EV_CHECK)
		ADD(",\"check\":\"%s\"", check_names[e->item]);
	if (WORLD(m)->cfg.sched.kind == SVZ_SCHED_TIMED)
		ADD(",\"t\":%llu,\"cycles\":%u", (unsigned long long)e->t, e->cycles);
	ADD(",\"count\":%d,\"value\":%lld,\"text\":\"%s\"}", e->count, (long long)e->value, text);
#undef ADD
}
