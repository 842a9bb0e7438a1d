// SPDX-License-Identifier: GPL-2.0
/*
 * A reader's cache of symbol names, for the text output.
 *
 * A function record prints two symbols, and kallsyms finds each by a
 * binary search and a walk through compressed names: most of the cost
 * of a line.  The function tracer's records name the same few hundred
 * functions over and over, so each open trace or trace_pipe file keeps
 * the names it printed last, direct-mapped by address.
 *
 * Only the core kernel's text is cached: its names never change while
 * the system runs, whereas a module's address may name another
 * function once the module is gone and another is loaded there.
 *
 * The cache belongs to one reader and is used only under its lock (one
 * read() at a time): no other synchronisation.
 */
#include <linux/hash.h>
#include <linux/kallsyms.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <asm/sections.h>
#include "internal.h"

#define RT_SYM_CACHE_BITS	8
#define RT_SYM_NAME_MAX		56	/* longer names are not cached */

struct rt_sym_slot {
	unsigned long	ip;		/* 0: empty */
	char		name[RT_SYM_NAME_MAX];
};

struct rt_sym_cache {
	struct rt_sym_slot	slot[1 << RT_SYM_CACHE_BITS];
};

/**
 * rt_sym_cache_alloc - a reader's empty symbol cache
 *
 * Return: the cache, or NULL without memory (names are then looked up
 * every time).
 */
struct rt_sym_cache *rt_sym_cache_alloc(void)
{
	struct rt_sym_cache *c = kvmalloc(sizeof(*c), GFP_KERNEL);
	unsigned int i;

	if (c)
		for (i = 0; i < ARRAY_SIZE(c->slot); i++)
			c->slot[i].ip = 0;
	return c;
}

/**
 * rt_sym_cache_free - free a cache from rt_sym_cache_alloc()
 * @c: the cache, or NULL
 */
void rt_sym_cache_free(struct rt_sym_cache *c)
{
	kvfree(c);
}

/**
 * rt_sym_cache_name - the bare symbol name of @ip, as lookup_symbol_name()
 * @c: the reader's cache, or NULL
 * @ip: a kernel address, not 0
 * @buf: KSYM_NAME_LEN bytes for a name that is not cached
 *
 * Return: the name (in @c or in @buf), or NULL if no symbol holds @ip.
 */
const char *rt_sym_cache_name(struct rt_sym_cache *c, unsigned long ip,
			      char *buf)
{
	struct rt_sym_slot *s;

	if (!c || !__is_kernel_text(ip))
		return lookup_symbol_name(ip, buf) ? NULL : buf;
	s = &c->slot[hash_long(ip, RT_SYM_CACHE_BITS)];
	if (s->ip == ip)
		return s->name;
	if (lookup_symbol_name(ip, buf))
		return NULL;
	if (strscpy(s->name, buf, sizeof(s->name)) > 0)
		s->ip = ip;
	else
		s->ip = 0;
	return buf;
}
