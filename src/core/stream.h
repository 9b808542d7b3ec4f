/* stream.h — run --json-stream FILE: one JSON object per line (NDJSON) as
 * each long operation's interval closes, written by the harness for every
 * group alike (disk, net, time). A reader that is slow loses lines (a line
 * never waits for it); a reader that is gone stops the stream; the run
 * goes on either way and says so once at its end. */
#ifndef BAKEOFF_STREAM_H
#define BAKEOFF_STREAM_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Open FILE for the stream: "-" (standard output), an existing FIFO or
 * character device, or a new file (never an existing one). Before the
 * benchmarks run (their processes inherit it). 0, or -1 with one line in
 * err. */
int stream_open(const char *path, char *err, size_t errlen);
int stream_on(void);

/* One interval of a long operation: its benchmark and figure, the
 * repetition (1-based), its start and end in seconds from the
 * repetition's start, the amount done (bytes when bandwidth is set, else
 * operations), the figure in unit, and the latencies of the operations that
 * completed in it (count 0: none kept). */
struct stream_iv {
	const char *bench, *metric, *unit;
	int rep, bandwidth;
	double t_start, t_end, amount, value;
	uint64_t lat_count;
	double lat_mean, lat_p50, lat_p99, lat_max;	/* ns */
};
void stream_interval(const struct stream_iv *iv);

/* At the end of the run: say on out, once, how many lines were lost or
 * that the reader went away; close. */
void stream_close(FILE *out);

/* Reading one back (result_load does): whether text is a stream, and
 * the result it makes (host "stream", each streamed figure with its
 * intervals as samples and as its per-interval series): 0, or -1 with
 * *off and err. */
struct result;
int stream_is(const char *text, size_t len);
int stream_read(const char *text, size_t len, struct result *r, size_t *off, char *err, size_t errlen);

#endif
