/* trace-cmd report: ftrace's event lines (fmt_ftrace.c) after a header of
 * its own ("version = 6", "cpus=4"); libtraceevent's kmem plugin puts the
 * resolved call site before the fields (fmt_ftrace.c reads it).
 *
 * With several inputs (trace-cmd report -i a.dat -i b.dat) every header
 * and event line starts with its input's base name, right-aligned to the
 * longest, and a colon (trace-read.c print_handle_file(): "%*s: "), and the
 * events of all inputs come merged by time. The inputs' CPU numbers
 * collide (each file's first CPU is 0), so each input's CPUs replay after
 * the previous inputs' (b.dat's CPU 0 is CPU 4 when a.dat has cpus=4) and
 * every recorded CPU keeps a per-CPU stream of its own. */
#include "import/importer.h"

#include <stdlib.h>

/* "NAME: cpus=N" (read_data_info(): print_handle_file(), then
 * "cpus=%d\n"): the name, blanks before it trimmed, and N. A name with a
 * blank is not taken: an event line has blanks between its columns, and
 * its text could end so. */
static bool input_header(const char *s, size_t n, struct slice *name, uint64_t *cpus)
{
	static const char tag[] = ": cpus=";
	const size_t tl = sizeof tag - 1;
	struct slice t = trimmed(s, n);
	while (t.len && is_space(t.s[t.len - 1]))
		t.len--;
	size_t d = t.len;
	while (d && is_digit(t.s[d - 1]))
		d--;
	if (d == t.len || t.len - d > 9 || d < tl + 1 || memcmp(t.s + d - tl, tag, tl) != 0)
		return false;
	*name = (struct slice){ t.s, d - tl };
	for (size_t i = 0; i < name->len; i++)
		if (is_space(name->s[i]))
			return false;
	return imp_parse_dec(t.s + d, t.len - d, cpus);
}

enum claim trace_cmd_detect(const char *line, size_t len)
{
	struct slice t = trimmed(line, len), name;

	if ((t.len > 5 && memcmp(t.s, "cpus=", 5) == 0) || (t.len > 9 && memcmp(t.s, "version =", 9) == 0))
		return CLAIM_SURE;
	if (input_header(line, len, &name, &(uint64_t){ 0 }))
		return CLAIM_SURE;
	return CLAIM_NONE;
}

bool trace_cmd_input_header(struct svz_importer *im, const char *s, size_t n)
{
	struct svz_import_report *r = &im->rep;
	struct slice nm;
	uint64_t cpus;

	if (!input_header(s, n, &nm, &cpus))
		return false;
	if (cpus > MAX_CPU_ID + 1)
		cpus = MAX_CPU_ID + 1;
	if (r->nr_inputs < SVZ_IMPORT_MAX_NAMES) {
		struct svz_import_name_count *c = &r->inputs[r->nr_inputs];
		size_t l = nm.len < sizeof c->name - 1 ? nm.len : sizeof c->name - 1;
		memcpy(c->name, nm.s, l);
		c->name[l] = 0;
		c->count = cpus;
	}
	r->nr_inputs++;
	if (!im->inputs) {
		im->inputs = calloc(MAX_INPUTS, sizeof *im->inputs);
		if (!im->inputs) {
			im->oom = true;
			return true;
		}
	}
	/* trace-cmd prints base names: a/trace.dat and b/trace.dat are both
	 * "trace.dat", and their events cannot be told apart */
	bool known = false;
	for (uint32_t i = 0; i < im->nr_inputs; i++)
		known |= im->inputs[i].len == nm.len && memcmp(im->inputs[i].name, nm.s, nm.len) == 0;
	if (known || im->nr_inputs == MAX_INPUTS || nm.len >= sizeof im->inputs[0].name) {
		r->inputs_cpus_shared = true;
	} else {
		struct input_file *f = &im->inputs[im->nr_inputs];
		memcpy(f->name, nm.s, nm.len);
		f->len = (uint32_t)nm.len;
		f->cpus = (int)cpus;
		f->first_cpu = im->nr_inputs ? f[-1].first_cpu + f[-1].cpus : 0;
		im->nr_inputs++;
	}
	int total = 0, most = (int)cpus;
	for (uint32_t i = 0; i < im->nr_inputs; i++) {
		if (r->inputs_cpus_shared)
			im->inputs[i].first_cpu = 0;
		total += im->inputs[i].cpus;
		if (im->inputs[i].cpus > most)
			most = im->inputs[i].cpus;
	}
	r->header_cpus = r->inputs_cpus_shared ? most : total;
	return true;
}

size_t trace_cmd_input_prefix(struct svz_importer *im, const char *s, size_t n)
{
	size_t i = 0;

	im->cpu_base = 0;
	if (!im->nr_inputs)
		return 0;
	while (i < n && is_space(s[i]))
		i++;
	for (uint32_t k = 0; k < im->nr_inputs; k++) {
		const struct input_file *f = &im->inputs[k];
		if (n - i > f->len + 1 && memcmp(s + i, f->name, f->len) == 0 && s[i + f->len] == ':' &&
		    is_space(s[i + f->len + 1])) {
			im->cpu_base = f->first_cpu;
			return i + f->len + 2;
		}
	}
	return 0;
}
