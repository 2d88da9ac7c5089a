/* The pointer table: one entry per distinct pointer (or malloc-lab id),
 * open addressing, so memory is one entry per pointer, never per event.
 * It pairs each free with the allocation it undoes and binds each object a
 * handle; the ops and call-site labels the trace is made of. */
#include "import/importer.h"

#include <stdlib.h>

static uint32_t hash_key(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return (uint32_t)k;
}

static bool ptab_grow(struct svz_importer *im)
{
	uint32_t n = im->pslots ? im->pslots * 2 : 1024;
	if (n < im->pslots)
		return false;
	struct pent *t = calloc(n, sizeof *t);
	if (!t)
		return false;
	for (uint32_t i = 0; i < im->pslots; i++) {
		struct pent *e = &im->ptab[i];
		if (!e->state)
			continue;
		uint32_t j = hash_key(e->key) & (n - 1);
		while (t[j].state)
			j = (j + 1) & (n - 1);
		t[j] = *e;
	}
	free(im->ptab);
	im->ptab = t;
	im->pslots = n;
	return true;
}

struct pent *imp_ptab_find(struct svz_importer *im, uint64_t key)
{
	if (!im->pslots)
		return NULL;
	for (uint32_t i = hash_key(key) & (im->pslots - 1);; i = (i + 1) & (im->pslots - 1)) {
		struct pent *e = &im->ptab[i];
		if (!e->state)
			return NULL;
		if (e->key == key)
			return e;
	}
}

/* The entry for key, a new one (state 0 until set) if absent; NULL on OOM. */
static struct pent *ptab_get(struct svz_importer *im, uint64_t key, bool *isnew)
{
	struct pent *e = imp_ptab_find(im, key);
	*isnew = false;
	if (e)
		return e;
	if (((uint64_t)im->pused + 1) * 2 > im->pslots && !ptab_grow(im))
		return NULL;
	uint32_t i = hash_key(key) & (im->pslots - 1);
	while (im->ptab[i].state)
		i = (i + 1) & (im->pslots - 1);
	e = &im->ptab[i];
	memset(e, 0, sizeof *e);
	e->key = key;
	e->handle = NONE;
	e->cache = NONE;
	e->state = PS_SKIPPED; /* placeholder; callers set the real state */
	im->pused++;
	*isnew = true;
	return e;
}

static uint32_t new_handle(struct svz_importer *im, const char *prefix, uint64_t key, uint32_t gen,
			   bool hex)
{
	/* prefix, the key in hex or decimal, ".gen" when gen > 0 (no printf:
	 * this runs once per object) */
	char name[48], digits[24];
	size_t n = 0, d = 0;
	while (prefix[n])
		name[n] = prefix[n], n++;
	do {
		unsigned v = hex ? (unsigned)(key & 15) : (unsigned)(key % 10);
		digits[d++] = (char)(v < 10 ? '0' + v : 'a' + v - 10);
		key = hex ? key >> 4 : key / 10;
	} while (key);
	while (d)
		name[n++] = digits[--d];
	if (gen) {
		name[n++] = '.';
		do {
			digits[d++] = (char)('0' + gen % 10);
			gen /= 10;
		} while (gen);
		while (d)
			name[n++] = digits[--d];
	}
	name[n] = 0;
	if (!GROW(im->handles, im->cap_handles, (uint64_t)im->nr_handles + 1)) {
		im->oom = true;
		return NONE;
	}
	char *copy = malloc(n + 1);
	if (!copy) {
		im->oom = true;
		return NONE;
	}
	memcpy(copy, name, n + 1);
	im->handles[im->nr_handles] = copy;
	return im->nr_handles++;
}

struct svz_op *imp_push_op(struct svz_importer *im, uint8_t type, int cpu, uint64_t line)
{
	if (!GROW(im->ops, im->cap_ops, (uint64_t)im->nr_ops + 1)) {
		im->oom = true;
		return NULL;
	}
	struct svz_op *op = &im->ops[im->nr_ops++];
	memset(op, 0, sizeof *op);
	op->type = type;
	op->cpu = (uint16_t)cpu;
	op->node = SVZ_NO_NODE;
	op->cache = SVZ_NO_CACHE;
	op->line = line > UINT32_MAX ? UINT32_MAX : (uint32_t)line;
	im->rep.ops++;
	return op;
}

/* A call-site label fit for v1 (`at=` token): blanks dropped, '#', '{', '}',
 * '$' and other bytes outside '!'..'~' become '_'; cut at MAX_SITE. */
uint32_t imp_intern_site(struct svz_importer *im, const char *s, size_t len)
{
	char buf[MAX_SITE + 1];
	size_t o = 0;
	for (size_t i = 0; i < len && o < MAX_SITE; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == ' ' || c == '\t')
			continue;
		buf[o++] = (c < 0x21 || c > 0x7e || c == '#' || c == '{' || c == '}' || c == '$') ? '_'
											      : (char)c;
	}
	if (!o)
		return 0;
	uint32_t id = strtab_intern(&im->sites, buf, o, NULL);
	if (id == NONE) {
		im->oom = true;
		return 0;
	}
	return id;
}

/* A CPU column no machine has (NR_CPUS is at most 8192): a bad line, true.
 * `tok` is the column as written, for the message. */
bool imp_cpu_out_of_range(struct svz_importer *im, uint64_t line, uint64_t cpu, struct slice tok)
{
	char ex[64];
	if (cpu <= MAX_CPU_ID)
		return false;
	imp_bad_line(im, line, "CPU out of range: expected at most %d, got '%s'", MAX_CPU_ID,
		     imp_excerpt(tok.s, tok.len, 24, ex, sizeof ex));
	return true;
}

/* an event on a CPU the model does not have: skipped, but the CPU was seen */
void imp_skip_cpu_beyond(struct svz_importer *im, int64_t cpu)
{
	struct svz_import_report *r = &im->rep;
	if (r->cpus_beyond_lo < 0 || cpu < r->cpus_beyond_lo)
		r->cpus_beyond_lo = cpu;
	if (cpu > r->cpus_beyond_hi)
		r->cpus_beyond_hi = cpu;
	imp_skip(im, SVZ_SKIP_CPU_LIMIT);
}

void imp_note_cpu(struct svz_importer *im, int cpu)
{
	im->rep.cpus_seen[cpu / 64] |= 1ull << (cpu % 64);
	if (cpu > im->max_cpu)
		im->max_cpu = cpu;
}

/* A free of a pointer whose allocation was not kept: counted and skipped
 * (already freed, allocation skipped, or a NULL/zero-size allocation,
 * which any number of frees may name). A
 * pointer allocated again while live left its older object allocated: the
 * next free after the newer object's may be that object's (a hashed-%p
 * collision, or a lost free and a lost allocation), so it is not "already
 * freed"; it is skipped as free-rebound, and the older object stays. */
bool imp_free_skipped(struct svz_importer *im, struct pent *e)
{
	switch (e->state) {
	case PS_FREED:
		if (e->older) {
			e->older--;
			imp_skip(im, SVZ_SKIP_FREE_REBOUND);
		} else {
			imp_skip(im, SVZ_SKIP_FREE_TWICE);
		}
		return true;
	case PS_SKIPPED:
		e->state = PS_FREED;
		imp_skip(im, SVZ_SKIP_FREE_SKIPPED);
		return true;
	case PS_ZERO: /* ZERO_SIZE_PTR (hashed, it is the same value every
		       * time): every kfree of it is a no-op, so it stays */
		imp_skip(im, SVZ_SKIP_FREE_NULL);
		return true;
	}
	return false;
}

/* The entry for an allocation at key. A pointer allocated again while live
 * leaves its old object allocated (unpaired); the new one needs a new handle. */
static struct pent *alloc_ptr(struct svz_importer *im, uint64_t key)
{
	bool isnew;
	struct pent *e = ptab_get(im, key, &isnew);
	if (!e) {
		im->oom = true;
		return NULL;
	}
	if (!isnew && e->state == PS_LIVE) {
		im->rep.rebound++;
		im->live--;
		im->live_bytes -= e->bytes;
		e->gen++;
		e->older++;
		e->handle = NONE;
	}
	return e;
}

/* Remember a skipped allocation's pointer so its free is not mistaken for
 * the free of an object from before the trace. */
void imp_mark_ptr(struct svz_importer *im, uint64_t key, uint8_t state)
{
	struct pent *e = alloc_ptr(im, key);
	if (e)
		e->state = state;
}

void imp_skip_alloc(struct svz_importer *im, int why, uint64_t key, uint8_t state)
{
	imp_skip(im, why);
	imp_mark_ptr(im, key, state);
}

bool imp_kmalloc_ok(struct svz_importer *im, uint64_t key, uint64_t size)
{
	if (size == 0) {
		imp_skip_alloc(im, SVZ_SKIP_ZERO_SIZE, key, PS_ZERO);
		return false;
	}
	if (size > MAX_OBJECT) {
		imp_skip_alloc(im, SVZ_SKIP_TOO_LARGE, key, PS_SKIPPED);
		return false;
	}
	return true;
}

static void live_add(struct svz_importer *im, uint32_t bytes)
{
	im->live++;
	im->live_bytes += bytes;
	if (im->live_bytes > im->rep.peak_live_bytes)
		im->rep.peak_live_bytes = im->live_bytes;
}

/* Binds key to a fresh object: a handle (reused if the last one was freed)
 * and the live state. NULL on OOM. */
struct pent *imp_bind_ptr(struct svz_importer *im, uint64_t key, uint32_t cache, uint32_t bytes,
			  const char *prefix, bool hex)
{
	struct pent *e = alloc_ptr(im, key);
	if (!e)
		return NULL;
	if (e->handle == NONE) {
		e->handle = new_handle(im, prefix, key, e->gen, hex);
		if (e->handle == NONE)
			return NULL;
	}
	e->state = PS_LIVE;
	e->cache = cache;
	e->bytes = bytes;
	live_add(im, bytes);
	return e;
}

/* The object at e is freed. */
void imp_free_ptr(struct svz_importer *im, struct pent *e)
{
	e->state = PS_FREED;
	im->live--;
	im->live_bytes -= e->bytes;
}
