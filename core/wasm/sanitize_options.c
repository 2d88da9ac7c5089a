/* Sanitizer builds of the wasm targets only (scripts/build.sh wasm-san,
 * wasm.cmake SVZ_SANITIZE). ASan's defaults keep 256 MB of freed blocks
 * in quarantine, which a 32-bit wasm heap cannot hold beside a long run:
 * lesson-06-timed under v5.10 stopped with "allocator is out of memory"
 * (the native ASan build peaks at 957 MB on it). 16 MB still catches a
 * use after free of anything freed in the last few thousand ops; a
 * shorter allocation context keeps each block's record small. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "quarantine_size_mb=16:malloc_context_size=4";
}
