/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host-side check of rt_raw_page_add_run(), for raw_page_test.c and
 * raw_page_fuzz.c: a stream of records is laid out in ring pages the
 * way rt_buffer_reserve() lays them out (<trace/retrace/rb_record.h>),
 * then packed by runs with the one-by-one fallback, as
 * rt_buffer_consume_span() and trace_pipe_raw do.  The pages that come
 * out must be byte for byte the pages rt_raw_page_add() makes from the
 * same records one at a time: the run is only a faster way to the same
 * page.
 */
#ifndef _RETRACE_RAW_RUN_CHECK_H
#define _RETRACE_RAW_RUN_CHECK_H

#include <trace/retrace/rb_record.h>

#define RR_DATA_SIZE	4072	/* a ring page's data area, 4 KiB pages */
#define RR_MAX_RECS	2048
#define RR_MAX_OUT	(512 * RT_RAW_PAGE_SIZE)

struct rr_rec {
	u64		ts;
	const u8	*data;
	unsigned int	len;	/* a multiple of 4, 4..RT_RAW_MAX_LEN */
};

/* One ring page: its records' bytes and the time their deltas count from. */
struct rr_ring_page {
	u8		data[RR_DATA_SIZE];
	unsigned int	len;
	u64		base;
	unsigned int	first;	/* index of its first record */
};

static struct rr_ring_page rr_ring[RR_MAX_RECS];
static unsigned int rr_enc_size[RR_MAX_RECS];
static u8 rr_out_each[RR_MAX_OUT], rr_out_runs[RR_MAX_OUT];

static void rr_put32(u8 *p, u32 v)
{
	memcpy(p, &v, 4);
}

/* Lay @n records out as the ring's writer would.  Return: ring pages. */
static unsigned int rr_encode(const struct rr_rec *r, unsigned int n)
{
	unsigned int pages = 0, i, off = RR_DATA_SIZE;
	u64 base = 0;

	for (i = 0; i < n; i++) {
		unsigned int rec = r[i].len + (r[i].len <= 112 ? 4 : 8);
		u64 delta = r[i].ts - base;
		bool abs = delta > RT_RB_DELTA_MAX;
		u8 *d;

		if (off + rec + (abs ? RT_RB_ABS_LEN : 0) > RR_DATA_SIZE) {
			/* The record opens the next page and is its base. */
			rr_ring[pages].len = 0;
			rr_ring[pages].base = base = r[i].ts;
			rr_ring[pages].first = i;
			pages++;
			off = 0;
			abs = false;
			delta = 0;
		}
		d = rr_ring[pages - 1].data + off;
		rr_enc_size[i] = rec;
		if (abs) {
			rr_put32(d, RT_RB_KIND_ABS);
			rr_put32(d + 4, (u32)r[i].ts);
			rr_put32(d + 8, (u32)(r[i].ts >> 32));
			d += RT_RB_ABS_LEN;
			rr_enc_size[i] += RT_RB_ABS_LEN;
			delta = 0;
		}
		if (r[i].len <= 112) {
			rr_put32(d, (u32)delta << RT_RB_KIND_BITS | r[i].len / 4);
			d += 4;
		} else {
			rr_put32(d, (u32)delta << RT_RB_KIND_BITS | RT_RB_KIND_LONG);
			rr_put32(d + 4, r[i].len);
			d += 8;
		}
		memcpy(d, r[i].data, r[i].len);
		off += rr_enc_size[i];
		rr_ring[pages - 1].len = off;
	}
	return pages;
}

/*
 * Pack @n records into pages of @size bytes in @out, one at a time.
 * Return: pages, or -1 if a record was refused.
 */
static int rr_pack_each(const struct rr_rec *r, unsigned int n, u8 *out,
			unsigned int size)
{
	struct rt_raw_page p;
	unsigned int i, pages = 0;
	int ret;

	memset(out, 0xa5, RR_MAX_OUT);
	rt_raw_page_start(&p, out, size);
	for (i = 0; i < n; i++) {
		ret = rt_raw_page_add(&p, r[i].ts, r[i].data, r[i].len);
		if (ret == -ENOSPC && p.nr) {
			rt_raw_page_finish(&p, 0);
			if (++pages * size >= RR_MAX_OUT)
				return -1;
			rt_raw_page_start(&p, out + pages * size, size);
			ret = rt_raw_page_add(&p, r[i].ts, r[i].data, r[i].len);
		}
		if (ret)
			return -1;
	}
	if (p.nr) {
		rt_raw_page_finish(&p, 0);
		pages++;
	}
	return pages;
}

/*
 * The same records through rr_encode() and runs of at most @max: each
 * ring page is offered as a run; what the run leaves goes one record at
 * a time, then the run is offered again.  Return: pages, -1 if a record
 * was refused, -2 if a run broke its contract (more records or bytes
 * than offered, or bytes that are not the taken records').
 */
static int rr_pack_runs(const struct rr_rec *r, unsigned int n, u8 *out,
			unsigned int size, unsigned int max)
{
	unsigned int rp, ring_pages = rr_encode(r, n), pages = 0;
	struct rt_raw_page p;
	int ret;

	memset(out, 0xa5, RR_MAX_OUT);
	rt_raw_page_start(&p, out, size);
	for (rp = 0; rp < ring_pages; rp++) {
		const struct rr_ring_page *g = &rr_ring[rp];
		unsigned int pos = 0, idx = g->first, k, bytes, j, sum;

		while (pos < g->len) {
			bytes = ~0U;
			k = rt_raw_page_add_run(&p, g->base, g->data + pos,
						g->len - pos, max, &bytes);
			if (k > max || bytes > g->len - pos)
				return -2;
			for (j = 0, sum = 0; j < k; j++)
				sum += rr_enc_size[idx + j];
			if (sum != bytes)
				return -2;
			pos += bytes;
			idx += k;
			if (pos >= g->len)
				break;
			ret = rt_raw_page_add(&p, r[idx].ts, r[idx].data,
					      r[idx].len);
			if (ret == -ENOSPC && p.nr) {
				rt_raw_page_finish(&p, 0);
				if (++pages * size >= RR_MAX_OUT)
					return -1;
				rt_raw_page_start(&p, out + pages * size, size);
				continue;	/* the run again, on the new page */
			}
			if (ret)
				return -1;
			pos += rr_enc_size[idx++];
		}
	}
	if (p.nr) {
		rt_raw_page_finish(&p, 0);
		pages++;
	}
	return pages;
}

/*
 * Both ways, compared.  Return: 0 when the pages are identical, else
 * a short reason.
 */
static const char *rr_compare(const struct rr_rec *r, unsigned int n,
			      unsigned int size, unsigned int max)
{
	int each = rr_pack_each(r, n, rr_out_each, size);
	int runs = rr_pack_runs(r, n, rr_out_runs, size, max);

	if (each < 0)
		return "one by one refused a record";
	if (runs == -2)
		return "a run broke its contract";
	if (runs < 0)
		return "runs refused a record";
	if (runs != each)
		return "different page counts";
	if (memcmp(rr_out_each, rr_out_runs, (size_t)each * size))
		return "different page bytes";
	return NULL;
}

#endif /* _RETRACE_RAW_RUN_CHECK_H */
