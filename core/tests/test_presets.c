/* Every scenario under every preset: in the test build the validator runs
 * after every op (and stops the run on a violation), so each run must reach
 * its last op with no report and a clean final state. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "api/session.h"
#include "slubviz/config.h"
#include "slubviz/slubviz.h"

static const char *const scenarios[] = {
	"scenarios/basics.trace", "scenarios/sheaf-cycle.trace", "scenarios/ublk-bio256.trace",
	"scenarios/slub-bulk-bench.trace", "scenarios/partial-churn.trace",
	"scenarios/fastpath.trace", "scenarios/hackbench.trace", "scenarios/kfree-rcu.trace",
};

int main(void)
{
	int npresets = 0;
	while (svz_preset_name(npresets))
		npresets++;
	CHECK(npresets >= 10);
	for (size_t i = 0; i < sizeof scenarios / sizeof *scenarios; i++) {
		char *text = svz_t_read_file(scenarios[i], NULL);
		CHECK(text != NULL);
		if (!text)
			continue;
		for (int p = 0; p < npresets; p++) {
			int h = svz_open(text, svz_preset_name(p), NULL);
			CHECK(h > 0);
			if (h <= 0)
				continue;
			/* long traces: the validator after every 7th op (every op for
			 * the others; the final state is always checked below) */
			if (svz_ops_total(h) > 50000)
				svz_session_model(h)->validate_every = 7;
			svz_run_all(h);
			if (svz_ops_done(h) != svz_ops_total(h) || svz_run_error(h)[0])
				fprintf(stderr, "%s under %s: %s\n", scenarios[i], svz_preset_name(p),
					svz_run_error(h));
			CHECK_EQ_INT(svz_ops_done(h), svz_ops_total(h));
			CHECK_EQ_STR(svz_validate(h), "");
			svz_close(h);
		}
		free(text);
	}
	return svz_t_done();
}
