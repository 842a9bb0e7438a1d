// SPDX-License-Identifier: GPL-2.0
/*
 * Markers sample: the module that holds the markers.
 *
 * Opening /proc/marker-example hits subsystem_event once and
 * subsystem_eventb ten times, then fails with EPERM on purpose: the
 * file exists only to run the markers.  Load probe-example to see the
 * hits; either module may be loaded first.
 */
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/sched.h>

static struct proc_dir_entry *pentry_example;

static int my_open(struct inode *inode, struct file *file)
{
	int i;

	trace_mark(subsystem_event, "integer %d string %s", 123,
		   "example string");
	for (i = 0; i < 10; i++)
		trace_mark(subsystem_eventb, "pid %d iteration %d",
			   task_pid_nr(current), i);
	return -EPERM;
}

static const struct proc_ops mark_ops = {
	.proc_open = my_open,
};

static int __init example_init(void)
{
	pr_info("marker-example: init\n");
	pentry_example = proc_create("marker-example", 0444, NULL, &mark_ops);
	if (!pentry_example)
		return -EPERM;
	return 0;
}

static void __exit example_exit(void)
{
	pr_info("marker-example: exit\n");
	remove_proc_entry("marker-example", NULL);
}

module_init(example_init)
module_exit(example_exit)

MODULE_LICENSE("GPL");
MODULE_AUTHOR("retrace");
MODULE_DESCRIPTION("Markers sample: markers behind /proc/marker-example");
