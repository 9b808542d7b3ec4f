/* timecmd.h — the `bakeoff time` verb (timecmd.c). */
#ifndef BAKEOFF_TIMECMD_H
#define BAKEOFF_TIMECMD_H

extern const char timecmd_help[];
/* bakeoff time [options] -- COMMAND [ARGS]: argv[0] is "time". Returns the
 * exit status: 0 ok, 1 a run failed, 2 usage, 130 interrupted. */
int timecmd_main(int argc, char **argv);

#endif
