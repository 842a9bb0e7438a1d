// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the kmemtrace reader.  The first byte splits the
 * rest into two CPU streams, each framed whole and again in chunks as a
 * reader carrying partial records across read()s would; every record and
 * trailer must lie inside the input, the chunked parse must agree with
 * the whole one, the merge must order and count every record, and the
 * report must account for what it was fed.  The same bytes are also
 * read as kallsyms text and as an abi_version file.
 *
 * Random bytes rarely make an alloc and a free of one pointer, so an odd
 * first byte instead reads the input as compact operations that build
 * mostly valid streams: few pointers and call sites, seqs from any start
 * (wraparound), with holes, repeats, trailers and some invalid fields.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kmt_abi.h"
#include "kmt_report.h"

#define MAX_RECS	256	/* more than 512 input bytes can make */
#define SYNTH_CAP	(128 * 64)

static void fail(const char *what)
{
	fprintf(stderr, "fuzz check failed: %s\n", what);
	abort();
}

static void check_trailers(const struct kmt_record *rec)
{
	struct kmt_trailer t;
	size_t off = 0, prev = 0, nr = 0;
	int ret;

	while ((ret = kmt_trailer_next(rec, &off, &t)) > 0) {
		if (t.size < KMT_TRAILER_HDR || off != prev + t.size ||
		    t.data != rec->trailers + prev + KMT_TRAILER_HDR ||
		    t.data_len != t.size - KMT_TRAILER_HDR ||
		    off > rec->trailers_len)
			fail("trailer outside its record");
		prev = off;
		nr++;
	}
	if (ret < 0 && !rec->err)
		fail("trailer walk fails on a well-formed record");
	if (!ret && (off != rec->trailers_len || nr != rec->nr_trailers))
		fail("trailer walk ends early or miscounts");
}

/* Frame @len bytes; returns the number of records kept in @recs. */
static size_t parse(const uint8_t *p, size_t len, struct kmt_record *recs,
		    int cpu)
{
	struct kmt_record rec;
	enum kmt_status st;
	size_t off = 0, used, n = 0, mand;
	unsigned int v;

	while (off < len) {
		st = kmt_next(p + off, len - off, &rec, &used);
		if (used > len - off)
			fail("consumed more than the input");
		if (st == KMT_INCOMPLETE) {
			if (used || (len - off >= 4 && rec.size <= len - off))
				fail("incomplete with the whole record there");
			break;
		}
		if (st == KMT_MALFORMED && !used) {
			if (rec.err != KMT_E_SHORT || rec.size >= KMT_CORE_SIZE)
				fail("framing lost without a short size");
			break;
		}
		if (used != rec.size || rec.size < KMT_CORE_SIZE)
			fail("record size below 24 or not what was consumed");
		v = kmt_validate(&rec);
		if (rec.unknown) {
			if (st != KMT_OK || rec.trailers_len ||
			    !(v & KMT_V_UNKNOWN_IDS))
				fail("unknown record decoded further");
		} else {
			mand = rec.event_id == KMT_EVENT_ALLOC ?
			       KMT_ALLOC_SIZE : KMT_CORE_SIZE;
			if (st == KMT_OK &&
			    (rec.trailers != p + off + mand ||
			     rec.trailers_len != rec.size - mand))
				fail("trailers not the rest of the record");
			if (st == KMT_OK && (v & (KMT_V_SIZE | KMT_V_TRAILER |
						  KMT_V_UNKNOWN_IDS)))
				fail("validator disagrees with the parser");
			if (st == KMT_MALFORMED &&
			    !(v & (KMT_V_SIZE | KMT_V_TRAILER)))
				fail("malformed record passes validation");
			if (st == KMT_OK)
				check_trailers(&rec);
		}
		rec.cpu = cpu;
		if (n < MAX_RECS)
			recs[n++] = rec;
		off += used;
	}
	return n;
}

/*
 * Parse again in chunks whose sizes come from the input, carrying the
 * tail like a reader; the records must be those of the whole parse.
 */
static void parse_chunked(const uint8_t *p, size_t len,
			  const struct kmt_record *whole, size_t nr_whole)
{
	uint8_t *carry = malloc(len + 1);
	struct kmt_record rec;
	size_t clen = 0, at = 0, chunk, off, used = 0, n = 0;
	enum kmt_status st = KMT_INCOMPLETE;

	if (!carry)
		return;
	while (at < len) {
		chunk = 1 + p[at] % 64;
		if (chunk > len - at)
			chunk = len - at;
		memcpy(carry + clen, p + at, chunk);
		clen += chunk;
		at += chunk;
		off = 0;
		for (;;) {
			st = kmt_next(carry + off, clen - off, &rec, &used);
			if (st == KMT_INCOMPLETE || !used)
				break;
			if (n < nr_whole &&
			    (rec.seq != whole[n].seq ||
			     rec.size != whole[n].size ||
			     rec.err != whole[n].err))
				fail("chunked parse differs");
			n++;
			off += used;
		}
		if (st != KMT_INCOMPLETE && !used && clen > off)
			break;	/* framing lost, as in the whole parse */
		memmove(carry, carry + off, clen - off);
		clen -= off;
	}
	if (n < nr_whole && nr_whole < MAX_RECS)
		fail("chunked parse lost records");
	free(carry);
}

static void check_merge(const struct kmt_stream *s, struct kmt_report *r)
{
	struct kmt_seq_stats st;
	struct kmt_merged *m;
	const struct kmt_site *top[4];
	uint64_t live = 0, allocs = 0, failed = 0;
	size_t n, i, k;
	int by;

	kmt_report_init(r);
	if (kmt_merge(s, 2, &m, &n))
		return;
	if (n != s[0].nr + s[1].nr)
		fail("merge lost records");
	for (i = 0; i < n; i++) {
		if ((uint32_t)m[i].key != (uint32_t)m[i].rec->seq)
			fail("key is not the unwrapped seq");
		if (i && m[i].key < m[i - 1].key)
			fail("merge out of order");
	}
	kmt_seq_scan(m, n, &st, NULL);
	if (st.records != n || st.duplicates >= (n ? n : 1) ||
	    (n && (uint64_t)(st.last_key - st.first_key) + 1 !=
		  n - st.duplicates + st.missing))
		fail("missing and duplicate counts do not add up");

	for (i = 0; i < n; i++)
		if (kmt_report_add(r, m[i].rec))
			fail("report out of memory");
	kmt_report_finish(r);
	for (i = 0; i < r->nr_sites; i++) {
		const struct kmt_site *site = &r->sites[i];

		if (site->bytes_alloc < site->bytes_req ||
		    site->failed > site->allocs ||
		    site->live + site->freed + site->replaced !=
		    site->allocs - site->failed)
			fail("site counts inconsistent");
		live += site->live;
		allocs += site->allocs;
		failed += site->failed;
	}
	if (live != r->live ||
	    r->live_tab[0].nr + r->live_tab[1].nr != r->live ||
	    r->records != n || r->skipped > n || allocs > n ||
	    live > allocs - failed)
		fail("report totals inconsistent");
	for (by = KMT_BY_BYTES; by <= KMT_BY_LIVE; by++) {
		k = kmt_report_top(r, by, top, 4);
		if (k > r->nr_sites)
			fail("more top sites than sites");
	}
	free(m);
}

static void check_syms(const uint8_t *data, size_t size,
		       const struct kmt_report *r)
{
	const struct kmt_sym *sym;
	struct kmt_syms s;
	uint64_t off;
	char buf[64];
	size_t i;

	if (kmt_syms_parse(&s, (const char *)data, size))
		return;
	for (i = 1; i < s.nr; i++)
		if (s.v[i].addr <= s.v[i - 1].addr ||
		    s.v[i - 1].size != s.v[i].addr - s.v[i - 1].addr)
			fail("symbols not sorted and sized");
	for (i = 0; i < r->nr_sites + s.nr; i++) {
		uint64_t a = i < r->nr_sites ? r->sites[i].call_site :
			     s.v[i - r->nr_sites].addr + i;

		sym = kmt_syms_lookup(&s, a, &off);
		if (sym && (sym->addr > a || off != a - sym->addr ||
			    off >= KMT_SYM_MAX_OFF))
			fail("lookup returned a symbol not holding the address");
		kmt_syms_format(&s, a, buf, sizeof(buf));
		if (!memchr(buf, '\0', sizeof(buf)))
			fail("format not terminated");
	}
	kmt_syms_free(&s);
}

/* One 4-byte operation per record; see the comment at the top. */
static void synth(const uint8_t *in, size_t n, uint8_t out[2][SYNTH_CAP],
		  size_t len[2])
{
	struct kmt_record rec;
	uint32_t seq;
	size_t i, k;
	uint8_t *p;
	int cpu;

	memcpy(&seq, in, 4);
	len[0] = len[1] = 0;
	for (i = 4; i + 4 <= n; i += 4) {
		const uint8_t *b = in + i;

		memset(&rec, 0, sizeof(rec));
		rec.event_id = b[0] & 1;
		rec.type_id = (b[0] >> 1) & 3;		/* 3 is unknown */
		rec.ptr = (b[0] >> 3) & 15 ?
			  0xffff888000000000ULL + ((b[0] >> 3) & 15) * 64 : 0;
		rec.call_site = 0xffffffff81000000ULL + (b[1] & 7) * 0x40;
		if (b[1] & 0x80)
			rec.call_site = b[1];		/* not kernel text */
		switch ((b[1] >> 3) & 3) {
		case 2:
			break;				/* a repeat */
		case 3:
			seq += 2 + (b[2] & 7);		/* a hole */
			break;
		default:
			seq++;
		}
		rec.seq = (int32_t)seq;
		rec.bytes_req = (b[2] & 0x7f) * 8;	/* 0 is invalid */
		rec.bytes_alloc = rec.bytes_req + (b[3] & 0x3f);
		if ((b[3] & 0xc0) == 0x40 && rec.bytes_req)
			rec.bytes_alloc = rec.bytes_req - 1;
		rec.target = -1;
		rec.size = rec.event_id ? KMT_CORE_SIZE : KMT_ALLOC_SIZE;
		cpu = b[2] >> 7;
		p = out[cpu] + len[cpu];
		k = kmt_encode(&rec, p, SYNTH_CAP - len[cpu]);
		if (!k || SYNTH_CAP - len[cpu] - k < 8)
			break;
		if (b[3] & 0x80) {
			/* A trailer of 3..6 bytes, or a broken one of 2. */
			uint16_t tsize = (b[3] & 0x3f) == 0x3f ? 2 :
					 3 + (b[3] & 3);

			memcpy(p + k, &tsize, 2);
			p[k + 2] = b[1];
			memset(p + k + 3, 0x5a, 3);
			k += tsize < 3 ? 3 : tsize;
			rec.size = (uint16_t)k;
			memcpy(p + KMT_OFF_SIZE, &rec.size, 2);
		}
		len[cpu] += k;
	}
}

static void run_streams(const uint8_t *a, size_t alen, const uint8_t *b,
			size_t blen, struct kmt_report *r)
{
	static struct kmt_record recs[2][MAX_RECS];
	struct kmt_stream s[2];

	s[0].nr = parse(a, alen, recs[0], 0);
	s[1].nr = parse(b, blen, recs[1], 1);
	s[0].recs = recs[0];
	s[1].recs = recs[1];
	parse_chunked(a, alen, recs[0], s[0].nr);
	if (s[0].nr > alen / KMT_CORE_SIZE || s[1].nr > blen / KMT_CORE_SIZE)
		fail("more records than the bytes hold");
	check_merge(s, r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t sbuf[2][SYNTH_CAP];
	struct kmt_report r;
	unsigned long major = 0;
	size_t split, len, slen[2];
	int ret;

	if (!size)
		return 0;
	len = size - 1;
	if ((data[0] & 1) && len >= 4) {
		synth(data + 1, len, sbuf, slen);
		run_streams(sbuf[0], slen[0], sbuf[1], slen[1], &r);
	} else {
		split = len ? (size_t)data[0] * 4 % (len + 1) : 0;
		run_streams(data + 1, split, data + 1 + split, len - split,
			    &r);
	}
	check_syms(data, size, &r);
	kmt_report_free(&r);

	ret = kmt_abi_check((const char *)data, size, &major);
	if (ret < -1 || ret > 1 ||
	    (!ret && (major < 1 || major > KMT_ABI_VERSION)) ||
	    (ret == 1 && major <= KMT_ABI_VERSION))
		fail("abi check out of range");
	return 0;
}
