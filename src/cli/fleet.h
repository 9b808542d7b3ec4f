/* fleet.h — the `bakeoff fleet` verb (fleet.c): the same run on many hosts
 * over ssh, and one report across them. */
#ifndef BAKEOFF_FLEET_H
#define BAKEOFF_FLEET_H
#include <stddef.h>

extern const char fleet_help[];
/* bakeoff fleet [options] -- run [ARGS]: argv[0] is "fleet"; self is how
 * bakeoff was started (main's argv[0]), the file --push copies. Returns
 * the exit status: 0 every host ok, 1 a host (or a benchmark, or a pair of
 * the network matrix) failed, 2 usage, 130 interrupted. */
int fleet_main(int argc, char **argv, const char *self);

/* ---- exposed for the unit tests ---- */
struct buf;
/* Append s as one word of sh: '...' with each ' as '\''. */
void fleet_sh_quote(struct buf *b, const char *s);
/* The file name of a host's result: dest with every byte but A-Z a-z 0-9
 * . _ @ - made '_', and no leading '.', in dst[n]. */
void fleet_file_name(const char *dest, char *dst, size_t n);

#endif
