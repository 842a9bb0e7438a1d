// SPDX-License-Identifier: GPL-2.0
/*
 * Packing records into the binary page format of trace_pipe_raw (see
 * <trace/retrace/raw_page.h>).  Pure: it touches only the page it is
 * given, and builds as a host program for its tests and fuzzer.
 *
 * The cost is one copy of each record, paid by the reader only; the
 * ring buffer's writers do not know this format exists.
 */
#ifdef RETRACE_HOST
#include "pure_shim.h"
#else
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/types.h>
#endif
#include <trace/retrace/raw_page.h>

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
