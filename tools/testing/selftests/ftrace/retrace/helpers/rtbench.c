// SPDX-License-Identifier: GPL-2.0
/*
 * rtbench: user-space workloads for make bench, timed with
 * CLOCK_MONOTONIC (instruction-counted under QEMU -icount).
 *
 *   rtbench getppid N        N getppid() calls
 *   rtbench openclose N      N open()+close() of a tmpfs file
 *   rtbench poll32 N         N poll() calls on 32 ignored fds (-1),
 *                            timeout 0: more than fit on the kernel's
 *                            stack, so each call is one kmalloc() and
 *                            one kfree() of the rest
 *   rtbench marker N FILE    N 16-byte writes to FILE (trace_marker)
 *   rtbench splice N FILE    N splice() calls of up to a page from FILE
 *                            (a trace_pipe_raw, non-blocking) into a
 *                            pipe, each page passed on to /dev/null as
 *                            trace-cmd's recorder passes it to its file
 *   rtbench read N FILE      N read() calls of up to a page from FILE
 *                            (trace_pipe, non-blocking)
 *
 * Prints the mean cost in nanoseconds per operation.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long n, i;
	long long t0, t1;
	int fd;

	if (argc < 3)
		return 2;
	n = atol(argv[2]);
	if (n <= 0)
		return 2;
	if (!strcmp(argv[1], "getppid")) {
		t0 = now_ns();
		for (i = 0; i < n; i++)
			syscall(SYS_getppid);
		t1 = now_ns();
	} else if (!strcmp(argv[1], "openclose")) {
		close(open("/tmp/rtbench.file", O_CREAT | O_RDWR, 0600));
		t0 = now_ns();
		for (i = 0; i < n; i++)
			close(open("/tmp/rtbench.file", O_RDONLY));
		t1 = now_ns();
	} else if (!strcmp(argv[1], "poll32")) {
		struct pollfd fds[32];

		for (i = 0; i < 32; i++)
			fds[i] = (struct pollfd){ .fd = -1 };
		t0 = now_ns();
		for (i = 0; i < n; i++)
			poll(fds, 32, 0);
		t1 = now_ns();
	} else if (!strcmp(argv[1], "marker") && argc > 3) {
		fd = open(argv[3], O_WRONLY);
		if (fd < 0) {
			perror(argv[3]);
			return 1;
		}
		t0 = now_ns();
		for (i = 0; i < n; i++)
			if (write(fd, "rtbench marker\n", 15) != 15)
				return 1;
		t1 = now_ns();
		close(fd);
	} else if (!strcmp(argv[1], "splice") && argc > 3) {
		int p[2], null;
		ssize_t r;

		fd = open(argv[3], O_RDONLY | O_NONBLOCK);
		null = open("/dev/null", O_WRONLY);
		if (fd < 0 || null < 0 || pipe(p)) {
			perror(argv[3]);
			return 1;
		}
		t0 = now_ns();
		for (i = 0; i < n; i++) {
			r = splice(fd, NULL, p[1], NULL, 4096,
				   SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
			if (r > 0)
				splice(p[0], NULL, null, NULL, r, SPLICE_F_MOVE);
		}
		t1 = now_ns();
	} else if (!strcmp(argv[1], "read") && argc > 3) {
		static char buf[4096];

		fd = open(argv[3], O_RDONLY | O_NONBLOCK);
		if (fd < 0) {
			perror(argv[3]);
			return 1;
		}
		t0 = now_ns();
		for (i = 0; i < n; i++)
			if (read(fd, buf, sizeof(buf)) < 0 && errno != EAGAIN)
				return 1;
		t1 = now_ns();
	} else {
		return 2;
	}
	printf("%.1f\n", (double)(t1 - t0) / n);
	return 0;
}
