/* fuzz-result.c — libFuzzer entry point for fuzz_result() (targets.h). */
#include "targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_result(data, size);
	return 0;
}
