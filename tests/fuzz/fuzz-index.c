/* fuzz-index.c — libFuzzer entry point for fuzz_index() (targets.h). */
#include "targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_index(data, size);
	return 0;
}
