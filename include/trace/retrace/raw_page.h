/* SPDX-License-Identifier: GPL-2.0 */
/*
 * retrace core: the binary page format of per_cpu/cpuN/trace_pipe_raw.
 *
 * The ring buffer's own pages are not handed out: their record header
 * counts time from a per-page base and their cursors pack more than a
 * reader needs.  A raw reader instead copies the records, a ring page's
 * run at a time or one by one, into pages of this format, the one that
 * events/header_page and events/header_event describe and that
 * libtraceevent's kbuffer reads:
 *
 *   u64 timestamp     time of the first record in the page
 *   u64 commit        bytes of record data; bit 31: records were lost
 *                     before this page; bit 30: their number follows
 *                     the data as a u64
 *   data[]            records, each a u32 header then its payload
 *
 * A page (a "sub-buffer") is RT_RAW_PAGE_SIZE (4096) bytes, or a power
 * of two times that up to RT_RAW_PAGE_SIZE << RT_RAW_MAX_ORDER (512
 * KiB), as buffer_subbuf_size_kb chooses; header_page gives the data
 * area's size.  The records take all of the data area but its last
 * RT_RAW_LOST_SIZE bytes (4072 of 4080 in a 4 KiB page): the packer
 * keeps them free, so that the number of lost records can always be
 * stored after the data and bit 30 is set whenever bit 31 is.
 * (Upstream may fill the whole data area and then set bit 31 alone, a
 * loss without a number; these pages never do.)  A payload is at most
 * RT_RAW_MAX_LEN (4056) bytes in any page size, so that with a long
 * record's 8-byte header and an 8-byte time extend it still fits in an
 * empty 4 KiB page.
 *
 * A record header is type_len (bits 0-4) and time_delta (bits 5-31),
 * the time since the record before it (or since the page timestamp):
 *   type_len 1..28   a record of type_len * 4 payload bytes
 *   type_len 0       a record whose length + 4 is the next u32
 *   type_len 30      time extend: the delta is too large for 27 bits;
 *                    the next u32 holds delta >> 27 and time_delta the
 *                    low 27 bits; the record that follows has delta 0
 * Types 29 (padding) and 31 (absolute time) are never written.
 */
#ifndef _TRACE_RETRACE_RAW_PAGE_H
#define _TRACE_RETRACE_RAW_PAGE_H

#ifdef RETRACE_HOST
#include "pure_shim.h"
#else
#include <linux/types.h>
#endif

/* The smallest page, and the space and limits of one that size. */
#define RT_RAW_PAGE_SIZE	4096
#define RT_RAW_MAX_ORDER	7	/* pages up to 4096 << 7 bytes */
#define RT_RAW_HDR_SIZE		16	/* timestamp, commit */
#define RT_RAW_DATA_SIZE	(RT_RAW_PAGE_SIZE - RT_RAW_HDR_SIZE)
#define RT_RAW_LOST_SIZE	8	/* the lost count, after the data */
#define RT_RAW_REC_SPACE	(RT_RAW_DATA_SIZE - RT_RAW_LOST_SIZE)
#define RT_RAW_MAX_LEN		(RT_RAW_REC_SPACE - 16)

#define RT_RAW_MISSED_EVENTS	(1ULL << 31)
#define RT_RAW_MISSED_STORED	(1ULL << 30)
#define RT_RAW_COMMIT_MASK	((1ULL << 30) - 1)

#define RT_RAW_TYPE_BITS	5
#define RT_RAW_TYPE_MASK	((1U << RT_RAW_TYPE_BITS) - 1)
#define RT_RAW_TYPE_MAX_SHORT	28
#define RT_RAW_TYPE_PADDING	29
#define RT_RAW_TYPE_EXTEND	30
#define RT_RAW_TYPE_ABS		31
#define RT_RAW_DELTA_MAX	((1U << (32 - RT_RAW_TYPE_BITS)) - 1)

/**
 * struct rt_raw_page - a page being packed
 * @page: @size bytes
 * @size: RT_RAW_PAGE_SIZE << order, order 0..RT_RAW_MAX_ORDER
 * @used: record bytes in the data area so far, at most
 *	rt_raw_rec_space(@size)
 * @nr: records packed
 * @last_ts: time of the last record packed (the next delta's origin)
 */
struct rt_raw_page {
	u8		*page;
	unsigned int	size;
	unsigned int	used;
	unsigned int	nr;
	u64		last_ts;
};

/* Record bytes a page of @size bytes holds. */
static inline unsigned int rt_raw_rec_space(unsigned int size)
{
	return size - RT_RAW_HDR_SIZE - RT_RAW_LOST_SIZE;
}

void rt_raw_page_start(struct rt_raw_page *p, void *page, unsigned int size);
int rt_raw_page_add(struct rt_raw_page *p, u64 ts, const void *data,
		    unsigned int len);
unsigned int rt_raw_page_add_run(struct rt_raw_page *p, u64 base_ts,
				 const void *src, unsigned int len,
				 unsigned int max, unsigned int *bytes);
void rt_raw_page_finish(struct rt_raw_page *p, u64 missed);

#endif /* _TRACE_RETRACE_RAW_PAGE_H */
