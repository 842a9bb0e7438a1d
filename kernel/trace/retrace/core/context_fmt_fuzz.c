// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for context_fmt.c: the input's first 17 bytes are
 * the pid (4), CPU (2), seconds (8) and microseconds (3), the rest the
 * name (any bytes but NUL, at most 16).  Whatever rt_context_fmt()
 * writes must be what snprintf() writes for RT_CONTEXT_FMT; when it
 * refuses, the arguments must be ones it documents refusing.
 */
#include "pure_shim.h"
#include <stdio.h>
#include "context_fmt.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char comm[17], want[128], got[RT_CONTEXT_FMT_MAX + 1];
	unsigned int cpu, len, n;
	u32 usecs;
	u64 secs;
	int pid;

	if (size < 17)
		return 0;
	memcpy(&pid, data, 4);
	cpu = (data[4] | data[5] << 8) % 1200;
	memcpy(&secs, data + 6, 8);
	usecs = (data[14] | data[15] << 8 | data[16] << 16) % 1100000;
	for (len = 0; len < 16 && 17 + len < size && data[17 + len]; len++)
		comm[len] = data[17 + len];
	comm[len] = '\0';
	n = rt_context_fmt(got, comm, len, pid, cpu, secs, usecs);
	if (!n) {
		if (pid >= 0 && cpu <= 999 && usecs <= 999999)
			abort();
		return 0;
	}
	got[n] = '\0';
	if ((int)n != snprintf(want, sizeof(want), RT_CONTEXT_FMT, comm, pid,
			       cpu, (unsigned long long)secs, usecs) ||
	    strcmp(got, want))
		abort();
	return 0;
}
