#include "lib/strtab.h"

#include <stdlib.h>
#include <string.h>

static uint32_t hash_bytes(const char *s, size_t len)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

uint32_t strtab_find(const struct strtab *st, const char *s, size_t len)
{
	if (!st->nslots)
		return STRTAB_NONE;
	for (uint32_t i = hash_bytes(s, len) & (st->nslots - 1);; i = (i + 1) & (st->nslots - 1)) {
		uint32_t v = st->slots[i];
		if (!v)
			return STRTAB_NONE;
		const char *nm = st->names[v - 1];
		if (strncmp(nm, s, len) == 0 && nm[len] == 0)
			return v - 1;
	}
}

static bool rehash(struct strtab *st)
{
	uint32_t nslots = st->nslots ? st->nslots * 2 : 64;
	if (nslots < st->nslots)
		return false;
	uint32_t *slots = calloc(nslots, sizeof *slots);
	if (!slots)
		return false;
	for (uint32_t id = 0; id < st->n; id++) {
		uint32_t i = hash_bytes(st->names[id], strlen(st->names[id])) & (nslots - 1);
		while (slots[i])
			i = (i + 1) & (nslots - 1);
		slots[i] = id + 1;
	}
	free(st->slots);
	st->slots = slots;
	st->nslots = nslots;
	return true;
}

struct strblock {
	struct strblock *next;
	size_t used, cap;
	char data[];
};

#define STRBLOCK_SIZE 65536

static char *pool_copy(struct strpool *p, const char *s, size_t len)
{
	struct strblock *b = p->blocks;
	if (!b || b->cap - b->used < len + 1) {
		size_t cap = len + 1 > STRBLOCK_SIZE ? len + 1 : STRBLOCK_SIZE;
		b = malloc(sizeof *b + cap);
		if (!b)
			return NULL;
		b->next = p->blocks;
		b->used = 0;
		b->cap = cap;
		p->blocks = b;
	}
	char *copy = b->data + b->used;
	memcpy(copy, s, len);
	copy[len] = 0;
	b->used += len + 1;
	return copy;
}

void strpool_free(struct strblock *blocks)
{
	while (blocks) {
		struct strblock *next = blocks->next;
		free(blocks);
		blocks = next;
	}
}

uint32_t strtab_intern(struct strtab *st, const char *s, size_t len, bool *added)
{
	uint32_t id = strtab_find(st, s, len);
	if (added)
		*added = false;
	if (id != STRTAB_NONE)
		return id;
	if (st->n >= STRTAB_NONE - 1)
		return STRTAB_NONE;
	if (st->n + 1 > st->cap) {
		uint32_t cap = st->cap ? st->cap * 2 : 16;
		char **names = realloc(st->names, (size_t)cap * sizeof *names);
		if (!names)
			return STRTAB_NONE;
		st->names = names;
		st->cap = cap;
	}
	if ((uint64_t)(st->n + 1) * 2 > st->nslots && !rehash(st))
		return STRTAB_NONE;
	char *copy = st->pool ? pool_copy(st->pool, s, len) : malloc(len + 1);
	if (!copy)
		return STRTAB_NONE;
	if (!st->pool) {
		memcpy(copy, s, len);
		copy[len] = 0;
	}
	id = st->n++;
	st->names[id] = copy;
	for (uint32_t i = hash_bytes(s, len) & (st->nslots - 1);; i = (i + 1) & (st->nslots - 1))
		if (!st->slots[i]) {
			st->slots[i] = id + 1;
			break;
		}
	if (added)
		*added = true;
	return id;
}

void strtab_free(struct strtab *st, bool names_too)
{
	if (names_too) {
		for (uint32_t i = 0; i < st->n && !st->pool; i++)
			free(st->names[i]);
		free(st->names);
	}
	free(st->slots);
	memset(st, 0, sizeof *st);
}
