/* Session internals for in-tree drivers (the native/wasm CLI, tests).
 *
 * The public API (slubviz/slubviz.h) only hands out handles and text; the
 * CLI also needs the model itself, to stream events as they happen
 * (m->sink) and to read the parsed trace. Nothing here crosses into the
 * browser module. */
#ifndef SVZ_SESSION_H
#define SVZ_SESSION_H

#include "model/model.h"
#include "slubviz/slubviz.h"
#include "slubviz/trace.h"

/* Events a session keeps for svz_events_json/text (older ones are dropped). */
#define SVZ_EVENT_RING_CAP (1u << 16)

/* The model / parsed trace of an open session, NULL for a bad handle. The
 * model's arena may move on every step: do not keep record pointers. */
struct model *svz_session_model(int h);
const struct svz_trace *svz_session_trace(int h);

/* Open a session on an already parsed or imported trace (moved from *t,
 * which is left empty), with the import's summaries (owned from here,
 * either may be NULL). Handle, or -1 with svz_last_error(); everything
 * passed in is released on failure. */
int svz_session_adopt(struct svz_trace *t, const char *preset, const char *sets, char *import_text,
		      char *import_json);
/* What svz_last_error() reports next. */
void svz_session_set_error(const char *msg);

#endif
