/* Run configuration: machine topology and the allocator's switches.
 *
 * A config is plain data. Presets (core/src/model/presets.def) and `set KEY=VALUE`
 * lines in traces / `--set` on the CLI all go through svz_config_set(), so
 * there is one place that knows the key names. */
#ifndef SLUBVIZ_CONFIG_H
#define SLUBVIZ_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SVZ_MAX_NODES 64
#define SVZ_MAX_CPUS 256

enum svz_era { SVZ_ERA_SHEAVES = 0, SVZ_ERA_CLASSIC = 1 };

/* Which CPU count calculate_order() feeds into min_objects (seed 001). */
enum svz_cpu_source {
	SVZ_CPUS_ONLINE = 0,   /* v5.11-rc1..rc7: num_online_cpus() (1 during early boot) */
	SVZ_CPUS_PRESENT = 1,  /* v5.11+: num_present_cpus(), nr_cpu_ids if <= 1 */
	SVZ_CPUS_POSSIBLE = 2, /* <= v5.10: nr_cpu_ids */
};

enum svz_order_form {
	SVZ_ORDER_FRACTION = 0, /* v6.7+: fixed min_objects, waste 1/16 .. 1/2 */
	SVZ_ORDER_LOOP = 1,     /* v5.12 .. v6.6: lowers min_objects */
};

struct svz_topology {
	int nr_nodes;
	uint64_t node_mem_bytes[SVZ_MAX_NODES]; /* 0 = memoryless node */
	int nr_cpus;                            /* CPUs declared = possible */
	int cpu_node[SVZ_MAX_CPUS];
	int possible, present, online;          /* counts; online <= present <= possible */
	int boot_online;  /* num_online_cpus() while kmalloc caches are created (1) */
	uint32_t page_size; /* 4096, 16384 or 65536 */
};

struct svz_switches {
	uint16_t kernel;        /* the release modelled, major * 100 + minor
				   (6.19 -> 619): which sysfs files exist */
	enum svz_era era;
	enum svz_cpu_source cpu_source;
	enum svz_order_form order_form;
	bool freelist_random;   /* CONFIG_SLAB_FREELIST_RANDOM */
	bool freelist_hardened; /* CONFIG_SLAB_FREELIST_HARDENED */
	bool refill_on_spin;    /* seed 004 fix 1, fb1091febd66 */
	bool barn_all_nodes;    /* seed 004 fix 2: a barn on every online node */
	bool memoryless_sheaves; /* v7.1 (7f693882f009, e65d430111a5): barns on
				    online memoryless nodes, and their CPUs free
				    objects of any node to the sheaves */
	bool deferred_freelist; /* seed 000 */
	bool batched_partial;   /* seed 002 */
	bool cpu_partial_free;  /* seed 004's bisection blocker 17c38c88294d: v7.0
				   allocation paths, but frees still put a
				   was-full slab on the per-CPU partial list
				   (SLUB_CPU_PARTIAL, removed one commit later) */
	bool cpu_partial_objects; /* before v5.16 (b47291ef02b0): the per-CPU
				     partial list is bounded by free objects
				     (cpu_partial 2/6/13/30, pobjects), not slabs */
	bool frozen_partial;    /* before v6.8 (8cd3fa428b56): slabs on a per-CPU
				   partial list are frozen */
	bool try_thisnode;      /* v6.9+ (9198ffbd2b49): ___slab_alloc() for a
				   preferred node tries that node only first */
	bool slab_nomerge;      /* the slab_nomerge boot parameter: no cache
				   becomes an alias of another (find_mergeable()) */
	bool continue_on_error; /* keep going past a bad free in a trace */
	uint64_t seed;          /* every random draw of the model comes from it */
};

/* Which CPU runs the next micro-step (sched.c; docs/trace-format.md,
 * "Schedules"). Not a kernel switch: presets never touch it. */
enum svz_sched_kind {
	SVZ_SCHED_SERIAL = 0,   /* every op to completion, in trace order */
	SVZ_SCHED_ROUND_ROBIN,  /* one micro-step per runnable CPU in turn */
	SVZ_SCHED_RANDOM,       /* a seeded draw among the runnable CPUs */
	SVZ_SCHED_TIMED,        /* the runnable CPU with the smallest clock */
	SVZ_SCHED_EXPLICIT,     /* the trace's 'steps' lines, then serial */
	SVZ_SCHED__COUNT
};
#define SVZ_MAX_COSTS 24
/* The schedules by name, for messages (svz_schedule_parse() knows them). */
#define SVZ_SCHEDULE_CHOICES "serial, round-robin, random seed=N, timed, explicit"

struct svz_schedule {
	uint8_t kind;           /* enum svz_sched_kind */
	uint64_t seed;          /* random: the draws' seed */
	uint32_t cost[SVZ_MAX_COSTS]; /* timed: overrides of costs.def, +1 (0: the table's) */
};
struct svz_config {
	char preset[48];
	struct svz_topology topo;
	struct svz_switches sw;
	struct svz_schedule sched;
};
/* "serial", "round-robin", "random seed=N" (seed 1 if left out), "timed",
 * "explicit". 0, or -1 with "expected ..., got ..." in err. */
int svz_schedule_parse(struct svz_schedule *s, const char *spec, char *err, size_t errlen);
/* The spec svz_schedule_parse() reads back: "random seed=7". */
void svz_schedule_text(const struct svz_schedule *s, char *buf, size_t len);
const char *svz_sched_kind_name(int kind); /* NULL past the end */
/* Override one entry of the timed schedule's cost table (costs.def,
 * `slubviz costs`): 0, or -1 with a message. */
int svz_cost_set(struct svz_schedule *s, const char *key, const char *cycles, char *err, size_t errlen);
/* Cost table entry i (costs.def): key, cycles, what. -1 past the end. */
int svz_cost_info(int i, const char **key, uint64_t *cycles, const char **what);

/* Whether the release modelled is `version` (major * 100 + minor) or later;
 * a config without one (kernel 0) models the newest. */
static inline bool svz_kernel_at_least(const struct svz_switches *sw, unsigned version)
{
	return !sw->kernel || sw->kernel >= version;
}

/* Defaults: one node with 1 GiB, 4 CPUs, 4 KiB pages, the newest preset. */
void svz_config_default(struct svz_config *cfg);

/* Set one key (the keys of core/src/model/switches.def, svz_switch_info below).
 * Returns 0, or -1 with a message ("expected ... got ...") in err. */
int svz_config_set(struct svz_config *cfg, const char *key, const char *value,
		   char *err, size_t errlen);

/* Apply a named preset's switches (topology untouched). -1 if unknown. */
int svz_preset_apply(struct svz_config *cfg, const char *name);
/* Iterate presets: name and its switch line ("era=sheaves fix1=0 ..."); NULL past the end. */
const char *svz_preset_name(int i);
const char *svz_preset_desc(int i);
const char *svz_preset_settings(int i);
const char *svz_newest_preset(void);
/* Iterate the keys svz_config_set() takes: 1 for an on/off switch, 0 for a
 * value (choices: its words space-separated, "" for a number or a name), -1
 * past the end. alias is the other key of the same switch, or "". */
int svz_switch_info(int i, const char **name, const char **alias, const char **choices,
		    const char **what);
/* The value of on/off switch i in sw (0 or 1), -1 if i is not one. */
int svz_switch_bool(const struct svz_switches *sw, int i);

/* Make the topology consistent after edits: every node id < nr_nodes,
 * counts clamped. Returns 0 or -1 with a message. */
int svz_topology_check(const struct svz_topology *t, char *err, size_t errlen);

#endif
