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
	{ GFP_USER, "GFP_USER" },
	{ GFP_KERNEL_ACCOUNT, "GFP_KERNEL_ACCOUNT" },
	{ GFP_KERNEL, "GFP_KERNEL" },
	{ GFP_NOFS, "GFP_NOFS" },
	{ GFP_ATOMIC, "GFP_ATOMIC" },
	{ GFP_NOIO, "GFP_NOIO" },
	{ GFP_NOWAIT, "GFP_NOWAIT" },
	{ GFP_DMA, "GFP_DMA" },
	{ GFP_DMA32, "GFP_DMA32" },
	{ __GFP_RECLAIM, "__GFP_RECLAIM" },
	{ __GFP_DMA, "__GFP_DMA" },
	{ __GFP_HIGHMEM, "__GFP_HIGHMEM" },
	{ __GFP_DMA32, "__GFP_DMA32" },
	{ __GFP_MOVABLE, "__GFP_MOVABLE" },
	{ __GFP_RECLAIMABLE, "__GFP_RECLAIMABLE" },
	{ __GFP_HIGH, "__GFP_HIGH" },
	{ __GFP_IO, "__GFP_IO" },
	{ __GFP_FS, "__GFP_FS" },
	{ __GFP_ZERO, "__GFP_ZERO" },
	{ __GFP_DIRECT_RECLAIM, "__GFP_DIRECT_RECLAIM" },
	{ __GFP_KSWAPD_RECLAIM, "__GFP_KSWAPD_RECLAIM" },
	{ __GFP_WRITE, "__GFP_WRITE" },
	{ __GFP_NOWARN, "__GFP_NOWARN" },
	{ __GFP_RETRY_MAYFAIL, "__GFP_RETRY_MAYFAIL" },
	{ __GFP_NOFAIL, "__GFP_NOFAIL" },
	{ __GFP_NORETRY, "__GFP_NORETRY" },
	{ __GFP_MEMALLOC, "__GFP_MEMALLOC" },
	{ __GFP_COMP, "__GFP_COMP" },
	{ __GFP_NOMEMALLOC, "__GFP_NOMEMALLOC" },
	{ __GFP_HARDWALL, "__GFP_HARDWALL" },
	{ __GFP_THISNODE, "__GFP_THISNODE" },
	{ __GFP_ACCOUNT, "__GFP_ACCOUNT" },
	{ __GFP_NO_OBJ_EXT, "__GFP_NO_OBJ_EXT" },
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

	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
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
