/* t-cpuinfo.c — the CPU's name from /proc/cpuinfo texts of other machines
 * (tests/data/cpuinfo/: written for these tests from the formats Linux
 * prints on x86, arm64 servers and boards, IBM Z, POWER and RISC-V), not
 * from this host's file: under qemu-user the host's shows through. */
#include <stdio.h>
#include <string.h>
#include "os.h"
#include "tap.h"

static const struct {
	const char *file, *name;
} cases[] = {
	{ "x86_64-xeon.txt", "Intel(R) Xeon(R) Platinum 8480+" },
	{ "aarch64-neoverse-n1.txt", "ARM Neoverse-N1" },
	{ "aarch64-raspberry-pi-4.txt", "ARM Cortex-A72 (Raspberry Pi 4 Model B Rev 1.4)" },
	{ "aarch64-kunpeng-920.txt", "HiSilicon Kunpeng-920 (TSV110)" },
	{ "aarch64-unknown-part.txt", "Ampere part 0x123" },
	{ "s390x-z15.txt", "IBM z15 (machine 8561)" },
	{ "s390x-unknown-machine.txt", "IBM Z machine 9999" },
	{ "ppc64le-power9.txt", "POWER9 (raw)" },
	{ "riscv64-u74.txt", "sifive,u74-mc" },
};

int main(void)
{
	char path[256], name[256];

#ifndef BAKEOFF_OS_LINUX
	skip("the generic OS layer reads no /proc/cpuinfo");
	return done_testing();
#endif
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		FILE *f;

		snprintf(path, sizeof(path), "tests/data/cpuinfo/%s", cases[i].file);
		if (!(f = fopen(path, "r"))) {
			ok(0, "%s: cannot open (run from the top of the tree)", path);
			continue;
		}
		os_cpuinfo_name(f, name, sizeof(name));
		fclose(f);
		is_str(name, cases[i].name, "%s names the CPU", cases[i].file);
	}
	return done_testing();
}
