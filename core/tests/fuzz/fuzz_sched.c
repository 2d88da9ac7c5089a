/* Harness sched: the schedule API, CPUs interleaved micro-step by
 * micro-step as the page's scheduler controls do.
 * Input: v1 trace text, a NUL, then schedule bytes (read cyclically until
 * the trace is done or a step budget runs out):
 *   0x00-0xef  svz_step_cpu(h, byte % nr_cpus)
 *   0xf0-0xf3  svz_step(h)
 *   0xf4       svz_run_to_op(h, ops_done + 1 + next byte)
 *   0xf5       svz_step_cpu() on a CPU that does not exist: -1 or 0
 *   0xf6       every view, mid-op
 *   0xf7       svz_validate() mid-op (SVZ_FUZZ_MIDOP_VALIDATE: asserted)
 *   0xf8       events off/on
 *   0xf9-0xff  the last CPU again, 2^(byte-0xf8) micro-steps
 * Oracles: step results are -1, 0 or 1; a CPU with nothing left returns 0;
 * the validator holds whenever no op is in flight; at the end svz_run_all()
 * completes every op unless the run stopped on an error. */
#include <stdlib.h>

#include "fuzz.h"
#include "api/session.h"
#include "slubviz/slubviz.h"

#define STEP_BUDGET 200000

static void check_step(int r, const char *what)
{
	if (r < -1 || r > 1)
		svz_fuzz_fail("sched", "%s returned %d", what, r);
}

int svz_fuzz_sched(const uint8_t *data, size_t size)
{
	fz_init();
	const uint8_t *sched;
	size_t nsched;
	int h = fz_open_with_controls(data, size, &sched, &nsched);
	if (h < 0)
		return 0;
	int ncpus = svz_session_trace(h)->config.topo.nr_cpus;
	int cpu = 0, stopped = 0, events = 1;
	long steps = 0;
	int last_done = 0;
	for (size_t i = 0; nsched && steps < STEP_BUDGET && !stopped; i++) {
		if (svz_ops_done(h) >= svz_ops_total(h))
			break;
		uint8_t b = sched[i % nsched];
		int r = 0;
		if (b < 0xf0) {
			cpu = b % ncpus;
			r = svz_step_cpu(h, cpu);
			check_step(r, "svz_step_cpu");
			steps++;
		} else if (b < 0xf4) {
			r = svz_step(h);
			check_step(r, "svz_step");
			steps++;
		} else if (b == 0xf4) {
			int to = svz_ops_done(h) + 1 + sched[(i + 1) % nsched];
			r = svz_run_to_op(h, to);
			if (r >= 0 && r < (to < svz_ops_total(h) ? to : svz_ops_total(h)))
				svz_fuzz_fail("sched", "svz_run_to_op(%d) returned %d", to, r);
			r = r < 0 ? -1 : 1;
			steps += 64;
		} else if (b == 0xf5) {
			int bad = sched[(i + 1) % nsched] & 1 ? -1 - sched[(i + 1) % nsched] : ncpus + sched[(i + 1) % nsched];
			int64_t seq = svz_seq(h);
			r = svz_step_cpu(h, bad);
			if (r != -1 && r != 0)
				svz_fuzz_fail("sched", "svz_step_cpu(%d) on %d CPUs returned %d", bad, ncpus, r);
			if (svz_seq(h) != seq)
				svz_fuzz_fail("sched", "svz_step_cpu(%d) on %d CPUs stepped", bad, ncpus);
			r = 0;
		} else if (b == 0xf6) {
			fz_views(h, 1);
		} else if (b == 0xf7) {
			const char *v = svz_validate(h);
#ifdef SVZ_FUZZ_MIDOP_VALIDATE
			if (v[0] && fz_validator_applies(h))
				svz_fuzz_fail("sched", "validator mid-op (seq %lld):\n%.2000s",
					      (long long)svz_seq(h), v);
#else
			(void)v;
#endif
		} else if (b == 0xf8) {
			events = !events;
			svz_set_events(h, events);
		} else {
			for (int k = 0; k < 1 << (b - 0xf8) && r >= 0; k++) {
				r = svz_step_cpu(h, cpu);
				check_step(r, "svz_step_cpu");
				steps++;
				if (r == 0)
					break;
			}
		}
		if (r < 0)
			stopped = 1;
		if (svz_ops_done(h) != last_done) {
			last_done = svz_ops_done(h);
			fz_check_valid("sched", h, "between ops");
		}
	}
	if (!stopped) {
		int r = svz_run_all(h);
		if (r >= 0 && r != svz_ops_total(h))
			svz_fuzz_fail("sched", "svz_run_all returned %d of %d ops", r, svz_ops_total(h));
		if (r < 0)
			stopped = 1;
		else
			fz_check_valid("sched", h, "at the end");
	}
	/* every CPU has nothing left now, or the run stopped */
	for (int c = 0; c < ncpus && c < 16; c++) {
		int r = svz_step_cpu(h, c);
		if (r == 1 && !stopped)
			svz_fuzz_fail("sched", "cpu %d stepped after svz_run_all", c);
	}
	svz_close(h);
	return 0;
}
