/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Aggregation behind "kmemtrace report": per-type totals, per-call-site
 * counts, bytes and internal fragmentation, and what was still allocated
 * when the run ended; plus symbolization from /proc/kallsyms text.
 * Pure C like kmt_parse.c.
 */
#ifndef KMT_REPORT_H
#define KMT_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "kmt_abi.h"

/* Per type; bytes count successful allocations only. */
struct kmt_type_stats {
	uint64_t	allocs;		/* including failed ones */
	uint64_t	failed;		/* alloc records with ptr 0 */
	uint64_t	bytes_req;
	uint64_t	bytes_alloc;
	uint64_t	frees;		/* including frees of NULL */
	uint64_t	null_frees;
	uint64_t	live;		/* never freed during the run */
	uint64_t	live_bytes;
};

/* Per allocating call site.  Frees are charged to the site that allocated. */
struct kmt_site {
	uint64_t	call_site;
	uint64_t	allocs;
	uint64_t	failed;
	uint64_t	bytes_req;
	uint64_t	bytes_alloc;
	uint64_t	freed;		/* objects freed later in the run */
	uint64_t	replaced;	/* allocated again with no free seen */
	uint64_t	live;		/* never freed (kmt_report_finish) */
	uint64_t	live_bytes;
};

/* Open addressing with linear probing; @b indexes sites, @a and @c vary. */
struct kmt_slot {
	uint64_t	key;
	uint64_t	a;
	uint32_t	b;
	uint8_t		c;
	uint8_t		used;
};

struct kmt_table {
	struct kmt_slot	*slots;
	size_t		cap;		/* a power of two, or 0 */
	size_t		nr;
};

struct kmt_report {
	struct kmt_type_stats	type[KMT_NR_TYPES];
	struct kmt_site		*sites;
	size_t			nr_sites;
	size_t			cap_sites;
	struct kmt_table	site_idx;	/* call_site -> sites[b] */
	/* ptr -> a: bytes_alloc, b: site, c: type; slab [0], pages [1] */
	struct kmt_table	live_tab[2];
	uint64_t		records;	/* records offered */
	uint64_t		skipped;	/* unknown, bad or invalid */
	uint64_t		unmatched_frees; /* allocated before the run */
	uint64_t		replaced;	/* see kmt_report_add() */
	uint64_t		type_mismatch;	/* slab freed as the other type */
	uint64_t		live;
	uint64_t		live_bytes;
	bool			finished;
};

enum kmt_order {
	KMT_BY_BYTES,		/* bytes_alloc */
	KMT_BY_COUNT,		/* allocs */
	KMT_BY_WASTE,		/* bytes_alloc - bytes_req */
	KMT_BY_LIVE,		/* live_bytes */
};

void kmt_report_init(struct kmt_report *r);
/*
 * Feed records in sequence order.  Unknown, malformed and invalid
 * records are counted in @skipped and otherwise ignored.  Returns 0 or
 * -ENOMEM.
 *
 * Live objects are keyed by ptr within their class: slab objects
 * (kmalloc and kmem_cache, which kfree() and kmem_cache_free() may free
 * either way) or pages.  Slab and pages share one address space and are
 * live at one address together: a new slab's page and its first
 * object.  (A large kmalloc() is recorded as kmalloc only, not also as
 * its pages.)  An alloc of a ptr still live in its class
 * means its free was not seen (a dropped record, or an untraced free
 * path); the older object counts as "replaced", not as never freed,
 * since the memory was plainly reused.
 */
int kmt_report_add(struct kmt_report *r, const struct kmt_record *rec);
/* Charge what is still live to its sites and types; call once at the end. */
void kmt_report_finish(struct kmt_report *r);
/*
 * Fill @out with up to @n sites in @by order (largest first, then by
 * address), leaving out sites whose measure is 0.  Returns how many.
 */
size_t kmt_report_top(const struct kmt_report *r, enum kmt_order by,
		      const struct kmt_site **out, size_t n);
void kmt_report_free(struct kmt_report *r);

static inline uint64_t kmt_site_waste(const struct kmt_site *s)
{
	return s->bytes_alloc - s->bytes_req;
}

/* Symbols from /proc/kallsyms ("ADDR TYPE NAME [module]"), text only. */
struct kmt_sym {
	uint64_t	addr;
	uint64_t	size;		/* to the next symbol; 0 if unknown */
	const char	*name;
	const char	*mod;		/* NULL for vmlinux */
};

struct kmt_syms {
	struct kmt_sym	*v;
	size_t		nr;
	char		*strs;
	bool		hidden;		/* text symbols all at 0: not root */
};

/* Functions are never this big: past it an address is not symbolized. */
#define KMT_SYM_MAX_OFF		0x100000ULL

/* Copies @text; lines that do not parse are ignored.  0 or -ENOMEM. */
int kmt_syms_parse(struct kmt_syms *s, const char *text, size_t len);
/* The symbol holding @addr, or NULL; *@off is addr - sym->addr. */
const struct kmt_sym *kmt_syms_lookup(const struct kmt_syms *s,
				      uint64_t addr, uint64_t *off);
/* "name+0xoff/0xsize [mod]", or the raw address; always terminated. */
void kmt_syms_format(const struct kmt_syms *s, uint64_t addr, char *buf,
		     size_t len);
void kmt_syms_free(struct kmt_syms *s);

#endif /* KMT_REPORT_H */
