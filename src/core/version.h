/* version.h — the program version and how it was built (set by the Makefile). */
#ifndef BAKEOFF_VERSION_H
#define BAKEOFF_VERSION_H
#define BAKEOFF_VERSION "0.1.0"
#ifndef BAKEOFF_CC
#define BAKEOFF_CC "unknown"
#endif
#ifndef BAKEOFF_CFLAGS
#define BAKEOFF_CFLAGS "unknown"
#endif
#endif
