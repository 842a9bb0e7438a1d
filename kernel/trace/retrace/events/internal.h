/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the event layer's files only. */
#ifndef _RETRACE_EVENTS_INTERNAL_H
#define _RETRACE_EVENTS_INTERNAL_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <trace/retrace/event.h>

/* One events/<system>/ directory; on rt_event_systems. */
struct rt_event_system {
	char			*name;
	struct dentry		*dir;
	struct dentry		*enable_file;
	struct list_head	events;
	struct list_head	list;
};

/*
 * event.c: the systems and their events, and the lock that guards the
 * lists and every ->enabled change (see event.c for the lock order).
 */
extern struct list_head rt_event_systems;
extern struct mutex rt_event_lock;
int rt_event_set(struct rt_event *ev, bool on);

/* event_list.c: available_events and set_event. */
void rt_create_event_list_files(struct dentry *dir);

#endif /* _RETRACE_EVENTS_INTERNAL_H */
