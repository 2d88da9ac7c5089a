/* slubviz diff TRACE --a PRESET --b PRESET [--cache NAME] [--set K=V]... [--json]
 *
 * A/B comparison: the same trace replayed under two kernel presets, every
 * SLUB_STATS counter of the cache side by side (either era's items that
 * are non-zero on one side), the slow-path share of allocations and the
 * n->list_lock acquisitions per 1000 ops. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/engine.h"
#include "api/session.h"
#include "model/timing.h"

#include "cli.h"

struct side {
	const char *preset;
	int h;
	idx_t cache;
	uint64_t stat[NR_SLUB_STAT_ITEMS];
	uint64_t list_lock, list_writes, ops;
	bool timed;               /* the run was timed: throughput and spin share */
	double mops, spin_share;
};

static int dfail(const char *fmt, const char *arg)
{
	fprintf(stderr, "slubviz diff: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return 2;
}

static int run_side(const char *path, const char *text, const char *sets, const char *cache_name,
		    struct side *sd)
{
	sd->h = svz_open_any(text, sd->preset, sets); /* any trace format */
	if (sd->h <= 0) {
		const char *e = svz_last_error();
		if (strncmp(e, "trace:", 6) == 0) { /* a parse error: the file's position leads */
			fprintf(stderr, "%s:%s\n", cli_input_name(path), e + 6);
			return 2;
		}
		return dfail("%s", e);
	}
	if (svz_run_all(sd->h) < 0) {
		print_stop(sd->h, path);
		fprintf(stderr, "slubviz diff: (the run under %s)\n", sd->preset);
		return 2;
	}
	struct model *m = svz_session_model(sd->h);
	struct world *w = WORLD(m);
	sd->cache = cache_name ? model_find_cache(m, cache_name) : (w->nr_caches ? 0 : NIL);
	if (sd->cache == NIL)
		return dfail("no cache '%s' in this trace", cache_name ? cache_name : "(none)");
	cache_stat_sums(m, sd->cache, sd->stat);
	sd->list_lock = cache_node_counter(m, sd->cache, NC_LIST_LOCK);
	sd->list_writes = cache_node_counter(m, sd->cache, NC_LIST_WRITES);
	sd->ops = (uint64_t)svz_ops_done(sd->h);
	sd->timed = timing_summary(m, &sd->mops, &sd->spin_share) == 0;
	return 0;
}

static double slow_share(const struct side *s) { return alloc_slow_share(s->stat); }

static void rel(char *buf, size_t len, uint64_t a, uint64_t b)
{
	if (a == 0)
		snprintf(buf, len, "%s", b ? "new" : "-");
	else
		snprintf(buf, len, "%+.1f%%", 100.0 * ((double)b - (double)a) / (double)a);
}

int svz_cmd_diff(int argc, char **argv)
{
	const char *trace = NULL, *cache = NULL;
	struct side a = {0}, b = {0};
	bool json = false;
	char *sets = calloc(1, 1);
	size_t setslen = 0;
	int rc = 2;
	for (int i = 0; i < argc; i++) {
		const char *o = argv[i];
		const char **slot = strcmp(o, "--a") == 0 ? &a.preset : strcmp(o, "--b") == 0 ? &b.preset :
				    strcmp(o, "--cache") == 0 ? &cache : NULL;
		bool sched = strcmp(o, "--schedule") == 0, cost = strcmp(o, "--cost") == 0;
		if (slot || strcmp(o, "--set") == 0 || sched || cost) {
			if (i + 1 >= argc) {
				rc = dfail("expected a value after %s", o);
				goto out;
			}
			if (slot) {
				*slot = argv[++i];
			} else {
				/* --schedule S is schedule=S, --cost K=V is cost.K=V */
				const char *pre = sched ? "schedule=" : cost ? "cost." : "";
				size_t l = strlen(argv[++i]), pl = strlen(pre);
				char *ns = realloc(sets, setslen + pl + l + 2);
				if (!ns)
					goto out;
				sets = ns;
				memcpy(sets + setslen, pre, pl);
				setslen += pl;
				memcpy(sets + setslen, argv[i], l);
				setslen += l;
				sets[setslen++] = '\n';
				sets[setslen] = 0;
			}
		} else if (strcmp(o, "--json") == 0) {
			json = true;
		} else if (o[0] == '-' && o[1]) {
			rc = dfail("unknown option '%s' (expected --a, --b, --cache, --set, --schedule, --cost, --json)", o);
			goto out;
		} else if (!trace) {
			trace = o;
		} else {
			rc = dfail("expected one TRACE, got another: '%s'", o);
			goto out;
		}
	}
	if (!trace || !a.preset || !b.preset) {
		rc = dfail("%s", "usage: slubviz diff TRACE --a PRESET --b PRESET [--cache NAME] [--set KEY=VALUE]... [--json]");
		goto out;
	}
	char *text = read_file(trace);
	if (!text) {
		rc = dfail("cannot read '%s'", trace);
		goto out;
	}
	rc = run_side(trace, text, sets, cache, &a);
	if (!rc)
		rc = run_side(trace, text, sets, cache, &b);
	free(text);
	if (rc)
		goto close;
	const char *cname = cache_r(svz_session_model(a.h), a.cache)->name;
	if (json) {
		printf("{\"schema\":1,\"trace\":\"%s\",\"cache\":\"%s\",\"a\":\"%s\",\"b\":\"%s\",\"ops\":%llu,\"stats\":{",
		       trace, cname, a.preset, b.preset, (unsigned long long)a.ops);
		bool first = true;
		for (int si = 0; si < NR_SLUB_STAT_ITEMS; si++) {
			if (!a.stat[si] && !b.stat[si])
				continue;
			printf("%s\"%s\":[%llu,%llu]", first ? "" : ",", stat_names[si],
			       (unsigned long long)a.stat[si], (unsigned long long)b.stat[si]);
			first = false;
		}
		printf("},\"slowpath_share\":[%.2f,%.2f],\"list_lock_per_kop\":[%.2f,%.2f],"
		       "\"list_writes_per_kop\":[%.2f,%.2f]",
		       slow_share(&a), slow_share(&b), per_kop(a.list_lock, a.ops), per_kop(b.list_lock, b.ops),
		       per_kop(a.list_writes, a.ops), per_kop(b.list_writes, b.ops));
		if (a.timed && b.timed)
			printf(",\"throughput_mops\":[%.3f,%.3f],\"spin_share\":[%.4f,%.4f]", a.mops, b.mops,
			       a.spin_share, b.spin_share);
		printf("}\n");
		goto close;
	}
	printf("trace %s, cache %s, %llu ops\n", trace, cname, (unsigned long long)a.ops);
	printf("%-26s %14s %14s %14s %9s\n", "counter", a.preset, b.preset, "b-a", "b/a");
	for (int si = 0; si < NR_SLUB_STAT_ITEMS; si++) {
		if (!a.stat[si] && !b.stat[si])
			continue;
		char r[32];
		rel(r, sizeof r, a.stat[si], b.stat[si]);
		printf("%-26s %14llu %14llu %+14lld %9s\n", stat_names[si], (unsigned long long)a.stat[si],
		       (unsigned long long)b.stat[si], (long long)(b.stat[si] - a.stat[si]), r);
	}
	printf("%-26s %13.2f%% %13.2f%%\n", "slow-path share", slow_share(&a), slow_share(&b));
	printf("%-26s %14.2f %14.2f\n", "list_lock per 1000 ops", per_kop(a.list_lock, a.ops),
	       per_kop(b.list_lock, b.ops));
	printf("%-26s %14.2f %14.2f\n", "list writes per 1000 ops", per_kop(a.list_writes, a.ops),
	       per_kop(b.list_writes, b.ops));
	if (a.timed && b.timed) { /* --schedule timed */
		printf("%-26s %14.3f %14.3f %14s %8.2fx\n", "throughput (mops)", a.mops, b.mops, "",
		       a.mops > 0 ? b.mops / a.mops : 0.0);
		printf("%-26s %13.1f%% %13.1f%%\n", "spin share", 100.0 * a.spin_share, 100.0 * b.spin_share);
	}
close:
	if (a.h > 0)
		svz_close(a.h);
	if (b.h > 0)
		svz_close(b.h);
out:
	free(sets);
	return rc;
}
