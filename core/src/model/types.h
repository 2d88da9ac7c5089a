/* slubviz model: records and the arena that holds them.
 *
 * Glossary (the kernel's hierarchy, top down; names as in mm/slub.c):
 *   kmem_cache        a cache of equal-sized objects (cache_rec)
 *   kmem_cache_node   per (cache, NUMA node): partial list + list_lock (cnode_rec)
 *   node_barn         per (cache, node) in the sheaves era: full/empty sheaves (barn_rec)
 *   slub_percpu_sheaves  per (cache, CPU): main and spare sheaf + local lock (pcs_rec)
 *   slab_sheaf        a LIFO stack of object pointers, capacity sheaf_capacity (sheaf_rec)
 *   slab              1 << order pages cut into objects; freelist + inuse (slab_rec)
 *   object            one object of a slab (obj_rec)
 *   handle            the trace's name for an object it holds (u32 -> object)
 *
 * Every record lives in one arena (one malloc'd block) and is addressed by a
 * 32-bit index into its pool; records never point at each other with raw
 * pointers. A checkpoint is a copy of the block.
 *
 * The arena rule. Any call that can allocate in the arena may move the whole
 * block: the world, every record and every coroutine frame. Such functions
 * are marked ARENA_MOVES; they take records by index and return indices,
 * never pointers. A pointer into the arena (WORLD(m), x_r(m, i), a frame)
 * is dead after an ARENA_MOVES call: re-fetch it from its index. Coroutines
 * make these calls through MOVES()/MOVES_TO() (engine.h), which re-fetch f.
 * Builds with -DSVZ_ARENA_ALWAYS_MOVE=ON move the block on every allocation,
 * so that ASan catches any pointer kept across one; core/tests/arena_rule.sh
 * checks the marking. Across yields, code keeps indices only. */
#ifndef SVZ_TYPES_H
#define SVZ_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "slubviz/config.h"
#include "slubviz/gfp.h"
#include "slubviz/sizing.h"
#include "slubviz/trace.h"

typedef uint32_t idx_t;
#define NIL UINT32_MAX
/* list_del() poisons: entry->next = LIST_POISON1, entry->prev = LIST_POISON2
 * (modelled only where they matter: the cpu_partial_free preset), and a
 * link overwritten with a non-pointer (slab->slabs aliasing slab_list.prev) */
#define LIST_POISON1_IDX (NIL - 1)
#define LIST_POISON2_IDX (NIL - 2)
#define GARBAGE_IDX (NIL - 3)

#define MAX_FULL_SHEAVES 10
#define MAX_EMPTY_SHEAVES 10
#define PCS_BATCH_MAX 32
#define SHRINK_PROMOTE_MAX 32
#define FRAME_DEPTH 16

/* ---- statistics: enum stat_item, one row each in stat_items.def ---- */
enum stat_item {
#define STAT_ITEM(item, sysfs) item,
#include "model/stat_items.def"
#undef STAT_ITEM
	NR_SLUB_STAT_ITEMS
};
#define NR_SHEAVES_STAT_ITEMS (SHEAF_RETURN_SLOW + 1)

/* Model counters (not in the kernel) the lessons need, per (cache, node):
 * NODE_COUNTER(enum name, name in the views). */
#define NODE_COUNTERS(X) \
	X(NC_LIST_LOCK, "list_lock") X(NC_LIST_LOCK_TRYFAIL, "list_lock_trylock_fail") \
	X(NC_LIST_LOCK_SPIN, "list_lock_spin") X(NC_BARN_LOCK, "barn_lock") \
	X(NC_BARN_LOCK_TRYFAIL, "barn_lock_trylock_fail") X(NC_BARN_LOCK_SPIN, "barn_lock_spin") \
	/* list pointer writes / list operations under n->list_lock (seed 002) */ \
	X(NC_LIST_WRITES, "list_writes_locked") X(NC_LIST_OPS, "list_ops_locked") \
	/* runs of adjacent slabs isolated by get_partial_node_bulk (seed 002) */ \
	X(NC_RUN_1, "bulk_run_1") X(NC_RUN_2, "bulk_run_2") X(NC_RUN_3, "bulk_run_3") \
	X(NC_RUN_4PLUS, "bulk_run_4plus")

enum node_counter {
#define X(item, name) item,
	NODE_COUNTERS(X)
#undef X
	NR_NODE_COUNTERS
};

/* Where an object is (obj_rec.state): OBJ_STATE(enum name, name, the
 * snapshot's one-letter code). "Exactly one place" is checked by
 * validate.c: free objects are on their slab's freelist, the others are
 * held by exactly one handle, sheaf slot, bulk buffer or free chain. */
#define OBJ_STATES(X) \
	X(OBJ_FREE, "free", 'f')       /* on slab->freelist */ \
	X(OBJ_USER, "user", 'u')       /* held by a trace handle */ \
	X(OBJ_SHEAF, "sheaf", 's')     /* in a sheaf (allocated from the slab's view) */ \
	X(OBJ_BULK, "bulk", 'b')       /* in this CPU's bulk buffer, not yet handed out */ \
	X(OBJ_CHAIN, "chain", 'c')     /* on a detached chain being freed by __slab_free */ \
	X(OBJ_LOST, "lost", 'l')       /* leaked by a kernel path (a failed free is leaked) */ \
	X(OBJ_CPU_FREELIST, "cpu_freelist", 'p') /* classic: on c->freelist of CPU `holder` */ \
	X(OBJ_RCU, "rcu", 'r')         /* kfree_rcu()'d, waiting for a grace period \
					  (classic kfree_rcu batching), on world.rcu_objects via next */

enum obj_state {
#define X(st, name, code) st,
	OBJ_STATES(X)
#undef X
};

/* Which list a slab is on (slab_rec.list): LIST_ID(enum name, name). */
#define LIST_IDS(X) \
	X(LIST_NONE, "none") X(LIST_PARTIAL, "partial") X(LIST_FULL, "full") \
	X(LIST_PRIVATE, "private") \
	X(LIST_CPU_SLAB, "cpu_slab")       /* classic: c->slab of some CPU (frozen) */ \
	X(LIST_CPU_PARTIAL, "cpu_partial") /* classic: on a CPU's partial chain */

enum list_id {
#define X(id, name) id,
	LIST_IDS(X)
#undef X
};

/* A doubly linked list of records, like struct list_head (first = head). */
struct dlist {
	idx_t first, last;
	uint32_t len;
};

struct cache_rec {
	char name[64];
	bool alive;
	bool is_kmalloc;
	bool has_sheaves;        /* cache_has_sheaves(): sheaf_capacity != 0 */
	uint32_t flags;          /* SLAB_* */
	bool ctor;
	struct svz_geom g;       /* size, order, objects, min_partial, ... */
	uint32_t min_partial;    /* writable copy (sysfs min_partial) */
	uint32_t remote_node_defrag_ratio; /* 0..1000 */
	uint64_t random;         /* FREELIST_HARDENED key */
	idx_t random_seq;        /* u32 pool: oo_objects entries, or NIL */
	idx_t cnode;             /* first of nr_nodes cnode records */
	idx_t pcs;               /* first of nr_cpus pcs records */
	idx_t stats;             /* first of nr_cpus * NR_SLUB_STAT_ITEMS u64 */
	uint64_t fp_writes;      /* free pointer writes (set_freepointer) */
	uint64_t slabs_allocated, slabs_freed;
	uint32_t decl;           /* index in trace caches, or NIL (kmalloc) */
	uint32_t refcount;       /* s->refcount: 1 + the caches merged into it */
	uint32_t sheaf_req;      /* kmem_cache_args.sheaf_capacity asked for */
};

struct cnode_rec {           /* kmem_cache_node */
	bool exists;
	int32_t node;             /* only nodes with memory have one */
	int32_t list_lock;       /* owner CPU or -1 */
	struct dlist partial;    /* slabs via slab_rec.lprev/lnext */
	struct dlist full;       /* debug caches only */
	uint32_t nr_partial;     /* == partial.len, kept apart to be checked */
	uint64_t nr_slabs, total_objects;
	idx_t barn;              /* NIL: no barn on this node */
	uint64_t counters[NR_NODE_COUNTERS];
};

struct barn_rec {            /* node_barn */
	int32_t lock;            /* owner CPU or -1 */
	int32_t node;
	struct dlist sheaves_full, sheaves_empty;
	uint32_t nr_full, nr_empty;
};

/* Per (cache, CPU): slub_percpu_sheaves in the sheaves era, kmem_cache_cpu
 * in the classic era (both behind the same local lock). */
struct pcs_rec {
	int32_t lock;            /* owner CPU or -1: s->cpu_sheaves->lock (local_trylock_t) */
	idx_t main, spare;       /* main NIL = the bootstrap sheaf (capacity 0) */
	idx_t rcu_free;          /* sheaf collecting kfree_rcu() objects, or NIL */
	/* kmem_cache_cpu (classic era) */
	int32_t c_lock;          /* c->lock (local_lock_t): owner CPU or -1 */
	idx_t c_freelist;        /* c->freelist: objects of c->slab, lockless */
	uint64_t tid;            /* c->tid: cpu + k * TID_STEP */
	idx_t c_slab;            /* c->slab: the frozen cpu slab */
	idx_t c_partial;         /* c->partial: chain through slab.next_partial */
};

struct sheaf_rec {           /* slab_sheaf */
	idx_t cache;
	bool alive;
	uint32_t size, capacity;
	int32_t node;
	idx_t slots;             /* u32 pool: capacity object indices */
	idx_t lprev, lnext;      /* barn list linkage */
	uint8_t where;           /* enum sheaf_where */
	int32_t where_id;        /* cpu or node */
	idx_t next_free;         /* free list of sheaf records */
	bool oversize;           /* prefilled beyond sheaf_capacity (kzalloc'ed) */
	bool nobarn;             /* rcu_free_sheaf_nobarn(): flushed after the GP */
};

/* Where a sheaf is (sheaf_rec.where): SHEAF_WHERE(enum name, name). */
#define SHEAF_WHERES(X) \
	X(SH_NONE, "none") X(SH_MAIN, "main") X(SH_SPARE, "spare") \
	X(SH_BARN_FULL, "barn_full") X(SH_BARN_EMPTY, "barn_empty") X(SH_DETACHED, "detached") \
	X(SH_PREFILLED, "prefilled")     /* handed to the trace (where_id = sheaf handle) */ \
	X(SH_RCU_FREE, "rcu_free")       /* pcs->rcu_free of CPU where_id */ \
	X(SH_RCU_PENDING, "rcu_pending") /* after call_rcu(), waiting for the grace period */

enum sheaf_where {
#define X(w, name) w,
	SHEAF_WHERES(X)
#undef X
};

struct slab_rec {
	idx_t cache;
	bool alive;
	int32_t node;
	uint8_t order;
	uint8_t list;            /* enum list_id */
	bool frozen;
	uint32_t objects, inuse;
	idx_t freelist;          /* object index or NIL */
	idx_t obj0;              /* first object record (objects contiguous) */
	uint64_t pfn;
	idx_t lprev, lnext;      /* slab_list */
	idx_t next_partial;      /* slab->next on a CPU partial chain (classic) */
	uint32_t slabs;          /* slab->slabs: chain length, valid at the head */
	uint32_t pobjects;       /* before v5.16, slab->pobjects at the head: free
				    objects of the chain as each slab joined */
	bool deferred;           /* freelist not yet built (seed 000) */
	idx_t next_free;
};

struct obj_rec {
	idx_t slab;
	uint32_t index;          /* position in the slab */
	uint8_t state;           /* enum obj_state */
	uint16_t user_cpu;       /* timed runs: 1 + the CPU that last used the
				    object (allocated or freed it); 0: none */
	idx_t next;              /* free pointer (decoded): next object or NIL */
	idx_t holder;            /* handle id / sheaf / cpu, by state */
	uint32_t site;           /* call site label of the last allocation */
};

struct handle_rec {
	idx_t obj;               /* NIL: not holding anything */
	idx_t large;             /* large kmalloc record, or NIL */
	idx_t sheaf;             /* a prefilled sheaf the trace holds, or NIL */
	uint32_t alloc_line;     /* 0: never allocated */
	uint32_t free_line;      /* line of the last free, 0 if live / NULL */
	uint32_t claim;          /* 1 + the op that will bind it, while that op
				    is in flight (stale afterwards); 0: none */
};

struct large_rec {           /* kmalloc > KMALLOC_MAX_CACHE_SIZE: pages */
	bool alive;
	int32_t node;
	uint8_t order;
	uint64_t pfn;
	uint32_t size;
	idx_t next_free;
};

/* ---- coroutine frames (coroutine.c) ----
 * a..flag3 are generic slots: each coroutine names the ones it uses at its
 * top (#define this_slab f->b ... #undef after it), callers fill the "in:"
 * ones through callee->. co_push() sets a, b, c, x, y, z to NIL and the
 * rest to 0. A root frame gets its op's count in n (op_start()) and leaves
 * the object its RETURN event names in x (run_cpu()). */
struct frame {
	uint8_t k_fn;            /* enum kfn this frame models (for events) */
	uint8_t zero;            /* padding, named so that co_push_frame() sets it */
	int16_t on_cpu;          /* whose stats/sheaves: the running CPU, or the
				    CPU a flush_all works on */
	uint16_t fn;             /* enum co_fn */
	uint16_t pc;             /* resume point; 0 = start */
	int32_t ret;             /* result of the last callee */
	int32_t result;          /* this frame's own return value */
	idx_t cache;
	uint32_t gfp;
	int32_t node;
	idx_t a, b, c;           /* records by index */
	int32_t n, k, i, j, i2;  /* counts, nodes, loop state */
	idx_t x, y, z;           /* records by index */
	bool flag1, flag2, flag3;
	uint8_t zero2;           /* padding, named so that co_push_frame() sets it */
};
_Static_assert(offsetof(struct frame, on_cpu) == 2 && offsetof(struct frame, zero2) + 1 == sizeof(struct frame),
	       "every byte of a frame is a named field: co_push_frame() sets them all");

struct cpu_rec {
	int32_t node;
	int32_t depth;           /* frames in use */
	uint32_t op;             /* op being executed (valid if depth > 0) */
	uint32_t next_op;        /* per-CPU scan position for svz_step_cpu */
	idx_t bulk;              /* u32 pool: bulk buffer */
	uint32_t bulk_len, bulk_cap;
	idx_t chain_head, chain_tail; /* detached freelist being freed */
	uint32_t chain_len;
	idx_t pending;           /* object a single free is carrying (OBJ_BULK) */
	struct dlist private_list; /* slabs isolated by get_partial_node_bulk */
	struct dlist sheaf_stash;  /* sheaves taken out of a barn by barn_shrink */
	uint64_t clock;          /* timed schedule (sched.c): simulated cycles */
	uint64_t busy, spin, idle; /* ... of which working, spinning on a lock, waiting */
	int32_t waits_on;        /* 1 + the CPU whose op its next op waits for (0: none) */
	uint64_t owed;           /* cycles of this step its event does not price
				    (an object's lines moving to this CPU) */
};

struct node_rec {            /* NUMA node: memory and its page allocator */
	uint64_t mem_pages, used_pages;
	uint64_t start_pfn, next_pfn;
	idx_t free_blocks[SVZ_MAX_PAGE_ORDER + 1]; /* P_U64 pairs {pfn, next} */
	uint64_t alloc_calls[SVZ_MAX_PAGE_ORDER + 1];
	uint64_t free_calls[SVZ_MAX_PAGE_ORDER + 1];
	uint64_t failed_calls;
};

enum pool_id {
	P_CACHE, P_CNODE, P_BARN, P_PCS, P_SHEAF, P_SLAB, P_OBJ, P_HANDLE,
	P_LARGE, P_U32, P_U64, P_FRAME, P__COUNT
};

struct pool_desc {
	size_t off;              /* byte offset in the arena */
	uint32_t len, cap;       /* records in use (high water) / capacity */
	uint32_t esize;
};

/* Free ranges of P_OBJ / P_U32 by exact length, for reuse. */
#define RANGE_CLASSES 16
struct range_free { uint32_t n; idx_t head; };

/* The scheduler's state (sched.c): part of the run, so checkpoints carry
 * it and step back works under every schedule. */
struct sched_state {
	uint32_t step, step_done; /* explicit: the 'steps' token running, its progress */
	uint32_t unstarted;      /* no op below it is unstarted (a cursor) */
	/* the step's last event (note_last()): what the explicit schedule
	 * waits for and what the timed schedule charges; its kind, kfn, lock
	 * and item packed as ev_record() takes them (last_kind() etc.). A
	 * fused step does not note it (engine.h fused_step()) */
	uint32_t last_what;
	int16_t last_node;
	uint16_t rr_next;        /* round-robin: the CPU to try first */
	uint32_t timing;         /* timed: 1 + where timing.c's u64 tables start (0: none yet) */
	/* pick()'s run queue (struct runq, sched.c): 1 + where it starts in
	 * P_U64 (0: none yet), what of it is stale (RUNQ_*), and which CPUs
	 * that waited timing_pick() has yet to see (RUNQ_WOKE_*). In the arena,
	 * not the world: a bigger world moved every pool against the world's
	 * hot fields, and the serial fast path ran 20% slower. */
	uint32_t runq_at;
	uint16_t runq;
	uint8_t woke;
	int64_t last_value;
};
/* sched_state.runq: all of it stale (a new world), none, or one CPU's op
 * returned (RUNQ_ONE + that CPU) */
enum { RUNQ_FILL = 0, RUNQ_OK = 1, RUNQ_ONE = 2 };
/* sched_state.woke: none, those in runq.woke_set, any runnable CPU */
enum { RUNQ_WOKE_NONE, RUNQ_WOKE_SOME, RUNQ_WOKE_ANY };
/* 64 CPUs a word of a CPU set */
enum { RUNQ_WORDS = (SVZ_MAX_CPUS + 63) / 64 };
/* pick()'s run queue (round-robin, random, timed): the CPUs that may run
 * and those whose next op waits, as bit sets and as lists in CPU order.
 * Only an op's return changes them, and only for its CPU and the waiting
 * ones: a CPU whose op starts was runnable and still is, an op that
 * returned stays returned, a CPU with no op left has none. woke_set: the
 * CPUs that waited and may run since the last rebuild. */
struct runq {
	uint64_t run_set[RUNQ_WORDS], wait_set[RUNQ_WORDS], woke_set[RUNQ_WORDS];
	uint16_t nr_runnable, nr_blocked;
	uint8_t runnable[SVZ_MAX_CPUS], blocked[SVZ_MAX_CPUS];
};
_Static_assert(SVZ_MAX_CPUS <= 256, "sched_state keeps CPU numbers in bytes");

/* kmalloc_slab()'s caches: KMALLOC_NORMAL, _CGROUP, _RECLAIM, DMA (cache.c
 * kmalloc_type_of()); kmalloc_index() runs to 17 (2 * 64K pages). */
enum { KMALLOC_TYPES = 4, KMALLOC_INDICES = 32 };

/* The fixed part of the arena: global state. */
struct world {
	struct pool_desc pools[P__COUNT];
	struct range_free obj_free[RANGE_CLASSES], u32_free[RANGE_CLASSES];
	idx_t slab_free, sheaf_free, large_free;
	struct svz_config cfg;
	int32_t nr_nodes, nr_cpus;
	struct node_rec nodes[SVZ_MAX_NODES];
	struct cpu_rec cpus[SVZ_MAX_CPUS];
	uint32_t nr_caches;
	uint32_t max_slab_objects;       /* largest oo_objects of any cache */
	uint32_t max_sheaf_capacity;     /* largest sheaf_capacity */
	/* cache.c kmalloc_cache(): the cache a kmalloc type and index
	 * resolved to by name (NIL: not yet), so that a kmalloc op does not
	 * build the name and search for it each time */
	idx_t kmalloc_caches[KMALLOC_TYPES][KMALLOC_INDICES];
	uint64_t rng;                    /* splitmix64 state */
	int64_t seq;                     /* micro-steps so far */
	uint32_t ops_done;               /* completed ops */
	uint32_t next_op;                /* default scheduler: next op to start */
	uint32_t inflight;               /* ops started and not finished */
	uint32_t started_words;          /* P_U32 bitmap of started ops */
	idx_t started;
	idx_t cache_map;                 /* u32 pool: trace cache -> the cache it is
					    (itself, or the one it merged into) */
	bool stopped;                    /* stopped on an error */
	struct dlist rcu_pending;        /* sheaves waiting for a grace period */
	idx_t rcu_objects;               /* kfree_rcu objects (OBJ_RCU), chained */
	uint64_t reports;                /* number of reports emitted */
	uint32_t step_events;            /* events in the current micro-step */
	bool room;                       /* arena.c: arena_reserve()'s headroom holds
					    (pool_alloc() clears it) */
	bool warned_max_order;           /* __alloc_pages' WARN_ON_ONCE_GFP fired */
	struct sched_state sched;
};

/* The byte-sized fields overlay ev_record()'s packed `what` and `where`
 * (byte 0 the lowest: both targets are little-endian), so each pair of
 * words is one store where the packed values are not constants (in wasm's
 * out-of-line step_end_slow()), not one store per byte. */
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "struct event overlays packed words on bytes: little-endian only"
#endif
struct event {
	int64_t seq;
	uint32_t op;         /* op index in the trace */
	union {
		uint32_t what;       /* EV_WHAT(): the four below */
		struct {
			uint8_t kind;        /* enum ev_kind */
			uint8_t fn;          /* enum kfn */
			uint8_t lock;        /* enum lock_kind */
			uint8_t item;        /* stat item for EV_STAT; head(0)/tail(1) for list moves */
		};
	};
	union {
		uint16_t where;      /* EV_WHERE(): from, to */
		struct {
			uint8_t from, to;    /* enum loc */
		};
	};
	int16_t cpu;
	idx_t cache, slab, obj, sheaf;
	int32_t node;
	int32_t count;       /* objects moved, stat delta, page order */
	uint32_t cycles;     /* timed runs: the step's price (timing_price()) */
	int64_t value;       /* a resulting value (counter total, sheaf size...) */
	uint64_t t;          /* timed runs: the CPU's clock when the step began */
};

struct svz_event_sink;

/* model.fuse_steps: may an EV() end its step and run on, and with events
 * off (the inline end, ev_step_end()) or on. */
enum fuse { FUSE_NO, FUSE_QUIET, FUSE_EVENTS };

/* The model: the arena and what lives outside it (trace, events out). */
struct model {
	uint8_t *mem;
	size_t cap;
	/* Each pool's first record: mem + pools[p].off, kept by arena.c
	 * wherever either changes (arena_rebase()). One load per record
	 * lookup instead of the world's offset, its add and mem: a
	 * pointer-typed field that the model's int stores cannot alias, so
	 * the compiler keeps it in a register between them. */
	void *pool_base[P__COUNT];
	const struct svz_trace *trace;
	bool events_on;
	/* sched.c run_cpu(): a serial run of whole ops, where EV() makes the
	 * step boundary itself and runs on (fused_step(), engine.h): whether
	 * it may now, and with events on or off, in one byte the ends of a step read. run_cpu()
	 * sets it after arena_reserve(); what ends a part of it clears it
	 * (model_stop(), pool_alloc()). FUSE_NO is always safe: a step that
	 * could have fused goes back to run_cpu(), the same bytes. */
	uint8_t fuse_steps;      /* enum fuse */
	/* event ring, retained for the API; sink for streaming */
	struct event *ring;
	uint32_t ring_cap;
	struct event unringed;   /* ev_record()'s event when there is no ring (the sink's) */
	void (*sink)(void *ctx, const struct model *m, const struct event *ev);
	void *sink_ctx;
	/* Where ev_record() writes, set by run_cpu() when events are on (every
	 * event comes from a step it runs): the slot array and its mask (the
	 * ring, or `unringed` with mask 0), the running op, and whether an
	 * event needs more than its slot (a timed run's clock, a sink): looked
	 * up once a run (ev_out_set()), not at every event. */
	struct event *ev_slots;
	uint64_t ev_mask;
	uint32_t ev_op;
	bool ev_more;
	/* reports (kernel-style), appended as text */
	char *report;
	size_t report_len, report_cap;
	char run_error[1024];
	uint32_t validate_every; /* test builds: validate after every Nth op (0: never) */
	/* sched.c build_deps(), from the trace alone, in one block (op_dep
	 * owns it): the op each op waits for; the next op of the same CPU
	 * (nr_ops: none); each CPU's first op (nr_ops: none) */
	uint32_t *op_dep, *op_next, *cpu_first_op;
};

#define WORLD(m) ((struct world *)(m)->mem)
#define POOL(m, P, T) ((T *)(m)->pool_base[P])

static inline struct cache_rec *cache_r(struct model *m, idx_t i) { return &POOL(m, P_CACHE, struct cache_rec)[i]; }
static inline struct cnode_rec *cnode_r(struct model *m, idx_t i) { return &POOL(m, P_CNODE, struct cnode_rec)[i]; }
static inline struct barn_rec *barn_r(struct model *m, idx_t i) { return &POOL(m, P_BARN, struct barn_rec)[i]; }
static inline struct pcs_rec *pcs_r(struct model *m, idx_t i) { return &POOL(m, P_PCS, struct pcs_rec)[i]; }
static inline struct sheaf_rec *sheaf_r(struct model *m, idx_t i) { return &POOL(m, P_SHEAF, struct sheaf_rec)[i]; }
static inline struct slab_rec *slab_r(struct model *m, idx_t i) { return &POOL(m, P_SLAB, struct slab_rec)[i]; }
static inline struct obj_rec *obj_r(struct model *m, idx_t i) { return &POOL(m, P_OBJ, struct obj_rec)[i]; }
static inline struct handle_rec *handle_r(struct model *m, idx_t i) { return &POOL(m, P_HANDLE, struct handle_rec)[i]; }
static inline struct large_rec *large_r(struct model *m, idx_t i) { return &POOL(m, P_LARGE, struct large_rec)[i]; }
static inline uint32_t *u32_at(struct model *m, idx_t i) { return &POOL(m, P_U32, uint32_t)[i]; }
static inline uint64_t *u64_at(struct model *m, idx_t i) { return &POOL(m, P_U64, uint64_t)[i]; }
static inline struct frame *frame_r(struct model *m, idx_t i) { return &POOL(m, P_FRAME, struct frame)[i]; }

/* per (cache, node / cpu) records */
static inline struct cnode_rec *get_node(struct model *m, idx_t cache, int node)
{
	struct cnode_rec *n = cnode_r(m, cache_r(m, cache)->cnode + (idx_t)node);
	return n->exists ? n : NULL;
}
static inline idx_t cnode_idx(struct model *m, idx_t cache, int node) { return cache_r(m, cache)->cnode + (idx_t)node; }
static inline idx_t pcs_idx(struct model *m, idx_t cache, int cpu) { return cache_r(m, cache)->pcs + (idx_t)cpu; }
static inline uint64_t *stat_ptr(struct model *m, idx_t cache, int cpu, enum stat_item si)
{
	return u64_at(m, cache_r(m, cache)->stats + (idx_t)cpu * NR_SLUB_STAT_ITEMS + si);
}

/* ---- arena.c ---- */
/* Marks a function that can move the arena (the arena rule, above). */
#define ARENA_MOVES
ARENA_MOVES int arena_init(struct model *m, const struct svz_config *cfg, uint32_t nr_handles);
void arena_free(struct model *m);
/* Guarantee room for one micro-step's worth of new records. Inline: most
 * steps only read w->room (arena.c, arena_reserve_pools()). */
ARENA_MOVES int arena_reserve_pools(struct model *m);
static inline ARENA_MOVES int arena_reserve(struct model *m)
{
	return WORLD(m)->room ? 0 : arena_reserve_pools(m);
}
ARENA_MOVES idx_t pool_alloc(struct model *m, enum pool_id p, uint32_t n); /* n contiguous, zeroed */
ARENA_MOVES idx_t range_alloc(struct model *m, enum pool_id p, uint32_t n);
void range_free(struct model *m, enum pool_id p, idx_t first, uint32_t n);
uint64_t model_rand(struct model *m);  /* splitmix64 over world.rng */
size_t arena_used(const struct model *m);
/* A copy of the arena without the pools' free capacity (checkpoints): the
 * world, then each pool's records in use. The block is a function of these:
 * capacity past a pool's len is zero (calloc, pool_alloc()). */
size_t arena_packed_size(const struct model *m);
void arena_pack(const struct model *m, uint8_t *dst);
/* Make the block the one arena_pack() copied (-1: out of memory, the block
 * left as it was). */
int arena_unpack(struct model *m, const uint8_t *src);

/* list_add(_tail)/list_del for slabs (P_SLAB) and sheaves (P_SHEAF). */
void dlist_add(struct model *m, enum pool_id p, struct dlist *l, idx_t i, bool tail);
void dlist_del(struct model *m, enum pool_id p, struct dlist *l, idx_t i);

/* Simulated kernel addresses. */
#define DIRECT_MAP_BASE 0xffff888000000000ull
#define VMEMMAP_BASE 0xffffea0000000000ull
uint64_t obj_addr(struct model *m, idx_t o);
uint64_t slab_addr(struct model *m, idx_t s);   /* struct slab (vmemmap) */
uint64_t slab_base(struct model *m, idx_t s);   /* first byte of its memory */

/* numa_mem_id()/numa_node_id() for a CPU: x86 has no HAVE_MEMORYLESS_NODES,
 * so both are the CPU's own node, memoryless or not. */
static inline int cpu_node(struct model *m, int cpu) { return WORLD(m)->cpus[cpu].node; }
static inline bool node_has_memory(struct model *m, int node) { return WORLD(m)->nodes[node].mem_pages > 0; }

#endif
