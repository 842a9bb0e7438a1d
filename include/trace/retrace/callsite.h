/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The table of function-entry call sites (one per traceable function)
 * and the code that patches them between NOP and "call retrace_caller".
 */
#ifndef _TRACE_RETRACE_CALLSITE_H
#define _TRACE_RETRACE_CALLSITE_H

#include <linux/mutex.h>
#include <linux/types.h>

/*
 * struct rt_callsite - one call site, in a table sorted by address
 * @ip:    address of the 5-byte call/NOP (function start, after ENDBR)
 * @flags: RT_CS_* bits, written only under rt_callsite_lock
 */
struct rt_callsite {
	unsigned long	ip;
	unsigned long	flags;
};

enum {
	RT_CS_FILTER	= 1UL << 0,	/* named in set_ftrace_filter */
	RT_CS_NOTRACE	= 1UL << 1,	/* named in set_ftrace_notrace */
	RT_CS_CALL	= 1UL << 2,	/* the text calls retrace_caller now */
	RT_CS_FENTRY	= 1UL << 3,	/* still the compiler's call __fentry__ */
	RT_CS_BUSY	= 1UL << 4,	/* someone else's bytes there (kprobe) */
	RT_CS_PROBE	= 1UL << 5,	/* has a traceon/traceoff command */
	RT_CS_STANDIN	= 1UL << 6,	/* transient: needs a stand-in kprobe */
};

#define RT_CS_SITE_SIZE		5

/* Serialises the table, its flags and all patching. */
extern struct mutex rt_callsite_lock;

/*
 * Whether enabled sites should call the tracer at all (function tracer
 * selected and ftrace_enabled set).  Written under rt_callsite_lock.
 */
extern bool rt_callsite_wanted;

/* Number of sites carrying RT_CS_FILTER; none means "every function". */
extern unsigned int rt_callsite_nr_filter;

typedef void (*rt_callsite_fn)(struct rt_callsite *cs, unsigned int idx,
			       const char *name, const char *modname,
			       void *arg);

unsigned int rt_callsite_count(void);
void rt_callsite_for_each(rt_callsite_fn fn, void *arg, bool names);
int rt_callsite_update(void);
void rt_callsite_recount(void);

/* Linker-script bounds of gcc's table of site addresses (init data). */
extern unsigned long __start_mcount_loc[];
extern unsigned long __stop_mcount_loc[];

void retrace_caller(void);
void rt_function_entry(unsigned long ip, unsigned long parent_ip,
		       unsigned long *parent_slot);

/* Busy sites: stand-in kprobes and muted sites (callsite_share.c) */
extern unsigned int rt_cs_nr_muted;
bool rt_cs_muted(unsigned long ip);
void rt_cs_share_release(void);
void rt_cs_share_site(unsigned long ip, bool standin);
void rt_cs_share_commit(void);
void rt_cs_share_stats(unsigned int *standins, unsigned int *muted,
		       unsigned int *unmuted);

/* traceon/traceoff commands (function_probe.c) */
#define RT_MAX_FPROBES	64
enum { RT_FP_TRACEON, RT_FP_TRACEOFF };

/*
 * struct rt_fprobe - one command on one function
 * @ip:     the function's call site
 * @cmd:    RT_FP_*
 * @traced: the function tracer wants @ip too (refreshed on each update)
 * @count:  times left to act, -1 for no limit
 */
struct rt_fprobe {
	unsigned long	ip;
	u8		cmd;
	bool		traced;
	atomic_long_t	count;
};

struct rt_fprobe_set;
struct seq_file;
extern unsigned int rt_fprobe_nr_live;

int rt_fprobe_parse_cmd(const char *cmd, const char *arg, long *count);
struct rt_fprobe_set *rt_fprobe_begin(void);
int rt_fprobe_add(struct rt_fprobe_set *set, unsigned long ip, int cmd,
		  long count);
void rt_fprobe_del(struct rt_fprobe_set *set, unsigned long ip, int cmd);
void rt_fprobe_commit(struct rt_fprobe_set *set);
bool rt_fprobe_hit(unsigned long ip, bool *traced);
void rt_fprobe_show(struct seq_file *m);
void rt_fprobe_for_each(void (*fn)(struct rt_fprobe *p, void *arg), void *arg);
void rt_fprobe_drop(bool (*gone)(unsigned long ip, void *arg), void *arg);

#endif /* _TRACE_RETRACE_CALLSITE_H */
