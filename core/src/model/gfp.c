/* gfp flag names: parsing "GFP_KERNEL|__GFP_ZERO" / "mempool(GFP_NOIO)" and
 * printing them the way ftrace's show_gfp_flags() does. */
#include "lib/util.h"
#include "slubviz/gfp.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct gfp_name {
	uint32_t mask;
	const char *name;
};

/* The order of include/trace/events/mmflags.h (__def_gfpflag_names): a mask
 * matches only if all its bits are still set, and the matched bits are then
 * consumed, so composites with the most bits come first, then the single
 * bits in bit order. */
static const struct gfp_name gfp_names[] = {
#define GFP(name) { name, #name }
	GFP(GFP_USER),
	GFP(GFP_KERNEL_ACCOUNT),
	GFP(GFP_KERNEL),
	GFP(GFP_NOFS),
	GFP(GFP_ATOMIC),
	GFP(GFP_NOIO),
	GFP(GFP_NOWAIT),
	GFP(GFP_DMA),
	GFP(GFP_DMA32),
	GFP(__GFP_RECLAIM),
	GFP(__GFP_DMA),
	GFP(__GFP_HIGHMEM),
	GFP(__GFP_DMA32),
	GFP(__GFP_MOVABLE),
	GFP(__GFP_RECLAIMABLE),
	GFP(__GFP_HIGH),
	GFP(__GFP_IO),
	GFP(__GFP_FS),
	GFP(__GFP_ZERO),
	GFP(__GFP_DIRECT_RECLAIM),
	GFP(__GFP_KSWAPD_RECLAIM),
	GFP(__GFP_WRITE),
	GFP(__GFP_NOWARN),
	GFP(__GFP_RETRY_MAYFAIL),
	GFP(__GFP_NOFAIL),
	GFP(__GFP_NORETRY),
	GFP(__GFP_MEMALLOC),
	GFP(__GFP_COMP),
	GFP(__GFP_NOMEMALLOC),
	GFP(__GFP_HARDWALL),
	GFP(__GFP_THISNODE),
	GFP(__GFP_ACCOUNT),
	GFP(__GFP_NO_OBJ_EXT),
#undef GFP
};

#define NR_GFP_NAMES (sizeof gfp_names / sizeof gfp_names[0])


static int is_name_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* A number: "0x..." hex or decimal, fitting 32 bits. */
static int parse_number(const char *s, size_t len, uint32_t *out)
{
	uint64_t x = 0;
	unsigned base = 10;
	size_t i = 0;

	if (has_0x_prefix(s, len)) {
		base = 16;
		i = 2;
	}
	if (i == len)
		return -1;
	for (; i < len; i++) {
		unsigned d;
		char c = s[i];

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return -1;
		x = x * base + d;
		if (x > UINT32_MAX)
			return -1;
	}
	*out = (uint32_t)x;
	return 0;
}

struct gfp_parser {
	const char *s, *p;
	char *err;
	size_t errlen;
	int depth;
};

static void unknown_term(struct gfp_parser *g, const char *tok, size_t len)
{
	seterr(g->err, g->errlen,
	       "expected a gfp flag (GFP_KERNEL, GFP_NOWAIT, GFP_ATOMIC, GFP_NOIO, __GFP_ZERO, "
	       "mempool(...), 0x...), got '%.*s'", (int)(len > 40 ? 40 : len), tok);
}

static int parse_or(struct gfp_parser *g, uint32_t *out);

/* term := NAME | NUMBER | "none" | mempool(expr) */
static int parse_term(struct gfp_parser *g, uint32_t *out)
{
	const char *tok = g->p;
	size_t len = 0;

	while (is_name_char(tok[len]))
		len++;
	g->p = tok + len;
	if (len == 7 && memcmp(tok, "mempool", 7) == 0 && *g->p == '(') {
		uint32_t inner;

		/* Bounded so a hostile "mempool(mempool(..." cannot exhaust the stack. */
		if (++g->depth > 8) {
			seterr(g->err, g->errlen, "expected at most 8 nested mempool(), got more");
			return -1;
		}
		g->p++;
		if (parse_or(g, &inner))
			return -1;
		if (*g->p != ')') {
			if (*g->p)
				seterr(g->err, g->errlen, "expected ')' closing mempool(, got '%.20s'",
				       g->p);
			else
				seterr(g->err, g->errlen, "expected ')' closing mempool(, got end of flags");
			return -1;
		}
		g->p++;
		g->depth--;
		*out = svz_gfp_mempool_first(inner);
		return 0;
	}
	if (len == 0) {
		/* Name the stray character (or the gap) rather than nothing. */
		size_t bad = strcspn(tok, "|)");
		unknown_term(g, tok, bad ? bad : (*tok ? 1 : 0));
		return -1;
	}
	if (tok[0] >= '0' && tok[0] <= '9') {
		if (parse_number(tok, len, out) == 0)
			return 0;
		unknown_term(g, tok, len);
		return -1;
	}
	if (len == 4 && memcmp(tok, "none", 4) == 0) { /* what ftrace prints for 0 */
		*out = 0;
		return 0;
	}
	for (size_t i = 0; i < NR_GFP_NAMES; i++) {
		if (strlen(gfp_names[i].name) == len && memcmp(gfp_names[i].name, tok, len) == 0) {
			*out = gfp_names[i].mask;
			return 0;
		}
	}
	unknown_term(g, tok, len);
	return -1;
}

/* expr := term ('|' term)* */
static int parse_or(struct gfp_parser *g, uint32_t *out)
{
	uint32_t acc = 0, v;

	for (;;) {
		if (parse_term(g, &v))
			return -1;
		acc |= v;
		if (*g->p != '|')
			break;
		g->p++;
	}
	*out = acc;
	return 0;
}

int svz_gfp_parse(const char *s, uint32_t *out, char *err, size_t errlen)
{
	struct gfp_parser g = { s ? s : "", s ? s : "", err, errlen, 0 };
	uint32_t v;

	if (parse_or(&g, &v))
		return -1;
	if (*g.p) {
		size_t bad = strcspn(g.p, "|()");
		unknown_term(&g, g.p, bad ? bad : 1);
		return -1;
	}
	*out = v;
	return 0;
}

void svz_gfp_format(uint32_t gfp, char *buf, size_t len)
{
	size_t used = 0;

	if (!len)
		return;
	buf[0] = 0;
	if (gfp == 0) {
		snprintf(buf, len, "0");
		return;
	}
	for (size_t i = 0; i < NR_GFP_NAMES && gfp; i++) {
		if ((gfp & gfp_names[i].mask) != gfp_names[i].mask)
			continue;
		gfp &= ~gfp_names[i].mask;
		used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s",
					 used ? "|" : "", gfp_names[i].name);
		if (used >= len)
			return;
	}
	if (gfp) /* bits without a name, as __print_flags() shows them */
		snprintf(buf + used, len - used, "%s0x%x", used ? "|" : "", gfp);
}
