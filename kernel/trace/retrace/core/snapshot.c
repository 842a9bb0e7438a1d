// SPDX-License-Identifier: GPL-2.0
/*
 * The snapshot file: keep the trace so far aside while tracing goes on.
 *
 * "echo 1 > snapshot" swaps every CPU's ring of the live buffer with
 * the instance's second buffer, so what was traced until then is in
 * the snapshot and tracing continues into empty rings.  "cat snapshot"
 * prints it like "trace" does.  "echo 0" frees it, any other number
 * empties it.
 *
 * The second buffer is the one latency tracers keep their longest
 * section in (tr->max_buffer, core/max.c).  While such a tracer is
 * current the buffer is its own: the file shows the tracer's snapshot
 * and refuses writes with -EBUSY, and selecting the tracer forgets the
 * file's snapshot (rt_max_prepare()).
 *
 * State, under rt_trace_lock: tr->snapshot says whether the buffer is
 * allocated in the file's sense.  Writers to the live buffer need no
 * lock: rt_buffer_swap() holds them off while the rings change places.
 * "Freeing" shrinks each ring to its minimum rather than freeing the
 * buffer, since an open "snapshot" reader may be walking it; a resize
 * takes the buffer's readers lock, which a free could not.
 *
 * A "snapshot" event trigger (snapshot_request.c) arms the instance:
 * the buffer is allocated then, and "echo 0" gets -EBUSY until the
 * last such trigger is removed.
 */
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/seq_buf.h>
#include <linux/tracefs.h>
#include "internal.h"

/* What the rings shrink to when freed: the ring buffer's least, 2 pages. */
#define RT_SNAPSHOT_FREED_BYTES	PAGE_SIZE

static void rt_snapshot_empty(struct rt_instance *tr)
{
	mutex_lock(&rt_max_lock);
	rt_buffer_reset(tr->max_buffer);
	mutex_unlock(&rt_max_lock);
}

/*
 * The live rings become the snapshot, the snapshot's go live: emptied
 * first ("echo 1"), or with what they held (@keep: a snapshot
 * trigger's hits alternate the buffers).  Under rt_trace_lock; the
 * snapshot's rings are fitted to the live ones first.
 */
int rt_snapshot_exchange(struct rt_instance *tr, bool keep)
{
	int ret = rt_max_buffer_fit(tr);

	if (ret)
		return ret;
	mutex_lock(&rt_max_lock);
	/* A pause-on-trace reader is open (trace_file.c): EBUSY. */
	if (tr->paused) {
		mutex_unlock(&rt_max_lock);
		return -EBUSY;
	}
	if (!keep)
		rt_buffer_reset(tr->max_buffer);
	ret = rt_buffer_swap(tr->buffer, tr->max_buffer);
	mutex_unlock(&rt_max_lock);
	return ret;
}

/*
 * Allocate the snapshot, empty, without taking one (a snapshot
 * trigger being armed).  Under rt_trace_lock.
 */
int rt_snapshot_alloc(struct rt_instance *tr)
{
	int ret = rt_max_buffer_fit(tr);

	if (ret)
		return ret;
	/* A latency tracer's last trace may be there: not a snapshot. */
	rt_snapshot_empty(tr);
	tr->snapshot = true;
	return 0;
}

/* "echo 1": the trace so far becomes the snapshot. */
static int rt_snapshot_take(struct rt_instance *tr)
{
	int ret = rt_snapshot_exchange(tr, false);

	if (!ret)
		tr->snapshot = true;
	return ret;
}

/*
 * "echo 0": forget the snapshot and give its memory back.  Under
 * rt_trace_lock (and maybe rt_snap_lock: snapshot_request.c).
 */
int rt_snapshot_free(struct rt_instance *tr)
{
	int ret = 0;

	if (tr->max_buffer) {
		mutex_lock(&rt_max_lock);
		ret = rt_buffer_resize(tr->max_buffer, RT_SNAPSHOT_FREED_BYTES);
		mutex_unlock(&rt_max_lock);
	}
	if (!ret)
		tr->snapshot = false;
	return ret;
}

static ssize_t rt_snapshot_write(struct file *file, const char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	struct rt_instance *tr = file_inode(file)->i_private;
	unsigned long val;
	int ret;

	ret = kstrtoul_from_user(ubuf, cnt, 10, &val);
	if (ret)
		return ret;
	mutex_lock(&rt_trace_lock);
	if (rt_tracer_uses_max(tr)) {
		ret = -EBUSY;
		goto out;
	}
	switch (val) {
	case 0:
		/* A snapshot trigger needs the buffer: remove it first. */
		ret = rt_snapshot_armed(tr) ? -EBUSY : rt_snapshot_free(tr);
		break;
	case 1:
		ret = rt_snapshot_take(tr);
		break;
	default:
		if (tr->snapshot)
			rt_snapshot_empty(tr);
		break;
	}
out:
	mutex_unlock(&rt_trace_lock);
	return ret ? ret : cnt;
}

/**
 * rt_snapshot_print_header - the snapshot file's header
 * @tr: the instance
 * @snap: the buffer the reader shows, or NULL when no snapshot is
 *	allocated
 * @m: where the text goes
 *
 * Whether a snapshot is allocated, the commands, then the header of
 * "trace" counting @snap's records.
 */
void rt_snapshot_print_header(struct rt_instance *tr, struct rt_buffer *snap,
			      struct seq_buf *m)
{
	unsigned long missed;

	if (rt_opt(tr, RT_OPT_RAW) || rt_opt(tr, RT_OPT_HEX) ||
	    rt_opt(tr, RT_OPT_BIN))
		return;
	seq_buf_printf(m, "# * Snapshot is %s *\n#\n",
		       snap ? "allocated" : "freed");
	missed = rt_snapshot_missed();
	if (missed)
		seq_buf_printf(m, "# snapshot trigger requests lost or failed (all instances): %lu\n#\n",
			       missed);
	seq_buf_puts(m, "# Snapshot commands:\n"
		     "# echo 0 > snapshot : empty the snapshot and free its buffer\n"
		     "# echo 1 > snapshot : allocate the buffer if needed, and move\n"
		     "#                     the trace so far into it\n"
		     "# echo 2 > snapshot : empty the snapshot, keeping its buffer\n"
		     "#                     (any number but 0 and 1 does the same)\n"
		     "#\n");
	if (snap)
		rt_print_header(tr, snap, m);
}

static const struct file_operations rt_snapshot_fops = {
	.open		= rt_snapshot_open,
	.read		= rt_trace_read,
	.write		= rt_snapshot_write,
	.release	= rt_trace_release,
	.llseek		= noop_llseek,
};

static struct rt_readme_part rt_snapshot_readme = {
	.text = "  snapshot             1 moves the trace so far aside (and allocates),\n"
		"                       0 frees it, 2 empties it; cat shows it\n",
};

void rt_create_snapshot_files(struct rt_instance *tr)
{
	tracefs_create_file("snapshot", 0644, tr->dir, tr, &rt_snapshot_fops);
	if (tr == &rt_top)
		rt_readme_add(&rt_snapshot_readme);
}
