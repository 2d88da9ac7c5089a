/* Cache geometry against real kernels: V1 (seed 003 /proc/slabinfo), V2
 * (seed 004 bio-256), V3 (seed 001 kmalloc-512 and the CPU count), the
 * reference table and worked checks of slub-behavior.md section 10, the
 * kmalloc size classes (section 2.7) and the flag names. Every expected
 * figure below is taken from the seeds or the spec, never from this code. */
#include "harness.h"

#include <stdlib.h>

#include "slubviz/sizing.h"

static const enum svz_order_form forms[2] = { SVZ_ORDER_FRACTION, SVZ_ORDER_LOOP };
static const char *form_name(enum svz_order_form f)
{
	return f == SVZ_ORDER_LOOP ? "loop" : "fraction";
}

/* ---- V1: seed 003, Raspberry Pi 5 ---------------------------------------- */

struct row {
	char name[64];
	unsigned objsize, objperslab, pagesperslab;
};

static int load_rows(struct row *rows, int max)
{
	char *text = svz_t_read_file("core/tests/data/seed003_slabinfo.txt", NULL);
	int n = 0;

	if (!text)
		return 0;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		unsigned active, num;

		if (line[0] == '#')
			continue;
		if (n < max && sscanf(line, "%63s %u %u %u %u %u", rows[n].name, &active, &num,
				      &rows[n].objsize, &rows[n].objperslab,
				      &rows[n].pagesperslab) == 6)
			n++;
		else
			fprintf(stderr, "unparsed slabinfo row: %s\n", line);
	}
	free(text);
	return n;
}

/* How many rows calculate_order reproduces exactly (objects and pages). */
static int rows_matching(const struct row *rows, int n, uint32_t page_size,
			 unsigned cpus, enum svz_order_form form)
{
	int ok = 0;

	for (int i = 0; i < n; i++) {
		int order = svz_calculate_order(rows[i].objsize, page_size, cpus, form);

		if (order >= 0 &&
		    svz_order_objects((unsigned)order, rows[i].objsize, page_size) == rows[i].objperslab &&
		    (1u << order) == rows[i].pagesperslab)
			ok++;
	}
	return ok;
}

static const struct row *find_row(const struct row *rows, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(rows[i].name, name) == 0)
			return &rows[i];
	return NULL;
}

static void test_v1_seed003(void)
{
	struct row rows[64];
	int n = load_rows(rows, 64);

	CHECK_EQ_INT(n, 49);
	/* min_objects = 4 * (fls(4) + 1) = 16 */
	CHECK_EQ_INT(svz_min_objects(4), 16);

	for (int f = 0; f < 2; f++) {
		struct svz_geom_in in = { .page_size = 16384, .nr_cpus = 4, .form = forms[f] };
		int exact = 0;

		for (int i = 0; i < n; i++) {
			struct svz_geom g;
			char err[200] = "";
			int rc = svz_geometry_for_size(rows[i].objsize, &in, &g, err, sizeof err);

			if (rc == 0 && g.objects == rows[i].objperslab &&
			    (1u << g.order) == rows[i].pagesperslab) {
				exact++;
				continue;
			}
			fprintf(stderr, "V1 %s form: %s size %u: got rc %d order %u objects %u, "
				"want %u objects %u pages %s\n", form_name(forms[f]), rows[i].name,
				rows[i].objsize, rc, g.order, g.objects, rows[i].objperslab,
				rows[i].pagesperslab, err);
		}
		CHECK_EQ_INT(exact, 49);
		CHECK_EQ_INT(rows_matching(rows, n, 16384, 4, forms[f]), 49);

		/* The named examples of validation.md V1. */
		const struct row *r = find_row(rows, n, "fuse_request");
		CHECK(r && r->objsize == 144 && r->objperslab == 113 && r->pagesperslab == 1);
		r = find_row(rows, n, "kcopyd_job");
		CHECK(r && r->objsize == 3240 && r->objperslab == 20 && r->pagesperslab == 4);
		CHECK_EQ_INT(svz_calculate_order(3240, 16384, 4, forms[f]), 2);
		r = find_row(rows, n, "jbd2_revoke_table_s");
		CHECK(r && r->objsize == 16 && r->objperslab == 1024 && r->pagesperslab == 1);
		/* kvm_vcpu 9680: min_objects capped by max_objects = 13 at order 3 */
		r = find_row(rows, n, "kvm_vcpu");
		CHECK(r && r->objsize == 9680 && r->objperslab == 13 && r->pagesperslab == 8);
		CHECK_EQ_INT(svz_order_objects(SVZ_SLUB_MAX_ORDER, 9680, 16384), 13);
		CHECK_EQ_INT(svz_calculate_order(9680, 16384, 4, forms[f]), 3);

		/* The CPU and page inputs matter: the rows do not all fit otherwise.
		 * Counts from slub-behavior.md section 10 (a'). */
		CHECK(rows_matching(rows, n, 4096, 4, forms[f]) < 49);
		CHECK_EQ_INT(rows_matching(rows, n, 4096, 4, forms[f]), 0);
		CHECK(rows_matching(rows, n, 16384, 1, forms[f]) < 49);
		CHECK_EQ_INT(rows_matching(rows, n, 16384, 1, forms[f]), 39);
		CHECK(rows_matching(rows, n, 16384, 2, forms[f]) < 49);
		CHECK_EQ_INT(rows_matching(rows, n, 16384, 2, forms[f]), 41);
		CHECK_EQ_INT(rows_matching(rows, n, 16384, 3, forms[f]), 41);
		CHECK(rows_matching(rows, n, 16384, 8, forms[f]) < 49);
		CHECK_EQ_INT(rows_matching(rows, n, 16384, 8, forms[f]), 43);
		CHECK_EQ_INT(rows_matching(rows, n, 16384, 16, forms[f]), 38);
		CHECK_EQ_INT(rows_matching(rows, n, 16384, 64, forms[f]), 29);
		/* fls(nr_cpus) = 3, i.e. 4-7 CPUs, all give the same table */
		CHECK_EQ_INT(rows_matching(rows, n, 16384, 7, forms[f]), 49);
	}
}

/* ---- V2: seed 004 bio-256 ------------------------------------------------- */

static void test_v2_bio256(void)
{
	uint32_t flags = 0;
	char err[200] = "";

	CHECK_EQ_INT(svz_slab_flags_parse("SLAB_HWCACHE_ALIGN|SLAB_TYPESAFE_BY_RCU", &flags,
					  err, sizeof err), 0);
	CHECK_EQ_INT(flags, SLAB_HWCACHE_ALIGN | SLAB_TYPESAFE_BY_RCU);

	for (int f = 0; f < 2; f++) {
		struct svz_geom_in in = {
			.object_size = 256, .align = 64, .flags = flags,
			.page_size = 4096, .nr_cpus = 64, .form = forms[f],
		};
		struct svz_geom g;

		CHECK_EQ_INT(svz_calculate_geometry(&in, &g, err, sizeof err), 0);
		/* 256 -> inuse 256 -> RCU: offset 256, 264 -> ALIGN(264, 64) = 320 */
		CHECK_EQ_INT(g.object_size, 256);
		CHECK_EQ_INT(g.inuse, 256);
		CHECK_EQ_INT(g.offset, 256);
		CHECK(g.fp_outside);
		CHECK_EQ_INT(g.align, 64);
		CHECK_EQ_INT(g.size, 320);
		CHECK_EQ_INT(g.order, 2);
		CHECK_EQ_INT(g.objects, 51);
		CHECK_EQ_INT(g.min_partial, 5);
		CHECK_EQ_INT(g.cpu_partial, 52);
		CHECK_EQ_INT(g.cpu_partial_slabs, 3);
		CHECK_EQ_INT(g.sheaf_capacity, 28);
		/* s->min: get_order(320) = 0, 12 objects */
		CHECK_EQ_INT(g.min_order, 0);
		CHECK_EQ_INT(g.min_objects, 4096 / 320);

		/* order 2 needs nr_cpus >= 32; 8-31 CPUs give order 1 / 25 objects */
		for (unsigned cpus = 8; cpus <= 31; cpus++) {
			in.nr_cpus = cpus;
			CHECK_EQ_INT(svz_calculate_geometry(&in, &g, err, sizeof err), 0);
			CHECK_EQ_INT(g.order, 1);
			CHECK_EQ_INT(g.objects, 25);
		}
		in.nr_cpus = 32;
		CHECK_EQ_INT(svz_calculate_geometry(&in, &g, err, sizeof err), 0);
		CHECK_EQ_INT(g.order, 2);
	}
}

/* ---- V3: seed 001 kmalloc-512 and the CPU count --------------------------- */

static int kmalloc512_order(unsigned cpus, enum svz_order_form form, unsigned *objects)
{
	struct svz_geom_in in = {
		.object_size = 512, .flags = SLAB_KMALLOC, .is_kmalloc = true,
		.page_size = 4096, .nr_cpus = cpus, .form = form,
	};
	struct svz_geom g;
	char err[200];

	if (svz_calculate_geometry(&in, &g, err, sizeof err))
		return -1;
	if (objects)
		*objects = g.objects;
	return g.size == 512 ? (int)g.order : -2;
}

static void test_v3_kmalloc512(void)
{
	unsigned objs = 0;

	for (int f = 0; f < 2; f++) {
		/* v5.11 num_online_cpus() at boot = 1 -> order 0 (Mel: "order-0 (vanilla)") */
		CHECK_EQ_INT(kmalloc512_order(1, forms[f], &objs), 0);
		CHECK_EQ_INT(objs, 8);
		for (unsigned c = 2; c <= 7; c++)
			CHECK_EQ_INT(kmalloc512_order(c, forms[f], NULL), 1);
		/* "order-2 with the revert" */
		for (unsigned c = 8; c <= 127; c++) {
			CHECK_EQ_INT(kmalloc512_order(c, forms[f], &objs), 2);
			CHECK_EQ_INT(objs, 32);
		}
		/* >= 128 CPUs, e.g. Vincent's 224 */
		CHECK_EQ_INT(kmalloc512_order(128, forms[f], NULL), 3);
		CHECK_EQ_INT(kmalloc512_order(224, forms[f], NULL), 3);
		CHECK_EQ_INT(kmalloc512_order(4096, forms[f], NULL), 3);
	}

	/* The three sources on a 64-CPU x86 box whose kmalloc caches are
	 * created while only the boot CPU is online. */
	struct svz_topology t;
	memset(&t, 0, sizeof t);
	t.nr_cpus = t.possible = t.present = t.online = 64;
	t.boot_online = 1;
	t.page_size = 4096;
	CHECK_EQ_INT(svz_order_cpus(&t, SVZ_CPUS_ONLINE), 1);
	CHECK_EQ_INT(svz_order_cpus(&t, SVZ_CPUS_PRESENT), 64);
	CHECK_EQ_INT(svz_order_cpus(&t, SVZ_CPUS_POSSIBLE), 64);
	for (int f = 0; f < 2; f++) {
		CHECK_EQ_INT(kmalloc512_order(svz_order_cpus(&t, SVZ_CPUS_ONLINE), forms[f], NULL), 0);
		CHECK_EQ_INT(kmalloc512_order(svz_order_cpus(&t, SVZ_CPUS_PRESENT), forms[f], NULL), 2);
		CHECK_EQ_INT(kmalloc512_order(svz_order_cpus(&t, SVZ_CPUS_POSSIBLE), forms[f], NULL), 2);
	}

	/* arm64 marks CPUs present only as it onlines them: present = 1 at boot,
	 * so v5.12+ falls back to nr_cpu_ids (224 possible -> order 3). */
	t.possible = t.nr_cpus = 224;
	t.present = 1;
	t.online = 224;
	CHECK_EQ_INT(svz_order_cpus(&t, SVZ_CPUS_ONLINE), 1);
	CHECK_EQ_INT(svz_order_cpus(&t, SVZ_CPUS_PRESENT), 224);
	CHECK_EQ_INT(svz_order_cpus(&t, SVZ_CPUS_POSSIBLE), 224);
	for (int f = 0; f < 2; f++)
		CHECK_EQ_INT(kmalloc512_order(svz_order_cpus(&t, SVZ_CPUS_PRESENT), forms[f], NULL), 3);

	/* PowerPC-like: 4 present of 256 possible; present wins when > 1. */
	t.possible = t.nr_cpus = 256;
	t.present = 4;
	t.online = 4;
	t.boot_online = 0; /* unknown: use the online count */
	CHECK_EQ_INT(svz_order_cpus(&t, SVZ_CPUS_ONLINE), 4);
	CHECK_EQ_INT(svz_order_cpus(&t, SVZ_CPUS_PRESENT), 4);
	CHECK_EQ_INT(svz_order_cpus(&t, SVZ_CPUS_POSSIBLE), 256);
	for (int f = 0; f < 2; f++) {
		CHECK_EQ_INT(kmalloc512_order(svz_order_cpus(&t, SVZ_CPUS_PRESENT), forms[f], NULL), 1);
		CHECK_EQ_INT(kmalloc512_order(svz_order_cpus(&t, SVZ_CPUS_POSSIBLE), forms[f], NULL), 3);
	}
}

/* ---- slub-behavior.md section 10 reference table -------------------------- */

static void test_reference_table(void)
{
	static const struct {
		unsigned size;
		unsigned o1, n1, o4, n4, o64, n64;
		unsigned min_partial, cpu_partial, cps64, sheaf;
	} tab[] = {
		{ 8,    0, 512, 0, 512, 0, 512, 5, 120, 1, 60 },
		{ 64,   0, 64,  0, 64,  0, 64,  5, 120, 4, 60 },
		{ 96,   0, 42,  0, 42,  0, 42,  5, 120, 6, 60 },
		{ 128,  0, 32,  0, 32,  0, 32,  5, 120, 8, 60 },
		{ 192,  0, 21,  0, 21,  1, 42,  5, 120, 6, 60 },
		{ 256,  0, 16,  0, 16,  1, 32,  5, 52,  4, 28 },
		{ 512,  0, 8,   1, 16,  2, 32,  5, 52,  4, 28 },
		{ 1024, 1, 8,   2, 16,  3, 32,  5, 24,  2, 12 },
		{ 2048, 2, 8,   3, 16,  3, 16,  5, 24,  3, 12 },
		{ 4096, 3, 8,   3, 8,   3, 8,   6, 6,   2, 4 },
		{ 8192, 3, 4,   3, 4,   3, 4,   6, 6,   3, 4 },
	};

	for (int f = 0; f < 2; f++) {
		for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
			const unsigned cpus[3] = { 1, 4, 64 };
			const unsigned want_o[3] = { tab[i].o1, tab[i].o4, tab[i].o64 };
			const unsigned want_n[3] = { tab[i].n1, tab[i].n4, tab[i].n64 };

			for (int c = 0; c < 3; c++) {
				struct svz_geom_in in = {
					.object_size = tab[i].size, .flags = SLAB_KMALLOC,
					.is_kmalloc = true, .page_size = 4096,
					.nr_cpus = cpus[c], .form = forms[f],
				};
				struct svz_geom g;
				char err[200];

				CHECK_EQ_INT(svz_calculate_geometry(&in, &g, err, sizeof err), 0);
				if (g.size != tab[i].size || g.order != want_o[c] ||
				    g.objects != want_n[c])
					fprintf(stderr, "table %s: kmalloc-%u at %u CPUs\n",
						form_name(forms[f]), tab[i].size, cpus[c]);
				CHECK_EQ_INT(g.size, tab[i].size);
				CHECK_EQ_INT(g.order, want_o[c]);
				CHECK_EQ_INT(g.objects, want_n[c]);
				CHECK_EQ_INT(g.min_partial, tab[i].min_partial);
				CHECK_EQ_INT(g.cpu_partial, tab[i].cpu_partial);
				CHECK_EQ_INT(g.sheaf_capacity, tab[i].sheaf);
				if (cpus[c] == 64)
					CHECK_EQ_INT(g.cpu_partial_slabs, tab[i].cps64);
			}
		}
	}
}

/* ---- the two calculate_order forms ---------------------------------------- */

static void test_forms_differ(void)
{
	/* 4 KiB pages, 64 CPUs: 10928 is the first 8-byte multiple where the
	 * forms disagree: fraction = order 3 / 2 objects, loop = order 2 / 1. */
	CHECK_EQ_INT(svz_calculate_order(10928, 4096, 64, SVZ_ORDER_FRACTION), 3);
	CHECK_EQ_INT(svz_order_objects(3, 10928, 4096), 2);
	CHECK_EQ_INT(svz_calculate_order(10928, 4096, 64, SVZ_ORDER_LOOP), 2);
	CHECK_EQ_INT(svz_order_objects(2, 10928, 4096), 1);

	unsigned first = 0;
	for (unsigned s = 8; s <= 10928 && !first; s += 8)
		if (svz_calculate_order(s, 4096, 64, SVZ_ORDER_FRACTION) !=
		    svz_calculate_order(s, 4096, 64, SVZ_ORDER_LOOP))
			first = s;
	CHECK_EQ_INT(first, 10928);

	/* 16 KiB pages, 4 CPUs: no size <= 40000 differs (section 10 a''). */
	int differ = 0;
	for (unsigned s = 8; s <= 40000; s += 8)
		differ += svz_calculate_order(s, 16384, 4, SVZ_ORDER_FRACTION) !=
			  svz_calculate_order(s, 16384, 4, SVZ_ORDER_LOOP);
	CHECK_EQ_INT(differ, 0);

	/* Too large for any order: PAGE_SIZE << MAX_PAGE_ORDER is the limit. */
	for (int f = 0; f < 2; f++) {
		CHECK_EQ_INT(svz_calculate_order(4096u << 10, 4096, 4, forms[f]), 10);
		CHECK_EQ_INT(svz_calculate_order((4096u << 10) + 8, 4096, 4, forms[f]), -1);
	}
	CHECK_EQ_INT(svz_calculate_order(512, 8192, 4, SVZ_ORDER_FRACTION), -1);
	CHECK_EQ_INT(svz_calculate_order(0, 4096, 4, SVZ_ORDER_FRACTION), -1);
}

/* ---- kmalloc size classes (section 2.7) ---------------------------------- */

static void test_kmalloc(void)
{
	CHECK_EQ_INT(svz_kmalloc_max_cache_size(4096), 8192);
	CHECK_EQ_INT(svz_kmalloc_max_cache_size(16384), 32768);
	CHECK_EQ_INT(svz_kmalloc_max_cache_size(65536), 131072);

	CHECK_EQ_INT(svz_kmalloc_bucket(0, 4096), 0);
	CHECK_EQ_INT(svz_kmalloc_bucket(1, 4096), 8);
	CHECK_EQ_INT(svz_kmalloc_bucket(8, 4096), 8);
	CHECK_EQ_INT(svz_kmalloc_bucket(9, 4096), 16);
	CHECK_EQ_INT(svz_kmalloc_bucket(17, 4096), 32);
	CHECK_EQ_INT(svz_kmalloc_bucket(33, 4096), 64);
	CHECK_EQ_INT(svz_kmalloc_bucket(64, 4096), 64);
	CHECK_EQ_INT(svz_kmalloc_bucket(65, 4096), 96);
	CHECK_EQ_INT(svz_kmalloc_bucket(96, 4096), 96);
	CHECK_EQ_INT(svz_kmalloc_bucket(97, 4096), 128);
	CHECK_EQ_INT(svz_kmalloc_bucket(129, 4096), 192);
	CHECK_EQ_INT(svz_kmalloc_bucket(192, 4096), 192);
	CHECK_EQ_INT(svz_kmalloc_bucket(193, 4096), 256);
	CHECK_EQ_INT(svz_kmalloc_bucket(257, 4096), 512);
	CHECK_EQ_INT(svz_kmalloc_bucket(4097, 4096), 8192);
	CHECK_EQ_INT(svz_kmalloc_bucket(8192, 4096), 8192);
	CHECK_EQ_INT(svz_kmalloc_bucket(8193, 4096), 0);    /* large kmalloc */
	CHECK_EQ_INT(svz_kmalloc_bucket(8193, 16384), 16384);
	CHECK_EQ_INT(svz_kmalloc_bucket(32768, 16384), 32768);
	CHECK_EQ_INT(svz_kmalloc_bucket(32769, 16384), 0);

	CHECK_EQ_INT(svz_kmalloc_size_roundup(0, 4096), 0);
	CHECK_EQ_INT(svz_kmalloc_size_roundup(240, 4096), 256);
	CHECK_EQ_INT(svz_kmalloc_size_roundup(512, 4096), 512);  /* 32 + 60*8 */
	CHECK_EQ_INT(svz_kmalloc_size_roundup(128, 4096), 128);  /* 32 + 12*8 */
	CHECK_EQ_INT(svz_kmalloc_size_roundup(64, 4096), 64);    /* 32 + 4*8 */
	/* large: PAGE_SIZE << get_order(n) */
	CHECK_EQ_INT(svz_kmalloc_size_roundup(8193, 4096), 16384);

	CHECK_EQ_INT(svz_get_order(1, 4096), 0);
	CHECK_EQ_INT(svz_get_order(4096, 4096), 0);
	CHECK_EQ_INT(svz_get_order(4097, 4096), 1);
	CHECK_EQ_INT(svz_get_order(10240, 4096), 2); /* 32 * 320, section 10 b */

	/* kmalloc caches: natural alignment, size == object_size (no ctor) */
	struct svz_geom_in in = { .object_size = 96, .is_kmalloc = true, .flags = SLAB_KMALLOC,
				  .page_size = 4096, .nr_cpus = 4 };
	struct svz_geom g;
	char err[200];
	CHECK_EQ_INT(svz_calculate_geometry(&in, &g, err, sizeof err), 0);
	CHECK_EQ_INT(g.size, 96);
	CHECK_EQ_INT(g.align, 8);
	CHECK(!g.fp_outside);
	in.object_size = 8192;
	CHECK_EQ_INT(svz_calculate_geometry(&in, &g, err, sizeof err), 0);
	CHECK_EQ_INT(g.align, 8192);
	CHECK_EQ_INT(g.size, 8192);
}

/* ---- calculate_alignment / calculate_sizes / limits ----------------------- */

static void test_layout_and_limits(void)
{
	struct svz_geom_in in = { .page_size = 4096, .nr_cpus = 4 };
	struct svz_geom g;
	char err[200] = "";

	/* section 2.1: a 24-byte object gets 32-byte alignment, a 40-byte one 64 */
	CHECK_EQ_INT(svz_calculate_alignment(SLAB_HWCACHE_ALIGN, 0, 24), 32);
	CHECK_EQ_INT(svz_calculate_alignment(SLAB_HWCACHE_ALIGN, 0, 40), 64);
	CHECK_EQ_INT(svz_calculate_alignment(SLAB_HWCACHE_ALIGN, 0, 256), 64);
	CHECK_EQ_INT(svz_calculate_alignment(SLAB_HWCACHE_ALIGN, 0, 8), 8);
	CHECK_EQ_INT(svz_calculate_alignment(0, 0, 24), 8);
	CHECK_EQ_INT(svz_calculate_alignment(0, 4, 24), 8);
	CHECK_EQ_INT(svz_calculate_alignment(0, 128, 24), 128);

	/* free pointer inside, in the middle: ALIGN_DOWN(100 / 2, 8) = 48 */
	in.object_size = 100;
	CHECK_EQ_INT(svz_calculate_geometry(&in, &g, err, sizeof err), 0);
	CHECK_EQ_INT(g.size, 104);
	CHECK_EQ_INT(g.inuse, 104);
	CHECK_EQ_INT(g.offset, 48);
	CHECK(!g.fp_outside);
	/* a constructor moves it after the object: offset ALIGN(100, 8) = 104 */
	in.ctor = true;
	CHECK_EQ_INT(svz_calculate_geometry(&in, &g, err, sizeof err), 0);
	CHECK_EQ_INT(g.offset, 104);
	CHECK_EQ_INT(g.size, 112);
	CHECK(g.fp_outside);
	in.ctor = false;

	/* min_partial = clamp(ilog2(size) / 2, 5, 10): 6 for 4096..16383 */
	in.object_size = 4096;
	CHECK_EQ_INT(svz_calculate_geometry(&in, &g, err, sizeof err), 0);
	CHECK_EQ_INT(g.min_partial, 6);
	in.object_size = 16376; /* size 16376: ilog2 13 */
	CHECK_EQ_INT(svz_calculate_geometry(&in, &g, err, sizeof err), 0);
	CHECK_EQ_INT(g.min_partial, 6);
	in.object_size = 4u << 20;
	CHECK_EQ_INT(svz_calculate_geometry(&in, &g, err, sizeof err), 0);
	CHECK_EQ_INT(g.min_partial, 10);
	CHECK_EQ_INT(g.order, 10);
	CHECK_EQ_INT(g.objects, 1);

	/* too large for any order */
	in.object_size = (4u << 20) + 1;
	err[0] = 0;
	CHECK_EQ_INT(svz_calculate_geometry(&in, &g, err, sizeof err), -1);
	CHECK(strstr(err, "too large") != NULL);

	/* page size validation */
	in.object_size = 64;
	in.page_size = 8192;
	err[0] = 0;
	CHECK_EQ_INT(svz_calculate_geometry(&in, &g, err, sizeof err), -1);
	CHECK(strstr(err, "4096, 16384 or 65536") != NULL);
	in.page_size = 4096;
	in.object_size = 0;
	CHECK_EQ_INT(svz_calculate_geometry(&in, &g, err, sizeof err), -1);
	in.object_size = 64;
	in.align = 48;
	CHECK_EQ_INT(svz_calculate_geometry(&in, &g, err, sizeof err), -1);
	in.align = 0;
	CHECK_EQ_INT(svz_geometry_for_size(100, &in, &g, err, sizeof err), -1);

	/* debug caches: no cpu partial slabs, no sheaves (sections 2.5, 2.6) */
	in.object_size = 320;
	in.flags = SLAB_RED_ZONE;
	CHECK_EQ_INT(svz_calculate_geometry(&in, &g, err, sizeof err), 0);
	CHECK_EQ_INT(g.cpu_partial, 0);
	CHECK_EQ_INT(g.cpu_partial_slabs, 0);
	CHECK_EQ_INT(g.sheaf_capacity, 0);
	/* boot caches (NO_OBJ_EXT) and kmemleak's (NOLEAKTRACE): no sheaves only */
	in.flags = SLAB_NO_OBJ_EXT;
	CHECK_EQ_INT(svz_calculate_geometry(&in, &g, err, sizeof err), 0);
	CHECK_EQ_INT(g.sheaf_capacity, 0);
	CHECK_EQ_INT(g.cpu_partial, 52);
	in.flags = SLAB_NOLEAKTRACE;
	CHECK_EQ_INT(svz_calculate_geometry(&in, &g, err, sizeof err), 0);
	CHECK_EQ_INT(g.sheaf_capacity, 0);
	/* maple_node / vm_area_struct ask for 32 explicitly and get 32 */
	in.flags = 0;
	in.sheaf_capacity = 32;
	CHECK_EQ_INT(svz_calculate_geometry(&in, &g, err, sizeof err), 0);
	CHECK_EQ_INT(g.sheaf_capacity, 32);
	in.sheaf_capacity = 0;

	/* sheaf capacities by size (section 2.6): 60, 28, 12, 4 */
	const unsigned sz[4] = { 248, 1016, 4088, 4096 }, cap[4] = { 60, 28, 12, 4 };
	for (int i = 0; i < 4; i++) {
		CHECK_EQ_INT(svz_geometry_for_size(sz[i], &in, &g, err, sizeof err), 0);
		CHECK_EQ_INT(g.sheaf_capacity, cap[i]);
	}

	CHECK_EQ_INT(svz_min_objects(1), 8);
	CHECK_EQ_INT(svz_min_objects(64), 32);
	CHECK_EQ_INT(svz_min_objects(224), 36);
}

/* ---- flag names ---------------------------------------------------------- */

static void test_flags(void)
{
	uint32_t f = 123;
	char err[200] = "", buf[256];

	CHECK_EQ_INT(svz_slab_flags_parse("HWCACHE_ALIGN,TYPESAFE_BY_RCU", &f, err, sizeof err), 0);
	CHECK_EQ_INT(f, SLAB_HWCACHE_ALIGN | SLAB_TYPESAFE_BY_RCU);
	CHECK_EQ_INT(svz_slab_flags_parse("SLAB_HWCACHE_ALIGN|SLAB_ACCOUNT", &f, err, sizeof err), 0);
	CHECK_EQ_INT(f, SLAB_HWCACHE_ALIGN | SLAB_ACCOUNT);
	CHECK_EQ_INT(svz_slab_flags_parse("SLAB_PANIC | RECLAIM_ACCOUNT,NO_OBJ_EXT", &f, err, sizeof err), 0);
	CHECK_EQ_INT(f, SLAB_PANIC | SLAB_RECLAIM_ACCOUNT | SLAB_NO_OBJ_EXT);
	f = 123;
	CHECK_EQ_INT(svz_slab_flags_parse("0", &f, err, sizeof err), 0);
	CHECK_EQ_INT(f, 0);
	f = 123;
	CHECK_EQ_INT(svz_slab_flags_parse("", &f, err, sizeof err), 0);
	CHECK_EQ_INT(f, 0);

	CHECK_EQ_INT(svz_slab_flags_parse("HWCACHE_ALIGN,FOO", &f, err, sizeof err), -1);
	CHECK_EQ_STR(err, "unknown slab flag 'FOO' (expected a kernel name such as "
		     "HWCACHE_ALIGN, TYPESAFE_BY_RCU)");
	CHECK_EQ_INT(svz_slab_flags_parse("SLAB_", &f, err, sizeof err), -1);
	CHECK_EQ_INT(svz_slab_flags_parse("HWCACHE_ALIGN,", &f, err, sizeof err), -1);
	CHECK_EQ_INT(svz_slab_flags_parse("DEBUG_FLAGS", &f, err, sizeof err), -1);

	svz_slab_flags_format(SLAB_HWCACHE_ALIGN | SLAB_TYPESAFE_BY_RCU, buf, sizeof buf);
	CHECK_EQ_STR(buf, "HWCACHE_ALIGN|TYPESAFE_BY_RCU");
	svz_slab_flags_format(0, buf, sizeof buf);
	CHECK_EQ_STR(buf, "0");
	svz_slab_flags_format(SLAB_POISON | 0x80000000u, buf, sizeof buf);
	CHECK_EQ_STR(buf, "POISON|0x80000000");

	/* every defined flag survives format -> parse */
	uint32_t all = SLAB_DEBUG_FLAGS | SLAB_KMALLOC | SLAB_HWCACHE_ALIGN | SLAB_CACHE_DMA |
		       SLAB_CACHE_DMA32 | SLAB_PANIC | SLAB_TYPESAFE_BY_RCU | SLAB_NOLEAKTRACE |
		       SLAB_NO_MERGE | SLAB_ACCOUNT | SLAB_NO_USER_FLAGS | SLAB_RECLAIM_ACCOUNT |
		       SLAB_NO_OBJ_EXT;
	for (uint32_t bit = 1; bit && bit <= SLAB_NO_OBJ_EXT; bit <<= 1) {
		if (!(all & bit))
			continue;
		svz_slab_flags_format(bit, buf, sizeof buf);
		CHECK(svz_slab_flags_parse(buf, &f, err, sizeof err) == 0 && f == bit);
	}
	svz_slab_flags_format(all, buf, sizeof buf);
	CHECK(svz_slab_flags_parse(buf, &f, err, sizeof err) == 0 && f == all);
	/* a tiny buffer stays terminated */
	svz_slab_flags_format(all, buf, 6);
	CHECK(strlen(buf) < 6);
}

int main(void)
{
	test_v1_seed003();
	test_v2_bio256();
	test_v3_kmalloc512();
	test_reference_table();
	test_forms_differ();
	test_kmalloc();
	test_layout_and_limits();
	test_flags();
	return svz_t_done();
}
