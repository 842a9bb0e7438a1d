// SPDX-License-Identifier: GPL-2.0
/*
 * set_ftrace_filter and set_ftrace_notrace: choose which call sites the
 * function tracer enables.
 *
 * A write is a list of whitespace-separated patterns, each
 *   [!]glob[:mod:module]   or, in set_ftrace_filter only,
 *   [!]glob:traceon[:count]   [!]glob:traceoff[:count]
 *   [!]glob:stacktrace[:count]
 *   [!]glob:enable_event:system:event[:count]
 *   [!]glob:disable_event:system:event[:count]
 * '!' removes what the glob matches; ":mod:" restricts it to a module
 * (one not loaded yet: the pattern waits for it, function_filter_mod.c);
 * the commands attach to the matched functions (function_probe.c).
 * Opening with O_TRUNC ('>') starts from an empty set, appending ('>>')
 * from the current one.  A write is all or nothing: if any pattern
 * matches no function, or is malformed, it fails with EINVAL and the
 * set stays as it was; a truncating open whose writes all failed
 * leaves the set alone too.
 */
#include <linux/tracefs.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <trace/retrace/callsite.h>
#include <trace/retrace/carry.h>
#include <trace/retrace/event.h>
#include <trace/retrace/glob.h>
#include <trace/retrace/ipset.h>
#include "function.h"

#define RT_FF_MAX_WRITE		(64 * 1024)

struct rt_ff_token {
	const char	*glob;
	const char	*mod;		/* NULL: any */
	int		cmd;		/* RT_FP_*, or -1 for a plain pattern */
	long		count;		/* the command's limit, -1: none */
	const char	*sys;		/* event commands: the event's */
	const char	*event;		/* group and name */
	struct rt_event_file *ev;	/* ... and handle (rt_ff_apply()) */
	bool		neg;
	unsigned int	hits;
	unsigned int	mod_sites;	/* sites of @mod seen */
};


struct rt_ff_state {
	const struct rt_ff_target *target;	/* the file's set */
	struct rt_fn_scope *scope;	/* its scope, pinned while open */
	bool		trunc;		/* O_TRUNC open not yet applied */
	bool		failed;		/* a write of this open failed */
	struct rt_carry	carry;		/* a pattern cut by a write boundary */
};

struct rt_ff_walk {
	struct rt_ff_token	*tok;
	unsigned int		ntok;
	struct rt_ipset		**slot;	/* the set being rewritten */
	struct rt_ipset		*next;	/* its replacement, being filled */
	bool			trunc;
	unsigned long		*bits;
	struct rt_fprobe_set	*probes;	/* NULL: no command tokens */
	struct rt_instance	*tr;		/* whose commands */
	int			err;
};

/*
 * Split @buf in place into tokens; returns the count or -EINVAL.
 * Commands are only accepted when @cmds (set_ftrace_filter).
 */
static int rt_ff_parse(char *buf, struct rt_ff_token *tok, unsigned int max,
		       bool cmds)
{
	unsigned int n = 0;
	char *word, *cmd, *arg;

	while ((word = strsep(&buf, " \t\n")) != NULL) {
		if (!*word)
			continue;
		if (n == max)
			return -EINVAL;
		tok[n].neg = *word == '!';
		if (tok[n].neg)
			word++;
		tok[n].glob = strsep(&word, ":");
		tok[n].mod = NULL;
		tok[n].cmd = -1;
		tok[n].hits = 0;
		tok[n].sys = NULL;
		tok[n].event = NULL;
		tok[n].ev = NULL;
		if (word) {
			cmd = strsep(&word, ":");
			arg = word;
			if (cmds && (!strcmp(cmd, "enable_event") ||
				     !strcmp(cmd, "disable_event"))) {
				/* system:event[:count] */
				if (!arg)
					return -EINVAL;
				tok[n].sys = strsep(&arg, ":");
				tok[n].event = arg ? strsep(&arg, ":") : NULL;
				if (!*tok[n].sys || !tok[n].event ||
				    !*tok[n].event)
					return -EINVAL;
			}
			if (arg && (!*arg || strchr(arg, ':')))
				return -EINVAL;
			if (!strcmp(cmd, "mod")) {
				if (!arg)
					return -EINVAL;
				tok[n].mod = arg;
			} else {
				if (!cmds)
					return -EINVAL;
				/*
				 * A removal names the command; its count is
				 * not looked at, so a line read back from the
				 * file ("f:traceoff:count=0") removes it.
				 */
				tok[n].cmd = rt_fprobe_parse_cmd(cmd,
						tok[n].neg ? NULL : arg,
						&tok[n].count);
				if (tok[n].cmd < 0)
					return -EINVAL;
			}
		}
		if (!*tok[n].glob)
			tok[n].glob = "*";
		n++;
	}
	return n;
}

#ifdef CONFIG_RETRACE_FUNCTION_GRAPH
static struct rt_ff_target rt_ff_graph_target = {
	.kind = RT_FF_GRAPH,
	.slot = &rt_graph_set,
	.gone = &rt_graph_set_gone,
	.tr = &rt_top,
};
#endif

static struct rt_ff_target rt_ff_stack_target = {
	.kind = RT_FF_STACK,
	.slot = &rt_stack_filter,
	.gone = &rt_stack_filter_gone,
	.tr = &rt_top,
};

static unsigned int rt_ff_gone(const struct rt_ff_target *target)
{
	return target->gone ? *target->gone : 0;
}

/*
 * Publish a set and its gone count, under rt_callsite_lock.  A hit
 * reads the set (acquire), then the count, and selects everything when
 * it sees no set and a count of 0.  Raising the count before the set
 * and lowering it after means a hit between the two sees at worst the
 * stricter of the old and new selections, never "everything" that
 * neither selects.
 */
static void rt_ff_publish(struct rt_ipset **slot, struct rt_ipset *next,
			  unsigned int *gone, unsigned int count)
{
	if (gone && count > *gone)
		WRITE_ONCE(*gone, count);
	rt_ipset_publish(slot, next);
	if (gone && count < *gone)
		WRITE_ONCE(*gone, count);
}

static void rt_ff_match(unsigned long ip, unsigned int idx,
			const char *name, const char *modname, void *arg)
{
	struct rt_ff_walk *w = arg;
	bool on = !w->trunc && rt_ipset_has(*w->slot, ip);
	unsigned int t;

	for (t = 0; t < w->ntok; t++) {
		struct rt_ff_token *k = &w->tok[t];

		if (k->mod && (!modname || strcmp(k->mod, modname)))
			continue;
		if (k->mod)
			k->mod_sites++;
		if (!rt_glob_match(k->glob, name))
			continue;
		k->hits++;
		if (k->cmd < 0)
			on = !k->neg;
		else if (w->err)
			continue;	/* out of memory: the write fails */
		else if (k->neg)
			rt_fprobe_del(w->probes, ip, k->cmd, w->tr, k->ev);
		else if (rt_fprobe_add(&w->probes, ip, k->cmd, k->count,
				       w->tr, k->ev))
			w->err = -ENOMEM;
	}
	__assign_bit(idx, w->bits, on);
}

static void rt_ff_store(unsigned long ip, unsigned int idx,
			const char *name, const char *modname, void *arg)
{
	struct rt_ff_walk *w = arg;

	if (test_bit(idx, w->bits))
		w->next->ips[w->next->nr++] = ip;
}

/*
 * @k matched nothing.  Fine if it is "glob:mod:M" and M has no site in
 * the table (not loaded): the pattern waits for it (on @added, until
 * the write commits), or "!glob:mod:M" removes such a waiting pattern.
 * Anything else matching nothing is EINVAL.
 */
static int rt_ff_wait(struct rt_ff_state *st, struct rt_ff_token *k,
		      struct list_head *added)
{
	struct rt_ff_pending *p;

	if (!k->mod || k->mod_sites || k->cmd >= 0)
		return -EINVAL;
	if (k->neg)
		return rt_ff_pending_remove(st->target, k->glob, k->mod, true) ?
		       0 : -EINVAL;
	p = rt_ff_pending_new(st->target, k->glob, k->mod);
	if (!p)
		return -ENOMEM;
	list_add_tail(&p->list, added);
	return 0;
}

/* Apply the patterns in @buf (may be empty) to @st's set. */
static int rt_ff_apply(struct rt_ff_state *st, char *buf)
{
	struct rt_ff_walk w = {
		.slot = st->target->slot,
		.tr = st->target->tr,
	};
	struct rt_ff_pending *pend, *tmp;
	unsigned int max = 1, t, n, waiting;
	LIST_HEAD(added);
	int ret;
	char *p;

	for (p = buf; *p; p++)
		max += isspace(*p);
	w.tok = kcalloc(max, sizeof(*w.tok), GFP_KERNEL);
	if (!w.tok)
		return -ENOMEM;
	ret = rt_ff_parse(buf, w.tok, max, st->target->kind == RT_FF_FILTER);
	if (ret < 0)
		goto out;
	w.ntok = ret;
	ret = 0;
	if (!w.ntok && !st->trunc)
		goto out;
	/*
	 * The events of event commands, kept in soft mode until the
	 * update is done; before the call-site lock, which ranks below
	 * the event layer's.  An unknown event is EINVAL.  A removal
	 * holds only an event in soft mode; for another, its handle stays
	 * NULL and it matches no command.
	 */
	for (t = 0; t < w.ntok; t++) {
		struct rt_event_file *ev;

		if (!w.tok[t].event)
			continue;
		ev = rt_event_soft_get(st->target->tr, w.tok[t].sys,
				       w.tok[t].event, w.tok[t].neg);
		if (IS_ERR(ev)) {
			ret = PTR_ERR(ev);
			goto put;
		}
		w.tok[t].ev = ev;
	}

	mutex_lock(&rt_callsite_lock);
	w.trunc = st->trunc;
	n = rt_callsite_count();
	w.bits = bitmap_zalloc(n ?: 1, GFP_KERNEL);
	if (!w.bits) {
		ret = -ENOMEM;
		goto unlock;
	}
	for (t = 0; t < w.ntok; t++) {
		if (w.tok[t].cmd >= 0 && !w.probes) {
			w.probes = rt_fprobe_begin();
			if (!w.probes) {
				ret = -ENOMEM;
				goto free;
			}
		}
	}
	rt_callsite_for_each(rt_ff_match, &w, w.ntok > 0);
	ret = w.err;
	for (t = 0; t < w.ntok && !ret; t++)
		if (!w.tok[t].hits)
			ret = rt_ff_wait(st, &w.tok[t], &added);
	n = bitmap_weight(w.bits, n);
	if (!ret && n) {
		w.next = rt_ipset_alloc(n);
		if (!w.next)
			ret = -ENOMEM;
	}
	if (!ret) {
		/* Commands never take part in the '>' truncation. */
		if (w.probes)
			rt_fprobe_commit(w.probes);
		if (w.next) {
			w.next->nr = 0;
			rt_callsite_for_each(rt_ff_store, &w, false);
			rt_ipset_sort(w.next);
		}
		for (t = 0; t < w.ntok; t++)
			if (!w.tok[t].hits && w.tok[t].neg)
				rt_ff_pending_remove(st->target, w.tok[t].glob,
						     w.tok[t].mod, false);
		/* Patterns still waiting for their module select nothing yet. */
		waiting = rt_ff_pending_commit(st->target, w.trunc, &added);
		rt_ff_publish(w.slot, w.next, st->target->gone, waiting);
		st->trunc = false;
		ret = rt_fn_sync();
	} else if (w.probes) {
		rt_fprobe_abort(w.probes);
	}
free:
	bitmap_free(w.bits);
unlock:
	mutex_unlock(&rt_callsite_lock);
	list_for_each_entry_safe(pend, tmp, &added, list) {
		list_del(&pend->list);
		rt_ff_pending_free(pend);
	}
put:
	for (t = 0; t < w.ntok; t++)
		if (w.tok[t].ev)
			rt_event_soft_put(w.tok[t].ev);
out:
	kfree(w.tok);
	return ret;
}

/**
 * rt_fn_set_drop - remove the addresses @gone picks from a set
 * @slot: a scope's filter or notrace, rt_graph_set or rt_stack_filter
 * @gone: predicate
 * @arg: passed to @gone
 * @count: the set's gone count, raised by the number removed (before
 *	the set is published, see rt_ff_publish()), or NULL
 *
 * Call with rt_callsite_lock held (a module leaving).
 */
void rt_fn_set_drop(struct rt_ipset **slot,
		    bool (*gone)(unsigned long ip, void *arg), void *arg,
		    unsigned int *count)
{
	struct rt_ipset *old = *slot, *next;
	unsigned int i, n = 0;

	lockdep_assert_held(&rt_callsite_lock);
	if (!old)
		return;
	for (i = 0; i < old->nr; i++)
		n += gone(old->ips[i], arg);
	if (!n)
		return;
	next = n < old->nr ? rt_ipset_alloc(old->nr - n) : NULL;
	if (n < old->nr && !next)
		return;		/* keeps stale addresses; harmless */
	if (next) {
		next->nr = 0;
		for (i = 0; i < old->nr; i++)
			if (!gone(old->ips[i], arg))
				next->ips[next->nr++] = old->ips[i];
	}
	rt_ff_publish(slot, next, count, count ? *count + n : 0);
}

static void rt_ff_show_one(unsigned long ip, unsigned int idx,
			   const char *name, const char *modname, void *arg)
{
	struct seq_file *m = arg;
	struct rt_ff_state *st = m->private;

	if (rt_ipset_has(*st->target->slot, ip))
		seq_printf(m, "%ps\n", (void *)ip);
}

static int rt_ff_show(struct seq_file *m, void *v)
{
	const struct rt_ff_target *target =
		((struct rt_ff_state *)m->private)->target;
	struct rt_ipset *set;

	mutex_lock(&rt_callsite_lock);
	/*
	 * An empty set says what it means, in the words tools that read
	 * these files (ftracetest, trace-cmd) expect; commands follow.  A
	 * filter whose functions all left with their module selects
	 * nothing, not everything, and lists nothing.
	 */
	set = *target->slot;
	if (target->kind == RT_FF_NOTRACE) {
		if ((!set || !set->nr) && !rt_ff_pending_count(target))
			seq_puts(m, "#### no functions disabled ####\n");
	} else if ((!set || !set->nr) && !rt_ff_gone(target)) {
		seq_puts(m, "#### all functions enabled ####\n");
	}
	rt_callsite_for_each(rt_ff_show_one, m, false);
	rt_ff_pending_show(m, target);
	if (target->kind == RT_FF_FILTER)
		rt_fprobe_show(m, target->tr);
	mutex_unlock(&rt_callsite_lock);
	return 0;
}

/*
 * @target, or (@kind RT_FF_FILTER, RT_FF_NOTRACE) the set of that kind
 * of the scope of the instance in i_private, which stays pinned while
 * the file is open.
 */
static int rt_ff_open_target(struct inode *inode, struct file *file,
			     const struct rt_ff_target *target, u8 kind)
{
	struct rt_fn_scope *sc = NULL;
	struct rt_ff_state *st;
	int ret = rt_file_lockdown();

	if (ret)
		return ret;
	if (!target) {
		sc = rt_fn_scope_get(inode->i_private);
		if (!sc)
			return -ENODEV;
		target = kind == RT_FF_FILTER ? &sc->filter_target :
						&sc->notrace_target;
	}
	ret = -ENOMEM;
	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		goto put;
	st->target = target;
	st->scope = sc;
	st->trunc = (file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC);
	ret = single_open(file, rt_ff_show, st);
	if (!ret)
		return 0;
	kfree(st);
put:
	rt_fn_scope_put(sc);
	return ret;
}

static int rt_ff_filter_open(struct inode *inode, struct file *file)
{
	return rt_ff_open_target(inode, file, NULL, RT_FF_FILTER);
}

static int rt_ff_notrace_open(struct inode *inode, struct file *file)
{
	return rt_ff_open_target(inode, file, NULL, RT_FF_NOTRACE);
}

/* set_graph_function and stack_trace_filter: i_private is the target. */
static int rt_ff_open(struct inode *inode, struct file *file)
{
	return rt_ff_open_target(inode, file, inode->i_private, 0);
}

/*
 * A write takes at most RT_FF_MAX_WRITE bytes (a short write: the
 * writer sends the rest); a pattern cut at the end waits in the carry
 * for the next write, or for close.
 */
static ssize_t rt_ff_write(struct file *file, const char __user *ubuf,
			   size_t cnt, loff_t *ppos)
{
	struct rt_ff_state *st = ((struct seq_file *)file->private_data)->private;
	size_t n = min_t(size_t, cnt, RT_FF_MAX_WRITE);
	char *in, *text, *p;
	int ret;

	in = memdup_user(ubuf, n);
	if (IS_ERR(in))
		return PTR_ERR(in);
	text = rt_carry_join(&st->carry, in, n, " \t\n", &ret);
	kfree(in);
	if (!text)
		goto out;
	/* Only whole patterns are applied; none yet is no change. */
	for (p = text; *p && isspace(*p); p++)
		;
	if (*p)
		ret = rt_ff_apply(st, text);
	kfree(text);
out:
	if (ret) {
		st->failed = true;
		return ret;
	}
	*ppos += n;
	return n;
}

static int rt_ff_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;
	struct rt_ff_state *st = m->private;
	char empty[1] = "", *tail = rt_carry_flush(&st->carry);

	/*
	 * The last pattern had no delimiter after it.  ": > file" empties
	 * the set; a failed write does not.
	 */
	if (tail)
		rt_ff_apply(st, tail);
	else if (st->trunc && !st->failed)
		rt_ff_apply(st, empty);
	kfree(tail);
	rt_fn_scope_put(st->scope);
	kfree(st);
	return single_release(inode, file);
}

#define RT_FF_FOPS(open_fn) {			\
	.open = open_fn,			\
	.read = seq_read,			\
	.write = rt_ff_write,			\
	.llseek = seq_lseek,			\
	.release = rt_ff_release,		\
}

static const struct file_operations rt_ff_fops = RT_FF_FOPS(rt_ff_open);
static const struct file_operations rt_ff_filter_fops =
	RT_FF_FOPS(rt_ff_filter_open);
static const struct file_operations rt_ff_notrace_fops =
	RT_FF_FOPS(rt_ff_notrace_open);

/**
 * rt_create_filter_files - set_ftrace_filter and set_ftrace_notrace
 * @dir: the instance's directory
 * @tr: the instance (its scope must exist while the files do)
 *
 * The top level also gets set_graph_function.
 */
void rt_create_filter_files(struct dentry *dir, struct rt_instance *tr)
{
	tracefs_create_file("set_ftrace_filter", 0644, dir, tr,
			    &rt_ff_filter_fops);
	tracefs_create_file("set_ftrace_notrace", 0644, dir, tr,
			    &rt_ff_notrace_fops);
#ifdef CONFIG_RETRACE_FUNCTION_GRAPH
	if (tr == rt_top_instance())
		tracefs_create_file("set_graph_function", 0644, dir,
				    &rt_ff_graph_target, &rt_ff_fops);
#endif
}

/* stack_trace_filter: the stack tracer's set, written like the others. */
void __init rt_create_stack_filter_file(struct dentry *dir)
{
	tracefs_create_file("stack_trace_filter", 0644, dir,
			    &rt_ff_stack_target, &rt_ff_fops);
}
