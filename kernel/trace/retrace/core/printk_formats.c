// SPDX-License-Identifier: GPL-2.0
/*
 * printk_formats: the constant formats of every trace_printk() and
 * trace_puts() call site, the kernel's and each loaded module's, one
 * per line as
 *
 *	0x<address of the format> : "<format>"
 *
 * with newlines, tabs and quotes escaped as \n, \t and \" (and a
 * backslash left as it is), byte for byte as upstream prints it.
 *
 * retrace's print records hold the formatted text, so no reader needs
 * this list to decode them; it is the catalogue upstream's users and
 * tools (trace-cmd stores it in trace.dat) expect.
 *
 * Each call site leaves a pointer to its format in the section
 * __trace_printk_fmt (<trace/retrace/kernel_api.h>).  Upstream's
 * plumbing for that section serves as is: the linker script bounds
 * vmlinux's (__start___trace_bprintk_fmt), and the module loader notes
 * a module's in mod->trace_bprintk_fmt_start.  A module is listed from
 * MODULE_STATE_COMING until MODULE_STATE_GOING; rt_printk_fmt_lock
 * keeps its memory from going away under a reader.
 */
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/tracefs.h>
#include "internal.h"

static void rt_printk_fmt_show_one(struct seq_file *m, const char *fmt)
{
	const char *c;

	if (!fmt)	/* the call site's format was not a constant */
		return;
	seq_printf(m, "0x%lx : \"", (unsigned long)fmt);
	for (c = fmt; *c; c++) {
		switch (*c) {
		case '\n':
			seq_puts(m, "\\n");
			break;
		case '\t':
			seq_puts(m, "\\t");
			break;
		case '\\':	/* as upstream: a lone backslash */
			seq_putc(m, '\\');
			break;
		case '"':
			seq_puts(m, "\\\"");
			break;
		default:
			seq_putc(m, *c);
		}
	}
	seq_puts(m, "\"\n");
}

#ifdef CONFIG_MODULES
/* A loaded module that has trace_printk() call sites. */
struct rt_printk_fmt_module {
	struct list_head	list;
	struct module		*mod;
};

/* Guards rt_printk_fmt_modules; process context only. */
static DEFINE_MUTEX(rt_printk_fmt_lock);
static LIST_HEAD(rt_printk_fmt_modules);

static void rt_printk_fmt_show_modules(struct seq_file *m)
{
	struct rt_printk_fmt_module *pm;
	unsigned int i;

	mutex_lock(&rt_printk_fmt_lock);
	list_for_each_entry(pm, &rt_printk_fmt_modules, list)
		for (i = 0; i < pm->mod->num_trace_bprintk_fmt; i++)
			rt_printk_fmt_show_one(m,
					pm->mod->trace_bprintk_fmt_start[i]);
	mutex_unlock(&rt_printk_fmt_lock);
}
#else
static void rt_printk_fmt_show_modules(struct seq_file *m) { }
#endif

static int rt_printk_formats_show(struct seq_file *m, void *v)
{
	const char **p;

	for (p = __start___trace_bprintk_fmt; p < __stop___trace_bprintk_fmt; p++)
		rt_printk_fmt_show_one(m, *p);
	rt_printk_fmt_show_modules(m);
	return 0;
}

RT_SEQ_FOPS(rt_printk_formats, NULL);

/* The top level's printk_formats, in @dir. */
void rt_create_printk_formats_file(struct dentry *dir)
{
	tracefs_create_file("printk_formats", 0444, dir, NULL,
			    &rt_printk_formats_fops);
}

#ifdef CONFIG_MODULES
static void rt_printk_fmt_module_coming(struct module *mod)
{
	struct rt_printk_fmt_module *pm;

	if (!mod->num_trace_bprintk_fmt)
		return;
	pm = kmalloc(sizeof(*pm), GFP_KERNEL);
	if (!pm) {
		/* The module still loads; only its formats go unlisted. */
		pr_warn("retrace: no memory to list %s's trace_printk formats\n",
			mod->name);
		return;
	}
	pm->mod = mod;
	mutex_lock(&rt_printk_fmt_lock);
	list_add_tail(&pm->list, &rt_printk_fmt_modules);
	mutex_unlock(&rt_printk_fmt_lock);
}

static void rt_printk_fmt_module_going(struct module *mod)
{
	struct rt_printk_fmt_module *pm, *next;

	mutex_lock(&rt_printk_fmt_lock);
	list_for_each_entry_safe(pm, next, &rt_printk_fmt_modules, list) {
		if (pm->mod == mod) {
			list_del(&pm->list);
			kfree(pm);
			break;
		}
	}
	mutex_unlock(&rt_printk_fmt_lock);
}

static int rt_printk_fmt_module_notify(struct notifier_block *nb,
				       unsigned long state, void *data)
{
	struct module *mod = data;

	if (state == MODULE_STATE_COMING)
		rt_printk_fmt_module_coming(mod);
	else if (state == MODULE_STATE_GOING)
		rt_printk_fmt_module_going(mod);
	return NOTIFY_OK;
}

static struct notifier_block rt_printk_fmt_module_nb = {
	.notifier_call = rt_printk_fmt_module_notify,
};

static int __init rt_printk_formats_init(void)
{
	return register_module_notifier(&rt_printk_fmt_module_nb);
}
core_initcall(rt_printk_formats_init);
#endif /* CONFIG_MODULES */
