/* cpu-c2c.h — cpu.c2c's choice of CPU pairs, exposed for tests/unit/t-c2c.c. */
#ifndef BAKEOFF_CPU_C2C_H
#define BAKEOFF_CPU_C2C_H

/* The pairs of the n CPUs cpu[] to measure, at most max of them, into
 * pair[][2] (lower CPU first): all when they fit; else CPU cpu[0] with every
 * other first, then pairs of the rest spread evenly. Returns how many;
 * *total gets n (n - 1) / 2. */
int c2c_pairs(const int *cpu, int n, int max, int (*pair)[2], long *total);

#endif
