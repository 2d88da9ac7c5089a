/* CS:APP malloc-lab .rep traces: a header of four numbers (heap size, ids,
 * ops, weight), then "a ID BYTES", "r ID BYTES", "f ID", with an optional
 * "@CPU" (a slubviz extension). kmalloc/kfree on CPU 0 unless '@CPU' says
 * otherwise; realloc is krealloc(): in place while the object's kmalloc
 * size holds the new size, else kmalloc new + kfree old; one too large to
 * allocate fails and keeps the old object. */
#include "import/importer.h"

#include <stdio.h>

#include "slubviz/gfp.h"
#include "slubviz/sizing.h"

/* A line of one number: the header's first field. */
enum claim malloc_lab_detect(const char *line, size_t len)
{
	struct slice t = trimmed(line, len);
	size_t d = 0;

	while (d < t.len && is_digit(t.s[d]))
		d++;
	size_t e = d;
	while (e < t.len && is_space(t.s[e]))
		e++;
	return d > 0 && e == t.len ? CLAIM_SURE : CLAIM_NONE;
}

/* kmalloc(size) of a fresh object for id; false if out of memory. */
static bool ml_kmalloc(struct svz_importer *im, uint64_t id, uint64_t size, uint32_t bytes, int cpu,
		       uint64_t line)
{
	struct pent *e = imp_bind_ptr(im, id, NONE, bytes, "id", false);
	struct svz_op *op = e ? imp_push_op(im, SVZ_OP_KMALLOC, cpu, line) : NULL;
	if (!op)
		return false;
	op->gfp = GFP_KERNEL;
	op->size = (uint32_t)size;
	op->handle = e->handle;
	return true;
}

void malloc_lab_line(struct svz_importer *im, const char *s, size_t n, uint64_t line)
{
	struct slice tk[5];
	size_t i = 0, nt = imp_tokens(s, n, &i, tk, 5, false);
	char ex[64];
	struct svz_import_report *r = &im->rep;

	while (i < n && is_space(s[i]))
		i++;
	if (im->ml_header < 4) {
		uint64_t v;
		if (nt != 1 || !imp_parse_dec(tk[0].s, tk[0].len, &v)) {
			static const char *const what[] = { "suggested heap size", "number of ids",
							    "number of ops", "weight" };
			imp_bad_line(im, line, "expected the malloc-lab header's %s (a number), got '%s'",
				     what[im->ml_header], imp_excerpt(s, n, 40, ex, sizeof ex));
			if (nt >= 2 && tk[0].len == 1 && strchr("arf", tk[0].s[0]))
				im->ml_header = 4; /* header missing: read ops from here */
			else
				return;
		} else {
			im->ml_hdr[im->ml_header++] = v;
			if (im->ml_header == 3)
				r->header_ops = v > INT64_MAX ? INT64_MAX : (int64_t)v;
			return;
		}
	}
	if (nt == 0)
		return;
	char opc = tk[0].len == 1 ? tk[0].s[0] : 0;
	size_t want = opc == 'f' ? 2 : 3;
	if (opc != 'a' && opc != 'r' && opc != 'f') {
		imp_bad_line(im, line, "expected a malloc-lab op (a ID BYTES, r ID BYTES, f ID), got '%s'",
			     imp_excerpt(tk[0].s, tk[0].len, 20, ex, sizeof ex));
		return;
	}
	uint64_t cpu = 0, id, size = 0;
	size_t args = nt;
	if (args > want && tk[args - 1].len > 1 && tk[args - 1].s[0] == '@') {
		if (!imp_parse_dec(tk[args - 1].s + 1, tk[args - 1].len - 1, &cpu)) {
			imp_bad_line(im, line, "expected @CPU, got '%s'",
				     imp_excerpt(tk[args - 1].s, tk[args - 1].len, 20, ex, sizeof ex));
			return;
		}
		args--;
	}
	if (args != want || i < n) {
		imp_bad_line(im, line, "expected '%s', got '%s'",
			     opc == 'f' ? "f ID [@CPU]" : opc == 'a' ? "a ID BYTES [@CPU]" : "r ID BYTES [@CPU]",
			     imp_excerpt(s, n, 40, ex, sizeof ex));
		return;
	}
	if (!imp_parse_dec(tk[1].s, tk[1].len, &id)) {
		imp_bad_line(im, line, "expected an id (a number), got '%s'",
			     imp_excerpt(tk[1].s, tk[1].len, 30, ex, sizeof ex));
		return;
	}
	if (want == 3 && !imp_parse_dec(tk[2].s, tk[2].len, &size)) {
		imp_bad_line(im, line, "expected a size in bytes, got '%s'",
			     imp_excerpt(tk[2].s, tk[2].len, 30, ex, sizeof ex));
		return;
	}
	r->events++;
	if (im->nr_ops + 2 > im->lim.max_ops) {
		imp_skip(im, SVZ_SKIP_OP_LIMIT);
		return;
	}
	if (cpu >= SVZ_MAX_CPUS) {
		imp_skip_cpu_beyond(im, cpu > INT64_MAX ? INT64_MAX : (int64_t)cpu);
		if (opc == 'a')
			imp_mark_ptr(im, id, PS_SKIPPED);
		return;
	}
	uint32_t page = im->base.topo.page_size ? im->base.topo.page_size : 4096;
	struct pent *e = imp_ptab_find(im, id);
	bool live = e && e->state == PS_LIVE;
	if (opc == 'r' && !live)
		opc = 'a'; /* realloc(NULL, n) == malloc(n) */
	if (opc == 'r' && size == 0)
		opc = 'f'; /* krealloc(p, 0) frees p */
	if (opc == 'f') {
		if (!e) {
			imp_skip(im, SVZ_SKIP_FREE_UNKNOWN);
			return;
		}
		if (imp_free_skipped(im, e))
			return;
		imp_note_cpu(im, (int)cpu);
		struct svz_op *op = imp_push_op(im, SVZ_OP_KFREE, (int)cpu, line);
		if (!op)
			return;
		op->handle = e->handle;
		imp_free_ptr(im, e);
		r->kept++;
		return;
	}
	if (opc == 'r' && size > MAX_OBJECT) {
		/* a realloc() that cannot be satisfied fails and leaves the old
		 * block live and unchanged: the id's later free is its free */
		imp_skip(im, SVZ_SKIP_TOO_LARGE);
		return;
	}
	if (!imp_kmalloc_ok(im, id, size))
		return;
	uint32_t bytes = (uint32_t)svz_kmalloc_size_roundup(size, page);
	imp_note_cpu(im, (int)cpu);
	if (opc == 'r') {
		if (e->bytes >= size) { /* krealloc: ksize() still holds it */
			r->realloc_in_place++;
			r->kept++;
			return;
		}
		uint32_t old = e->handle;
		imp_free_ptr(im, e); /* the new object takes a fresh handle below */
		e->gen++;
		e->handle = NONE;
		if (!ml_kmalloc(im, id, size, bytes, (int)cpu, line))
			return;
		struct svz_op *op = imp_push_op(im, SVZ_OP_KFREE, (int)cpu, line);
		if (!op)
			return;
		op->handle = old;
		r->kept++;
		return;
	}
	if (ml_kmalloc(im, id, size, bytes, (int)cpu, line))
		r->kept++;
}

/* Nothing read but (part of) the header. */
void malloc_lab_end(struct svz_importer *im)
{
	if (im->ml_header < 4 && im->rep.events == 0)
		imp_set_fatal(im, "malloc-lab header incomplete: %d of 4 numbers", im->ml_header);
}
