/* history.c — result files read into short records (their machine's
 * fingerprint, labels, verdict, and every figure's median and CI), grouped
 * into series by machine, and each figure's timeline searched for change
 * points: E-divisive with means (core/changepoint.c) proposes a split,
 * Yuen's trimmed t interval on the logs of the run medians must exclude no
 * change, a rank test must agree, and the change must clear the noise
 * floor: learned from the series' own run-to-run spread when it has enough
 * runs, else compare's fixed floor of that kind of figure. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "changepoint.h"
#include "compare.h"
#include "history.h"
#include "report.h"
#include "units.h"

#define MAX_DEPTH 8	/* directories below a history directory */

/* The machine: what stays when only the software changes (the kernel, the
 * OS, bakeoff's version and the labels are changes along a series). */
static char *machine_facts(const struct sysinfo *si)
{
	char buf[1024], sz[32];
	size_t len;
	int i;

	len = (size_t)snprintf(buf, sizeof(buf), "arch %s; cpu %s; %d cores / %d threads; memory %.0f GiB; "
			       "page %llu; virtualization %s; caches", si->arch, si->cpu_model, si->cores,
			       si->threads, (double)si->mem_total / (1 << 30), (unsigned long long)si->page_size,
			       si->virt[0] ? si->virt : "unknown");
	for (i = 0; i < si->ncache && len < sizeof(buf); i++) {
		fmt_size(sz, sizeof(sz), si->cache[i].size);
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, " L%d%s %s", si->cache[i].level,
					!strcmp(si->cache[i].type, "data") ? "d" :
					!strcmp(si->cache[i].type, "instruction") ? "i" : "", sz);
	}
	if (si->ncache == 0 && len < sizeof(buf))
		snprintf(buf + len, sizeof(buf) - len, " unknown");
	return strdup(buf);
}

static int by_key(const void *a, const void *b)
{
	return strcmp((*(const struct param *const *)a)->key, (*(const struct param *const *)b)->key);
}

/* The settings a benchmark's figures were measured with, as one string,
 * its parameters in the order of their names: a file whose parameters a
 * script or another version wrote in another order is the same series. */
static void settings_of(const struct result *r, const struct bench_result *b, char *out, size_t n)
{
	const struct param *set[64];
	size_t i, k = 0, len;

	for (i = 0; i < b->nparams && k < sizeof(set) / sizeof(set[0]); i++)
		if (compare_param_is_setting(b->params[i].key))
			set[k++] = &b->params[i];
	qsort(set, k, sizeof(set[0]), by_key);
	len = (size_t)snprintf(out, n, "profile=%s", r->profile ? r->profile : "?");
	if (r->parallel > 1 && len < n)
		len += (size_t)snprintf(out + len, n - len, ", parallel=%d", r->parallel);
	for (i = 0; i < k && len < n; i++) {
		if (set[i]->str)
			len += (size_t)snprintf(out + len, n - len, ", %s=%s", set[i]->key, set[i]->str);
		else
			len += (size_t)snprintf(out + len, n - len, ", %s=%.17g", set[i]->key, set[i]->num);
	}
}

static char *join_labels(const struct result *r)
{
	size_t i, len = 1;
	char *s;

	for (i = 0; i < r->nlabels; i++)
		len += strlen(r->labels[i]) + 1;
	if (!(s = calloc(len, 1)))
		return NULL;
	for (i = 0; i < r->nlabels; i++) {
		if (i)
			strcat(s, "\x1f");
		strcat(s, r->labels[i]);
	}
	return s;
}

const char *history_unjudgeable(const struct result *r, char *why, size_t n)
{
	size_t i;

	if (r->interrupted)
		return "the run was interrupted";
	if (r->incomplete)
		return "the file is incomplete (the run was still going, or was killed)";
	for (i = 0; i < r->nbenches; i++)
		if (r->benches[i].status == ST_FAILED || r->benches[i].status == ST_INTERRUPTED) {
			snprintf(why, n, "%s %s: %s", r->benches[i].id, status_name(r->benches[i].status),
				 r->benches[i].reason ? r->benches[i].reason : "?");
			return why;
		}
	return NULL;
}

static int add_figs(struct history *h, struct hx_file *f, const struct result *r)
{
	size_t i, j, n = 0, cap = 0;
	char settings[2048];

	for (i = 0; i < r->nbenches; i++) {
		const struct bench_result *b = &r->benches[i];

		if (b->status != ST_OK)
			continue;
		settings_of(r, b, settings, sizeof(settings));
		for (j = 0; j < b->nmetrics; j++) {
			const struct metric *m = &b->metrics[j];
			size_t k;

			if (!isfinite(m->st.median) || (m->detail && !h->details))
				continue;
			k = history_key(h, b->id, m->name, m->unit, settings, m->better, m->derived != NULL,
					m->detail);
			if (k == (size_t)-1 || history_grow((void **)&f->figs, &cap, n + 1, sizeof(*f->figs)) < 0)
				return -1;
			f->figs[n].key = k;
			f->figs[n].median = m->st.median;
			f->figs[n].lo = m->st.ci_lo;
			f->figs[n].hi = m->st.ci_hi;
			f->figs[n].gauge = m->gauge;
			f->figs[n].quiet = m->quiet_n ? m->split.quiet : 0;
			f->figs[n].quiet_gauge = m->quiet_n ? m->split.quiet_gauge : 0;
			f->figs[n].quiet_shared = m->quiet_n ? m->split.shared : 0;
			f->nfigs = ++n;
		}
	}
	return 0;
}

/* Suspect for a history: the guard judged the run disturbed by something
 * other than a shared core. Its "the core was shared" finding is left
 * aside: history weighs the core gauge figure by figure itself (a run
 * shared for part of a figure at its quiet samples, a shared figure at the
 * quiet level), which keeps those runs where leaving them out lost power
 * (docs/regressions.md). */
static int suspect_for_history(const struct guard *g)
{
	size_t i;
	int shared = 0;

	if (!strcmp(g->verdict, "valid"))
		return 0;
	for (i = 0; i < g->nfindings; i++) {
		const char *f = g->findings[i], *rest = guard_finding_during(f, NULL, 0);

		if (!guard_finding_suspect(f))
			continue;
		if (strncmp(rest ? rest : f, "the core was shared", 19) != 0)
			return 1;
		shared = 1;
	}
	return !shared;	/* suspect for a reason not among its findings: as judged */
}

/* r's record into f (path as given). 0, or -1 (out of memory). */
static int record_of(struct history *h, const struct result *r, const char *path, struct hx_file *f)
{
	uint64_t x;

	memset(f, 0, sizeof(*f));
	f->path = strdup(path);
	f->facts = machine_facts(&r->host);
	f->host = strdup(r->host.hostname);
	f->start = strdup(r->start_utc ? r->start_utc : "");
	f->kernel = strdup(r->host.kernel);
	f->version = strdup(r->host.version);
	f->profile = strdup(r->profile ? r->profile : "");
	f->labels = join_labels(r);
	if (!f->path || !f->facts || !f->host || !f->start || !f->kernel || !f->version || !f->profile ||
	    !f->labels)
		return -1;
	x = history_fnv(14695981039346656037ull, f->facts);
	snprintf(f->fp, sizeof(f->fp), "%016llx", (unsigned long long)x);
	f->fp[12] = 0;
	if (history_parse_utc(f->start, &f->t) < 0)
		f->t = (time_t)-1;
	f->suspect = suspect_for_history(&r->guard);
	{
		char buf[600];
		const char *why = history_unjudgeable(r, buf, sizeof(buf));

		f->unjudgeable = why != NULL;
		if (why && !(f->failed = strdup(why)))
			return -1;
	}
	return add_figs(h, f, r);
}

static int index_run(struct history *h, size_t i);

static int push_file(struct history *h, struct hx_file *f)
{
	if (history_grow((void **)&h->files, &h->capfiles, h->nfiles + 1, sizeof(*h->files)) < 0)
		return -1;
	h->files[h->nfiles] = *f;
	return index_run(h, h->nfiles++);
}

static void say(struct history *h, const char *path, const char *why)
{
	h->nskipped++;
	if (!h->warn)
		return;
	fputs("bakeoff: history: skipped ", h->warn);
	report_put(h->warn, path, 0);
	fputs(": ", h->warn);
	report_put(h->warn, why, 0);
	fputc('\n', h->warn);
}

int history_add_record(struct history *h, struct hx_file *f)
{
	return push_file(h, f);
}

int history_add_result(struct history *h, const struct result *r, const char *path)
{
	struct hx_file f;

	if (record_of(h, r, path, &f) < 0 || push_file(h, &f) < 0) {
		history_file_free(&f);
		return -1;
	}
	return 0;
}

/* A file read and recorded, or made a skip record with its reason. */
static int read_file(struct history *h, const char *path, const struct stat *st, struct hx_file *f)
{
	struct result r;
	char err[700];
	int rc;

	memset(&r, 0, sizeof(r));
	if (result_load_lean(path, &r, err, sizeof(err)) < 0) {
		const char *why = strncmp(err, path, strlen(path)) == 0 && err[strlen(path)] == ':' ?
				  err + strlen(path) + 2 : err;

		result_free(&r);
		memset(f, 0, sizeof(*f));
		f->path = strdup(path);
		f->skip = strdup(why);
		f->size = (long long)st->st_size;
		f->mtime = (long long)st->st_mtime;
		return f->path && f->skip ? 0 : -1;
	}
	rc = record_of(h, &r, path, f);
	f->size = (long long)st->st_size;
	f->mtime = (long long)st->st_mtime;
	result_free(&r);
	return rc;
}

static uint64_t run_hash(const struct hx_file *f)
{
	uint64_t x = history_fnv(14695981039346656037ull, f->fp);

	return history_fnv(history_fnv(history_fnv(x, f->host), f->start), f->labels);
}

static int same_file_run(const struct hx_file *a, const struct hx_file *b)
{
	return !strcmp(a->fp, b->fp) && !strcmp(a->host, b->host) && !strcmp(a->start, b->start) &&
	       !strcmp(a->labels, b->labels);
}

/* The same run twice (a copy): same machine, host, start and labels. */
static const struct hx_file *same_run(const struct history *h, const struct hx_file *f)
{
	size_t s;

	if (!h->nruns)
		return NULL;
	for (s = run_hash(f) & (h->nruns - 1); h->runs[s]; s = (s + 1) & (h->nruns - 1))
		if (same_file_run(&h->files[h->runs[s] - 1], f))
			return &h->files[h->runs[s] - 1];
	return NULL;
}

static int index_run(struct history *h, size_t i)
{
	size_t s;

	if ((h->nfiles + 1) * 2 > h->nruns) {	/* grow the table: every file again */
		size_t n = h->nruns ? 2 * h->nruns : 256, k, *t = calloc(n, sizeof(size_t));

		if (!t)
			return -1;
		free(h->runs);
		h->runs = t;
		h->nruns = n;
		for (k = 0; k < i; k++) {
			for (s = run_hash(&h->files[k]) & (n - 1); t[s]; s = (s + 1) & (n - 1))
				;
			t[s] = k + 1;
		}
	}
	for (s = run_hash(&h->files[i]) & (h->nruns - 1); h->runs[s]; s = (s + 1) & (h->nruns - 1))
		;
	h->runs[s] = i + 1;
	return 0;
}

/* Take record f into h, or say why not. 0, or -1 (out of memory). */
static int take(struct history *h, struct hx_file *f, time_t now)
{
	const struct hx_file *dup;
	char why[600];

	if (f->skip) {
		say(h, f->path, f->skip);
		history_file_free(f);
		return 0;
	}
	if ((dup = same_run(h, f))) {
		snprintf(why, sizeof(why), "the same run as %s (host, start and labels alike): counted once",
			 dup->path);
		say(h, f->path, why);
		history_file_free(f);
		return 0;
	}
	if (f->t == (time_t)-1) {
		snprintf(why, sizeof(why), "its start \"%.40s\" is not a UTC time (YYYY-MM-DDTHH:MM:SSZ)",
			 f->start);
		say(h, f->path, why);
		history_file_free(f);
		return 0;
	}
	if (f->t > now + 3600 && !h->nfuture++)
		snprintf(h->future, sizeof(h->future), "%s (%s, on %s)", f->path, f->start, f->host);
	return push_file(h, f);
}

struct found {
	struct entry {
		char *path;
		struct stat st;
	} *e;
	size_t n, cap;
};

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->path, ((const struct entry *)b)->path);
}

static int cmp_rec(const void *a, const void *b)
{
	return strcmp(((const struct hx_file *)a)->path, ((const struct hx_file *)b)->path);
}

/* Every regular *.json file under dir (sorted), symbolic links not
 * followed (each said once), at most MAX_DEPTH directories down. */
static int walk(struct history *h, const char *dir, int depth, struct found *fd)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4096];
	struct stat st;
	int rc = 0;

	if (!d) {
		say(h, dir, strerror(errno));
		return 0;
	}
	while (rc == 0 && (e = readdir(d))) {
		size_t l = strlen(e->d_name);

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (lstat(path, &st) < 0) {
			say(h, path, strerror(errno));
		} else if (S_ISDIR(st.st_mode)) {
			if (depth < MAX_DEPTH)
				rc = walk(h, path, depth + 1, fd);
			else
				say(h, path, "too deep below the history directory");
		} else if (l > 5 && !strcmp(e->d_name + l - 5, ".json")) {
			if (S_ISLNK(st.st_mode))
				say(h, path, "a symbolic link: not followed");
			else if (!S_ISREG(st.st_mode))
				say(h, path, "not a regular file");
			else if (history_grow((void **)&fd->e, &fd->cap, fd->n + 1, sizeof(*fd->e)) < 0 ||
				 !(fd->e[fd->n].path = strdup(path)))
				rc = -1;
			else
				fd->e[fd->n++].st = st;
		}
	}
	closedir(d);
	return rc;
}

/* A worker of read_many: read every w-th of the files and hand the
 * records back in the index's format. Exits. */
static void read_share(struct entry *e, size_t n, size_t w, size_t nw, FILE *out)
{
	struct history hc;
	struct hx_file f, *skips = NULL;
	size_t k, ns = 0, cap = 0;

	history_init(&hc, NULL);
	for (k = w; k < n; k += nw) {
		if (read_file(&hc, e[k].path, &e[k].st, &f) < 0)
			_exit(1);
		if (f.skip) {
			if (history_grow((void **)&skips, &cap, ns + 1, sizeof(*skips)) < 0)
				_exit(1);
			skips[ns++] = f;
		} else if (push_file(&hc, &f) < 0) {
			_exit(1);
		}
	}
	_exit(history_index_dump(out, &hc, 0, skips, ns, 0) < 0 || fflush(out) != 0 ? 1 : 0);
}

/* Worker w's records into out[k] for its files (k = w, w + nw, ...): 0,
 * or -1 when it failed (its files are then read here). */
static int take_share(struct history *h, FILE *in, struct entry *e, size_t n, size_t w, size_t nw,
		      struct hx_file *out)
{
	struct hx_file *recs;
	size_t nr, r, k;
	char err[200];

	rewind(in);
	if (history_index_load(h, in, &recs, &nr, err, sizeof(err)) < 0)
		return -1;
	for (r = 0; r < nr; r++) {
		for (k = w; k < n && strcmp(e[k].path, recs[r].path); k += nw)
			;
		if (k < n && !out[k].path)
			out[k] = recs[r];
		else
			history_file_free(&recs[r]);
	}
	free(recs);
	return 0;
}

/* The files e[0..n) read into out[0..n) (a record, or a skip record each),
 * by up to 8 processes (one per CPU) when there are many: a history of
 * thousands of new files is read in parallel. 0, or -1 (out of memory). */
static int read_many(struct history *h, struct entry *e, size_t n, struct hx_file *out)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	size_t nw = n >= 64 && ncpu > 1 ? (ncpu > 8 ? 8 : (size_t)ncpu) : 1, w, started = 1, k;
	FILE *tf[8] = { NULL };
	pid_t pid[8];
	int st;

	fflush(NULL);
	for (w = 1; w < nw; w++, started++)
		if (!(tf[w] = tmpfile()) || (pid[w] = fork()) < 0) {
			if (tf[w])
				fclose(tf[w]);
			break;
		} else if (pid[w] == 0) {
			read_share(e, n, w, nw, tf[w]);
		}
	for (k = 0; k < n; k++)	/* this process's share, and the shares not started */
		if ((k % nw == 0 || k % nw >= started) && read_file(h, e[k].path, &e[k].st, &out[k]) < 0)
			return -1;
	for (w = 1; w < started; w++) {
		/* a worker that failed or handed back less: its files are read here */
		if (waitpid(pid[w], &st, 0) == pid[w] && WIFEXITED(st) && WEXITSTATUS(st) == 0)
			take_share(h, tf[w], e, n, w, nw, out);
		fclose(tf[w]);
		for (k = w; k < n; k += nw)
			if (!out[k].path && read_file(h, e[k].path, &e[k].st, &out[k]) < 0)
				return -1;
	}
	return 0;
}

/* The index's record for each file (when its size and time still match),
 * else the file read: recs and fd both in path order. */
static int records_of(struct history *h, struct found *fd, struct hx_file *recs, size_t nrecs,
		      struct hx_file *slot, size_t *reused)
{
	struct entry *need = malloc((fd->n + 1) * sizeof(*need));
	size_t *at = malloc((fd->n + 1) * sizeof(size_t)), nneed = 0, i, j;
	struct hx_file *fresh;
	int rc = -1;

	if (!need || !at)
		goto out;
	for (i = 0, j = 0; i < fd->n; i++) {
		const struct stat *st = &fd->e[i].st;

		while (j < nrecs && strcmp(recs[j].path, fd->e[i].path) < 0)
			j++;
		if (j < nrecs && !strcmp(recs[j].path, fd->e[i].path) && recs[j].size == (long long)st->st_size &&
		    recs[j].mtime == (long long)st->st_mtime) {
			slot[i] = recs[j];
			memset(&recs[j++], 0, sizeof(recs[0]));	/* the slot's now */
			(*reused)++;
		} else {
			need[nneed] = fd->e[i];
			at[nneed++] = i;
		}
	}
	if (!(fresh = calloc(nneed + 1, sizeof(*fresh))))
		goto out;
	if (read_many(h, need, nneed, fresh) == 0) {
		for (i = 0; i < nneed; i++) {
			slot[at[i]] = fresh[i];
			slot[at[i]].fresh = 1;
		}
		rc = 0;
	} else {
		for (i = 0; i < nneed; i++)
			history_file_free(&fresh[i]);
	}
	free(fresh);
out:
	free(need);
	free(at);
	return rc;
}

/* The directory's files, through its index. */
static int add_dir(struct history *h, const char *dir, char *err, size_t errlen)
{
	struct found fd = { 0 };
	struct hx_file *recs = NULL, *skipped = NULL, *slot = NULL;
	size_t nrecs = 0, nskip = 0, capskip = 0, i, first = h->nfiles, reused = 0;
	char ierr[300];
	time_t now = time(NULL);
	int rc = -1, dirty;

	if (walk(h, dir, 0, &fd) < 0)
		goto out;
	if (fd.n)	/* qsort must not be given NULL, even for nothing */
		qsort(fd.e, fd.n, sizeof(*fd.e), cmp_entry);
	if (!h->no_index && !h->details && history_index_read(h, dir, &recs, &nrecs, ierr, sizeof(ierr)) < 0 &&
	    h->warn)
		fprintf(h->warn, "bakeoff: history: %s/%s: %s: rebuilt\n", dir, HX_INDEX_NAME, ierr);
	if (nrecs)
		qsort(recs, nrecs, sizeof(*recs), cmp_rec);
	if (!(slot = calloc(fd.n + 1, sizeof(*slot))) || records_of(h, &fd, recs, nrecs, slot, &reused) < 0)
		goto out;
	dirty = reused < nrecs || (nrecs == 0 && fd.n > 0);	/* files gone or changed; no index */
	for (i = 0; i < fd.n; i++) {	/* in path order: the first of two copies is kept */
		if (slot[i].skip && !h->no_index && !h->details) {	/* said again next time without reading it */
			if (history_grow((void **)&skipped, &capskip, nskip + 1, sizeof(*skipped)) < 0)
				goto out;
			memset(&skipped[nskip], 0, sizeof(skipped[nskip]));
			if (!(skipped[nskip].path = strdup(slot[i].path)) ||
			    !(skipped[nskip].skip = strdup(slot[i].skip))) {
				history_file_free(&skipped[nskip]);
				goto out;
			}
			skipped[nskip].size = slot[i].size;
			skipped[nskip].fresh = slot[i].fresh;
			skipped[nskip++].mtime = slot[i].mtime;
		}
		if (take(h, &slot[i], now) < 0)
			goto out;
		memset(&slot[i], 0, sizeof(slot[i]));	/* h's now, or freed */
	}
	dirty |= h->nfiles - first + nskip != reused;	/* new files taken or skipped */
	/* new files alone (the common case: a run more): appended, else the
	 * whole index written anew */
	if (dirty && !h->no_index && !h->details &&
	    (nrecs && reused == nrecs ? history_index_append(h, dir, first, skipped, nskip, ierr, sizeof(ierr))
				      : history_index_write(h, dir, first, skipped, nskip, ierr, sizeof(ierr))) < 0 &&
	    h->warn)
		fprintf(h->warn, "bakeoff: history: the index of %s was not written: %s\n", dir, ierr);
	rc = 0;
out:
	if (rc < 0)
		snprintf(err, errlen, "out of memory reading %s", dir);
	for (i = 0; slot && i < fd.n; i++)
		history_file_free(&slot[i]);	/* those not taken */
	free(slot);
	for (i = 0; i < nrecs; i++)
		history_file_free(&recs[i]);
	free(recs);
	for (i = 0; i < nskip; i++)
		history_file_free(&skipped[i]);
	free(skipped);
	for (i = 0; i < fd.n; i++)
		free(fd.e[i].path);
	free(fd.e);
	return rc;
}

int history_add(struct history *h, const char *path, char *err, size_t errlen)
{
	struct stat st;
	struct hx_file f;

	if (stat(path, &st) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode))
		return add_dir(h, path, err, errlen);
	if (read_file(h, path, &st, &f) < 0 || take(h, &f, time(NULL)) < 0) {
		snprintf(err, errlen, "out of memory reading %s", path);
		return -1;
	}
	return 0;
}

void history_say_summary(const struct history *h)
{
	if (!h->warn)
		return;
	if (h->nfuture) {
		fprintf(h->warn, "bakeoff: history: %zu run%s start%s in the future, the first ", h->nfuture,
			h->nfuture == 1 ? "" : "s", h->nfuture == 1 ? "s" : "");
		report_put(h->warn, h->future, 0);
		fputs(": a clock was wrong? kept, in the order of their start\n", h->warn);
	}
	if (h->nskipped)
		fprintf(h->warn, "bakeoff: history: %zu file%s skipped (said above)\n", h->nskipped,
			h->nskipped == 1 ? "" : "s");
}

const char *history_label(const struct hx_file *f, const char *key, char *buf, size_t n)
{
	const char *p = f->labels;
	size_t kl = strlen(key);

	while (p && *p) {
		size_t l = strcspn(p, "\x1f");

		if (l > kl && !strncmp(p, key, kl) && p[kl] == '=') {
			snprintf(buf, n, "%.*s", (int)(l - kl - 1), p + kl + 1);
			return buf;
		}
		p += l + (p[l] != 0);
	}
	return NULL;
}

/* What changed from run a to run b: "kernel 6.18.44 -> 6.18.45, commit
 * 3f2a1c -> 9e1d0a" ("" when nothing did). */
const char *history_label_changes(const struct hx_file *a, const struct hx_file *b, char *out, size_t n)
{
	const struct hx_file *side[2] = { a, b };
	size_t len = 0;
	int s;

	out[0] = 0;
	if (strcmp(a->kernel, b->kernel) && len < n)
		len += (size_t)snprintf(out + len, n - len, "kernel %s -> %s", a->kernel, b->kernel);
	if (strcmp(a->version, b->version) && len < n)
		len += (size_t)snprintf(out + len, n - len, "%sbakeoff %s -> %s", len ? ", " : "", a->version,
					b->version);
	for (s = 0; s < 2; s++) {	/* labels of a (changed or gone), then labels new in b */
		const char *p = side[s]->labels;

		while (p && *p && len < n) {
			size_t l = strcspn(p, "\x1f"), kl = strcspn(p, "=");
			char key[40], va[256], vb[256];
			const char *x, *y;

			snprintf(key, sizeof(key), "%.*s", (int)(kl < l ? kl : l), p);
			x = history_label(a, key, va, sizeof(va));
			y = history_label(b, key, vb, sizeof(vb));
			if ((s == 0 && (!y || strcmp(x, y))) || (s == 1 && !x))
				len += (size_t)snprintf(out + len, n - len, "%s%s %s -> %s", len ? ", " : "", key,
							x ? x : "(none)", y ? y : "(none)");
			p += l + (p[l] != 0);
		}
	}
	return out;
}
