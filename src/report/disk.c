/* disk.c — the disk personalities' formats, rendered from the result:
 *   dd      dd's own line per disk.seq figure ("N bytes transferred in S
 *           secs (B bytes/sec)") and the 2003 report's ceiling table: each
 *           block size's rate beside the same loop on /dev/null and
 *           /dev/zero, and the percentage of that ceiling achieved;
 *   bonnie  bonnie++ 2.00a's two text tables (K/sec, %CP, Latency rows;
 *           "+++++" for a test that took under half a second, as bonnie++)
 *           and one CSV line: bonnie++ 1.03's 27 columns or 2.00a's format
 *           1.98 (50 columns), as disk.bonnie's "csv" param says (--csv),
 *           which bon_csv2txt and bon_csv2html read;
 *   iozone  iozone 3's auto-mode table (kB, reclen, then kB/s per test, in
 *           iozone 3.506's column widths), one matrix per test (file sizes
 *           down, record sizes across, as iozone -R's reports), and the
 *           1997 report's single-file lines (iozone 2);
 * Figures marked cache_suspect carry "cached?" (not in CSV lines, whose
 * readers expect numbers). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"
#include "units.h"

/* The repetition a dd-style line shows: the one whose figure is the
 * median (the lower middle of an even count), with the bytes it moved and
 * its rate, so the line's bytes, seconds and bytes/sec are one measurement
 * and the bytes a whole number of blocks. Older files keep no amounts per
 * repetition: then the interval amounts' mean and the median rate. */
static void middle_rep(const struct metric *m, double *bytes, double *rate)
{
	size_t i, below, best = 0, found = 0;

	*rate = m->st.median * 1e6;
	if (m->rep_amount && m->nsamples) {
		for (i = 0; i < m->nsamples; i++) {
			size_t j;

			for (below = 0, j = 0; j < m->nsamples; j++)
				below += m->samples[j] < m->samples[i] || (m->samples[j] == m->samples[i] && j < i);
			if (below == (m->nsamples - 1) / 2) {
				best = i;
				found = 1;
			}
		}
		if (found && m->samples[best] > 0) {
			*bytes = m->rep_amount[best];
			*rate = m->samples[best] * 1e6;
			return;
		}
	}
	*bytes = 0;
	for (i = 0; i < m->niv; i++)
		*bytes += m->iv_amount[i];
	if (m->nsamples)
		*bytes /= (double)m->nsamples;
}

static const char *cached(const struct metric *m)
{
	return m && m->cache_suspect ? " cached?" : "";
}

/* ---- dd ---- */
/* The ceiling is dd if=/dev/zero of=/dev/null at the same block size. */

static void dd_line(const struct metric *m, FILE *f)
{
	double bytes, rate;

	middle_rep(m, &bytes, &rate);
	fputs("# ", f);
	report_put(f, m->name, 0);
	fprintf(f, "%s\n", cached(m));
	if (rate > 0 && bytes > 0)
		fprintf(f, "%.0f bytes transferred in %.3f secs (%.0f bytes/sec)\n", bytes,
			bytes / rate, rate);
}

void report_dd(const struct result *r, FILE *f)
{
	const struct bench_result *b = report_usable(f, "dd", r, "disk.seq");
	const struct param *dir, *direct;
	size_t i;
	int d;

	if (!b)
		return;
	dir = result_param(b, "dir");
	direct = result_param(b, "direct");
	fputs("# dd on ", f);
	report_put(f, dir && dir->str ? dir->str : "?", 0);
	fputs(", O_DIRECT ", f);
	report_put(f, direct && direct->str ? direct->str : "?", 0);
	fputs(", writes fsync'ed (conv=fsync)\n", f);
	for (i = 0; i < b->nmetrics; i++) {
		const struct metric *m = &b->metrics[i];

		if (!m->derived && strncmp(m->name, "ceiling", 7) && !m->detail)
			dd_line(m, f);
	}
	for (d = 0; d < 2; d++) {
		const char *dir_name = d ? "read" : "write";

		fprintf(f, "\nBlock  %-5s        ceiling      %% of ceiling\nSize   bytes/sec    bytes/sec"
			"    achieved\n", dir_name);
		for (i = 0; i < b->nmetrics; i++) {
			const struct metric *m = &b->metrics[i], *c;
			char cname[96], bs[32];
			size_t l = strlen(dir_name);

			if (m->derived || strncmp(m->name, dir_name, l) || m->name[l] != ' ' ||
			    strchr(m->name, ','))
				continue;
			snprintf(cname, sizeof(cname), "ceiling %s", m->name + l + 1);
			c = result_metric(b, cname);
			report_esc(bs, sizeof(bs), m->name + l + 1);
			fprintf(f, "%-6s %-12.0f ", bs, m->st.median * 1e6);
			if (c && c->st.median > 0)
				fprintf(f, "%-12.0f %8.2f%%%s\n", c->st.median * 1e6,
					100 * m->st.median / c->st.median, cached(m));
			else
				fprintf(f, "%-12s %9s%s\n", "-", "-", cached(m));
		}
	}
}

/* ---- bonnie ---- */

static const char *const bon_io[] = { "putc", "write", "rewrite", "getc", "read", "seeks" };
static const char *const bon_files[] = { "seq create", "seq stat", "seq delete",
					 "ran create", "ran stat", "ran delete" };

/* A test's rate, %CPU and latency as bonnie++ prints them: "+++++" and
 * "+++" when it took under half a second (per repetition), "" when absent. */
struct bon_fig {
	char rate[24], cpu[8], lat[16];
};

static void bon_fig(const struct bench_result *b, const char *name, int text, struct bon_fig *o)
{
	const struct metric *m = result_metric(b, name);
	double secs, v;

	o->rate[0] = o->cpu[0] = o->lat[0] = 0;
	if (!m || m->nsamples == 0)
		return;
	secs = m->cpu_wall_s / (double)m->nsamples;
	if (m->hist_count) {
		double us = m->hist_max * (strcmp(m->hist_unit, "ms") == 0 ? 1e3 :
					   strcmp(m->hist_unit, "ns") == 0 ? 1e-3 : 1);

		if (us < 100000)
			snprintf(o->lat, sizeof(o->lat), "%.0fus", us);
		else if (us < 1e8)
			snprintf(o->lat, sizeof(o->lat), "%.0fms", us / 1e3);
		else
			snprintf(o->lat, sizeof(o->lat), "%.0fs", us / 1e6);
	}
	if (secs < 0.5) {
		snprintf(o->rate, sizeof(o->rate), "+++++");
		snprintf(o->cpu, sizeof(o->cpu), "+++");
		return;
	}
	snprintf(o->cpu, sizeof(o->cpu), "%.0f",
		 m->cpu_wall_s > 0 ? 100 * (m->cpu_user_s + m->cpu_sys_s) / m->cpu_wall_s : 0);
	v = m->st.median;
	if (strcmp(m->unit, "MB/s") == 0) {
		v = v * 1e6 / 1024;	/* K/sec */
		if (text && v >= 100000)
			snprintf(o->rate, sizeof(o->rate), "%.0fm", v / 1024);
		else
			snprintf(o->rate, sizeof(o->rate), "%.0f%s", v, text ? "k" : "");
	} else if (strcmp(name, "seeks") == 0 && v < 100000) {
		snprintf(o->rate, sizeof(o->rate), "%.1f", v);
	} else {
		snprintf(o->rate, sizeof(o->rate), "%.0f", v);
	}
}

/* bonnie++'s size column: "10M", "1G" */
static void bon_size(const struct bench_result *b, char *out, size_t n)
{
	const struct param *p = result_param(b, "size_bytes");
	double s = p && !p->str ? p->num : 0;

	if (s >= 1073741824.0 && fmod(s, 1073741824.0) == 0)
		snprintf(out, n, "%.0fG", s / 1073741824.0);
	else
		snprintf(out, n, "%.0fM", s / 1048576.0);
}

/* The host name for a CSV field: escaped, commas (the separator) as '_'. */
static void bon_name(const struct result *r, char *out, size_t n)
{
	size_t i;

	report_esc(out, n, r->host.hostname[0] ? r->host.hostname : "host");
	for (i = 0; out[i]; i++)
		if (out[i] == ',')
			out[i] = '_';
}

static double pnum(const struct bench_result *b, const char *key)
{
	const struct param *p = result_param(b, key);

	return p && !p->str ? p->num : 0;
}

void report_bonnie(const struct result *r, FILE *f)
{
	const struct bench_result *b = report_usable(f, "bonnie", r, "disk.bonnie");
	const struct param *csv;
	struct bon_fig io[6], fl[6];
	char name[64], size[16], files[80];
	int i, cached = 0;

	if (!b)
		return;
	bon_name(r, name, sizeof(name));
	bon_size(b, size, sizeof(size));
	for (i = 0; i < 6; i++) {
		const struct metric *m = result_metric(b, bon_io[i]);

		cached |= m && m->cache_suspect;
		bon_fig(b, bon_io[i], 1, &io[i]);
		bon_fig(b, bon_files[i], 1, &fl[i]);
	}
	fputs("Version bakeoff     ------Sequential Output------ --Sequential Input- --Random-\n"
	      "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
	      "Name:Size etc        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n", f);
	fprintf(f, "%-16.16s%3s", name, size);
	for (i = 0; i < 6; i++)
		fprintf(f, " %5s %3s", io[i].rate, io[i].cpu);
	fprintf(f, "\n%-18s%9s", "Latency", io[0].lat);
	for (i = 1; i < 6; i++)
		fprintf(f, "%10s", io[i].lat);
	/* bonnie++'s files column: N, or N:MAX:MIN/DIRS with sizes or dirs */
	if (pnum(b, "file_max_bytes") > 0 || pnum(b, "file_dirs") > 1)
		snprintf(files, sizeof(files), "%.0f:%.0f:%.0f/%.0f", pnum(b, "files"),
			 pnum(b, "file_max_bytes"), pnum(b, "file_min_bytes"),
			 pnum(b, "file_dirs") > 1 ? pnum(b, "file_dirs") : 1);
	else
		snprintf(files, sizeof(files), "%.0f", pnum(b, "files"));
	fprintf(f, "\nVersion bakeoff     ------Sequential Create------ --------Random Create--------\n"
		"%-20.20s-Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n"
		"              files  /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP\n"
		"%19s", name, files);
	for (i = 0; i < 6; i++)
		fprintf(f, " %5s %3s", fl[i].rate, fl[i].cpu);
	fprintf(f, "\n%-18s%9s", "Latency", fl[0].lat);
	for (i = 1; i < 6; i++)
		fprintf(f, "%10s", fl[i].lat);
	fputc('\n', f);
	if (cached)
		fputs("(cached? the file is under 2x RAM: these figures may be the page cache's)\n", f);
	for (i = 0; i < 6; i++) {
		bon_fig(b, bon_io[i], 0, &io[i]);
		bon_fig(b, bon_files[i], 0, &fl[i]);
	}
	csv = result_param(b, "csv");
	if (csv && csv->str && strcmp(csv->str, "1.03") == 0) {
		fprintf(f, "%s,%s", name, size);
		for (i = 0; i < 6; i++)
			fprintf(f, ",%s,%s", io[i].rate, io[i].cpu);
		fprintf(f, ",%.0f", pnum(b, "files"));
		for (i = 0; i < 6; i++)
			fprintf(f, ",%s,%s", fl[i].rate, fl[i].cpu);
		fputc('\n', f);
		return;
	}
	/* format 1.98: version, bonnie version, name, concurrency, seed, size,
	 * chunk size, seeks, seekers, 6 x (rate, cpu), files, max, min, dirs,
	 * file chunk, 6 x (rate, cpu), 12 latencies */
	fprintf(f, "1.98,bakeoff-");
	report_put(f, r->host.version, 0);
	fprintf(f, ",%s,1,%.0f,%s,,%.0f,%.0f", name, pnum(b, "seed"), size, pnum(b, "seeks"),
		pnum(b, "seekers"));
	for (i = 0; i < 6; i++)
		fprintf(f, ",%s,%s", io[i].rate, io[i].cpu);
	fprintf(f, ",%.0f,", pnum(b, "files"));
	if (pnum(b, "file_max_bytes") > 0)
		fprintf(f, "%.0f,%.0f", pnum(b, "file_max_bytes"), pnum(b, "file_min_bytes"));
	else
		fputc(',', f);
	fputc(',', f);
	if (pnum(b, "file_dirs") > 1)
		fprintf(f, "%.0f", pnum(b, "file_dirs"));
	fputc(',', f);
	for (i = 0; i < 6; i++)
		fprintf(f, ",%s,%s", fl[i].rate, fl[i].cpu);
	for (i = 0; i < 6; i++)
		fprintf(f, ",%s", io[i].lat);
	for (i = 0; i < 6; i++)
		fprintf(f, ",%s", fl[i].lat);
	fputc('\n', f);
}

/* ---- iozone ---- */

static const char *const ioz_tests[] = {
	"write", "rewrite", "read", "reread", "random read", "random write", "bkwd read",
	"record rewrite", "stride read", "fwrite", "frewrite", "fread", "freread",
};
static const char *const ioz_reports[] = {
	"Writer report", "Re-writer report", "Reader report", "Re-Reader report",
	"Random read report", "Random write report", "Backward read report",
	"Record rewrite report", "Stride read report", "Fwrite report", "Re-Fwrite report",
	"Fread report", "Re-Fread report",
};
#define IOZ_NT ((int)(sizeof(ioz_tests) / sizeof(ioz_tests[0])))

/* A cell's figure in kB/s (iozone's unit), or -1 when not measured. */
static double ioz_cell(const struct bench_result *b, int t, unsigned long long kb,
		       unsigned long long rec, int *cached_n)
{
	char name[96];
	const struct metric *m;

	snprintf(name, sizeof(name), "%s, %llu kB, reclen %llu kB", ioz_tests[t], kb, rec);
	m = result_metric(b, name);
	if (!m || m->nsamples == 0)
		return -1;
	if (m->cache_suspect)
		(*cached_n)++;
	return m->st.median * 1e6 / 1024;
}

/* The 1997 report's single file (iozone 2): one repetition's write and
 * read, as iozone 2 printed them. */
static void iozone_single(const struct bench_result *b, FILE *f)
{
	const struct metric *sw = result_metric(b, "single write"), *sr = result_metric(b, "single read");
	double bytes, rbytes, wrate, rrate;

	if (!sw || !sr || !(sw->st.median > 0) || !(sr->st.median > 0))
		return;
	/* what one repetition moved (--runtime may have cut --size short) */
	middle_rep(sw, &bytes, &wrate);
	middle_rep(sr, &rbytes, &rrate);
	fprintf(f, "\nWriting the %.0f Megabyte file, 'iozone.tmp'...%f seconds\n",
		bytes / 1048576, bytes / wrate);
	fprintf(f, "Reading the file...%f seconds\n", rbytes / rrate);
	fputs("\nIOZONE performance measurements:\n", f);
	fprintf(f, "\t%.0f bytes/second for writing the file%s\n", wrate, cached(sw));
	fprintf(f, "\t%.0f bytes/second for reading the file%s\n", rrate, cached(sr));
}

void report_iozone(const struct result *r, FILE *f)
{
	const struct bench_result *b = report_usable(f, "iozone", r, "disk.iozone");
	const struct param *dir, *direct;
	unsigned long long kb[64], rows[512][2], recs[32];
	size_t i, nrows = 0, nkb = 0, nrec = 0, k, j;
	int t, cached_n = 0, n = 0;

	if (!b)
		return;
	dir = result_param(b, "dir");
	direct = result_param(b, "direct");
	/* The cells, in the order measured: from the write metrics' names. */
	for (i = 0; i < b->nmetrics && nrows < 512; i++) {
		unsigned long long a, c;

		if (sscanf(b->metrics[i].name, "write, %llu kB, reclen %llu kB", &a, &c) != 2)
			continue;
		rows[nrows][0] = a;
		rows[nrows++][1] = c;
		for (k = 0; k < nkb && kb[k] != a; k++)
			;
		if (k == nkb && nkb < 64)
			kb[nkb++] = a;
		for (k = 0; k < nrec && recs[k] != c; k++)
			;
		if (k == nrec && nrec < 32) {
			for (k = nrec++; k > 0 && recs[k - 1] > c; k--)
				recs[k] = recs[k - 1];
			recs[k] = c;
		}
	}
	fputs("\tbakeoff disk.iozone: iozone's method on ", f);
	report_put(f, dir && dir->str ? dir->str : "?", 0);
	fputc('\n', f);
	fputs("\tInclude fsync in write timing\n", f);
	fputs("\t(bakeoff: fsync in every test but fread/freread, as iozone -e;"
	      " each cell the median of its passes, iozone's one pass)\n", f);
	fputs("\t(bakeoff: each pass runs the cell's tests in this order, as iozone's)\n", f);
	fputs("\t(bakeoff: fwrite..freread on stdio's own buffer, not iozone's setvbuf of one record)\n", f);
	if (direct && direct->str && strcmp(direct->str, "yes") == 0)
		fputs("\tO_DIRECT feature enabled\n", f);
	fputs("\tAuto Mode\n", f);
	fprintf(f, "\tUsing maximum file size of %.0f kilobytes.\n",
		pnum(b, "max_size_bytes") / 1024);
	fputs("\tOutput is in kBytes/sec\n", f);
	fprintf(f, "%-64s%10s%10s%10s%11s%11s\n", "", "random", "random", "bkwd", "record",
		"stride");
	fputs("              kB  reclen    write    rewrite      read    reread      read     write"
	      "      read    rewrite       read    fwrite  frewrite     fread   freread\n", f);
	for (i = 0; i < nrows; i++) {
		fprintf(f, "%16llu%8llu", rows[i][0], rows[i][1]);
		for (t = 0; t < IOZ_NT; t++) {
			double v = ioz_cell(b, t, rows[i][0], rows[i][1], &cached_n);
			int w = t == 7 || t == 8 ? 11 : 10;

			if (v < 0)
				fprintf(f, "%*s", w, "");
			else
				fprintf(f, "%*.0f", w, v);
			n++;
		}
		fputc('\n', f);
	}
	if (cached_n)
		fprintf(f, "(cached? %d of %d figures: buffered on files under 2x RAM, "
			"they may be the page cache's)\n", cached_n, n);
	iozone_single(b, f);
	/* One matrix per test: file sizes down, record sizes across (iozone -R). */
	for (t = 0; t < IOZ_NT; t++) {
		int dummy = 0;

		fprintf(f, "\n\"%s\"\n%6s", ioz_reports[t], "");
		for (k = 0; k < nrec; k++) {
			char q[24];

			snprintf(q, sizeof(q), "\"%llu\"", recs[k]);
			fprintf(f, " %9s", q);
		}
		fputc('\n', f);
		for (j = 0; j < nkb; j++) {
			char q[24];

			snprintf(q, sizeof(q), "\"%llu\"", kb[j]);
			fprintf(f, "%-8s", q);
			for (k = 0; k < nrec; k++) {
				double v = ioz_cell(b, t, kb[j], recs[k], &dummy);
				size_t l;

				for (l = k; l < nrec && ioz_cell(b, t, kb[j], recs[l], &dummy) < 0; l++)
					;
				if (l == nrec)
					break;	/* nothing more on this row: no trailing blanks */
				if (v < 0)
					fprintf(f, "%s%9s", k ? " " : "", "");
				else
					fprintf(f, "%s%9.0f", k ? " " : "", v);
			}
			fputc('\n', f);
		}
	}
}
