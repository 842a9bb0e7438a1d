/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the function tracer's files only. */
#ifndef _RETRACE_TRACERS_FUNCTION_H
#define _RETRACE_TRACERS_FUNCTION_H

#include <linux/seq_file.h>
#include <trace/retrace/callsite.h>
#include <trace/retrace/ipset.h>

/* function.c: the tracer's sets, under rt_callsite_lock. */
extern struct rt_cs_client rt_fn_client;
extern struct rt_ipset *rt_fn_filter, *rt_fn_notrace;
extern unsigned int rt_fn_filter_gone;
int rt_fn_sync(void);
unsigned int rt_fn_set_drop(struct rt_ipset **slot,
			    bool (*gone)(unsigned long ip, void *arg),
			    void *arg);

/* function_filter.c */
void rt_create_filter_files(struct dentry *dir);

/* function_probe.c: traceon/traceoff commands, a client of their own. */
#define RT_MAX_FPROBES	64
enum { RT_FP_TRACEON, RT_FP_TRACEOFF };

/*
 * struct rt_fprobe - one command on one function
 * @ip:     the function's call site
 * @cmd:    RT_FP_*
 * @count:  times left to act, -1 for no limit
 */
struct rt_fprobe {
	unsigned long	ip;
	u8		cmd;
	atomic_long_t	count;
};

struct rt_fprobe_set;

int rt_fprobe_parse_cmd(const char *cmd, const char *arg, long *count);
struct rt_fprobe_set *rt_fprobe_begin(void);
int rt_fprobe_add(struct rt_fprobe_set *set, unsigned long ip, int cmd,
		  long count);
void rt_fprobe_del(struct rt_fprobe_set *set, unsigned long ip, int cmd);
void rt_fprobe_commit(struct rt_fprobe_set *set);
void rt_fprobe_show(struct seq_file *m);

#endif /* _RETRACE_TRACERS_FUNCTION_H */
