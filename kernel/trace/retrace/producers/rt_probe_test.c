// SPDX-License-Identifier: GPL-2.0
/*
 * Selftest helper for kprobe events: a function with arguments of every
 * kind the fetch arguments can reach (signed and unsigned integers, a
 * string, a structure with nested pointers and bit fields, a bad
 * pointer), globals for @SYM (a number, a string, an array of strings,
 * a function pointer).  Writing N to "run" calls it N times
 * with fixed values, so the tests know what each probe must record.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

struct rt_probe_test_obj {
	unsigned int			flags;	/* offset 0 */
	short				neg;	/* offset 4 */
	const char			*name;	/* offset 8 */
	struct rt_probe_test_obj	*next;	/* offset 16 */
	unsigned char			small;	/* offset 24 */
};

static struct rt_probe_test_obj rt_probe_test_second = {
	.flags = 0x12345678, .neg = -300, .name = "second", .small = 7,
};

static struct rt_probe_test_obj rt_probe_test_first = {
	.flags = 0xa5c3, .neg = -2, .name = "retrace",
	.next = &rt_probe_test_second, .small = 200,
};

unsigned long rt_probe_test_global = 0x1122334455667788UL;
EXPORT_SYMBOL_GPL(rt_probe_test_global);
/* A string in data, for @SYM:string. */
char rt_probe_test_hello[] = "hello";
EXPORT_SYMBOL_GPL(rt_probe_test_hello);

/* An array of string pointers, the last one NULL, for string[N]. */
const char *rt_probe_test_names[] = { "alpha", "beta", NULL };
EXPORT_SYMBOL_GPL(rt_probe_test_names);

static unsigned long rt_probe_test_calls;

/*
 * Returns a + b + o->small + neg: 0xbfab for the values run passes.
 * noipa keeps gcc from cloning it with the constants folded in.
 */
/* Loads the argument registers with other values before the return. */
static noinline __attribute__((__noipa__))
void rt_probe_test_clobber(long a, long b, long c, long d, long e, long f)
{
	barrier();
}

typedef void (*rt_probe_test_fn_t)(long, long, long, long, long, long);

/* A function's address in data, for the symbol and symstr types. */
rt_probe_test_fn_t rt_probe_test_fn = rt_probe_test_clobber;
EXPORT_SYMBOL_GPL(rt_probe_test_fn);

static noinline __attribute__((__noipa__))
long rt_probe_test_target(long a, unsigned int b, const char *s,
			  struct rt_probe_test_obj *o, int neg, const void *bad)
{
	long ret;

	WRITE_ONCE(rt_probe_test_calls, rt_probe_test_calls + 1);
	barrier();
	ret = a + b + o->small + neg + (s[0] == 'h' ? 0 : 1) + (bad ? 0 : 1);
	/* A return probe's $argN must come from the entry, not these. */
	rt_probe_test_clobber(101, 102, 103, 104, 105, 106);
	return ret;
}

static int rt_probe_test_run(const char *val, const struct kernel_param *kp)
{
	unsigned int n, i;
	int ret = kstrtouint(val, 0, &n);

	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		rt_probe_test_target(-5, 0xbeef, "hello", &rt_probe_test_first,
				     -7, (const void *)16);
	return 0;
}

static const struct kernel_param_ops rt_probe_test_run_ops = {
	.set = rt_probe_test_run,
	.get = param_get_ulong,
};
module_param_cb(run, &rt_probe_test_run_ops, &rt_probe_test_calls, 0644);

MODULE_DESCRIPTION("retrace selftest: a target for kprobe events");
MODULE_LICENSE("GPL");
