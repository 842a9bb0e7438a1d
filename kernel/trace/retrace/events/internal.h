/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the event layer's files only. */
#ifndef _RETRACE_EVENTS_INTERNAL_H
#define _RETRACE_EVENTS_INTERNAL_H

#include <linux/bitops.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <trace/retrace/event.h>

struct seq_file;

/* A group of events ("kprobes"), on rt_event_systems. */
struct rt_event_system {
	char			*name;
	struct list_head	events;
	struct list_head	list;
};

/* enable, id, format, filter and trigger. */
#define RT_EVENT_NR_FILES	5
/*
 * events/enable, available_events, set_event, set_event_pid,
 * set_event_notrace_pid and header_page, whose size follows the
 * instance (ftrace_format.c).
 */
#define RT_EVENT_DIR_NR_FILES	6
#define RT_EDIR_HEADER_PAGE	5

/* The two PID lists of an instance's events (event_pid.c). */
enum rt_pid_list {
	RT_PID_TRACE,		/* set_event_pid: only these */
	RT_PID_NOTRACE,		/* set_event_notrace_pid: never these */
	RT_PID_LISTS,
};

/*
 * One instance's events: its events/ directory, set_event,
 * available_events, set_event_pid and set_event_notrace_pid.  On
 * rt_event_dirs (RCU: the PID probes walk it), the top level's first.
 * @systems: its struct rt_event_sysdir, one per group with events
 * @pids: the PID lists' bitmaps, by enum rt_pid_list (event_pid.c)
 * @pid_on: BIT(l) set while list l is on: one word, so the record
 *	path tests both lists with a single load
 * @ftrace_dir: events/ftrace/ (ftrace_format.c), or NULL
 * @print_file: events/ftrace/print/trigger's object (print_trigger.c),
 *	or NULL
 */
struct rt_event_dir {
	struct rt_instance	*tr;
	struct dentry		*dir;
	struct dentry		*files[RT_EVENT_DIR_NR_FILES];
	struct list_head	systems;
	struct list_head	list;
	unsigned long		*pids[RT_PID_LISTS];
	unsigned int		pid_on;
	struct dentry		*ftrace_dir;
	struct rt_event_file	*print_file;
};

/* Do the PID lists let the current task's events into @edir? */
static __always_inline bool rt_event_pid_ok(const struct rt_event_dir *edir)
{
	/* Pairs with the release in rt_pid_apply(): on lists' bitmaps exist. */
	unsigned int on = smp_load_acquire(&edir->pid_on);
	int pid;

	if (likely(!on))
		return true;
	pid = current->pid;
	if ((on & BIT(RT_PID_TRACE)) &&
	    !test_bit(pid, READ_ONCE(edir->pids[RT_PID_TRACE])))
		return false;
	return !((on & BIT(RT_PID_NOTRACE)) &&
		 test_bit(pid, READ_ONCE(edir->pids[RT_PID_NOTRACE])));
}

/* events/<system>/ in one instance. @files: its struct rt_event_file */
struct rt_event_sysdir {
	struct rt_event_system	*sys;
	struct rt_event_dir	*edir;
	struct dentry		*dir;
	struct dentry		*enable_file;
	struct list_head	files;
	struct list_head	list;
};

/*
 * events/<system>/<name>/ in one instance: whether the event records
 * into that instance's buffer, and through which filter.
 * @enabled: written under rt_event_lock, and in soft mode also by
 *	enable_event/disable_event hits in any context, with cmpxchg
 *	(rt_event_soft_switch()); read by the record path
 * @filter:  RCU; the record path runs with preemption disabled
 * @ev_link: on ev->files (RCU, see event.c)
 * @sys_link: on sysdir->files, under rt_event_lock
 * @sysdir_last: its unlink emptied the group directory, which goes
 *	with it (event removal)
 * @triggers: RCU; its triggers in this instance, or NULL
 *	(event_trigger.c); replaced whole under rt_event_lock
 * @dead_triggers: the set its instance's removal took away, freed
 *	with the file
 * @counted: it counts in rt_event_off_top_files (rt_event_count_sync())
 */
struct rt_event_file {
	struct rt_event		*ev;
	struct rt_event_sysdir	*sysdir;
	bool			enabled;
	bool			soft_mode;
	bool			counted;
	atomic_t		soft_refs;
	struct rt_filter __rcu	*filter;
	struct rt_trigger_set __rcu *triggers;
	struct rt_trigger_set	*dead_triggers;
	struct dentry		*dir;
	struct dentry		*files[RT_EVENT_NR_FILES];
	struct list_head	ev_link;
	struct list_head	sys_link;
	bool			sysdir_last;
};

/*
 * event.c: the groups and their events, the instances' event
 * directories, and the locks (see event.c for their order).
 */
extern struct list_head rt_event_systems;
extern struct list_head rt_event_dirs;
extern struct mutex rt_event_lock;
extern struct mutex rt_event_dir_lock;
int rt_event_file_set(struct rt_event_file *file, bool on);
void rt_event_count_sync(struct rt_event_file *file);
void rt_event_file_force_off(struct rt_event_file *file);
int rt_event_producer_get(struct rt_event_file *file);
int rt_event_producer_put(struct rt_event_file *file);
int rt_event_dir_set(struct rt_event_dir *edir, struct rt_event_system *only,
		     bool on);

/* event_dir.c: the tracefs side of an instance's events. */
int rt_event_file_create(struct rt_event_dir *edir, struct rt_event *ev);
void rt_event_file_unlink(struct rt_event_file *file);
void rt_event_file_remove(struct rt_event_file *file);
void rt_event_file_free(struct rt_event_file *file);
struct rt_event_dir *rt_event_dir_create(struct rt_instance *tr);
void rt_event_dir_unlink(struct rt_event_dir *edir);
void rt_event_dir_free(struct rt_event_dir *edir);

/* event_list.c: available_events and set_event. */
void rt_create_event_list_files(struct rt_event_dir *edir);

/* ftrace_format.c: events/ftrace/, events/header_page, header_event. */
int rt_create_ftrace_files(struct rt_event_dir *edir);
void rt_event_core_formats_init(void);
/* The fields of struct rt_print_entry (trace_printk(), trace_marker). */
#define RT_PRINT_NR_FIELDS	2
extern const struct rt_event_field rt_print_fields[RT_PRINT_NR_FIELDS];

/* print_trigger.c: events/ftrace/print/trigger, on trace_marker writes. */
void rt_print_trigger_create(struct rt_event_dir *edir, struct dentry *dir);
void rt_print_trigger_free(struct rt_event_dir *edir);
void rt_print_triggers_sync(void);
bool rt_is_print_file(const struct rt_event_file *file);
void rt_event_format_print(struct seq_file *m, const char *name,
			   unsigned int id, const struct rt_event_field *fields,
			   unsigned int n, const char *print_fmt);

/* event_soft.c: soft-mode holds by the event layer itself. */
struct rt_event_file *rt_event_dir_file(struct rt_event_dir *edir,
					const char *system, const char *name);
int rt_event_soft_hold_file(struct rt_event_file *file);
void rt_event_soft_drop_file(struct rt_event_file *file);
void rt_event_soft_settle(void);

/* event_trigger.c: the trigger files and their hits. */
struct rt_trigger_set;
void rt_event_triggers_run(struct rt_trigger_set *ts, struct rt_instance *tr,
			   void *rec, unsigned int len);
struct dentry *rt_event_trigger_file_create(struct rt_event_file *file);
void rt_event_triggers_clear(struct rt_event_dir *edir);
void rt_event_triggers_release(struct rt_event_dir *edir);
void rt_event_triggers_free(struct rt_event_file *file);

/* event_dir.c, for the trigger files. */
int rt_ev_show(struct seq_file *m, void (*show)(struct seq_file *m, void *obj));
int rt_event_compile(struct rt_event *ev, const char *text,
		     struct rt_filter **out, int *pos);

/* event_pid.c: set_event_pid. */
void rt_create_event_pid_file(struct rt_event_dir *edir);
void rt_event_pid_free(struct rt_event_dir *edir);

#endif /* _RETRACE_EVENTS_INTERNAL_H */
