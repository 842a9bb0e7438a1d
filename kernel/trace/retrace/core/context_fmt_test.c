// SPDX-License-Identifier: GPL-2.0
/*
 * Host test for context_fmt.c: rt_context_fmt() must write exactly what
 * snprintf() writes for RT_CONTEXT_FMT, over the edges of every column
 * (names of 0 to 16 bytes, pids and seconds wider than their columns,
 * CPU 0 and 999, microseconds 0 and 999999) and random values, and
 * refuse what it leaves to the format (0).
 */
#include "pure_shim.h"
#include <stdio.h>
#include "context_fmt.h"

static unsigned int checks, failed;

/* 64 random bits from the C library's generator, seeded at 1. */
static u64 rng(void)
{
	return (u64)random() << 42 ^ (u64)random() << 21 ^ random();
}

static void same(const char *comm, int pid, unsigned int cpu, u64 secs,
		 u32 usecs)
{
	char want[128], got[RT_CONTEXT_FMT_MAX + 1];
	unsigned int n = rt_context_fmt(got, comm, strlen(comm), pid, cpu,
					secs, usecs);
	int w = snprintf(want, sizeof(want), RT_CONTEXT_FMT, comm, pid, cpu,
			 (unsigned long long)secs, usecs);

	checks++;
	got[n < sizeof(got) ? n : 0] = '\0';
	if (n != (unsigned int)w || strcmp(got, want)) {
		if (failed++ < 5)
			fprintf(stderr, "context_fmt: got \"%s\" (%u), want \"%s\" (%d)\n",
				got, n, want, w);
	}
}

static void refused(const char *comm, unsigned int len, int pid,
		    unsigned int cpu, u32 usecs)
{
	char buf[RT_CONTEXT_FMT_MAX];

	checks++;
	if (rt_context_fmt(buf, comm, len, pid, cpu, 1, usecs)) {
		if (failed++ < 5)
			fprintf(stderr, "context_fmt: took pid %d cpu %u usecs %u len %u\n",
				pid, cpu, usecs, len);
	}
}

int main(void)
{
	static const char *const comms[] = {
		"", "a", "bash", "kworker/0:1", "123456789012345",
		"1234567890123456", "<idle>", "sh -c x",
	};
	static const int pids[] = { 0, 1, 9, 10, 9999, 10000, 99999, 100000,
				    4194304, 2147483647 };
	static const unsigned int cpus[] = { 0, 1, 9, 10, 99, 100, 999 };
	static const u64 secs[] = { 0, 1, 9999, 99999, 100000, 4294967296ULL,
				    18446744073ULL, ~0ULL };
	static const u32 usecs[] = { 0, 1, 999999, 100000, 54321 };
	char comm[17];
	unsigned int a, b, c, d, e, i;

	for (a = 0; a < ARRAY_SIZE(comms); a++)
		for (b = 0; b < ARRAY_SIZE(pids); b++)
			for (c = 0; c < ARRAY_SIZE(cpus); c++)
				for (d = 0; d < ARRAY_SIZE(secs); d++)
					for (e = 0; e < ARRAY_SIZE(usecs); e++)
						same(comms[a], pids[b], cpus[c],
						     secs[d], usecs[e]);
	for (i = 0; i < 200000; i++) {
		unsigned int len = rng() % 17, j;

		for (j = 0; j < len; j++)
			comm[j] = 33 + rng() % 94;
		comm[len] = '\0';
		same(comm, (int)(rng() % 0x80000000ULL), rng() % 1000,
		     rng() >> (rng() % 64), rng() % 1000000);
	}
	refused("x", 1, -1, 0, 0);
	refused("x", 1, 1, 1000, 0);
	refused("x", 1, 1, 0, 1000000);
	refused("12345678901234567", 17, 1, 0, 0);
	if (failed) {
		fprintf(stderr, "context_fmt_test: %u of %u checks failed\n",
			failed, checks);
		return 1;
	}
	printf("ok context_fmt\ncontext_fmt_test: %u checks passed\n", checks);
	return 0;
}
