/* `slubviz sizes`: cache geometry from the command line, one line per size.
 * A thin driver over core/src/model/sizing.c; no model state. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slubviz/config.h"
#include "slubviz/sizing.h"

int svz_cmd_sizes(int argc, char **argv);

#define SIZES_MAX_CPUS 8192 /* CONFIG_NR_CPUS ceiling (MAXSMP) */

static const char sizes_usage[] =
"usage: slubviz sizes --page-size N --cpus N [--cpu-source online|present|possible]\n"
"                     [--form loop|fraction] [--era sheaves|classic]\n"
"                     [--object-size N [--align N]] [--flags LIST] [SIZE...]\n"
"\n"
"Slab geometry as SLUB computes it: calculate_sizes(), calculate_order(),\n"
"min_partial, set_cpu_partial() and calculate_sheaf_capacity().\n"
"\n"
"  --page-size N     4096, 16384 or 65536\n"
"  --cpus N          CPUs of the machine (possible = present = online = N), 1..8192\n"
"  --cpu-source S    the CPU count calculate_order() uses, min_objects =\n"
"                    4 * (fls(count) + 1):\n"
"                      present   v5.11+ (default): num_present_cpus(), or nr_cpu_ids\n"
"                                when that is <= 1; here N\n"
"                      possible  up to v5.10: nr_cpu_ids; here N\n"
"                      online    v5.11-rc1..rc7: num_online_cpus() when the cache is created.\n"
"                                The kmalloc caches are created at boot with only\n"
"                                the boot CPU online, so this is 1 whatever N is\n"
"                                (the regression of seed 001)\n"
"  --form F          calculate_order() form: fraction (default, v6.7+: waste\n"
"                    1/16..1/2 at fixed min_objects) or loop (up to v6.6: lowers\n"
"                    min_objects before accepting more than 1/4 waste)\n"
"  --era E           sheaves (default, v7.0) or classic (v6.8..v6.19). Both\n"
"                    cpu_partial (classic semantics) and sheaf_capacity are\n"
"                    printed in either era, so the figures do not change\n"
"  --object-size N   compute s->size from an object size with calculate_sizes()\n"
"  --align N         requested alignment for --object-size: 0 or a power of two\n"
"  --flags LIST      SLAB_* flags by kernel name, ',' or '|' separated, SLAB_\n"
"                    prefix optional, e.g. HWCACHE_ALIGN,TYPESAFE_BY_RCU. Apply to\n"
"                    --object-size and to every SIZE (debug flags turn off\n"
"                    cpu_partial and sheaves; debug metadata is not modelled)\n"
"  SIZE...           slab sizes s->size (the /proc/slabinfo objsize), multiples of 8\n"
"\n"
"Output, one line per size (--object-size first):\n"
"  size=S order=O objects=N pagesperslab=P min_partial=M cpu_partial=C sheaf_capacity=K\n"
"Exit status: 0 on success, 2 on bad input.\n";

static int sizes_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sizes_fail(const char *fmt, ...)
{
	va_list ap;

	fputs("slubviz sizes: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 2;
}

/* Decimal only (no sign, no octal surprises), whole string, <= max. */
static bool parse_uint(const char *s, unsigned long long max, unsigned long long *out)
{
	char *end;
	unsigned long long v;

	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return false;
	*out = v;
	return true;
}

static void print_geom(const struct svz_geom *g)
{
	printf("size=%u order=%u objects=%u pagesperslab=%u min_partial=%u "
	       "cpu_partial=%u sheaf_capacity=%u\n", g->size, g->order, g->objects,
	       1u << g->order, g->min_partial, g->cpu_partial, g->sheaf_capacity);
}

int svz_cmd_sizes(int argc, char **argv)
{
	unsigned long long page_size = 0, cpus = 0, object_size = 0, align = 0, v;
	bool have_page = false, have_cpus = false, have_obj = false, have_align = false;
	enum svz_cpu_source src = SVZ_CPUS_PRESENT;
	enum svz_order_form form = SVZ_ORDER_FRACTION;
	enum svz_era era = SVZ_ERA_SHEAVES;
	uint32_t flags = 0;
	int nsizes = 0;
	char **sizes = calloc((size_t)(argc > 0 ? argc : 1), sizeof(*sizes));
	char err[256], optbuf[64];
	int rc = 2;

	if (!sizes)
		return sizes_fail("out of memory");

	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *val = NULL, *eq;

		if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
			fputs(sizes_usage, stdout);
			rc = 0;
			goto out;
		}
		if (strncmp(arg, "--", 2) != 0 || arg[2] == 0) {
			if (arg[0] == '-' && arg[1] != 0) {
				rc = sizes_fail("unknown option '%s' (expected --page-size, --cpus, "
						"--cpu-source, --form, --era, --object-size, --align, "
						"--flags or a SIZE)", arg);
				goto out;
			}
			sizes[nsizes++] = argv[i];
			continue;
		}
		/* --opt=value or --opt value */
		eq = strchr(arg, '=');
		if (eq) {
			snprintf(optbuf, sizeof optbuf, "%.*s", (int)(eq - arg), arg);
			arg = optbuf;
			val = eq + 1;
		}
		static const char *const known[] = { "--page-size", "--cpus", "--cpu-source",
			"--form", "--era", "--object-size", "--align", "--flags" };
		bool ok = false;
		for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
			ok |= strcmp(arg, known[k]) == 0;
		if (!ok) {
			rc = sizes_fail("unknown option '%s' (expected --page-size, --cpus, "
					"--cpu-source, --form, --era, --object-size, --align, "
					"--flags or a SIZE)", arg);
			goto out;
		}
		if (!val) {
			if (i + 1 >= argc) {
				rc = sizes_fail("%s: missing value", arg);
				goto out;
			}
			val = argv[++i];
		}

		if (strcmp(arg, "--page-size") == 0) {
			if (!parse_uint(val, 65536, &page_size) ||
			    (page_size != 4096 && page_size != 16384 && page_size != 65536)) {
				rc = sizes_fail("--page-size: expected 4096, 16384 or 65536, got '%s'", val);
				goto out;
			}
			have_page = true;
		} else if (strcmp(arg, "--cpus") == 0) {
			if (!parse_uint(val, SIZES_MAX_CPUS, &cpus) || cpus < 1) {
				rc = sizes_fail("--cpus: expected a CPU count from 1 to %d, got '%s'",
						SIZES_MAX_CPUS, val);
				goto out;
			}
			have_cpus = true;
		} else if (strcmp(arg, "--cpu-source") == 0) {
			if (strcmp(val, "online") == 0)
				src = SVZ_CPUS_ONLINE;
			else if (strcmp(val, "present") == 0)
				src = SVZ_CPUS_PRESENT;
			else if (strcmp(val, "possible") == 0)
				src = SVZ_CPUS_POSSIBLE;
			else {
				rc = sizes_fail("--cpu-source: expected online, present or possible, "
						"got '%s'", val);
				goto out;
			}
		} else if (strcmp(arg, "--form") == 0) {
			if (strcmp(val, "loop") == 0)
				form = SVZ_ORDER_LOOP;
			else if (strcmp(val, "fraction") == 0)
				form = SVZ_ORDER_FRACTION;
			else {
				rc = sizes_fail("--form: expected loop or fraction, got '%s'", val);
				goto out;
			}
		} else if (strcmp(arg, "--era") == 0) {
			if (strcmp(val, "sheaves") == 0)
				era = SVZ_ERA_SHEAVES;
			else if (strcmp(val, "classic") == 0)
				era = SVZ_ERA_CLASSIC;
			else {
				rc = sizes_fail("--era: expected sheaves or classic, got '%s'", val);
				goto out;
			}
		} else if (strcmp(arg, "--object-size") == 0) {
			if (!parse_uint(val, UINT32_MAX, &object_size) || object_size < 1) {
				rc = sizes_fail("--object-size: expected an object size in bytes "
						"from 1 to %u, got '%s'", UINT32_MAX, val);
				goto out;
			}
			have_obj = true;
		} else if (strcmp(arg, "--align") == 0) {
			if (!parse_uint(val, 1ull << 31, &align) || (align & (align - 1))) {
				rc = sizes_fail("--align: expected 0 or a power of two, got '%s'", val);
				goto out;
			}
			have_align = true;
		} else { /* --flags */
			if (svz_slab_flags_parse(val, &flags, err, sizeof err)) {
				rc = sizes_fail("--flags: %s", err);
				goto out;
			}
		}
	}

	if (!have_page) {
		rc = sizes_fail("missing --page-size (expected 4096, 16384 or 65536)");
		goto out;
	}
	if (!have_cpus) {
		rc = sizes_fail("missing --cpus (expected a CPU count from 1 to %d)", SIZES_MAX_CPUS);
		goto out;
	}
	if (have_align && !have_obj) {
		rc = sizes_fail("--align: only applies to --object-size (a SIZE is already s->size)");
		goto out;
	}
	if (!have_obj && nsizes == 0) {
		rc = sizes_fail("nothing to compute (expected SIZE... or --object-size N)");
		goto out;
	}

	/* The whole machine has N CPUs; the kmalloc caches were created when only
	 * the boot CPU was online, which is what the v5.11-rc "online" source saw. */
	struct svz_topology topo;
	memset(&topo, 0, sizeof topo);
	topo.nr_cpus = topo.possible = topo.present = topo.online = (int)cpus;
	topo.boot_online = 1;
	topo.page_size = (uint32_t)page_size;

	struct svz_geom_in in = {
		.object_size = (uint32_t)object_size,
		.align = (uint32_t)align,
		.flags = flags,
		.page_size = (uint32_t)page_size,
		.nr_cpus = svz_order_cpus(&topo, src),
		.form = form,
		.era = era,
	};
	struct svz_geom g;

	/* Check every input before printing anything. */
	for (int pass = 0; pass < 2; pass++) {
		if (have_obj) {
			if (svz_calculate_geometry(&in, &g, err, sizeof err)) {
				rc = sizes_fail("--object-size %llu: %s", object_size, err);
				goto out;
			}
			if (pass)
				print_geom(&g);
		}
		for (int k = 0; k < nsizes; k++) {
			if (!parse_uint(sizes[k], UINT32_MAX, &v) || v == 0 || v % 8) {
				rc = sizes_fail("SIZE '%s': expected a slab size s->size in bytes, "
						"a non-zero multiple of 8", sizes[k]);
				goto out;
			}
			if (svz_geometry_for_size((uint32_t)v, &in, &g, err, sizeof err)) {
				rc = sizes_fail("SIZE %s: %s", sizes[k], err);
				goto out;
			}
			if (pass)
				print_geom(&g);
		}
	}
	rc = 0;
out:
	free(sizes);
	return rc;
}
