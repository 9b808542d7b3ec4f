/* time-group.c — the contract of `bakeoff time`'s figures (group "time",
 * no benchmark in the registry: the verb times a command): compare holds
 * them to the command-time noise floor. */
#include "bench.h"

const struct bench_group group_time = {
	.name = "time", .noise = NOISE_TIME,
};
