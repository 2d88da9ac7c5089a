/* svz_manifest_json(): the core's vocabulary as one JSON document, so that
 * the web app, the lesson checker and the CLI read names from the core
 * instead of typing them again. Every list here is walked from the table
 * that defines it (presets.def, switches.def, stat_items.def, engine.h's
 * X-macros, the parser's op table, import_formats.def); none is typed here.
 * Bump "schema" when a field changes meaning or goes away. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/engine.h"
#include "model/model.h"
#include "api/session.h"
#include "slubviz/config.h"
#include "slubviz/import.h"
#include "slubviz/sizing.h"
#include "slubviz/slubviz.h"
#include "slubviz/trace.h"
#include "lib/util.h"

#define SVZ_MANIFEST_SCHEMA 1

/* pre (a "{" or ","), then "key":"value". */
static void json_kv(struct sbuf *b, const char *pre, const char *key, const char *value)
{
	sb_printf(b, "%s\"%s\":", pre, key);
	sb_json_str(b, value);
}

/* "a b c" as ["a","b","c"] ("" as []). */
static void json_words(struct sbuf *b, const char *words)
{
	char one[64];

	sb_printf(b, "[");
	for (int k = 0; word_at(words, k, one, sizeof one); k++) {
		sb_printf(b, "%s", k ? "," : "");
		sb_json_str(b, one);
	}
	sb_printf(b, "]");
}

static void json_names(struct sbuf *b, const char *key, const char *const *names, int n)
{
	sb_printf(b, ",\"%s\":[", key);
	for (int i = 0; i < n; i++) {
		sb_printf(b, "%s", i ? "," : "");
		sb_json_str(b, names[i]);
	}
	sb_printf(b, "]");
}

static void presets(struct sbuf *b)
{
	sb_printf(b, ",\"presets\":[");
	for (int i = 0; svz_preset_name(i); i++) {
		json_kv(b, i ? ",{" : "{", "name", svz_preset_name(i));
		json_kv(b, ",", "description", svz_preset_desc(i));
		json_kv(b, ",", "settings", svz_preset_settings(i));
		sb_printf(b, "}");
	}
	sb_printf(b, "],\"default_preset\":");
	sb_json_str(b, svz_newest_preset());
}

static void switches(struct sbuf *b)
{
	const char *name, *alias, *choices, *what;
	int kind;

	sb_printf(b, ",\"switches\":[");
	for (int i = 0; (kind = svz_switch_info(i, &name, &alias, &choices, &what)) >= 0; i++) {
		json_kv(b, i ? ",{" : "{", "name", name);
		sb_printf(b, ",\"aliases\":");
		json_words(b, alias);
		sb_printf(b, ",\"kind\":\"%s\",\"choices\":", kind ? "bool" : "value");
		json_words(b, choices);
		json_kv(b, ",", "what", what);
		sb_printf(b, "}");
	}
	sb_printf(b, "]");
}

static void stats(struct sbuf *b)
{
	static const struct { const char *item; enum stat_item si; } rows[] = {
#define STAT_ITEM(item, sysfs) { #item, item },
#include "model/stat_items.def"
#undef STAT_ITEM
	};

	sb_printf(b, ",\"stats\":[");
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		bool sheaves = stat_in_era(rows[i].si, SVZ_ERA_SHEAVES);
		bool classic = stat_in_era(rows[i].si, SVZ_ERA_CLASSIC);

		sb_printf(b, "%s{\"item\":\"%s\",\"sysfs\":\"%s\",\"eras\":[%s%s%s]}", i ? "," : "",
			  rows[i].item, stat_names[rows[i].si], sheaves ? "\"sheaves\"" : "",
			  sheaves && classic ? "," : "", classic ? "\"classic\"" : "");
	}
	sb_printf(b, "]");
	json_names(b, "node_counters", node_counter_names, NR_NODE_COUNTERS);
}

/* A list of names from an accessor: name(0), name(1), ... up to NULL. */
static void json_list(struct sbuf *b, const char *key, const char *(*name)(int))
{
	sb_printf(b, ",\"%s\":[", key);
	for (int i = 0; name(i); i++) {
		sb_printf(b, "%s", i ? "," : "");
		sb_json_str(b, name(i));
	}
	sb_printf(b, "]");
}

static const char *op_at(int i)
{
	return i < SVZ_OP__COUNT ? svz_op_name((enum svz_op_type)i) : NULL;
}


static void import_formats(struct sbuf *b)
{
	sb_printf(b, ",\"import_formats\":[");
	for (int f = 0; f < SVZ_FMT__COUNT; f++) {
		enum svz_import_format e = (enum svz_import_format)f;

		json_kv(b, f ? ",{" : "{", "name", svz_import_format_name(e));
		sb_printf(b, ",\"aliases\":");
		json_words(b, svz_import_format_aliases(e));
		json_kv(b, ",", "label", svz_import_format_label(e));
		sb_printf(b, "}");
	}
	sb_printf(b, "],\"import_skip_reasons\":[");
	for (int r = 0; r < SVZ_SKIP__COUNT; r++) {
		json_kv(b, r ? ",{" : "{", "name", svz_import_skip_name((enum svz_import_skip)r));
		json_kv(b, ",", "text", svz_import_skip_text((enum svz_import_skip)r));
		sb_printf(b, "}");
	}
	sb_printf(b, "]");
}

static void limits(struct sbuf *b)
{
	struct svz_import_limits il;

	svz_import_limits_default(&il);
	sb_printf(b, ",\"limits\":{\"trace_max_ops\":%u,\"trace_max_iterations\":%u,"
		  "\"trace_max_caches\":%u,\"trace_max_line\":%u,\"trace_max_name\":%u,"
		  "\"trace_max_name_bytes\":%u,\"import_max_line\":%" PRIu32 ","
		  "\"import_max_ops\":%" PRIu32 ",\"import_max_bytes\":%" PRIu64 ","
		  "\"import_max_caches\":%" PRIu32 ",\"event_ring\":%u,\"max_cpus\":%d,"
		  "\"max_nodes\":%d,\"max_full_sheaves\":%d,\"max_empty_sheaves\":%d,"
		  "\"max_page_order\":%d,\"max_partial\":%d}",
		  SVZ_TRACE_MAX_OPS, SVZ_TRACE_MAX_ITERATIONS, SVZ_TRACE_MAX_CACHES,
		  SVZ_TRACE_MAX_LINE, SVZ_TRACE_MAX_NAME, SVZ_TRACE_MAX_NAME_BYTES, il.max_line,
		  il.max_ops, il.max_bytes, il.max_caches, SVZ_EVENT_RING_CAP, SVZ_MAX_CPUS,
		  SVZ_MAX_NODES, MAX_FULL_SHEAVES, MAX_EMPTY_SHEAVES, SVZ_MAX_PAGE_ORDER,
		  SVZ_MAX_PARTIAL);
}

const char *svz_manifest_json(void)
{
	static char *doc;

	if (doc)
		return doc;
	struct sbuf b = { 0 };

	sb_printf(&b, "{\"schema\":%d,\"event_schema\":%d,\"snapshot_schema\":%d",
		  SVZ_MANIFEST_SCHEMA, SVZ_EVENT_SCHEMA, SVZ_SNAPSHOT_SCHEMA);
	presets(&b);
	switches(&b);
	stats(&b);
	json_names(&b, "event_kinds", ev_kind_names, EV__COUNT);
	json_names(&b, "locations", loc_names, LOC__COUNT);
	json_names(&b, "checks", check_names, CHK__COUNT);
	json_names(&b, "locks", lock_names + 1, LK__COUNT - 1); /* not LK_NONE */
	json_names(&b, "kernel_functions", kfn_names, KFN__COUNT);
	json_list(&b, "ops", op_at);
	json_list(&b, "directives", svz_trace_directive_name);
	import_formats(&b);
	limits(&b);
	sb_printf(&b, "}\n");
	/* Built once: the tables are constant. NULL only when out of memory. */
	doc = b.s;
	return doc ? doc : "";
}
