/* Run configuration: defaults, the one key=value setter, presets (data in
 * presets.def, applied through the setter) and topology checks. */
#include "lib/util.h"
#include "slubviz/config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* CONFIG_NR_CPUS tops out at 8192; nr_cpu_ids can exceed the CPUs we model. */
#define SVZ_MAX_POSSIBLE_CPUS 8192

struct preset_row {
	const char *name, *desc, *settings;
};

static const struct preset_row presets[] = {
#define PRESET(name, desc, settings) { name, desc, settings },
#include "model/presets.def"
#undef PRESET
};

#define NR_PRESETS ((int)(sizeof presets / sizeof presets[0]))


/* Values echoed in messages are cut so a long token cannot drown the message. */
static const char *shown(const char *v, char *buf, size_t len)
{
	size_t n = strlen(v);

	if (n < len)
		return v;
	snprintf(buf, len, "%.*s...", (int)(len - 4), v);
	return buf;
}

const char *svz_preset_name(int i) { return i >= 0 && i < NR_PRESETS ? presets[i].name : NULL; }
const char *svz_preset_desc(int i) { return i >= 0 && i < NR_PRESETS ? presets[i].desc : NULL; }
const char *svz_preset_settings(int i)
{
	return i >= 0 && i < NR_PRESETS ? presets[i].settings : NULL;
}
const char *svz_newest_preset(void) { return presets[NR_PRESETS - 1].name; }

void svz_config_default(struct svz_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->topo.nr_nodes = 1;
	cfg->topo.node_mem_bytes[0] = 1ull << 30;
	cfg->topo.nr_cpus = 4;
	cfg->topo.possible = cfg->topo.present = cfg->topo.online = 4;
	cfg->topo.boot_online = 1;
	cfg->topo.page_size = 4096;
	cfg->sw.seed = 1;
	svz_preset_apply(cfg, svz_newest_preset());
}

/* Names a preset had before, still accepted (traces and share links that
 * use them run as before): old name, the row that now has its settings. */
static const char *const renamed_presets[][2] = {
	/* it carried seeds 000 and 002, which mainline took for v7.2, not 7.1 */
	{ "v7.1-candidate", "v7.2-candidate" },
};

static int find_preset(const char *name)
{
	for (size_t r = 0; r < sizeof renamed_presets / sizeof renamed_presets[0]; r++)
		if (strcmp(renamed_presets[r][0], name) == 0)
			name = renamed_presets[r][1];
	for (int i = 0; i < NR_PRESETS; i++)
		if (strcmp(presets[i].name, name) == 0)
			return i;
	return -1;
}

/* Applies one preset row key by key. The rows are ours, so a failure here is
 * a bug in presets.def; it is still reported rather than ignored. */
static int apply_preset_row(struct svz_config *cfg, int idx, char *err, size_t errlen)
{
	const char *p = presets[idx].settings;

	while (*p) {
		char key[48], value[48];
		size_t n = strcspn(p, " ");
		const char *eq = memchr(p, '=', n);

		if (n == 0) {
			p++;
			continue;
		}
		if (!eq || (size_t)(eq - p) >= sizeof key || n - (size_t)(eq - p) > sizeof value) {
			seterr(err, errlen, "malformed setting in preset %s", presets[idx].name);
			return -1;
		}
		memcpy(key, p, (size_t)(eq - p));
		key[eq - p] = 0;
		memcpy(value, eq + 1, n - (size_t)(eq - p) - 1);
		value[n - (size_t)(eq - p) - 1] = 0;
		if (strcmp(key, "preset") == 0 || svz_config_set(cfg, key, value, err, errlen))
			return -1;
		p += n;
	}
	snprintf(cfg->preset, sizeof cfg->preset, "%s", presets[idx].name);
	return 0;
}

int svz_preset_apply(struct svz_config *cfg, const char *name)
{
	int idx = name ? find_preset(name) : -1;

	if (idx < 0)
		return -1;
	return apply_preset_row(cfg, idx, NULL, 0);
}

static int parse_bool(const char *v, bool *out)
{
	static const char *const yes[] = { "1", "on", "true", "y" };
	static const char *const no[] = { "0", "off", "false", "n" };

	for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
		if (strcmp(v, yes[i]) == 0) {
			*out = true;
			return 0;
		}
		if (strcmp(v, no[i]) == 0) {
			*out = false;
			return 0;
		}
	}
	return -1;
}

/* Strict unsigned parse: decimal, or hex with 0x when allow_hex; no sign,
 * no spaces, no overflow. */
static int parse_u64(const char *v, bool allow_hex, uint64_t *out)
{
	uint64_t x = 0;
	unsigned base = 10;

	if (allow_hex && has_0x_prefix(v, strlen(v))) {
		base = 16;
		v += 2;
	}
	if (!*v)
		return -1;
	for (; *v; v++) {
		unsigned d;

		if (*v >= '0' && *v <= '9')
			d = (unsigned)(*v - '0');
		else if (base == 16 && *v >= 'a' && *v <= 'f')
			d = (unsigned)(*v - 'a' + 10);
		else if (base == 16 && *v >= 'A' && *v <= 'F')
			d = (unsigned)(*v - 'A' + 10);
		else
			return -1;
		if (x > (UINT64_MAX - d) / base)
			return -1;
		x = x * base + d;
	}
	*out = x;
	return 0;
}

/* kernel=MAJOR.MINOR (2.0 to 99.99) as MAJOR*100+MINOR. parse_u64 on each
 * half, not sscanf: scanf drags long-double float parsing into the wasm
 * module (~20 KB). */
static int parse_kernel(const char *v, uint16_t *out)
{
	const char *dot = strchr(v, '.');
	char major_text[24];
	uint64_t major, minor;

	if (!dot || (size_t)(dot - v) >= sizeof major_text)
		return -1;
	memcpy(major_text, v, (size_t)(dot - v));
	major_text[dot - v] = '\0';
	if (parse_u64(major_text, false, &major) || parse_u64(dot + 1, false, &minor) ||
	    major < 2 || major > 99 || minor > 99)
		return -1;
	*out = (uint16_t)(major * 100 + minor);
	return 0;
}

/* One row of switches.def; bool rows carry their field's offset. */
static const struct switch_row {
	const char *name, *alias, *choices, *what;
	size_t offset; /* SIZE_MAX: a value switch */
} switch_rows[] = {
#define VALUE_SWITCH(name, choices, what) { #name, "", choices, what, SIZE_MAX },
#define BOOL_SWITCH(name, field, alias, what) \
	{ #name, alias, "0 1", what, offsetof(struct svz_switches, field) },
#include "model/switches.def"
#undef VALUE_SWITCH
#undef BOOL_SWITCH
};

#define NR_SWITCHES ((int)(sizeof switch_rows / sizeof switch_rows[0]))

int svz_switch_info(int i, const char **name, const char **alias, const char **choices,
		    const char **what)
{
	if (i < 0 || i >= NR_SWITCHES)
		return -1;
	*name = switch_rows[i].name;
	*alias = switch_rows[i].alias;
	*choices = switch_rows[i].choices;
	*what = switch_rows[i].what;
	return switch_rows[i].offset != SIZE_MAX;
}

int svz_switch_bool(const struct svz_switches *sw, int i)
{
	if (i < 0 || i >= NR_SWITCHES || switch_rows[i].offset == SIZE_MAX)
		return -1;
	return *(const bool *)((const char *)sw + switch_rows[i].offset);
}

static bool *bool_switch(struct svz_switches *sw, const char *key)
{
	for (int i = 0; i < NR_SWITCHES; i++)
		if (switch_rows[i].offset != SIZE_MAX &&
		    (strcmp(switch_rows[i].name, key) == 0 || strcmp(switch_rows[i].alias, key) == 0) &&
		    key[0])
			return (bool *)((char *)sw + switch_rows[i].offset);
	return NULL;
}

/* A choice among a value switch's words (switches.def, in enum order):
 * the index of value among them, or -1. */
static int pick(const char *key, const char *value)
{
	size_t vlen = strlen(value);
	int idx = 0;

	for (int i = 0; i < NR_SWITCHES; i++) {
		if (strcmp(switch_rows[i].name, key) != 0)
			continue;
		for (const char *w = switch_rows[i].choices; *w; idx++) {
			size_t n = strcspn(w, " ");

			if (vlen && n == vlen && memcmp(w, value, n) == 0)
				return idx;
			w += n + (w[n] == ' ');
		}
	}
	return -1;
}

int svz_config_set(struct svz_config *cfg, const char *key, const char *value,
		   char *err, size_t errlen)
{
	char sk[48], sv[48];
	bool *flag;

	if (!key)
		key = "";
	if (!value)
		value = "";

	if (strcmp(key, "schedule") == 0) /* sched.c; not a kernel switch */
		return svz_schedule_parse(&cfg->sched, value, err, errlen);
	if (strncmp(key, "cost.", 5) == 0) /* timing.c */
		return svz_cost_set(&cfg->sched, key + 5, value, err, errlen);
	if (strcmp(key, "preset") == 0) {
		int idx = find_preset(value);

		if (idx < 0) {
			char names[512] = "";

			for (int i = 0; i < NR_PRESETS; i++) {
				strcat(names, i ? ", " : "");
				strcat(names, presets[i].name);
			}
			seterr(err, errlen, "expected a preset (%s), got '%s'", names,
			       shown(value, sv, sizeof sv));
			return -1;
		}
		return apply_preset_row(cfg, idx, err, errlen);
	}
	if (strcmp(key, "kernel") == 0) {
		uint16_t kernel;

		if (parse_kernel(value, &kernel)) {
			seterr(err, errlen, "expected kernel=MAJOR.MINOR like 6.19, got '%s'",
			       shown(value, sv, sizeof sv));
			return -1;
		}
		cfg->sw.kernel = kernel;
		return 0;
	}
	if (strcmp(key, "era") == 0) {
		int v = pick("era", value);

		if (v < 0) {
			seterr(err, errlen, "expected era=sheaves or era=classic, got '%s'",
			       shown(value, sv, sizeof sv));
			return -1;
		}
		cfg->sw.era = (enum svz_era)v;
		return 0;
	}
	if (strcmp(key, "cpu_source") == 0) {
		int v = pick("cpu_source", value);

		if (v < 0) {
			seterr(err, errlen, "expected cpu_source=online, present or possible, got '%s'",
			       shown(value, sv, sizeof sv));
			return -1;
		}
		cfg->sw.cpu_source = (enum svz_cpu_source)v;
		return 0;
	}
	if (strcmp(key, "order_form") == 0) {
		int v = pick("order_form", value);

		if (v < 0) {
			seterr(err, errlen, "expected order_form=loop or order_form=fraction, got '%s'",
			       shown(value, sv, sizeof sv));
			return -1;
		}
		cfg->sw.order_form = (enum svz_order_form)v;
		return 0;
	}
	if ((flag = bool_switch(&cfg->sw, key))) {
		if (parse_bool(value, flag)) {
			seterr(err, errlen, "expected %s=0/1, on/off, true/false or y/n, got '%s'",
			       key, shown(value, sv, sizeof sv));
			return -1;
		}
		return 0;
	}
	if (strcmp(key, "seed") == 0) {
		if (parse_u64(value, true, &cfg->sw.seed)) {
			seterr(err, errlen, "expected seed=an unsigned 64-bit integer, got '%s'",
			       shown(value, sv, sizeof sv));
			return -1;
		}
		return 0;
	}
	if (strcmp(key, "page_size") == 0) {
		uint64_t v;

		if (parse_u64(value, false, &v) || (v != 4096 && v != 16384 && v != 65536)) {
			seterr(err, errlen, "expected page_size=4096, 16384 or 65536, got '%s'",
			       shown(value, sv, sizeof sv));
			return -1;
		}
		cfg->topo.page_size = (uint32_t)v;
		return 0;
	}
	int *count = strcmp(key, "possible") == 0 ? &cfg->topo.possible
		   : strcmp(key, "present") == 0  ? &cfg->topo.present
		   : strcmp(key, "online") == 0   ? &cfg->topo.online
						  : NULL;
	if (count) {
		uint64_t v;

		if (parse_u64(value, false, &v) || v < 1 || v > SVZ_MAX_POSSIBLE_CPUS) {
			seterr(err, errlen, "expected %s=1..%d CPUs, got '%s'", key,
			       SVZ_MAX_POSSIBLE_CPUS, shown(value, sv, sizeof sv));
			return -1;
		}
		*count = (int)v;
		return 0;
	}
	char keys[512] = "";

	for (int i = 0; i < NR_SWITCHES; i++) {
		strcat(keys, i ? ", " : "");
		strcat(keys, switch_rows[i].name);
	}
	seterr(err, errlen, "expected a setting (%s), got '%s'", keys, shown(key, sk, sizeof sk));
	return -1;
}

int svz_topology_check(const struct svz_topology *t, char *err, size_t errlen)
{
	bool any_memory = false;

	if (t->page_size != 4096 && t->page_size != 16384 && t->page_size != 65536) {
		seterr(err, errlen, "expected a page size of 4096, 16384 or 65536, got %u",
		       t->page_size);
		return -1;
	}
	if (t->nr_nodes < 1 || t->nr_nodes > SVZ_MAX_NODES) {
		seterr(err, errlen, "expected 1..%d nodes, got %d", SVZ_MAX_NODES, t->nr_nodes);
		return -1;
	}
	if (t->nr_cpus < 1 || t->nr_cpus > SVZ_MAX_CPUS) {
		seterr(err, errlen, "expected 1..%d CPUs, got %d", SVZ_MAX_CPUS, t->nr_cpus);
		return -1;
	}
	for (int cpu = 0; cpu < t->nr_cpus; cpu++) {
		if (t->cpu_node[cpu] < 0 || t->cpu_node[cpu] >= t->nr_nodes) {
			seterr(err, errlen, "expected CPU %d on a node 0..%d, got node %d", cpu,
			       t->nr_nodes - 1, t->cpu_node[cpu]);
			return -1;
		}
	}
	for (int n = 0; n < t->nr_nodes; n++)
		any_memory |= t->node_mem_bytes[n] > 0;
	if (!any_memory) {
		seterr(err, errlen, "expected at least one node with memory, got none");
		return -1;
	}
	if (t->possible < t->nr_cpus || t->possible > SVZ_MAX_POSSIBLE_CPUS) {
		seterr(err, errlen, "expected possible CPUs %d..%d (every declared CPU is possible), got %d",
		       t->nr_cpus, SVZ_MAX_POSSIBLE_CPUS, t->possible);
		return -1;
	}
	if (t->online < 1 || t->online > t->present || t->present > t->possible) {
		seterr(err, errlen, "expected 1 <= online <= present <= possible CPUs, got online=%d "
		       "present=%d possible=%d", t->online, t->present, t->possible);
		return -1;
	}
	if (t->boot_online < 1 || t->boot_online > t->online) {
		seterr(err, errlen, "expected 1..%d CPUs online at boot, got %d", t->online,
		       t->boot_online);
		return -1;
	}
	return 0;
}
