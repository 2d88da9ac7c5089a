/* Harness v1: the trace parser and a whole replay.
 * Input: v1 trace text. svz_open() either fails with a message, or the
 * trace replays op by op with the validator after ops (fz_run_ops), every
 * view renders, and the v1 export replays identically. */
#include <stdlib.h>

#include "fuzz.h"
#include "slubviz/slubviz.h"

int svz_fuzz_v1(const uint8_t *data, size_t size)
{
	fz_init();
	char *text = fz_strndup(data, size);
	if (!text)
		return 0;
	int h = svz_open(text, NULL, NULL);
	if (h < 0) {
		if (!svz_last_error()[0])
			svz_fuzz_fail("v1", "svz_open failed without a message");
		free(text);
		return 0;
	}
	if (svz_ops_total(h) <= FZ_MAX_OPS) {
		int rc = fz_run_ops("v1", h);
		fz_views(h, fz_hash_bytes(data, size) % 4 == 1);
		fz_check_export("v1", h, rc, fz_hash_bytes(data, size) % 8 == 0);
	}
	svz_close(h);
	free(text);
	return 0;
}
