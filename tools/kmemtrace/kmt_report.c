// SPDX-License-Identifier: GPL-2.0
/*
 * kmemtrace report aggregation and kallsyms symbolization.  Pure C: no
 * system calls, so the host tests and the fuzzer run it as the tool does.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kmt_report.h"

static size_t slot_hash(const struct kmt_table *t, uint64_t key)
{
	/* Fibonacci hashing: pointers and call sites share low bits. */
	return (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 32) & (t->cap - 1);
}

static struct kmt_slot *slot_find(const struct kmt_table *t, uint64_t key)
{
	size_t i;

	if (!t->cap)
		return NULL;
	for (i = slot_hash(t, key); t->slots[i].used;
	     i = (i + 1) & (t->cap - 1))
		if (t->slots[i].key == key)
			return &t->slots[i];
	return NULL;
}

static int slot_grow(struct kmt_table *t)
{
	size_t old_cap = t->cap, cap = old_cap ? old_cap * 2 : 64, i, j;
	struct kmt_slot *old = t->slots, *n;

	if (cap > SIZE_MAX / sizeof(*n))
		return -ENOMEM;
	n = calloc(cap, sizeof(*n));
	if (!n)
		return -ENOMEM;
	t->slots = n;
	t->cap = cap;
	for (i = 0; i < old_cap; i++) {
		if (!old[i].used)
			continue;
		for (j = slot_hash(t, old[i].key); n[j].used;
		     j = (j + 1) & (cap - 1))
			;
		n[j] = old[i];
	}
	free(old);
	return 0;
}

/* The slot for @key, zeroed if new (then *@fresh); NULL on -ENOMEM. */
static struct kmt_slot *slot_get(struct kmt_table *t, uint64_t key,
				 bool *fresh)
{
	struct kmt_slot *s = slot_find(t, key);
	size_t i;

	*fresh = false;
	if (s)
		return s;
	/* Keep the load at most a half so probes stay short. */
	if ((t->nr + 1) * 2 > t->cap && slot_grow(t))
		return NULL;
	for (i = slot_hash(t, key); t->slots[i].used;
	     i = (i + 1) & (t->cap - 1))
		;
	s = &t->slots[i];
	memset(s, 0, sizeof(*s));
	s->key = key;
	s->used = 1;
	t->nr++;
	*fresh = true;
	return s;
}

/* Backward-shift deletion: linear probing then needs no tombstones. */
static void slot_del(struct kmt_table *t, struct kmt_slot *s)
{
	size_t mask = t->cap - 1, i = s - t->slots, j = i, k;

	for (;;) {
		j = (j + 1) & mask;
		if (!t->slots[j].used)
			break;
		k = slot_hash(t, t->slots[j].key);
		/* An entry whose home lies in (i, j] must stay where it is. */
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		t->slots[i] = t->slots[j];
		i = j;
	}
	t->slots[i].used = 0;
	t->nr--;
}

/* Byte sums saturate, so bytes_alloc >= bytes_req survives any input. */
static void add_sat(uint64_t *sum, uint64_t v)
{
	*sum = *sum > UINT64_MAX - v ? UINT64_MAX : *sum + v;
}

void kmt_report_init(struct kmt_report *r)
{
	memset(r, 0, sizeof(*r));
}

void kmt_report_free(struct kmt_report *r)
{
	free(r->sites);
	free(r->site_idx.slots);
	free(r->live_tab[0].slots);
	free(r->live_tab[1].slots);
	memset(r, 0, sizeof(*r));
}

static struct kmt_site *site_get(struct kmt_report *r, uint64_t call_site,
				 uint32_t *idx)
{
	struct kmt_slot *s;
	bool fresh;

	if (r->nr_sites == r->cap_sites) {
		size_t cap = r->cap_sites ? r->cap_sites * 2 : 64;
		struct kmt_site *n;

		if (cap > UINT32_MAX || cap > SIZE_MAX / sizeof(*n))
			return NULL;
		n = realloc(r->sites, cap * sizeof(*n));
		if (!n)
			return NULL;
		r->sites = n;
		r->cap_sites = cap;
	}
	s = slot_get(&r->site_idx, call_site, &fresh);
	if (!s)
		return NULL;
	if (fresh) {
		s->b = (uint32_t)r->nr_sites++;
		memset(&r->sites[s->b], 0, sizeof(r->sites[s->b]));
		r->sites[s->b].call_site = call_site;
	}
	*idx = s->b;
	return &r->sites[s->b];
}

int kmt_report_add(struct kmt_report *r, const struct kmt_record *rec)
{
	struct kmt_type_stats *ts;
	struct kmt_table *tab;
	struct kmt_site *site;
	struct kmt_slot *live;
	uint32_t idx;
	bool fresh;

	r->records++;
	if (rec->unknown || rec->err || kmt_validate(rec)) {
		r->skipped++;
		return 0;
	}
	ts = &r->type[rec->type_id];
	tab = &r->live_tab[rec->type_id == KMT_TYPE_PAGES];
	if (rec->event_id == KMT_EVENT_FREE) {
		ts->frees++;
		if (!rec->ptr) {
			ts->null_frees++;
			return 0;
		}
		live = slot_find(tab, rec->ptr);
		if (!live) {
			r->unmatched_frees++;
			return 0;
		}
		r->sites[live->b].freed++;
		if (live->c != rec->type_id)
			r->type_mismatch++;
		slot_del(tab, live);
		return 0;
	}

	site = site_get(r, rec->call_site, &idx);
	if (!site)
		return -ENOMEM;
	ts->allocs++;
	site->allocs++;
	if (!rec->ptr) {
		ts->failed++;
		site->failed++;
		return 0;
	}
	add_sat(&ts->bytes_req, rec->bytes_req);
	add_sat(&ts->bytes_alloc, rec->bytes_alloc);
	add_sat(&site->bytes_req, rec->bytes_req);
	add_sat(&site->bytes_alloc, rec->bytes_alloc);
	live = slot_get(tab, rec->ptr, &fresh);
	if (!live)
		return -ENOMEM;
	if (!fresh) {
		r->replaced++;
		r->sites[live->b].replaced++;
	}
	live->a = rec->bytes_alloc;
	live->b = idx;
	live->c = rec->type_id;
	return 0;
}

static void finish_table(struct kmt_report *r, const struct kmt_table *t)
{
	const struct kmt_slot *s;
	size_t i;

	for (i = 0; i < t->cap; i++) {
		s = &t->slots[i];
		if (!s->used)
			continue;
		r->sites[s->b].live++;
		add_sat(&r->sites[s->b].live_bytes, s->a);
		r->type[s->c].live++;
		add_sat(&r->type[s->c].live_bytes, s->a);
		r->live++;
		add_sat(&r->live_bytes, s->a);
	}
}

void kmt_report_finish(struct kmt_report *r)
{
	if (r->finished)
		return;
	r->finished = true;
	finish_table(r, &r->live_tab[0]);
	finish_table(r, &r->live_tab[1]);
}

static uint64_t site_measure(const struct kmt_site *s, enum kmt_order by)
{
	switch (by) {
	case KMT_BY_BYTES:
		return s->bytes_alloc;
	case KMT_BY_COUNT:
		return s->allocs;
	case KMT_BY_WASTE:
		return kmt_site_waste(s);
	case KMT_BY_LIVE:
		return s->live_bytes;
	}
	return 0;
}

/* qsort() has no context argument; kmt_report_top() is not reentrant. */
static enum kmt_order sort_by;

static int site_cmp(const void *pa, const void *pb)
{
	const struct kmt_site *a = *(const struct kmt_site * const *)pa;
	const struct kmt_site *b = *(const struct kmt_site * const *)pb;
	uint64_t ma = site_measure(a, sort_by), mb = site_measure(b, sort_by);

	if (ma != mb)
		return ma > mb ? -1 : 1;
	/* Live sites tie on bytes often: more objects first. */
	if (sort_by == KMT_BY_LIVE && a->live != b->live)
		return a->live > b->live ? -1 : 1;
	if (a->call_site != b->call_site)
		return a->call_site < b->call_site ? -1 : 1;
	return 0;
}

size_t kmt_report_top(const struct kmt_report *r, enum kmt_order by,
		      const struct kmt_site **out, size_t n)
{
	const struct kmt_site **all;
	size_t i, nr = 0;

	if (!n || !r->nr_sites)
		return 0;
	all = malloc(r->nr_sites * sizeof(*all));
	if (!all)
		return 0;
	for (i = 0; i < r->nr_sites; i++)
		if (site_measure(&r->sites[i], by))
			all[nr++] = &r->sites[i];
	sort_by = by;
	qsort(all, nr, sizeof(*all), site_cmp);
	if (nr > n)
		nr = n;
	memcpy(out, all, nr * sizeof(*out));
	free(all);
	return nr;
}

/* Text symbols only: call sites are return addresses into code. */
static bool text_type(char c)
{
	return c == 't' || c == 'T' || c == 'w' || c == 'W';
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int sym_cmp(const void *pa, const void *pb)
{
	const struct kmt_sym *a = pa, *b = pb;
	int r;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	/* Aliases: vmlinux before modules, then by name, for stable output. */
	if (!a->mod != !b->mod)
		return a->mod ? 1 : -1;
	r = strcmp(a->name, b->name);
	return r < 0 ? -1 : r > 0;
}

/*
 * Parse one NUL-terminated line in place: "ADDR TYPE NAME[\t[MOD]]".
 * Returns 1 for a text symbol, 0 for anything else.
 */
static int parse_line(char *p, struct kmt_sym *sym)
{
	uint64_t addr = 0;
	int digits = 0, h;
	char type, *end;

	while ((h = hexval(*p)) >= 0) {
		if (++digits > 16)
			return 0;
		addr = addr << 4 | (uint64_t)h;
		p++;
	}
	if (!digits || *p != ' ')
		return 0;
	type = p[1];
	if (!type || p[2] != ' ' || !text_type(type))
		return 0;
	p += 3;
	end = p + strcspn(p, " \t");
	if (end == p)
		return 0;
	sym->addr = addr;
	sym->size = 0;
	sym->name = p;
	sym->mod = NULL;
	if (*end) {
		*end++ = '\0';
		end += strspn(end, " \t");
		if (*end == '[') {
			char *close = strchr(end, ']');

			if (close && close > end + 1) {
				*close = '\0';
				sym->mod = end + 1;
			}
		}
	}
	return 1;
}

int kmt_syms_parse(struct kmt_syms *s, const char *text, size_t len)
{
	size_t cap = 0, nr = 0, i, out;
	char *p, *nl, *end;
	bool any_text = false, nonzero = false;
	struct kmt_sym sym, *v = NULL;

	memset(s, 0, sizeof(*s));
	if (len == SIZE_MAX)
		return -ENOMEM;
	s->strs = malloc(len + 1);
	if (!s->strs)
		return -ENOMEM;
	memcpy(s->strs, text, len);
	s->strs[len] = '\0';
	end = s->strs + len;
	for (p = s->strs; p < end; p = nl + 1) {
		nl = memchr(p, '\n', end - p);
		if (!nl)
			nl = end;
		*nl = '\0';
		/* An embedded NUL ends the line early, which is harmless. */
		if (!parse_line(p, &sym))
			continue;
		any_text = true;
		if (!sym.addr)
			continue;
		nonzero = true;
		if (nr == cap) {
			struct kmt_sym *n;

			cap = cap ? cap * 2 : 1024;
			n = cap < SIZE_MAX / sizeof(*n) ?
			    realloc(v, cap * sizeof(*n)) : NULL;
			if (!n) {
				free(v);
				kmt_syms_free(s);
				return -ENOMEM;
			}
			v = n;
		}
		v[nr++] = sym;
	}
	/* Non-root readers of kallsyms see every address as 0. */
	s->hidden = any_text && !nonzero;
	if (nr)
		qsort(v, nr, sizeof(*v), sym_cmp);
	/* One name per address; sizes run to the next address. */
	for (i = 0, out = 0; i < nr; i++) {
		if (out && v[out - 1].addr == v[i].addr)
			continue;
		v[out++] = v[i];
	}
	for (i = 0; i + 1 < out; i++)
		v[i].size = v[i + 1].addr - v[i].addr;
	s->v = v;
	s->nr = out;
	return 0;
}

const struct kmt_sym *kmt_syms_lookup(const struct kmt_syms *s,
				      uint64_t addr, uint64_t *off)
{
	size_t lo = 0, hi = s->nr, mid;
	const struct kmt_sym *sym;

	/* The last symbol at or below @addr. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s->v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	sym = &s->v[lo - 1];
	*off = addr - sym->addr;
	/* A gap after the last function of a region is not a function. */
	if (*off >= KMT_SYM_MAX_OFF)
		return NULL;
	return sym;
}

void kmt_syms_format(const struct kmt_syms *s, uint64_t addr, char *buf,
		     size_t len)
{
	const struct kmt_sym *sym = NULL;
	uint64_t off = 0;
	int n;

	if (!len)
		return;
	if (s)
		sym = kmt_syms_lookup(s, addr, &off);
	if (!sym) {
		snprintf(buf, len, "0x%016" PRIx64, addr);
		return;
	}
	if (sym->size && sym->size < KMT_SYM_MAX_OFF)
		n = snprintf(buf, len, "%s+0x%" PRIx64 "/0x%" PRIx64,
			     sym->name, off, sym->size);
	else
		n = snprintf(buf, len, "%s+0x%" PRIx64, sym->name, off);
	if (sym->mod && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - n, " [%s]", sym->mod);
}

void kmt_syms_free(struct kmt_syms *s)
{
	free(s->v);
	free(s->strs);
	memset(s, 0, sizeof(*s));
}
