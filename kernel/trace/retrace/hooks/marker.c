// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers: the name registry behind <linux/marker.h>.
 *
 * Sites live in "__markers" sections, the kernel's and each loaded
 * module's (a block each).  Everything said about a name lives in its
 * entry: the probes registered for it, the marker_arm() count, and how
 * many sites of that name are loaded.  A site is on when its entry is
 * armed, has probes, and the probes' format (if they gave one) is the
 * site's.  Any change to an entry re-applies it to every site of the
 * name; a module's sites get their state when it comes.
 *
 * Site state, the lockless part:
 *   site->probes  the entry's probe array, published with
 *                 rcu_assign_pointer() before site->key is switched on,
 *                 and set to NULL after the key is switched off.  A CPU
 *                 in marker_probe_cb() reads it once with preemption
 *                 disabled; a NULL means "off after all".
 *   probe arrays  never change once published; a change builds a new
 *                 one and frees the old after an RCU grace period, which
 *                 also waits out every preemption-disabled reader.
 *
 * Locks, outermost first:
 *   marker_sites_mutex  blocks coming and going, and the notifier chain;
 *                       held while the notifier runs, so a listener may
 *                       call marker_probe_register() and friends
 *   marker_mutex        entries, blocks and site state
 *   cpu hotplug, jump_label_mutex, tracepoints_mutex  (static keys and
 *                       tracepoint probes switched under marker_mutex)
 */
#define pr_fmt(fmt) "marker: " fmt

#include <linux/hashtable.h>
#include <linux/jhash.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

extern struct marker __start___markers[];
extern struct marker __stop___markers[];

struct marker_probe {
	marker_probe_func	*func;
	void			*private;
};

/* Immutable once published; see the file comment. */
struct marker_probes {
	struct rcu_head		rcu;
	unsigned int		nr;
	struct marker_probe	probe[];
};

/**
 * struct marker_entry - what is known of one name (under marker_mutex)
 * @hlist: in marker_table
 * @format: the format the probes gave, or NULL if none did
 * @format_probe: the probe that gave it, for the mismatch notice
 * @probes: the probes; what sites of this name point to when on
 * @armed: marker_arm() count
 * @nr_sites: sites of this name in loaded code
 * @nr_mismatch: of those, sites left off for their format
 * @name: the name
 */
struct marker_entry {
	struct hlist_node	hlist;
	char			*format;
	marker_probe_func	*format_probe;
	struct marker_probes	*probes;
	unsigned int		armed;
	unsigned int		nr_sites;
	unsigned int		nr_mismatch;
	char			name[];
};

/* The sites of the kernel or of one module. */
struct marker_block {
	struct marker		*start, *stop;
	struct module		*mod;		/* NULL for the kernel */
	struct list_head	list;
};

static DEFINE_MUTEX(marker_sites_mutex);
static DEFINE_MUTEX(marker_mutex);
static DEFINE_HASHTABLE(marker_table, 7);
static LIST_HEAD(marker_blocks);
static BLOCKING_NOTIFIER_HEAD(marker_chain);
static struct marker_block marker_core_block;

/* ---- the call path ------------------------------------------------------- */

/**
 * marker_probe_cb - call the probes connected to a site
 * @m: the site
 * @call_private: passed to each probe
 *
 * trace_mark() calls this when the site is on; a DEFINE_MARKER_TP()
 * callback calls it to pass the tracepoint's hit on.  The variable
 * arguments must match @m->format.  Each probe gets its own va_list.
 */
void marker_probe_cb(const struct marker *m, void *call_private, ...)
{
	struct marker_probes *p;
	unsigned int i;
	va_list args;

	preempt_disable_notrace();
	p = rcu_dereference_sched(m->probes);
	for (i = 0; p && i < p->nr; i++) {
		va_start(args, call_private);
		p->probe[i].func(p->probe[i].private, call_private, m->format,
				 &args);
		va_end(args);
	}
	preempt_enable_notrace();
}
EXPORT_SYMBOL_GPL(marker_probe_cb);

/* ---- entries ------------------------------------------------------------- */

static u32 marker_hash(const char *name)
{
	return jhash(name, strlen(name), 0);
}

static struct marker_entry *marker_find(const char *name)
{
	struct marker_entry *e;

	lockdep_assert_held(&marker_mutex);
	hash_for_each_possible(marker_table, e, hlist, marker_hash(name))
		if (!strcmp(e->name, name))
			return e;
	return NULL;
}

static struct marker_entry *marker_get(const char *name)
{
	struct marker_entry *e = marker_find(name);
	size_t len = strlen(name) + 1;

	if (e)
		return e;
	e = kzalloc(struct_size(e, name, len), GFP_KERNEL);
	if (!e)
		return NULL;
	memcpy(e->name, name, len);
	hash_add(marker_table, &e->hlist, marker_hash(name));
	return e;
}

/* Free @e if nothing refers to it any more. */
static void marker_put(struct marker_entry *e)
{
	if (e->nr_sites || e->probes || e->armed)
		return;
	hash_del(&e->hlist);
	kfree(e->format);
	kfree(e);
}

/* ---- applying an entry to its sites --------------------------------------- */

static bool marker_wanted(const struct marker_entry *e)
{
	return e && e->armed && e->probes;
}

/* Switch one site on or off; a no-op if it is already so. */
static void marker_site_set(struct marker *m, struct marker_entry *e, bool on)
{
	bool was = static_key_enabled(&m->key);

	lockdep_assert_held(&marker_mutex);
	if (on) {
		rcu_assign_pointer(m->probes, e->probes);
		if (was)
			return;
		if (m->tp && tracepoint_probe_register(m->tp, m->tp_cb, m)) {
			pr_warn("%s: cannot attach to tracepoint %s\n",
				m->name, m->tp->name);
			RCU_INIT_POINTER(m->probes, NULL);
			return;
		}
		static_branch_enable(&m->key);
		return;
	}
	if (was) {
		static_branch_disable(&m->key);
		if (m->tp)
			tracepoint_probe_unregister(m->tp, m->tp_cb, m);
	}
	RCU_INIT_POINTER(m->probes, NULL);
}

/* Is @m to be on for @e?  With @warn, a site turned away says why. */
static bool marker_site_wanted(struct marker *m, struct marker_entry *e,
			       bool warn)
{
	if (!marker_wanted(e))
		return false;
	if (e->format && strcmp(e->format, m->format)) {
		if (warn)
			pr_notice("Format mismatch for probe %ps (%s), marker (%s)\n",
				  e->format_probe, e->format, m->format);
		e->nr_mismatch++;
		return false;
	}
	return true;
}

static void marker_block_apply(struct marker_block *b, struct marker_entry *e,
			       bool warn)
{
	struct marker *m;

	for (m = b->start; m < b->stop; m++)
		if (!strcmp(m->name, e->name))
			marker_site_set(m, e, marker_site_wanted(m, e, warn));
}

/*
 * Re-apply @e to every loaded site of its name.  @warn: the name just
 * became wanted (armed with probes), so each mismatch is news.
 */
static void marker_update(struct marker_entry *e, bool warn)
{
	struct marker_block *b;

	lockdep_assert_held(&marker_mutex);
	e->nr_mismatch = 0;
	list_for_each_entry(b, &marker_blocks, list)
		marker_block_apply(b, e, warn);
}

/* ---- the API -------------------------------------------------------------- */

static int marker_set_probes(struct marker_entry *e, struct marker_probes *p)
{
	struct marker_probes *old = e->probes;

	e->probes = p;
	marker_update(e, !old && marker_wanted(e));
	if (old)
		kfree_rcu(old, rcu);
	return 0;
}

/**
 * marker_probe_register - connect a probe to a marker name
 * @name: the marker's name; it need not be loaded yet
 * @format: the format the probe expects, or NULL to take any
 * @probe: the probe
 * @probe_private: passed to @probe
 *
 * The probe is called from every site of @name whose format is
 * @format, once the name is armed (marker_arm()).  Sites in modules
 * loaded later connect when they come.
 *
 * Return: 0; -EBUSY if @probe is registered with @probe_private
 * already; -EPERM if other probes of @name gave another format;
 * -EINVAL for a NULL or empty @name or NULL @probe; -ENOMEM.
 */
int marker_probe_register(const char *name, const char *format,
			  marker_probe_func *probe, void *probe_private)
{
	struct marker_entry *e;
	struct marker_probes *p;
	unsigned int i, nr;
	char *fmt = NULL;
	int ret;

	if (!name || !*name || !probe)
		return -EINVAL;
	mutex_lock(&marker_mutex);
	e = marker_get(name);
	ret = -ENOMEM;
	if (!e)
		goto out;
	nr = e->probes ? e->probes->nr : 0;
	ret = -EBUSY;
	for (i = 0; i < nr; i++)
		if (e->probes->probe[i].func == probe &&
		    e->probes->probe[i].private == probe_private)
			goto put;
	ret = -EPERM;
	if (format && e->format && strcmp(format, e->format))
		goto put;
	ret = -ENOMEM;
	if (format && !e->format) {
		fmt = kstrdup(format, GFP_KERNEL);
		if (!fmt)
			goto put;
	}
	p = kmalloc(struct_size(p, probe, nr + 1), GFP_KERNEL);
	if (!p) {
		kfree(fmt);
		goto put;
	}
	p->nr = nr + 1;
	if (nr)
		memcpy(p->probe, e->probes->probe, nr * sizeof(p->probe[0]));
	p->probe[nr] = (struct marker_probe){ probe, probe_private };
	if (fmt) {
		e->format = fmt;
		e->format_probe = probe;
	}
	ret = marker_set_probes(e, p);
put:
	marker_put(e);
out:
	mutex_unlock(&marker_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(marker_probe_register);

/**
 * marker_probe_unregister - disconnect a probe
 * @name: the marker's name
 * @probe: the probe
 * @probe_private: as registered
 *
 * The probe is not called by any site once this returns, except by
 * CPUs already inside it: see marker_synchronize_unregister().  When the
 * last probe of @name goes, the name is disarmed whatever its count,
 * and forgets its format.
 *
 * Return: 0, or -ENOENT if @probe with @probe_private is not
 * registered for @name.
 */
int marker_probe_unregister(const char *name, marker_probe_func *probe,
			    void *probe_private)
{
	struct marker_probes *p = NULL;
	struct marker_entry *e;
	unsigned int i, j, nr;
	int ret = -ENOENT;

	if (!name)
		return -ENOENT;
	mutex_lock(&marker_mutex);
	e = marker_find(name);
	if (!e || !e->probes)
		goto out;
	nr = e->probes->nr;
	for (i = 0; i < nr; i++)
		if (e->probes->probe[i].func == probe &&
		    e->probes->probe[i].private == probe_private)
			break;
	if (i == nr)
		goto out;
	if (nr > 1) {
		/* Small, and a probe must be removable: no failure here. */
		p = kmalloc(struct_size(p, probe, nr - 1),
			    GFP_KERNEL | __GFP_NOFAIL);
		p->nr = nr - 1;
		for (i = 0, j = 0; i < nr; i++)
			if (e->probes->probe[i].func != probe ||
			    e->probes->probe[i].private != probe_private)
				p->probe[j++] = e->probes->probe[i];
	} else {
		e->armed = 0;
		kfree(e->format);
		e->format = NULL;
	}
	ret = marker_set_probes(e, p);
	marker_put(e);
out:
	mutex_unlock(&marker_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(marker_probe_unregister);

/* One marker_arm() (@arm) or marker_disarm(): see them. */
static int marker_arm_count(const char *name, bool arm)
{
	struct marker_entry *e;
	int ret = -ENOENT;

	if (!name)
		return -ENOENT;
	mutex_lock(&marker_mutex);
	e = marker_find(name);
	if (!e)
		goto out;
	ret = arm ? -EOVERFLOW : -EALREADY;
	if (arm ? e->armed == UINT_MAX : !e->armed)
		goto out;
	e->armed += arm ? 1 : -1;
	if (e->armed == arm)	/* 0 to 1, or 1 to 0 */
		marker_update(e, arm);
	marker_put(e);
	ret = 0;
out:
	mutex_unlock(&marker_mutex);
	return ret;
}

/**
 * marker_arm - arm a marker name
 * @name: a name with a probe registered or a site loaded
 *
 * Counted: the name stays armed until marker_disarm() has been called
 * as many times.  Sites whose format differs from the probes' stay
 * off, with a "Format mismatch" notice.
 *
 * Return: 0, -ENOENT for a name nothing knows, -EOVERFLOW.
 */
int marker_arm(const char *name)
{
	return marker_arm_count(name, true);
}
EXPORT_SYMBOL_GPL(marker_arm);

/**
 * marker_disarm - undo one marker_arm()
 * @name: the marker's name
 *
 * Return: 0, -ENOENT for a name nothing knows, -EALREADY if it is not
 * armed.
 */
int marker_disarm(const char *name)
{
	return marker_arm_count(name, false);
}
EXPORT_SYMBOL_GPL(marker_disarm);

/**
 * marker_synchronize_unregister - wait for probes still running
 *
 * After marker_probe_unregister(), call this before a module that
 * holds the probe finishes its exit function, and before freeing what
 * the probe uses: it returns once every CPU that was inside a probe
 * has left it.
 */
void marker_synchronize_unregister(void)
{
	synchronize_rcu();
}
EXPORT_SYMBOL_GPL(marker_synchronize_unregister);

/**
 * marker_for_each - visit every marker name
 * @fn: called with a snapshot of each name, under the marker mutex; a
 *	non-zero return stops the walk
 * @data: passed to @fn
 *
 * Return: what the last @fn call returned, or 0.
 */
int marker_for_each(int (*fn)(const struct marker_info *info, void *data),
		    void *data)
{
	struct marker_info info;
	struct marker_entry *e;
	struct marker_block *b;
	struct marker *m;
	int bkt, ret = 0;

	mutex_lock(&marker_mutex);
	hash_for_each(marker_table, bkt, e, hlist) {
		info = (struct marker_info){
			.name = e->name, .format = e->format,
			.armed = e->armed, .nr_sites = e->nr_sites,
			.nr_probes = e->probes ? e->probes->nr : 0,
			.nr_mismatch = e->nr_mismatch,
		};
		list_for_each_entry(b, &marker_blocks, list) {
			for (m = b->start; !info.format && m < b->stop; m++)
				if (!strcmp(m->name, e->name))
					info.format = m->format;
		}
		ret = fn(&info, data);
		if (ret)
			break;
	}
	mutex_unlock(&marker_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(marker_for_each);

/* ---- blocks: the kernel's sites and each module's ------------------------ */

static unsigned int marker_count(const struct marker_block *b,
				 const char *name)
{
	const struct marker *m;
	unsigned int n = 0;

	for (m = b->start; m < b->stop; m++)
		n += !strcmp(m->name, name);
	return n;
}

/* Is @m the first site of its name in @b? */
static bool marker_first(const struct marker_block *b, const struct marker *m)
{
	const struct marker *p;

	for (p = b->start; p < m; p++)
		if (!strcmp(p->name, m->name))
			return false;
	return true;
}

/*
 * Sites of @b whose name has no site outside @b: new names once @b is
 * added, names about to vanish before it is removed.  Returns how many
 * were stored in @out (room for every site of @b).
 */
static unsigned int marker_own_names(const struct marker_block *b,
				     struct marker **out)
{
	struct marker_entry *e;
	struct marker *m;
	unsigned int n = 0;

	lockdep_assert_held(&marker_mutex);
	for (m = b->start; m < b->stop; m++) {
		if (!marker_first(b, m))
			continue;
		e = marker_find(m->name);
		if (e && e->nr_sites == marker_count(b, m->name))
			out[n++] = m;
	}
	return n;
}

static void marker_notify(unsigned long event, struct marker **sites,
			  unsigned int n)
{
	unsigned int i;

	lockdep_assert_held(&marker_sites_mutex);
	for (i = 0; i < n; i++)
		blocking_notifier_call_chain(&marker_chain, event, sites[i]);
}

/* Count @b's sites in, apply their names' state, then tell listeners. */
static int marker_block_add(struct marker_block *b)
{
	struct marker **names = NULL;
	struct marker_entry *e;
	unsigned int n = b->stop - b->start;
	struct marker *m;

	lockdep_assert_held(&marker_sites_mutex);
	if (n) {
		names = kmalloc_array(n, sizeof(*names), GFP_KERNEL);
		if (!names)
			return -ENOMEM;
	}
	mutex_lock(&marker_mutex);
	for (m = b->start; m < b->stop; m++) {
		e = marker_get(m->name);
		if (!e)
			goto undo;
		e->nr_sites++;
	}
	list_add_tail(&b->list, &marker_blocks);
	for (m = b->start; m < b->stop; m++)
		if (marker_first(b, m))
			marker_update(marker_find(m->name), true);
	n = marker_own_names(b, names);
	mutex_unlock(&marker_mutex);
	marker_notify(MARKER_NAME_ADDED, names, n);
	kfree(names);
	return 0;
undo:
	while (m-- > b->start) {
		e = marker_find(m->name);
		e->nr_sites--;
		marker_put(e);
	}
	mutex_unlock(&marker_mutex);
	kfree(names);
	return -ENOMEM;
}

/* Tell listeners, switch @b's sites off, count them out. */
static void marker_block_remove(struct marker_block *b)
{
	struct marker **names = NULL;
	struct marker_entry *e;
	unsigned int n = b->stop - b->start;
	struct marker *m;

	lockdep_assert_held(&marker_sites_mutex);
	/* Listeners must hear of every name that goes: no failure here. */
	names = kmalloc_array(max(n, 1U), sizeof(*names),
			      GFP_KERNEL | __GFP_NOFAIL);
	mutex_lock(&marker_mutex);
	n = marker_own_names(b, names);
	mutex_unlock(&marker_mutex);
	marker_notify(MARKER_NAME_REMOVED, names, n);
	kfree(names);

	mutex_lock(&marker_mutex);
	list_del(&b->list);
	for (m = b->start; m < b->stop; m++) {
		e = marker_find(m->name);
		marker_site_set(m, e, false);
		e->nr_sites--;
	}
	for (m = b->start; m < b->stop; m++) {
		e = marker_find(m->name);
		if (e && marker_first(b, m)) {
			marker_update(e, false);	/* recount mismatches */
			marker_put(e);
		}
	}
	mutex_unlock(&marker_mutex);
}

static struct marker_block *marker_block_of(struct module *mod)
{
	struct marker_block *b;

	list_for_each_entry(b, &marker_blocks, list)
		if (b->mod == mod)
			return b;
	return NULL;
}

#ifdef CONFIG_MODULES
/*
 * Two notifier blocks: a module's sites come after jump_label (priority
 * 1) has set up the module's static keys, and go before jump_label and
 * the tracepoints forget the module, so its keys and any tracepoint
 * callbacks are switched off properly.
 */
static int marker_module_coming(struct notifier_block *nb,
				unsigned long val, void *data)
{
	struct module *mod = data;
	struct marker_block *b;
	int ret;

	if (val != MODULE_STATE_COMING || !mod->num_markers)
		return NOTIFY_DONE;
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return notifier_from_errno(-ENOMEM);
	b->start = mod->markers;
	b->stop = mod->markers + mod->num_markers;
	b->mod = mod;
	mutex_lock(&marker_sites_mutex);
	ret = marker_block_add(b);
	mutex_unlock(&marker_sites_mutex);
	if (ret) {
		kfree(b);
		return notifier_from_errno(ret);
	}
	return NOTIFY_OK;
}

static int marker_module_going(struct notifier_block *nb,
			       unsigned long val, void *data)
{
	struct marker_block *b;

	if (val != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	mutex_lock(&marker_sites_mutex);
	mutex_lock(&marker_mutex);
	b = marker_block_of(data);
	mutex_unlock(&marker_mutex);
	if (b)
		marker_block_remove(b);
	mutex_unlock(&marker_sites_mutex);
	kfree(b);
	return NOTIFY_OK;
}

static struct notifier_block marker_coming_nb = {
	.notifier_call = marker_module_coming,
	.priority = 0,
};

static struct notifier_block marker_going_nb = {
	.notifier_call = marker_module_going,
	.priority = 2,
};
#endif

/* ---- listeners ------------------------------------------------------------ */

/**
 * marker_notifier_register - learn of marker names as they come and go
 * @nb: called with MARKER_NAME_ADDED when the first site of a name is
 *	loaded and MARKER_NAME_REMOVED before its last site goes, with
 *	that site as data, in process context; it may use this API
 *
 * @nb is first called for every name already loaded.
 *
 * Return: 0, or -ENOMEM.
 */
int marker_notifier_register(struct notifier_block *nb)
{
	struct marker **names = NULL;
	struct marker_block *b;
	struct marker *m;
	unsigned int n = 0, i;
	int ret = 0;

	mutex_lock(&marker_sites_mutex);
	mutex_lock(&marker_mutex);
	list_for_each_entry(b, &marker_blocks, list)
		n += b->stop - b->start;
	if (n)
		names = kmalloc_array(n, sizeof(*names), GFP_KERNEL);
	if (n && !names) {
		ret = -ENOMEM;
	} else {
		/* The first site of each name, over all blocks. */
		n = 0;
		list_for_each_entry(b, &marker_blocks, list) {
			for (m = b->start; m < b->stop; m++) {
				for (i = 0; i < n; i++)
					if (!strcmp(names[i]->name, m->name))
						break;
				if (i == n)
					names[n++] = m;
			}
		}
	}
	mutex_unlock(&marker_mutex);
	if (!ret) {
		blocking_notifier_chain_register(&marker_chain, nb);
		for (i = 0; i < n; i++)
			nb->notifier_call(nb, MARKER_NAME_ADDED, names[i]);
	}
	mutex_unlock(&marker_sites_mutex);
	kfree(names);
	return ret;
}
EXPORT_SYMBOL_GPL(marker_notifier_register);

/**
 * marker_notifier_unregister - stop listening
 * @nb: as registered
 *
 * Return: 0, or -ENOENT if @nb was not registered.
 */
int marker_notifier_unregister(struct notifier_block *nb)
{
	int ret;

	mutex_lock(&marker_sites_mutex);
	ret = blocking_notifier_chain_unregister(&marker_chain, nb);
	mutex_unlock(&marker_sites_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(marker_notifier_unregister);

/*
 * The kernel's own sites, once static keys work and before any module
 * or listener can come.  Probes registered by earlier initcalls get
 * their sites here.
 */
static int __init marker_init(void)
{
	int ret;

	marker_core_block.start = __start___markers;
	marker_core_block.stop = __stop___markers;
	mutex_lock(&marker_sites_mutex);
	ret = marker_block_add(&marker_core_block);
	mutex_unlock(&marker_sites_mutex);
	if (ret)
		return ret;
#ifdef CONFIG_MODULES
	register_module_notifier(&marker_coming_nb);
	register_module_notifier(&marker_going_nb);
#endif
	return 0;
}
core_initcall(marker_init);
