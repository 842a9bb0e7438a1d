// SPDX-License-Identifier: GPL-2.0
/*
 * Packing records into the binary page format of trace_pipe_raw (see
 * <trace/retrace/raw_page.h>).  Pure: it touches only the page it is
 * given, and builds as a host program for its tests and fuzzer.
 *
 * The cost is one copy of each record, paid by the reader only; the
 * ring buffer's writers do not know this format exists.  Records come
 * one at a time (rt_raw_page_add()), or as a run of the ring's own
 * encoding copied in one go (rt_raw_page_add_run()), whose headers
 * differ from this format's only in where their time counts from.
 */
#ifdef RETRACE_HOST
#include "pure_shim.h"
#else
#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/types.h>
#endif
#include <trace/retrace/raw_page.h>
#include <trace/retrace/rb_record.h>

static u32 rt_raw_get32(const u8 *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void rt_raw_put32(u8 *p, u32 v)
{
	memcpy(p, &v, sizeof(v));	/* little endian, like the writer */
}

static void rt_raw_put64(u8 *p, u64 v)
{
	memcpy(p, &v, sizeof(v));
}

/**
 * rt_raw_page_start - begin packing an empty page
 * @p: the packing state
 * @page: @size bytes; rt_raw_page_finish() clears what records leave
 * @size: RT_RAW_PAGE_SIZE << order, order 0..RT_RAW_MAX_ORDER
 */
void rt_raw_page_start(struct rt_raw_page *p, void *page, unsigned int size)
{
	p->page = page;
	p->size = size;
	p->used = 0;
	p->nr = 0;
	p->last_ts = 0;
}

/**
 * rt_raw_page_add - append one record
 * @p: the packing state
 * @ts: its time; a time before the previous record's counts as equal
 * @data: its payload
 * @len: payload bytes, a multiple of 4, at most RT_RAW_MAX_LEN (4056)
 *
 * The record must fit in rt_raw_rec_space(), not in the whole data
 * area: the last RT_RAW_LOST_SIZE bytes are kept for
 * rt_raw_page_finish().
 *
 * Return: 0, -ENOSPC when it does not fit in what is left of the page
 * (nothing is written), or -EINVAL for a length no page can hold.
 */
int rt_raw_page_add(struct rt_raw_page *p, u64 ts, const void *data,
		    unsigned int len)
{
	u8 *d = p->page + RT_RAW_HDR_SIZE + p->used;
	unsigned int need = 4 + len, at = 0;
	u64 delta;

	if (!len || (len & 3) || len > RT_RAW_MAX_LEN)
		return -EINVAL;
	if (!p->nr) {
		/* The first record's time is the page's. */
		rt_raw_put64(p->page, ts);
		p->last_ts = ts;
	}
	delta = ts > p->last_ts ? ts - p->last_ts : 0;
	if (delta > RT_RAW_DELTA_MAX)
		need += 8;
	if (len > RT_RAW_TYPE_MAX_SHORT * 4)
		need += 4;
	if (need > rt_raw_rec_space(p->size) - p->used)
		return -ENOSPC;

	if (delta > RT_RAW_DELTA_MAX) {
		rt_raw_put32(d, RT_RAW_TYPE_EXTEND |
			     (u32)(delta & RT_RAW_DELTA_MAX) << RT_RAW_TYPE_BITS);
		rt_raw_put32(d + 4, (u32)(delta >> (32 - RT_RAW_TYPE_BITS)));
		at = 8;
		delta = 0;
	}
	if (len <= RT_RAW_TYPE_MAX_SHORT * 4) {
		rt_raw_put32(d + at, len / 4 | (u32)delta << RT_RAW_TYPE_BITS);
		at += 4;
	} else {
		rt_raw_put32(d + at, (u32)delta << RT_RAW_TYPE_BITS);
		rt_raw_put32(d + at + 4, len + 4);
		at += 8;
	}
	memcpy(d + at, data, len);
	p->used += need;
	p->nr++;
	if (ts > p->last_ts)
		p->last_ts = ts;
	return 0;
}

/**
 * rt_raw_page_add_run - append a run of records in the ring's encoding
 * @p: the packing state
 * @base_ts: the time the run's headers count from (their page's base)
 * @src: whole records as a ring page holds them (<trace/retrace/rb_record.h>)
 * @len: bytes at @src
 * @max: take at most this many records
 * @bytes: set to the bytes of @src taken
 *
 * Copies as much of @src as the page has room for in one go (unless
 * the first record cannot start a run), then rewrites the headers in
 * place: a ring header's time counts from the
 * page's base, this format's from the record before.  The run stops
 * before a record the two formats would size differently (an absolute
 * time; a delta that needs a time extend, which only the run's first
 * record can), before one that is cut off or does not decode (@src may
 * be a page a writer is overwriting: the caller validates the copy
 * afterwards), and after @max.  Those are left to rt_raw_page_add().
 * What was copied past the records taken lies beyond @p->used, where
 * the next record or rt_raw_page_finish() overwrites it.
 *
 * Return: the number of records taken, 0 if none.
 */
unsigned int rt_raw_page_add_run(struct rt_raw_page *p, u64 base_ts,
				 const void *src, unsigned int len,
				 unsigned int max, unsigned int *bytes)
{
	unsigned int room = rt_raw_rec_space(p->size) - p->used;
	u8 *start = p->page + RT_RAW_HDR_SIZE + p->used, *q = start, *end;
	unsigned int n = 0, rec;
	u32 hdr, kind, d, prev;
	u64 ts, delta0;

	/* Short records keep their type: the two formats number them alike. */
	BUILD_BUG_ON(RT_RB_KIND_MAX_SHORT != RT_RAW_TYPE_MAX_SHORT ||
		     RT_RB_KIND_BITS != RT_RAW_TYPE_BITS);
	end = start + (len < room ? len : room);
	if (!max || end - q < 8)
		goto out;
	/*
	 * The first header is read where it lies, so that a run that
	 * cannot start (an absolute time, a time extend: rt_raw_page_add()
	 * takes those) costs no copy.  The loop reads it again from the
	 * copy; should a writer change it in between, the caller's
	 * validation undoes all of it.
	 */
	hdr = rt_raw_get32(src);
	kind = hdr & RT_RB_KIND_MASK;
	if (kind - 1 >= RT_RB_KIND_MAX_SHORT && kind != RT_RB_KIND_LONG)
		goto out;
	/*
	 * prev: the latest time packed, as a delta from base_ts.  The
	 * first record's own delta counts from the page's last time, a
	 * full u64 (delta0, written into its header after the loop); each
	 * later record's is then d - prev, which fits its header.
	 */
	d = hdr >> RT_RB_KIND_BITS;
	ts = base_ts + d;
	if (!p->nr) {
		/* The first record's time is the page's. */
		rt_raw_put64(p->page, ts);
		p->last_ts = ts;
	}
	if (ts >= p->last_ts) {
		delta0 = ts - p->last_ts;
		if (delta0 > RT_RAW_DELTA_MAX)
			goto out;	/* a time extend: rt_raw_page_add() */
		prev = d;
	} else if (p->last_ts - base_ts <= RT_RB_DELTA_MAX) {
		/* Behind the page's last time: counts as equal to it. */
		delta0 = 0;
		prev = (u32)(p->last_ts - base_ts);
	} else {
		goto out;
	}
	memcpy(start, src, end - start);
	do {
		hdr = rt_raw_get32(q);
		kind = hdr & RT_RB_KIND_MASK;
		d = hdr >> RT_RB_KIND_BITS;
		if (kind - 1 < RT_RB_KIND_MAX_SHORT) {
			rec = 4 + kind * 4;
			if (rec > end - q)
				break;
			/* kind | (d - prev) << 5, or delta 0 if behind. */
			rt_raw_put32(q, d >= prev ? hdr - (prev << RT_RB_KIND_BITS)
					       : kind);
		} else if (kind == RT_RB_KIND_LONG) {
			u32 plen = rt_raw_get32(q + 4);

			if (!plen || plen % 4 || plen > RT_RAW_MAX_LEN ||
			    8 + plen > end - q)
				break;
			rec = 8 + plen;
			rt_raw_put32(q, d >= prev ? (d - prev) << RT_RAW_TYPE_BITS
					       : 0);
			rt_raw_put32(q + 4, plen + 4);
		} else {
			break;	/* an absolute time, or a writer's bytes */
		}
		if (d > prev)
			prev = d;
		q += rec;
		n++;
	} while (n < max && end - q >= 8);
	if (n) {
		/* The loop gave the first record delta 0 (or kept it). */
		rt_raw_put32(start, rt_raw_get32(start) |
			     (u32)delta0 << RT_RAW_TYPE_BITS);
		p->last_ts = base_ts + prev;
	}
out:
	p->used += q - start;
	p->nr += n;
	*bytes = q - start;
	return n;
}

/**
 * rt_raw_page_finish - write the commit word
 * @p: the packing state
 * @missed: records lost before this page's first (0: none)
 *
 * The count of lost records is always stored after the data, with
 * both flags: rt_raw_page_add() left RT_RAW_LOST_SIZE bytes for it.
 */
void rt_raw_page_finish(struct rt_raw_page *p, u64 missed)
{
	unsigned int end = RT_RAW_HDR_SIZE + p->used;
	u64 commit = p->used;

	if (missed) {
		rt_raw_put64(p->page + end, missed);
		end += RT_RAW_LOST_SIZE;
		commit |= RT_RAW_MISSED_EVENTS | RT_RAW_MISSED_STORED;
	}
	rt_raw_put64(p->page + 8, commit);
	/* Nothing of an earlier page, or of a record undone, is handed out. */
	memset(p->page + end, 0, p->size - end);
}
