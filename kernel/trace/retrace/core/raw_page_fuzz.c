// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for raw_page.c.  After a first byte that chooses the
 * lost count given to each page (bits 0-1 and the byte) and the page
 * size (bits 2-3: 4 KiB << 0..3), every four input bytes are a record:
 * a byte for the time since the last (0 to 2^40, or a step back), two
 * for the length (4 to 4056, a multiple of 4) and one for the payload.
 * The records are packed into pages, a new page on -ENOSPC, and each
 * page is read back with raw_page_check.h: every record must come back
 * with its time and payload, -ENOSPC only when it did not fit in the
 * record space (rt_raw_rec_space()), and a page's lost count is always
 * stored after its data.  The same records are then laid out as the
 * ring would and packed by runs (raw_run_check.h), at most 1 to 64 or
 * any number per run as bits 4-5 choose: the pages must be the same
 * bytes.  The raw input is also decoded as a page; any result but a
 * crash will do.
 */
#include "pure_shim.h"
#include <stdio.h>
#include <trace/retrace/raw_page.h>
#include "raw_page_check.h"
#include "raw_run_check.h"


static struct rt_raw_page p;
static struct exp_rec want[MAX_RECS];
static unsigned int nr, used, page_size;
static u64 last;
static u8 page[MAX_PAGE];
static u8 payload[RT_RAW_PAGE_SIZE];
static u8 copy[RT_RAW_PAGE_SIZE];
static struct rr_rec runs[RR_MAX_RECS];
static u8 arena[RR_MAX_RECS / 2 * MAX_LEN];
u8 raw_page_fuzz_sink;	/* kept: the decoder's reads are not optimised out */

static void fail(const char *what, unsigned int i)
{
	fprintf(stderr, "fuzz check failed: %s (record %u of %u)\n", what, i,
		nr);
	abort();
}

static void fill(u8 seed, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < len; i++)
		payload[i] = (u8)(seed ^ i ^ (i >> 8));
}

static u64 delta_of(u8 b)
{
	switch (b) {
	case 255:
		return 1ULL << 40;
	case 254:
		return (1ULL << 27) - 1;
	case 253:
		return 1ULL << 27;
	case 252:
		return (1ULL << 32) + 1;
	default:
		/* 0..7 times 2^0 .. 2^39 */
		return (u64)(b & 7) << ((b >> 3) * 39 / 31);
	}
}

static unsigned int rec_size(u64 ts, unsigned int len)
{
	unsigned int size = 4 + len;

	if (len > 112)
		size += 4;
	if (nr && ts > last && ts - last >= (1ULL << 27))
		size += 8;
	return size;
}

static void finish_and_check(u64 missed)
{
	struct rt_rck_rec r;
	struct rt_rck c;
	unsigned int i;

	rt_raw_page_finish(&p, missed);
	if (rt_rck_load(&c, page, page_size))
		fail("page header", 0);
	if (c.size != used || c.page_ts != want[0].ts)
		fail("page header fields", 0);
	/* Never a loss without its number. */
	if (c.missed != !!missed || c.stored != !!missed ||
	    c.lost != (s64)missed)
		fail("lost count", 0);
	for (i = 0; i < nr; i++) {
		if (rt_rck_next(&c, &r) != 1)
			fail("record missing", i);
		if (r.ts != want[i].ts)
			fail("time", i);
		if (r.len != want[i].len)
			fail("length", i);
		fill(want[i].seed, r.len);
		if (memcmp(r.data, payload, r.len))
			fail("payload", i);
	}
	if (rt_rck_next(&c, &r) != 0 || c.pads || c.abs)
		fail("extra data", i);
}

static void start(void)
{
	rt_raw_page_start(&p, page, page_size);
	nr = 0;
	used = 0;
	last = 0;
}

static void decode_any(const u8 *buf, size_t size)
{
	struct rt_rck_rec r;
	struct rt_rck c;
	unsigned int n = 0;

	if (rt_rck_load(&c, buf, size))
		return;
	while (rt_rck_next(&c, &r) == 1) {
		/* Touch the ends of what it hands out. */
		if (r.len)
			raw_page_fuzz_sink ^= r.data[0] ^ r.data[r.len - 1];
		if (++n > RT_RAW_PAGE_SIZE / 4)
			abort();	/* each record moves on 4 bytes */
	}
	if (c.lost > 0)
		raw_page_fuzz_sink ^= (u8)c.lost;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	unsigned int pages = 0, len, nruns = 0;
	size_t i, at = 0;
	u64 ts = 1ULL << 30, missed;
	u8 mode;
	int ret;

	decode_any(data, size);
	memset(copy, 0, sizeof(copy));
	memcpy(copy, data, size < sizeof(copy) ? size : sizeof(copy));
	decode_any(copy, sizeof(copy));

	if (!size)
		return 0;
	mode = data[0];
	page_size = RT_RAW_PAGE_SIZE << ((mode >> 2) & 3);
	start();
	for (i = 1; i + 4 <= size; i += 4) {
		u8 d = data[i], seed = data[i + 3];

		if (d == 251)
			ts -= 1000;		/* a step back: delta 0 */
		else
			ts += delta_of(d);
		len = 4 * (1 + (data[i + 1] | data[i + 2] << 8) % (MAX_LEN / 4));
		fill(seed, len);
		if (nruns < RR_MAX_RECS && at + len <= sizeof(arena)) {
			memcpy(arena + at, payload, len);
			runs[nruns++] = (struct rr_rec){
				.ts = ts, .data = arena + at, .len = len,
			};
			at += len;
		}
		ret = rt_raw_page_add(&p, ts, payload, len);
		if (ret == -ENOSPC) {
			if (!nr || used + rec_size(ts, len) <=
				   rt_raw_rec_space(page_size))
				fail("-ENOSPC with room", nr);
			missed = mode & 1 ? (u64)mode * ++pages : 0;
			finish_and_check(missed);
			start();
			fill(seed, len);
			ret = rt_raw_page_add(&p, ts, payload, len);
		}
		if (ret)
			fail("add refused", nr);
		used += rec_size(ts, len);
		if (!nr || ts > last)
			last = ts;
		want[nr].ts = last;
		want[nr].len = len;
		want[nr].seed = seed;
		nr++;
		if (p.used != used || p.nr != nr ||
		    used > rt_raw_rec_space(page_size))
			fail("page state", nr);
	}
	if (nr)
		finish_and_check(mode & 2 ? mode : 0);
	if (nruns) {
		static const unsigned int maxes[] = { ~0U, 1, 3, 64 };
		const char *why = rr_compare(runs, nruns, page_size,
					     maxes[(mode >> 4) & 3]);

		if (why)
			fail(why, 0);
	}
	return 0;
}
