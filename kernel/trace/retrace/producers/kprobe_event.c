// SPDX-License-Identifier: GPL-2.0
/*
 * kprobe events: kprobe_events defines kprobes and kretprobes whose hits
 * are recorded as events of the event layer, with the fetch arguments
 * the definition asks for; kprobe_profile counts hits and misses.
 *
 * A probe is registered disabled when it is defined, so every error the
 * kprobes core can report (no such symbol, not an instruction boundary,
 * a function kprobes may not probe) comes back from the write that
 * defined it.  The event's enable file arms and disarms it.  A probe on
 * MOD:SYM whose module is not loaded is defined without a kprobe and
 * registered when the module comes, unregistered when it goes.
 *
 * Locks, outermost first:
 *   rt_kp_writer.lock  one open file's carried line (write, close)
 *   rt_kp_lock      the probe list; kprobe_events writes, module events
 *   (event layer)   rt_event_add/remove, and ->set_enabled under its lock
 *   rt_kp_arm_lock  a probe's ->registered state and its kprobe's
 *                   enabled state, so a module arriving and the enable
 *                   file never both act on one probe
 *   kprobe_mutex    inside register/enable/disable_kprobe()
 */
#define pr_fmt(fmt) "retrace: " fmt

#include <linux/tracefs.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <asm/ptrace.h>
#include <asm/tlb.h>
#include <trace/retrace/arch_regs.h>
#include <trace/retrace/carry.h>
#include <trace/retrace/event.h>
#include <trace/retrace/probe_def.h>
#include <trace/retrace/core.h>

/* Fixed fields before the arguments, entry and return probes. */
enum { RT_KP_ENTRY_META = 3, RT_KP_RET_META = 4 };

/*
 * One probe, and for the first probe of an event (its owner) the event.
 * An event may have several probes: "p:EVENT SYM2" with the owner's
 * kind and arguments appends one, recording into the owner's event.
 * Removing the owner's own probe while others remain detaches it: its
 * kprobe is unregistered and it leaves rt_kprobes, but it lives on for
 * its event until the event's last probe goes.
 */
struct rt_kprobe {
	struct rt_event		ev;		/* the owner's only */
	struct rt_kprobe	*owner;		/* whose @ev this records */
	struct list_head	sibling;	/* on owner->probes */
	/* owner: the event's live probes; changed under both locks */
	struct list_head	probes;
	bool			detached;	/* owner: its own probe is gone */
	/* owner: as ->set_enabled() last left it, under rt_kp_arm_lock */
	bool			armed;
	struct kretprobe	rp;		/* rp.kp for entry probes too */
	struct rt_probe_def	*def;
	char			*symbol;	/* "MOD:SYM" or "SYM" for kprobes */
	struct rt_event_field	*fields;	/* meta fields, then arguments */
	unsigned int		nr_meta;
	unsigned int		fault_off;	/* bitmap, one bit per argument */
	/* return probes: arguments saved at entry, up to the highest $argN */
	unsigned int		nr_entry_args;
	unsigned int		fixed_len;	/* strings are appended here */
	/* no string argument: every record is fixed_len bytes */
	bool			sized;
	char			*print_fmt;
	char			*fault_name;	/* "__probe_fault[N]" */
	/* per TYPE[N] argument: its field's "NAME[N]", or for string[N] its type */
	char			**array_decl;
	bool			registered;	/* under rt_kp_arm_lock */
	unsigned long __percpu	*hits;
	struct list_head	list;		/* under rt_kp_lock */
};

/* Bytes one kprobe_events write takes; a longer write is short. */
#define RT_KP_MAX_WRITE		(RT_PROBE_MAX_LINE * 4)

static LIST_HEAD(rt_kprobes);
static DEFINE_MUTEX(rt_kp_lock);
static DEFINE_MUTEX(rt_kp_arm_lock);

static_assert(sizeof(struct pt_regs) / sizeof(long) > 20);

static bool rt_kp_is_ret(const struct rt_kprobe *tk)
{
	return tk->def->cmd == 'r';
}

/* ---- the hit path -------------------------------------------------------- */

/*
 * One read of @size bytes at @addr, from user memory for @user (a +u
 * step), else kernel memory; either way a bad address is a fault, not
 * an oops, in any context.
 */
static bool rt_kp_read(void *dst, unsigned long addr, unsigned int size,
		       bool user)
{
	if (user)
		return !copy_from_user_nofault(dst, (const void __user *)addr,
					       size);
	return !copy_from_kernel_nofault(dst, (const void *)addr, size);
}

/*
 * %pd and %pD: the value points to a dentry, or a file whose dentry it
 * is; the string is the dentry's name.  Return: the name's address.
 */
static bool rt_kp_vfs_name(const struct rt_probe_arg *a, unsigned long *v)
{
	if (a->vfs == RT_VFS_FILE &&
	    !rt_kp_read(v, *v + offsetof(struct file, f_path.dentry),
			sizeof(*v), false))
		return false;
	return rt_kp_read(v, *v + offsetof(struct dentry, d_name.name),
			  sizeof(*v), false);
}

/*
 * Compute one argument.  Numbers land in *@val; for strings *@val is
 * the address the string starts at, for arrays where the elements (or,
 * for strings, the pointers to them) start.  Every memory access goes
 * through rt_kp_read(), so a bad address is a fault, not an oops.
 * @entry_args: a return probe's arguments as its function's entry saw
 * them.
 */
static bool rt_kp_fetch(const struct rt_probe_arg *a, struct pt_regs *regs,
			const unsigned long *entry_args, u64 *val)
{
	unsigned long v, addr;
	unsigned int i;

	switch (a->base) {
	case RT_FETCH_REG:
		v = rt_arch_reg(regs, a->reg);
		break;
	case RT_FETCH_ARG:
		v = entry_args ? entry_args[a->reg] :
				 regs_get_kernel_argument(regs, a->reg);
		break;
	case RT_FETCH_STACKP:
		v = kernel_stack_pointer(regs);
		break;
	case RT_FETCH_RETVAL:
		v = regs_return_value(regs);
		break;
	case RT_FETCH_COMM:
		v = (unsigned long)current->comm;
		break;
	default:	/* RT_FETCH_IMM; @SYM was resolved into one */
		v = a->imm;
		break;
	}
	for (i = 0; i < a->nr_deref; i++) {
		bool user = a->user & (1U << i);

		addr = v + a->deref[i];
		/* A %pd/%pD value is a pointer: its last step loads it. */
		if (i + 1 < a->nr_deref || a->vfs) {
			if (!rt_kp_read(&v, addr, sizeof(v), user))
				return false;
			continue;
		}
		if (a->type == RT_FETCH_STRING || a->count) {
			v = addr;
			break;
		}
		*val = 0;
		return rt_kp_read(val, addr, a->size, user);
	}
	if (a->vfs && !rt_kp_vfs_name(a, &v))
		return false;
	*val = v;
	return true;
}

/*
 * Copy the string at @addr (user memory for @user) to the record's
 * tail and return its u32 locator; an empty locator (length 0) for a
 * fault or no room.
 */
static u32 rt_kp_store_string(u8 *rec, unsigned int *len, unsigned long addr,
			      bool user)
{
	unsigned int room = min_t(unsigned int, RT_PROBE_MAX_STRING,
				  RT_EVENT_MAX_RECORD - *len);
	long n = -EFAULT;
	u32 loc;

	/*
	 * copy_from_user_nofault() checks that the loaded mm is current's;
	 * the string copy does not.  A kernel thread, or a hit while
	 * another mm is loaded, records a fault rather than some other
	 * process's bytes.
	 */
	if (room <= 1)
		n = -ENOSPC;
	else if (user && current->mm && nmi_uaccess_okay())
		n = strncpy_from_user_nofault((char *)rec + *len,
					      (const void __user *)addr, room);
	else if (!user)
		n = strncpy_from_kernel_nofault((char *)rec + *len,
						(void *)addr, room);
	if (n <= 0)
		return *len;
	loc = (u32)n << 16 | *len;
	*len += n;
	return loc;
}

/* symstr: the text "%pS" gives for @addr, at the record's tail. */
static u32 rt_kp_store_symstr(u8 *rec, unsigned int *len, unsigned long addr)
{
	unsigned int room = min_t(unsigned int, RT_PROBE_MAX_STRING,
				  RT_EVENT_MAX_RECORD - *len);
	int n;
	u32 loc;

	if (room <= 1)
		return *len;
	n = snprintf((char *)rec + *len, room, "%pS", (void *)addr);
	n = min_t(int, n, room - 1) + 1;	/* a long name is cut */
	loc = (u32)n << 16 | *len;
	*len += n;
	return loc;
}

/*
 * TYPE[N] from @addr: N values side by side, or for strings N
 * locators, each string read through the pointer in its slot.  A
 * string or slot that faults gets an empty locator, shown as (fault)
 * in its place; numbers fault as a whole.
 */
static bool rt_kp_store_array(const struct rt_probe_arg *a,
			      const struct rt_event_field *f, u8 *rec,
			      unsigned int *len, unsigned long addr)
{
	unsigned long ptr;
	unsigned int i;
	bool user;
	u32 loc;

	/* The parser lets an array only follow a memory read. */
	if (WARN_ON_ONCE(!a->nr_deref))
		return false;
	user = a->user & (1U << (a->nr_deref - 1));
	if (a->type != RT_FETCH_STRING) {
		if (rt_kp_read(rec + f->offset, addr, f->size, user))
			return true;
		/* a read that faulted part way leaves no stray bytes */
		memset(rec + f->offset, 0, f->size);
		return false;
	}
	for (i = 0; i < a->count; i++) {
		loc = *len;
		if (rt_kp_read(&ptr, addr + i * sizeof(ptr), sizeof(ptr), user))
			loc = rt_kp_store_string(rec, len, ptr, a->ustr);
		memcpy(rec + f->offset + i * sizeof(loc), &loc, sizeof(loc));
	}
	return true;
}

static void rt_kp_store(struct rt_kprobe *tk, u8 *rec, unsigned int *len,
			unsigned int i, struct pt_regs *regs,
			const unsigned long *entry_args)
{
	const struct rt_probe_arg *a = &tk->def->args[i];
	const struct rt_event_field *f = &tk->fields[tk->nr_meta + i];
	u64 v = 0;
	bool ok = rt_kp_fetch(a, regs, entry_args, &v);
	u32 loc;

	if (!ok) {
		/* the fixed part was zeroed; strings keep an empty locator */
		loc = *len;
		if (f->kind == RT_FIELD_STRING)
			memcpy(rec + f->offset, &loc, sizeof(loc));
	} else if (a->count) {
		ok = rt_kp_store_array(a, f, rec, len, v);
	} else if (a->type == RT_FETCH_STRING) {
		loc = rt_kp_store_string(rec, len, v, a->ustr);
		ok = loc >> 16;
		memcpy(rec + f->offset, &loc, sizeof(loc));
	} else if (a->type == RT_FETCH_SYMSTR) {
		loc = rt_kp_store_symstr(rec, len, v);
		ok = loc >> 16;
		memcpy(rec + f->offset, &loc, sizeof(loc));
	} else {
		if (a->type == RT_FETCH_BITFIELD)
			v = (v >> a->bf_offset) &
			    (a->bf_width == 64 ? ~0ULL : (1ULL << a->bf_width) - 1);
		memcpy(rec + f->offset, &v, a->size);	/* little endian */
	}
	if (!ok)
		rec[tk->fault_off + i / 8] |= 1 << (i % 8);
}

static void rt_kp_record(struct rt_kprobe *tk, struct pt_regs *regs,
			 unsigned long ip, unsigned long ret_ip,
			 const unsigned long *entry_args)
{
	unsigned long pc = preempt_count();
	unsigned int len, i, z, off = sizeof(struct rt_entry);
	struct rt_handle h;
	u8 *rec = ERR_PTR(-EAGAIN);
	bool direct;
	int n;

	this_cpu_inc(*tk->hits);
	preempt_disable_notrace();
	/* Straight into the ring buffer when the event layer lets us. */
	if (tk->sized)
		rec = rt_event_reserve(&tk->owner->ev, &h, tk->fixed_len, pc);
	if (!rec)
		goto out;	/* the ring refused it */
	direct = !IS_ERR(rec);
	if (!direct)
		rec = rt_event_open(pc);
	if (!rec)
		goto out;
	/*
	 * Zero the fixed part (padding, fields a fault leaves) by 4-byte
	 * words: fixed_len is a multiple of 4, the record 4-byte aligned,
	 * and a few stores cost less than memset()'s byte loops here.
	 */
	for (z = off; z < tk->fixed_len; z += sizeof(u32))
		WRITE_ONCE(*(u32 *)(rec + z), 0);
	memcpy(rec + off, &ip, sizeof(ip));
	off += sizeof(ip);
	if (rt_kp_is_ret(tk)) {
		memcpy(rec + off, &ret_ip, sizeof(ret_ip));
		off += sizeof(ret_ip);
	}
	n = tk->def->nr_args;
	memcpy(rec + off, &n, sizeof(n));
	len = tk->fixed_len;
	for (i = 0; i < tk->def->nr_args; i++)
		rt_kp_store(tk, rec, &len, i, regs, entry_args);
	if (direct)
		rt_event_commit(&h, rec, len);
	else
		rt_event_close(&tk->owner->ev, rec, len, pc);
out:
	preempt_enable_notrace();
}

static int rt_kp_pre_handler(struct kprobe *kp, struct pt_regs *regs)
{
	struct rt_kprobe *tk = container_of(kp, struct rt_kprobe, rp.kp);

	rt_kp_record(tk, regs, (unsigned long)kp->addr, 0, NULL);
	return 0;
}
NOKPROBE_SYMBOL(rt_kp_pre_handler);

static int rt_kp_ret_handler(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);
	struct rt_kprobe *tk;

	if (!rp)
		return 0;
	tk = container_of(rp, struct rt_kprobe, rp);
	/*
	 * rethook set regs->ip to where the function really returns;
	 * the instance's own address is another kretprobe's trampoline
	 * when several hook the same call.
	 */
	rt_kp_record(tk, regs, (unsigned long)rp->kp.addr,
		     instruction_pointer(regs),
		     tk->nr_entry_args ? (unsigned long *)ri->data : NULL);
	return 0;
}
NOKPROBE_SYMBOL(rt_kp_ret_handler);

/*
 * A return probe's $argN: the function's arguments, saved as its entry
 * saw them in the instance's data (tk->nr_entry_args words), since by
 * the return their registers hold anything.
 */
static int rt_kp_entry_handler(struct kretprobe_instance *ri,
			       struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);
	unsigned long *saved = (unsigned long *)ri->data;
	struct rt_kprobe *tk;
	unsigned int i;

	if (!rp)
		return 0;
	tk = container_of(rp, struct rt_kprobe, rp);
	for (i = 0; i < tk->nr_entry_args; i++)
		saved[i] = regs_get_kernel_argument(regs, i);
	return 0;
}
NOKPROBE_SYMBOL(rt_kp_entry_handler);

/* ---- printing ------------------------------------------------------------ */

/* One number, character or symbol of @a at @p. */
static void rt_kp_print_scalar(struct seq_buf *s, const struct rt_probe_arg *a,
			       const u8 *p)
{
	u64 v = rt_field_value(p, a->size, a->is_signed);

	switch (a->type) {
	case RT_FETCH_CHAR:
		if (v >= ' ' && v < 0x7f)
			seq_buf_printf(s, "'%c'", (char)v);
		else
			seq_buf_printf(s, "'\\x%02llx'", v);
		return;
	case RT_FETCH_SYMBOL:
		seq_buf_printf(s, "%pS", (void *)(unsigned long)v);
		return;
	default:
		seq_buf_printf(s, a->is_signed ? "%lld" : a->hex ? "0x%llx" : "%llx", v);
	}
}

static void rt_kp_print_string(struct seq_buf *s, const u8 *rec,
			       unsigned int len, unsigned int off)
{
	const char *str = rt_field_string(rec, len, off);

	if (str)
		seq_buf_printf(s, "\"%s\"", str);
	else
		seq_buf_puts(s, "(fault)");
}

static void rt_kp_print_value(struct seq_buf *s, const struct rt_probe_arg *a,
			      const struct rt_event_field *f,
			      const u8 *rec, unsigned int len)
{
	unsigned int i;

	if (!a->count) {
		if (f->kind == RT_FIELD_STRING)
			rt_kp_print_string(s, rec, len, f->offset);
		else
			rt_kp_print_scalar(s, a, rec + f->offset);
		return;
	}
	seq_buf_putc(s, '{');
	for (i = 0; i < a->count; i++) {
		if (i)
			seq_buf_putc(s, ',');
		if (a->type == RT_FETCH_STRING)
			rt_kp_print_string(s, rec, len, f->offset + i * 4);
		else
			rt_kp_print_scalar(s, a, rec + f->offset + i * a->size);
	}
	seq_buf_putc(s, '}');
}

static void rt_kp_print(struct rt_print_ctx *ctx)
{
	struct rt_event *ev = container_of(ctx->et, struct rt_event, type);
	struct rt_kprobe *tk = container_of(ev, struct rt_kprobe, ev);
	const u8 *rec = (const u8 *)ctx->ent;
	char sym[KSYM_SYMBOL_LEN];
	unsigned long ip, ret_ip;
	unsigned int i;

	if (ctx->len < tk->fixed_len) {
		seq_buf_puts(ctx->s, "(truncated record)");
		return;
	}
	memcpy(&ip, rec + sizeof(struct rt_entry), sizeof(ip));
	if (rt_kp_is_ret(tk)) {
		memcpy(&ret_ip, rec + sizeof(struct rt_entry) + sizeof(ip),
		       sizeof(ret_ip));
		sprint_symbol(sym, ret_ip);
		seq_buf_printf(ctx->s, "(%s <- ", sym);
		if (lookup_symbol_name(ip, sym))
			snprintf(sym, sizeof(sym), "0x%lx", ip);
		seq_buf_printf(ctx->s, "%s)", sym);
	} else {
		sprint_symbol(sym, ip);
		seq_buf_printf(ctx->s, "(%s)", sym);
	}
	for (i = 0; i < tk->def->nr_args; i++) {
		seq_buf_printf(ctx->s, " %s=", tk->def->args[i].name);
		if (rec[tk->fault_off + i / 8] & (1 << (i % 8)))
			seq_buf_puts(ctx->s, "(fault)");
		else
			rt_kp_print_value(ctx->s, &tk->def->args[i],
					  &tk->fields[tk->nr_meta + i],
					  rec, ctx->len);
	}
}

/* ---- arming -------------------------------------------------------------- */

static int rt_kp_arm(struct rt_kprobe *tk, bool on)
{
	int ret;

	lockdep_assert_held(&rt_kp_arm_lock);
	if (!tk->registered)
		return 0;	/* module not loaded: armed when it comes */
	if (rt_kp_is_ret(tk))
		ret = on ? enable_kretprobe(&tk->rp) : disable_kretprobe(&tk->rp);
	else
		ret = on ? enable_kprobe(&tk->rp.kp) : disable_kprobe(&tk->rp.kp);
	/*
	 * The module is going: kprobes gave the probe up before our
	 * notifier unregisters it.  As for a module not loaded, the
	 * event's state is kept and applied when the module comes.
	 */
	if (ret == -EINVAL && kprobe_gone(&tk->rp.kp))
		return 0;
	return ret;
}

/* Arm or disarm every probe of the event; all or none when arming. */
static int rt_kp_set_enabled(struct rt_event *ev, bool on)
{
	struct rt_kprobe *owner = container_of(ev, struct rt_kprobe, ev);
	struct rt_kprobe *tk, *t;
	int ret = 0, r;

	mutex_lock(&rt_kp_arm_lock);
	owner->armed = on;
	list_for_each_entry(tk, &owner->probes, sibling) {
		r = rt_kp_arm(tk, on);
		if (r && on) {
			owner->armed = false;
			list_for_each_entry(t, &owner->probes, sibling)
				rt_kp_arm(t, false);
			ret = r;
			break;
		}
		if (r && !ret)
			ret = r;
	}
	mutex_unlock(&rt_kp_arm_lock);
	return ret;
}

static int rt_kp_register(struct rt_kprobe *tk)
{
	struct kprobe *kp = &tk->rp.kp;
	int ret;

	lockdep_assert_held(&rt_kp_arm_lock);
	memset(&tk->rp, 0, sizeof(tk->rp));
	if (tk->def->sym) {
		kp->symbol_name = tk->symbol;
		kp->offset = tk->def->offset;
	} else {
		kp->addr = (kprobe_opcode_t *)tk->def->addr;
	}
	kp->flags = tk->owner->armed ? 0 : KPROBE_FLAG_DISABLED;
	if (rt_kp_is_ret(tk)) {
		unsigned int i;

		tk->rp.handler = rt_kp_ret_handler;
		tk->rp.maxactive = tk->def->maxactive;	/* 0: kprobes' default */
		tk->nr_entry_args = 0;
		for (i = 0; i < tk->def->nr_args; i++)
			if (tk->def->args[i].base == RT_FETCH_ARG)
				tk->nr_entry_args = max(tk->nr_entry_args,
							tk->def->args[i].reg + 1U);
		if (tk->nr_entry_args) {
			tk->rp.entry_handler = rt_kp_entry_handler;
			tk->rp.data_size = tk->nr_entry_args * sizeof(long);
		}
		ret = register_kretprobe(&tk->rp);
	} else {
		kp->pre_handler = rt_kp_pre_handler;
		ret = register_kprobe(kp);
	}
	tk->registered = !ret;
	return ret;
}

static void rt_kp_unregister(struct rt_kprobe *tk)
{
	lockdep_assert_held(&rt_kp_arm_lock);
	if (!tk->registered)
		return;
	if (rt_kp_is_ret(tk))
		unregister_kretprobe(&tk->rp);
	else
		unregister_kprobe(&tk->rp.kp);
	tk->registered = false;
}

/* ---- defining ------------------------------------------------------------ */

static const char *rt_kp_type_name(const struct rt_probe_arg *a)
{
	static const char * const names[] = {
		[RT_FETCH_U8] = "u8", [RT_FETCH_U16] = "u16",
		[RT_FETCH_U32] = "u32", [RT_FETCH_U64] = "u64",
		[RT_FETCH_S8] = "s8", [RT_FETCH_S16] = "s16",
		[RT_FETCH_S32] = "s32", [RT_FETCH_S64] = "s64",
	};

	if (a->type == RT_FETCH_STRING || a->type == RT_FETCH_SYMSTR)
		return "__data_loc char[]";
	/* char and symbol are u8 and u64 with another print, as upstream */
	if (a->type == RT_FETCH_CHAR)
		return names[RT_FETCH_U8];
	if (a->type == RT_FETCH_BITFIELD || a->type == RT_FETCH_SYMBOL)
		return names[RT_FETCH_U8 + ilog2(a->size)];
	return names[a->type];
}

static void rt_kp_free(struct rt_kprobe *tk)
{
	unsigned int i;

	if (!tk)
		return;
	for (i = 0; tk->array_decl && i < tk->def->nr_args; i++)
		kfree(tk->array_decl[i]);
	kfree(tk->array_decl);
	free_percpu(tk->hits);
	kfree(tk->print_fmt);
	kfree(tk->fault_name);
	kfree(tk->fields);
	kfree(tk->symbol);
	rt_probe_def_free(tk->def);
	kfree(tk);
}

/* Recorded as a string: string, ustring, %pd/%pD and symstr. */
static bool rt_kp_is_string(const struct rt_probe_arg *a)
{
	return a->type == RT_FETCH_STRING || a->type == RT_FETCH_SYMSTR;
}

/* The print_fmt piece for one value of @a; @str: it is a string. */
static const char *rt_kp_elem_fmt(const struct rt_probe_arg *a, bool str)
{
	if (str)
		return "\\\"%s\\\"";
	if (a->type == RT_FETCH_CHAR)
		return "'%c'";
	if (a->type == RT_FETCH_SYMBOL)
		return "%pS";
	if (a->is_signed)
		return a->size == 8 ? "%ld" : "%d";
	if (a->hex)
		return a->size == 8 ? "0x%lx" : "0x%x";
	return a->size == 8 ? "%lx" : "%x";
}

/*
 * Lay the record out: the common header, __probe_ip (or __probe_func
 * and __probe_ret_ip), __probe_nargs, the fault bitmap, then each
 * argument at its natural alignment; strings (symstr too) keep a u32
 * locator there and their bytes after the fixed part.  TYPE[N] is N
 * of those side by side, in a field filters cannot name: "TYPE NAME[N]",
 * or "__data_loc char[][N] NAME" for strings, as upstream shows them.  Return: 0, -ENOMEM, or -E2BIG with @err at the argument that
 * does not fit in a record.
 */
static int rt_kp_layout(struct rt_kprobe *tk, struct rt_probe_error *err)
{
	struct rt_probe_def *d = tk->def;
	unsigned int off = sizeof(struct rt_entry), i, fmt_len = 0;
	struct rt_event_field *f;
	bool ret = rt_kp_is_ret(tk);
	char *p;

	tk->nr_meta = ret ? RT_KP_RET_META : RT_KP_ENTRY_META;
	tk->fields = kcalloc(tk->nr_meta + d->nr_args, sizeof(*f), GFP_KERNEL);
	if (!tk->fields)
		return -ENOMEM;
	f = tk->fields;
	*f++ = (struct rt_event_field){ "unsigned long",
		ret ? "__probe_func" : "__probe_ip", off, 8, 0, RT_FIELD_INT };
	off += 8;
	if (ret) {
		*f++ = (struct rt_event_field){ "unsigned long",
			"__probe_ret_ip", off, 8, 0, RT_FIELD_INT };
		off += 8;
	}
	*f++ = (struct rt_event_field){ "int", "__probe_nargs", off, 4, 1,
					RT_FIELD_INT };
	off += 4;
	tk->fault_off = off;
	tk->fault_name = kasprintf(GFP_KERNEL, "__probe_fault[%u]",
				   DIV_ROUND_UP(d->nr_args, 8));
	if (!tk->fault_name)
		return -ENOMEM;
	*f++ = (struct rt_event_field){ "u8", tk->fault_name, off,
		DIV_ROUND_UP(d->nr_args, 8), 0, RT_FIELD_BYTES };
	off += DIV_ROUND_UP(d->nr_args, 8);

	tk->sized = true;
	for (i = 0; i < d->nr_args; i++, f++) {
		const struct rt_probe_arg *a = &d->args[i];
		bool str = rt_kp_is_string(a);
		unsigned int size = str ? 4 : a->size;
		const char *name = a->name, *type = rt_kp_type_name(a);
		char *decl;

		if (str)
			tk->sized = false;
		off = ALIGN(off, size);
		if (a->count) {
			if (!tk->array_decl) {
				tk->array_decl = kcalloc(d->nr_args,
							 sizeof(*tk->array_decl),
							 GFP_KERNEL);
				if (!tk->array_decl)
					return -ENOMEM;
			}
			/* as upstream: "u16 w[3]", "__data_loc char[][3] s" */
			decl = str ? kasprintf(GFP_KERNEL, "%s[%u]", type, a->count) :
				     kasprintf(GFP_KERNEL, "%s[%u]", name, a->count);
			if (!decl)
				return -ENOMEM;
			tk->array_decl[i] = decl;
			if (str)
				type = decl;
			else
				name = decl;
		}
		*f = (struct rt_event_field){ type, name, off,
			size * (a->count ? a->count : 1), a->is_signed,
			a->count ? RT_FIELD_BYTES :
			str ? RT_FIELD_STRING : RT_FIELD_INT };
		off += f->size;
		if (ALIGN(off, sizeof(u32)) > RT_EVENT_MAX_RECORD) {
			*err = (struct rt_probe_error){
				"the arguments do not fit in a record", a->pos };
			return -E2BIG;
		}
		fmt_len += (2 * strlen(a->name) + 32) * (a->count ? a->count : 1);
	}
	tk->fixed_len = ALIGN(off, sizeof(u32));

	/* "(%lx) a=%lx b={'%c','%c'}", REC->__probe_ip, REC->a, REC->b[0], ... */
	tk->print_fmt = kmalloc(fmt_len + 64, GFP_KERNEL);
	if (!tk->print_fmt)
		return -ENOMEM;
	p = tk->print_fmt;
	p += sprintf(p, ret ? "\"(%%lx <- %%lx)" : "\"(%%lx)");
	for (i = 0; i < d->nr_args; i++) {
		const struct rt_probe_arg *a = &d->args[i];
		bool str = rt_kp_is_string(a);
		unsigned int j;

		p += sprintf(p, " %s=", a->name);
		if (!a->count) {
			p += sprintf(p, "%s", rt_kp_elem_fmt(a, str));
			continue;
		}
		for (j = 0; j < a->count; j++)
			p += sprintf(p, "%c%s", j ? ',' : '{',
				     rt_kp_elem_fmt(a, str));
		*p++ = '}';
	}
	p += sprintf(p, ret ? "\", REC->__probe_ret_ip, REC->__probe_func" :
			      "\", REC->__probe_ip");
	for (i = 0; i < d->nr_args; i++) {
		const struct rt_probe_arg *a = &d->args[i];
		bool str = rt_kp_is_string(a);
		unsigned int j;

		if (!a->count) {
			p += sprintf(p, str ? ", __get_str(%s)" : ", REC->%s",
				     a->name);
			continue;
		}
		for (j = 0; j < a->count; j++)
			p += sprintf(p, str ? ", __get_str(%s[%u])" :
				     ", REC->%s[%u]", a->name, j);
	}
	return 0;
}

static bool rt_kp_module_loaded(const char *name)
{
	bool ret;

	preempt_disable();
	ret = find_module(name) != NULL;
	preempt_enable();
	return ret;
}

static struct rt_kprobe *rt_kp_find(const char *group, const char *event)
{
	struct rt_kprobe *tk;

	list_for_each_entry(tk, &rt_kprobes, list)
		if (!strcmp(tk->def->group, group) &&
		    !strcmp(tk->def->event, event))
			return tk;
	return NULL;
}

/* Check what the parser could not: symbols, offsets, then register. */
struct rt_kp_sym_count {
	const char	*name;
	unsigned int	n;
};

static int rt_kp_count_sym(void *data, unsigned long addr)
{
	((struct rt_kp_sym_count *)data)->n++;
	return 0;
}

static int rt_kp_count_mod_sym(void *data, const char *name,
			       unsigned long addr)
{
	struct rt_kp_sym_count *c = data;

	if (!strcmp(name, c->name))
		c->n++;
	return 0;
}

/*
 * How many symbols, in the kernel and every module, are called @name.
 * A probe on a name with several owners would silently pick one.
 */
static unsigned int rt_kp_sym_copies(const char *name)
{
	struct rt_kp_sym_count c = { .name = name };

	kallsyms_on_each_match_symbol(rt_kp_count_sym, name, &c);
	module_kallsyms_on_each_symbol(NULL, rt_kp_count_mod_sym, &c);
	return c.n;
}

/* Why register_kprobe() or register_kretprobe() refused, for error_log. */
static const char *rt_kp_register_error(int ret)
{
	switch (ret) {
	case -ENOENT:
		return "no such symbol";
	case -EILSEQ:
		return "not at an instruction boundary";
	case -ENOMEM:
		return "out of memory";
	default:
		return "the kernel cannot probe here";
	}
}

/* @a and @b probe the same place the same way. */
static bool rt_kp_same_place(const struct rt_probe_def *a,
			     const struct rt_probe_def *b)
{
	return (a->cmd == 'r') == (b->cmd == 'r') &&
	       !strcmp(a->mod ?: "", b->mod ?: "") &&
	       !strcmp(a->sym ?: "", b->sym ?: "") &&
	       a->offset == b->offset && a->addr == b->addr;
}

/* ... and with the same arguments. */
static bool rt_kp_same_probe(const struct rt_probe_def *a,
			     const struct rt_probe_def *b)
{
	return rt_kp_same_place(a, b) && !strcmp(a->args_text, b->args_text);
}

/* Do two arguments print alike (x32 and u32 share their field)? */
static bool rt_kp_same_type(const struct rt_probe_arg *a,
			    const struct rt_probe_arg *b)
{
	return a->type == b->type && a->hex == b->hex && a->count == b->count &&
	       a->bf_width == b->bf_width && a->bf_offset == b->bf_offset;
}

/*
 * May @tk join @owner's event?  Its records must read the same: the
 * same kind of probe, the same fields (names, types, places); and it
 * must not be one the event has.  Checked in upstream's order, with
 * the caret where upstream puts it.
 */
static int rt_kp_can_join(struct rt_kprobe *owner, struct rt_kprobe *tk,
			  struct rt_probe_error *err)
{
	const struct rt_event_field *a = owner->fields, *b = tk->fields;
	unsigned int na = owner->def->nr_args, nb = tk->def->nr_args;
	unsigned int i, n = owner->nr_meta + na;
	struct rt_kprobe *p;

	if (rt_kp_is_ret(owner) != rt_kp_is_ret(tk)) {
		*err = (struct rt_probe_error){
			"the event's probes are of the other kind", 0 };
		return -EEXIST;
	}
	if (na != nb) {
		*err = (struct rt_probe_error){
			"the arguments differ from the event's",
			nb > na ? tk->def->args[na].pos : 0 };
		return -EEXIST;
	}
	for (i = 0; i < n; i++) {
		if (strcmp(a[i].type, b[i].type) || strcmp(a[i].name, b[i].name) ||
		    a[i].offset != b[i].offset || a[i].size != b[i].size ||
		    a[i].is_signed != b[i].is_signed || a[i].kind != b[i].kind ||
		    (i >= owner->nr_meta &&
		     !rt_kp_same_type(&owner->def->args[i - owner->nr_meta],
				      &tk->def->args[i - owner->nr_meta]))) {
			*err = (struct rt_probe_error){
				"the arguments differ from the event's",
				i >= owner->nr_meta ?
				tk->def->args[i - owner->nr_meta].pos : 0 };
			return -EEXIST;
		}
	}
	list_for_each_entry(p, &owner->probes, sibling) {
		if (rt_kp_same_probe(p->def, tk->def)) {
			*err = (struct rt_probe_error){ "the event has this probe", 0 };
			return -EEXIST;
		}
	}
	return 0;
}

/*
 * Make and register the probe @d defines, and its event unless one of
 * that name exists, which it then joins; @d is consumed.  On failure,
 * @err says why and where in the line, for error_log.
 */
static int rt_kp_create(struct rt_probe_def *d, struct rt_probe_error *err)
{
	struct rt_kprobe *tk, *owner = NULL;
	unsigned long size, off;
	unsigned int i;
	int ret;

	lockdep_assert_held(&rt_kp_lock);
	*err = (struct rt_probe_error){ "out of memory", 0 };
	tk = rt_kp_find(d->group, d->event);
	if (tk)
		owner = tk->owner;
	tk = kzalloc(sizeof(*tk), GFP_KERNEL);
	if (!tk) {
		rt_probe_def_free(d);
		return -ENOMEM;
	}
	tk->def = d;
	ret = -ENOMEM;
	tk->hits = alloc_percpu(unsigned long);
	if (d->sym)
		tk->symbol = d->mod ? kasprintf(GFP_KERNEL, "%s:%s", d->mod, d->sym)
				    : kstrdup(d->sym, GFP_KERNEL);
	if (!tk->hits || (d->sym && !tk->symbol))
		goto fail;
	/* "MOD:SYM" names one copy; a bare name must have only one. */
	ret = -EADDRNOTAVAIL;
	*err = (struct rt_probe_error){ "the symbol is not unique", d->target_pos };
	if (d->sym && !d->mod && rt_kp_sym_copies(d->sym) > 1)
		goto fail;
	/* @SYM is looked up once; hits see a constant address. */
	for (i = 0; i < d->nr_args; i++) {
		struct rt_probe_arg *a = &d->args[i];
		unsigned long addr;

		if (a->base != RT_FETCH_SYM)
			continue;
		addr = kallsyms_lookup_name(a->sym);
		ret = -ENOENT;
		*err = (struct rt_probe_error){ "no such symbol", a->pos };
		if (!addr)
			goto fail;
		a->base = RT_FETCH_IMM;
		a->imm += addr;
	}
	*err = (struct rt_probe_error){ "out of memory", 0 };
	ret = rt_kp_layout(tk, err);
	if (ret)
		goto fail;

	/* An offset must stay inside the function it is relative to. */
	if (d->sym && d->offset && (!d->mod || rt_kp_module_loaded(d->mod))) {
		unsigned long addr = kallsyms_lookup_name(tk->symbol);

		ret = -ENOENT;
		*err = (struct rt_probe_error){ "no such symbol", d->target_pos };
		if (!addr)
			goto fail;
		ret = -EINVAL;
		*err = (struct rt_probe_error){ "the offset is past the function's end",
						d->target_pos };
		if (!kallsyms_lookup_size_offset(addr, &size, &off) ||
		    d->offset >= size - off)
			goto fail;
	}

	if (owner) {
		ret = rt_kp_can_join(owner, tk, err);
		if (ret)
			goto fail;
	}

	tk->owner = owner ? owner : tk;
	INIT_LIST_HEAD(&tk->probes);
	tk->ev.system = d->group;
	tk->ev.name = d->event;
	tk->ev.fields = tk->fields;
	tk->ev.nr_fields = tk->nr_meta + d->nr_args;
	tk->ev.print_fmt = tk->print_fmt;
	tk->ev.print = rt_kp_print;
	tk->ev.set_enabled = rt_kp_set_enabled;

	/*
	 * Registered as owner->armed says, and put on the event's list, in
	 * one rt_kp_arm_lock section: ->set_enabled() either finds the
	 * probe on the list or has already set owner->armed.
	 */
	mutex_lock(&rt_kp_arm_lock);
	if (!d->mod || rt_kp_module_loaded(d->mod))
		ret = rt_kp_register(tk);
	else
		ret = 0;
	if (!ret)
		list_add_tail(&tk->sibling, &tk->owner->probes);
	mutex_unlock(&rt_kp_arm_lock);
	*err = (struct rt_probe_error){ rt_kp_register_error(ret), d->target_pos };
	if (ret)
		goto fail;
	if (!owner) {
		ret = rt_event_add(&tk->ev);
		*err = (struct rt_probe_error){ "cannot add the event", 0 };
		if (ret) {
			mutex_lock(&rt_kp_arm_lock);
			rt_kp_unregister(tk);
			list_del(&tk->sibling);
			mutex_unlock(&rt_kp_arm_lock);
			goto fail;
		}
	}
	list_add_tail(&tk->list, &rt_kprobes);
	return 0;
fail:
	rt_kp_free(tk);
	return ret;
}

/* Remove @owner's event and all its probes (-EBUSY while enabled). */
static int rt_kp_delete(struct rt_kprobe *owner)
{
	struct rt_kprobe *tk, *n;
	LIST_HEAD(gone);
	int ret;

	lockdep_assert_held(&rt_kp_lock);
	ret = rt_event_remove(&owner->ev);
	if (ret)
		return ret;
	mutex_lock(&rt_kp_arm_lock);
	list_for_each_entry(tk, &owner->probes, sibling)
		rt_kp_unregister(tk);
	list_splice_init(&owner->probes, &gone);
	mutex_unlock(&rt_kp_arm_lock);
	list_for_each_entry_safe(tk, n, &gone, sibling) {
		list_del(&tk->list);
		if (tk != owner)
			rt_kp_free(tk);
	}
	rt_kp_free(owner);
	return 0;
}

/*
 * Remove one probe of an event; its last probe takes the event along
 * (not while enabled).  A probe with siblings may go while the event
 * is enabled, as upstream's: unregistering waits for its handlers.
 */
static int rt_kp_delete_probe(struct rt_kprobe *tk)
{
	struct rt_kprobe *owner = tk->owner;

	lockdep_assert_held(&rt_kp_lock);
	if (list_is_singular(&owner->probes))
		return rt_kp_delete(owner);
	mutex_lock(&rt_kp_arm_lock);
	rt_kp_unregister(tk);
	list_del(&tk->sibling);
	mutex_unlock(&rt_kp_arm_lock);
	list_del(&tk->list);
	if (tk == owner)
		tk->detached = true;	/* kept for the event */
	else
		rt_kp_free(tk);
	return 0;
}

/*
 * The probe of @owner's event that "-:GRP/EVENT SPEC" names, SPEC
 * being @spec: its probe point, and its arguments if SPEC has any.
 * Return: the probe, or ERR_PTR(-ENOENT) for none that matches (a
 * SPEC that does not parse included), -ENOMEM.
 */
static struct rt_kprobe *rt_kp_find_probe(struct rt_kprobe *owner,
					  const char *spec)
{
	struct rt_kprobe *tk, *found = ERR_PTR(-ENOENT);
	struct rt_probe_error err;
	struct rt_probe_def *d;
	char *line;
	int ret;

	line = kasprintf(GFP_KERNEL, "%c:%s/%s %s",
			 rt_kp_is_ret(owner) ? 'r' : 'p', owner->def->group,
			 owner->def->event, spec);
	if (!line)
		return ERR_PTR(-ENOMEM);
	ret = rt_probe_parse(line, &d, &err);
	kfree(line);
	if (ret)	/* as upstream: what does not parse matches nothing */
		return ERR_PTR(ret == -ENOMEM ? ret : -ENOENT);
	list_for_each_entry(tk, &owner->probes, sibling) {
		if (d->nr_args ? rt_kp_same_probe(tk->def, d) :
				 rt_kp_same_place(tk->def, d)) {
			found = tk;
			break;
		}
	}
	rt_probe_def_free(d);
	return found;
}

/*
 * echo > kprobe_events: all or nothing (-EBUSY if one is enabled).  The
 * events go in one rt_event_remove_many() and the probes in one
 * unregister_kprobes() and one unregister_kretprobes(): two RCU grace
 * periods for any number of probe events rather than two each.
 */
static int rt_kp_delete_all(void)
{
	struct rt_kprobe *tk, *n;
	struct kretprobe **rps;
	struct rt_event **evs;
	struct kprobe **kps;
	unsigned int nr = 0, nk = 0, nrp = 0, i;
	int ret;

	lockdep_assert_held(&rt_kp_lock);
	list_for_each_entry(tk, &rt_kprobes, list) {
		if (rt_event_enabled(&tk->owner->ev))
			return -EBUSY;	/* before the fallback removes any */
		nr++;
	}
	if (!nr)
		return 0;
	evs = kvmalloc_array(nr, sizeof(*evs), GFP_KERNEL);
	kps = kvmalloc_array(nr, sizeof(*kps), GFP_KERNEL);
	rps = kvmalloc_array(nr, sizeof(*rps), GFP_KERNEL);
	if (!evs || !kps || !rps) {
		/* No memory for the batch: event by event, slower. */
		ret = 0;
		while (!list_empty(&rt_kprobes)) {
			tk = list_first_entry(&rt_kprobes, struct rt_kprobe, list);
			ret = rt_kp_delete(tk->owner);
			if (ret)
				break;	/* EBUSY: enabled meanwhile */
		}
		goto out;
	}
	/* Each event once: by the first of its live probes. */
	nr = 0;
	list_for_each_entry(tk, &rt_kprobes, list)
		if (list_first_entry(&tk->owner->probes, struct rt_kprobe,
				     sibling) == tk)
			evs[nr++] = &tk->owner->ev;
	ret = rt_event_remove_many(evs, nr);
	if (ret)
		goto out;
	mutex_lock(&rt_kp_arm_lock);
	list_for_each_entry(tk, &rt_kprobes, list) {
		if (!tk->registered)
			continue;
		if (rt_kp_is_ret(tk))
			rps[nrp++] = &tk->rp;
		else
			kps[nk++] = &tk->rp.kp;
		tk->registered = false;
	}
	if (nk)
		unregister_kprobes(kps, nk);
	if (nrp)
		unregister_kretprobes(rps, nrp);
	mutex_unlock(&rt_kp_arm_lock);
	/* The probes, then the owners: detached ones are on no list. */
	list_for_each_entry_safe(tk, n, &rt_kprobes, list) {
		list_del(&tk->list);
		if (tk != tk->owner)
			rt_kp_free(tk);
	}
	for (i = 0; i < nr; i++)
		rt_kp_free(container_of(evs[i], struct rt_kprobe, ev));
out:
	kvfree(rps);
	kvfree(kps);
	kvfree(evs);
	return ret;
}

/*
 * Note a refused line in error_log.  Tabs show as spaces, so that the
 * caret, counted in bytes, also stands under the fault on screen.
 */
static void rt_kp_log_error(const char *line, const struct rt_probe_error *err)
{
	char *shown = kstrdup(line, GFP_KERNEL), *c;

	if (!shown)
		return;
	for (c = shown; *c; c++)
		if (*c == '\t')
			*c = ' ';
	rt_error_log("trace_kprobe", shown, err->msg, err->pos);
	kfree(shown);
}

/* Run one line of kprobe_events; a refused line goes to error_log. */
static int rt_kp_run_line(const char *line)
{
	struct rt_probe_error err;
	struct rt_probe_def *d;
	struct rt_kprobe *tk;
	int ret;

	ret = rt_probe_parse(line, &d, &err);
	if (!ret && d && d->cmd != '-') {
		ret = rt_kp_create(d, &err);
	} else if (!ret && d) {
		tk = rt_kp_find(d->group, d->event);
		if (!tk) {
			ret = -ENOENT;
			err = (struct rt_probe_error){ "no such event", 0 };
		} else if (d->spec_pos) {
			/* "-:EVENT PROBE": that probe only */
			tk = rt_kp_find_probe(tk->owner, line + d->spec_pos);
			ret = IS_ERR(tk) ? PTR_ERR(tk) : rt_kp_delete_probe(tk);
			err = (struct rt_probe_error){
				ret == -ENOENT ? "the event has no such probe" :
				ret == -ENOMEM ? "out of memory" :
				"the event is in use", d->spec_pos };
		} else {
			ret = rt_kp_delete(tk->owner);
			err = (struct rt_probe_error){ "the event is in use", 0 };
		}
		rt_probe_def_free(d);
	}
	if (ret)
		rt_kp_log_error(line, &err);
	return ret;
}

/* ---- kprobe_events and kprobe_profile ------------------------------------ */

static void *rt_kp_seq_start(struct seq_file *m, loff_t *pos)
{
	mutex_lock(&rt_kp_lock);
	return seq_list_start(&rt_kprobes, *pos);
}

static void *rt_kp_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	return seq_list_next(v, &rt_kprobes, pos);
}

static void rt_kp_seq_stop(struct seq_file *m, void *v)
{
	mutex_unlock(&rt_kp_lock);
}

static int rt_kp_events_show(struct seq_file *m, void *v)
{
	struct rt_kprobe *tk = list_entry(v, struct rt_kprobe, list);
	int n = rt_probe_def_format(tk->def, NULL, 0);
	char *buf = kmalloc(n + 1, GFP_KERNEL);

	if (!buf)
		return -ENOMEM;
	rt_probe_def_format(tk->def, buf, n + 1);
	seq_printf(m, "%s\n", buf);
	kfree(buf);
	return 0;
}

static int rt_kp_profile_show(struct seq_file *m, void *v)
{
	struct rt_kprobe *tk = list_entry(v, struct rt_kprobe, list);
	unsigned long hits = 0, miss = tk->rp.kp.nmissed;
	int cpu;

	for_each_possible_cpu(cpu)
		hits += *per_cpu_ptr(tk->hits, cpu);
	if (rt_kp_is_ret(tk))
		miss += tk->rp.nmissed;
	seq_printf(m, "  %-44s %15lu %15lu\n", tk->def->event, hits, miss);
	return 0;
}

static const struct seq_operations rt_kp_events_seq_ops = {
	.start	= rt_kp_seq_start,
	.next	= rt_kp_seq_next,
	.stop	= rt_kp_seq_stop,
	.show	= rt_kp_events_show,
};

static const struct seq_operations rt_kp_profile_seq_ops = {
	.start	= rt_kp_seq_start,
	.next	= rt_kp_seq_next,
	.stop	= rt_kp_seq_stop,
	.show	= rt_kp_profile_show,
};

/*
 * What a writer of kprobe_events has sent so far: the tail of a line
 * cut by a write boundary.  @lock serialises writes with ->flush and
 * ->release (close and io_uring do not take f_pos_lock).
 */
struct rt_kp_writer {
	struct mutex	lock;
	struct rt_carry	carry;
};

static int rt_kp_events_open(struct inode *inode, struct file *file)
{
	struct rt_kp_writer *w = NULL;
	int ret = rt_file_lockdown();

	if (ret)
		return ret;
	if (file->f_mode & FMODE_WRITE) {
		w = kzalloc(sizeof(*w), GFP_KERNEL);
		if (!w)
			return -ENOMEM;
		mutex_init(&w->lock);
	}
	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		mutex_lock(&rt_kp_lock);
		ret = rt_kp_delete_all();
		mutex_unlock(&rt_kp_lock);
		if (ret)
			goto fail;
	}
	ret = seq_open(file, &rt_kp_events_seq_ops);
	if (ret)
		goto fail;
	((struct seq_file *)file->private_data)->private = w;
	return 0;
fail:
	kfree(w);
	return ret;
}

/* Run each line of @text; the first failure ends it. */
static int rt_kp_run_lines(char *text)
{
	char *line, *next;
	int ret = 0;

	mutex_lock(&rt_kp_lock);
	for (line = text; line && *line && !ret; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		ret = rt_kp_run_line(line);
	}
	mutex_unlock(&rt_kp_lock);
	return ret;
}

/*
 * A write takes at most RT_KP_MAX_WRITE bytes (a short write: the
 * writer sends the rest).  Its whole lines run at once; a line cut by
 * the end of the write waits in the open file's carry for the next
 * write, or for close, whose status reports its error (->flush).  A
 * failed line, or a cut line too long to carry, ends the write and
 * drops what was carried.
 */
static ssize_t rt_kp_events_write(struct file *file, const char __user *ubuf,
				  size_t cnt, loff_t *ppos)
{
	struct rt_kp_writer *w = ((struct seq_file *)file->private_data)->private;
	size_t n = min_t(size_t, cnt, RT_KP_MAX_WRITE);
	char *in, *text;
	int ret;

	in = memdup_user(ubuf, n);
	if (IS_ERR(in))
		return PTR_ERR(in);
	mutex_lock(&w->lock);
	text = rt_carry_join(&w->carry, in, n, "\n", &ret);
	kfree(in);
	if (text) {
		ret = rt_kp_run_lines(text);
		kfree(text);
	}
	if (ret)
		w->carry.len = 0;
	mutex_unlock(&w->lock);
	return ret ? ret : n;
}

/* Run what the carry holds: a last line written without its newline. */
static int rt_kp_events_run_tail(struct rt_kp_writer *w)
{
	char *tail;
	int ret;

	mutex_lock(&w->lock);
	tail = rt_carry_flush(&w->carry);
	ret = tail ? rt_kp_run_lines(tail) : 0;
	mutex_unlock(&w->lock);
	kfree(tail);
	return ret;
}

/*
 * close() of the last descriptor: the last line had no newline; run it
 * and report its error.  A copy closed elsewhere (dup, a child) leaves
 * it to the writer's own close, or to ->release.
 */
static int rt_kp_events_flush(struct file *file, fl_owner_t id)
{
	if (!(file->f_mode & FMODE_WRITE) || file_count(file) > 1)
		return 0;
	return rt_kp_events_run_tail(((struct seq_file *)file->private_data)->private);
}

static int rt_kp_events_release(struct inode *inode, struct file *file)
{
	struct rt_kp_writer *w = ((struct seq_file *)file->private_data)->private;

	if (w) {
		/* Not flushed (the last reference went without close()). */
		if (rt_kp_events_run_tail(w))
			pr_info("kprobe_events: the last line, without newline, failed\n");
		kfree(w);
	}
	return seq_release(inode, file);
}

static int rt_kp_profile_open(struct inode *inode, struct file *file)
{
	int ret = rt_file_lockdown();

	if (ret)
		return ret;
	return seq_open(file, &rt_kp_profile_seq_ops);
}

static const struct file_operations rt_kp_events_fops = {
	.open		= rt_kp_events_open,
	.read		= seq_read,
	.write		= rt_kp_events_write,
	.flush		= rt_kp_events_flush,
	.llseek		= seq_lseek,
	.release	= rt_kp_events_release,
};

static const struct file_operations rt_kp_profile_fops = {
	.open		= rt_kp_profile_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= seq_release,
};

/* ---- modules ------------------------------------------------------------- */

static int rt_kp_module_notify(struct notifier_block *nb, unsigned long val,
			       void *data)
{
	struct module *mod = data;
	struct rt_kprobe *tk;
	int ret;

	if (val != MODULE_STATE_COMING && val != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	mutex_lock(&rt_kp_lock);
	mutex_lock(&rt_kp_arm_lock);
	list_for_each_entry(tk, &rt_kprobes, list) {
		if (!tk->def->mod || strcmp(tk->def->mod, mod->name))
			continue;
		if (val == MODULE_STATE_GOING) {
			rt_kp_unregister(tk);
			continue;
		}
		/* A write may have registered it since find_module() sees it. */
		if (tk->registered)
			continue;
		ret = rt_kp_register(tk);
		if (ret)
			pr_notice("cannot probe %s for event %s: %d\n",
				  tk->symbol, tk->def->event, ret);
	}
	mutex_unlock(&rt_kp_arm_lock);
	mutex_unlock(&rt_kp_lock);
	return NOTIFY_DONE;
}

static struct notifier_block rt_kp_module_nb = {
	.notifier_call = rt_kp_module_notify,
};

static struct rt_readme_part rt_kp_readme = {
	.text = "  kprobe_events        p[:[GRP/]EVENT] [MOD:]SYM[+offs]|MEMADDR [FETCHARGS]\n"
		"                       r[maxactive][:[GRP/]EVENT] [MOD:]SYM[+0] [FETCHARGS]\n"
		"                       p[:[GRP/]EVENT] <symbol>[+<offset>]%return [FETCHARGS] (offset 0)\n"
		"                       -:[GRP/]EVENT [PROBE] removes one event, or one of its probes;\n"
		"                       '>' clears all\n"
		"          Create/append/remove/show probes: a definition naming an existing\n"
		"          event appends a probe to it, of the same kind and arguments\n"
		"          place: [<module>:]<symbol>[+<offset>]|<memaddr>\n"
		"          place (kretprobe): [<module>:]<symbol>[+0][%return]\n"
		"  dynamic_events       every event made by writing a definition: here\n"
		"                       the kprobe events, with kprobe_events' syntax\n"
		"     fetcharg: %<register>, @<address>, @<symbol>[+|-<offset>], $comm,\n"
		"               $stack<index>, $stack, $retval, $arg<N> (at SYM+0),\n"
		"               +|-[u]<offset>(<fetcharg>) (u: user memory)\n"
		"     kernel return probes support: $retval, $arg<N>, $comm\n"
		"               ($arg<N>: the argument as the entry saw it)\n"
		"     type: u8/16/32/64, s8/16/32/64, x8/16/32/64, char, string, ustring,\n"
		"           symbol, symstr, %pd/%pD (a dentry's or a file's name),\n"
		"           b<bit-width>@<bit-offset>/<container-size>,\n"
		"           <type>\\[<array-size>\\] (1 to 64 values read from memory)\n"
		"  kprobe_profile       hits and misses of each probe\n",
};

static int __init rt_kp_init(void)
{
	struct dentry *dir = rt_tracing_dir();

	/* Its ->flush reports a last line's error at close. */
	tracefs_create_file("kprobe_events", 0644, dir, NULL,
				   &rt_kp_events_fops);
	tracefs_create_file("kprobe_profile", 0444, dir, NULL,
			    &rt_kp_profile_fops);
	/*
	 * Kprobe events are the only events made by writing a definition
	 * (no uprobe, synthetic or event probes here), so dynamic_events,
	 * the file for all of them, is kprobe_events under a second name.
	 */
	tracefs_create_file("dynamic_events", 0644, dir, NULL,
			    &rt_kp_events_fops);
	register_module_notifier(&rt_kp_module_nb);
	rt_readme_add(&rt_kp_readme);
	return 0;
}
device_initcall(rt_kp_init);
