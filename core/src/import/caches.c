/* Cache inference: a kmem_cache_alloc names its cache (name=, since 2025)
 * or shows only its sizes; either way the trace gets a declaration whose
 * s->size, as the model computes it (sizing.c), is the bytes_alloc the
 * kernel printed. Allocations from kmalloc caches by name become kmalloc
 * ops. Inferred caches take the name their kmem_cache_free events agree on. */
#include "import/importer.h"

#include <stdio.h>

#include "slubviz/gfp.h"
#include "slubviz/sizing.h"

/* s->size the model computes for a declaration. 0 if impossible. */
static uint32_t geom_size(const struct svz_importer *im, uint32_t object, uint32_t align,
			  uint32_t flags, bool ctor)
{
	struct svz_geom_in in = {
		.object_size = object, .align = align, .flags = flags, .ctor = ctor,
		.page_size = im->base.topo.page_size ? im->base.topo.page_size : 4096,
		.nr_cpus = 4, .form = im->base.sw.order_form, .era = im->base.sw.era,
	};
	struct svz_geom g;
	char err[160];
	if (svz_calculate_geometry(&in, &g, err, sizeof err))
		return 0;
	return g.size;
}

/* Choose object_size/align/flags/ctor so the model's s->size is
 * bytes_alloc: plain, then SLAB_HWCACHE_ALIGN, then an explicit power-of-two
 * align; then the same three with a constructor, whose free pointer
 * calculate_sizes() moves after the object (radix_tree_node: 576 -> 584),
 * while s->object_size stays bytes_req. If none fits (slub_debug metadata,
 * odd alignments), object_size = bytes_alloc. Returns false if no slab can
 * hold the object. */
static bool choose_decl(const struct svz_importer *im, struct svz_cache_decl *d,
			struct svz_import_cache *info, uint32_t req, uint32_t alloc)
{
	uint32_t obj = req ? req : alloc;
	d->object_size = obj;
	d->align = 0;
	d->flags = 0;
	d->ctor = false;
	if (!geom_size(im, obj, 0, 0, false))
		return false;
	if (!req || !alloc || alloc < req)
		return true;
	for (int ctor = 0; ctor < 2; ctor++) {
		d->ctor = info->ctor = ctor;
		if (geom_size(im, req, 0, 0, ctor) == alloc)
			return true;
		if (geom_size(im, req, 0, SLAB_HWCACHE_ALIGN, ctor) == alloc) {
			d->flags = SLAB_HWCACHE_ALIGN;
			return true;
		}
		for (uint32_t a = 16; a <= 65536 && a <= alloc; a *= 2)
			if (geom_size(im, req, a, 0, ctor) == alloc) {
				d->align = a;
				return true;
			}
	}
	d->ctor = info->ctor = false;
	if (!geom_size(im, alloc, 0, 0, false))
		return false;
	d->object_size = alloc;
	info->size_fallback = true;
	return true;
}

/* A trace's cache name as v1 declares it (key, NUL-terminated, at most
 * SVZ_TRACE_MAX_CACHE_NAME bytes): v1's alphabet, the engine's prefixes
 * ("kmalloc-") moved aside with "x-". Its length; *adjusted if it changed. */
static size_t cache_key(const char *name, size_t nlen, char key[static 64], bool *adjusted)
{
	size_t klen = 0;
	*adjusted = nlen > SVZ_TRACE_MAX_CACHE_NAME;
	for (size_t i = 0; i < nlen && klen < SVZ_TRACE_MAX_CACHE_NAME; i++) {
		char c = svz_trace_cache_name_char(name[i]) ? name[i] : '_';
		*adjusted |= c != name[i];
		key[klen++] = c;
	}
	key[klen] = 0;
	/* v1 reserves these prefixes for the engine's own caches */
	if (svz_trace_cache_name_reserved(key, klen)) {
		memmove(key + 2, key, klen + 1 > 62 ? 62 : klen + 1);
		key[0] = 'x';
		key[1] = '-';
		key[63] = 0;
		klen = strlen(key);
		*adjusted = true;
	}
	return klen;
}

uint32_t imp_named_cache(const struct svz_importer *im, const char *name, size_t nlen)
{
	char key[64];
	bool adjusted;
	size_t klen = cache_key(name, nlen, key, &adjusted);
	return strtab_find(&im->cache_index, key, klen);
}

/* The cache for a kmem_cache_alloc: by name (adjusted to v1's alphabet), or
 * inferred from the sizes. NONE with *skip set when it cannot be made. */
uint32_t imp_get_cache(struct svz_importer *im, const char *name, size_t nlen, uint32_t req,
		       uint32_t alloc, int *skip)
{
	char key[96];
	size_t klen, shown_len;
	bool adjusted = false;
	uint32_t first = NONE; /* the first cache of this name */
	if (nlen) {
		klen = shown_len = cache_key(name, nlen, key, &adjusted);
		first = strtab_find(&im->cache_index, key, klen);
		const struct svz_import_cache *f = first != NONE ? &im->cx[first].info : NULL;
		/* kmem_cache_alloc prints s->object_size and s->size, fixed for a
		 * cache's life: other sizes under the same name are another cache
		 * (a module reloaded, re-creating its cache with a new layout). It
		 * gets a declaration of its own, as an inferred cache would, keyed
		 * "NAME\1REQ-ALLOC" and declared as NAME.2 (names stay unique). */
		if (f && alloc && f->bytes_alloc && (f->bytes_req != req || f->bytes_alloc != alloc)) {
			klen += (size_t)snprintf(key + klen, sizeof key - klen, "\1%u-%u", req, alloc);
			adjusted = true;
		}
	} else {
		klen = (size_t)snprintf(key, sizeof key, "\1%u-%u", req, alloc);
		shown_len = 0;
	}
	/* a named cache whose sizes match is the one looked up already */
	uint32_t id = nlen && klen == shown_len ? first : strtab_find(&im->cache_index, key, klen);
	if (id != NONE) {
		if (adjusted)
			im->rep.names_adjusted++;
		return id;
	}
	if (im->nr_caches >= im->lim.max_caches) {
		*skip = SVZ_SKIP_CACHE_LIMIT;
		return NONE;
	}
	struct svz_cache_decl d;
	struct svz_import_cache info;
	memset(&d, 0, sizeof d);
	memset(&info, 0, sizeof info);
	if (!choose_decl(im, &d, &info, req, alloc)) {
		*skip = SVZ_SKIP_TOO_LARGE;
		return NONE;
	}
	if (nlen)
		snprintf(d.name, sizeof d.name, "%.*s", (int)shown_len, key);
	else
		snprintf(d.name, sizeof d.name, "inferred-%u-%u", req, alloc);
	/* a trace may name a cache "inferred-8-8" too: declared names stay unique */
	char orig[64];
	memcpy(orig, d.name, sizeof orig);
	for (unsigned k = 2; strtab_find(&im->shown, d.name, strlen(d.name)) != NONE && k < 100000; k++)
		snprintf(d.name, sizeof d.name, "%.54s.%u", orig, k);
	if (strtab_intern(&im->shown, d.name, strlen(d.name), NULL) == NONE) {
		im->oom = true;
		return NONE;
	}
	if (!GROW(im->caches, im->cap_caches, (uint64_t)im->nr_caches + 1) ||
	    !GROW(im->cx, im->cap_cx, (uint64_t)im->nr_caches + 1)) {
		im->oom = true;
		return NONE;
	}
	id = strtab_intern(&im->cache_index, key, klen, NULL);
	if (id == NONE) {
		im->oom = true;
		return NONE;
	}
	if (adjusted)
		im->rep.names_adjusted++;
	im->caches[id] = d;
	struct cache_x *x = &im->cx[id];
	memset(x, 0, sizeof *x);
	x->info = info;
	memcpy(x->info.name, d.name, sizeof x->info.name);
	x->info.bytes_req = req;
	x->info.bytes_alloc = alloc;
	x->info.object_size = d.object_size;
	x->info.align = d.align;
	x->info.flags = d.flags;
	x->info.inferred = nlen == 0;
	x->info.recreates = first != NONE ? (int32_t)first : -1;
	x->first = first != NONE ? first : id;
	im->nr_caches++;
	return id;
}

/* "kmalloc-64", "kmalloc-cg-1k", "kmalloc-rcl-96", "dma-kmalloc-8k",
 * "kmalloc-rnd-03-128": the bucket size and the gfp bits that select that
 * kmalloc type; 0 if not a kmalloc cache name. */
uint32_t imp_kmalloc_name(const char *s, size_t len, uint32_t *gfp)
{
	*gfp = 0;
	if (len > 4 && memcmp(s, "dma-", 4) == 0) {
		*gfp |= __GFP_DMA;
		s += 4;
		len -= 4;
	}
	if (len < 9 || memcmp(s, "kmalloc-", 8) != 0)
		return 0;
	s += 8;
	len -= 8;
	if (len > 3 && memcmp(s, "cg-", 3) == 0) {
		*gfp |= __GFP_ACCOUNT;
		s += 3;
		len -= 3;
	} else if (len > 4 && memcmp(s, "rcl-", 4) == 0) {
		*gfp |= __GFP_RECLAIMABLE;
		s += 4;
		len -= 4;
	} else if (len > 4 && memcmp(s, "rnd-", 4) == 0) {
		/* CONFIG_RANDOM_KMALLOC_CACHES copies: modelled as the plain bucket */
		s += 4;
		len -= 4;
		while (len && *s >= '0' && *s <= '9')
			s++, len--;
		if (!len || *s != '-')
			return 0;
		s++, len--;
	}
	uint64_t v = 0;
	size_t i = 0;
	for (; i < len && s[i] >= '0' && s[i] <= '9' && v < MAX_OBJECT; i++)
		v = v * 10 + (uint64_t)(s[i] - '0');
	if (i == 0)
		return 0;
	if (i + 1 == len && s[i] == 'k')
		v *= 1024, i++;
	if (i != len || v == 0 || v > MAX_OBJECT)
		return 0;
	return (uint32_t)v;
}

static bool valid_cache_name(const char *s, size_t n)
{
	if (n == 0 || n > SVZ_TRACE_MAX_CACHE_NAME)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!svz_trace_cache_name_char(s[i]))
			return false;
	return !svz_trace_cache_name_reserved(s, n);
}

/* Inferred caches whose frees all named one cache take that name, unless
 * another cache has it or wants it. */
void imp_name_from_frees(struct svz_importer *im)
{
	for (uint32_t c = 0; c < im->nr_caches; c++) {
		struct cache_x *x = &im->cx[c];
		if (!x->info.inferred || !x->vote || x->vote_conflict)
			continue;
		const char *nm = im->votes.names[x->vote - 1];
		bool ok = valid_cache_name(nm, strlen(nm));
		for (uint32_t o = 0; ok && o < im->nr_caches; o++) {
			if (o == c)
				continue;
			if (strcmp(im->caches[o].name, nm) == 0 ||
			    (im->cx[o].info.inferred && im->cx[o].vote == x->vote && !im->cx[o].vote_conflict))
				ok = false;
		}
		if (!ok)
			continue;
		snprintf(im->caches[c].name, sizeof im->caches[c].name, "%s", nm);
		snprintf(x->info.name, sizeof x->info.name, "%s", nm);
		x->info.named_by_free = true;
	}
}
