/* The timed schedule's profile (docs/timing.md) as text and as JSON
 * (svz_profile_text(), svz_profile_json(); `slubviz run --profile` prints
 * the text through svz_profile_text()).
 *
 * timing_report() (model/timing.c) is the one place that reads the
 * simulated-time tables and formats them; the JSON is a structured reading
 * of its lines, so the two views cannot disagree. Figures the text rounds
 * (throughput, spin share) come from timing_summary() unrounded, and each
 * line's share is recomputed from its exact cycle count. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/views.h"
#include "model/timing.h"

void view_profile_text(struct model *m, struct sbuf *b)
{
	timing_report(m, b);
}

/* Lines of the text, parsed as they are read. */
struct pline {
	unsigned long long cycles;
	char fn[64], lock[32];
};

static void json_num(struct sbuf *b, double v)
{
	/* JSON has no NaN or infinity; a share of an empty run is 0 */
	sb_printf(b, "%.17g", v == v && v < 1e300 && v > -1e300 ? v : 0.0);
}

void view_profile_json(struct model *m, struct sbuf *b)
{
	double mops, spin_share;
	if (timing_summary(m, &mops, &spin_share)) {
		sb_puts(b, "{\"schema\":1,\"timed\":false}");
		return;
	}
	struct sbuf text = { 0 };
	timing_report(m, &text);
	struct pline *fl = NULL;
	size_t nf = 0, cap = 0;
	unsigned long long work = 0, total = 0, makespan = 0;
	struct sbuf locks = { 0 }, cpus = { 0 };
	for (char *line = text.s, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		double pct;
		unsigned long long c, a, k, wt, wm, busy, spin, idle;
		int node, cpu, used = 0;
		char name[64], lock[32];
		if (sscanf(line, "# the requests' other work ('work' ops): %lf%%, %llu cycles", &pct, &c) == 2) {
			work = c;
		} else if (sscanf(line, "# cpus: busy, spin, idle cycles of %llu", &c) == 1) {
			makespan = c;
		} else if (line[0] == ' ' && line[strspn(line, " ")] >= '0' && line[strspn(line, " ")] <= '9' &&
			   sscanf(line, " %lf%% %llu %63s%n", &pct, &c, name, &used) == 3) {
			if (nf == cap) {
				cap = cap ? 2 * cap : 32;
				struct pline *g = realloc(fl, cap * sizeof *fl);
				if (!g) {
					b->oom = true;
					break;
				}
				fl = g;
			}
			struct pline *p = &fl[nf++];
			p->cycles = c;
			lock[0] = 0;
			size_t len = strlen(name);
			/* "fn: spin on LOCK" */
			if (len && name[len - 1] == ':' && sscanf(line + used, " spin on %31s", lock) == 1)
				name[len - 1] = 0;
			snprintf(p->fn, sizeof p->fn, "%s", name);
			snprintf(p->lock, sizeof p->lock, "%s", lock);
			total += c;
		} else if (sscanf(line, "%31s node %d: acquisitions=%llu contended=%llu wait_total=%llu wait_max=%llu",
				  lock, &node, &a, &k, &wt, &wm) == 6) {
			sb_puts(&locks, locks.len ? "," : "");
			sb_puts(&locks, "{\"lock\":");
			sb_json_str(&locks, lock);
			sb_printf(&locks, ",\"node\":%d,\"acquisitions\":%llu,\"contended\":%llu,\"wait_total\":%llu,\"wait_max\":%llu}",
				  node, a, k, wt, wm);
		} else if (sscanf(line, "cpu %d: busy=%llu spin=%llu idle=%llu", &cpu, &busy, &spin, &idle) == 4) {
			sb_printf(&cpus, "%s{\"cpu\":%d,\"busy\":%llu,\"spin\":%llu,\"idle\":%llu}", cpus.len ? "," : "",
				  cpu, busy, spin, idle);
		}
	}
	total += work;
	sb_puts(b, "{\"schema\":1,\"timed\":true,\"throughput_mops\":");
	json_num(b, mops);
	sb_puts(b, ",\"spin_share\":");
	json_num(b, spin_share);
	sb_printf(b, ",\"cycles_total\":%llu,\"makespan\":%llu,\"work_cycles\":%llu,\"work_share\":", total, makespan,
		  work);
	json_num(b, total ? (double)work / (double)total : 0.0);
	sb_puts(b, ",\"functions\":[");
	for (size_t i = 0; i < nf; i++) {
		sb_puts(b, i ? ",{\"fn\":" : "{\"fn\":");
		sb_json_str(b, fl[i].fn);
		if (fl[i].lock[0]) {
			sb_puts(b, ",\"spin_on\":");
			sb_json_str(b, fl[i].lock);
		}
		sb_printf(b, ",\"cycles\":%llu,\"share\":", fl[i].cycles);
		json_num(b, total ? (double)fl[i].cycles / (double)total : 0.0);
		sb_putc(b, '}');
	}
	sb_printf(b, "],\"locks\":[%s],\"cpus\":[%s]}", locks.s ? locks.s : "", cpus.s ? cpus.s : "");
	b->oom |= text.oom || locks.oom || cpus.oom;
	free(fl);
	sb_free(&text);
	sb_free(&locks);
	sb_free(&cpus);
}
