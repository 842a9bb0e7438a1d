/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel markers: named instrumentation points that cost a patched NOP
 * while nothing listens, and call the connected probes, with the
 * marker's arguments, when armed.  See Documentation/trace/retrace-markers.txt.
 *
 *	trace_mark(subsys_event, "len %u name %s", len, name);
 *
 * Each use of trace_mark() is one site: a struct marker in the
 * "__markers" section of the kernel or of its module.  Sites are known
 * by name; every site of a name, built in or in any loaded module, is
 * armed and disarmed together.
 */
#ifndef _LINUX_MARKER_H
#define _LINUX_MARKER_H

#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/jump_label.h>
#include <linux/stdarg.h>
#include <linux/types.h>

struct marker_probes;
struct notifier_block;
struct tracepoint;

/**
 * typedef marker_probe_func - a probe connected to a marker
 * @probe_private: what was given to marker_probe_register()
 * @call_private: what the site passed; NULL for trace_mark()
 * @fmt: the site's format string
 * @args: the site's arguments, as described by @fmt; read them with
 *	va_arg(*args, TYPE) in order
 *
 * Called in the site's context, with preemption disabled.
 */
typedef void marker_probe_func(void *probe_private, void *call_private,
			       const char *fmt, va_list *args);

/**
 * struct marker - one marker site
 * @name: the marker's name
 * @format: printf-like format of the arguments ("len %u name %s")
 * @key: on while the site is armed; trace_mark() branches on it
 * @probes: the probes to call; RCU (sched) protected, NULL when off
 * @tp: for DEFINE_MARKER_TP(), the tracepoint armed with the site
 * @tp_cb: the callback registered on @tp, with the site as its data
 *
 * Everything but @name, @format, @tp and @tp_cb belongs to the marker
 * code and is written under its mutex only.
 */
struct marker {
	const char			*name;
	const char			*format;
	struct static_key_false		key;
	struct marker_probes __rcu	*probes;
	struct tracepoint		*tp;
	void				*tp_cb;
} __aligned(8);

#ifdef CONFIG_MARKERS

#define __MARKER_SITE(qual, _name, _fmt, _tp, _cb)			\
	static const char __mstrtab_##_name[] = #_name;			\
	qual struct marker __mark_##_name				\
	__used __section("__markers") __aligned(8) = {			\
		.name = __mstrtab_##_name,				\
		.format = (_fmt),					\
		.key = STATIC_KEY_FALSE_INIT,				\
		.tp = (_tp),						\
		.tp_cb = (_cb),						\
	}

/**
 * trace_mark - a marker site that calls the probes when armed
 * @name: the marker's name, an identifier ("subsystem_event")
 * @format: a string literal describing the arguments, checked against
 *	them at compile time as printf's is
 *
 * While the name is disarmed the site costs one patched NOP, and its
 * arguments are not evaluated.
 */
#define trace_mark(name, format, args...)				\
	do {								\
		__MARKER_SITE(static, name, format, NULL, NULL);	\
		if (0)							\
			__mark_check_format(format, ## args);		\
		if (static_branch_unlikely(&__mark_##name.key))		\
			marker_probe_cb(&__mark_##name, NULL, ## args);	\
	} while (0)

/**
 * DEFINE_MARKER - a marker site without a call
 * @name: the marker's name
 * @format: the format its probes are called with
 *
 * Someone else calls marker_probe_cb(&GET_MARKER(name), ...).
 */
#define DEFINE_MARKER(name, format)					\
	__MARKER_SITE(static, name, format, NULL, NULL)

/**
 * DEFINE_MARKER_TP - a marker site driven by a tracepoint
 * @name: the marker's name
 * @tp_name: the tracepoint (declared with DECLARE_TRACE())
 * @tp_cb: void tp_cb(void *data, <the tracepoint's arguments>); it is
 *	registered on the tracepoint, with the site as @data, while the
 *	marker is armed, and is expected to call marker_probe_cb()
 * @format: the format of what @tp_cb passes on
 */
#define DEFINE_MARKER_TP(name, tp_name, tp_cb, format)			\
	__MARKER_SITE(static, name, format, &__tracepoint_##tp_name,	\
		      (void *)(tp_cb));					\
	static inline void __used __mark_tp_check_##name(void)		\
	{								\
		check_trace_callback_type_##tp_name(tp_cb);		\
	}

/** GET_MARKER - the struct marker of a DEFINE_MARKER*() in this file */
#define GET_MARKER(name)	(__mark_##name)

static inline __printf(1, 2) void __mark_check_format(const char *fmt, ...)
{
}

void marker_probe_cb(const struct marker *m, void *call_private, ...);

int marker_probe_register(const char *name, const char *format,
			  marker_probe_func *probe, void *probe_private);
int marker_probe_unregister(const char *name, marker_probe_func *probe,
			    void *probe_private);
int marker_arm(const char *name);
int marker_disarm(const char *name);
void marker_synchronize_unregister(void);

/**
 * struct marker_info - a snapshot of one marker name
 * @name: the name
 * @format: the probes' format, or else the first site's; may be NULL
 * @armed: marker_arm() count
 * @nr_probes: probes connected
 * @nr_sites: sites in the kernel and loaded modules
 * @nr_mismatch: sites left off because their format differs
 */
struct marker_info {
	const char	*name;
	const char	*format;
	unsigned int	armed;
	unsigned int	nr_probes;
	unsigned int	nr_sites;
	unsigned int	nr_mismatch;
};

int marker_for_each(int (*fn)(const struct marker_info *info, void *data),
		    void *data);

/* Events of the marker notifier; data is the name's first site. */
enum {
	MARKER_NAME_ADDED = 1,	/* the first site of a name is loaded */
	MARKER_NAME_REMOVED,	/* its last site is about to go */
};

int marker_notifier_register(struct notifier_block *nb);
int marker_notifier_unregister(struct notifier_block *nb);

#else /* !CONFIG_MARKERS */

#define trace_mark(name, format, args...)				\
	do {								\
		if (0)							\
			__mark_check_format(format, ## args);		\
	} while (0)
/* Sites exist, so GET_MARKER() works, but nothing ever arms them. */
#define DEFINE_MARKER(_name, _fmt)					\
	static struct marker __mark_##_name __maybe_unused = {		\
		.name = #_name, .format = (_fmt) }
#define DEFINE_MARKER_TP(name, tp_name, tp_cb, format)			\
	DEFINE_MARKER(name, format);					\
	static inline void __used __mark_tp_check_##name(void)		\
	{								\
		check_trace_callback_type_##tp_name(tp_cb);		\
	}
#define GET_MARKER(name)	(__mark_##name)

static inline __printf(1, 2) void __mark_check_format(const char *fmt, ...)
{
}

static inline void marker_probe_cb(const struct marker *m,
				   void *call_private, ...)
{
}

static inline int marker_probe_register(const char *name, const char *format,
					marker_probe_func *probe,
					void *probe_private)
{
	return -ENOSYS;
}

static inline int marker_probe_unregister(const char *name,
					  marker_probe_func *probe,
					  void *probe_private)
{
	return -ENOSYS;
}

static inline int marker_arm(const char *name)
{
	return -ENOSYS;
}

static inline int marker_disarm(const char *name)
{
	return -ENOSYS;
}

static inline void marker_synchronize_unregister(void)
{
}

#endif /* CONFIG_MARKERS */

#endif /* _LINUX_MARKER_H */
