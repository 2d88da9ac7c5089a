/* One kmem event, as the kernel's tracepoints print it (include/trace/
 * events/kmem.h): kmalloc, kmem_cache_alloc (and their *_node forms before
 * v6.1), kfree, kmem_cache_free. Its fields are "key=value" runs; a value
 * ends where the next " key=" begins, so "call_site=f+0x70/0xb0 [memleak]"
 * and "ptr=  (null)" stay whole, and the options/fields form "0x1000
 * (4096)" gives its decimal. The ftrace family and bpftrace lines hand their
 * events here; an event becomes an op or a counted skip. */
#include "import/importer.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>

#include "slubviz/gfp.h"
#include "slubviz/sizing.h"

/* Raw gfp numbers (options/fields, bpftrace) in the v6.x layout of
 * include/linux/gfp_types.h, which our bit values follow up to
 * __GFP_ACCOUNT; 0x200 (unused) and higher bits (ZEROTAGS, SKIP_KASAN,
 * NOLOCKDEP, NO_OBJ_EXT: config-dependent) are not modelled. */
#define KERNEL_GFP_KNOWN (0x7fffffu & ~0x200u)

struct gfp_alias {
	const char *name;
	uint32_t gfp;
};

/* Names the kernel printed that gfp.c does not know: older spellings
 * (GFP_ZERO for __GFP_ZERO, __GFP_WAIT, __GFP_REPEAT) and composites
 * (GFP_TEMPORARY, GFP_HIGHUSER ...); the ones with no effect on SLUB map
 * to 0. */
static const struct gfp_alias gfp_aliases[] = {
	{ "GFP_ZERO", __GFP_ZERO }, { "GFP_NOWARN", __GFP_NOWARN }, { "GFP_COMP", __GFP_COMP },
	{ "GFP_HIGH", __GFP_HIGH }, { "GFP_IO", __GFP_IO }, { "GFP_FS", __GFP_FS },
	{ "GFP_NOFAIL", __GFP_NOFAIL }, { "GFP_NORETRY", __GFP_NORETRY },
	{ "GFP_MEMALLOC", __GFP_MEMALLOC }, { "GFP_NOMEMALLOC", __GFP_NOMEMALLOC },
	{ "GFP_HARDWALL", __GFP_HARDWALL }, { "GFP_THISNODE", __GFP_THISNODE },
	{ "GFP_RECLAIMABLE", __GFP_RECLAIMABLE }, { "GFP_MOVABLE", __GFP_MOVABLE },
	{ "GFP_HIGHMEM", __GFP_HIGHMEM }, { "GFP_ACCOUNT", __GFP_ACCOUNT },
	{ "GFP_WRITE", __GFP_WRITE }, { "GFP_WAIT", __GFP_RECLAIM }, { "__GFP_WAIT", __GFP_RECLAIM },
	{ "GFP_REPEAT", __GFP_RETRY_MAYFAIL }, { "__GFP_REPEAT", __GFP_RETRY_MAYFAIL },
	/* show_gfp_flags() name in 2.6.32-4.13 (removed in 4.14) */
	{ "GFP_TEMPORARY", __GFP_RECLAIM | __GFP_IO | __GFP_FS | __GFP_RECLAIMABLE },
	/* show_gfp_flags() name in 3.8-3.14 (__GFP_KMEMCG, charge the allocation
	 * to the memory cgroup): what __GFP_ACCOUNT (4.5 on) does */
	{ "GFP_KMEMCG", __GFP_ACCOUNT }, { "__GFP_KMEMCG", __GFP_ACCOUNT },
	{ "GFP_HIGHUSER", GFP_USER | __GFP_HIGHMEM },
	{ "GFP_HIGHUSER_MOVABLE", GFP_USER | __GFP_HIGHMEM | __GFP_MOVABLE },
	{ "GFP_TRANSHUGE_LIGHT", (GFP_USER | __GFP_HIGHMEM | __GFP_MOVABLE | __GFP_COMP |
				  __GFP_NOMEMALLOC | __GFP_NOWARN) & ~__GFP_RECLAIM },
	{ "GFP_TRANSHUGE", ((GFP_USER | __GFP_HIGHMEM | __GFP_MOVABLE | __GFP_COMP |
			     __GFP_NOMEMALLOC | __GFP_NOWARN) & ~__GFP_RECLAIM) | __GFP_DIRECT_RECLAIM },
	{ "GFP_NOTRACK", 0 }, { "__GFP_NOTRACK", 0 }, { "GFP_NOTRACK_FALSE_POSITIVE", 0 },
	{ "GFP_COLD", 0 }, { "__GFP_COLD", 0 }, { "GFP_OTHER_NODE", 0 }, { "__GFP_OTHER_NODE", 0 },
	{ "GFP_NO_KSWAPD", 0 }, { "__GFP_NO_KSWAPD", 0 }, { "__GFP_NOLOCKDEP", 0 },
	{ "__GFP_SKIP_KASAN", 0 }, { "__GFP_SKIP_KASAN_POISON", 0 },
	{ "__GFP_SKIP_KASAN_UNPOISON", 0 }, { "__GFP_SKIP_ZERO", 0 }, { "__GFP_ZEROTAGS", 0 },
	{ "__GFP_UNMAPPED", 0 }, { "__GFP_ATOMIC", 0 }, { "__GFP_NOACCOUNT", 0 },
};

bool imp_parse_hex(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	if (!len || len > 16)
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		unsigned d;
		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return false;
		v = v << 4 | d;
	}
	*out = v;
	return true;
}

bool imp_parse_dec(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	if (!len)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

bool imp_parse_knum(const char *s, size_t len, uint64_t *out)
{
	if (has_0x_prefix(s, len)) {
		size_t i = 2;
		while (i < len - 1 && s[i] == '0') /* leading zeros beyond 16 digits */
			i++;
		return imp_parse_hex(s + i, len - i, out);
	}
	return imp_parse_dec(s, len, out);
}

/* One gfp value: "GFP_KERNEL|__GFP_ZERO", "0xcc0", "none". Unknown names
 * and bits are dropped and (if `count`) counted. */
static uint32_t parse_gfp(struct svz_importer *im, const char *s, size_t len, bool *unknown,
			  bool count)
{
	uint32_t id = NONE;
	*unknown = false;
	if (len <= 160 && im->gfps.n < 4096) {
		bool added;
		id = strtab_intern(&im->gfps, s, len, &added);
		if (id != NONE && !added && !im->gfp_vals[id].unknown)
			return im->gfp_vals[id].gfp;
		if (id != NONE && !GROW(im->gfp_vals, im->cap_gfp_vals, (uint64_t)id + 1))
			id = NONE; /* not memoised; still parsed below */
	}
	uint32_t gfp = 0;
	for (size_t i = 0; i < len;) {
		size_t j = i;
		while (j < len && s[j] != '|')
			j++;
		const char *t = s + i;
		size_t tl = j - i;
		i = j + 1;
		if (!tl)
			continue;
		uint64_t num;
		bool ok = false;
		char bits[24]; /* a number's unknown bits, named alone: 0x200 of 0xa20 */
		if (t[0] >= '0' && t[0] <= '9') {
			if (imp_parse_knum(t, tl, &num)) {
				gfp |= (uint32_t)num & KERNEL_GFP_KNOWN;
				uint64_t extra = num & ~(uint64_t)KERNEL_GFP_KNOWN;
				ok = extra == 0;
				int n = ok ? 0 : snprintf(bits, sizeof bits, "0x%" PRIx64, extra);
				if (n > 0) {
					t = bits;
					tl = (size_t)n;
				}
			}
		} else {
			char term[64], err[8];
			uint32_t v;
			if (tl < sizeof term) {
				memcpy(term, t, tl);
				term[tl] = 0;
				if (svz_gfp_parse(term, &v, err, sizeof err) == 0) {
					gfp |= v;
					ok = true;
				} else {
					for (size_t a = 0; a < sizeof gfp_aliases / sizeof gfp_aliases[0]; a++)
						if (strcmp(term, gfp_aliases[a].name) == 0) {
							gfp |= gfp_aliases[a].gfp;
							ok = true;
							break;
						}
				}
			}
		}
		if (!ok) {
			*unknown = true;
			if (count)
				imp_count_name(im->rep.gfp_names, &im->rep.nr_gfp_names, t, tl);
		}
	}
	if (id != NONE) {
		im->gfp_vals[id].gfp = gfp;
		im->gfp_vals[id].unknown = *unknown;
	}
	return gfp;
}

int imp_kmem_kind(struct slice n)
{
	if (slice_is(n, "kmalloc") || slice_is(n, "kmalloc_node"))
		return EV_KMALLOC;
	if (slice_is(n, "kmem_cache_alloc") || slice_is(n, "kmem_cache_alloc_node"))
		return EV_CACHE_ALLOC;
	if (slice_is(n, "kfree"))
		return EV_KFREE;
	if (slice_is(n, "kmem_cache_free"))
		return EV_CACHE_FREE;
	return -1;
}

/* "key=" at s[i]? */
static bool starts_key(const char *s, size_t n, size_t i)
{
	if (i >= n || !is_ident_start(s[i]))
		return false;
	while (i < n && is_ident(s[i]))
		i++;
	return i < n && s[i] == '=';
}

/* The kmem events' fields the importer reads (include/trace/events/kmem.h);
 * others (e.g. a future field) are skipped. */
static const struct {
	const char *key;
	size_t len; /* strlen(key): compared per field of every line */
	size_t at;
} field_keys[] = {
#define FIELD(KEY, MEMBER) { KEY, sizeof KEY - 1, offsetof(struct ev, MEMBER) }
	FIELD("ptr", ptr),
	FIELD("bytes_req", req),
	FIELD("bytes_alloc", alloc),
	FIELD("gfp_flags", gfp),
	FIELD("node", node),
	FIELD("accounted", accounted),
	FIELD("name", name),
	FIELD("call_site", site),
#undef FIELD
};

int imp_parse_fields(const char *s, size_t n, struct ev *ev, char *msg, size_t msglen)
{
	size_t i = 0;
	while (i < n && is_space(s[i]))
		i++;
	while (i < n) {
		size_t k = i;
		while (i < n && is_ident(s[i]))
			i++;
		if (i == k || i >= n || s[i] != '=') {
			char ex[48];
			snprintf(msg, msglen, "expected key=value fields, got '%s'",
				 imp_excerpt(s + k, n - k, 30, ex, sizeof ex));
			return -1;
		}
		struct slice key = { s + k, i - k };
		i++;
		/* the value runs to the next blank that is followed by "key=" */
		size_t v = i, end;
		while (v < n && is_space(s[v]))
			v++;
		if (v > i && starts_key(s, n, v)) {
			end = v; /* "ptr= bytes_req=...": empty */
		} else {
			size_t j = v;
			for (;;) {
				while (j < n && !is_space(s[j]))
					j++;
				end = j;
				while (j < n && is_space(s[j]))
					j++;
				if (j >= n || starts_key(s, n, j))
					break;
			}
		}
		struct slice val = { s + v, end > v ? end - v : 0 };
		for (size_t f = 0; f < sizeof field_keys / sizeof field_keys[0]; f++)
			if (key.len == field_keys[f].len && memcmp(key.s, field_keys[f].key, key.len) == 0) {
				struct slice *slot = (struct slice *)((char *)ev + field_keys[f].at);
				/* no kmem event prints a field twice: two events ran
				 * together (a lost newline), and neither is trusted */
				if (slot->s) {
					snprintf(msg, msglen, "%.*s= given twice (two events on one line?)",
						 (int)key.len, key.s);
					return -1;
				}
				*slot = val;
				break;
			}
		i = end;
		while (i < n && is_space(s[i]))
			i++;
	}
	return 0;
}

/* A numeric field: "4096", "0x1000 (4096)", "(0)", "-1", "0xffffffff (-1)".
 * The parenthesised decimal of the options/fields form wins (it is signed). */
static bool field_num(struct slice v, int64_t *out, bool *overflow)
{
	*overflow = false;
	struct slice t = first_tok(v);
	const char *par = NULL;
	size_t plen = 0;
	if (t.len >= 2 && t.s[0] == '(') {
		par = t.s + 1;
		plen = t.len - 2;
	} else {
		size_t i = t.len;
		while (i < v.len && is_space(v.s[i]))
			i++;
		if (i < v.len && v.s[i] == '(') {
			size_t e = i + 1;
			while (e < v.len && v.s[e] != ')')
				e++;
			if (e < v.len) {
				par = v.s + i + 1;
				plen = e - i - 1;
			}
		}
	}
	uint64_t u;
	if (par && plen) {
		bool neg = par[0] == '-';
		if (!imp_parse_dec(par + neg, plen - neg, &u) || u > (uint64_t)INT64_MAX) {
			*overflow = true;
			return false;
		}
		*out = neg ? -(int64_t)u : (int64_t)u;
		return true;
	}
	if (t.len && t.s[0] == '-') {
		if (!imp_parse_dec(t.s + 1, t.len - 1, &u) || u > (uint64_t)INT64_MAX) {
			*overflow = t.len > 1 && is_digit(t.s[1]);
			return false;
		}
		*out = -(int64_t)u;
		return true;
	}
	if (!imp_parse_knum(t.s, t.len, &u)) {
		*overflow = t.len > 0 && is_digit(t.s[0]);
		return false;
	}
	if (u > (uint64_t)INT64_MAX) {
		*overflow = true;
		return false;
	}
	*out = (int64_t)u;
	return true;
}

/* ptr= values: hashed "00000000cef40c80", raw "0xffff9e0e8571e000" or
 * "c147dd20", and NULL as the kernel's vsprintf prints it, "(null)", or
 * glibc's printf, "(nil)" (libtraceevent in trace-cmd and perf formats %p
 * with printf), or "NULL". */
static bool field_ptr(struct slice v, uint64_t *out, bool *hashed)
{
	struct slice t = first_tok(v);
	*hashed = false;
	if (slice_is(t, "(null)") || slice_is(t, "(nil)") || slice_is(t, "NULL")) {
		*out = 0;
		return true;
	}
	if (has_0x_prefix(t.s, t.len))
		return imp_parse_knum(t.s, t.len, out);
	if (!imp_parse_hex(t.s, t.len, out))
		return false;
	*hashed = t.len == 16 && memcmp(t.s, "00000000", 8) == 0;
	return true;
}

/* A ptr= that is all hex digits (0x or not) but has more than 16 after its
 * leading zeros: how many it has, else 0 (not a number at all). */
static size_t hex_digits_past_64_bits(struct slice v)
{
	struct slice t = first_tok(v);
	size_t i = has_0x_prefix(t.s, t.len) ? 2 : 0;
	if (i == t.len)
		return 0;
	for (size_t k = i; k < t.len; k++)
		if (!is_hex_digit(t.s[k]))
			return 0;
	while (i < t.len && t.s[i] == '0')
		i++;
	return t.len - i > 16 ? t.len - i : 0;
}

/* NULL or ZERO_SIZE_PTR ((void *)16, what kmalloc(0) returns), by value,
 * however the text wrote it ("(null)", "0x0", "0x00", "00000010"): short,
 * yet whole, so never taken for a pointer cut short, nor for the length of
 * the trace's pointers. */
static bool ptr_null_or_zero_size(uint64_t p)
{
	return p == 0 || p == 16;
}

/* A call-site label: the value without the options/fields "(decimal)". */
static struct slice site_text(struct slice v)
{
	struct slice t = first_tok(v);
	size_t i = t.len;
	while (i < v.len && is_space(v.s[i]))
		i++;
	if (i < v.len && v.s[i] == '(')
		return t;
	return v; /* "f+0x70/0xb0 [memleak]": the module stays */
}

/* accounted= as the kernel prints it ("true"/"false", v6.1 on), or as a
 * tool without the event's print format shows the raw byte ("1", "(1)");
 * false when it is none of these */
static bool accounted_value(struct slice v, bool *accounted)
{
	struct slice a = first_tok(v);
	*accounted = slice_is(a, "true") || slice_is(a, "1") || slice_is(a, "(1)");
	return *accounted || slice_is(a, "false") || slice_is(a, "0") || slice_is(a, "(0)");
}

/* Why a last line without '\n' is cut short, or NULL if it may be whole.
 * Every kernel from 2.6.32 on prints call_site and ptr first, then for
 * allocations bytes_req, bytes_alloc and gfp_flags (kmem.h; the 2025 name=
 * comes before bytes_req), then node= in the *_node events (before v6.1)
 * and accounted= after node= (v6.1 on: "... gfp_flags=%s node=%d
 * accounted=%s"). A line that stops before one of those, or in a value
 * (a gfp name we do not know, a ptr shorter than the others), was cut; a
 * cut inside the last value of an older format cannot be seen. */
static const char *cut_reason(struct svz_importer *im, const struct ev *ev)
{
	bool is_alloc = ev->kind == EV_KMALLOC || ev->kind == EV_CACHE_ALLOC;
	if (!ev->ptr.s || !ev->ptr.len)
		return "no ptr=";
	struct slice p = first_tok(ev->ptr);
	uint64_t pv;
	bool hashed;
	if (im->ptr_min && p.len < im->ptr_min &&
	    !(field_ptr(p, &pv, &hashed) && ptr_null_or_zero_size(pv)))
		return "ptr= shorter than the trace's other pointers";
	if (!is_alloc)
		return NULL;
	if (!ev->req.s)
		return "no bytes_req=";
	if (!ev->alloc.s)
		return "no bytes_alloc=";
	if (!ev->gfp.s || !ev->gfp.len)
		return "no gfp_flags=";
	bool unknown;
	struct slice g = first_tok(ev->gfp);
	parse_gfp(im, g.s, g.len, &unknown, false);
	if (unknown)
		return "gfp_flags= ends in a name the kernel does not print";
	if (ev->node.s && !ev->node_event && !ev->accounted.s)
		return "node= without the accounted= that follows it";
	bool acc;
	if (ev->accounted.s && !accounted_value(ev->accounted, &acc))
		return "accounted= is neither true nor false";
	return NULL;
}

static uint32_t page_size(const struct svz_importer *im)
{
	return im->base.topo.page_size ? im->base.topo.page_size : 4096;
}

/* kmem_cache_free name= against the cache the live object at e came from;
 * a disagreement is counted (the object is freed to its own cache anyway).
 * A kmalloc object's cache is the kmalloc cache of its size ("kmalloc-1k",
 * "kmalloc-cg-1k" ...); a named cache's is its name as declared, or the
 * name it shares with a cache of other sizes; an inferred cache has no name
 * of its own, so its frees vote for one, and a vote against the earlier
 * votes counts. */
static void check_free_name(struct svz_importer *im, const struct pent *e, struct slice nm)
{
	bool other;
	if (e->cache == NONE) {
		uint32_t g, bucket = imp_kmalloc_name(nm.s, nm.len, &g);
		other = !bucket || svz_kmalloc_size_roundup(bucket, page_size(im)) != e->bytes;
	} else if (im->cx[e->cache].info.inferred) {
		struct cache_x *x = &im->cx[e->cache];
		uint32_t v = strtab_intern(&im->votes, nm.s, nm.len, NULL);
		if (v == NONE) {
			im->oom = true;
			return;
		}
		if (!x->vote)
			x->vote = v + 1;
		other = x->vote != v + 1;
		x->vote_conflict |= other;
	} else {
		other = imp_named_cache(im, nm.s, nm.len) != im->cx[e->cache].first;
	}
	if (other)
		im->rep.free_other_cache++;
}

void imp_apply_event(struct svz_importer *im, struct ev *ev, uint64_t line)
{
	struct svz_import_report *r = &im->rep;
	char ex[64];
	static const char *const evname[] = { "kmalloc", "kmem_cache_alloc", "kfree",
					      "kmem_cache_free" };
	const char *en = evname[ev->kind];
	bool is_alloc = ev->kind == EV_KMALLOC || ev->kind == EV_CACHE_ALLOC;
	uint64_t ptr;
	bool hashed, of;

	if (im->at_eof) {
		const char *why = cut_reason(im, ev);
		if (why) {
			imp_bad_line(im, line, "%s cut short: %s (the input ends in this line, without a "
				     "newline): not imported", en, why);
			return;
		}
	}

	if (!ev->ptr.s) {
		imp_bad_line(im, line, "%s without ptr=", en);
		return;
	}
	if (!field_ptr(ev->ptr, &ptr, &hashed)) {
		size_t digits = hex_digits_past_64_bits(ev->ptr);
		if (digits)
			imp_bad_line(im, line, "ptr=%s is wider than 64 bits (%zu hex digits after the "
				     "leading zeros, at most 16)",
				     imp_excerpt(ev->ptr.s, first_tok(ev->ptr).len, 40, ex, sizeof ex), digits);
		else
			imp_bad_line(im, line, "expected ptr=HEX, (null) or (nil), got 'ptr=%s'",
				     imp_excerpt(ev->ptr.s, first_tok(ev->ptr).len, 40, ex, sizeof ex));
		return;
	}
	int64_t req = 0, alloc = 0, node = -1;
	bool accounted = false;
	if (is_alloc) {
		if (ev->req.s && !field_num(ev->req, &req, &of)) {
			imp_bad_line(im, line, "expected bytes_req=NUMBER%s, got 'bytes_req=%s'",
				     of ? " below 2^63" : "",
				     imp_excerpt(ev->req.s, first_tok(ev->req).len, 40, ex, sizeof ex));
			return;
		}
		if (ev->alloc.s && !field_num(ev->alloc, &alloc, &of)) {
			imp_bad_line(im, line, "expected bytes_alloc=NUMBER%s, got 'bytes_alloc=%s'",
				     of ? " below 2^63" : "",
				     imp_excerpt(ev->alloc.s, first_tok(ev->alloc).len, 40, ex, sizeof ex));
			return;
		}
		if (req < 0 || alloc < 0) {
			imp_bad_line(im, line, "expected sizes >= 0, got bytes_req=%" PRId64 " bytes_alloc=%" PRId64,
				     req, alloc);
			return;
		}
		/* both events print the bytes asked for and the bytes given, which
		 * hold them (kmem.h): a larger request is a corrupt line */
		if (ev->req.s && ev->alloc.s && req > alloc) {
			imp_bad_line(im, line, "%s: bytes_req=%" PRId64 " is larger than bytes_alloc=%" PRId64,
				     en, req, alloc);
			return;
		}
		if (ev->kind == EV_KMALLOC && !ev->req.s) {
			imp_bad_line(im, line, "kmalloc without bytes_req=");
			return;
		}
		if (ev->kind == EV_CACHE_ALLOC && !ev->name.s && !ev->req.s && !ev->alloc.s) {
			imp_bad_line(im, line, "kmem_cache_alloc without name= or bytes_alloc=");
			return;
		}
		if (ev->node.s && !field_num(ev->node, &node, &of)) {
			imp_bad_line(im, line, "expected node=NUMBER, got 'node=%s'",
				     imp_excerpt(ev->node.s, first_tok(ev->node).len, 40, ex, sizeof ex));
			return;
		}
		if (ev->accounted.s && !accounted_value(ev->accounted, &accounted)) {
			imp_bad_line(im, line, "expected accounted=true or false, got 'accounted=%s'",
				     imp_excerpt(ev->accounted.s, first_tok(ev->accounted).len, 40, ex,
						 sizeof ex));
			return;
		}
	}

	/* from here on the line is a well-formed kmem event */
	r->events++;
	if (!ptr_null_or_zero_size(ptr) &&
	    (!im->ptr_min || first_tok(ev->ptr).len < im->ptr_min))
		im->ptr_min = (uint32_t)first_tok(ev->ptr).len;
	if (ptr) {
		if (hashed)
			r->hashed_ptrs++;
		else
			r->raw_ptrs++;
	}
	if (im->nr_ops >= im->lim.max_ops) {
		imp_skip(im, SVZ_SKIP_OP_LIMIT);
		return;
	}
	/* a line without a CPU column replays on CPU 0 but is not "seen" there;
	 * every other event's CPU is seen, whether or not the event is kept */
	int cpu = 0;
	if (ev->cpu < 0) {
		r->no_cpu++;
	} else if (ev->cpu >= SVZ_MAX_CPUS) {
		imp_skip_cpu_beyond(im, ev->cpu);
		if (is_alloc && ptr)
			imp_mark_ptr(im, ptr, PS_SKIPPED);
		return;
	} else {
		cpu = (int)ev->cpu;
		imp_note_cpu(im, cpu);
	}

	if (!is_alloc) {
		if (ptr_null_or_zero_size(ptr)) {
			imp_skip(im, SVZ_SKIP_FREE_NULL);
			return;
		}
		struct pent *e = imp_ptab_find(im, ptr);
		if (!e) {
			imp_skip(im, SVZ_SKIP_FREE_UNKNOWN);
			return;
		}
		if (imp_free_skipped(im, e))
			return;
		bool named = e->cache != NONE;
		struct svz_op *op = imp_push_op(im, named && ev->kind == EV_CACHE_FREE ? SVZ_OP_FREE
										  : SVZ_OP_KFREE,
					    cpu, line);
		if (!op)
			return;
		if (op->type == SVZ_OP_FREE)
			op->cache = e->cache;
		op->handle = e->handle;
		if (ev->site.s) {
			struct slice st = site_text(ev->site);
			op->site = imp_intern_site(im, st.s, st.len);
		}
		if (ev->kind == EV_CACHE_FREE && ev->name.s)
			check_free_name(im, e, first_tok(ev->name));
		imp_free_ptr(im, e);
		r->kept++;
		return;
	}

	/* allocations */
	if (ptr == 0) {
		imp_skip(im, SVZ_SKIP_ALLOC_FAILED);
		return;
	}
	uint32_t gfp = GFP_KERNEL;
	if (ev->gfp.s) {
		bool unknown;
		struct slice g = first_tok(ev->gfp);
		gfp = parse_gfp(im, g.s, g.len, &unknown, true);
		if (unknown)
			r->gfp_unknown++;
		/* read in v6's bit layout; a number that asks for I/O or FS
		 * recursion but may not reclaim is no v6 gfp a kernel passes
		 * (GFP_KERNEL 0xcc0), while 4.x kernels printed GFP_KERNEL as
		 * 0x14000c0 or 0x6000c0, their reclaim bits higher up */
		if (g.len && is_digit(g.s[0]) && (gfp & (__GFP_IO | __GFP_FS)) && !(gfp & __GFP_RECLAIM))
			r->gfp_layout++;
	}
	if (accounted)
		gfp |= __GFP_ACCOUNT;
	if (node >= SVZ_MAX_NODES) {
		r->node_dropped++;
		node = -1;
	} else if (node >= 0 && node > r->max_node) {
		r->max_node = (int)node;
	}
	if (node < -1)
		node = -1;

	uint32_t kgfp = 0, bucket = 0, cache = NONE;
	struct slice nm = ev->name.s ? first_tok(ev->name) : (struct slice){ NULL, 0 };
	bool as_kmalloc = ev->kind == EV_KMALLOC;
	if (ev->kind == EV_CACHE_ALLOC && nm.len) {
		bucket = imp_kmalloc_name(nm.s, nm.len, &kgfp);
		as_kmalloc = bucket != 0;
	}
	uint64_t size = as_kmalloc && bucket ? bucket : (uint64_t)req;
	uint32_t page = page_size(im);
	uint32_t bytes;
	if (as_kmalloc) {
		if (!imp_kmalloc_ok(im, ptr, size))
			return;
		gfp |= kgfp;
		bytes = (uint32_t)svz_kmalloc_size_roundup(size, page);
		if (ev->kind == EV_KMALLOC && ev->alloc.s && (uint64_t)alloc != bytes)
			r->kmalloc_size_differs++;
	} else {
		if ((uint64_t)req > MAX_OBJECT || (uint64_t)alloc > MAX_OBJECT) {
			imp_skip_alloc(im, SVZ_SKIP_TOO_LARGE, ptr, PS_SKIPPED);
			return;
		}
		if (!nm.len && req == 0 && alloc == 0) {
			imp_skip_alloc(im, SVZ_SKIP_ZERO_SIZE, ptr, PS_SKIPPED);
			return;
		}
		if (nm.len && req == 0 && alloc == 0)
			req = 8; /* a named cache seen without sizes (bpftrace without bytes) */
		int why = -1;
		cache = imp_get_cache(im, nm.s, nm.len, (uint32_t)req, (uint32_t)alloc, &why);
		if (cache == NONE) {
			if (why < 0)
				return; /* out of memory */
			imp_skip_alloc(im, why, ptr, PS_SKIPPED);
			return;
		}
		struct cache_x *x = &im->cx[cache];
		x->info.allocs++;
		bytes = x->info.bytes_alloc ? x->info.bytes_alloc : x->info.object_size;
	}
	struct pent *e = imp_bind_ptr(im, ptr, cache, bytes, "p", true);
	if (!e)
		return;
	struct svz_op *op = imp_push_op(im, as_kmalloc ? SVZ_OP_KMALLOC : SVZ_OP_ALLOC, cpu, line);
	if (!op)
		return;
	op->gfp = gfp;
	op->node = (int16_t)node;
	op->handle = e->handle;
	if (as_kmalloc)
		op->size = (uint32_t)size;
	else
		op->cache = cache;
	if (ev->site.s) {
		struct slice st = site_text(ev->site);
		op->site = imp_intern_site(im, st.s, st.len);
	}
	r->kept++;
}

/* trace-cmd report's "CPU:1 [120 EVENTS DROPPED]" and "CPU:2 [EVENTS
 * DROPPED]" (trace-read.c: "CPU:%d [%lld EVENTS DROPPED]", "CPU:%d [EVENTS
 * DROPPED]", the count when the ring buffer kept it): true, with the count
 * added to lost_events or, without one, the line to lost_unknown. */
static bool dropped_line(struct svz_importer *im, const char *s, size_t n)
{
	static const char tail[] = "EVENTS DROPPED]";
	const size_t tl = sizeof tail - 1;
	struct slice t = trimmed(s, n);
	size_t k = 4;
	if (t.len < 4 + 1 + 2 + tl || memcmp(t.s, "CPU:", 4) != 0 ||
	    memcmp(t.s + t.len - tl, tail, tl) != 0)
		return false;
	while (k < t.len && is_digit(t.s[k]))
		k++;
	if (k == 4 || k + 2 > t.len || t.s[k] != ' ' || t.s[k + 1] != '[')
		return false;
	const char *c = t.s + k + 2, *e = t.s + t.len - tl; /* the count, if any: [c, e) */
	if (c == e) {
		im->rep.lost_unknown++;
		return true;
	}
	uint64_t v;
	if (e - c < 2 || e[-1] != ' ' || !imp_parse_dec(c, (size_t)(e - c - 1), &v))
		return false;
	im->rep.lost_events += v;
	return true;
}

bool imp_lost_line(struct svz_importer *im, const char *s, size_t n)
{
	static const char tag[] = "[LOST ";
	if (dropped_line(im, s, n))
		return true;
	for (size_t i = 0; i + sizeof tag - 1 < n; i++)
		if (memcmp(s + i, tag, sizeof tag - 1) == 0) {
			uint64_t v = 0;
			size_t j = i + sizeof tag - 1, k = j;
			while (k < n && is_digit(s[k]))
				k++;
			if (k > j && imp_parse_dec(s + j, k - j, &v))
				im->rep.lost_events += v;
			return true;
		}
	if (n > 5 && memcmp(s, "Lost ", 5) == 0) {
		uint64_t v = 0;
		size_t k = 5;
		while (k < n && is_digit(s[k]))
			k++;
		if (k > 5 && imp_parse_dec(s + 5, k - 5, &v)) {
			im->rep.lost_events += v;
			return true;
		}
	}
	return false;
}

void imp_other_event(struct svz_importer *im, const char *name, size_t len)
{
	im->rep.other_events++;
	imp_count_name(im->rep.other_names, &im->rep.nr_other_names, name, len);
}

void imp_init_ev(struct ev *ev, int kind, struct slice name, int64_t cpu)
{
	memset(ev, 0, sizeof *ev);
	ev->kind = kind;
	ev->cpu = cpu;
	ev->node_event = name.len > 5 && memcmp(name.s + name.len - 5, "_node", 5) == 0;
}

