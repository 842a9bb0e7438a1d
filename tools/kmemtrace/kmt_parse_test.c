// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests for the kmemtrace reader: decoding, feature trailers,
 * framing of unknown, truncated and malformed records, each validation
 * rule, the merge across seq wraparound with its duplicate and missing
 * counts, report aggregation, kallsyms lookup and the ABI version check.
 * One line per check: "ok NAME" or "not ok NAME".
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kmt_abi.h"
#include "kmt_report.h"

static int failures;

static void check(const char *name, int cond)
{
	printf("%s %s\n", cond ? "ok" : "not ok", name);
	if (!cond)
		failures++;
}

#define SITE_A	0xffffffff81234560ULL
#define SITE_B	0xffffffff81234780ULL
#define SITE_C	0xffffffffc0001010ULL
#define PTR(n)	(0xffff888000000000ULL + (uint64_t)(n) * 0x100)

static size_t put_alloc(uint8_t *buf, unsigned int type, int32_t seq,
			uint64_t site, uint64_t ptr, uint64_t req,
			uint64_t alloc)
{
	struct kmt_record r = {
		.event_id = KMT_EVENT_ALLOC, .type_id = type,
		.size = KMT_ALLOC_SIZE, .seq = seq, .call_site = site,
		.ptr = ptr, .bytes_req = req, .bytes_alloc = alloc,
		.gfp_flags = 0xcc0, .target = -1,
	};

	return kmt_encode(&r, buf, KMT_ALLOC_SIZE);
}

static size_t put_free(uint8_t *buf, unsigned int type, int32_t seq,
		       uint64_t site, uint64_t ptr)
{
	struct kmt_record r = {
		.event_id = KMT_EVENT_FREE, .type_id = type,
		.size = KMT_CORE_SIZE, .seq = seq, .call_site = site,
		.ptr = ptr,
	};

	return kmt_encode(&r, buf, KMT_CORE_SIZE);
}

/* Append a trailer to the record at @rec (@len bytes long so far). */
static size_t put_trailer(uint8_t *rec, size_t len, uint8_t id,
			  uint16_t size, const void *data, size_t data_len)
{
	uint16_t total;

	memcpy(rec + len, &size, 2);
	rec[len + 2] = id;
	memcpy(rec + len + 3, data, data_len);
	len += 3 + data_len;
	total = (uint16_t)len;
	memcpy(rec + KMT_OFF_SIZE, &total, 2);
	return len;
}

static void set_size(uint8_t *rec, uint16_t size)
{
	memcpy(rec + KMT_OFF_SIZE, &size, 2);
}

static void test_decode(void)
{
	uint8_t buf[256];
	struct kmt_record r;
	size_t n, used;
	enum kmt_status st;

	n = put_alloc(buf, KMT_TYPE_CACHE, 42, SITE_A, PTR(1), 100, 128);
	st = kmt_next(buf, n, &r, &used);
	check("decode_alloc_status", st == KMT_OK && used == KMT_ALLOC_SIZE);
	check("decode_alloc_fields",
	      r.event_id == KMT_EVENT_ALLOC && r.type_id == KMT_TYPE_CACHE &&
	      r.size == 48 && r.seq == 42 && r.call_site == SITE_A &&
	      r.ptr == PTR(1) && r.bytes_req == 100 && r.bytes_alloc == 128 &&
	      r.gfp_flags == 0xcc0 && r.target == -1 && !r.unknown &&
	      !r.err && !r.nr_trailers && !r.trailers_len);
	check("decode_alloc_valid", kmt_validate(&r) == 0);

	n = put_free(buf, KMT_TYPE_PAGES, -5, SITE_B, PTR(2));
	st = kmt_next(buf, n, &r, &used);
	check("decode_free",
	      st == KMT_OK && used == 24 && r.event_id == KMT_EVENT_FREE &&
	      r.type_id == KMT_TYPE_PAGES && r.seq == -5 &&
	      r.call_site == SITE_B && r.ptr == PTR(2) && !r.bytes_req &&
	      !r.bytes_alloc && !r.unknown && kmt_validate(&r) == 0);

	/* Packed: a record at an odd offset decodes the same. */
	n = put_alloc(buf + 1, KMT_TYPE_KMALLOC, 7, SITE_A, PTR(3), 8, 8);
	st = kmt_next(buf + 1, n, &r, &used);
	check("decode_unaligned", st == KMT_OK && r.seq == 7 &&
	      r.ptr == PTR(3) && r.bytes_alloc == 8);

	/* Two records back to back. */
	n = put_alloc(buf, KMT_TYPE_KMALLOC, 1, SITE_A, PTR(4), 8, 16);
	n += put_free(buf + n, KMT_TYPE_KMALLOC, 2, SITE_B, PTR(4));
	st = kmt_next(buf, n, &r, &used);
	check("decode_stream_first", st == KMT_OK && used == 48 && r.seq == 1);
	st = kmt_next(buf + used, n - used, &r, &used);
	check("decode_stream_second", st == KMT_OK && used == 24 &&
	      r.seq == 2 && r.event_id == KMT_EVENT_FREE);
}

static void test_trailers(void)
{
	static const uint8_t four[4] = { 1, 2, 3, 4 };
	uint8_t buf[256];
	struct kmt_record r;
	struct kmt_trailer t;
	size_t n, used, off = 0, m;
	enum kmt_status st;
	int ret1, ret2, ret3;

	/* An empty trailer, then one of an unknown id with 4 bytes. */
	n = put_alloc(buf, KMT_TYPE_KMALLOC, 10, SITE_A, PTR(1), 8, 8);
	n = put_trailer(buf, n, 1, 3, "", 0);
	n = put_trailer(buf, n, 200, 7, four, 4);
	m = n + put_free(buf + n, KMT_TYPE_KMALLOC, 11, SITE_A, PTR(1));
	st = kmt_next(buf, m, &r, &used);
	check("trailer_record_size", st == KMT_OK && used == 58 &&
	      r.size == 58 && r.trailers_len == 10 && r.nr_trailers == 2);
	ret1 = kmt_trailer_next(&r, &off, &t);
	check("trailer_first", ret1 == 1 && t.id == 1 && t.size == 3 &&
	      t.data_len == 0 && off == 3);
	ret2 = kmt_trailer_next(&r, &off, &t);
	check("trailer_unknown_id_skipped", ret2 == 1 && t.id == 200 &&
	      t.size == 7 && t.data_len == 4 && !memcmp(t.data, four, 4));
	ret3 = kmt_trailer_next(&r, &off, &t);
	check("trailer_end", ret3 == 0 && off == 10);
	check("trailer_record_valid", kmt_validate(&r) == 0);
	st = kmt_next(buf + used, m - used, &r, &used);
	check("trailer_next_record_framed", st == KMT_OK && r.seq == 11);

	/* Trailers after a free's core. */
	n = put_free(buf, KMT_TYPE_CACHE, 12, SITE_A, PTR(1));
	n = put_trailer(buf, n, 3, 5, four, 2);
	st = kmt_next(buf, n, &r, &used);
	check("trailer_on_free", st == KMT_OK && used == 29 &&
	      r.nr_trailers == 1 && kmt_validate(&r) == 0);

	/* feature_size < 3. */
	n = put_alloc(buf, KMT_TYPE_KMALLOC, 13, SITE_A, PTR(1), 8, 8);
	n = put_trailer(buf, n, 1, 2, four, 1);
	m = n + put_free(buf + n, KMT_TYPE_KMALLOC, 14, SITE_A, PTR(1));
	st = kmt_next(buf, m, &r, &used);
	check("trailer_size_below_3", st == KMT_MALFORMED &&
	      r.err == KMT_E_TRAILER && used == n &&
	      (kmt_validate(&r) & KMT_V_TRAILER));
	st = kmt_next(buf + used, m - used, &r, &used);
	check("trailer_malformed_resumes", st == KMT_OK && r.seq == 14);

	/* A size of 2 that would still frame the next trailer exactly. */
	n = put_alloc(buf, KMT_TYPE_KMALLOC, 13, SITE_A, PTR(1), 8, 8);
	memcpy(buf + n, "\x02\x00\x05\x00\x09\xaa\xbb", 7);
	set_size(buf, n + 7);
	st = kmt_next(buf, n + 7, &r, &used);
	check("trailer_size_2_framing", st == KMT_MALFORMED &&
	      r.err == KMT_E_TRAILER && used == n + 7);
	/* A size of 0 must not loop in place. */
	memcpy(buf + n, "\x00\x00\x01", 3);
	set_size(buf, n + 3);
	st = kmt_next(buf, n + 3, &r, &used);
	check("trailer_size_0", st == KMT_MALFORMED && r.err == KMT_E_TRAILER);

	/* feature_size running past event_size. */
	n = put_alloc(buf, KMT_TYPE_KMALLOC, 15, SITE_A, PTR(1), 8, 8);
	n = put_trailer(buf, n, 1, 9, four, 4);
	st = kmt_next(buf, n + 16, &r, &used);
	check("trailer_past_event_size", st == KMT_MALFORMED &&
	      r.err == KMT_E_TRAILER && used == n);

	n = put_alloc(buf, KMT_TYPE_KMALLOC, 15, SITE_A, PTR(1), 8, 8);
	n = put_trailer(buf, n, 1, 8, four, 4);
	st = kmt_next(buf, n + 16, &r, &used);
	check("trailer_one_past_event_size", st == KMT_MALFORMED &&
	      r.err == KMT_E_TRAILER && used == n);

	/* One or two bytes left: not even a trailer header. */
	n = put_alloc(buf, KMT_TYPE_KMALLOC, 16, SITE_A, PTR(1), 8, 8);
	set_size(buf, 50);
	buf[48] = 3;
	buf[49] = 0;
	st = kmt_next(buf, 50, &r, &used);
	check("trailer_header_cut", st == KMT_MALFORMED &&
	      r.err == KMT_E_TRAILER && used == 50);
}

static void test_framing(void)
{
	uint8_t buf[256], carry[256];
	struct kmt_record r;
	size_t n, used, cut, clen, off, got;
	enum kmt_status st;
	int32_t seqs[8];
	int i, ok;

	/* An unknown event id is skipped by its size. */
	memset(buf, 0xab, sizeof(buf));
	buf[0] = 9;
	buf[1] = 0;
	set_size(buf, 40);
	n = 40 + put_free(buf + 40, KMT_TYPE_KMALLOC, 3, SITE_A, PTR(1));
	st = kmt_next(buf, n, &r, &used);
	check("unknown_event_skipped", st == KMT_OK && r.unknown &&
	      used == 40 && !r.nr_trailers &&
	      (kmt_validate(&r) & KMT_V_UNKNOWN_IDS) == KMT_V_EVENT_ID);
	st = kmt_next(buf + used, n - used, &r, &used);
	check("unknown_event_next_framed", st == KMT_OK && r.seq == 3);

	/* An unknown type id too, even shorter than an alloc. */
	buf[0] = KMT_EVENT_ALLOC;
	buf[1] = 7;
	set_size(buf, 24);
	st = kmt_next(buf, 24, &r, &used);
	check("unknown_type_skipped", st == KMT_OK && r.unknown &&
	      used == 24 &&
	      (kmt_validate(&r) & KMT_V_UNKNOWN_IDS) == KMT_V_TYPE_ID);

	/* A cut record needs more bytes, wherever the cut falls. */
	n = put_alloc(buf, KMT_TYPE_KMALLOC, 4, SITE_A, PTR(1), 8, 8);
	ok = 1;
	for (cut = 0; cut < n; cut++) {
		st = kmt_next(buf, cut, &r, &used);
		if (st != KMT_INCOMPLETE || used)
			ok = 0;
	}
	check("truncated_incomplete", ok);

	/* event_size below the core: nothing can be framed after it. */
	set_size(buf, 23);
	st = kmt_next(buf, n, &r, &used);
	check("size_below_24_malformed", st == KMT_MALFORMED &&
	      r.err == KMT_E_SHORT && used == 0 && r.seq == 4);
	set_size(buf, 0);
	st = kmt_next(buf, 4, &r, &used);
	check("size_0_malformed", st == KMT_MALFORMED && used == 0);

	/* A known alloc shorter than 48 bytes keeps its framing. */
	set_size(buf, 40);
	st = kmt_next(buf, n, &r, &used);
	check("alloc_below_48_malformed", st == KMT_MALFORMED &&
	      r.err == KMT_E_ALLOC_SHORT && used == 40);

	/*
	 * Carry a partial record across reads: split a stream at every
	 * offset and the same records come out.
	 */
	n = put_alloc(buf, KMT_TYPE_KMALLOC, 20, SITE_A, PTR(1), 8, 8);
	n = put_trailer(buf, n, 4, 6, "xyz", 3);
	n += put_free(buf + n, KMT_TYPE_KMALLOC, 21, SITE_A, PTR(1));
	n += put_alloc(buf + n, KMT_TYPE_PAGES, 22, SITE_B, PTR(2), 4096,
		       4096);
	ok = 1;
	for (cut = 0; cut <= n; cut++) {
		const uint8_t *parts[2] = { buf, buf + cut };
		size_t lens[2] = { cut, n - cut };

		clen = 0;
		got = 0;
		for (i = 0; i < 2; i++) {
			memcpy(carry + clen, parts[i], lens[i]);
			clen += lens[i];
			off = 0;
			while (kmt_next(carry + off, clen - off, &r, &used) ==
			       KMT_OK) {
				if (got < 8)
					seqs[got] = r.seq;
				got++;
				off += used;
			}
			memmove(carry, carry + off, clen - off);
			clen -= off;
		}
		if (got != 3 || clen || seqs[0] != 20 || seqs[1] != 21 ||
		    seqs[2] != 22)
			ok = 0;
	}
	check("carry_across_reads", ok);
}

static struct kmt_record good_alloc(void)
{
	struct kmt_record r = {
		.event_id = KMT_EVENT_ALLOC, .type_id = KMT_TYPE_KMALLOC,
		.size = KMT_ALLOC_SIZE, .seq = 99, .call_site = SITE_A,
		.ptr = PTR(1), .bytes_req = 10, .bytes_alloc = 16,
	};

	return r;
}

static void test_validate(void)
{
	struct kmt_record r;

	r = good_alloc();
	check("validate_ok", kmt_validate(&r) == 0);
	r.ptr = 0;
	check("validate_null_ptr_ok", kmt_validate(&r) == 0);
	r = good_alloc();
	r.call_site = 0x401000;
	check("validate_user_call_site", kmt_validate(&r) == KMT_V_CALL_SITE);
	r.call_site = KMT_KERNEL_MIN - 1;
	check("validate_call_site_just_below", kmt_validate(&r) ==
	      KMT_V_CALL_SITE);
	r.call_site = KMT_KERNEL_MIN;
	check("validate_call_site_lowest", kmt_validate(&r) == 0);
	r = good_alloc();
	r.ptr = 0x7fff00001000ULL;
	check("validate_user_ptr", kmt_validate(&r) == KMT_V_PTR);
	r = good_alloc();
	r.bytes_req = 0;
	check("validate_bytes_req_zero", kmt_validate(&r) == KMT_V_BYTES_REQ);
	r = good_alloc();
	r.bytes_alloc = 9;
	check("validate_alloc_below_req", kmt_validate(&r) ==
	      KMT_V_BYTES_ALLOC);
	r.bytes_alloc = 10;
	check("validate_alloc_equal_req", kmt_validate(&r) == 0);
	r = good_alloc();
	r.size = 40;
	check("validate_alloc_size", kmt_validate(&r) == KMT_V_SIZE);
	r = good_alloc();
	r.event_id = KMT_EVENT_FREE;
	r.size = 20;
	check("validate_free_size", kmt_validate(&r) == KMT_V_SIZE);
	r = good_alloc();
	r.size = 52;	/* claims trailers it does not carry */
	check("validate_trailer_len", kmt_validate(&r) == KMT_V_TRAILER);
	r = good_alloc();
	r.event_id = 2;
	check("validate_unknown_event", kmt_validate(&r) == KMT_V_EVENT_ID);
	r = good_alloc();
	r.type_id = 3;
	check("validate_unknown_type", kmt_validate(&r) == KMT_V_TYPE_ID);
	/* A free has no byte counts to check. */
	r = good_alloc();
	r.event_id = KMT_EVENT_FREE;
	r.size = KMT_CORE_SIZE;
	r.bytes_req = 0;
	r.bytes_alloc = 0;
	check("validate_free_ok", kmt_validate(&r) == 0);
	/* Several rules at once are all reported. */
	r = good_alloc();
	r.call_site = 1;
	r.ptr = 2;
	r.bytes_req = 0;
	check("validate_several", kmt_validate(&r) ==
	      (KMT_V_CALL_SITE | KMT_V_PTR | KMT_V_BYTES_REQ));
	check("violation_names", strcmp(kmt_violation_name(KMT_V_PTR), "?") &&
	      !strcmp(kmt_violation_name(1 << 20), "?"));
}

static void mkrecs(struct kmt_record *v, const int32_t *seqs, size_t n,
		   int cpu)
{
	size_t i;

	for (i = 0; i < n; i++) {
		memset(&v[i], 0, sizeof(v[i]));
		v[i].event_id = KMT_EVENT_FREE;
		v[i].size = KMT_CORE_SIZE;
		v[i].seq = seqs[i];
		v[i].call_site = SITE_A;
		v[i].cpu = cpu;
	}
}

struct scan_log {
	int		holes;
	uint64_t	hole_total;
	int32_t		hole_after;
	int		dups;
	int32_t		dup_seq;
	int		dup_cpus[2];
};

static void log_hole(void *p, const struct kmt_merged *after, uint64_t count)
{
	struct scan_log *l = p;

	l->holes++;
	l->hole_total += count;
	l->hole_after = after->rec->seq;
}

static void log_dup(void *p, const struct kmt_merged *first,
		    const struct kmt_merged *again)
{
	struct scan_log *l = p;

	l->dups++;
	l->dup_seq = again->rec->seq;
	l->dup_cpus[0] = first->rec->cpu;
	l->dup_cpus[1] = again->rec->cpu;
}

/* Merge two arrays of seqs; returns the merged seqs in @out. */
static int merge2(const int32_t *a, size_t na, const int32_t *b, size_t nb,
		  int32_t *out, struct kmt_seq_stats *st, struct scan_log *l)
{
	struct kmt_record ra[16], rb[16];
	struct kmt_stream s[2] = { { ra, na }, { rb, nb } };
	struct kmt_seq_ops ops = { log_hole, log_dup, l };
	struct kmt_merged *m;
	size_t n, i;

	mkrecs(ra, a, na, 0);
	mkrecs(rb, b, nb, 1);
	memset(l, 0, sizeof(*l));
	if (kmt_merge(s, 2, &m, &n) || n != na + nb)
		return -1;
	for (i = 0; i < n; i++) {
		out[i] = m[i].rec->seq;
		if (i && m[i].key < m[i - 1].key)
			n = 0;	/* fails the caller's comparison */
	}
	kmt_seq_scan(m, na + nb, st, &ops);
	free(m);
	return n == na + nb ? 0 : -1;
}

static void test_merge(void)
{
	static const int32_t a1[] = { 1, 3, 4, 7 }, b1[] = { 2, 5, 6, 8 };
	static const int32_t x1[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	static const int32_t a2[] = { 0x7ffffffe, INT32_MIN, INT32_MIN + 3 };
	static const int32_t b2[] = { 0x7fffffff, INT32_MIN + 1,
				      INT32_MIN + 2 };
	static const int32_t x2[] = { 0x7ffffffe, 0x7fffffff, INT32_MIN,
				      INT32_MIN + 1, INT32_MIN + 2,
				      INT32_MIN + 3 };
	static const int32_t a3[] = { -2, 0 }, b3[] = { -1, 1 };
	static const int32_t x3[] = { -2, -1, 0, 1 };
	static const int32_t a4[] = { 10, 11, 12 }, b4[] = { 12, 13 };
	static const int32_t a5[] = { 10, 11, 15 }, b5[] = { 16, 20 };
	static const int32_t a6[] = { 0x7ffffffe }, b6[] = { INT32_MIN + 1 };
	static const int32_t a7[] = { 5, 3, 4, 6 }, b7[] = { 0 };
	static const int32_t x7[] = { 3, 4, 5, 6 };
	struct kmt_seq_stats st;
	struct scan_log l;
	int32_t out[16];
	struct kmt_merged *m = (void *)1;
	size_t n = 1;

	check("merge_interleaved",
	      !merge2(a1, 4, b1, 4, out, &st, &l) &&
	      !memcmp(out, x1, sizeof(x1)) && st.missing == 0 &&
	      st.duplicates == 0 && st.first == 1 && st.last == 8);
	check("merge_wraparound",
	      !merge2(a2, 3, b2, 3, out, &st, &l) &&
	      !memcmp(out, x2, sizeof(x2)) && !st.missing && !st.duplicates &&
	      st.first == 0x7ffffffe && st.last == INT32_MIN + 3 &&
	      st.last_key - st.first_key == 5);
	check("merge_through_zero",
	      !merge2(a3, 2, b3, 2, out, &st, &l) &&
	      !memcmp(out, x3, sizeof(x3)) && !st.missing);
	check("merge_duplicate",
	      !merge2(a4, 3, b4, 2, out, &st, &l) && st.duplicates == 1 &&
	      !st.missing && l.dups == 1 && l.dup_seq == 12 &&
	      l.dup_cpus[0] == 0 && l.dup_cpus[1] == 1);
	check("merge_missing",
	      !merge2(a5, 3, b5, 2, out, &st, &l) && st.missing == 3 + 3 &&
	      l.holes == 2 && l.hole_total == 6 && l.hole_after == 16 &&
	      !st.duplicates);
	check("merge_missing_across_wrap",
	      !merge2(a6, 1, b6, 1, out, &st, &l) && st.missing == 2 &&
	      l.hole_after == 0x7ffffffe && st.first == 0x7ffffffe);
	/* Out of order within one CPU (an interrupt took a later number). */
	check("merge_unordered_stream",
	      !merge2(a7, 4, b7, 0, out, &st, &l) &&
	      !memcmp(out, x7, sizeof(x7)) && !st.missing);
	check("merge_empty", !kmt_merge(NULL, 0, &m, &n) && n == 0 && m);
	kmt_seq_scan(m, 0, &st, NULL);
	check("scan_empty", st.records == 0 && !st.missing);
	free(m);
}

static void report_feed(struct kmt_report *r, const struct kmt_record *v,
			size_t n, int *err)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (kmt_report_add(r, &v[i]))
			*err = 1;
}

static struct kmt_record ra(unsigned int type, uint64_t site, uint64_t ptr,
			    uint64_t req, uint64_t alloc)
{
	struct kmt_record r = {
		.event_id = KMT_EVENT_ALLOC, .type_id = type,
		.size = KMT_ALLOC_SIZE, .call_site = site, .ptr = ptr,
		.bytes_req = req, .bytes_alloc = alloc,
	};

	return r;
}

static struct kmt_record rf(unsigned int type, uint64_t ptr)
{
	struct kmt_record r = {
		.event_id = KMT_EVENT_FREE, .type_id = type,
		.size = KMT_CORE_SIZE, .call_site = SITE_C, .ptr = ptr,
	};

	return r;
}

static void test_report(void)
{
	struct kmt_record v[32];
	const struct kmt_site *top[8];
	struct kmt_report r;
	size_t n = 0, k;
	int err = 0;

	/* Site A: 3 kmallocs of 100 in 128, one freed, one failed. */
	v[n++] = ra(KMT_TYPE_KMALLOC, SITE_A, PTR(1), 100, 128);
	v[n++] = ra(KMT_TYPE_KMALLOC, SITE_A, PTR(2), 100, 128);
	v[n++] = ra(KMT_TYPE_KMALLOC, SITE_A, 0, 100, 128);
	v[n++] = rf(KMT_TYPE_KMALLOC, PTR(1));
	/* Site B: one 2-page allocation, exact, freed. */
	v[n++] = ra(KMT_TYPE_PAGES, SITE_B, PTR(16), 8192, 8192);
	v[n++] = rf(KMT_TYPE_PAGES, PTR(16));
	/* Site C: 5 cache objects of 24 in 32; two never freed. */
	for (k = 0; k < 5; k++)
		v[n++] = ra(KMT_TYPE_CACHE, SITE_C, PTR(32 + k), 24, 32);
	v[n++] = rf(KMT_TYPE_CACHE, PTR(32));
	v[n++] = rf(KMT_TYPE_CACHE, PTR(33));
	/* kfree() of a cache object: matched, counted as a type mismatch. */
	v[n++] = rf(KMT_TYPE_KMALLOC, PTR(34));
	/* Frees of NULL and of memory from before the run. */
	v[n++] = rf(KMT_TYPE_KMALLOC, 0);
	v[n++] = rf(KMT_TYPE_KMALLOC, PTR(99));
	/* PTR(2) allocated again by B without a free: A's one is replaced. */
	v[n++] = ra(KMT_TYPE_KMALLOC, SITE_B, PTR(2), 50, 64);
	/* Skipped: invalid and unknown. */
	v[n] = ra(KMT_TYPE_KMALLOC, SITE_A, PTR(50), 0, 8);
	n++;
	v[n] = ra(KMT_TYPE_KMALLOC, SITE_A, PTR(51), 8, 8);
	v[n].unknown = true;
	v[n++].event_id = 5;

	kmt_report_init(&r);
	report_feed(&r, v, n, &err);
	kmt_report_finish(&r);
	check("report_no_error", !err && r.records == n && r.skipped == 2);
	check("report_per_type",
	      r.type[KMT_TYPE_KMALLOC].allocs == 4 &&
	      r.type[KMT_TYPE_KMALLOC].failed == 1 &&
	      r.type[KMT_TYPE_KMALLOC].bytes_req == 250 &&
	      r.type[KMT_TYPE_KMALLOC].bytes_alloc == 320 &&
	      r.type[KMT_TYPE_KMALLOC].frees == 4 &&
	      r.type[KMT_TYPE_KMALLOC].null_frees == 1 &&
	      r.type[KMT_TYPE_PAGES].allocs == 1 &&
	      r.type[KMT_TYPE_PAGES].frees == 1 &&
	      r.type[KMT_TYPE_CACHE].allocs == 5 &&
	      r.type[KMT_TYPE_CACHE].frees == 2 &&
	      r.type[KMT_TYPE_CACHE].bytes_alloc == 160);
	check("report_unmatched_replaced_mismatch",
	      r.unmatched_frees == 1 && r.replaced == 1 &&
	      r.type_mismatch == 1);
	/* Live: PTR(2) from B (64), PTR(35), PTR(36) from C (32 each). */
	check("report_never_freed", r.live == 3 && r.live_bytes == 128 &&
	      r.type[KMT_TYPE_CACHE].live == 2 &&
	      r.type[KMT_TYPE_KMALLOC].live == 1 &&
	      r.type[KMT_TYPE_KMALLOC].live_bytes == 64);
	k = kmt_report_top(&r, KMT_BY_BYTES, top, 8);
	check("report_top_bytes", k == 3 && top[0]->call_site == SITE_B &&
	      top[0]->bytes_alloc == 8256 && top[1]->call_site == SITE_A &&
	      top[1]->bytes_alloc == 256 && top[2]->call_site == SITE_C);
	k = kmt_report_top(&r, KMT_BY_COUNT, top, 2);
	check("report_top_count", k == 2 && top[0]->call_site == SITE_C &&
	      top[0]->allocs == 5 && top[1]->call_site == SITE_A &&
	      top[1]->allocs == 3 && top[1]->failed == 1);
	k = kmt_report_top(&r, KMT_BY_WASTE, top, 8);
	/* A: 2 * 28 = 56; C: 5 * 8 = 40; B: 14. */
	check("report_fragmentation", k == 3 &&
	      top[0]->call_site == SITE_A && kmt_site_waste(top[0]) == 56 &&
	      top[1]->call_site == SITE_C && kmt_site_waste(top[1]) == 40 &&
	      top[2]->call_site == SITE_B && kmt_site_waste(top[2]) == 14);
	k = kmt_report_top(&r, KMT_BY_LIVE, top, 8);
	/* B and C tie on 64 live bytes: more objects first. */
	check("report_top_live", k == 2 && top[0]->call_site == SITE_C &&
	      top[0]->live == 2 && top[0]->live_bytes == 64 &&
	      top[0]->freed == 3 && top[1]->call_site == SITE_B &&
	      top[1]->live == 1 && top[1]->live_bytes == 64);
	check("report_site_freed_replaced", top[1]->freed == 1 &&
	      r.sites[0].call_site == SITE_A && r.sites[0].freed == 1 &&
	      r.sites[0].replaced == 1 && r.sites[0].live == 0);
	kmt_report_free(&r);
}

/*
 * Slab objects and pages at one address: a new slab's page holds its
 * first object.  The classes stay apart even for records of both at one
 * ptr, allocated and freed alike (as kernels that recorded a large
 * kmalloc() also as its pages wrote them): no free goes unseen.
 */
static void test_report_classes(void)
{
	struct kmt_record v[8];
	struct kmt_report r;
	int err = 0;

	v[0] = ra(KMT_TYPE_KMALLOC, SITE_A, PTR(100), 12388, 16384);
	v[1] = ra(KMT_TYPE_PAGES, SITE_A, PTR(100), 16384, 16384);
	v[2] = rf(KMT_TYPE_KMALLOC, PTR(100));
	v[3] = rf(KMT_TYPE_PAGES, PTR(100));
	v[4] = ra(KMT_TYPE_PAGES, SITE_B, PTR(200), 4096, 4096);
	v[5] = ra(KMT_TYPE_CACHE, SITE_C, PTR(200), 24, 32);
	kmt_report_init(&r);
	report_feed(&r, v, 6, &err);
	kmt_report_finish(&r);
	check("report_both_classes_one_ptr", !err && !r.replaced &&
	      !r.unmatched_frees && !r.type_mismatch &&
	      r.sites[0].freed == 2 && !r.sites[0].live);
	check("report_slab_page_and_object", r.live == 2 &&
	      r.type[KMT_TYPE_PAGES].live == 1 &&
	      r.type[KMT_TYPE_CACHE].live == 1 && r.live_bytes == 4128);
	kmt_report_free(&r);
}

/* The live table against a plain array, through growth and deletions. */
static void test_report_table(void)
{
	static uint8_t model[4096];
	struct kmt_record rec;
	struct kmt_report r;
	uint64_t live = 0, x = 12345;
	int i, err = 0, slot;

	kmt_report_init(&r);
	for (i = 0; i < 200000; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		slot = (int)((x >> 33) % 4096);
		if ((x >> 20) & 1) {
			rec = ra(KMT_TYPE_KMALLOC, SITE_A + (slot & 7),
				 PTR(slot + 1), 8, 8);
			if (!model[slot])
				live++;
			model[slot] = 1;
		} else {
			rec = rf(KMT_TYPE_KMALLOC, PTR(slot + 1));
			if (model[slot])
				live--;
			model[slot] = 0;
		}
		if (kmt_report_add(&r, &rec))
			err = 1;
	}
	kmt_report_finish(&r);
	check("report_table_model", !err && r.live == live &&
	      r.live_tab[0].nr == live && r.nr_sites == 8);
	kmt_report_free(&r);
}

static const char kallsyms[] =
	"0000000000000000 A fixed_percpu_data\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T _text\n"
	"ffffffff81001000 t helper_fn\n"
	"ffffffff81001040 T __kmalloc_noprof\n"
	"ffffffff81001100 D some_data\n"
	"ffffffff81001200 W weak_fn\n"
	"garbage line\n"
	"ffffffff8100zz00 T bad_hex\n"
	"ffffffff81001300 T\n"
	"ffffffff81001400 T _etext\n"
	"ffffffffc0001000 t mod_fn\t[mymod]\n"
	"ffffffffc0001080 T mod_other\t[mymod]";

static const char hidden[] =
	"0000000000000000 T _stext\n"
	"0000000000000000 t f\t[m]\n";

static void test_syms(void)
{
	struct kmt_syms s;
	const struct kmt_sym *sym;
	uint64_t off = 0;
	char buf[128];
	int ret;

	ret = kmt_syms_parse(&s, kallsyms, sizeof(kallsyms) - 1);
	check("syms_parse", !ret && s.nr == 7 && !s.hidden);
	sym = kmt_syms_lookup(&s, 0xffffffff81001050ULL, &off);
	check("syms_lookup_inside", sym && !strcmp(sym->name,
	      "__kmalloc_noprof") && off == 0x10 && sym->size == 0x1c0);
	sym = kmt_syms_lookup(&s, 0xffffffff81001000ULL, &off);
	check("syms_lookup_exact", sym && !strcmp(sym->name, "helper_fn") &&
	      off == 0);
	sym = kmt_syms_lookup(&s, 0xffffffff81000010ULL, &off);
	check("syms_alias_one_name", sym && !strcmp(sym->name, "_stext"));
	check("syms_before_first", !kmt_syms_lookup(&s, 0xffffffff80000000ULL,
						    &off));
	check("syms_far_past", !kmt_syms_lookup(&s, 0xffffffffa0000000ULL,
						&off));
	kmt_syms_format(&s, 0xffffffff81001050ULL, buf, sizeof(buf));
	check("syms_format", !strcmp(buf, "__kmalloc_noprof+0x10/0x1c0"));
	kmt_syms_format(&s, 0xffffffffc0001004ULL, buf, sizeof(buf));
	check("syms_format_module", !strcmp(buf, "mod_fn+0x4/0x80 [mymod]"));
	kmt_syms_format(&s, 0xffffffffc0001090ULL, buf, sizeof(buf));
	check("syms_format_last", !strcmp(buf, "mod_other+0x10 [mymod]"));
	kmt_syms_format(&s, 0xffffffff80000000ULL, buf, sizeof(buf));
	check("syms_format_raw", !strcmp(buf, "0xffffffff80000000"));
	kmt_syms_format(&s, 0xffffffff81001050ULL, buf, 8);
	check("syms_format_short_buffer", !strcmp(buf, "__kmall"));
	kmt_syms_free(&s);

	ret = kmt_syms_parse(&s, hidden, strlen(hidden));
	check("syms_hidden", !ret && s.hidden && s.nr == 0);
	kmt_syms_format(&s, SITE_A, buf, sizeof(buf));
	check("syms_hidden_raw", !strcmp(buf, "0xffffffff81234560"));
	kmt_syms_free(&s);
	ret = kmt_syms_parse(&s, "", 0);
	check("syms_empty", !ret && s.nr == 0 && !s.hidden &&
	      !kmt_syms_lookup(&s, SITE_A, &off));
	kmt_syms_free(&s);
}

static void test_abi(void)
{
	unsigned long major = 0;

	check("abi_1", kmt_abi_check("1\n", 2, &major) == 0 && major == 1);
	check("abi_1_bare", kmt_abi_check("1", 1, &major) == 0);
	check("abi_1_nul", kmt_abi_check("1\n", 3, &major) == 0);
	check("abi_1_minor", kmt_abi_check("1.7\n", 4, &major) == 0 &&
	      major == 1);
	check("abi_2_refused", kmt_abi_check("2\n", 2, &major) == 1 &&
	      major == 2);
	check("abi_10_refused", kmt_abi_check("10\n", 3, &major) == 1);
	check("abi_huge_refused",
	      kmt_abi_check("99999999999999999999999\n", 24, &major) == 1);
	check("abi_empty", kmt_abi_check("", 0, &major) == -1);
	check("abi_garbage", kmt_abi_check("abc\n", 4, &major) == -1);
	check("abi_trailing_garbage", kmt_abi_check("1x\n", 3, &major) == -1);
	check("abi_leading_space", kmt_abi_check(" 1\n", 3, &major) == -1);
	check("abi_zero", kmt_abi_check("0\n", 2, &major) == -1);
	check("abi_dot_only", kmt_abi_check("1.\n", 3, &major) == -1);
	check("abi_inner_nul", kmt_abi_check("1\0002", 3, &major) == -1);
}

int main(void)
{
	test_decode();
	test_trailers();
	test_framing();
	test_validate();
	test_merge();
	test_report();
	test_report_classes();
	test_report_table();
	test_syms();
	test_abi();
	return failures ? 1 : 0;
}
