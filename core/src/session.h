/* Session internals for in-tree drivers (the native/wasm CLI, tests).
 *
 * The public API (slubviz/slubviz.h) only hands out handles and text; the
 * CLI also needs the model itself, to stream events as they happen
 * (m->sink) and to read the parsed trace. Nothing here crosses into the
 * browser module. */
#ifndef SVZ_SESSION_H
#define SVZ_SESSION_H

#include "model.h"
#include "slubviz/slubviz.h"
#include "slubviz/trace.h"

/* The model / parsed trace of an open session, NULL for a bad handle. The
 * model's arena may move on every step: do not keep record pointers. */
struct model *svz_session_model(int h);
const struct svz_trace *svz_session_trace(int h);

#endif
