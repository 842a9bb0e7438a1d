// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the kprobe_events parser.  Any line must parse
 * or fail with a reason and leak nothing (ASan); a parsed definition
 * must respect the limits and list as text that parses back to the
 * same definition.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pure_shim.h"
#include <trace/retrace/probe_def.h>

static void fail(const char *what, const char *line)
{
	fprintf(stderr, "fuzz check failed: %s: '%s'\n", what, line);
	abort();
}

static int same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static int same_arg(const struct rt_probe_arg *a, const struct rt_probe_arg *b)
{
	return same_str(a->name, b->name) && a->base == b->base &&
	       a->reg == b->reg && a->imm == b->imm && same_str(a->sym, b->sym) &&
	       a->nr_deref == b->nr_deref &&
	       (!a->nr_deref ||
		!memcmp(a->deref, b->deref, a->nr_deref * sizeof(long))) &&
	       a->type == b->type && a->size == b->size &&
	       a->is_signed == b->is_signed && a->hex == b->hex &&
	       a->bf_width == b->bf_width &&
	       a->bf_offset == b->bf_offset && a->count == b->count &&
	       a->user == b->user && a->ustr == b->ustr && a->vfs == b->vfs;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rt_probe_def *d, *d2;
	char *line, *text;
	struct rt_probe_error err;
	unsigned int i, j;
	int ret, n;

	if (size > RT_PROBE_MAX_LINE)
		return 0;
	line = strndup((const char *)data, size);
	ret = rt_probe_parse(line, &d, &err);
	if (ret) {
		if (d || !err.msg || (ret != -EINVAL && ret != -E2BIG))
			fail("error without reason", line);
		if (err.pos > strlen(line))
			fail("error position past the line's end", line);
		free(line);
		return 0;
	}
	if (!d || d->cmd == '-') {
		rt_probe_def_free(d);
		free(line);
		return 0;
	}
	if (d->maxactive > RT_PROBE_MAX_ACTIVE || (d->maxactive && d->cmd != 'r'))
		fail("maxactive", line);
	if (d->nr_args > RT_PROBE_MAX_ARGS || !d->group || !d->event)
		fail("limits", line);
	for (i = 0; i < d->nr_args; i++) {
		if (!d->args[i].name || !*d->args[i].name)
			fail("unnamed argument", line);
		for (j = 0; j < i; j++)
			if (!strcmp(d->args[i].name, d->args[j].name))
				fail("duplicate names", line);
		if (d->args[i].base == RT_FETCH_RETVAL && d->cmd != 'r')
			fail("$retval on an entry probe", line);
		if (d->args[i].type == RT_FETCH_STRING && !d->args[i].nr_deref &&
		    d->args[i].base != RT_FETCH_COMM && !d->args[i].vfs)
			fail("a string with no address", line);
		if (d->args[i].count > RT_PROBE_MAX_ARRAY ||
		    (d->args[i].count && !d->args[i].nr_deref))
			fail("an array too big or not from memory", line);
		if (d->args[i].nr_deref > RT_PROBE_MAX_STEPS)
			fail("nested too deep", line);
	}
	n = rt_probe_def_format(d, NULL, 0);
	text = malloc(n + 1);
	rt_probe_def_format(d, text, n + 1);
	if (rt_probe_parse(text, &d2, &err) || !d2)
		fail("listing does not parse", text);
	if (d2->cmd != d->cmd || d2->maxactive != d->maxactive ||
	    strcmp(d2->group, d->group) ||
	    strcmp(d2->event, d->event) || !same_str(d2->mod, d->mod) ||
	    !same_str(d2->sym, d->sym) || d2->offset != d->offset ||
	    d2->addr != d->addr || d2->nr_args != d->nr_args)
		fail("listing parses differently", text);
	for (i = 0; i < d->nr_args; i++)
		if (!same_arg(&d->args[i], &d2->args[i]))
			fail("argument parses differently", text);
	rt_probe_def_free(d2);
	rt_probe_def_free(d);
	free(text);
	free(line);
	return 0;
}
