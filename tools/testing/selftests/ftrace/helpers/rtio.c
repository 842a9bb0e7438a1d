// SPDX-License-Identifier: GPL-2.0
/*
 * rtio: file operations with exact errno reporting, for the retrace
 * selftests (busybox sh only says "write error").
 *
 *   rtio write FILE DATA        one write(); prints OK, SHORT n (bytes
 *                               taken) or the errno name
 *   rtio writeln FILE DATA      same, DATA and a newline in one write()
 *   rtio append FILE DATA       same with O_APPEND
 *   rtio trunc FILE             open with O_TRUNC; prints OK or the errno
 *   rtio readnb FILE            O_NONBLOCK read; prints EAGAIN, EOF or DATA
 *   rtio readwait FILE MS       blocking read bounded by MS; prints
 *                               TIMEOUT, EOF, DATA or the errno name
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
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
	default: return "EOTHER";
	}
}

static void on_alarm(int sig)
{
	(void)sig;
	printf("TIMEOUT\n");
	fflush(stdout);
	_exit(0);
}

int main(int argc, char **argv)
{
	char buf[4096];
	ssize_t n;
	int fd;

	if (argc < 3) {
		fprintf(stderr, "usage: rtio write|writeln|append|trunc|readnb|readwait FILE [ARG]\n");
		return 2;
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
		fd = open(argv[2], fl);
		if (fd < 0) {
			printf("%s\n", errname(errno));
			return 0;
		}
		n = write(fd, data, len);
		if (n >= 0 && (size_t)n < len)
			printf("SHORT %zd\n", n);
		else
			printf("%s\n", n < 0 ? errname(errno) : "OK");
		close(fd);
		return 0;
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
	if (!strcmp(argv[1], "readwait")) {
		if (argc < 4)
			return 2;
		fd = open(argv[2], O_RDONLY);
		if (fd < 0) {
			printf("%s\n", errname(errno));
			return 0;
		}
		{
			struct itimerval it = { 0 };
			long ms = atol(argv[3]);

			it.it_value.tv_sec = ms / 1000;
			it.it_value.tv_usec = (ms % 1000) * 1000;
			signal(SIGALRM, on_alarm);
			setitimer(ITIMER_REAL, &it, NULL);
		}
		n = read(fd, buf, sizeof(buf));
		printf("%s\n", n < 0 ? errname(errno) : n == 0 ? "EOF" : "DATA");
		return 0;
	}
	return 2;
}
