// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace_dump_on_oops: print the trace buffer to the console when the
 * kernel oopses or panics, so the history that led there is in the
 * console log.  ftrace_dump() (print.c) does the printing: it stops
 * recording first, takes no sleeping lock and allocates nothing.
 *
 *   /proc/sys/kernel/ftrace_dump_on_oops  0 off, 1 every CPU's buffer,
 *                                         2 only the oopsing CPU's
 *   ftrace_dump_on_oops[=orig_cpu]        the same at boot (1, or 2)
 *   sysrq z                               dump every CPU's now
 *
 * The dump runs from the die notifier (DIE_OOPS) and from the panic
 * notifier, whichever comes first, once per boot: an oops that turns
 * into a panic is dumped once.
 */
#include <linux/kdebug.h>
#include <linux/kernel.h>
#include <linux/notifier.h>
#include <linux/panic_notifier.h>
#include <linux/sysctl.h>
#include <linux/sysrq.h>
#include "internal.h"

/* 0, 1 (DUMP_ALL) or 2 (DUMP_ORIG); written by sysctl and boot only. */
static int rt_dump_on_oops;
static atomic_t rt_dump_done = ATOMIC_INIT(0);

static int __init rt_dump_on_oops_setup(char *str)
{
	if (*str && *str != '=')
		return 0;	/* another parameter with this prefix */
	if (!*str) {
		rt_dump_on_oops = 1;
		return 1;
	}
	if (!strcmp(str, "=orig_cpu") || !strcmp(str, "=2"))
		rt_dump_on_oops = 2;
	else if (!strcmp(str, "=1"))
		rt_dump_on_oops = 1;
	else if (!strcmp(str, "=0"))
		rt_dump_on_oops = 0;
	else
		pr_warn("retrace: ftrace_dump_on_oops%s: want =orig_cpu, =0, =1 or =2\n",
			str);
	return 1;
}
__setup("ftrace_dump_on_oops", rt_dump_on_oops_setup);

static void rt_dump_once(void)
{
	int mode = READ_ONCE(rt_dump_on_oops);

	if (!mode || atomic_xchg(&rt_dump_done, 1))
		return;
	ftrace_dump(mode == 2 ? DUMP_ORIG : DUMP_ALL);
}

static int rt_dump_die(struct notifier_block *nb, unsigned long val,
		       void *data)
{
	if (val == DIE_OOPS)
		rt_dump_once();
	return NOTIFY_DONE;
}

static int rt_dump_panic(struct notifier_block *nb, unsigned long val,
			 void *data)
{
	rt_dump_once();
	return NOTIFY_DONE;
}

/* Before other die handlers, so the dump precedes what they print. */
static struct notifier_block rt_dump_die_nb = {
	.notifier_call = rt_dump_die,
	.priority = 200,
};

static struct notifier_block rt_dump_panic_nb = {
	.notifier_call = rt_dump_panic,
	.priority = 200,
};

static struct ctl_table rt_dump_sysctl[] = {
	{
		.procname	= "ftrace_dump_on_oops",
		.data		= &rt_dump_on_oops,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_TWO,
	},
};

static void rt_sysrq_dump(u8 key)
{
	ftrace_dump(DUMP_ALL);
}

static const struct sysrq_key_op rt_sysrq_dump_op = {
	.handler	= rt_sysrq_dump,
	.help_msg	= "dump-ftrace-buffer(z)",
	.action_msg	= "Dump the retrace buffer",
	.enable_mask	= SYSRQ_ENABLE_DUMP,
};

static int __init rt_dump_oops_init(void)
{
	register_die_notifier(&rt_dump_die_nb);
	atomic_notifier_chain_register(&panic_notifier_list, &rt_dump_panic_nb);
	register_sysctl("kernel", rt_dump_sysctl);
	if (IS_ENABLED(CONFIG_MAGIC_SYSRQ))
		register_sysrq_key('z', &rt_sysrq_dump_op);
	return 0;
}
device_initcall(rt_dump_oops_init);
