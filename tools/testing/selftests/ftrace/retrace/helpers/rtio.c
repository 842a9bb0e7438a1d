// SPDX-License-Identifier: GPL-2.0
/*
 * rtio: file operations with exact errno reporting, for the retrace
 * selftests (busybox sh only says "write error").
 *
 *   rtio write FILE DATA        one write() and close(); prints OK,
 *                               SHORT n (bytes taken) or the errno name
 *                               of the write, else of the close
 *   rtio writeln FILE DATA      same, DATA and a newline in one write()
 *   rtio append FILE DATA       same with O_APPEND
 *   rtio trunc FILE             open with O_TRUNC; prints OK or the errno
 *   rtio readnb FILE            O_NONBLOCK read; prints EAGAIN, EOF or DATA
 *   rtio readn FILE N           one read() of N bytes (at most 4096);
 *                               prints "READ n" (bytes read) or the
 *                               errno name
 *   rtio readfd FD N            one read() of N bytes (at most 4096) from
 *                               descriptor FD, inherited open from the
 *                               shell; prints as readn does
 *   rtio writefd FD DATA        one write() of DATA to descriptor FD;
 *                               prints OK, SHORT n or the errno name
 *   rtio readfault FILE         one read() of 4096 bytes into an unmapped
 *                               address; prints "READ n" or the errno
 *                               name (EFAULT when there was data)
 *   rtio writefault FILE N HOW  one write() of N bytes of "abc..." whose
 *                               source is partly or wholly unreadable:
 *                               HOW "cross" (the last N/2 bytes lie on
 *                               an unmapped page) or "kernel" (a kernel
 *                               address); prints as "write" does
 *   rtio readwait FILE MS       blocking read bounded by MS; prints
 *                               TIMEOUT, EOF, DATA or the errno name
 *   rtio readtimed FILE MS      the same, and then the CLOCK_MONOTONIC
 *                               times (us) just before and after the
 *                               read() on that line: "DATA T0 T1"
 *                               ("TIMEOUT T0 T1"), then the data read
 *   rtio polltimed FILE MS      poll() FILE for POLLIN, at most MS ms;
 *                               prints "READY T0 T1" or "TIMEOUT T0 T1"
 *                               (CLOCK_MONOTONIC us around the poll())
 *   rtio epollwait FILE MS      opens FILE non-blocking, adds it to an
 *                               edge-triggered epoll set, reads until
 *                               EAGAIN, then epoll_wait()s at most MS
 *                               ms; prints "READY T0 T1" or "TIMEOUT T0
 *                               T1" as polltimed does
 *   rtio rawpages FD [SIZE]     reads descriptor FD (a trace_pipe_raw
 *                               the shell holds open) non-blocking, a
 *                               page of SIZE bytes (4096 unless given,
 *                               at most 524288) a read(), until EAGAIN;
 *                               per page
 *                               prints "PAGE records lost bytes": the
 *                               records its headers walk to, the lost
 *                               count after the data (-1: the commit
 *                               word flags a loss without a count; 0:
 *                               none), the commit's byte count; "BAD
 *                               why" for a page that does not decode
 *   rtio splicepages FD LEN nb|tee|block|close MS [SIZE]
 *                               splice()s descriptor FD (a trace_pipe_raw
 *                               the shell holds open) into a pipe, LEN
 *                               bytes a call: with SPLICE_F_NONBLOCK
 *                               until a call moves nothing (nb; tee: the
 *                               same, each call's data also tee()d to a
 *                               second pipe, read after the next call,
 *                               which must read the same, else "BAD
 *                               tee"), or one blocking call bounded by
 *                               MS ms (block, TIMEOUT when it ends
 *                               first); close: FD is a file to open,
 *                               splice once with SPLICE_F_NONBLOCK and
 *                               close before the pipe is read; prints
 *                               "SPLICE n" per call that moved data,
 *                               the errno name (or EOF) of the call that
 *                               did not, then one rawpages line per
 *                               page (SIZE bytes, 4096 unless given)
 *                               the pipe carried
 *   rtio clock                  prints CLOCK_MONOTONIC in microseconds
 *   rtio slowread FILE CHUNK MS reads FILE for ever (until killed),
 *                               CHUNK bytes per read(), sleeping MS ms
 *                               after each read that got data; copies
 *                               only complete lines to stdout
 *   rtio failnth N FILE DATA    one write() of DATA to FILE with N
 *                               written to /proc/self/fail-nth just
 *                               before it (the N-th fault-injection
 *                               point this task passes then fails);
 *                               prints the result as "write" does,
 *                               then what fail-nth reads after the
 *                               write (0: the failure was injected)
 *   rtio asuser UID CMD [ARG]   runs CMD with uid and gid UID and no
 *                               supplementary groups (execvp)
 *   rtio mkdir DIR, rmdir DIR   one mkdir() (mode 0755) or rmdir();
 *                               prints OK or the errno name
 */
#define _GNU_SOURCE	/* memrchr, splice */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *errname(int e)
{
	switch (e) {
	case EINVAL: return "EINVAL";
	case ENOMEM: return "ENOMEM";
	case EBUSY: return "EBUSY";
	case ENOENT: return "ENOENT";
	case EAGAIN: return "EAGAIN";
	case EBADF: return "EBADF";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case EFAULT: return "EFAULT";
	case EINTR: return "EINTR";
	case ENODEV: return "ENODEV";
	case E2BIG: return "E2BIG";
	case ENOSPC: return "ENOSPC";
	case EEXIST: return "EEXIST";
	case ERANGE: return "ERANGE";
	case ESRCH: return "ESRCH";
	case EILSEQ: return "EILSEQ";
	case EADDRNOTAVAIL: return "EADDRNOTAVAIL";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	default: return "EOTHER";
	}
}

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/* readtimed: when the blocking read() began. */
static long long read_t0;

static void on_alarm(int sig)
{
	(void)sig;
	if (read_t0)
		printf("TIMEOUT %lld %lld\n", read_t0, now_us());
	else
		printf("TIMEOUT\n");
	fflush(stdout);
	_exit(0);
}

static void alarm_in(long ms)
{
	struct itimerval it = { 0 };

	it.it_value.tv_sec = ms / 1000;
	it.it_value.tv_usec = (ms % 1000) * 1000;
	signal(SIGALRM, on_alarm);
	setitimer(ITIMER_REAL, &it, NULL);
}

/*
 * rawpages: one page of the binary layout events/header_page and
 * events/header_event describe (u64 time, u64 commit, then u32 record
 * headers: type_len in bits 0-4).  Written apart from the kernel's
 * packer, from that description, so that each checks the other.
 */
static size_t raw_size = 4096;

static void raw_page_print(const unsigned char *pg, size_t size)
{
	unsigned long long commit, lost = 0;
	size_t bytes, off = 16, nrec = 0;
	unsigned int hdr, tl, len;

	memcpy(&commit, pg + 8, 8);
	bytes = commit & ((1ULL << 30) - 1);
	if (size != raw_size || bytes > size - 16) {
		printf("BAD size %zu commit %#llx\n", size, commit);
		return;
	}
	while (off < 16 + bytes) {
		memcpy(&hdr, pg + off, 4);
		tl = hdr & 31;
		if (tl >= 1 && tl <= 28) {
			len = 4 + tl * 4;
			nrec++;
		} else if (tl == 0) {
			if (off + 8 > 16 + bytes)
				break;
			memcpy(&len, pg + off + 4, 4);
			if (len < 8) {
				printf("BAD long record length %u at %zu\n", len, off);
				return;
			}
			len += 4;
			nrec++;
		} else if (tl == 30 || tl == 31) {
			len = 8;
		} else {
			printf("BAD type_len %u at %zu\n", tl, off);
			return;
		}
		off += len;
	}
	if (off != 16 + bytes) {
		printf("BAD records end at %zu, commit says %zu\n", off, 16 + bytes);
		return;
	}
	if (commit & (1ULL << 31)) {
		if (commit & (1ULL << 30)) {
			if (off + 8 > size) {
				printf("BAD no room for the lost count\n");
				return;
			}
			memcpy(&lost, pg + off, 8);
			if (!lost) {
				printf("BAD a loss of 0 records\n");
				return;
			}
		} else {
			printf("PAGE %zu -1 %zu\n", nrec, bytes);
			return;
		}
	}
	printf("PAGE %zu %llu %zu\n", nrec, lost, bytes);
}

/* Read exactly @n bytes of pipe @fd into @to: 0, or -1. */
static int read_exact(int fd, unsigned char *to, size_t n)
{
	size_t at;
	ssize_t r;

	for (at = 0; at < n; at += r) {
		r = read(fd, to + at, n - at);
		if (r <= 0)
			return -1;
	}
	return 0;
}

/* splicepages: see the usage above. */
static int splice_pages(const char *src, size_t len, const char *mode,
			long ms)
{
	static unsigned char got[1 << 20], dup[1 << 20];
	struct itimerval off_timer = { 0 };
	int block = !strcmp(mode, "block"), tee_too = !strcmp(mode, "tee");
	int closing = !strcmp(mode, "close"), fd, err = 0;
	size_t have = 0, at, tee_at = 0, tee_n = 0;
	ssize_t n, t;
	int p[2], q[2];

	if (pipe(p) || pipe(q) || !len || len > sizeof(got))
		return 2;
	/* Room in the tee pipe for two calls' pages: see below. */
	if (tee_too && fcntl(q[1], F_SETPIPE_SZ, 1 << 18) < 0)
		return 2;
	fd = closing ? open(src, O_RDONLY) : atoi(src);
	if (fd < 0) {
		printf("%s\n", errname(errno));
		return 0;
	}
	if (block)
		alarm_in(ms);
	for (;;) {
		n = splice(fd, NULL, p[1], NULL, len,
			   block ? 0 : SPLICE_F_NONBLOCK);
		err = errno;
		if (n <= 0)
			break;
		printf("SPLICE %zd\n", n);
		if (have + n > sizeof(got))
			return 2;
		if (closing) {
			/* The pages outlive the file that made them. */
			close(fd);
			fd = -1;
		}
		/*
		 * The same pages in a second pipe.  That copy is read only
		 * after the next call, so that a page given back to the
		 * file too early would be packed over before it is read.
		 */
		t = tee_too ? tee(p[0], q[1], n, 0) : n;
		if (t != n) {
			printf("BAD tee: %zd of %zd bytes (%s)\n", t, n,
			       errname(errno));
			return 0;
		}
		if (read_exact(p[0], got + have, n))
			return 2;
		if (tee_n && read_exact(q[0], dup + tee_at, tee_n))
			return 2;
		if (tee_n && memcmp(got + tee_at, dup + tee_at, tee_n)) {
			printf("BAD tee: the copies differ\n");
			return 0;
		}
		tee_at = have;
		tee_n = tee_too ? n : 0;
		have += n;
		if (block || closing)
			break;
	}
	setitimer(ITIMER_REAL, &off_timer, NULL);
	if (tee_n && (read_exact(q[0], dup + tee_at, tee_n) ||
		      memcmp(got + tee_at, dup + tee_at, tee_n))) {
		printf("BAD tee: the copies differ\n");
		return 0;
	}
	if (n < 0)
		printf("%s\n", errname(err));
	else if (!n)
		printf("EOF\n");
	for (at = 0; at + raw_size <= have; at += raw_size)
		raw_page_print(got + at, raw_size);
	if (at < have)
		printf("BAD %zu bytes after the last whole page\n", have - at);
	return 0;
}

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= n;
	}
	return 0;
}

/* slowread: a deliberately slow consumer; see the usage above. */
static int slow_read(const char *file, size_t chunk, long ms)
{
	static char line[65536];
	size_t used = 0;
	char *buf;
	int fd;

	if (!chunk || chunk > sizeof(line) / 2)
		return 2;
	buf = malloc(chunk);
	fd = open(file, O_RDONLY);
	if (!buf || fd < 0) {
		printf("%s\n", fd < 0 ? errname(errno) : "ENOMEM");
		return 1;
	}
	for (;;) {
		ssize_t n = read(fd, buf, chunk);
		char *nl;

		if (n <= 0)
			return n < 0 ? 1 : 0;
		if (used + n > sizeof(line))
			return 1;	/* a line longer than any record */
		memcpy(line + used, buf, n);
		used += n;
		nl = memrchr(line, '\n', used);
		if (nl) {
			size_t whole = nl + 1 - line;

			if (write_all(1, line, whole))
				return 1;
			memmove(line, line + whole, used - whole);
			used -= whole;
		}
		usleep(ms * 1000);
	}
}

/* failnth: see the usage above. */
static int fail_nth_write(const char *nth, const char *file, const char *data)
{
	char left[32] = "?";
	int fd, nfd;
	ssize_t n, m;
	int err;

	fd = open(file, O_WRONLY);
	if (fd < 0) {
		printf("%s\n", errname(errno));
		return 0;
	}
	nfd = open("/proc/self/fail-nth", O_RDWR);
	if (nfd < 0) {
		printf("NOFAILNTH %s\n", errname(errno));
		return 1;
	}
	if (write(nfd, nth, strlen(nth)) < 0) {
		printf("NOFAILNTH %s\n", errname(errno));
		return 1;
	}
	n = write(fd, data, strlen(data));
	err = errno;
	m = pread(nfd, left, sizeof(left) - 1, 0);
	left[m > 0 ? m : 1] = 0;
	left[strcspn(left, "\n")] = 0;
	/* Nothing after this may fail by accident. */
	if (write(nfd, "0", 1) < 0)
		return 1;
	if (n >= 0 && (size_t)n < strlen(data))
		printf("SHORT %zd %s\n", n, left);
	else
		printf("%s %s\n", n < 0 ? errname(err) : "OK", left);
	return 0;
}

/*
 * One write() of @len bytes from @data to @path opened with @flags,
 * then close(); prints SHORT n, the errno name of the write or else of
 * the close, or OK.
 */
static int write_once(const char *path, int flags, const char *data,
		      size_t len)
{
	ssize_t n;
	int fd = open(path, flags);

	if (fd < 0) {
		printf("%s\n", errname(errno));
		return 0;
	}
	n = write(fd, data, len);
	if (n >= 0 && (size_t)n < len)
		printf("SHORT %zd\n", n);
	else if (n < 0)
		printf("%s\n", errname(errno));
	/* A line without its newline runs at close (->flush). */
	else if (close(fd) < 0)
		printf("%s\n", errname(errno));
	else
		printf("OK\n");
	return 0;
}

int main(int argc, char **argv)
{
	char buf[4096];
	ssize_t n;
	int fd;

	if (argc == 2 && !strcmp(argv[1], "clock")) {
		printf("%lld\n", now_us());
		return 0;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: rtio mkdir|rmdir|write|writeln|append|trunc|readnb|readn|readfd|writefd|rawpages|splicepages|readfault|writefault|readwait|readtimed|polltimed|epollwait|slowread|failnth|asuser|clock ...\n");
		return 2;
	}
	if (!strcmp(argv[1], "mkdir") || !strcmp(argv[1], "rmdir")) {
		int r = argv[1][0] == 'm' ? mkdir(argv[2], 0755) : rmdir(argv[2]);

		printf("%s\n", r ? errname(errno) : "OK");
		return 0;
	}
	if (!strcmp(argv[1], "asuser")) {
		uid_t id = atoi(argv[2]);

		if (argc < 4 || !id)
			return 2;
		if (setgroups(0, NULL) || setgid(id) || setuid(id)) {
			perror("rtio asuser");
			return 2;
		}
		/* No way back: the real, effective and saved ids all moved. */
		if (getuid() != id || geteuid() != id || setuid(0) == 0) {
			fprintf(stderr, "rtio asuser: still privileged\n");
			return 2;
		}
		execvp(argv[3], argv + 3);
		perror("rtio asuser: exec");
		return 127;
	}
	if (!strcmp(argv[1], "slowread")) {
		if (argc < 5)
			return 2;
		return slow_read(argv[2], atol(argv[3]), atol(argv[4]));
	}
	if (!strcmp(argv[1], "failnth")) {
		if (argc < 5)
			return 2;
		return fail_nth_write(argv[2], argv[3], argv[4]);
	}
	if (!strcmp(argv[1], "write") || !strcmp(argv[1], "append") ||
	    !strcmp(argv[1], "writeln")) {
		int fl = O_WRONLY | (argv[1][0] == 'a' ? O_APPEND : 0);
		char *data;
		size_t len;

		if (argc < 4)
			return 2;
		len = strlen(argv[3]);
		data = malloc(len + 2);
		if (!data)
			return 2;
		memcpy(data, argv[3], len);
		if (!strcmp(argv[1], "writeln"))
			data[len++] = '\n';
		return write_once(argv[2], fl, data, len);
	}
	if (!strcmp(argv[1], "trunc")) {
		fd = open(argv[2], O_WRONLY | O_TRUNC);
		printf("%s\n", fd < 0 ? errname(errno) : "OK");
		return 0;
	}
	if (!strcmp(argv[1], "readnb")) {
		fd = open(argv[2], O_RDONLY | O_NONBLOCK);
		if (fd < 0) {
			printf("%s\n", errname(errno));
			return 0;
		}
		n = read(fd, buf, sizeof(buf));
		printf("%s\n", n < 0 ? errname(errno) : n == 0 ? "EOF" : "DATA");
		return 0;
	}
	if (!strcmp(argv[1], "writefault") && argc == 5) {
		long pgsz = sysconf(_SC_PAGESIZE);
		size_t len = strtoul(argv[3], NULL, 0), i;
		char *map, *src;

		if (len < 2 || len > (size_t)pgsz)
			return 2;
		map = mmap(NULL, 2 * pgsz, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (map == MAP_FAILED || munmap(map + pgsz, pgsz))
			return 2;
		/* Resident, so only the unmapped part can fault. */
		src = map + pgsz - (len - len / 2);
		for (i = 0; i < len - len / 2; i++)
			src[i] = 'a' + i % 26;
		if (!strcmp(argv[4], "kernel"))
			src = (char *)0xffffffff81000000UL;
		else if (strcmp(argv[4], "cross"))
			return 2;
		return write_once(argv[2], O_WRONLY, src, len);
	}
	if (!strcmp(argv[1], "readfault")) {
		/* Page 0 is never mapped; volatile hides it from gcc's check. */
		char *volatile bad = (char *)16;

		fd = open(argv[2], O_RDONLY);
		if (fd < 0) {
			printf("%s\n", errname(errno));
			return 0;
		}
		n = read(fd, bad, 4096);
		if (n < 0)
			printf("%s\n", errname(errno));
		else
			printf("READ %zd\n", n);
		return 0;
	}
	if (!strcmp(argv[1], "splicepages") && (argc == 6 || argc == 7)) {
		if (argc == 7)
			raw_size = strtoul(argv[6], NULL, 0);
		if (raw_size < 16 || raw_size > 524288)
			return 2;
		return splice_pages(argv[2], strtoul(argv[3], NULL, 0),
				    argv[4], atol(argv[5]));
	}
	if (!strcmp(argv[1], "rawpages")) {
		static unsigned char pg[524288];

		fd = atoi(argv[2]);
		if (argc > 3)
			raw_size = strtoul(argv[3], NULL, 0);
		if (raw_size < 16 || raw_size > sizeof(pg))
			return 2;
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
		while ((n = read(fd, pg, raw_size)) > 0)
			raw_page_print(pg, n);
		if (n < 0 && errno != EAGAIN)
			printf("%s\n", errname(errno));
		return 0;
	}
	if (!strcmp(argv[1], "readfd") && argc == 4) {
		size_t want = strtoul(argv[3], NULL, 0);

		if (want > sizeof(buf)) {
			printf("EINVAL\n");
			return 0;
		}
		n = read(atoi(argv[2]), buf, want);
		if (n < 0)
			printf("%s\n", errname(errno));
		else
			printf("READ %zd\n", n);
		return 0;
	}
	if (!strcmp(argv[1], "writefd") && argc == 4) {
		size_t len = strlen(argv[3]);

		n = write(atoi(argv[2]), argv[3], len);
		if (n < 0)
			printf("%s\n", errname(errno));
		else if ((size_t)n < len)
			printf("SHORT %zd\n", n);
		else
			printf("OK\n");
		return 0;
	}
	if (!strcmp(argv[1], "readn") && argc == 4) {
		size_t want = strtoul(argv[3], NULL, 0);

		fd = open(argv[2], O_RDONLY);
		if (fd < 0 || want > sizeof(buf)) {
			printf("%s\n", fd < 0 ? errname(errno) : "EINVAL");
			return 0;
		}
		n = read(fd, buf, want);
		if (n < 0)
			printf("%s\n", errname(errno));
		else
			printf("READ %zd\n", n);
		return 0;
	}
	if (!strcmp(argv[1], "epollwait")) {
		struct epoll_event ev = { .events = EPOLLIN | EPOLLET };
		long long t0;
		int ep, r;

		if (argc < 4)
			return 2;
		fd = open(argv[2], O_RDONLY | O_NONBLOCK);
		ep = epoll_create1(0);
		if (fd < 0 || ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev)) {
			printf("%s\n", errname(errno));
			return 0;
		}
		while (read(fd, buf, sizeof(buf)) > 0)
			;
		if (errno != EAGAIN) {
			printf("%s\n", errname(errno));
			return 0;
		}
		t0 = now_us();
		r = epoll_wait(ep, &ev, 1, atoi(argv[3]));
		printf("%s %lld %lld\n", r < 0 ? errname(errno) :
		       r == 0 ? "TIMEOUT" : "READY", t0, now_us());
		return 0;
	}
	if (!strcmp(argv[1], "polltimed")) {
		struct pollfd p;
		long long t0;
		int r;

		if (argc < 4)
			return 2;
		p.fd = open(argv[2], O_RDONLY);
		if (p.fd < 0) {
			printf("%s\n", errname(errno));
			return 0;
		}
		p.events = POLLIN;
		t0 = now_us();
		r = poll(&p, 1, atoi(argv[3]));
		printf("%s %lld %lld\n", r < 0 ? errname(errno) :
		       r == 0 ? "TIMEOUT" : "READY", t0, now_us());
		return 0;
	}
	if (!strcmp(argv[1], "readwait") || !strcmp(argv[1], "readtimed")) {
		int timed = !strcmp(argv[1], "readtimed");

		if (argc < 4)
			return 2;
		fd = open(argv[2], O_RDONLY);
		if (fd < 0) {
			printf("%s\n", errname(errno));
			return 0;
		}
		alarm_in(atol(argv[3]));
		if (timed)
			read_t0 = now_us();
		n = read(fd, buf, sizeof(buf));
		printf("%s", n < 0 ? errname(errno) : n == 0 ? "EOF" : "DATA");
		if (timed)
			printf(" %lld %lld", read_t0, now_us());
		printf("\n");
		if (timed && n > 0) {
			fflush(stdout);
			write_all(1, buf, n);
		}
		return 0;
	}
	return 2;
}
