/* history-store.c — a history in memory: its records (one per result
 * file: history.c makes them from files, history-index.c from the index)
 * and the interned keys of their figures, an open-addressing hash table
 * on FNV-1a of benchmark, metric and settings. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "history.h"

void history_init(struct history *h, FILE *warn)
{
	memset(h, 0, sizeof(*h));
	h->warn = warn;
}

void history_file_free(struct hx_file *f)
{
	free(f->path);
	free(f->facts);
	free(f->host);
	free(f->start);
	free(f->kernel);
	free(f->version);
	free(f->profile);
	free(f->labels);
	free(f->failed);
	free(f->skip);
	free(f->figs);
	memset(f, 0, sizeof(*f));
}

void history_free(struct history *h)
{
	size_t i;

	for (i = 0; i < h->nfiles; i++)
		history_file_free(&h->files[i]);
	free(h->files);
	for (i = 0; i < h->nkeys; i++) {
		free(h->keys[i].id);
		free(h->keys[i].metric);
		free(h->keys[i].unit);
		free(h->keys[i].settings);
	}
	free(h->keys);
	free(h->slots);
	free(h->runs);
	memset(h, 0, sizeof(*h));
}

uint64_t history_fnv(uint64_t x, const char *s)
{
	for (; *s; s++)
		x = (x ^ (unsigned char)*s) * 1099511628211ull;
	return x ^ 0xff;
}

static uint64_t key_hash(const char *id, const char *metric, const char *settings)
{
	return history_fnv(history_fnv(history_fnv(14695981039346656037ull, id), metric), settings);
}

int history_grow(void **p, size_t *cap, size_t need, size_t size)
{
	void *np;
	size_t nc = *cap ? *cap : 16;

	if (need <= *cap)
		return 0;
	while (nc < need)
		nc *= 2;
	if (!(np = realloc(*p, nc * size)))
		return -1;
	*p = np;
	*cap = nc;
	return 0;
}

static int rehash(struct history *h)
{
	size_t n = h->nslots ? 2 * h->nslots : 256, i, s;
	size_t *slots = calloc(n, sizeof(size_t));

	if (!slots)
		return -1;
	for (i = 0; i < h->nkeys; i++) {
		const struct hx_key *k = &h->keys[i];

		for (s = key_hash(k->id, k->metric, k->settings) & (n - 1); slots[s]; s = (s + 1) & (n - 1))
			;
		slots[s] = i + 1;
	}
	free(h->slots);
	h->slots = slots;
	h->nslots = n;
	return 0;
}

size_t history_key(struct history *h, const char *id, const char *metric, const char *unit,
		   const char *settings, int better, int derived, int detail)
{
	struct hx_key *k;
	size_t s;

	if ((h->nkeys + 1) * 2 > h->nslots && rehash(h) < 0)
		return (size_t)-1;
	for (s = key_hash(id, metric, settings) & (h->nslots - 1); h->slots[s]; s = (s + 1) & (h->nslots - 1)) {
		k = &h->keys[h->slots[s] - 1];
		if (!strcmp(k->id, id) && !strcmp(k->metric, metric) && !strcmp(k->settings, settings))
			return h->slots[s] - 1;
	}
	if (history_grow((void **)&h->keys, &h->capkeys, h->nkeys + 1, sizeof(*h->keys)) < 0)
		return (size_t)-1;
	k = &h->keys[h->nkeys];
	memset(k, 0, sizeof(*k));
	k->id = strdup(id);
	k->metric = strdup(metric);
	k->unit = strdup(unit ? unit : "");
	k->settings = strdup(settings);
	k->better = better;
	k->derived = derived;
	k->detail = detail;
	if (!k->id || !k->metric || !k->unit || !k->settings)
		return (size_t)-1;
	h->slots[s] = ++h->nkeys;
	return h->nkeys - 1;
}

/* "2026-12-02T13:08:15Z" as seconds since the epoch (days from the civil
 * date, as timegm would, which POSIX lacks): 0, or -1. */
int history_parse_utc(const char *s, time_t *t)
{
	int y, mo, d, hh, mi, ss, n = 0;
	long long days;

	if (!s || sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2dZ%n", &y, &mo, &d, &hh, &mi, &ss, &n) != 6 ||
	    s[n] || mo < 1 || mo > 12 || d < 1 || d > 31 || hh > 23 || mi > 59 || ss > 60)
		return -1;
	y -= mo <= 2;
	days = 365LL * y + y / 4 - y / 100 + y / 400 + (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1 -
	       719468;
	*t = (time_t)(days * 86400 + hh * 3600 + mi * 60 + ss);
	return 0;
}
