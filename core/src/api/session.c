/* The C API (slubviz/slubviz.h): sessions over the model.
 *
 * A session owns a parsed trace, the model built from it, the event ring,
 * checkpoints and one text buffer per view. Handles are table index + 1 and
 * are reused after svz_close(). Returned strings live in the session (or in
 * a static buffer for svz_last_error) until the next call that rewrites
 * them.
 *
 * Events. ev_emit() writes event `seq` into m->ring[seq % ring_cap]. A ring
 * slot is readable when it holds the seq asked for and that seq lies in the
 * session's valid window [valid_lo, world.seq): events from before the
 * window were never recorded (events were off) or belong to a history that
 * time travel abandoned.
 *
 * Time travel. A checkpoint copies the arena (every model record, the
 * world's seq and counters included; the pools' free capacity left out,
 * arena_pack()), the report log and run_error. After a
 * restore the model continues on a new timeline. Timelines form a tree:
 * each remembers its parent and the seq where it forked, so a restore can
 * tell how far the ring's current contents agree with the restored state's
 * past and keep exactly those events. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/engine.h"
#include "model/model.h"
#include "api/session.h"
#include "api/views.h"
#include "slubviz/import.h"

#define RING_CAP SVZ_EVENT_RING_CAP
_Static_assert((RING_CAP & (RING_CAP - 1)) == 0, "ev_record() masks seq: a power of two");
#define VALIDATE_OUT (1u << 16)

struct checkpoint {
	bool used;
	uint8_t *mem;
	size_t size;
	char *report;          /* copy of the report log (report_len bytes) */
	size_t report_len;
	char run_error[sizeof ((struct model *)0)->run_error];
	int timeline;
	int64_t seq;
};

struct timeline {
	int parent;            /* -1 for the first */
	int64_t fork;          /* history agrees with the parent's below this seq */
};

struct session {
	struct svz_trace trace; /* the model points at it; its arrays are shared
				 * by the sessions svz_reopen() made (trace_refs) */
	int *trace_refs;        /* sessions sharing the arrays (NULL: this one alone) */
	struct svz_config parsed_config; /* the trace's own, before preset and sets */
	struct model m;
	bool model_ok;
	int64_t valid_lo;      /* ring events below this seq are not ours */
	struct checkpoint *cps;
	int ncps;
	struct timeline *tls;
	int ntls, cur_tl;
	struct sbuf out;       /* last view / events text */
	char *validate_buf;
	char *import_text, *import_json; /* import report (svz_open_any, imports) */
	bool aliases_noted;    /* the report names the caches merged under this preset */
	char *import_text0, *import_json0; /* the report before those notes (svz_reopen()) */
	char *export_v1;       /* last svz_export_v1() */
	struct owners_memo owners_sent; /* what svz_session_snapshot_lean_json() sent */
};

static struct session **table;
static int table_len;
static char last_error[1024];

/* The session, as it is: its model may not be built yet. */
static struct session *peek(int h)
{
	if (h < 1 || h > table_len)
		return NULL;
	return table[h - 1];
}

static ARENA_MOVES bool model_ready(struct session *s);

/* The session with its model: built on first use (NULL if memory ran out). */
static ARENA_MOVES struct session *get(int h)
{
	struct session *s = peek(h);
	return s && model_ready(s) ? s : NULL;
}

const char *svz_last_error(void)
{
	return last_error;
}

struct model *svz_session_model(int h)
{
	struct session *s = get(h);
	return s ? &s->m : NULL;
}

const struct svz_trace *svz_session_trace(int h)
{
	struct session *s = peek(h);
	return s ? &s->trace : NULL;
}

static void session_free(struct session *s)
{
	if (!s)
		return;
	if (s->model_ok || s->m.mem)
		model_destroy(&s->m);
	free(s->m.ring);
	free(s->m.report);
	for (int i = 0; i < s->ncps; i++) {
		free(s->cps[i].mem);
		free(s->cps[i].report);
	}
	free(s->cps);
	free(s->tls);
	sb_free(&s->out);
	free(s->validate_buf);
	free(s->import_text);
	free(s->import_json);
	free(s->import_text0);
	free(s->import_json0);
	free(s->export_v1);
	owners_memo_free(&s->owners_sent);
	/* the arrays go with the last session over them */
	if (!s->trace_refs || --*s->trace_refs == 0) {
		svz_trace_free(&s->trace);
		free(s->trace_refs);
	}
	free(s);
}

/* Trim leading and trailing blanks in place. */
static char *trim(char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\r')
		p++;
	size_t n = strlen(p);
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\r'))
		p[--n] = 0;
	return p;
}

/* "key=value" lines; blank lines and '#' comments are skipped. */
static int apply_sets(struct svz_config *cfg, const char *sets)
{
	if (!sets)
		return 0;
	size_t len = strlen(sets);
	char *copy = malloc(len + 1);
	if (!copy) {
		snprintf(last_error, sizeof last_error, "out of memory");
		return -1;
	}
	memcpy(copy, sets, len + 1);
	int rc = 0;
	for (char *line = copy; line && !rc;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		char *p = trim(line);
		line = nl ? nl + 1 : NULL;
		if (!*p || *p == '#')
			continue;
		char *eq = strchr(p, '=');
		if (!eq || eq == p) {
			snprintf(last_error, sizeof last_error,
				 "set: expected KEY=VALUE, got '%.64s'", p);
			rc = -1;
			break;
		}
		*eq = 0;
		char *key = trim(p), *value = trim(eq + 1);
		char err[512];
		if (svz_config_set(cfg, key, value, err, sizeof err)) {
			snprintf(last_error, sizeof last_error, "set %.48s: %s", key, err);
			rc = -1;
		}
	}
	free(copy);
	return rc;
}

/* Model, ring and table slot for a session whose trace is parsed: the
 * handle, or -1 (s freed, last_error set). */
static ARENA_MOVES int session_start(struct session *s, const char *preset, const char *sets);

int svz_open(const char *trace_text, const char *preset, const char *sets)
{
	last_error[0] = 0;
	struct session *s = calloc(1, sizeof *s);
	if (!s) {
		snprintf(last_error, sizeof last_error, "out of memory");
		return -1;
	}
	struct svz_config base;
	struct svz_error err;
	svz_config_default(&base);
	const char *text = trace_text ? trace_text : "";
	if (svz_trace_parse(text, strlen(text), &base, &s->trace, &err)) {
		svz_error_format(&err, "trace", last_error, sizeof last_error);
		free(s);
		return -1;
	}
	return session_start(s, preset, sets);
}

int svz_session_adopt(struct svz_trace *t, const char *preset, const char *sets, char *import_text,
		      char *import_json)
{
	last_error[0] = 0;
	struct session *s = calloc(1, sizeof *s);
	if (!s) {
		snprintf(last_error, sizeof last_error, "out of memory");
		svz_trace_free(t);
		free(import_text);
		free(import_json);
		return -1;
	}
	s->trace = *t;
	memset(t, 0, sizeof *t);
	s->import_text = import_text;
	s->import_json = import_json;
	return session_start(s, preset, sets);
}

static char *copy_text(const char *t)
{
	size_t n = strlen(t) + 1;
	char *c = malloc(n);
	return c ? memcpy(c, t, n) : NULL;
}

int svz_reopen(int h, const char *preset, const char *sets)
{
	last_error[0] = 0;
	struct session *src = peek(h);
	if (!src) {
		snprintf(last_error, sizeof last_error, "no session %d", h);
		return -1;
	}
	struct session *s = calloc(1, sizeof *s);
	if (!src->trace_refs && (src->trace_refs = calloc(1, sizeof *src->trace_refs)))
		*src->trace_refs = 1;
	if (!s || !src->trace_refs) {
		free(s);
		snprintf(last_error, sizeof last_error, "out of memory");
		return -1;
	}
	/* the same parsed trace, read only from here on: its arrays shared,
	 * its config the trace's own again */
	s->trace = src->trace;
	s->trace.config = src->parsed_config;
	s->trace_refs = src->trace_refs;
	++*s->trace_refs;
	/* an import's report comes with its trace, without the notes of the
	 * first session's preset (note_aliases()) */
	const char *text = src->import_text0 ? src->import_text0 : src->import_text;
	const char *json = src->import_json0 ? src->import_json0 : src->import_json;
	if ((text && !(s->import_text = copy_text(text))) || (json && !(s->import_json = copy_text(json)))) {
		snprintf(last_error, sizeof last_error, "out of memory");
		session_free(s);
		return -1;
	}
	return session_start(s, preset, sets);
}

void svz_session_set_error(const char *msg)
{
	snprintf(last_error, sizeof last_error, "%s", msg ? msg : "");
}

static ARENA_MOVES int session_start(struct session *s, const char *preset, const char *sets)
{
	struct svz_config cfg = s->trace.config;
	s->parsed_config = cfg;
	if (preset && preset[0] && svz_preset_apply(&cfg, preset)) {
		snprintf(last_error, sizeof last_error,
			 "unknown preset '%.64s' (try: slubviz presets)", preset);
		session_free(s);
		return -1;
	}
	if (apply_sets(&cfg, sets)) {
		session_free(s);
		return -1;
	}
	s->trace.config = cfg;
	/* the model is built on first use (an import that is only exported
	 * never builds one); what it would refuse is refused here */
	char msg[512] = "";
	if (model_check(&s->trace, &cfg, msg, sizeof msg)) {
		struct svz_error e = { 0, 0, "" };
		snprintf(e.msg, sizeof e.msg, "%.255s", msg[0] ? msg : "cannot create the model");
		svz_error_format(&e, "trace", last_error, sizeof last_error);
		session_free(s);
		return -1;
	}
	s->tls = malloc(sizeof *s->tls);
	if (!s->tls) {
		snprintf(last_error, sizeof last_error, "out of memory");
		session_free(s);
		return -1;
	}
	s->tls[0] = (struct timeline){ -1, 0 };
	s->ntls = 1;
	s->cur_tl = 0;

	int slot = -1;
	for (int i = 0; i < table_len; i++)
		if (!table[i]) {
			slot = i;
			break;
		}
	if (slot < 0) {
		struct session **t = realloc(table, sizeof *t * (size_t)(table_len + 1));
		if (!t) {
			snprintf(last_error, sizeof last_error, "out of memory");
			session_free(s);
			return -1;
		}
		table = t;
		slot = table_len++;
	}
	table[slot] = s;
	return slot + 1;
}

/* The model and its event ring, once per session. */
static ARENA_MOVES bool model_ready(struct session *s)
{
	if (s->model_ok)
		return true;
	char msg[512] = "";
	if (!s->m.ring)
		s->m.ring = malloc(sizeof *s->m.ring * RING_CAP);
	if (!s->m.ring || model_init(&s->m, &s->trace, &s->trace.config, msg, sizeof msg)) {
		/* out of memory (model_check() passed): the next call tries again */
		snprintf(last_error, sizeof last_error, "%.255s", msg[0] ? msg : "out of memory");
		if (s->m.mem)
			model_destroy(&s->m);
		struct event *ring = s->m.ring;
		memset(&s->m, 0, sizeof s->m);
		s->m.ring = ring;
		return false;
	}
	s->model_ok = true;
	for (uint32_t i = 0; i < RING_CAP; i++)
		s->m.ring[i].seq = -1;
	s->m.ring_cap = RING_CAP;
	s->m.events_on = true;
	return true;
}

void svz_close(int h)
{
	struct session *s = peek(h);
	if (!s)
		return;
	session_free(s);
	table[h - 1] = NULL;
}

void svz_set_events(int h, int on)
{
	struct session *s = get(h);
	if (!s)
		return;
	if (on && !s->m.events_on) {
		/* Steps run while off left no events: the window starts now. */
		int64_t now = WORLD(&s->m)->seq;
		if (s->valid_lo < now)
			s->valid_lo = now;
	}
	s->m.events_on = on != 0;
}

/* ---- stepping ------------------------------------------------------------ */

/* After steps with events off nothing up to now is in the ring. */
static void after_steps(struct session *s)
{
	if (!s->m.events_on)
		s->valid_lo = WORLD(&s->m)->seq;
}

int svz_step(int h)
{
	struct session *s = get(h);
	if (!s)
		return -1;
	int r = model_step(&s->m);
	after_steps(s);
	return r;
}

int svz_step_cpu(int h, int cpu)
{
	struct session *s = get(h);
	if (!s)
		return -1;
	int r = model_step_cpu(&s->m, cpu);
	after_steps(s);
	return r;
}

static bool op_started(struct model *m, uint32_t op)
{
	return (*u32_at(m, WORLD(m)->started + op / 32) >> (op % 32)) & 1;
}

/* Ops 0..op-1 have all completed: started, and none still on a CPU. */
static bool done_below(struct model *m, uint32_t op, uint32_t *cursor)
{
	while (*cursor < op && op_started(m, *cursor))
		(*cursor)++;
	if (*cursor < op)
		return false;
	struct world *w = WORLD(m);
	for (int c = 0; c < w->nr_cpus; c++)
		if (w->cpus[c].depth > 0 && w->cpus[c].op < op)
			return false;
	return true;
}

int svz_run_to_op(int h, int op)
{
	struct session *s = get(h);
	if (!s)
		return -1;
	struct model *m = &s->m;
	uint32_t target = op < 0 ? 0 : (uint32_t)op;
	if (target > m->trace->nr_ops)
		target = m->trace->nr_ops;
	/* every op below the serial cursor has started (model_run_ops()): the
	 * scan starts there, not at op 0 (at op 500,000 of a 1M-op trace it
	 * read half a million bits each call: ~1.5 ms of every seek) */
	uint32_t cursor = WORLD(m)->next_op;
	int r = 1;
	while (!done_below(m, target, &cursor)) {
		r = model_run_ops(m, target);
		if (r <= 0)
			break;
	}
	if (r == 1 && WORLD(m)->stopped)
		r = -1;
	after_steps(s);
	return r < 0 ? -1 : (int)WORLD(m)->ops_done;
}

int svz_run_all(int h)
{
	struct session *s = get(h);
	if (!s)
		return -1;
	int r;
	while ((r = model_run_ops(&s->m, UINT32_MAX)) > 0)
		;
	after_steps(s);
	return r < 0 ? -1 : (int)WORLD(&s->m)->ops_done;
}

int svz_ops_total(int h)
{
	struct session *s = peek(h);
	return s ? (int)s->trace.nr_ops : -1;
}

int svz_ops_done(int h)
{
	struct session *s = get(h);
	return s ? (int)WORLD(&s->m)->ops_done : -1;
}

int64_t svz_seq(int h)
{
	struct session *s = get(h);
	return s ? WORLD(&s->m)->seq : -1;
}

const char *svz_run_error(int h)
{
	struct session *s = get(h);
	return s ? s->m.run_error : "";
}

const char *svz_reports(int h)
{
	struct session *s = get(h);
	return s && s->m.report ? s->m.report : "";
}

/* ---- checkpoints ----------------------------------------------------------- */

int svz_checkpoint(int h)
{
	struct session *s = get(h);
	if (!s)
		return -1;
	struct model *m = &s->m;
	int id = -1;
	for (int i = 0; i < s->ncps; i++)
		if (!s->cps[i].used) {
			id = i;
			break;
		}
	if (id < 0) {
		struct checkpoint *c = realloc(s->cps, sizeof *c * (size_t)(s->ncps + 1));
		if (!c)
			return -1;
		s->cps = c;
		id = s->ncps++;
		memset(&s->cps[id], 0, sizeof s->cps[id]);
	}
	struct checkpoint *c = &s->cps[id];
	size_t size = arena_packed_size(m);
	c->mem = malloc(size);
	c->report = malloc(m->report_len + 1);
	if (!c->mem || !c->report) {
		free(c->mem);
		free(c->report);
		c->mem = NULL;
		c->report = NULL;
		return -1;
	}
	arena_pack(m, c->mem);
	c->size = size;
	if (m->report_len)
		memcpy(c->report, m->report, m->report_len);
	c->report[m->report_len] = 0;
	c->report_len = m->report_len;
	memcpy(c->run_error, m->run_error, sizeof c->run_error);
	c->timeline = s->cur_tl;
	c->seq = WORLD(m)->seq;
	c->used = true;
	return id;
}

/* Up to which seq (exclusive) the histories of timelines a and b agree. */
static int64_t timelines_agree(struct session *s, int a, int b)
{
	if (a == b)
		return INT64_MAX;
	int64_t *ma = malloc(sizeof *ma * (size_t)s->ntls);
	if (!ma)
		return 0;
	for (int i = 0; i < s->ntls; i++)
		ma[i] = -1; /* not an ancestor of a */
	int64_t lim = INT64_MAX;
	for (int u = a; u >= 0; u = s->tls[u].parent) {
		ma[u] = lim;
		if (s->tls[u].fork < lim)
			lim = s->tls[u].fork;
	}
	int64_t res = 0;
	lim = INT64_MAX;
	for (int v = b; v >= 0; v = s->tls[v].parent) {
		if (ma[v] >= 0) {
			res = ma[v] < lim ? ma[v] : lim;
			break;
		}
		if (s->tls[v].fork < lim)
			lim = s->tls[v].fork;
	}
	free(ma);
	return res;
}

int svz_restore(int h, int checkpoint)
{
	struct session *s = get(h);
	if (!s || checkpoint < 0 || checkpoint >= s->ncps || !s->cps[checkpoint].used)
		return -1;
	struct checkpoint *c = &s->cps[checkpoint];
	struct model *m = &s->m;
	struct timeline *tls = realloc(s->tls, sizeof *tls * (size_t)(s->ntls + 1));
	if (!tls)
		return -1;
	s->tls = tls;
	if (c->report_len + 1 > m->report_cap) {
		char *r = realloc(m->report, c->report_len + 1);
		if (!r)
			return -1;
		m->report = r;
		m->report_cap = c->report_len + 1;
	}
	if (arena_unpack(m, c->mem))
		return -1;
	if (m->report) {
		memcpy(m->report, c->report, c->report_len + 1);
		m->report_len = c->report_len;
	}
	memcpy(m->run_error, c->run_error, sizeof m->run_error);

	/* Events: [valid_lo, now) of the old timeline stay valid below the
	 * point where it and the checkpoint's history part. */
	int64_t agree = timelines_agree(s, s->cur_tl, c->timeline);
	if (agree < c->seq || s->valid_lo > c->seq)
		s->valid_lo = c->seq;
	s->tls[s->ntls] = (struct timeline){ c->timeline, c->seq };
	s->cur_tl = s->ntls++;
	return 0;
}

void svz_checkpoint_drop(int h, int checkpoint)
{
	struct session *s = get(h);
	if (!s || checkpoint < 0 || checkpoint >= s->ncps || !s->cps[checkpoint].used)
		return;
	struct checkpoint *c = &s->cps[checkpoint];
	free(c->mem);
	free(c->report);
	memset(c, 0, sizeof *c);
}

/* ---- views ----------------------------------------------------------------- */

static void out_reset(struct session *s)
{
	s->out.len = 0;
	if (s->out.s)
		s->out.s[0] = 0;
}

static const char *out_text(struct session *s)
{
	return s->out.s ? s->out.s : "";
}

const char *svz_snapshot_json(int h)
{
	struct session *s = get(h);
	if (!s)
		return "";
	out_reset(s);
	view_snapshot_json(&s->m, &s->out);
	return out_text(s);
}

const char *svz_snapshot_lean_json(int h)
{
	struct session *s = get(h);
	if (!s)
		return "";
	out_reset(s);
	if (!view_snapshot_lean_json(&s->m, &s->out, &s->owners_sent))
		return "";
	return out_text(s);
}

/* The retained event with sequence number `seq`, or NULL. */
static const struct event *ring_event(struct session *s, int64_t seq)
{
	struct model *m = &s->m;
	if (seq < s->valid_lo || seq >= WORLD(m)->seq || seq < 0)
		return NULL;
	const struct event *e = &m->ring[(uint64_t)seq % m->ring_cap];
	return e->seq == seq ? e : NULL;
}

/* First seq worth looking at: the window, the ring's reach, from_seq. */
static int64_t events_from(struct session *s, int64_t from_seq)
{
	int64_t now = WORLD(&s->m)->seq, lo = s->valid_lo;
	if (now - (int64_t)s->m.ring_cap > lo)
		lo = now - (int64_t)s->m.ring_cap;
	return from_seq > lo ? from_seq : lo;
}

/* max <= 0: every retained event from from_seq on. */
const char *svz_events_json(int h, int64_t from_seq, int max)
{
	struct session *s = get(h);
	if (!s)
		return "";
	out_reset(s);
	sb_printf(&s->out, "{\"schema\":%d,\"events\":[", SVZ_EVENT_SCHEMA);
	int64_t now = WORLD(&s->m)->seq;
	int n = 0;
	char buf[1536];
	for (int64_t q = events_from(s, from_seq); q < now && (max <= 0 || n < max); q++) {
		const struct event *e = ring_event(s, q);
		if (!e)
			continue;
		event_json(&s->m, e, buf, sizeof buf);
		sb_printf(&s->out, "%s%s", n ? "," : "", buf);
		n++;
	}
	sb_printf(&s->out, "]}");
	return out_text(s);
}

const char *svz_events_text(int h, int64_t from_seq, int max)
{
	struct session *s = get(h);
	if (!s)
		return "";
	out_reset(s);
	int64_t now = WORLD(&s->m)->seq;
	int n = 0;
	char buf[1024];
	for (int64_t q = events_from(s, from_seq); q < now && (max <= 0 || n < max); q++) {
		const struct event *e = ring_event(s, q);
		if (!e)
			continue;
		event_text(&s->m, e, buf, sizeof buf);
		sb_printf(&s->out, "%s\n", buf);
		n++;
	}
	return out_text(s);
}

const char *svz_slabinfo(int h)
{
	struct session *s = get(h);
	if (!s)
		return "";
	out_reset(s);
	view_slabinfo(&s->m, &s->out);
	return out_text(s);
}

const char *svz_sysfs(int h, const char *cache)
{
	struct session *s = get(h);
	if (!s)
		return "";
	out_reset(s);
	if (view_sysfs(&s->m, cache ? cache : "", &s->out)) {
		out_reset(s);
		snprintf(last_error, sizeof last_error, "unknown cache '%.64s'", cache ? cache : "");
		return "";
	}
	return out_text(s);
}

const char *svz_sysfs_tree(int h)
{
	struct session *s = get(h);
	if (!s)
		return "";
	out_reset(s);
	view_sysfs_tree(&s->m, &s->out);
	return out_text(s);
}

const char *svz_stats_text(int h)
{
	struct session *s = get(h);
	if (!s)
		return "";
	out_reset(s);
	view_stats(&s->m, &s->out);
	return out_text(s);
}

const char *svz_stat_totals_json(int h)
{
	struct session *s = get(h);
	if (!s)
		return "";
	out_reset(s);
	view_stat_totals_json(&s->m, &s->out);
	return out_text(s);
}

const char *svz_profile_text(int h)
{
	struct session *s = get(h);
	if (!s)
		return "";
	out_reset(s);
	view_profile_text(&s->m, &s->out);
	return out_text(s);
}

const char *svz_profile_json(int h)
{
	struct session *s = get(h);
	if (!s)
		return "";
	out_reset(s);
	view_profile_json(&s->m, &s->out);
	return out_text(s);
}

/* The trace caches find_mergeable() made aliases under this session's
 * preset (slab_nomerge off), added to the import report the first time it
 * is read: a line each in the text, an "aliases" array in the JSON. */
static ARENA_MOVES void note_aliases(int h, struct session *s)
{
	s->aliases_noted = true;
	if (!get(h))
		return;
	struct model *m = &s->m;
	struct sbuf text = { 0 }, json = { 0 };
	uint32_t n = 0;
	for (uint32_t i = 0; i < s->trace.nr_caches; i++) {
		idx_t c = *u32_at(m, WORLD(m)->cache_map + i);
		if (cache_r(m, c)->decl == i)
			continue;
		sb_printf(&text, "  %s: an alias of %s (same slabs, one /proc/slabinfo row)\n",
			  s->trace.caches[i].name, cache_r(m, c)->name);
		sb_puts(&json, n ? ",{\"cache\":" : "{\"cache\":");
		sb_json_str(&json, s->trace.caches[i].name);
		sb_puts(&json, ",\"of\":");
		sb_json_str(&json, cache_r(m, c)->name);
		sb_putc(&json, '}');
		n++;
	}
	char *jend = s->import_json ? strrchr(s->import_json, '}') : NULL;
	if (n && !text.oom && !json.oom) {
		struct sbuf t = { 0 }, j = { 0 };
		sb_printf(&t, "%smerged caches (find_mergeable(); slab_nomerge=1 keeps them apart): %u\n%s",
			  s->import_text, n, text.s);
		if (jend) {
			sb_putn(&j, s->import_json, (size_t)(jend - s->import_json));
			sb_printf(&j, ",\"aliases\":[%s]}", json.s);
		}
		if (!t.oom && !j.oom) {
			s->import_text0 = s->import_text;
			s->import_text = t.s;
			if (jend) {
				s->import_json0 = s->import_json;
				s->import_json = j.s;
			}
		} else {
			sb_free(&t);
			sb_free(&j);
		}
	}
	sb_free(&text);
	sb_free(&json);
}

ARENA_MOVES const char *svz_import_summary(int h)
{
	struct session *s = peek(h);
	if (s && s->import_text && !s->aliases_noted)
		note_aliases(h, s);
	return s && s->import_text ? s->import_text : "";
}

ARENA_MOVES const char *svz_import_summary_json(int h)
{
	struct session *s = peek(h);
	if (s && s->import_text && !s->aliases_noted)
		note_aliases(h, s);
	return s && s->import_json ? s->import_json : "";
}

const char *svz_export_v1(int h)
{
	struct session *s = peek(h);
	if (!s)
		return "";
	free(s->export_v1);
	s->export_v1 = svz_trace_to_v1(&s->trace, NULL);
	return s->export_v1 ? s->export_v1 : "";
}

const char *svz_validate(int h)
{
	struct session *s = get(h);
	if (!s)
		return "";
	if (!s->validate_buf) {
		s->validate_buf = malloc(VALIDATE_OUT);
		if (!s->validate_buf)
			return "out of memory";
	}
	s->validate_buf[0] = 0;
	model_validate(&s->m, s->validate_buf, VALIDATE_OUT);
	return s->validate_buf;
}
