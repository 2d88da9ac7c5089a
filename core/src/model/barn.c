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

/* barn_replace_empty_sheaf(): returns the full sheaf taken, or -1. */
#define barn       f->a      /* in */
#define empty      f->b      /* in: the empty sheaf to hand in */
#define allow_spin f->flag1  /* in: gfpflags_allow_spinning() */
#define full       f->x
int co_BARN_REPLACE_EMPTY(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (BARN(f)->nr_full == 0) {
		CHECK_EV(CHK_BARN_NO_FULL, .node = BARN(f)->node);
		CO_RETURN(-1);
	}
	LOCK(LK_BARN_LOCK, barn, !allow_spin);
	if (!f->ret)
		CO_RETURN(-1);
	full = NIL;
	if (BARN(f)->nr_full) {
		full = take_first(m, BARN(f), true);
		EV(.kind = EV_MOVE_SHEAF, .fn = f_kfn(f), .sheaf = full, .from = LOC_BARN_FULL,
		   .to = LOC_MAIN, .node = BARN(f)->node, .value = sheaf_size(m, full));
		sheaf_place(m, empty, SH_DETACHED, -1);
		put(m, BARN(f), empty, false);
		EV(.kind = EV_MOVE_SHEAF, .fn = f_kfn(f), .sheaf = empty, .from = LOC_MAIN,
		   .to = LOC_BARN_EMPTY, .node = BARN(f)->node, .value = 0);
	}
	UNLOCK(LK_BARN_LOCK, barn);
	CO_RETURN(full == NIL ? -1 : (int32_t)full);
	CO_END;
}
#undef barn
#undef empty
#undef allow_spin
#undef full

/* barn_get_empty_sheaf(): returns an empty sheaf or -1. */
#define barn       f->a      /* in */
#define allow_spin f->flag1  /* in: gfpflags_allow_spinning() */
#define empty      f->x
int co_BARN_GET_EMPTY(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (BARN(f)->nr_empty == 0) {
		CHECK_EV(CHK_BARN_NO_EMPTY, .node = BARN(f)->node);
		CO_RETURN(-1);
	}
	LOCK(LK_BARN_LOCK, barn, !allow_spin);
	if (!f->ret)
		CO_RETURN(-1);
	empty = NIL;
	if (BARN(f)->nr_empty) {
		empty = take_first(m, BARN(f), false);
		EV(.kind = EV_MOVE_SHEAF, .fn = f_kfn(f), .sheaf = empty, .from = LOC_BARN_EMPTY,
		   .to = LOC_NONE, .node = BARN(f)->node);
	}
	UNLOCK(LK_BARN_LOCK, barn);
	CO_RETURN(empty == NIL ? -1 : (int32_t)empty);
	CO_END;
}
#undef barn
#undef allow_spin
#undef empty

/* barn_put_empty_sheaf / barn_put_full_sheaf: no limit. */
#define barn      f->a      /* in */
#define put_sheaf f->b      /* in */
static int barn_put(struct model *m, int cpu, struct frame *f, bool full)
{
	CO_BEGIN
	LOCK(LK_BARN_LOCK, barn, false);
	sheaf_place(m, put_sheaf, SH_DETACHED, -1);
	put(m, BARN(f), put_sheaf, full);
	EV(.kind = EV_MOVE_SHEAF, .fn = f_kfn(f), .sheaf = put_sheaf, .from = LOC_NONE,
	   .to = full ? LOC_BARN_FULL : LOC_BARN_EMPTY, .node = BARN(f)->node,
	   .value = sheaf_size(m, put_sheaf));
	UNLOCK(LK_BARN_LOCK, barn);
	CO_RETURN(0);
	CO_END;
}
#undef barn
#undef put_sheaf

int co_BARN_PUT_EMPTY(struct model *m, int cpu, struct frame *f) { return barn_put(m, cpu, f, false); }
int co_BARN_PUT_FULL(struct model *m, int cpu, struct frame *f) { return barn_put(m, cpu, f, true); }

/* barn_replace_full_sheaf(): returns an empty sheaf, or -E2BIG (racy: barn holds MAX_FULL_SHEAVES
 * full), -ENOMEM (no empty sheaf), -EBUSY (trylock failed). The limit is
 * checked before the lock only, as in v7.0-rc1. */
#define barn         f->a      /* in */
#define full         f->b      /* in: the full sheaf to hand in */
#define allow_spin   f->flag1  /* in: gfpflags_allow_spinning() */
#define empty        f->x
#define empty_or_err f->i
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
	LOCK(LK_BARN_LOCK, barn, !allow_spin);
	if (!f->ret)
		CO_RETURN(-EBUSY_);
	empty_or_err = -ENOMEM_;
	if (BARN(f)->nr_empty) {
		empty = take_first(m, BARN(f), false);
		sheaf_place(m, full, SH_DETACHED, -1);
		put(m, BARN(f), full, true);
		empty_or_err = (int32_t)empty;
		EV(.kind = EV_MOVE_SHEAF, .fn = f_kfn(f), .sheaf = full, .from = LOC_MAIN,
		   .to = LOC_BARN_FULL, .node = BARN(f)->node, .value = sheaf_size(m, full));
	}
	UNLOCK(LK_BARN_LOCK, barn);
	CO_RETURN(empty_or_err);
	CO_END;
}
#undef barn
#undef full
#undef allow_spin
#undef empty
#undef empty_or_err
