/* The browser module's only own translation unit: CMake needs one source for
 * add_executable. Everything the module exports (exported_functions.json, the
 * functions of slubviz.h) is linked in from the slubviz_core library.
 * Including the header here also checks that it compiles on its own for
 * wasm32. */
#include <slubviz/slubviz.h>
