/* run.c — one run of benchmarks, start to finish (run.h): the groups'
 * hooks, the claimed result file, the scratch directory, the benchmark
 * loop (families together, --runs interleaved, a process each), the
 * progress line, the incremental save, the table and the delivery. The
 * verbs fill a struct run_plan; nothing here names a group, a benchmark or
 * a format. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "clock.h"
#include "guard.h"
#include "options.h"
#include "registry.h"
#include "run.h"
#include "scratch.h"
#include "stream.h"
#include "sysinfo.h"
#include "units.h"


/* One line per benchmark on a terminal: while it runs, its number and the
 * estimated time left (eta_left); when it is done, the line is rewritten
 * with its main figure and how long it took. */
static void progress(const struct run_plan *a, int tty, size_t k, size_t total,
		     const struct bench_result *br, const char *id, double left)
{
	if (a->lines) {	/* one whole line per event, for a program to read */
		if (br)
			fprintf(stderr, "bakeoff: progress %zu/%zu %s %s\n", k + 1, total, id,
				status_name(br->status));
		else
			fprintf(stderr, "bakeoff: progress %zu/%zu %s running\n", k + 1, total, id);
		fflush(stderr);
		return;
	}
	if (a->quiet || !tty)
		return;
	if (!br) {
		fprintf(stderr, "[%zu/%zu] %-26s ... about %.0f s left", k + 1, total, id, left);
		fflush(stderr);
		return;
	}
	fprintf(stderr, "\r\033[K[%zu/%zu] %-26s", k + 1, total, id);
	if (br->status == ST_OK && br->nmetrics) {
		char v[32];

		fmt_num(v, sizeof(v), br->metrics[0].st.median);
		fprintf(stderr, " %10s %-5s", v, br->metrics[0].unit);
	} else {
		fprintf(stderr, " %s", status_name(br->status));
	}
	fprintf(stderr, " (%.1f s)\n", br->wall_s);
}

/* The benchmarks of the run's list measured together with its i-th, into
 * mem (places in the list): i's family when two or more of it are in the
 * list (see struct bench's family_run), else i alone. Returns how many. */
static size_t family_of(const struct bench *const *list, size_t nlist, size_t i, size_t *mem)
{
	const struct bench *b = list[i];
	size_t j, n = 0;

	for (j = 0; b->family_run && j < nlist && n < 32; j++)
		if (list[j]->family_run == b->family_run)
			mem[n++] = j;
	if (n < 2) {
		mem[0] = i;
		n = 1;
	}
	return n;
}

/* A family's benchmarks, measured in one process: one result whose
 * figures and params result_take_member() hands to each. */
static const struct bench *family_lead;
static unsigned family_members;

static int family_trampoline(struct bench_ctx *ctx)
{
	return family_lead->family_run(ctx, family_members);
}

static void run_family(struct harness *h, const struct bench_opts *opt, const struct bench *const *list,
		       const size_t *mem, size_t nmem, struct bench_result *fam)
{
	const struct bench *b = list[mem[0]];
	struct bench fb = { .id = b->family, .group = b->group, .title = b->family, .unit = b->unit,
			    .better = b->better, .kind = b->kind, .run = family_trampoline };
	size_t j, m, pos = 0;

	family_members = 0;
	family_lead = b;
	/* bit: the member's place among all of its family's benchmarks */
	for (j = 0, m = 0; j < registry_count; j++)
		if (registry[j]->family_run == b->family_run) {
			if (m < nmem && list[mem[m]] == registry[j]) {
				family_members |= 1u << pos;
				m++;
			}
			pos++;
		}
	fam->id = strdup(fb.id);
	fam->group = strdup(fb.group);
	fam->title = strdup(fb.title);
	harness_run_isolated(h, &fb, opt, fam);
}

/* Save the result as it stands (marked incomplete: the run goes on), over
 * the file this run claimed; result_deliver saves the final one. */
static int save_now(struct result *r, const char *path, char *err, size_t errlen)
{
	struct buf json = { 0 };
	int rc;

	r->incomplete = 1;
	result_to_json(r, &json);
	rc = result_update(&json, path, err, errlen);
	buf_free(&json);
	return rc;
}

/* The contracts of the groups with a benchmark in the list, in
 * GROUP_LIST's order: how many, into out. */
#define MAX_GROUPS 16
static size_t selected_groups(const struct bench *const *list, size_t nlist, const struct bench_group **out)
{
	size_t g, i, n = 0;

	for (g = 0; g < registry_ngroups && n < MAX_GROUPS; g++)
		for (i = 0; i < nlist; i++)
			if (strcmp(list[i]->group, registry_groups[g]->name) == 0) {
				out[n++] = registry_groups[g];
				break;
			}
	return n;
}

/* The run's argv as the result keeps it: a secret option's value (the
 * options table's, opt_secret) becomes "(hidden)". */
static void hide_secrets(struct result *r)
{
	size_t i;

	for (i = 1; r->argv && i < (size_t)r->argc; i++) {
		const char *a = r->argv[i], *eq = strchr(a, '=');
		char name[64];

		if (strncmp(a, "--", 2) != 0)
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(eq ? eq - a - 2 : (ptrdiff_t)strlen(a + 2)), a + 2);
		if (!opt_secret(name))
			continue;
		if (eq) {
			char hidden[80];

			snprintf(hidden, sizeof(hidden), "--%s=(hidden)", name);
			free(r->argv[i]);
			r->argv[i] = strdup(hidden);
		} else if (i + 1 < (size_t)r->argc) {
			free(r->argv[++i]);
			r->argv[i] = strdup("(hidden)");
		}
	}
}

/* A run as it goes. */
struct run_state {
	struct run_plan *p;
	const struct bench **list;	/* what runs, in order */
	size_t n;
	unsigned char *sel;		/* the list's registry entries */
	struct result r;
	struct harness h;
	char path[4096], prefix[300];
	int to_stdout, tty, failed, oom;
	const struct bench_group *groups[MAX_GROUPS];
	size_t ngroups, total;
	struct eta eta;
	uint64_t t0;
};

/* Everything before the first benchmark: the groups' begin hooks, the
 * claimed result file, the scratch directory, the groups' prepare and
 * guard hooks, the harness, the result's header saved. 0, or the exit
 * status of a refusal (2, said on stderr; nothing left behind). */
static int run_setup(struct run_state *st)
{
	struct run_plan *p = st->p;
	struct result *r = &st->r;
	const char *parent = scratch_parent(p->dir);
	char err[600];
	size_t i, g;
	int memory = 0, rc;
	time_t start;

	st->list = calloc(registry_count + p->nbenches + 1, sizeof(*st->list));
	st->sel = calloc(registry_count + 1, 1);
	if (!st->list || !st->sel)
		return opt_usage_error("out of memory");
	for (i = 0; i < registry_count; i++)
		if (p->sel && p->sel[i])
			st->list[st->n++] = registry[i];
	for (i = 0; i < p->nbenches; i++)
		st->list[st->n++] = p->benches[i];
	for (i = 0; i < st->n; i++) {
		/* --mem-size sizes its group's buffers, held against the LLC */
		if ((registry_group_flags(st->list[i]->group) & GROUP_SIZED_BY_MEM_SIZE) &&
		    (p->opt.quick || !st->list[i]->own_size))
			memory = 1;
		for (g = 0; g < registry_count; g++)
			st->sel[g] |= registry[g] == st->list[i];
	}
	st->total = st->n;
	st->ngroups = selected_groups(st->list, st->n, st->groups);
	/* before anything is created: each group's checks, and what must
	 * answer first (a peer, the run's own server) */
	for (g = 0; g < st->ngroups; g++)
		if (st->groups[g]->begin && st->groups[g]->begin(&p->opt, err, sizeof(err)) < 0)
			return opt_usage_error("%s", err);
	sysinfo_read(&r->host);
	/* Where the result goes is settled (and claimed) before anything is
	 * measured: a name that cannot be written is a usage error. The file's
	 * name and run.start are the same second. */
	start = time(NULL);
	st->to_stdout = p->output && strcmp(p->output, "-") == 0;
	if (!st->to_stdout && result_claim_output(p->output, r->host.hostname, p->suffix, start, st->path,
						  sizeof(st->path), err, sizeof(err)) < 0)
		return opt_usage_error("%s", err);
	scratch_reap_stale(p->dir);	/* left by runs that were killed */
	if (!scratch_create(p->dir)) {
		rc = opt_usage_error("cannot create a scratch directory under %s: %s", parent, strerror(errno));
		result_unclaim(st->to_stdout ? NULL : st->path);
		return rc;
	}
	p->opt.scratch = scratch_path();
	p->opt.host = &r->host;
	/* each group's own places (disk: a directory under each --dir) */
	for (g = 0; g < st->ngroups; g++)
		if (st->groups[g]->prepare &&
		    st->groups[g]->prepare(&p->opt, p->dirlist, st->sel, err, sizeof(err)) < 0) {
			scratch_remove();
			result_unclaim(st->to_stdout ? NULL : st->path);
			return opt_usage_error("%s", err);
		}
	/* --json-stream: before the benchmarks' processes, which inherit it */
	if (p->opt.json_stream &&
	    ((st->to_stdout && strcmp(p->opt.json_stream, "-") == 0 &&
	      snprintf(err, sizeof(err), "--json-stream - and -o - both want standard output") > 0) ||
	     stream_open(p->opt.json_stream, err, sizeof(err)) < 0)) {
		scratch_remove();
		result_unclaim(st->to_stdout ? NULL : st->path);
		return opt_usage_error("%s", err);
	}
	/* the verb's own (time: the command's log beside the result) */
	if (p->ready && p->ready(p, st->to_stdout ? NULL : st->path, err, sizeof(err)) < 0) {
		scratch_remove();
		result_unclaim(st->to_stdout ? NULL : st->path);
		return opt_usage_error("%s", err);
	}
	scratch_signals();
	if (!p->quiet && st->tty)
		fprintf(stderr, "bakeoff: measuring the clock and loop overhead...\n");
	p->cfg.progress = !p->quiet && st->tty;
	p->cfg.progress_prefix = st->prefix;
	harness_init(&st->h, &p->cfg);
	guard_check(&r->guard, &r->host, &p->opt, memory);
	for (g = 0; g < st->ngroups; g++)
		if (st->groups[g]->guard)
			st->groups[g]->guard(&r->guard, &p->opt);
	r->argv = calloc((size_t)p->argc + 2, sizeof(char *));
	for (i = 0; r->argv && i <= (size_t)p->argc &&
		    (r->argv[i] = strdup(i ? p->argv[i - 1] : "bakeoff")); i++)
		r->argc++;
	hide_secrets(r);
	for (i = 0; i < (size_t)p->opt.nlabels; i++)
		if (result_add_label(r, p->opt.labels[i]) < 0)
			st->oom = 1;
	r->profile = strdup(p->profile);
	result_utc_format(start, err, sizeof(err), "%Y-%m-%dT%H:%M:%SZ");
	r->start_utc = strdup(err);
	if (!r->argv || r->argc != p->argc + 1 || !r->profile || !r->start_utc || st->oom) {
		scratch_remove();
		result_unclaim(st->to_stdout ? NULL : st->path);
		return opt_usage_error("out of memory");
	}
	r->parallel = p->opt.parallel;
	r->clock = st->h.clk;
	r->loop_ns = st->h.loop_ns;
	r->target_sample_ns = (double)p->cfg.target_ns;
	r->samples = p->cfg.samples;
	r->ci_target = p->cfg.ci_target_given ? p->cfg.ci_target : 0;
	r->runs = p->runs > 1 ? p->runs : 1;
	if (!st->to_stdout && save_now(r, st->path, err, sizeof(err)) < 0) {
		scratch_remove();
		result_unclaim(st->path);
		return opt_usage_error("cannot write the result: %s", err);
	}
	return 0;
}

/* Benchmark i (and its family members, mem[0..nmem)) in run `run` of
 * --runs K: measured, merged into the result, judged by the guard, shown,
 * saved. k counts the benchmarks done. */
static void run_one(struct run_state *st, int run, const size_t *mem, size_t nmem, size_t *k)
{
	struct run_plan *p = st->p;
	struct result *r = &st->r;
	const struct bench *b = st->list[mem[0]];
	struct bench_result fam = { 0 };
	struct guard_mark mark;
	char err[600];
	size_t m;

	progress(p, st->tty, *k, st->total, NULL, nmem > 1 ? b->family : b->id, eta_left(&st->eta));
	snprintf(st->prefix, sizeof(st->prefix), "[%zu/%zu] %s", *k + 1, st->total,
		 nmem > 1 ? b->family : b->id);
	guard_mark(&mark);
	if (nmem > 1)
		run_family(&st->h, &p->opt, st->list, mem, nmem, &fam);
	for (m = 0; m < nmem; m++) {
		const struct bench *bm = st->list[mem[m]];
		struct bench_result *br, one = { 0 }, *shown;
		const struct bench_group *grp = registry_group(bm->group);
		unsigned gf = grp ? grp->flags : 0;

		br = run == 1 ? result_add_bench(r, bm->id, bm->group, bm->title)
			      : (struct bench_result *)result_bench(r, bm->id);
		if (!br) {
			st->oom = 1;
			break;
		}
		shown = br;
		if (r->runs > 1) {
			one.id = strdup(bm->id);
			one.group = strdup(bm->group);
			one.title = strdup(bm->title);
			shown = &one;
		}
		if (nmem == 1)
			harness_run_isolated(&st->h, bm, &p->opt, shown);
		else if (result_take_member(&fam, strrchr(bm->id, '.') + 1, (int)nmem, shown) < 0)
			result_set_status(shown, ST_FAILED, "out of memory");
		if (r->runs > 1 && result_merge_run(br, &one, run) < 0)
			result_set_status(br, ST_FAILED, "out of memory merging runs");
		/* not where the kernel works for the benchmark (disk's writeback)
		 * nor against the run's own server (a process of this run) */
		if (!(gf & GROUP_NO_DURING_GUARD) && !(grp && grp->own_helper && grp->own_helper(&p->opt))) {
			size_t from = r->guard.nfindings;

			guard_during(&r->guard, &mark, shown, r->host.threads, (gf & GROUP_STEADY_WORK) != 0);
			guard_explain(&r->guard, from, br);
		}
		if (st->eta.est && st->eta.cls)
			eta_done(&st->eta, mem[m], shown->wall_s);
		progress(p, st->tty, (*k)++, st->total, shown, bm->id, 0);
		if (shown->status == ST_FAILED)
			st->failed = 1;
		result_bench_free(&one);
		r->duration_s = (double)(clock_ns() - st->t0) / 1e9;
		/* Each finished benchmark is in the file at once: a run killed
		 * now still leaves a valid result (marked incomplete). */
		if (!st->to_stdout && !scratch_interrupted() &&	/* else the final save is next */
		    save_now(r, st->path, err, sizeof(err)) < 0)
			fprintf(stderr, "bakeoff: cannot update the result: %s\n", err);
	}
	result_bench_free(&fam);
}

/* --runs K: every selected benchmark once, then again, K rounds, each run
 * in a fresh process; result_merge_run folds them together. */
static void run_loop(struct run_state *st)
{
	struct run_plan *p = st->p;
	size_t i, k = 0, mem[32], nmem;
	int run;

	st->t0 = clock_ns();
	st->total *= (size_t)st->r.runs;
	st->eta.est = calloc(st->n + 1, sizeof(double));
	st->eta.cls = calloc(st->n + 1, 1);
	for (i = 0; st->eta.est && st->eta.cls && i < st->n; i++)
		eta_add(&st->eta, i, harness_estimate(st->list[i], &p->opt, &p->cfg),
			harness_estimate_class(st->list[i]), st->r.runs);
	for (run = 1; run <= st->r.runs && !scratch_interrupted() && !st->oom; run++)
		for (i = 0; i < st->n && !scratch_interrupted() && !st->oom; i++) {
			nmem = family_of(st->list, st->n, i, mem);
			if (mem[0] == i)	/* else measured with its family */
				run_one(st, run, mem, nmem, &k);
		}
	scratch_remove();
	result_quiet_figures(&st->r);
	guard_shared_core(&st->r.guard, &st->r);
	st->r.duration_s = (double)(clock_ns() - st->t0) / 1e9;
	st->r.interrupted = scratch_interrupted();
	free(st->eta.est);
	free(st->eta.cls);
}

/* The table, rendered from the JSON text exactly as `report` would, and the
 * result delivered. The exit status. */
static int run_finish(struct run_state *st)
{
	struct result *r = &st->r, back;
	struct buf json = { 0 };
	char err[600];
	size_t off;
	int rc;

	r->incomplete = 0;
	result_to_json(r, &json);
	if (!st->to_stdout && st->p->render) {
		if (result_from_json(json.p, json.len, &back, &off, err, sizeof(err)) == 0) {
			st->p->render(&back, stdout, st->p->ctx);
			result_free(&back);
		} else {
			fprintf(stderr, "bakeoff: internal error: result does not read back: byte %zu: %s\n",
				off, err);
			st->failed = 1;
		}
	}
	stream_close(stderr);
	st->failed |= result_deliver(r, &json, st->to_stdout ? NULL : st->path, st->p->suffix,
				     st->p->note) < 0;
	if (st->p->done)
		st->p->done(r, st->p->ctx);
	rc = r->interrupted ? 130 : st->failed ? 1 : 0;
	buf_free(&json);
	return rc;
}

int run_execute(struct run_plan *p)
{
	static struct run_state st;	/* big; one run per process */
	int rc;

	memset(&st, 0, sizeof(st));
	st.p = p;
	st.tty = isatty(STDERR_FILENO);
	if ((rc = run_setup(&st)) == 0) {
		run_loop(&st);
		rc = run_finish(&st);
	}
	result_free(&st.r);
	free(st.list);
	free(st.sel);
	return rc;
}
