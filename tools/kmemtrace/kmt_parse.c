// SPDX-License-Identifier: GPL-2.0
/*
 * kmemtrace record parser: framing by event_size, decoding, feature
 * trailers, validation, and the merge of per-CPU streams by sequence
 * number.  Pure C: the tool, the host tests and the fuzzer share it.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "kmt_abi.h"

/* Records are packed: fields are read with memcpy, never by cast. */
static uint16_t get16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static bool kmt_known(const struct kmt_record *rec)
{
	return rec->event_id < KMT_NR_EVENTS && rec->type_id < KMT_NR_TYPES;
}

static size_t kmt_mandatory(const struct kmt_record *rec)
{
	return rec->event_id == KMT_EVENT_ALLOC ? KMT_ALLOC_SIZE :
						  KMT_CORE_SIZE;
}

int kmt_trailer_next(const struct kmt_record *rec, size_t *off,
		     struct kmt_trailer *t)
{
	size_t rem;
	uint16_t size;

	if (*off >= rec->trailers_len)
		return *off == rec->trailers_len ? 0 : -1;
	rem = rec->trailers_len - *off;
	if (rem < KMT_TRAILER_HDR || !rec->trailers)
		return -1;
	size = get16(rec->trailers + *off);
	if (size < KMT_TRAILER_HDR || size > rem)
		return -1;
	t->size = size;
	t->id = rec->trailers[*off + 2];
	t->data = rec->trailers + *off + KMT_TRAILER_HDR;
	t->data_len = size - KMT_TRAILER_HDR;
	*off += size;
	return 1;
}

enum kmt_status kmt_next(const void *buf, size_t len, struct kmt_record *rec,
			 size_t *consumed)
{
	const uint8_t *p = buf;
	struct kmt_trailer t;
	size_t mand, off = 0;
	int ret;

	memset(rec, 0, sizeof(*rec));
	*consumed = 0;
	if (len < KMT_OFF_SEQ)
		return KMT_INCOMPLETE;
	rec->event_id = p[KMT_OFF_EVENT_ID];
	rec->type_id = p[KMT_OFF_TYPE_ID];
	rec->size = get16(p + KMT_OFF_SIZE);
	if (rec->size < KMT_CORE_SIZE) {
		/* Nothing tells where the next record starts. */
		if (len >= KMT_OFF_CALL_SITE)
			rec->seq = (int32_t)get32(p + KMT_OFF_SEQ);
		rec->err = KMT_E_SHORT;
		return KMT_MALFORMED;
	}
	if (len < rec->size)
		return KMT_INCOMPLETE;

	rec->seq = (int32_t)get32(p + KMT_OFF_SEQ);
	rec->call_site = get64(p + KMT_OFF_CALL_SITE);
	rec->ptr = get64(p + KMT_OFF_PTR);
	*consumed = rec->size;
	if (!kmt_known(rec)) {
		/* A newer kernel's record: its size is all we may rely on. */
		rec->unknown = true;
		return KMT_OK;
	}
	mand = kmt_mandatory(rec);
	if (rec->size < mand) {
		rec->err = KMT_E_ALLOC_SHORT;
		return KMT_MALFORMED;
	}
	if (rec->event_id == KMT_EVENT_ALLOC) {
		rec->bytes_req = get64(p + KMT_OFF_BYTES_REQ);
		rec->bytes_alloc = get64(p + KMT_OFF_BYTES_ALLOC);
		rec->gfp_flags = get32(p + KMT_OFF_GFP);
		rec->target = (int32_t)get32(p + KMT_OFF_TARGET);
	}
	rec->trailers = p + mand;
	rec->trailers_len = rec->size - mand;
	while ((ret = kmt_trailer_next(rec, &off, &t)) > 0)
		rec->nr_trailers++;
	if (ret < 0) {
		rec->err = KMT_E_TRAILER;
		return KMT_MALFORMED;
	}
	return KMT_OK;
}

size_t kmt_encode(const struct kmt_record *rec, void *buf, size_t len)
{
	uint8_t *p = buf;
	size_t n = rec->event_id == KMT_EVENT_ALLOC ? KMT_ALLOC_SIZE :
						      KMT_CORE_SIZE;
	uint32_t seq = (uint32_t)rec->seq, target = (uint32_t)rec->target;

	if (len < n)
		return 0;
	p[KMT_OFF_EVENT_ID] = rec->event_id;
	p[KMT_OFF_TYPE_ID] = rec->type_id;
	memcpy(p + KMT_OFF_SIZE, &rec->size, 2);
	memcpy(p + KMT_OFF_SEQ, &seq, 4);
	memcpy(p + KMT_OFF_CALL_SITE, &rec->call_site, 8);
	memcpy(p + KMT_OFF_PTR, &rec->ptr, 8);
	if (n == KMT_ALLOC_SIZE) {
		memcpy(p + KMT_OFF_BYTES_REQ, &rec->bytes_req, 8);
		memcpy(p + KMT_OFF_BYTES_ALLOC, &rec->bytes_alloc, 8);
		memcpy(p + KMT_OFF_GFP, &rec->gfp_flags, 4);
		memcpy(p + KMT_OFF_TARGET, &target, 4);
	}
	return n;
}

unsigned int kmt_validate(const struct kmt_record *rec)
{
	unsigned int v = 0;
	struct kmt_trailer t;
	size_t mand, off = 0;
	int ret;

	if (rec->event_id >= KMT_NR_EVENTS)
		v |= KMT_V_EVENT_ID;
	if (rec->type_id >= KMT_NR_TYPES)
		v |= KMT_V_TYPE_ID;
	if (v) {
		if (rec->size < KMT_CORE_SIZE)
			v |= KMT_V_SIZE;
		return v;
	}
	mand = kmt_mandatory(rec);
	if (rec->size < mand) {
		v |= KMT_V_SIZE;
	} else {
		if (rec->trailers_len != rec->size - mand)
			v |= KMT_V_TRAILER;
		while ((ret = kmt_trailer_next(rec, &off, &t)) > 0)
			;
		if (ret < 0)
			v |= KMT_V_TRAILER;
	}
	if (rec->call_site < KMT_KERNEL_MIN)
		v |= KMT_V_CALL_SITE;
	if (rec->ptr && rec->ptr < KMT_KERNEL_MIN)
		v |= KMT_V_PTR;
	if (rec->event_id == KMT_EVENT_ALLOC) {
		if (!rec->bytes_req)
			v |= KMT_V_BYTES_REQ;
		if (rec->bytes_alloc < rec->bytes_req)
			v |= KMT_V_BYTES_ALLOC;
	}
	return v;
}

const char *kmt_violation_name(unsigned int bit)
{
	switch (bit) {
	case KMT_V_EVENT_ID:	return "unknown event id";
	case KMT_V_TYPE_ID:	return "unknown type id";
	case KMT_V_SIZE:	return "event_size too small for the event";
	case KMT_V_TRAILER:	return "malformed feature trailer";
	case KMT_V_CALL_SITE:	return "call_site not a kernel address";
	case KMT_V_PTR:		return "ptr not NULL nor a kernel address";
	case KMT_V_BYTES_REQ:	return "bytes_req is 0";
	case KMT_V_BYTES_ALLOC:	return "bytes_alloc < bytes_req";
	}
	return "?";
}

const char *kmt_err_name(unsigned int err)
{
	switch (err) {
	case KMT_E_NONE:	return "ok";
	case KMT_E_SHORT:	return "event_size < 24, stream cannot be framed";
	case KMT_E_ALLOC_SHORT:	return "alloc record with event_size < 48";
	case KMT_E_TRAILER:	return "malformed feature trailer";
	}
	return "?";
}

const char *kmt_type_name(unsigned int type_id)
{
	switch (type_id) {
	case KMT_TYPE_KMALLOC:	return "kmalloc";
	case KMT_TYPE_CACHE:	return "kmem_cache";
	case KMT_TYPE_PAGES:	return "pages";
	}
	return "unknown";
}

/*
 * Stable bottom-up merge sort by key.  Streams are mostly in order
 * already, so runs that are in order are not merged again.
 */
static void merge_runs(struct kmt_merged *a, struct kmt_merged *tmp,
		       size_t lo, size_t mid, size_t hi)
{
	size_t i = lo, j = mid, k = lo;

	if (a[mid - 1].key <= a[mid].key)
		return;
	while (i < mid && j < hi)
		tmp[k++] = a[j].key < a[i].key ? a[j++] : a[i++];
	while (i < mid)
		tmp[k++] = a[i++];
	while (j < hi)
		tmp[k++] = a[j++];
	memcpy(a + lo, tmp + lo, (hi - lo) * sizeof(*a));
}

static void sort_merged(struct kmt_merged *a, struct kmt_merged *tmp,
			size_t n)
{
	size_t w, lo;

	for (w = 1; w < n; w *= 2)
		for (lo = 0; lo + w < n; lo += 2 * w)
			merge_runs(a, tmp, lo, lo + w,
				   lo + 2 * w < n ? lo + 2 * w : n);
}

int kmt_merge(const struct kmt_stream *streams, size_t nr,
	      struct kmt_merged **out, size_t *nr_out)
{
	struct kmt_merged *m, *tmp;
	int32_t ref_seq = 0, prev;
	int64_t ref_key = 0, key;
	bool have_ref = false;
	size_t s, i, total = 0, n = 0;

	*out = NULL;
	*nr_out = 0;
	for (s = 0; s < nr; s++) {
		if (streams[s].nr > SIZE_MAX / sizeof(*m) - total)
			return -ENOMEM;
		total += streams[s].nr;
	}
	m = malloc(total ? total * sizeof(*m) : 1);
	tmp = malloc(total ? total * sizeof(*m) : 1);
	if (!m || !tmp) {
		free(m);
		free(tmp);
		return -ENOMEM;
	}
	for (s = 0; s < nr; s++) {
		const struct kmt_record *r = streams[s].recs;

		if (!streams[s].nr)
			continue;
		if (!have_ref) {
			/* Keys equal seqs until the first wraparound. */
			ref_seq = r[0].seq;
			ref_key = r[0].seq;
			have_ref = true;
		}
		/*
		 * Each stream is placed by its first record, then follows
		 * its own neighbours, so it may wrap any number of times.
		 */
		key = ref_key + kmt_seq_diff(r[0].seq, ref_seq);
		prev = r[0].seq;
		for (i = 0; i < streams[s].nr; i++) {
			key += kmt_seq_diff(r[i].seq, prev);
			prev = r[i].seq;
			m[n].rec = &r[i];
			m[n].key = key;
			n++;
		}
	}
	sort_merged(m, tmp, n);
	free(tmp);
	*out = m;
	*nr_out = n;
	return 0;
}

void kmt_seq_scan(const struct kmt_merged *m, size_t nr,
		  struct kmt_seq_stats *st, const struct kmt_seq_ops *ops)
{
	size_t i, run = 0;
	int64_t d;

	memset(st, 0, sizeof(*st));
	st->records = nr;
	if (!nr)
		return;
	st->first = m[0].rec->seq;
	st->first_key = m[0].key;
	st->last = m[nr - 1].rec->seq;
	st->last_key = m[nr - 1].key;
	for (i = 1; i < nr; i++) {
		d = m[i].key - m[i - 1].key;
		if (!d) {
			st->duplicates++;
			if (ops && ops->dup)
				ops->dup(ops->ctx, &m[run], &m[i]);
			continue;
		}
		run = i;
		if (d > 1) {
			st->missing += (uint64_t)(d - 1);
			if (ops && ops->hole)
				ops->hole(ops->ctx, &m[i - 1],
					  (uint64_t)(d - 1));
		}
	}
}

int kmt_abi_check(const char *text, size_t len, unsigned long *major)
{
	unsigned long v = 0;
	size_t i = 0, start;

	while (i < len && text[i] >= '0' && text[i] <= '9') {
		unsigned int d = text[i++] - '0';

		v = v > (ULONG_MAX - d) / 10 ? ULONG_MAX : v * 10 + d;
	}
	if (!i)
		return -1;
	*major = v;
	/* An optional ".minor"; a newer minor is still readable. */
	if (i < len && text[i] == '.') {
		start = ++i;
		while (i < len && text[i] >= '0' && text[i] <= '9')
			i++;
		if (i == start)
			return -1;
	}
	while (i < len && (text[i] == '\n' || text[i] == ' ' ||
			   text[i] == '\t' || text[i] == '\r'))
		i++;
	/* The caller may count a terminating NUL; nothing else may follow. */
	if (i < len && !(text[i] == '\0' && i + 1 == len))
		return -1;
	if (!v)
		return -1;	/* there never was a version 0 */
	return v > KMT_ABI_VERSION ? 1 : 0;
}
