/* Internal interface between the session layer (session.c, the C API) and
 * the model (everything else in core/src). */
#ifndef SVZ_MODEL_H
#define SVZ_MODEL_H

#include "lib/sbuf.h" /* the CLI and api/ take the string builder from here */
#include "model/types.h"

/* Create the model for a parsed trace: topology, caches, kmalloc caches are
 * created lazily. Returns 0 or -1 with a message. */
/* What model_init() refuses in a trace (the topology, a cache no slab can
 * hold), found without building the model: 0, or -1 with the same message. */
int model_check(const struct svz_trace *t, const struct svz_config *cfg, char *err, size_t errlen);
ARENA_MOVES int model_init(struct model *m, const struct svz_trace *t, const struct svz_config *cfg,
	       char *err, size_t errlen);
void model_destroy(struct model *m);

/* sched.c: what model_check() refuses in a schedule (explicit without steps). */
int sched_check(const struct svz_trace *t, const struct svz_config *cfg, char *err, size_t errlen);
ARENA_MOVES int model_step(struct model *m);              /* default scheduler */
ARENA_MOVES int model_run_ops(struct model *m, uint32_t until); /* whole ops of it, below `until` */
ARENA_MOVES int model_step_cpu(struct model *m, int cpu);

/* Cache an op works on (creating a kmalloc cache on first use); NIL for a
 * large kmalloc / kfree. Inline, once an op: a named cache is one lookup;
 * kmalloc and kfree look further (model_op_cache_k(), cache.c). */
ARENA_MOVES idx_t model_op_cache_k(struct model *m, const struct svz_op *op);
static inline ARENA_MOVES idx_t model_op_cache(struct model *m, const struct svz_op *op)
{
	if (op->type == SVZ_OP_KMALLOC || op->type == SVZ_OP_KFREE)
		return model_op_cache_k(m, op);
	if (op->cache == SVZ_NO_CACHE)
		return NIL;
	/* a trace cache, or the cache it merged into */
	idx_t c = *u32_at(m, WORLD(m)->cache_map + op->cache);
	return cache_r(m, c)->alive ? c : NIL;
}
ARENA_MOVES idx_t kmalloc_cache_for(struct model *m, uint32_t size);
idx_t model_find_cache(struct model *m, const char *name);
/* The validator's check of kmalloc_cache()'s kept answers (cache.c). */
int kmalloc_caches_check(struct model *m, int *type, unsigned *index, idx_t *cache);
/* slab_unmergeable(): no other cache may merge into it (its sysfs folder
 * is then its name, not a unique id). */
bool cache_unmergeable(struct model *m, idx_t c);

/* validate.c: 0 if every invariant holds; else reports (also appended to the
 * model's report log) and returns the number of violations. */
int model_validate(struct model *m, char *out, size_t outlen);

#endif
