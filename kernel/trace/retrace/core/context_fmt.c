// SPDX-License-Identifier: GPL-2.0
/*
 * The context columns every default-format line of trace and trace_pipe
 * starts with, "comm-pid [cpu] secs.usecs: ", written digit by digit.
 * vsnprintf() parses the format again for every line: its functions
 * ran about 2,000 of a trace_pipe line's 6,750 guest instructions
 * (harness/profile.sh text, the own instructions of format_decode(),
 * number(), vsnprintf() and their helpers, per line).  Its first form,
 * inside output.c, ran about 320 in the same profile; this one has not
 * been profiled on its own.
 */
#ifdef RETRACE_HOST
#include "pure_shim.h"
#else
#include <linux/string.h>
#endif
#include "context_fmt.h"

/* @v in decimal, ending just before @end.  Return: its first digit. */
static char *rt_dec_back(char *end, unsigned long long v)
{
	do {
		*--end = '0' + v % 10;
		v /= 10;
	} while (v);
	return end;
}

/**
 * rt_context_fmt - format the default context columns
 * @buf: RT_CONTEXT_FMT_MAX bytes; not NUL-terminated
 * @comm: the task's name
 * @comm_len: its length, at most 16 (TASK_COMM_LEN)
 * @pid: its pid
 * @cpu: the CPU
 * @secs: whole seconds of the time stamp
 * @usecs: the microseconds, below 1,000,000
 *
 * What snprintf() gives for RT_CONTEXT_FMT with the same arguments.
 *
 * Return: bytes written, or 0 for what this does not handle (a
 * negative pid, a CPU above 999, @usecs or @comm_len out of range):
 * the caller then uses the format itself.
 */
unsigned int rt_context_fmt(char *buf, const char *comm, unsigned int comm_len,
			    int pid, unsigned int cpu, u64 secs, u32 usecs)
{
	char num[24], *end = num + sizeof(num), *d;
	unsigned int at = 0, n, i;

	if (pid < 0 || cpu > 999 || usecs > 999999 || comm_len > 16)
		return 0;
	for (; at < 16 - comm_len; at++)
		buf[at] = ' ';
	memcpy(buf + at, comm, comm_len);
	at += comm_len;
	buf[at++] = '-';
	d = rt_dec_back(end, (unsigned int)pid);
	n = end - d;
	memcpy(buf + at, d, n);
	at += n;
	for (; n < 5; n++)
		buf[at++] = ' ';
	buf[at++] = ' ';
	buf[at++] = '[';
	buf[at++] = '0' + cpu / 100;
	buf[at++] = '0' + cpu / 10 % 10;
	buf[at++] = '0' + cpu % 10;
	buf[at++] = ']';
	buf[at++] = ' ';
	d = rt_dec_back(end, secs);
	for (n = end - d; n < 5; n++)
		buf[at++] = ' ';
	memcpy(buf + at, d, end - d);
	at += end - d;
	buf[at++] = '.';
	for (i = 6; i--; usecs /= 10)
		buf[at + i] = '0' + usecs % 10;
	at += 6;
	buf[at++] = ':';
	buf[at++] = ' ';
	return at;
}
