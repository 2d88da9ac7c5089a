/* libFuzzer entry: SVZ_FUZZ_ENTRY names the harness (CMakeLists.txt). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return SVZ_FUZZ_ENTRY(data, size);
}
