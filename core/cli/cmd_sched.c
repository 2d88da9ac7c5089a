/* The schedule commands.
 *
 * slubviz hunt TRACE [--preset P] [--set K=V]... [--seeds N] [--from S]
 *
 * Race hunting: replay TRACE under N random schedules (seeds S..S+N-1),
 * with the validator after every micro-step, and print the first seed
 * whose run stops (an invariant broken, a kernel-style report) or "none".
 * Exit status: 0 none found, 1 a seed found, 2 bad input.
 *
 * slubviz costs [--cost KEY=CYCLES]...
 *
 * The timed schedule's cost table (costs.def), with the overrides. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/sbuf.h"
#include "slubviz/config.h"
#include "slubviz/slubviz.h"

#include "cli.h"

int svz_cmd_hunt(int argc, char **argv)
{
	const char *trace = NULL, *preset = NULL, *v;
	struct sbuf sets = { 0 };
	long long seeds = 100, from = 1;
	int rc = 0;
	bool m;

	for (int i = 0; i < argc && !rc; i++) {
		if (argv[i][0] != '-' || strcmp(argv[i], "-") == 0) {
			if (trace)
				rc = cli_fail("hunt", "expected one trace file, got a second: '%s'", argv[i]);
			trace = argv[i];
		} else if ((v = cli_opt_value(argc, argv, &i, "--preset", &m)) || m) {
			if (!v)
				rc = cli_fail("hunt", "--preset needs a preset name (try: slubviz presets)");
			preset = v;
		} else if ((v = cli_opt_value(argc, argv, &i, "--set", &m)) || m) {
			if (!v || !strchr(v, '=') || v[0] == '=')
				rc = cli_fail("hunt", "--set needs KEY=VALUE, got '%s'", v ? v : "");
			else
				sb_printf(&sets, "%s\n", v);
		} else if ((v = cli_opt_value(argc, argv, &i, "--seeds", &m)) || m) {
			rc = cli_count("hunt", "--seeds", v, 0, 100000000, &seeds);
		} else if ((v = cli_opt_value(argc, argv, &i, "--from", &m)) || m) {
			rc = cli_count("hunt", "--from", v, 0, 1000000000000LL, &from);
		} else {
			rc = cli_fail("hunt", "unknown option '%s' (see: slubviz help)", argv[i]);
		}
	}
	if (!rc && !trace)
		rc = cli_fail("hunt", "expected a trace file (see: slubviz help)");
	size_t base = sets.len;
	for (long long k = 0; !rc && k < seeds; k++) {
		long long seed = from + k;
		sets.len = base;
		if (sets.s)
			sets.s[base] = 0;
		sb_printf(&sets, "schedule=random seed=%lld\n", seed);
		if (sets.oom) {
			rc = cli_fail("hunt", "out of memory");
			break;
		}
		int h;
		rc = load_any_trace("hunt", trace, NULL, preset, sets.s, true, &h);
		if (rc)
			break;
		svz_set_events(h, 0);
		if (k % 10 == 0 || k + 1 == seeds)
			fprintf(stderr, "hunt: seed %lld (%lld of %lld)\n", seed, k + 1, seeds);
		if (svz_run_all(h) < 0) {
			const char *r = svz_reports(h)[0] ? svz_reports(h) : svz_run_error(h);
			printf("seed=%lld ops %d/%d steps %lld: %.*s\n", seed, svz_ops_done(h), svz_ops_total(h),
			       (long long)svz_seq(h), (int)strcspn(r, "\n"), r);
			printf("replay: slubviz run %s%s%s --schedule 'random seed=%lld' --events\n", trace,
			       preset ? " --preset " : "", preset ? preset : "", seed);
			svz_close(h);
			sb_free(&sets);
			return 1;
		}
		svz_close(h);
	}
	if (!rc)
		printf("none\n");
	sb_free(&sets);
	return rc;
}

int svz_cmd_costs(int argc, char **argv)
{
	struct svz_schedule s = { 0 };
	char err[512];
	for (int i = 0; i < argc; i++) {
		bool m;
		const char *v = cli_opt_value(argc, argv, &i, "--cost", &m);
		if (!m)
			return cli_fail("costs", "unknown option '%s' (see: slubviz help)", argv[i]);
		const char *eq = v ? strchr(v, '=') : NULL;
		if (!eq || eq == v)
			return cli_fail("costs", "--cost needs KEY=CYCLES, got '%s'", v ? v : "");
		char key[64];
		snprintf(key, sizeof key, "%.*s", (int)(eq - v), v);
		if (svz_cost_set(&s, key, eq + 1, err, sizeof err))
			return cli_fail("costs", "%s", err);
	}
	const char *key, *what;
	uint64_t cycles;
	printf("%-12s %8s  %s\n", "# key", "cycles", "what (sources: core/src/model/costs.def, docs/timing.md)");
	for (int i = 0; svz_cost_info(i, &key, &cycles, &what) == 0; i++)
		printf("%-12s %8llu  %s%s\n", key, (unsigned long long)(s.cost[i] ? s.cost[i] - 1 : cycles), what,
		       s.cost[i] ? " (overridden)" : "");
	return 0;
}
