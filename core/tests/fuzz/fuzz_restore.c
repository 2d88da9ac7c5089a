/* Harness restore: checkpoints taken at fuzz-chosen points, restored in
 * fuzz-chosen order.
 * Input: v1 trace text, a NUL, then action bytes, op = byte >> 5,
 * arg = byte & 31:
 *   0  svz_step() arg+1 times
 *   1  svz_step_cpu(arg % nr_cpus)
 *   2  svz_checkpoint(): remember its state hash
 *   3  restore checkpoint arg % taken, then svz_step() (next byte) times
 *   4  svz_checkpoint_drop(arg % taken)
 *   5  invalid restores: a dropped id, -1, past the end, a bad handle
 *   6  svz_run_to_op(ops_done + arg)
 *   7  svz_run_all()
 * Oracles: a restore gives back exactly the checkpoint's state (snapshot,
 * seq, ops done, run error, reports); stepping n times from a checkpoint
 * always gives the same state and the same events (replay is
 * deterministic whatever timeline came before); invalid restores return
 * -1 and change nothing. */
#include <limits.h>
#include <stdlib.h>

#include "fuzz.h"
#include "api/session.h"
#include "slubviz/slubviz.h"

#define MAX_CPS 16
#define MAX_ACTIONS 256

struct cp {
	int id;      /* -1: dropped */
	uint64_t state;
	int64_t seq;
	/* state and events after n default steps from here; n = 0: unknown */
	int n_after;
	uint64_t after;
};

/* State plus the events since `from`: what a replay from a checkpoint
 * must reproduce. */
static uint64_t replay_hash(int h, int64_t from)
{
	uint64_t state = fz_state_hash(h); /* first: both views share one buffer */
	return fz_hash(state, svz_events_text(h, from, 0));
}

int svz_fuzz_restore(const uint8_t *data, size_t size)
{
	fz_init();
	const uint8_t *act;
	size_t nact;
	int h = fz_open_with_controls(data, size, &act, &nact);
	if (h < 0)
		return 0;
	if (nact > MAX_ACTIONS)
		nact = MAX_ACTIONS;
	int ncpus = svz_session_trace(h)->config.topo.nr_cpus;
	struct cp cps[MAX_CPS];
	int ncp = 0;
	for (size_t i = 0; i < nact; i++) {
		int op = act[i] >> 5, arg = act[i] & 31;
		switch (op) {
		case 0:
			for (int k = 0; k <= arg && svz_step(h) == 1; k++)
				;
			break;
		case 1:
			(void)svz_step_cpu(h, arg % ncpus);
			break;
		case 2:
			if (ncp < MAX_CPS) {
				int id = svz_checkpoint(h);
				if (id < 0)
					svz_fuzz_fail("restore", "svz_checkpoint failed");
				cps[ncp++] = (struct cp){ id, fz_state_hash(h), svz_seq(h), 0, 0 };
			}
			break;
		case 3: {
			if (!ncp)
				break;
			struct cp *c = &cps[arg % ncp];
			if (c->id < 0)
				break;
			if (svz_restore(h, c->id) != 0)
				svz_fuzz_fail("restore", "svz_restore(%d) failed", c->id);
			if (fz_state_hash(h) != c->state || svz_seq(h) != c->seq)
				svz_fuzz_fail("restore", "svz_restore(%d) did not give back the checkpoint's "
					      "state (seq %lld, checkpoint at %lld)", c->id,
					      (long long)svz_seq(h), (long long)c->seq);
			fz_check_valid("restore", h, "after a restore");
			int n = i + 1 < nact ? act[++i] : 0;
			if (n == 0)
				break;
			int k = 0;
			while (k < n && svz_step(h) == 1)
				k++;
			uint64_t after = replay_hash(h, c->seq);
			if (c->n_after == n && c->after != after)
				svz_fuzz_fail("restore", "%d steps from checkpoint %d replay differently",
					      n, c->id);
			c->n_after = n;
			c->after = after;
			break;
		}
		case 4:
			if (ncp) {
				struct cp *c = &cps[arg % ncp];
				if (c->id >= 0) {
					svz_checkpoint_drop(h, c->id);
					/* the slot may be reused by a later checkpoint */
					for (int j = 0; j < ncp; j++)
						if (j != arg % ncp && cps[j].id == c->id)
							svz_fuzz_fail("restore", "two live checkpoints share id %d", c->id);
					c->id = -1;
				}
			}
			break;
		case 5: {
			uint64_t before = fz_state_hash(h);
			int64_t seq = svz_seq(h);
			int bad[] = { -1, INT_MIN, INT_MAX, ncp + 64 + arg };
			for (size_t j = 0; j < sizeof bad / sizeof bad[0]; j++)
				if (svz_restore(h, bad[j]) != -1)
					svz_fuzz_fail("restore", "svz_restore(%d) of a bad id did not fail", bad[j]);
			for (int j = 0; j < ncp; j++) {
				int live = 0; /* a dropped id may have been reused */
				for (int k = 0; k < ncp; k++)
					live |= cps[k].id >= 0 && cps[k].id == j;
				if (!live && svz_restore(h, j) != -1)
					svz_fuzz_fail("restore", "svz_restore(%d) of a dropped id did not fail", j);
			}
			if (svz_restore(h + 1000, 0) != -1 || svz_restore(0, 0) != -1)
				svz_fuzz_fail("restore", "svz_restore on a bad handle did not fail");
			svz_checkpoint_drop(h, -1);
			svz_checkpoint_drop(h, INT_MAX);
			if (fz_state_hash(h) != before || svz_seq(h) != seq)
				svz_fuzz_fail("restore", "a failed svz_restore changed the state");
			break;
		}
		case 6:
			(void)svz_run_to_op(h, svz_ops_done(h) + arg);
			break;
		case 7:
			(void)svz_run_all(h);
			break;
		}
	}
	svz_close(h);
	return 0;
}
