// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests for raw_page.c: pages packed by rt_raw_page_add() and
 * rt_raw_page_finish() are read back by raw_page_check.h, a decoder
 * written after libtraceevent's kbuffer, and must give every record
 * with its exact time and payload.  Pages packed by runs of the ring's
 * encoding (rt_raw_page_add_run()) must be the same bytes as pages
 * packed one record at a time (raw_run_check.h).  The first failing check prints its
 * line and exits 1.
 */
#include "pure_shim.h"
#include <stdio.h>
#include <trace/retrace/raw_page.h>
#include "raw_page_check.h"
#include "raw_run_check.h"

static unsigned int checks;

#define CHECK(cond)							\
	do {								\
		checks++;						\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: check failed: %s\n",	\
				__FILE__, __LINE__, #cond);		\
			exit(1);					\
		}							\
	} while (0)

/* What a page must decode to: the model of the encoder's contract. */

struct model {
	struct exp_rec	rec[MAX_RECS];
	unsigned int	nr;
	unsigned int	used;
	unsigned int	extends;
	u64		last;
};

static u8 page[RT_RAW_PAGE_SIZE];
static u8 payload[RT_RAW_PAGE_SIZE];

static void fill(u8 seed, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < len; i++)
		payload[i] = (u8)(seed + i * 7 + (i >> 8));
}

static bool same_payload(const u8 *d, u8 seed, unsigned int len)
{
	fill(seed, len);
	return !memcmp(d, payload, len);
}

static void start(struct rt_raw_page *p, struct model *m)
{
	rt_raw_page_start(p, page, sizeof(page));
	memset(m, 0, sizeof(*m));
}

/* The bytes a record takes, worked out from the format, not the code. */
static unsigned int rec_size(const struct model *m, u64 ts, unsigned int len)
{
	unsigned int size = 4 + len;

	if (len > 112)
		size += 4;
	if (m->nr && ts > m->last && ts - m->last >= (1ULL << 27))
		size += 8;
	return size;
}

/* Add a record to the page and, if it went in, to the model. */
static int add(struct rt_raw_page *p, struct model *m, u64 ts,
	       unsigned int len, u8 seed)
{
	unsigned int size = rec_size(m, ts, len);
	int ret;

	fill(seed, len);
	ret = rt_raw_page_add(p, ts, payload, len);
	if (ret)
		return ret;
	if (size > 4 + len + 4)
		m->extends++;
	if (!m->nr || ts > m->last)
		m->last = ts;
	m->rec[m->nr].ts = m->last;
	m->rec[m->nr].len = len;
	m->rec[m->nr].seed = seed;
	m->nr++;
	m->used += size;
	CHECK(p->used == m->used);
	CHECK(p->nr == m->nr);
	return 0;
}

/*
 * Decode @pg, a page of the packer's, and compare it with @m; @lost as
 * kbuffer_missed_events().  The decoder takes any page upstream makes;
 * the packer's never use the room of the lost count, and never report
 * a loss without its number.
 */
static void verify(const u8 *pg, size_t size, const struct model *m,
		   s64 lost)
{
	struct rt_rck_rec r;
	struct rt_rck c;
	unsigned int i;

	CHECK(rt_rck_load(&c, pg, size) == 0);
	CHECK(c.size == m->used);
	CHECK(c.size <= RT_RAW_REC_SPACE);
	CHECK(c.missed == c.stored);
	CHECK(lost >= 0);
	CHECK(c.lost == lost);
	if (m->nr)
		CHECK(c.page_ts == m->rec[0].ts);
	for (i = 0; i < m->nr; i++) {
		CHECK(rt_rck_next(&c, &r) == 1);
		CHECK(r.ts == m->rec[i].ts);
		CHECK(r.len == m->rec[i].len);
		CHECK(same_payload(r.data, m->rec[i].seed, r.len));
	}
	CHECK(rt_rck_next(&c, &r) == 0);
	CHECK(rt_rck_next(&c, &r) == 0);
	CHECK(c.nr == m->nr);
	CHECK(c.extends == m->extends);
	CHECK(c.pads == 0 && c.abs == 0);
}

static u32 word_at(unsigned int off)
{
	u32 v;

	memcpy(&v, page + RT_RAW_HDR_SIZE + off, sizeof(v));
	return v;
}

static u64 commit_word(void)
{
	u64 v;

	memcpy(&v, page + 8, sizeof(v));
	return v;
}

static void test_short(void)
{
	struct rt_raw_page p;
	struct rt_rck_rec r;
	struct model m;
	struct rt_rck c;
	unsigned int len;
	u64 ts = 1000000;

	start(&p, &m);
	for (len = 4; len <= 112; len += 4) {
		CHECK(add(&p, &m, ts, len, (u8)len) == 0);
		ts += len * 3;
	}
	CHECK(m.nr == 28 && m.used == 28 * 4 + 4 * 29 * 14);
	rt_raw_page_finish(&p, 0);
	CHECK(commit_word() == m.used);
	verify(page, sizeof(page), &m, 0);

	/* Every header is type_len = len / 4, time_delta the step. */
	CHECK(rt_rck_load(&c, page, sizeof(page)) == 0);
	for (len = 4; len <= 112; len += 4) {
		CHECK(rt_rck_next(&c, &r) == 1);
		CHECK((word_at(r.off) & 31) == len / 4);
		CHECK(word_at(r.off) >> 5 == (len == 4 ? 0 : (len - 4) * 3));
	}
	/* The page holds exactly the commit: a copy that short decodes. */
	verify(page, RT_RAW_HDR_SIZE + m.used, &m, 0);
}

static void test_long(void)
{
	static const unsigned int lens[] = { 116, 120, 500, 1024, 2000 };
	struct rt_raw_page p;
	struct rt_rck_rec r;
	struct model m;
	struct rt_rck c;
	unsigned int i;
	u64 ts = 5;

	start(&p, &m);
	for (i = 0; i < ARRAY_SIZE(lens); i++)
		CHECK(add(&p, &m, ts += 100 * i, lens[i], (u8)(i + 1)) == 0);
	rt_raw_page_finish(&p, 0);
	verify(page, sizeof(page), &m, 0);
	CHECK(rt_rck_load(&c, page, sizeof(page)) == 0);
	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		CHECK(rt_rck_next(&c, &r) == 1);
		CHECK((word_at(r.off) & 31) == 0);
		CHECK(word_at(r.off) >> 5 == 100 * i);
		CHECK(word_at(r.off + 4) == lens[i] + 4);
	}

	/*
	 * Records take 4072 of the 4080 bytes of data: the last 8 are the
	 * lost count's.  The longest payload leaves room for a long header
	 * and a time extend in them.
	 */
	CHECK(RT_RAW_DATA_SIZE == 4080 && RT_RAW_LOST_SIZE == 8);
	CHECK(RT_RAW_REC_SPACE == 4072 && MAX_LEN == 4056);

	/*
	 * The longest record, then a 4-byte one fill the record space
	 * exactly; the lost count still fits after them.
	 */
	start(&p, &m);
	CHECK(add(&p, &m, 77, MAX_LEN, 9) == 0);
	CHECK(m.used == 4064);
	CHECK(add(&p, &m, 78, 4, 10) == 0);
	CHECK(m.used == RT_RAW_REC_SPACE);
	CHECK(add(&p, &m, 79, 4, 11) == -ENOSPC);
	rt_raw_page_finish(&p, 6);
	verify(page, sizeof(page), &m, 6);

	/* After a short record, the longest fits, but not with an extend. */
	start(&p, &m);
	CHECK(add(&p, &m, 1, 4, 1) == 0);
	CHECK(add(&p, &m, 1 + (1ULL << 27), MAX_LEN, 2) == -ENOSPC);
	CHECK(add(&p, &m, (1ULL << 27), MAX_LEN, 2) == 0);
	CHECK(m.used == 8 + 4064 && m.extends == 0);
	CHECK(m.used == RT_RAW_REC_SPACE);
	rt_raw_page_finish(&p, 0);
	verify(page, sizeof(page), &m, 0);
}

static void test_extend(void)
{
	static const u64 deltas[] = {
		(1ULL << 27) - 1, 1ULL << 27, (1ULL << 27) + 1,
		(1ULL << 32) - 1, (1ULL << 32) + 5, 1ULL << 40,
		(1ULL << 40) + 123, (1ULL << 58) + 7, 3, 0,
	};
	struct rt_raw_page p;
	struct rt_rck_rec r;
	struct model m;
	struct rt_rck c;
	unsigned int i;
	u64 ts = 12345;

	start(&p, &m);
	CHECK(add(&p, &m, ts, 8, 0) == 0);
	for (i = 0; i < ARRAY_SIZE(deltas); i++) {
		ts += deltas[i];
		CHECK(add(&p, &m, ts, i & 1 ? 200 : 16, (u8)(i + 1)) == 0);
	}
	CHECK(m.extends == 7);
	rt_raw_page_finish(&p, 0);
	verify(page, sizeof(page), &m, 0);

	/* A time extend: type 30, low 27 bits, the rest; then delta 0. */
	CHECK(rt_rck_load(&c, page, sizeof(page)) == 0);
	CHECK(rt_rck_next(&c, &r) == 1);
	for (i = 0; i < ARRAY_SIZE(deltas); i++) {
		u32 next = r.off + 4 + r.len + (r.len > 112 ? 4 : 0);
		u32 hdr = word_at(next);

		CHECK(rt_rck_next(&c, &r) == 1);
		if (deltas[i] < (1ULL << 27)) {
			CHECK(r.off == next);
			CHECK(hdr >> 5 == deltas[i]);
			continue;
		}
		CHECK(r.off == next + 8);
		CHECK((hdr & 31) == RT_RAW_TYPE_EXTEND);
		CHECK(hdr >> 5 == (deltas[i] & ((1ULL << 27) - 1)));
		CHECK(word_at(next + 4) == deltas[i] >> 27);
		CHECK(word_at(r.off) >> 5 == 0);
	}
}

static void test_backwards(void)
{
	static const u64 in[]  = { 1000, 900, 1000, 1005, 2000, 1500, 1800,
				   2000, 2001, 0 };
	static const u64 out[] = { 1000, 1000, 1000, 1005, 2000, 2000, 2000,
				   2000, 2001, 2001 };
	struct rt_raw_page p;
	struct model m;
	unsigned int i;

	start(&p, &m);
	for (i = 0; i < ARRAY_SIZE(in); i++)
		CHECK(add(&p, &m, in[i], 12, (u8)i) == 0);
	for (i = 0; i < ARRAY_SIZE(in); i++)
		CHECK(m.rec[i].ts == out[i]);
	CHECK(m.extends == 0);
	rt_raw_page_finish(&p, 0);
	verify(page, sizeof(page), &m, 0);

	/* A fresh page takes its first record's time, however early. */
	start(&p, &m);
	CHECK(add(&p, &m, 50, 4, 1) == 0);
	CHECK(p.last_ts == 50);
	rt_raw_page_finish(&p, 0);
	verify(page, sizeof(page), &m, 0);
}

static void test_enospc(void)
{
	static u8 before[RT_RAW_PAGE_SIZE];
	struct rt_raw_page p, saved;
	struct model m;
	u64 ts = 1;
	int ret;

	/*
	 * Fill with 100-byte records to 4072 - 104 * 39 = 16 bytes left
	 * for records, and the lost count's 8 after them.
	 */
	start(&p, &m);
	while ((ret = add(&p, &m, ts, 100, (u8)ts)) == 0)
		ts++;
	CHECK(ret == -ENOSPC);
	CHECK(m.nr == 39 && RT_RAW_REC_SPACE - p.used == 16);
	CHECK(RT_RAW_DATA_SIZE - p.used == 16 + RT_RAW_LOST_SIZE);

	memcpy(before, page, sizeof(page));
	saved = p;
	CHECK(add(&p, &m, ts, 16, 1) == -ENOSPC);
	CHECK(add(&p, &m, ts, 20, 1) == -ENOSPC);
	CHECK(add(&p, &m, ts, MAX_LEN, 1) == -ENOSPC);
	/* 12 bytes fit, but not with an 8-byte time extend before them. */
	CHECK(add(&p, &m, ts + (1ULL << 30), 8, 1) == -ENOSPC);
	CHECK(!memcmp(before, page, sizeof(page)));
	CHECK(p.used == saved.used && p.nr == saved.nr);
	CHECK(p.last_ts == saved.last_ts && p.page == saved.page);

	/* What is left still takes a record that fits, and then no more. */
	CHECK(add(&p, &m, ts + 1, 12, 2) == 0);
	CHECK(p.used == RT_RAW_REC_SPACE);
	CHECK(add(&p, &m, ts + 2, 4, 3) == -ENOSPC);
	rt_raw_page_finish(&p, 0);
	verify(page, sizeof(page), &m, 0);
	rt_raw_page_finish(&p, 1ULL << 33);
	verify(page, sizeof(page), &m, 1LL << 33);

	/* The next page starts fresh: its own time, no delta from the last. */
	start(&p, &m);
	CHECK(p.used == 0 && p.nr == 0 && p.last_ts == 0);
	CHECK(add(&p, &m, ts + (1ULL << 35), 24, 3) == 0);
	CHECK(m.extends == 0 && p.used == 28);
	rt_raw_page_finish(&p, 0);
	verify(page, sizeof(page), &m, 0);
	CHECK(word_at(0) == 6);
	CHECK(commit_word() == 28);
}

static void test_einval(void)
{
	static const unsigned int bad[] = {
		0, 1, 2, 3, 5, 6, 7, 13, 4054, 4062, MAX_LEN + 1, MAX_LEN + 4,
		4064, RT_RAW_REC_SPACE, RT_RAW_DATA_SIZE, RT_RAW_PAGE_SIZE,
		8192, 0xfffffffcU, 0xffffffffU,
	};
	static u8 before[RT_RAW_PAGE_SIZE];
	struct rt_raw_page p;
	struct model m;
	unsigned int i;

	/* On an empty page: not even the page time is written. */
	start(&p, &m);
	memcpy(before, page, sizeof(page));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		CHECK(rt_raw_page_add(&p, 99, payload, bad[i]) == -EINVAL);
		CHECK(!memcmp(before, page, sizeof(page)));
		CHECK(p.used == 0 && p.nr == 0);
	}
	/* On a page with records. */
	CHECK(add(&p, &m, 7, 8, 1) == 0);
	memcpy(before, page, sizeof(page));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		CHECK(rt_raw_page_add(&p, 99, payload, bad[i]) == -EINVAL);
		CHECK(!memcmp(before, page, sizeof(page)));
		CHECK(p.used == 12 && p.nr == 1 && p.last_ts == 7);
	}
	/* The largest length is only too long for what is left. */
	CHECK(add(&p, &m, 8, MAX_LEN, 2) == -ENOSPC);
	CHECK(add(&p, &m, 8, MAX_LEN - 4, 2) == 0);
	CHECK(p.used == RT_RAW_REC_SPACE);
	rt_raw_page_finish(&p, 0);
	verify(page, sizeof(page), &m, 0);
}

/*
 * Finish the page with @missed and check the commit word: a loss is
 * always reported with its number, stored right after the data, and
 * nothing else is written after the data.
 */
static void finish_check(struct rt_raw_page *p, const struct model *m,
			 u64 missed)
{
	unsigned int i, end = RT_RAW_HDR_SIZE + m->used;
	u64 commit, count;

	CHECK(p->used == m->used && m->used <= RT_RAW_REC_SPACE);
	rt_raw_page_finish(p, missed);
	commit = commit_word();
	CHECK((commit & RT_RAW_COMMIT_MASK) == m->used);
	CHECK(!!(commit & RT_RAW_MISSED_EVENTS) == !!missed);
	CHECK(!!(commit & RT_RAW_MISSED_STORED) == !!missed);
	CHECK(commit >> 32 == 0);
	if (missed) {
		CHECK(end + RT_RAW_LOST_SIZE <= RT_RAW_PAGE_SIZE);
		memcpy(&count, page + end, sizeof(count));
		CHECK(count == missed);
		end += RT_RAW_LOST_SIZE;
	}
	for (i = end; i < RT_RAW_PAGE_SIZE; i++)
		CHECK(page[i] == 0);
	verify(page, sizeof(page), m, missed);
	/* A copy cut right after the count (or the data) decodes too. */
	verify(page, end, m, missed);
}

/*
 * Pack records of @lens to @used bytes and finish with @missed; when
 * less than the smallest record's 8 bytes is left, that one is refused.
 */
static void missed_case(const unsigned int *lens, unsigned int n,
			unsigned int used, u64 missed)
{
	struct rt_raw_page p;
	struct model m;
	unsigned int i;

	start(&p, &m);
	for (i = 0; i < n; i++)
		CHECK(add(&p, &m, 10 + i, lens[i], (u8)i) == 0);
	CHECK(p.used == used);
	if (RT_RAW_REC_SPACE - used < 8)
		CHECK(add(&p, &m, 10 + n, 4, 0) == -ENOSPC);
	finish_check(&p, &m, missed);
}

/* Pack @len-byte records until one is refused, then finish. */
static void missed_fill(unsigned int len, u64 missed)
{
	unsigned int size = 4 + len + (len > 112 ? 4 : 0), i = 0;
	struct rt_raw_page p;
	struct model m;

	start(&p, &m);
	while (add(&p, &m, 10 + i, len, (u8)i) == 0)
		i++;
	CHECK(m.nr == RT_RAW_REC_SPACE / size);
	CHECK(p.used == m.nr * size);
	finish_check(&p, &m, missed);
}

static void test_missed(void)
{
	static const unsigned int few[] = { 8, 16, 200 };
	static const unsigned int room12[] = { MAX_LEN - 4 };
	static const unsigned int room8[] = { MAX_LEN };
	static const unsigned int room4[] = { MAX_LEN - 4, 4 };
	static const unsigned int room0[] = { MAX_LEN, 4 };
	static const unsigned int fills[] = { 4, 8, 12, 100, 112, 116, 2000 };
	unsigned int i;

	missed_case(few, 3, 12 + 20 + 208, 0);
	missed_case(few, 3, 12 + 20 + 208, 12345);
	missed_case(few, 3, 12 + 20 + 208, 1ULL << 40);
	missed_case(few, 0, 0, 3);
	/* roomN: N bytes left for records, and 8 more for the count. */
	missed_case(room12, 1, 4060, 1);
	missed_case(room8, 1, 4064, 5);
	missed_case(room8, 1, 4064, 0);
	missed_case(room4, 2, 4068, 5);
	missed_case(room4, 2, 4068, 0);
	missed_case(room0, 2, RT_RAW_REC_SPACE, 77);
	missed_case(room0, 2, RT_RAW_REC_SPACE, 1ULL << 62);
	missed_case(room0, 2, RT_RAW_REC_SPACE, 0);
	/* Pages filled until a record is refused: 0 to 104 bytes left. */
	for (i = 0; i < ARRAY_SIZE(fills); i++) {
		missed_fill(fills[i], 0);
		missed_fill(fills[i], i + 1);
	}
}

/* A small deterministic generator, so failures repeat. */
static u64 rng_state = 0x9e3779b97f4a7c15ULL;

static u64 rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static u64 random_delta(void)
{
	switch (rng() % 8) {
	case 0:
		return 0;
	case 1:
		return (1ULL << 27) - 1 + rng() % 3;
	case 2:
		return rng() % (1ULL << 40);
	default:
		return rng() % 5000;
	}
}

static unsigned int random_len(void)
{
	switch (rng() % 8) {
	case 0:
		return 4 * (1 + rng() % (MAX_LEN / 4));
	case 1:
		return 4 * (29 + rng() % 100);
	default:
		return 4 * (1 + rng() % 28);
	}
}

static void test_full_pages(void)
{
	unsigned int pages, len, full = 0, full_missed = 0;
	struct rt_raw_page p;
	struct model m;
	u64 ts = 1ULL << 33;
	u8 seed = 0;
	int ret;

	len = random_len();
	for (pages = 0; pages < 500; pages++) {
		start(&p, &m);
		for (;;) {
			ret = add(&p, &m, ts, len, seed);
			if (ret == -ENOSPC)
				break;
			CHECK(ret == 0);
			ts += random_delta();
			if (rng() % 16 == 0)
				ts -= rng() % 1000;	/* backwards */
			len = random_len();
			seed++;
		}
		/*
		 * Refused only when it did not fit; the records never take
		 * the lost count's room.
		 */
		CHECK(p.used <= RT_RAW_REC_SPACE);
		CHECK(p.used + rec_size(&m, ts, len) > RT_RAW_REC_SPACE);
		CHECK(m.nr > 0);
		/* Full: not even a 4-byte record would fit. */
		if (RT_RAW_REC_SPACE - p.used < 8) {
			full++;
			full_missed += pages % 3 == 0;
		}
		finish_check(&p, &m, pages % 3 ? 0 : pages + 1);
	}
	CHECK(full > 0 && full_missed > 0);
}

/* Pages the encoder never makes: the decoder must refuse, not read. */
static void test_decoder_rejects(void)
{
	struct rt_raw_page p;
	struct rt_rck_rec r;
	struct model m;
	struct rt_rck c;
	u64 commit;
	u32 w;

	start(&p, &m);
	CHECK(add(&p, &m, 100, 40, 1) == 0);
	CHECK(add(&p, &m, 200, 400, 2) == 0);
	rt_raw_page_finish(&p, 0);
	verify(page, sizeof(page), &m, 0);

	/* Commit past the data area. */
	commit = RT_RAW_DATA_SIZE + 1;
	memcpy(page + 8, &commit, 8);
	CHECK(rt_rck_load(&c, page, sizeof(page)) == -EINVAL);
	commit = RT_RAW_PAGE_SIZE;
	memcpy(page + 8, &commit, 8);
	CHECK(rt_rck_load(&c, page, sizeof(page)) == -EINVAL);
	commit = RT_RAW_COMMIT_MASK;
	memcpy(page + 8, &commit, 8);
	CHECK(rt_rck_load(&c, page, sizeof(page)) == -EINVAL);
	/* ... or past the end of a shorter copy of the page. */
	commit = m.used;
	memcpy(page + 8, &commit, 8);
	CHECK(rt_rck_load(&c, page, RT_RAW_HDR_SIZE + m.used) == 0);
	CHECK(rt_rck_load(&c, page, RT_RAW_HDR_SIZE + m.used - 1) == -EINVAL);
	CHECK(rt_rck_load(&c, page, RT_RAW_HDR_SIZE - 1) == -EINVAL);
	/* A full commit is fine; its zero tail is one bad long record. */
	commit = RT_RAW_DATA_SIZE;
	memcpy(page + 8, &commit, 8);
	CHECK(rt_rck_load(&c, page, sizeof(page)) == 0);
	CHECK(rt_rck_next(&c, &r) == 1 && rt_rck_next(&c, &r) == 1);
	CHECK(rt_rck_next(&c, &r) == -EINVAL);
	/* A stored count that would lie past the page. */
	commit = 4076 | RT_RAW_MISSED_EVENTS | RT_RAW_MISSED_STORED;
	memcpy(page + 8, &commit, 8);
	CHECK(rt_rck_load(&c, page, sizeof(page)) == -EINVAL);
	/*
	 * Upstream's pages may leave no room for the count: the flag alone
	 * is read as kbuffer reads it, an unknown number (the packer's are
	 * never so, see verify()).
	 */
	commit = 4076 | RT_RAW_MISSED_EVENTS;
	memcpy(page + 8, &commit, 8);
	CHECK(rt_rck_load(&c, page, sizeof(page)) == 0 && c.lost == -1);
	commit = RT_RAW_DATA_SIZE | RT_RAW_MISSED_EVENTS;
	memcpy(page + 8, &commit, 8);
	CHECK(rt_rck_load(&c, page, sizeof(page)) == 0 && c.lost == -1);
	CHECK(c.missed && !c.stored);
	/* A count in the last 8 bytes of the data area is read. */
	commit = RT_RAW_REC_SPACE | RT_RAW_MISSED_EVENTS | RT_RAW_MISSED_STORED;
	memcpy(page + 8, &commit, 8);
	commit = 4242;
	memcpy(page + RT_RAW_HDR_SIZE + RT_RAW_REC_SPACE, &commit, 8);
	CHECK(rt_rck_load(&c, page, sizeof(page)) == 0 && c.lost == 4242);
	CHECK(rt_rck_load(&c, page, RT_RAW_PAGE_SIZE - 1) == -EINVAL);
	memset(page + RT_RAW_HDR_SIZE + RT_RAW_REC_SPACE, 0, 8);
	/* Bits no commit word has. */
	commit = m.used | (1ULL << 28);
	memcpy(page + 8, &commit, 8);
	CHECK(rt_rck_load(&c, page, sizeof(page)) == -EINVAL);
	commit = m.used | (1ULL << 32);
	memcpy(page + 8, &commit, 8);
	CHECK(rt_rck_load(&c, page, sizeof(page)) == -EINVAL);
	commit = m.used | RT_RAW_MISSED_STORED;
	memcpy(page + 8, &commit, 8);
	CHECK(rt_rck_load(&c, page, sizeof(page)) == -EINVAL);

	/* A commit that cuts the second record. */
	commit = m.used - 4;
	memcpy(page + 8, &commit, 8);
	CHECK(rt_rck_load(&c, page, sizeof(page)) == 0);
	CHECK(rt_rck_next(&c, &r) == 1 && r.len == 40);
	CHECK(rt_rck_next(&c, &r) == -EINVAL);
	/* ... or its length word. */
	commit = 44 + 6;
	memcpy(page + 8, &commit, 8);
	CHECK(rt_rck_load(&c, page, sizeof(page)) == 0);
	CHECK(rt_rck_next(&c, &r) == 1);
	CHECK(rt_rck_next(&c, &r) == -EINVAL);
	commit = m.used;
	memcpy(page + 8, &commit, 8);

	/* A long record whose length word is below its own size. */
	w = 3;
	memcpy(page + RT_RAW_HDR_SIZE + 48, &w, 4);
	CHECK(rt_rck_load(&c, page, sizeof(page)) == 0);
	CHECK(rt_rck_next(&c, &r) == 1);
	CHECK(rt_rck_next(&c, &r) == -EINVAL);
	/* ... or past the commit. */
	w = 0xfffffff0U;
	memcpy(page + RT_RAW_HDR_SIZE + 48, &w, 4);
	CHECK(rt_rck_load(&c, page, sizeof(page)) == 0);
	CHECK(rt_rck_next(&c, &r) == 1);
	CHECK(rt_rck_next(&c, &r) == -EINVAL);
	w = 404;
	memcpy(page + RT_RAW_HDR_SIZE + 48, &w, 4);
	verify(page, sizeof(page), &m, 0);
}

/* Record types the encoder never writes, decoded as kbuffer does. */
static void test_decoder_kbuffer_types(void)
{
	static const u32 words[] = {
		/* padding, delta 3, skipping its length word and one more */
		RT_RAW_TYPE_PADDING | 3 << 5, 8, 0,
		/* a 4-byte record, delta 1 */
		1 | 1 << 5, 0xabcdef01,
		/* absolute time 5 << 27 | 9 */
		RT_RAW_TYPE_ABS | 9 << 5, 5,
		/* an 8-byte record, delta 2 */
		2 | 2 << 5, 1, 2,
		/* a time extend of 1 << 27 | 1, then a long record */
		RT_RAW_TYPE_EXTEND | 1 << 5, 1, 0, 4 + 4, 42,
	};
	struct rt_rck_rec r;
	struct rt_rck c;
	u64 v = 1000;
	u32 w;

	memset(page, 0, sizeof(page));
	memcpy(page, &v, 8);
	v = sizeof(words);
	memcpy(page + 8, &v, 8);
	memcpy(page + RT_RAW_HDR_SIZE, words, sizeof(words));
	CHECK(rt_rck_load(&c, page, sizeof(page)) == 0);
	CHECK(rt_rck_next(&c, &r) == 1);
	CHECK(r.ts == 1004 && r.len == 4 && r.off == 12);
	memcpy(&w, r.data, 4);
	CHECK(w == 0xabcdef01);
	CHECK(rt_rck_next(&c, &r) == 1);
	CHECK(r.ts == (5ULL << 27 | 9) + 2 && r.len == 8);
	CHECK(rt_rck_next(&c, &r) == 1);
	CHECK(r.ts == (5ULL << 27 | 9) + 2 + (1ULL << 27 | 1));
	CHECK(r.len == 4 && r.off == 48);
	memcpy(&w, r.data, 4);
	CHECK(w == 42);
	CHECK(rt_rck_next(&c, &r) == 0);
	CHECK(c.pads == 1 && c.abs == 1 && c.extends == 1 && c.nr == 3);

	/* Padding that skips past the commit. */
	w = 400;
	memcpy(page + RT_RAW_HDR_SIZE + 4, &w, 4);
	CHECK(rt_rck_load(&c, page, sizeof(page)) == 0);
	CHECK(rt_rck_next(&c, &r) == -EINVAL);
	/* A time extend cut by the commit. */
	v = 4;
	memcpy(page + 8, &v, 8);
	w = RT_RAW_TYPE_EXTEND;
	memcpy(page + RT_RAW_HDR_SIZE, &w, 4);
	CHECK(rt_rck_load(&c, page, sizeof(page)) == 0);
	CHECK(rt_rck_next(&c, &r) == -EINVAL);
	/* A commit not a multiple of 4. */
	v = 2;
	memcpy(page + 8, &v, 8);
	CHECK(rt_rck_load(&c, page, sizeof(page)) == 0);
	CHECK(rt_rck_next(&c, &r) == -EINVAL);
	/* An empty page. */
	v = 0;
	memcpy(page + 8, &v, 8);
	CHECK(rt_rck_load(&c, page, sizeof(page)) == 0);
	CHECK(rt_rck_next(&c, &r) == 0 && c.lost == 0);
}

/*
 * Larger pages (buffer_subbuf_size_kb): the same rules over more room.
 * Pages of 4 KiB << 0..3 are filled with random records until one is
 * refused; the refusal must be for want of room, the lost count must
 * still fit after the data, every record must decode back, and nothing
 * past the page's size may be touched.
 */
static u8 big[MAX_PAGE + 64];
static struct exp_rec big_want[MAX_RECS];

static void test_page_sizes(void)
{
	unsigned int order, round, n, i, len, size, rec;
	struct rt_raw_page p;
	struct rt_rck_rec r;
	struct rt_rck c;
	u64 ts = 1ULL << 31, missed;
	u8 seed = 0;
	int ret;

	for (order = 0; order <= 3; order++) {
		size = RT_RAW_PAGE_SIZE << order;
		CHECK(rt_raw_rec_space(size) == size - 24);
		for (round = 0; round < 40; round++) {
			memset(big, 0xa5, sizeof(big));
			rt_raw_page_start(&p, big, size);
			for (n = 0;; n++) {
				ts += random_delta();
				len = random_len();
				rec = 4 + len + (len > 112 ? 4 : 0);
				if (n && ts - big_want[n - 1].ts >= (1ULL << 27))
					rec += 8;
				fill(seed, len);
				ret = rt_raw_page_add(&p, ts, payload, len);
				if (ret == -ENOSPC) {
					CHECK(n > 0);
					CHECK(p.used + rec >
					      rt_raw_rec_space(size));
					break;
				}
				CHECK(ret == 0 && n < MAX_RECS);
				big_want[n].ts = ts;
				big_want[n].len = len;
				big_want[n].seed = seed++;
			}
			CHECK(p.nr == n && p.used <= rt_raw_rec_space(size));
			/* Pages past the smallest hold more than it could. */
			if (order)
				CHECK(p.used > RT_RAW_REC_SPACE);
			missed = round % 2 ? round * 1000ULL : 0;
			rt_raw_page_finish(&p, missed);
			CHECK(rt_rck_load(&c, big, size) == 0);
			CHECK(c.size == p.used && c.lost == (s64)missed);
			CHECK(c.missed == !!missed && c.stored == !!missed);
			CHECK(c.page_ts == big_want[0].ts);
			for (i = 0; i < n; i++) {
				CHECK(rt_rck_next(&c, &r) == 1);
				CHECK(r.ts == big_want[i].ts);
				CHECK(r.len == big_want[i].len);
				CHECK(same_payload(r.data, big_want[i].seed,
						   r.len));
			}
			CHECK(rt_rck_next(&c, &r) == 0);
			/* finish() cleared what the records left of the page. */
			for (i = RT_RAW_HDR_SIZE + p.used + (missed ? 8 : 0);
			     i < size; i++)
				CHECK(big[i] == 0);
			for (i = size; i < sizeof(big); i++)
				CHECK(big[i] == 0xa5);
		}
	}
}

/*
 * trace_pipe_raw's undo: the packing state saved at a claim is put
 * back when the copies after it were overwritten, and packing goes on
 * from it, also from an empty page (the page time is written again).
 */
static void test_restore(void)
{
	struct rt_raw_page p, saved;
	struct rt_rck_rec r;
	struct rt_rck c;
	unsigned int i, j;

	for (i = 0; i < 2; i++) {
		memset(page, 0xa5, sizeof(page));
		rt_raw_page_start(&p, page, sizeof(page));
		if (i) {
			fill(1, 8);
			CHECK(rt_raw_page_add(&p, 1000, payload, 8) == 0);
		}
		saved = p;
		fill(2, 40);
		CHECK(rt_raw_page_add(&p, 5000, payload, 40) == 0);
		CHECK(rt_raw_page_add(&p, 6000, payload, 40) == 0);
		p = saved;
		fill(3, 12);
		CHECK(rt_raw_page_add(&p, 2000, payload, 12) == 0);
		rt_raw_page_finish(&p, 0);
		CHECK(rt_rck_load(&c, page, sizeof(page)) == 0);
		CHECK(c.page_ts == (i ? 1000 : 2000));
		if (i) {
			CHECK(rt_rck_next(&c, &r) == 1 && r.ts == 1000 &&
			      r.len == 8 && same_payload(r.data, 1, 8));
		}
		CHECK(rt_rck_next(&c, &r) == 1 && r.ts == 2000 &&
		      r.len == 12 && same_payload(r.data, 3, 12));
		CHECK(rt_rck_next(&c, &r) == 0);
		/* The undone records' bytes are gone from the page. */
		CHECK(c.size == p.used);
		for (j = RT_RAW_HDR_SIZE + p.used; j < sizeof(page); j++)
			CHECK(page[j] == 0);
	}
}

/*
 * rt_raw_page_add_run() against rt_raw_page_add(), byte for byte, for
 * streams that put every case on a run: short and long records,
 * absolute times in the ring (a delta past 27 bits), time extends in
 * the page (only at a run's first record), times that step back, runs
 * cut by the page's room and by the caller's limit, and pages larger
 * than a ring page (a run's first record counts from another ring
 * page's time).
 */
static struct rr_rec run_recs[RR_MAX_RECS];
static u8 run_arena[RR_MAX_RECS * 64];

/* The time step and length of a stream of @kind's next record. */
static unsigned int run_step(unsigned int kind, u64 *ts)
{
	switch (kind) {
	case 0:	/* small steps, short records */
		*ts += rng() % 3000;
		return 4 * (1 + rng() % 28);
	case 1:	/* long ones too */
		*ts += rng() % 3000;
		return rng() % 4 ? 4 * (1 + rng() % 28) : 4 * (29 + rng() % 400);
	case 2:	/* jumps past 27 bits */
		*ts += random_delta();
		return random_len();
	case 3:	/* steps back */
		if (rng() % 5 == 0)
			*ts -= rng() % 4000;
		else
			*ts += rng() % 4000;
		return 4 * (1 + rng() % 28);
	default:
		*ts += random_delta();
		if (rng() % 7 == 0)
			*ts -= rng() % (1ULL << 28);
		return random_len();
	}
}

/* @n records of @kind in run_recs[], payloads in run_arena. */
static void run_stream(unsigned int kind, unsigned int n)
{
	u64 ts = rng() % (1ULL << 50);
	unsigned int i, at = 0, len;

	for (i = 0; i < n; i++) {
		len = run_step(kind, &ts);
		if (len > 2048)
			len = 2048;
		if (at + len > sizeof(run_arena))
			at = 0;
		fill((u8)i, len);
		memcpy(run_arena + at, payload, len);
		run_recs[i] = (struct rr_rec){
			.ts = ts, .data = run_arena + at, .len = len,
		};
		at += len;
	}
}

static void test_runs(void)
{
	static const unsigned int maxes[] = { ~0U, 1, 2, 7, 64 };
	static const unsigned int orders[] = { 0, 1, 3 };
	unsigned int kind, mi, oi, n;
	const char *why;

	for (kind = 0; kind < 5; kind++) {
		for (oi = 0; oi < ARRAY_SIZE(orders); oi++) {
			for (mi = 0; mi < ARRAY_SIZE(maxes); mi++) {
				n = 300 + rng() % 1200;
				run_stream(kind, n);
				why = rr_compare(run_recs, n,
						 RT_RAW_PAGE_SIZE << orders[oi],
						 maxes[mi]);
				if (why)
					fprintf(stderr, "runs: kind %u order %u max %u: %s\n",
						kind, orders[oi], maxes[mi], why);
				CHECK(!why);
			}
		}
	}
}

int main(void)
{
	test_short();
	printf("ok raw_page_short\n");
	test_long();
	printf("ok raw_page_long\n");
	test_extend();
	printf("ok raw_page_extend\n");
	test_backwards();
	printf("ok raw_page_backwards\n");
	test_enospc();
	printf("ok raw_page_enospc\n");
	test_einval();
	printf("ok raw_page_einval\n");
	test_missed();
	printf("ok raw_page_missed\n");
	test_full_pages();
	printf("ok raw_page_full_pages\n");
	test_decoder_rejects();
	printf("ok raw_page_decoder_rejects\n");
	test_decoder_kbuffer_types();
	printf("ok raw_page_decoder_kbuffer_types\n");
	test_page_sizes();
	printf("ok raw_page_page_sizes\n");
	test_restore();
	printf("ok raw_page_restore\n");
	test_runs();
	printf("ok raw_page_runs\n");
	printf("raw_page_test: %u checks passed\n", checks);
	return 0;
}
