/* fuzz-units.c — libFuzzer entry point for fuzz_units() (targets.h). */
#include "targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_units(data, size);
	return 0;
}
