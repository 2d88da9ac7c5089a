/* The timed schedule's profile (docs/timing.md) as text and as JSON
 * (svz_profile_text(), svz_profile_json(); `slubviz run --profile` prints
 * the text). model/timing.c reads the simulated-time tables once for both. */
#include "api/views.h"
#include "model/timing.h"

void view_profile_text(struct model *m, struct sbuf *b) { timing_report(m, b); }

void view_profile_json(struct model *m, struct sbuf *b) { timing_report_json(m, b); }
