/* The browser module's only own translation unit: CMake needs one source for
 * add_executable. Everything the module exports (exported_functions.json, the
 * functions of slubviz.h) is linked in from the slubviz_core library, plus
 * the two page helpers below. Including the header here also checks that it
 * compiles on its own for wasm32. */
#include <malloc.h>
#include <stdlib.h>

#include <slubviz/slubviz.h>

/* Bytes allocated on the wasm heap (emmalloc's mallinfo). The page's engine
 * (web/src/engine/engine.ts) measures what each checkpoint costs with it, to
 * keep the checkpoints within their memory budget. */
size_t svz_heap_used(void);
size_t svz_heap_used(void)
{
	return mallinfo().uordblks;
}

/* Test only: traps the instance on purpose (1: abort(), else the
 * `unreachable` instruction), so the page's tests can check that a trap
 * restarts the engine worker and restores the last good position. Nothing
 * in the app calls it outside the test hook. */
void svz_debug_trap(int kind);
void svz_debug_trap(int kind)
{
	if (kind == 1)
		abort();
	__builtin_trap();
}
