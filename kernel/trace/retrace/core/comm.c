// SPDX-License-Identifier: GPL-2.0
/*
 * Task names for the output: records carry only a pid, so the name of
 * each task that records is remembered here, one slot per pid hash.
 */
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include "internal.h"

#define RT_COMM_SLOTS	1024

struct rt_comm_slot {
	int	pid;
	char	comm[TASK_COMM_LEN];
};

static struct rt_comm_slot rt_comms[RT_COMM_SLOTS];
/*
 * A raw arch lock taken only by trylock on the recording side, so any
 * context (NMI included) can record; a missed save costs a "<...>".
 */
static arch_spinlock_t rt_comm_lock = __ARCH_SPIN_LOCK_UNLOCKED;
static DEFINE_PER_CPU(int, rt_last_saved_pid) = -1;

void notrace rt_save_comm(struct task_struct *tsk)
{
	struct rt_comm_slot *slot;
	unsigned long flags;

	if (likely(__this_cpu_read(rt_last_saved_pid) == tsk->pid) ||
	    !tsk->pid)
		return;
	/* raw_: this runs inside traced code; keep lockdep out of it. */
	raw_local_irq_save(flags);
	if (arch_spin_trylock(&rt_comm_lock)) {
		slot = &rt_comms[tsk->pid % RT_COMM_SLOTS];
		slot->pid = tsk->pid;
		memcpy(slot->comm, tsk->comm, TASK_COMM_LEN);
		slot->comm[TASK_COMM_LEN - 1] = 0;
		arch_spin_unlock(&rt_comm_lock);
		__this_cpu_write(rt_last_saved_pid, tsk->pid);
	}
	raw_local_irq_restore(flags);
}

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
		slot = &rt_comms[pid % RT_COMM_SLOTS];
		if (slot->pid == pid)
			memcpy(comm, slot->comm, TASK_COMM_LEN);
		arch_spin_unlock(&rt_comm_lock);
	}
	local_irq_restore(flags);
}
