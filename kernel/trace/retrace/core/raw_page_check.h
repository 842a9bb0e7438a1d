/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A decoder for the pages of trace_pipe_raw, for the host tests and the
 * fuzzer of raw_page.c only.  It shares no code with the encoder and
 * follows libtraceevent's kbuffer-parse.c (kbuffer_load_subbuffer(),
 * translate_data(), __next_event()) for a little-endian 64-bit page:
 *
 *   - the page starts with a u64 timestamp and a u64 commit word whose
 *     low 27 bits are the bytes of data, bit 31 says records were lost
 *     and bit 30 that their count follows the data as a u64; a page
 *     may fill its whole data area and then have bit 31 without bit 30
 *     (upstream writes such pages, raw_page.c never does: the tests
 *     check that themselves, not through this decoder);
 *   - each record's u32 header is type_len (bits 0-4) and time_delta
 *     (bits 5-31), added to the running time;
 *   - type_len 1..28: type_len * 4 payload bytes follow the header;
 *   - type_len 0: the next u32 is the payload length + 4, rounded up
 *     to 4 as kbuffer does;
 *   - type_len 29, padding: kbuffer skips the u32 after the header
 *     that many bytes; so does this, and counts it;
 *   - type_len 30, time extend: (next u32 << 27) + time_delta is added;
 *   - type_len 31, absolute time: (next u32 << 27) + time_delta, with
 *     the top 5 bits of the running time, becomes the running time.
 *
 * Unlike kbuffer it trusts nothing: a commit word with stray bits or
 * past the end of the page, or a record that does not fit in the
 * commit, is reported as -EINVAL instead of read, since the fuzzer
 * feeds it arbitrary bytes.
 */
#ifndef _RETRACE_RAW_PAGE_CHECK_H
#define _RETRACE_RAW_PAGE_CHECK_H

#include "pure_shim.h"
#include <trace/retrace/raw_page.h>

/*
 * For the test and the fuzzer: the largest record payload the packer
 * takes (one that fits in an empty page after a long record's header
 * and a time extend, in the room left by the lost count), the most
 * records the largest page tried can hold, and one expected record (its time, payload
 * length and the byte its payload is made from).
 */
#define MAX_LEN		(RT_RAW_REC_SPACE - 16)
/* The test and the fuzzer try pages up to 32 KiB (order 3). */
#define MAX_PAGE	(RT_RAW_PAGE_SIZE << 3)
#define MAX_RECS	(MAX_PAGE / 8)

struct exp_rec {
	u64		ts;
	unsigned int	len;
	u8		seed;
};

#define RT_RCK_HDR_SIZE		16
#define RT_RCK_MISSED		(1ULL << 31)
#define RT_RCK_STORED		(1ULL << 30)
#define RT_RCK_SIZE_MASK	((1ULL << 27) - 1)
#define RT_RCK_TS_SHIFT		27
#define RT_RCK_TS_MSB		(0xf8ULL << 56)

#define RT_RCK_TYPE_DATA	0
#define RT_RCK_TYPE_MAX_SHORT	28
#define RT_RCK_TYPE_PADDING	29
#define RT_RCK_TYPE_EXTEND	30
#define RT_RCK_TYPE_ABS		31

/**
 * struct rt_rck - a page being decoded
 * @page: the page
 * @page_size: its bytes (the data area is @page_size - 16)
 * @page_ts: the timestamp in the page header
 * @size: bytes of record data, from the commit word
 * @missed: the commit word's lost-records flag
 * @stored: the commit word's count-follows flag
 * @lost: as kbuffer_missed_events(): 0, the stored count, or -1
 * @ts: the running time
 * @next: offset in the data area of the next record header
 * @nr: records returned
 * @extends: time extends passed
 * @abs: absolute timestamps passed
 * @pads: padding records passed
 */
struct rt_rck {
	const u8	*page;
	size_t		page_size;
	u64		page_ts;
	u32		size;
	bool		missed;
	bool		stored;
	s64		lost;
	u64		ts;
	u32		next;
	unsigned int	nr;
	unsigned int	extends;
	unsigned int	abs;
	unsigned int	pads;
};

/**
 * struct rt_rck_rec - one record
 * @ts: its time
 * @data: its payload, inside the page
 * @len: payload bytes
 * @off: offset of its header in the data area
 */
struct rt_rck_rec {
	u64		ts;
	const u8	*data;
	u32		len;
	u32		off;
};

static inline u32 rt_rck_read4(const u8 *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline u64 rt_rck_read8(const u8 *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* The data area, as kbuffer's kbuf->data. */
static inline const u8 *rt_rck_data(const struct rt_rck *c)
{
	return c->page + RT_RCK_HDR_SIZE;
}

/**
 * rt_rck_load - read a page header, as kbuffer_load_subbuffer()
 * @c: the decoder
 * @page: the page
 * @page_size: its bytes, however many the caller has
 *
 * Return: 0, or -EINVAL for a page too short for its header, a commit
 * word with bits kbuffer does not know of, a count-follows flag without
 * the lost flag, or data (and count) past the end of the page.
 */
static inline int rt_rck_load(struct rt_rck *c, const void *page,
			      size_t page_size)
{
	u64 commit, room;

	memset(c, 0, sizeof(*c));
	c->page = page;
	c->page_size = page_size;
	if (page_size < RT_RCK_HDR_SIZE)
		return -EINVAL;
	room = page_size - RT_RCK_HDR_SIZE;
	c->page_ts = rt_rck_read8(c->page);
	c->ts = c->page_ts;
	commit = rt_rck_read8(c->page + 8);
	if (commit & ~(RT_RCK_MISSED | RT_RCK_STORED | RT_RCK_SIZE_MASK))
		return -EINVAL;
	c->size = commit & RT_RCK_SIZE_MASK;
	c->missed = commit & RT_RCK_MISSED;
	c->stored = commit & RT_RCK_STORED;
	if (c->size > room)
		return -EINVAL;
	if (c->stored && !c->missed)
		return -EINVAL;
	if (c->missed) {
		if (c->stored) {
			if (room - c->size < 8)
				return -EINVAL;
			c->lost = rt_rck_read8(rt_rck_data(c) + c->size);
		} else {
			c->lost = -1;
		}
	}
	return 0;
}

/*
 * Need @bytes bytes at @off in the data area, all within the commit:
 * @off and @bytes are at most 2^32 each, so the sum cannot wrap a u64.
 */
static inline bool rt_rck_fits(const struct rt_rck *c, u64 off, u64 bytes)
{
	return off + bytes <= c->size;
}

/**
 * rt_rck_next - the next record, as kbuffer_next_event()
 * @c: the decoder, after rt_rck_load() returned 0
 * @rec: filled with the record
 *
 * Time extends, absolute timestamps and padding move the running time
 * and are passed over, as __next_event() passes them.
 *
 * Return: 1 with @rec filled, 0 at the end of the data, or -EINVAL for
 * a record that does not fit in the data.
 */
static inline int rt_rck_next(struct rt_rck *c, struct rt_rck_rec *rec)
{
	const u8 *d = rt_rck_data(c);

	while (c->next < c->size) {
		u32 off = c->next, hdr, type_len, delta, word;
		u64 len;

		if (!rt_rck_fits(c, off, 4))
			return -EINVAL;
		hdr = rt_rck_read4(d + off);
		type_len = hdr & 0x1f;
		delta = hdr >> 5;
		off += 4;

		switch (type_len) {
		case RT_RCK_TYPE_PADDING:
			if (!rt_rck_fits(c, off, 4))
				return -EINVAL;
			word = rt_rck_read4(d + off);
			if (!rt_rck_fits(c, off, word))
				return -EINVAL;
			c->ts += delta;
			c->next = off + word;
			c->pads++;
			continue;
		case RT_RCK_TYPE_EXTEND:
		case RT_RCK_TYPE_ABS:
			if (!rt_rck_fits(c, off, 4))
				return -EINVAL;
			word = rt_rck_read4(d + off);
			len = ((u64)word << RT_RCK_TS_SHIFT) + delta;
			if (type_len == RT_RCK_TYPE_ABS) {
				c->ts = len | (c->ts & RT_RCK_TS_MSB);
				c->abs++;
			} else {
				c->ts += len;
				c->extends++;
			}
			c->next = off + 4;
			continue;
		case RT_RCK_TYPE_DATA:
			if (!rt_rck_fits(c, off, 4))
				return -EINVAL;
			word = rt_rck_read4(d + off);
			if (word < 4)
				return -EINVAL;
			len = ((u64)word - 4 + 3) & ~3ULL;
			off += 4;
			break;
		default:
			len = type_len * 4;
			break;
		}
		if (!rt_rck_fits(c, off, len))
			return -EINVAL;
		c->ts += delta;
		c->next = off + len;
		c->nr++;
		rec->ts = c->ts;
		rec->data = d + off;
		rec->len = len;
		rec->off = off - (type_len ? 4 : 8);
		return 1;
	}
	return 0;
}

#endif /* _RETRACE_RAW_PAGE_CHECK_H */
