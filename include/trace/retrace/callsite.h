/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The call-site patcher: the table of function-entry call sites (one per
 * traceable function), the clients that want some of them, and the
 * patching of each site between a NOP and a call into a trampoline.
 *
 * The patcher knows no tracer.  A client (the function tracer, the
 * traceon/traceoff commands, a kprobe on a site) registers a callback
 * and names the sites it wants; the patcher keeps, per site, what the
 * text holds and which clients want it, and every enabled site calls
 * rt_callsite_dispatch(), which calls the clients.  See
 * Documentation/trace/retrace-function.txt, "Call sites and clients".
 */
#ifndef _TRACE_RETRACE_CALLSITE_H
#define _TRACE_RETRACE_CALLSITE_H

#ifdef __KERNEL__
#include <linux/mutex.h>
#include <linux/types.h>
#endif

#define RT_CS_SITE_SIZE		5
#define RT_CS_MAX_CLIENTS	8

/* What a site's five bytes hold. */
enum rt_cs_state {
	RT_CS_FENTRY,	/* the compiler's call __fentry__ (module, not yet seen) */
	RT_CS_NOP,	/* a 5-byte NOP */
	RT_CS_CALL,	/* call retrace_caller: clients without registers */
	RT_CS_REGS,	/* call retrace_regs_caller: a client wants pt_regs */
};

/*
 * struct rt_callsite - one call site, in a table sorted by address
 * @ip:      address of the 5-byte site (function start, after ENDBR)
 * @state:   enum rt_cs_state, what the text holds; written under
 *           rt_callsite_lock with text_mutex, only by the patcher
 * @clients: bit N set: client N wants the site; under rt_callsite_lock
 */
struct rt_callsite {
	unsigned long	ip;
	u8		state;
	u8		clients;
};

/*
 * The steps of rewriting a site that may run meanwhile (the breakpoint
 * protocol, see callsite.c): after each, every CPU serialises.
 */
enum rt_cs_step {
	RT_CS_STEP_INT3 = 1,	/* an int3 over the first byte */
	RT_CS_STEP_TAIL,	/* the new instruction's last four bytes */
	RT_CS_STEP_HEAD,	/* its first byte, replacing the int3 */
};

#define RT_CS_INT3	0xcc

/* Addresses the site bytes are made from (host tests pass their own). */
struct rt_cs_targets {
	unsigned long	fentry;
	unsigned long	caller;
	unsigned long	regs_caller;
};

/* Pure site logic (site.c, also built on the host). */
enum rt_cs_state rt_cs_wanted(unsigned int clients, unsigned int regs_clients);
void rt_cs_encode(u8 *insn, unsigned long ip, enum rt_cs_state state,
		  const struct rt_cs_targets *t);
bool rt_cs_holds(const struct rt_callsite *cs, const u8 *bytes,
		 const struct rt_cs_targets *t);
int rt_cs_apply(struct rt_callsite *cs, u8 *bytes, unsigned int regs_clients,
		const struct rt_cs_targets *t);
void rt_cs_poke_step(u8 *bytes, const u8 *insn, enum rt_cs_step step);

#ifdef __KERNEL__
struct module;
struct pt_regs;
struct seq_file;

/**
 * struct rt_cs_client - a user of call sites
 * @name:        for callsite_stats
 * @func:        called by every site the client wants, in any context
 *               (task to NMI), with preemption as the traced code had
 *               it; @regs is NULL unless @needs_regs.  @check is true when other clients are
 *               active too: the site may then be someone else's, and
 *               @func must confirm @ip is one of its own.  With @check
 *               false the site is the client's, except for a task that
 *               was preempted inside the trampoline across updates (at
 *               most one such call each).
 * @needs_regs:  the client's sites call the pt_regs trampoline
 * @want_new_site: optional; asked for each site of a module that loads
 *               (rt_callsite_lock held): should it be the client's at once
 * @module_coming: optional; a module's sites have entered the table and
 *               are about to be patched, none of its code has run
 *               (rt_callsite_lock held; may change wants with
 *               rt_cs_client_want*(), may patch)
 * @module_going: optional; the module's sites leave the table (called
 *               with rt_callsite_lock held, before they are freed)
 * @id:          set by rt_cs_client_register()
 */
typedef void (*rt_cs_func_t)(unsigned long ip, unsigned long parent_ip,
			     unsigned long *parent_slot, struct pt_regs *regs,
			     bool check);

struct rt_cs_client {
	const char	*name;
	rt_cs_func_t	func;
	bool		needs_regs;
	bool		(*want_new_site)(struct rt_cs_client *c,
					 unsigned long ip);
	void		(*module_coming)(struct rt_cs_client *c,
					 struct module *mod);
	void		(*module_going)(struct rt_cs_client *c,
					struct module *mod);
	unsigned int	id;
};

/* Serialises the table, the clients' site masks and all patching. */
extern struct mutex rt_callsite_lock;

int rt_cs_client_register(struct rt_cs_client *c);
int rt_cs_client_want(struct rt_cs_client *c, unsigned long ip, bool on);
void rt_cs_client_want_each(struct rt_cs_client *c,
			    bool (*want)(unsigned long ip, void *arg),
			    void *arg);
int rt_callsite_update(void);

typedef void (*rt_callsite_fn)(unsigned long ip, unsigned int idx,
			       const char *name, const char *modname,
			       void *arg);
unsigned int rt_callsite_count(void);
void rt_callsite_for_each(rt_callsite_fn fn, void *arg, bool names);
void rt_callsite_walk_module(struct module *mod, rt_callsite_fn fn,
			     void *arg);
bool rt_callsite_is_site(unsigned long ip);

/* File operations the function tracer puts in the tracing directory. */
extern const struct file_operations rt_callsite_list_fops;
extern const struct file_operations rt_callsite_stats_fops;

/* Linker-script bounds of gcc's table of site addresses (init data). */
extern unsigned long __start_mcount_loc[];
extern unsigned long __stop_mcount_loc[];

/* The trampolines (arch/x86/kernel/retrace_entry_64.S) and their entry. */
void retrace_caller(void);
void retrace_regs_caller(void);
void rt_callsite_dispatch(unsigned long ip, unsigned long parent_ip,
			  unsigned long *parent_slot, struct pt_regs *regs);
/* A lone client's callback, called by the trampolines directly. */
extern rt_cs_func_t rt_cs_solo_call, rt_cs_solo_regs_call;
#endif /* __KERNEL__ */

#endif /* _TRACE_RETRACE_CALLSITE_H */
