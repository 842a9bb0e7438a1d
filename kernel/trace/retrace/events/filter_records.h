/* SPDX-License-Identifier: GPL-2.0 */
/* A test event layout shared by the filter unit tests and fuzzer. */
#ifndef _RETRACE_FILTER_RECORDS_H
#define _RETRACE_FILTER_RECORDS_H

#include <stdint.h>
#include <string.h>
#include <trace/retrace/event_filter.h>

static const struct rt_event_field test_fields[] = {
	{ "unsigned short", "common_type", 0, 2, 0, RT_FIELD_INT },
	{ "unsigned char", "common_flags", 2, 1, 0, RT_FIELD_INT },
	{ "unsigned char", "common_preempt_count", 3, 1, 0, RT_FIELD_INT },
	{ "int", "common_pid", 4, 4, 1, RT_FIELD_INT },
	{ "u32", "a", 8, 4, 0, RT_FIELD_INT },
	{ "s64", "s", 16, 8, 1, RT_FIELD_INT },
	{ "u8", "b", 24, 1, 0, RT_FIELD_INT },
	{ "s16", "c", 26, 2, 1, RT_FIELD_INT },
	{ "__data_loc char[]", "name", 28, 4, 0, RT_FIELD_STRING },
	{ "u64", "$retval", 32, 8, 0, RT_FIELD_INT },
	{ "u8", "blob", 40, 8, 0, RT_FIELD_BYTES },
	/* name's bytes again, read as the string ending the record */
	{ "char", "tail", 48, 0, 1, RT_FIELD_TAIL },
};
#define NR_TEST_FIELDS (sizeof(test_fields) / sizeof(test_fields[0]))

/*
 * The host's text for FIELD.function: two adjacent functions and one
 * apart, [start, end).  Included once per program, so defined here.
 */
static const struct {
	const char		*name;
	unsigned long long	start, end;
} test_funcs[] = {
	{ "getppid_fn", 0x1000, 0x1100 },
	{ "next_fn", 0x1100, 0x1180 },
	{ "far_fn", 0xdead0000, 0xdeadbef0 },
};

bool rt_filter_func_bounds(const char *name, unsigned long long addr,
			   unsigned long long *start, unsigned long long *end)
{
	unsigned int i;

	for (i = 0; i < sizeof(test_funcs) / sizeof(test_funcs[0]); i++) {
		if (name ? strcmp(name, test_funcs[i].name) :
			   addr < test_funcs[i].start || addr >= test_funcs[i].end)
			continue;
		*start = test_funcs[i].start;
		*end = test_funcs[i].end;
		return true;
	}
	return false;
}

struct test_rec {
	unsigned char bytes[128];
	unsigned int len;
};

static inline void test_rec_make(struct test_rec *r, int pid, uint32_t a,
				 int64_t s, uint8_t b, int16_t c,
				 const char *name, uint64_t ret)
{
	uint16_t type = 42;
	uint32_t loc;
	size_t n = strlen(name) + 1;

	memset(r, 0, sizeof(*r));
	memcpy(r->bytes, &type, 2);
	memcpy(r->bytes + 4, &pid, 4);
	memcpy(r->bytes + 8, &a, 4);
	memcpy(r->bytes + 16, &s, 8);
	r->bytes[24] = b;
	memcpy(r->bytes + 26, &c, 2);
	memcpy(r->bytes + 32, &ret, 8);
	if (n > sizeof(r->bytes) - 48)
		n = sizeof(r->bytes) - 48;
	memcpy(r->bytes + 48, name, n);
	r->bytes[48 + n - 1] = 0;
	loc = (uint32_t)n << 16 | 48;
	memcpy(r->bytes + 28, &loc, 4);
	r->len = 48 + n;
}

#endif
