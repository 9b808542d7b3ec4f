/* fuzz-proto.c — libFuzzer entry point for fuzz_proto() (targets.h). */
#include "targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_proto(data, size);
	return 0;
}
