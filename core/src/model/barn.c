/* node_barn: per-node stock of full and empty sheaves (v7.0).
 * Lists are LIFO (list_add at the head, take the first). The put helpers
 * ignore MAX_FULL_SHEAVES / MAX_EMPTY_SHEAVES; only
 * barn_replace_full_sheaf() enforces MAX_FULL_SHEAVES (-E2BIG).
 * No helper counts stats: the callers do (BARN_GET, BARN_PUT, ...).
 *   nr_full  == |sheaves_full|,  every full-list sheaf has size == capacity
 *   nr_empty == |sheaves_empty|, every empty-list sheaf has size == 0 */
#include "model/engine.h"

#define BARN(f) barn_r(m, (f)->a)

static idx_t take_first(struct model *m, struct barn_rec *b, bool full)
{
	struct dlist *l = full ? &b->sheaves_full : &b->sheaves_empty;
	idx_t sh = l->first;
	dlist_del(m, P_SHEAF, l, sh);
	if (full)
		b->nr_full--;
	else
		b->nr_empty--;
	sheaf_place(m, sh, SH_DETACHED, -1);
	return sh;
}

static void put(struct model *m, struct barn_rec *b, idx_t sh, bool full)
{
	dlist_add(m, P_SHEAF, full ? &b->sheaves_full : &b->sheaves_empty, sh, false);
	if (full)
		b->nr_full++;
	else
		b->nr_empty++;
	sheaf_place(m, sh, full ? SH_BARN_FULL : SH_BARN_EMPTY, b->node);
}

/* a = barn, b = the empty sheaf to hand in, flag1 = allow_spin.
 * Returns the full sheaf taken, or -1. */
int co_BARN_REPLACE_EMPTY(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (BARN(f)->nr_full == 0) {
		CHECK_EV(CHK_BARN_NO_FULL, .node = BARN(f)->node);
		CO_RETURN(-1);
	}
	LOCK(LK_BARN_LOCK, f->a, !f->flag1);
	if (!f->ret)
		CO_RETURN(-1);
	f->x = NIL;
	if (BARN(f)->nr_full) {
		f->x = take_first(m, BARN(f), true);
		EV(.kind = EV_MOVE_SHEAF, .fn = f_kfn(f), .sheaf = f->x, .from = LOC_BARN_FULL,
		   .to = LOC_MAIN, .node = BARN(f)->node, .value = sheaf_size(m, f->x));
		sheaf_place(m, f->b, SH_DETACHED, -1);
		put(m, BARN(f), f->b, false);
		EV(.kind = EV_MOVE_SHEAF, .fn = f_kfn(f), .sheaf = f->b, .from = LOC_MAIN,
		   .to = LOC_BARN_EMPTY, .node = BARN(f)->node, .value = 0);
	}
	UNLOCK(LK_BARN_LOCK, f->a);
	CO_RETURN(f->x == NIL ? -1 : (int32_t)f->x);
	CO_END;
}

/* a = barn, flag1 = allow_spin. Returns an empty sheaf or -1. */
int co_BARN_GET_EMPTY(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (BARN(f)->nr_empty == 0) {
		CHECK_EV(CHK_BARN_NO_EMPTY, .node = BARN(f)->node);
		CO_RETURN(-1);
	}
	LOCK(LK_BARN_LOCK, f->a, !f->flag1);
	if (!f->ret)
		CO_RETURN(-1);
	f->x = NIL;
	if (BARN(f)->nr_empty) {
		f->x = take_first(m, BARN(f), false);
		EV(.kind = EV_MOVE_SHEAF, .fn = f_kfn(f), .sheaf = f->x, .from = LOC_BARN_EMPTY,
		   .to = LOC_NONE, .node = BARN(f)->node);
	}
	UNLOCK(LK_BARN_LOCK, f->a);
	CO_RETURN(f->x == NIL ? -1 : (int32_t)f->x);
	CO_END;
}

/* barn_put_empty_sheaf / barn_put_full_sheaf: a = barn, b = sheaf. No limit. */
static int barn_put(struct model *m, int cpu, struct frame *f, bool full)
{
	CO_BEGIN
	LOCK(LK_BARN_LOCK, f->a, false);
	sheaf_place(m, f->b, SH_DETACHED, -1);
	put(m, BARN(f), f->b, full);
	EV(.kind = EV_MOVE_SHEAF, .fn = f_kfn(f), .sheaf = f->b, .from = LOC_NONE,
	   .to = full ? LOC_BARN_FULL : LOC_BARN_EMPTY, .node = BARN(f)->node,
	   .value = sheaf_size(m, f->b));
	UNLOCK(LK_BARN_LOCK, f->a);
	CO_RETURN(0);
	CO_END;
}

int co_BARN_PUT_EMPTY(struct model *m, int cpu, struct frame *f) { return barn_put(m, cpu, f, false); }
int co_BARN_PUT_FULL(struct model *m, int cpu, struct frame *f) { return barn_put(m, cpu, f, true); }

/* a = barn, b = full sheaf to hand in, flag1 = allow_spin.
 * Returns an empty sheaf, or -E2BIG (racy: barn holds MAX_FULL_SHEAVES
 * full), -ENOMEM (no empty sheaf), -EBUSY (trylock failed). The limit is
 * checked before the lock only, as in v7.0-rc1. */
int co_BARN_REPLACE_FULL(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (BARN(f)->nr_full >= MAX_FULL_SHEAVES) {
		CHECK_EV(CHK_BARN_TOO_MANY_FULL, .node = BARN(f)->node);
		CO_RETURN(-E2BIG_);
	}
	if (BARN(f)->nr_empty == 0) {
		CHECK_EV(CHK_BARN_NO_EMPTY, .node = BARN(f)->node);
		CO_RETURN(-ENOMEM_);
	}
	LOCK(LK_BARN_LOCK, f->a, !f->flag1);
	if (!f->ret)
		CO_RETURN(-EBUSY_);
	f->i = -ENOMEM_;
	if (BARN(f)->nr_empty) {
		f->x = take_first(m, BARN(f), false);
		sheaf_place(m, f->b, SH_DETACHED, -1);
		put(m, BARN(f), f->b, true);
		f->i = (int32_t)f->x;
		EV(.kind = EV_MOVE_SHEAF, .fn = f_kfn(f), .sheaf = f->b, .from = LOC_MAIN,
		   .to = LOC_BARN_FULL, .node = BARN(f)->node, .value = sheaf_size(m, f->b));
	}
	UNLOCK(LK_BARN_LOCK, f->a);
	CO_RETURN(f->i);
	CO_END;
}
