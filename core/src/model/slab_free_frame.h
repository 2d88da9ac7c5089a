/* The frame of __slab_free(): the v7.0 coroutine (free.c) and the classic
 * one (cpu.c) take the same arguments from the same callers. Included once
 * before a coroutine to name its fields, and once after it to drop the
 * names again (no include guard, on purpose). */
#ifndef this_slab
#define this_slab  f->b      /* in */
#define head       f->x      /* in: the chain head..tail of cnt objects */
#define tail       f->y      /* in */
#define cnt        f->n      /* in */
#define prior      f->z      /* snapshot: slab->freelist */
#define old_inuse  f->k      /* snapshot: slab->inuse */
#define was_full   f->flag1  /* prior == NULL */
#define locked     f->flag2  /* n->list_lock taken */
#define on_partial f->flag3
#else
#undef this_slab
#undef head
#undef tail
#undef cnt
#undef prior
#undef old_inuse
#undef was_full
#undef locked
#undef on_partial
#endif
