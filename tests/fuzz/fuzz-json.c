/* fuzz-json.c — libFuzzer entry point for fuzz_json() (targets.h). */
#include "targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_json(data, size);
	return 0;
}
