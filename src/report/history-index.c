/* history-index.c — DIR/.bakeoff-index: one line per result file under
 * DIR (its path, size, modification time, machine fingerprint, labels,
 * verdict and every figure's median and CI), so that a history of
 * thousands of files reads only the files that are new or changed. Plain
 * text, tab-separated, fields %-escaped (% TAB LF CR):
 *
 *   bakeoff-index/4 TAB VERSION
 *   K TAB n TAB id TAB metric TAB unit TAB better TAB derived TAB detail TAB settings
 *   F TAB path TAB size TAB mtime TAB fp TAB facts TAB host TAB start TAB kernel
 *     TAB version TAB profile TAB suspect TAB (-|+why unjudgeable) TAB labels
 *     TAB k:median:lo:hi[:gauge[:quiet:qgauge:qshared]] ...   (9
 *     significant digits; gauge: the core gauge's median, when the figure
 *     has one; quiet, qgauge, qshared: its quiet samples' median, their
 *     gauge, its other samples' median, gauge_quiet)
 *   S TAB path TAB size TAB mtime TAB why it is not a usable result
 *   C   (a chunk appended later: its K lines number afresh from 0)
 *
 * Format 4 writes the settings in the order of their names (3 kept the
 * file's order).
 *
 * K numbers the figures' keys for the F lines below it. Only main figures
 * are kept (history --all reads detail figures from the files). The index is
 * rebuilt when it is missing, damaged or written by another version; it
 * replaces only a file that is an index (its first line says so), through
 * a new file renamed over it. The result files stay the truth. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "history.h"
#include "version.h"

#define MAGIC "bakeoff-index/4"
#define FAMILY "bakeoff-index/"	/* any format's: an index another version wrote */
#define MAX_FIELDS 16

static void put(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '%' || *s == '\t' || *s == '\n' || *s == '\r')
			fprintf(f, "%%%02X", (unsigned char)*s);
		else
			fputc(*s, f);
	}
}

/* Undo put() in place. */
static void unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		unsigned v;

		if (*s == '%' && isxdigit((unsigned char)s[1]) && isxdigit((unsigned char)s[2]) &&
		    sscanf(s + 1, "%2x", &v) == 1) {
			*w++ = (char)v;
			s += 2;
		} else {
			*w++ = *s;
		}
	}
	*w = 0;
}

/* Split line into at most MAX_FIELDS tab-separated fields, unescaped. */
static size_t fields(char *line, char **f)
{
	size_t n = 0;

	while (n < MAX_FIELDS) {
		char *tab = strchr(line, '\t');

		f[n++] = line;
		if (!tab)
			break;
		*tab = 0;
		line = tab + 1;
	}
	for (size_t i = 0; i < n; i++)
		unescape(f[i]);
	return n;
}

static int num(const char *s, long long *v)
{
	char *end;

	errno = 0;
	*v = strtoll(s, &end, 10);
	return end == s || *end || errno ? -1 : 0;
}

static char *dup_or(const char *s, int *bad)
{
	char *d = strdup(s);

	*bad |= !d;
	return d;
}

/* "k:median:lo:hi[:gauge[:quiet:qgauge:qshared]] ..." into f's figures, keys
 * mapped through map[0..nmap) (strtoul and strtod by hand: sscanf costs
 * thrice as much here). */
static int figs(char *s, const size_t *map, size_t nmap, struct hx_file *f)
{
	size_t n = 0, cap = 0;
	char *p = s, *end;

	while (*p) {
		unsigned long k = strtoul(p, &end, 10);
		double v[7] = { 0 };
		int i = 0;

		if (end == p || *end != ':' || k >= nmap)
			return -1;
		do {	/* 3, 4 or 7 numbers after the key */
			p = end + 1;
			v[i++] = strtod(p, &end);
			if (end == p || (*end && *end != ' ' && *end != ':'))
				return -1;
		} while (*end == ':' && i < 7);
		if (i < 3 || (i > 4 && i < 7) || *end == ':')
			return -1;
		if (n == cap) {
			struct hx_fig *nf = realloc(f->figs, (cap = cap ? 2 * cap : 32) * sizeof(*nf));

			if (!nf)
				return -1;
			f->figs = nf;
		}
		f->figs[n].key = map[k];
		f->figs[n].median = v[0];
		f->figs[n].lo = v[1];
		f->figs[n].hi = v[2];
		f->figs[n].gauge = v[3];
		f->figs[n].quiet = v[4];
		f->figs[n].quiet_gauge = v[5];
		f->figs[n].quiet_shared = v[6];
		f->nfigs = ++n;
		p = *end ? end + 1 : end;
	}
	return 0;
}

static int f_line(char **fl, size_t nf, const size_t *map, size_t nmap, struct hx_file *f)
{
	long long suspect;
	int bad = 0;

	memset(f, 0, sizeof(*f));
	if (nf != 15 || num(fl[2], &f->size) < 0 || num(fl[3], &f->mtime) < 0 || strlen(fl[4]) >= sizeof(f->fp) ||
	    strspn(fl[4], "0123456789abcdef") != strlen(fl[4]) || num(fl[11], &suspect) < 0 ||
	    (fl[12][0] != '-' && fl[12][0] != '+'))
		return -1;	/* the fingerprint is hex, as written */
	f->path = dup_or(fl[1], &bad);
	snprintf(f->fp, sizeof(f->fp), "%s", fl[4]);
	f->facts = dup_or(fl[5], &bad);
	f->host = dup_or(fl[6], &bad);
	f->start = dup_or(fl[7], &bad);
	f->kernel = dup_or(fl[8], &bad);
	f->version = dup_or(fl[9], &bad);
	f->profile = dup_or(fl[10], &bad);
	f->suspect = suspect != 0;
	if (fl[12][0] == '+') {
		f->failed = dup_or(fl[12] + 1, &bad);
		f->unjudgeable = 1;
	}
	f->labels = dup_or(fl[13], &bad);
	if (bad || figs(fl[14], map, nmap, f) < 0)
		return -1;
	return 0;
}

static int read_lines(struct history *h, FILE *in, struct hx_file **recs, size_t *n, char *err,
		      size_t errlen)
{
	char *line = NULL, *fl[MAX_FIELDS];
	size_t cap = 0, lineno = 1, *map = NULL, nmap = 0, capmap = 0, caprec = 0;
	ssize_t len;
	int rc = 0;

	while (rc == 0 && (len = getline(&line, &cap, in)) > 0) {
		size_t nf;
		long long k, b, dv, dt;

		lineno++;
		if (line[len - 1] != '\n') {
			rc = -1;	/* a truncated last line */
			break;
		}
		line[len - 1] = 0;
		nf = fields(line, fl);
		if (!strcmp(fl[0], "C") && nf == 1) {
			nmap = 0;	/* the next chunk's keys */
		} else if (!strcmp(fl[0], "K") && nf == 9 && num(fl[1], &k) == 0 && k == (long long)nmap &&
		    num(fl[5], &b) == 0 && num(fl[6], &dv) == 0 && num(fl[7], &dt) == 0) {
			size_t key = history_key(h, fl[2], fl[3], fl[4], fl[8], (int)b, (int)dv, (int)dt);
			size_t *nm = nmap == capmap ? realloc(map, (capmap = capmap ? 2 * capmap : 64) * sizeof(size_t)) : map;

			if (!nm || key == (size_t)-1) {
				map = nm ? nm : map;
				rc = -1;
				break;
			}
			map = nm;
			map[nmap++] = key;
		} else if ((!strcmp(fl[0], "F") || !strcmp(fl[0], "S")) && nf >= 5) {
			struct hx_file *nr = *n == caprec ? realloc(*recs, (caprec = caprec ? 2 * caprec : 64) * sizeof(**recs)) : *recs;

			if (!nr) {
				rc = -1;
				break;
			}
			*recs = nr;
			if (fl[0][0] == 'F') {
				if ((rc = f_line(fl, nf, map, nmap, &nr[*n])) == 0 &&
				    history_parse_utc(nr[*n].start, &nr[*n].t) < 0)
					nr[*n].t = (time_t)-1;
			} else {
				memset(&nr[*n], 0, sizeof(nr[*n]));
				rc = nf == 5 && num(fl[2], &nr[*n].size) == 0 && num(fl[3], &nr[*n].mtime) == 0 &&
				     (nr[*n].path = strdup(fl[1])) && (nr[*n].skip = strdup(fl[4])) ? 0 : -1;
			}
			if (rc < 0)
				history_file_free(&nr[*n]);
			else
				(*n)++;
		} else {
			rc = -1;
		}
	}
	if (rc < 0)
		snprintf(err, errlen, "damaged at line %zu", lineno);
	free(line);
	free(map);
	return rc;
}

int history_index_load(struct history *h, FILE *in, struct hx_file **recs, size_t *n, char *err,
		       size_t errlen)
{
	char head[200];
	int rc;

	*recs = NULL;
	*n = 0;
	if (!fgets(head, sizeof(head), in) || strncmp(head, MAGIC "\t", strlen(MAGIC) + 1)) {
		snprintf(err, errlen, "not an index of this format");
		return -1;
	}
	if (strcmp(head + strlen(MAGIC) + 1, BAKEOFF_VERSION "\n")) {
		snprintf(err, errlen, "written by another version of bakeoff");
		return -1;
	}
	rc = read_lines(h, in, recs, n, err, errlen);
	if (rc < 0) {
		for (size_t i = 0; i < *n; i++)
			history_file_free(&(*recs)[i]);
		free(*recs);
		*recs = NULL;
		*n = 0;
	}
	return rc;
}

int history_index_read(struct history *h, const char *dir, struct hx_file **recs, size_t *n, char *err,
		       size_t errlen)
{
	char path[4200];
	FILE *in;
	int rc;

	*recs = NULL;
	*n = 0;
	snprintf(path, sizeof(path), "%s/%s", dir, HX_INDEX_NAME);
	if (!(in = fopen(path, "r")))
		return 0;
	rc = history_index_load(h, in, recs, n, err, errlen);
	fclose(in);
	return rc;
}

static void write_record(FILE *out, const struct hx_file *f, const size_t *kmap)
{
	const char *text[] = { f->facts, f->host, f->start, f->kernel, f->version, f->profile };
	size_t j;

	fputs("F\t", out);
	put(out, f->path);
	fprintf(out, "\t%lld\t%lld\t%s", f->size, f->mtime, f->fp);
	for (j = 0; j < sizeof(text) / sizeof(text[0]); j++) {
		fputc('\t', out);
		put(out, text[j]);
	}
	fprintf(out, "\t%d\t%s", f->suspect, f->failed ? "+" : "-");
	put(out, f->failed);
	fputc('\t', out);
	put(out, f->labels);
	fputc('\t', out);
	for (j = 0; j < f->nfigs; j++) {
		fprintf(out, "%s%zu:%.9g:%.9g:%.9g", j ? " " : "", kmap[f->figs[j].key], f->figs[j].median,
			f->figs[j].lo, f->figs[j].hi);
		if (f->figs[j].gauge > 0)
			fprintf(out, ":%.4g", f->figs[j].gauge);
		if (f->figs[j].gauge > 0 && f->figs[j].quiet > 0)
			fprintf(out, ":%.9g:%.4g:%.9g", f->figs[j].quiet, f->figs[j].quiet_gauge,
				f->figs[j].quiet_shared);
	}
	fputc('\n', out);
}

/* Replace only an index (of any format): a file there that is something
 * else stays. */
static int may_replace(const char *path)
{
	char head[32] = "";
	FILE *in = fopen(path, "r");
	int ok;

	if (!in)
		return errno == ENOENT;
	ok = fgets(head, sizeof(head), in) && !strncmp(head, FAMILY, strlen(FAMILY));
	fclose(in);
	return ok;
}

int history_index_dump(FILE *out, const struct history *h, size_t first, const struct hx_file *skipped,
		       size_t nskipped, int fresh_only)
{
	size_t *kmap = calloc(h->nkeys + 1, sizeof(size_t)), nk = 0, i, j;

	if (!kmap)
		return -1;
	if (fresh_only)
		fputs("C\n", out);
	else
		fprintf(out, "%s\t%s\n", MAGIC, BAKEOFF_VERSION);
	for (i = first; i < h->nfiles; i++)	/* the keys these files use, numbered as met */
		for (j = 0; j < h->files[i].nfigs && (!fresh_only || h->files[i].fresh); j++) {
			size_t k = h->files[i].figs[j].key;
			const struct hx_key *key = &h->keys[k];

			if (kmap[k])
				continue;
			kmap[k] = ++nk;
			fprintf(out, "K\t%zu\t", nk - 1);
			put(out, key->id);
			fputc('\t', out);
			put(out, key->metric);
			fputc('\t', out);
			put(out, key->unit);
			fprintf(out, "\t%d\t%d\t%d\t", key->better, key->derived, key->detail);
			put(out, key->settings);
			fputc('\n', out);
		}
	for (i = 0; i <= h->nkeys; i++)	/* 1-based while marking; the file's numbers from 0 */
		kmap[i] = kmap[i] ? kmap[i] - 1 : 0;
	for (i = first; i < h->nfiles; i++)
		if (!fresh_only || h->files[i].fresh)
			write_record(out, &h->files[i], kmap);
	for (i = 0; i < nskipped; i++) {
		if (fresh_only && !skipped[i].fresh)
			continue;
		fputs("S\t", out);
		put(out, skipped[i].path);
		fprintf(out, "\t%lld\t%lld\t", skipped[i].size, skipped[i].mtime);
		put(out, skipped[i].skip);
		fputc('\n', out);
	}
	free(kmap);
	return ferror(out) ? -1 : 0;
}

int history_index_write(const struct history *h, const char *dir, size_t first,
			const struct hx_file *skipped, size_t nskipped, char *err, size_t errlen)
{
	char path[4200], tmp[4300];
	FILE *out;
	int fd, bad;

	snprintf(path, sizeof(path), "%s/%s", dir, HX_INDEX_NAME);
	snprintf(tmp, sizeof(tmp), "%s/%s.%ld.tmp", dir, HX_INDEX_NAME, (long)getpid());
	if (!may_replace(path)) {
		snprintf(err, errlen, "%s is not bakeoff's index: left alone", path);
		return -1;
	}
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0644)) < 0 || !(out = fdopen(fd, "w"))) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	bad = history_index_dump(out, h, first, skipped, nskipped, 0) < 0;
	bad |= fclose(out) != 0;
	if (bad || rename(tmp, path) < 0) {
		snprintf(err, errlen, "%s: %s", bad ? tmp : path, bad ? "cannot write it" : strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

int history_index_append(const struct history *h, const char *dir, size_t first,
			 const struct hx_file *skipped, size_t nskipped, char *err, size_t errlen)
{
	char path[4200];
	FILE *out;
	int fd, bad;

	snprintf(path, sizeof(path), "%s/%s", dir, HX_INDEX_NAME);
	if (!may_replace(path) || (fd = open(path, O_WRONLY | O_APPEND)) < 0 || !(out = fdopen(fd, "a"))) {
		snprintf(err, errlen, "%s: cannot append to it", path);
		return -1;
	}
	bad = history_index_dump(out, h, first, skipped, nskipped, 1) < 0;
	bad |= fclose(out) != 0;
	if (bad)
		snprintf(err, errlen, "%s: cannot append to it", path);
	return bad ? -1 : 0;
}
