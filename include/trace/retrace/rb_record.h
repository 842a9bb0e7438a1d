/* SPDX-License-Identifier: GPL-2.0 */
/*
 * retrace ring buffer: how a record is laid out in a ring page.
 *
 * A reader that copies whole runs of records out of a page and decodes
 * them itself (rt_buffer_consume_span()'s take_run(), used by
 * trace_pipe_raw) needs this; everyone else goes through the ring
 * buffer's functions and never sees it.
 *
 * Record header, one u32: bits 0-4 say what follows, bits 5-31 carry the
 * time since the page's base time (struct rt_rb_run's base_ts):
 *   1..28	a record with kind * 4 payload bytes
 *   LONG	a record whose payload length is in the next u32
 *   ABS	an absolute timestamp (two u32, low then high) for the
 *		record that immediately follows it; used when the delta
 *		does not fit or the page base is not yet known
 * Zero is never written, so zeroed memory never decodes as a record.
 * Payloads are whole u32s, and the records of a page follow each other
 * with no gap.
 */
#ifndef _TRACE_RETRACE_RB_RECORD_H
#define _TRACE_RETRACE_RB_RECORD_H

#ifndef RETRACE_HOST
#include <linux/compiler.h>
#include <linux/types.h>
#endif

#define RT_RB_KIND_BITS		5
#define RT_RB_KIND_MASK		((1U << RT_RB_KIND_BITS) - 1)
#define RT_RB_KIND_MAX_SHORT	28
#define RT_RB_KIND_LONG		29
#define RT_RB_KIND_ABS		30
#define RT_RB_DELTA_MAX		((1ULL << (32 - RT_RB_KIND_BITS)) - 1)
#define RT_RB_ABS_LEN		12	/* an ABS header and its timestamp */

/*
 * Largest payload one record may carry.  A record, its header and a
 * possible absolute-time prefix must fit in one page's data area.
 */
#define RT_RB_MAX_PAYLOAD	4048

/**
 * rt_rb_run_next - decode the record at the start of a run
 * @p: its header, 4-byte aligned
 * @left: bytes from @p to the end of the run
 * @delta: set to its time since the run's base_ts
 * @data: set to its payload
 * @plen: set to its payload bytes
 *
 * The decoder of a record in a ring page, for the ring's own readers
 * (rb_locate(), after an absolute time if there is one) and for
 * take_run()s that hand records on one by one.  The page may be one a
 * writer is overwriting: each word is read once, every length is
 * checked against @left, and what it yields is only good once the
 * claim succeeds.
 *
 * Return: the bytes the record takes, or 0 for an absolute time (not
 * part of a run), bytes that do not decode, or a record cut off.
 */
static inline unsigned int rt_rb_run_next(const void *p, unsigned int left,
					  u32 *delta, const void **data,
					  unsigned int *plen)
{
	const u32 *w = p;
	u32 hdr, kind, len, at = 4;

	if (left < 8)
		return 0;
	hdr = READ_ONCE(w[0]);
	kind = hdr & RT_RB_KIND_MASK;
	if (kind >= 1 && kind <= RT_RB_KIND_MAX_SHORT) {
		len = kind * 4;
	} else if (kind == RT_RB_KIND_LONG) {
		len = READ_ONCE(w[1]);
		at = 8;
		if (!len || len % 4 || len > RT_RB_MAX_PAYLOAD)
			return 0;
	} else {
		return 0;
	}
	if (len > left - at)
		return 0;
	*delta = hdr >> RT_RB_KIND_BITS;
	*data = (const u8 *)p + at;
	*plen = len;
	return at + len;
}

#endif /* _TRACE_RETRACE_RB_RECORD_H */
