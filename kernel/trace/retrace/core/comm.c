// SPDX-License-Identifier: GPL-2.0
/*
 * Task names for the output: records carry only a pid, so the name of
 * each task that records is remembered here, one slot per pid hash.
 * saved_cmdlines lists what is remembered (binary readers such as
 * trace-cmd name tasks from it); saved_cmdlines_size sets the number of
 * slots.
 */
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/threads.h>
#include <linux/tracefs.h>
#include <linux/uaccess.h>
#include <trace/events/task.h>
#include "internal.h"

#define RT_COMM_SLOTS_BOOT	1024

struct rt_comm_slot {
	int	pid;
	char	comm[TASK_COMM_LEN];
};

static struct rt_comm_slot rt_comms_boot[RT_COMM_SLOTS_BOOT];
/*
 * The table and its size, replaced together by saved_cmdlines_size
 * under rt_comm_lock; every reader and writer of a slot holds it.
 */
static struct rt_comm_slot *rt_comms = rt_comms_boot;
static unsigned int rt_comm_slots = RT_COMM_SLOTS_BOOT;
/* Serialises resizes and the listing's copy (process context). */
static DEFINE_MUTEX(rt_comm_resize_lock);
/*
 * A raw arch lock taken only by trylock on the recording side, so any
 * context (NMI included) can record; a missed save costs a "<...>".
 */
static arch_spinlock_t rt_comm_lock = __ARCH_SPIN_LOCK_UNLOCKED;
DEFINE_PER_CPU(int, rt_last_saved_pid) = -1;
EXPORT_PER_CPU_SYMBOL_GPL(rt_last_saved_pid);

/*
 * With interrupts off: store @comm (TASK_COMM_LEN bytes, NUL-padded) as
 * @pid's name, unless the lock is busy.  Returns whether it stored.
 */
static __always_inline bool rt_comm_store(int pid, const char *comm)
{
	struct rt_comm_slot *slot;

	if (!arch_spin_trylock(&rt_comm_lock))
		return false;
	slot = &rt_comms[pid % rt_comm_slots];
	slot->pid = pid;
	memcpy(slot->comm, comm, TASK_COMM_LEN);
	slot->comm[TASK_COMM_LEN - 1] = 0;
	arch_spin_unlock(&rt_comm_lock);
	return true;
}

/**
 * rt_save_comm_slow - save @tsk's command name for the output
 * @tsk: the task a record is being made for
 *
 * The out-of-line half of rt_save_comm() (core.h), which has checked
 * that this CPU did not save @tsk last.  Any context; a busy table
 * skips the save.
 */
void notrace rt_save_comm_slow(struct task_struct *tsk)
{
	unsigned long flags;

	/* raw_: this runs inside traced code; keep lockdep out of it. */
	raw_local_irq_save(flags);
	if (rt_comm_store(tsk->pid, tsk->comm))
		__this_cpu_write(rt_last_saved_pid, tsk->pid);
	raw_local_irq_restore(flags);
}
EXPORT_SYMBOL_GPL(rt_save_comm_slow);

/*
 * A task renamed (exec, prctl(PR_SET_NAME)) keeps its pid, which the
 * CPUs' caches say is saved.  The new name is not in the task yet when
 * this runs (__set_task_comm() copies it afterwards, under task_lock(),
 * so the task stays on this CPU), and a record in between, from an
 * interrupt say, would save the old name again.  So the slot gets the
 * new name from here, this CPU's cache keeps the pid (nothing saves the
 * old name over it), and every other CPU forgets the pid.
 */
static void notrace rt_comm_rename_probe(void *data, struct task_struct *p,
					 const char *comm)
{
	char name[TASK_COMM_LEN];
	unsigned long flags;
	int cpu, self = -1;

	/* @comm may be shorter than TASK_COMM_LEN bytes. */
	strscpy_pad(name, comm, TASK_COMM_LEN);
	/*
	 * Interrupts off from the store to the cache write: an interrupt
	 * in between would save the old name and cache the pid.
	 */
	raw_local_irq_save(flags);
	if (p->pid && rt_comm_store(p->pid, name) && p == current)
		self = smp_processor_id();
	for_each_possible_cpu(cpu) {
		if (cpu == self)
			WRITE_ONCE(per_cpu(rt_last_saved_pid, cpu), p->pid);
		else if (READ_ONCE(per_cpu(rt_last_saved_pid, cpu)) == p->pid)
			WRITE_ONCE(per_cpu(rt_last_saved_pid, cpu), -1);
	}
	raw_local_irq_restore(flags);
}

static int __init rt_comm_init(void)
{
	return register_trace_task_rename(rt_comm_rename_probe, NULL);
}
device_initcall(rt_comm_init);

/* Fill @comm (TASK_COMM_LEN bytes) with the name last seen for @pid. */
void rt_find_comm(int pid, char *comm)
{
	struct rt_comm_slot *slot;
	unsigned long flags;
	int tries;

	if (!pid) {
		strscpy(comm, "<idle>", TASK_COMM_LEN);
		return;
	}
	strscpy(comm, "<...>", TASK_COMM_LEN);
	if (pid < 0)
		return;
	/*
	 * Bounded trylock: ftrace_dump() may run while a CPU stopped by a
	 * panic holds the lock; a name is not worth a deadlock.
	 */
	local_irq_save(flags);
	for (tries = 0; tries < 10000; tries++) {
		if (arch_spin_trylock(&rt_comm_lock))
			break;
		cpu_relax();
	}
	if (tries < 10000) {
		slot = &rt_comms[pid % rt_comm_slots];
		if (slot->pid == pid)
			memcpy(comm, slot->comm, TASK_COMM_LEN);
		arch_spin_unlock(&rt_comm_lock);
	}
	local_irq_restore(flags);
}

/* ---- saved_cmdlines, saved_cmdlines_size ----------------------------- */

/* Take the lock from process context, where no recorder can hold it long. */
static void rt_comm_lock_irq(unsigned long *flags)
{
	local_irq_save(*flags);
	arch_spin_lock(&rt_comm_lock);
}

static void rt_comm_unlock_irq(unsigned long flags)
{
	arch_spin_unlock(&rt_comm_lock);
	local_irq_restore(flags);
}

/* "pid comm" for every remembered task, from a copy of the table. */
static int rt_saved_cmdlines_show(struct seq_file *m, void *v)
{
	struct rt_comm_slot *copy;
	unsigned long flags;
	unsigned int i, n;

	mutex_lock(&rt_comm_resize_lock);
	n = rt_comm_slots;
	copy = kvmalloc_array(n, sizeof(*copy), GFP_KERNEL);
	if (!copy) {
		mutex_unlock(&rt_comm_resize_lock);
		return -ENOMEM;
	}
	rt_comm_lock_irq(&flags);
	memcpy(copy, rt_comms, n * sizeof(*copy));
	rt_comm_unlock_irq(flags);
	mutex_unlock(&rt_comm_resize_lock);
	for (i = 0; i < n; i++)
		if (copy[i].pid > 0)
			seq_printf(m, "%d %s\n", copy[i].pid, copy[i].comm);
	kvfree(copy);
	return 0;
}

static int rt_saved_cmdlines_size_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%u\n", READ_ONCE(rt_comm_slots));
	return 0;
}

/*
 * A new size gets an empty table: names move to the slot of their new
 * hash, and a pid whose slot is taken loses its name, as it would to a
 * newer task.
 */
static ssize_t rt_saved_cmdlines_size_write(struct file *file,
					    const char __user *ubuf,
					    size_t cnt, loff_t *ppos)
{
	struct rt_comm_slot *new, *old;
	unsigned long flags;
	unsigned int n, i;
	int ret, cpu;

	ret = kstrtouint_from_user(ubuf, cnt, 10, &n);
	if (ret)
		return ret;
	if (!n || n > PID_MAX_DEFAULT)
		return -EINVAL;
	new = kvcalloc(n, sizeof(*new), GFP_KERNEL);
	if (!new)
		return -ENOMEM;
	mutex_lock(&rt_comm_resize_lock);
	rt_comm_lock_irq(&flags);
	old = rt_comms;
	for (i = 0; i < rt_comm_slots; i++)
		if (old[i].pid > 0 && !new[old[i].pid % n].pid)
			new[old[i].pid % n] = old[i];
	rt_comms = new;
	WRITE_ONCE(rt_comm_slots, n);
	rt_comm_unlock_irq(flags);
	/*
	 * A name that lost its slot must be saved again: forget what each
	 * CPU saved last (a racing save at worst saves once more).
	 */
	for_each_possible_cpu(cpu)
		WRITE_ONCE(per_cpu(rt_last_saved_pid, cpu), -1);
	mutex_unlock(&rt_comm_resize_lock);
	if (old != rt_comms_boot)
		kvfree(old);
	return cnt;
}

RT_SEQ_FOPS(rt_saved_cmdlines, NULL);
RT_SEQ_FOPS(rt_saved_cmdlines_size, rt_saved_cmdlines_size_write);

/* The top level's saved_cmdlines and saved_cmdlines_size, in @dir. */
void rt_create_comm_files(struct dentry *dir)
{
	tracefs_create_file("saved_cmdlines", 0444, dir, NULL,
			    &rt_saved_cmdlines_fops);
	tracefs_create_file("saved_cmdlines_size", 0644, dir, NULL,
			    &rt_saved_cmdlines_size_fops);
}
