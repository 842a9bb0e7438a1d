// SPDX-License-Identifier: GPL-2.0
/*
 * kmemtrace: record the kernel's kmemtrace channels, check the records
 * against the ABI, and report on allocations per type and call site.
 *
 *	kmemtrace record [-d DIR] [-t SECONDS] [-e] [-- CMD ARGS...]
 *	kmemtrace check [-q] DIR
 *	kmemtrace report [-k KALLSYMS] [-n TOP] DIR
 *
 * See README for the ABI and how missing records relate to overruns.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "kmt_abi.h"
#include "kmt_report.h"

/* Larger than any record (event_size is a u16), so read() never EINVALs. */
#define READ_BUF_SIZE		(64 * 1024)
#define DEFAULT_ROOT		"/sys/kernel/debug/kmemtrace"
#define DEFAULT_OUT		"kmemtrace.out"
/* How long a reader keeps draining after it was told to stop. */
#define DRAIN_SECONDS		2.0
/* How long record -e spends emptying the channels before enabling. */
#define DISCARD_SECONDS		3.0
/* How long CMD gets after SIGTERM before SIGKILL. */
#define CMD_KILL_SECONDS	5.0

/* Per-item lines "check" prints before "... N more". */
#define MAX_BAD_LINES		20
#define MAX_HOLE_LINES		10
#define MAX_DUP_LINES		20

static void usage(FILE *f)
{
	fprintf(f,
		"usage: kmemtrace record [-d DIR] [-t SECONDS] [-e] [-- CMD [ARGS...]]\n"
		"       kmemtrace check [-q] DIR\n"
		"       kmemtrace report [-k KALLSYMS] [-n TOP] DIR\n"
		"       kmemtrace dump [-k KALLSYMS] DIR\n"
		"\n"
		"record  read every online CPU's channel into DIR/cpuN.raw\n"
		"        (DIR defaults to " DEFAULT_OUT "), until SECONDS pass,\n"
		"        CMD exits or SIGINT; -e empties the channels, then\n"
		"        switches recording on, and off at the end\n"
		"check   validate and merge DIR's records; exit 1 on a malformed\n"
		"        or invalid record or a duplicate sequence number\n"
		"report  totals per type, top call sites by bytes, count and\n"
		"        fragmentation, and allocations never freed (TOP: 10,\n"
		"        0 for all; KALLSYMS: /proc/kallsyms)\n"
		"dump    every record, one line each, in sequence order (call\n"
		"        sites as symbols with -k)\n");
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static struct timespec to_timespec(double secs)
{
	struct timespec ts;

	if (secs < 0)
		secs = 0;
	ts.tv_sec = (time_t)secs;
	ts.tv_nsec = (long)((secs - ts.tv_sec) * 1e9);
	if (ts.tv_nsec >= 1000000000L)
		ts.tv_nsec = 999999999L;
	return ts;
}

/* Read a whole file, also one whose st_size lies (procfs, debugfs). */
static int read_file(const char *path, uint8_t **data, size_t *len)
{
	size_t cap = 4096, n = 0;
	uint8_t *buf, *nbuf;
	struct stat st;
	ssize_t r;
	int fd;

	*data = NULL;
	*len = 0;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	if (!fstat(fd, &st) && st.st_size > 0)
		cap = (size_t)st.st_size + 1;
	buf = malloc(cap);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		if (n == cap) {
			nbuf = realloc(buf, cap * 2);
			if (!nbuf) {
				free(buf);
				close(fd);
				return -ENOMEM;
			}
			buf = nbuf;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			free(buf);
			close(fd);
			return (int)r;
		}
		if (!r)
			break;
		n += r;
	}
	close(fd);
	*data = buf;
	*len = n;
	return 0;
}

/* A debugfs counter: decimal digits and an optional newline. */
static int read_u64_file(const char *path, uint64_t *v)
{
	uint8_t *data;
	size_t len, i;
	uint64_t n = 0;
	int ret;

	ret = read_file(path, &data, &len);
	if (ret)
		return ret;
	if (len && data[len - 1] == '\n')
		len--;
	for (i = 0; i < len; i++) {
		if (data[i] < '0' || data[i] > '9' ||
		    n > (UINT64_MAX - (data[i] - '0')) / 10)
			break;
		n = n * 10 + (data[i] - '0');
	}
	free(data);
	if (!len || i != len)
		return -EINVAL;
	*v = n;
	return 0;
}

static int write_all(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	ssize_t r;

	while (len) {
		r = write(fd, p, len);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += r;
		len -= r;
	}
	return 0;
}

static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	int ret;

	if (fd < 0)
		return -errno;
	ret = write_all(fd, text, strlen(text));
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

/* "cpuN.raw" with N a CPU number without leading zeros. */
static int raw_name_cpu(const char *name)
{
	const char *p = name + 3;
	long cpu = 0;

	if (strncmp(name, "cpu", 3) || *p < '0' || *p > '9' ||
	    (*p == '0' && p[1] != '.'))
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		cpu = cpu * 10 + (*p - '0');
		if (cpu > 1000000)
			return -1;
	}
	return strcmp(p, ".raw") ? -1 : (int)cpu;
}

/* ---- check and report: loading a recording ---- */

struct chan {
	int			cpu;
	uint8_t			*data;
	size_t			len;
	struct kmt_record	*recs;
	size_t			*offs;
	size_t			nr;
	size_t			cap;
};

/* Bounded per-item output. */
struct lim {
	unsigned long	shown;
	unsigned long	more;
	unsigned long	max;
};

static bool lim_take(struct lim *l)
{
	if (!l)
		return false;
	if (l->shown < l->max) {
		l->shown++;
		return true;
	}
	l->more++;
	return false;
}

struct run {
	const char		*dir;
	struct chan		*ch;
	size_t			nr_ch;
	struct kmt_merged	*m;
	size_t			nr_m;
	uint64_t		alloc;
	uint64_t		free;
	uint64_t		unknown;
	uint64_t		trailers;
	uint64_t		bad;
	bool			have_overruns;
	uint64_t		ov_before;
	uint64_t		ov_after;
	struct lim		*bad_lim;	/* NULL: quiet */
};

static void run_free(struct run *run)
{
	size_t i;

	for (i = 0; i < run->nr_ch; i++) {
		free(run->ch[i].data);
		free(run->ch[i].recs);
		free(run->ch[i].offs);
	}
	free(run->ch);
	free(run->m);
}

static int chan_cmp(const void *a, const void *b)
{
	const struct chan *x = a, *y = b;

	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

static int chan_push(struct chan *ch, const struct kmt_record *rec,
		     size_t off)
{
	if (ch->nr == ch->cap) {
		size_t cap = ch->cap ? ch->cap * 2 : 1024;
		struct kmt_record *r = realloc(ch->recs, cap * sizeof(*r));
		size_t *o;

		if (!r)
			return -ENOMEM;
		ch->recs = r;
		o = realloc(ch->offs, cap * sizeof(*o));
		if (!o)
			return -ENOMEM;
		ch->offs = o;
		ch->cap = cap;
	}
	ch->recs[ch->nr] = *rec;
	ch->offs[ch->nr] = off;
	ch->nr++;
	return 0;
}

static void print_violation(const struct chan *ch, size_t off,
			    const struct kmt_record *rec, unsigned int bit)
{
	char detail[96] = "";

	switch (bit) {
	case KMT_V_SIZE:
		snprintf(detail, sizeof(detail), " (event_size %u)", rec->size);
		break;
	case KMT_V_CALL_SITE:
		snprintf(detail, sizeof(detail), " (0x%016" PRIx64 ")",
			 rec->call_site);
		break;
	case KMT_V_PTR:
		snprintf(detail, sizeof(detail), " (0x%016" PRIx64 ")",
			 rec->ptr);
		break;
	case KMT_V_BYTES_ALLOC:
		snprintf(detail, sizeof(detail),
			 " (bytes_req %" PRIu64 " bytes_alloc %" PRIu64 ")",
			 rec->bytes_req, rec->bytes_alloc);
		break;
	}
	printf("bad cpu%d offset %zu seq %d: %s%s\n", ch->cpu, off, rec->seq,
	       kmt_violation_name(bit), detail);
}

/* Frame, decode and validate one channel, counting into @run. */
static int parse_chan(struct run *run, struct chan *ch)
{
	struct kmt_record rec;
	enum kmt_status st;
	size_t off = 0, used;
	unsigned int v, bit;

	while (off < ch->len) {
		st = kmt_next(ch->data + off, ch->len - off, &rec, &used);
		rec.cpu = ch->cpu;
		if (st == KMT_INCOMPLETE) {
			/* read() returns whole records: this is damage. */
			run->bad++;
			if (lim_take(run->bad_lim))
				printf("bad cpu%d offset %zu: record cut off by the end of the file (%zu bytes left)\n",
				       ch->cpu, off, ch->len - off);
			break;
		}
		if (st == KMT_MALFORMED && !used) {
			run->bad++;
			if (lim_take(run->bad_lim))
				printf("bad cpu%d offset %zu seq %d: event_size %u < %d, the last %zu bytes cannot be framed\n",
				       ch->cpu, off, rec.seq, rec.size,
				       KMT_CORE_SIZE, ch->len - off);
			break;
		}
		if (chan_push(ch, &rec, off))
			return -ENOMEM;
		if (st == KMT_MALFORMED) {
			run->bad++;
			if (lim_take(run->bad_lim))
				printf("bad cpu%d offset %zu seq %d: %s (event_size %u)\n",
				       ch->cpu, off, rec.seq,
				       kmt_err_name(rec.err), rec.size);
		} else if (rec.unknown) {
			run->unknown++;
		} else {
			if (rec.event_id == KMT_EVENT_ALLOC)
				run->alloc++;
			else
				run->free++;
			run->trailers += rec.nr_trailers;
			v = kmt_validate(&rec) & ~KMT_V_UNKNOWN_IDS;
			if (v)
				run->bad++;
			for (bit = 1; v; bit <<= 1) {
				if (!(v & bit))
					continue;
				v &= ~bit;
				if (lim_take(run->bad_lim))
					print_violation(ch, off, &rec, bit);
			}
		}
		off += used;
	}
	return 0;
}

static void load_overruns(struct run *run)
{
	char path[4096], line[64];
	unsigned long long v;
	int got = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/overruns", run->dir);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "before %llu", &v) == 1) {
			run->ov_before = v;
			got |= 1;
		} else if (sscanf(line, "after %llu", &v) == 1) {
			run->ov_after = v;
			got |= 2;
		}
	}
	fclose(f);
	run->have_overruns = got == 3;
}

/* Load every DIR/cpuN.raw, parse it and merge; 2 on a usage/IO error. */
static int load_dir(struct run *run)
{
	struct kmt_stream *streams;
	char path[4096];
	struct dirent *de;
	size_t i, cap = 0;
	DIR *d;
	int cpu, ret;

	d = opendir(run->dir);
	if (!d) {
		fprintf(stderr, "kmemtrace: %s: %s\n", run->dir, strerror(errno));
		return 2;
	}
	while ((de = readdir(d))) {
		struct chan *ch;

		cpu = raw_name_cpu(de->d_name);
		if (cpu < 0)
			continue;
		if (run->nr_ch == cap) {
			cap = cap ? cap * 2 : 16;
			ch = realloc(run->ch, cap * sizeof(*ch));
			if (!ch) {
				closedir(d);
				fprintf(stderr, "kmemtrace: out of memory\n");
				return 2;
			}
			run->ch = ch;
		}
		ch = &run->ch[run->nr_ch];
		memset(ch, 0, sizeof(*ch));
		ch->cpu = cpu;
		snprintf(path, sizeof(path), "%s/%s", run->dir, de->d_name);
		ret = read_file(path, &ch->data, &ch->len);
		if (ret) {
			closedir(d);
			fprintf(stderr, "kmemtrace: %s: %s\n", path,
				strerror(-ret));
			return 2;
		}
		run->nr_ch++;
	}
	closedir(d);
	if (!run->nr_ch) {
		fprintf(stderr, "kmemtrace: no cpu*.raw files in %s\n",
			run->dir);
		return 2;
	}
	qsort(run->ch, run->nr_ch, sizeof(*run->ch), chan_cmp);
	for (i = 0; i < run->nr_ch; i++)
		if (parse_chan(run, &run->ch[i]))
			goto nomem;
	streams = calloc(run->nr_ch, sizeof(*streams));
	if (!streams)
		goto nomem;
	for (i = 0; i < run->nr_ch; i++) {
		streams[i].recs = run->ch[i].recs;
		streams[i].nr = run->ch[i].nr;
	}
	ret = kmt_merge(streams, run->nr_ch, &run->m, &run->nr_m);
	free(streams);
	if (ret)
		goto nomem;
	load_overruns(run);
	return 0;
nomem:
	fprintf(stderr, "kmemtrace: out of memory\n");
	return 2;
}

/* Where a merged record came from, for messages. */
static size_t rec_offset(const struct run *run, const struct kmt_record *rec)
{
	size_t i;

	for (i = 0; i < run->nr_ch; i++)
		if (run->ch[i].cpu == rec->cpu)
			return run->ch[i].offs[rec - run->ch[i].recs];
	return 0;
}

/* ---- check ---- */

struct check_ctx {
	struct run	*run;
	struct lim	holes;
	struct lim	dups;
	bool		quiet;
};

static void check_hole(void *p, const struct kmt_merged *after,
		       uint64_t count)
{
	struct check_ctx *c = p;
	int32_t from = (int32_t)((uint32_t)after->rec->seq + 1);
	int32_t to = (int32_t)((uint32_t)after->rec->seq + (uint32_t)count);

	if (c->quiet || !lim_take(&c->holes))
		return;
	if (count == 1)
		printf("missing seq %d\n", from);
	else
		printf("missing seq %d..%d (%" PRIu64 " records)\n", from, to,
		       count);
}

static void check_dup(void *p, const struct kmt_merged *first,
		      const struct kmt_merged *again)
{
	struct check_ctx *c = p;

	if (!c->quiet && lim_take(&c->dups))
		printf("duplicate seq %d: cpu%d offset %zu and cpu%d offset %zu\n",
		       again->rec->seq, first->rec->cpu,
		       rec_offset(c->run, first->rec), again->rec->cpu,
		       rec_offset(c->run, again->rec));
}

static void print_more(const struct lim *l, const char *what)
{
	if (l->more)
		printf("... %lu more %s not shown\n", l->more, what);
}

static int cmd_check(int argc, char **argv)
{
	struct lim bad_lim = { .max = MAX_BAD_LINES };
	struct run run = { 0 };
	struct check_ctx c = { .run = &run };
	struct kmt_seq_ops ops = { check_hole, check_dup, &c };
	struct kmt_seq_stats st;
	int opt, ret;

	c.holes.max = MAX_HOLE_LINES;
	c.dups.max = MAX_DUP_LINES;
	while ((opt = getopt(argc, argv, "qh")) != -1) {
		switch (opt) {
		case 'q':
			c.quiet = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	run.dir = argv[optind];
	run.bad_lim = c.quiet ? NULL : &bad_lim;
	ret = load_dir(&run);
	if (ret) {
		run_free(&run);
		return ret;
	}
	kmt_seq_scan(run.m, run.nr_m, &st, &ops);
	if (!c.quiet) {
		print_more(&bad_lim, "bad records");
		print_more(&c.holes, "holes");
		print_more(&c.dups, "duplicates");
		if (run.have_overruns)
			printf("overruns before %" PRIu64 " after %" PRIu64 "\n",
			       run.ov_before, run.ov_after);
	}
	printf("records %zu alloc %" PRIu64 " free %" PRIu64 " unknown %"
	       PRIu64 " trailers %" PRIu64, st.records, run.alloc, run.free,
	       run.unknown, run.trailers);
	if (st.records)
		printf(" seq %d..%d", st.first, st.last);
	else
		printf(" seq none");
	printf(" missing %" PRIu64 " duplicates %" PRIu64 " bad %" PRIu64 "\n",
	       st.missing, st.duplicates, run.bad);
	ret = run.bad || st.duplicates ? 1 : 0;
	run_free(&run);
	return ret;
}

/* ---- report ---- */

static void pct(char *buf, size_t len, uint64_t part, uint64_t whole)
{
	if (!whole)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f", part * 100.0 / whole);
}

static void print_type_row(const char *name, const struct kmt_type_stats *t)
{
	char w[16];

	pct(w, sizeof(w), t->bytes_alloc - t->bytes_req, t->bytes_alloc);
	printf("%-11s %10" PRIu64 " %8" PRIu64 " %10" PRIu64 " %14" PRIu64
	       " %14" PRIu64 " %12" PRIu64 " %6s %10" PRIu64 " %14" PRIu64
	       "\n", name, t->allocs, t->failed, t->frees, t->bytes_req,
	       t->bytes_alloc, t->bytes_alloc - t->bytes_req, w, t->live,
	       t->live_bytes);
}

/* As in kmt_report.c: absurd sizes must not wrap the totals. */
static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static void report_types(const struct kmt_report *r)
{
	struct kmt_type_stats sum = { 0 };
	unsigned int i;

	printf("Per type (bytes of successful allocations; live: never freed during the run):\n");
	printf("%-11s %10s %8s %10s %14s %14s %12s %6s %10s %14s\n", "type",
	       "allocs", "failed", "frees", "bytes_req", "bytes_alloc",
	       "waste", "waste%", "live", "live_bytes");
	for (i = 0; i < KMT_NR_TYPES; i++) {
		const struct kmt_type_stats *t = &r->type[i];

		print_type_row(kmt_type_name(i), t);
		sum.allocs += t->allocs;
		sum.failed += t->failed;
		sum.frees += t->frees;
		sum.bytes_req = sat_add(sum.bytes_req, t->bytes_req);
		sum.bytes_alloc = sat_add(sum.bytes_alloc, t->bytes_alloc);
		sum.live += t->live;
		sum.live_bytes = sat_add(sum.live_bytes, t->live_bytes);
	}
	print_type_row("total", &sum);
}

static void report_sites(const struct kmt_report *r,
			 const struct kmt_syms *syms, enum kmt_order by,
			 size_t top)
{
	const struct kmt_site **s;
	char sym[256], w[16];
	size_t i, n;

	if (!r->nr_sites) {
		printf("(no allocations)\n");
		return;
	}
	s = malloc(r->nr_sites * sizeof(*s));
	if (!s) {
		fprintf(stderr, "kmemtrace: out of memory\n");
		return;
	}
	n = kmt_report_top(r, by, s, top ? top : r->nr_sites);
	switch (by) {
	case KMT_BY_BYTES:
	case KMT_BY_COUNT:
		printf("%14s %14s %10s %10s %10s  %s\n", "bytes_alloc",
		       "bytes_req", "allocs", "freed", "live", "call site");
		break;
	case KMT_BY_WASTE:
		printf("%14s %6s %14s %10s  %s\n", "waste", "waste%",
		       "bytes_alloc", "allocs", "call site");
		break;
	case KMT_BY_LIVE:
		printf("%14s %10s %10s %10s  %s\n", "live_bytes", "live",
		       "allocs", "freed", "call site");
		break;
	}
	for (i = 0; i < n; i++) {
		kmt_syms_format(syms, s[i]->call_site, sym, sizeof(sym));
		switch (by) {
		case KMT_BY_BYTES:
		case KMT_BY_COUNT:
			printf("%14" PRIu64 " %14" PRIu64 " %10" PRIu64 " %10"
			       PRIu64 " %10" PRIu64 "  %s\n",
			       s[i]->bytes_alloc, s[i]->bytes_req,
			       s[i]->allocs, s[i]->freed, s[i]->live, sym);
			break;
		case KMT_BY_WASTE:
			pct(w, sizeof(w), kmt_site_waste(s[i]),
			    s[i]->bytes_alloc);
			printf("%14" PRIu64 " %6s %14" PRIu64 " %10" PRIu64
			       "  %s\n", kmt_site_waste(s[i]), w,
			       s[i]->bytes_alloc, s[i]->allocs, sym);
			break;
		case KMT_BY_LIVE:
			printf("%14" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10"
			       PRIu64 "  %s\n", s[i]->live_bytes, s[i]->live,
			       s[i]->allocs, s[i]->freed, sym);
			break;
		}
	}
	if (!n)
		printf("(none)\n");
	free(s);
}

static int load_syms(struct kmt_syms *syms, const char *path)
{
	uint8_t *text;
	size_t len;
	int ret;

	ret = read_file(path, &text, &len);
	if (ret) {
		fprintf(stderr, "kmemtrace: %s: %s; call sites stay raw addresses\n",
			path, strerror(-ret));
		return -1;
	}
	ret = kmt_syms_parse(syms, (const char *)text, len);
	free(text);
	if (ret) {
		fprintf(stderr, "kmemtrace: out of memory reading %s\n", path);
		return -1;
	}
	if (syms->hidden)
		fprintf(stderr, "kmemtrace: %s shows every address as 0 (not root?); call sites stay raw addresses\n",
			path);
	else if (!syms->nr)
		fprintf(stderr, "kmemtrace: no text symbols in %s; call sites stay raw addresses\n",
			path);
	return 0;
}

/* ---- dump ---- */

/*
 * One line per record in sequence order, for scripts and eyes:
 * seq cpu event type call_site=SYM ptr=0x.. [bytes_req= bytes_alloc=
 * gfp_flags= target=].
 */
static int cmd_dump(int argc, char **argv)
{
	const char *kallsyms = NULL;
	struct kmt_syms syms = { 0 };
	struct run run = { 0 };
	char site[256];
	size_t i;
	int opt, ret;

	while ((opt = getopt(argc, argv, "k:h")) != -1) {
		switch (opt) {
		case 'k':
			kallsyms = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	run.dir = argv[optind];
	ret = load_dir(&run);
	if (ret) {
		run_free(&run);
		return ret;
	}
	if (kallsyms)
		load_syms(&syms, kallsyms);
	for (i = 0; i < run.nr_m; i++) {
		const struct kmt_record *r = run.m[i].rec;

		if (r->err) {
			printf("seq=%d cpu=%d bad (%s)\n", r->seq, r->cpu,
			       kmt_err_name(r->err));
			continue;
		}
		if (r->unknown) {
			printf("seq=%d cpu=%d unknown event=%u type=%u size=%u\n",
			       r->seq, r->cpu, r->event_id, r->type_id, r->size);
			continue;
		}
		if (kallsyms)
			kmt_syms_format(&syms, r->call_site, site, sizeof(site));
		else
			snprintf(site, sizeof(site), "0x%" PRIx64, r->call_site);
		printf("seq=%d cpu=%d %s type=%s call_site=%s ptr=0x%" PRIx64,
		       r->seq, r->cpu,
		       r->event_id == KMT_EVENT_ALLOC ? "alloc" : "free",
		       kmt_type_name(r->type_id), site, r->ptr);
		if (r->event_id == KMT_EVENT_ALLOC)
			printf(" bytes_req=%" PRIu64 " bytes_alloc=%" PRIu64
			       " gfp_flags=0x%x target=%d", r->bytes_req,
			       r->bytes_alloc, r->gfp_flags, r->target);
		printf("\n");
	}
	kmt_syms_free(&syms);
	run_free(&run);
	return 0;
}

static int cmd_report(int argc, char **argv)
{
	const char *kallsyms = "/proc/kallsyms";
	struct kmt_syms syms = { 0 };
	struct kmt_report r;
	struct kmt_seq_stats st;
	struct run run = { 0 };
	unsigned long top = 10;
	char *end;
	size_t i;
	int opt, ret;

	while ((opt = getopt(argc, argv, "k:n:h")) != -1) {
		switch (opt) {
		case 'k':
			kallsyms = optarg;
			break;
		case 'n':
			errno = 0;
			top = strtoul(optarg, &end, 10);
			if (errno || *end || !*optarg || *optarg == '-') {
				fprintf(stderr, "kmemtrace: -n wants a number\n");
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	run.dir = argv[optind];
	ret = load_dir(&run);
	if (ret) {
		run_free(&run);
		return ret;
	}
	kmt_seq_scan(run.m, run.nr_m, &st, NULL);
	kmt_report_init(&r);
	for (i = 0; i < run.nr_m; i++) {
		if (kmt_report_add(&r, run.m[i].rec)) {
			fprintf(stderr, "kmemtrace: out of memory\n");
			kmt_report_free(&r);
			run_free(&run);
			return 1;
		}
	}
	kmt_report_finish(&r);
	load_syms(&syms, kallsyms);

	printf("kmemtrace report: %s\n", run.dir);
	printf("records %zu (alloc %" PRIu64 ", free %" PRIu64 ", unknown %"
	       PRIu64 ", skipped %" PRIu64 ")", st.records, run.alloc,
	       run.free, run.unknown, r.skipped);
	if (st.records)
		printf(", seq %d..%d", st.first, st.last);
	printf(", missing %" PRIu64, st.missing);
	if (run.have_overruns && run.ov_after >= run.ov_before)
		printf(", overrun bytes %" PRIu64, run.ov_after - run.ov_before);
	printf("\n");
	if (run.bad || st.duplicates)
		printf("warning: %" PRIu64 " bad records, %" PRIu64 " duplicate seqs; see kmemtrace check\n",
		       run.bad, st.duplicates);
	if (st.missing)
		printf("warning: %" PRIu64 " records were dropped; counts below are low\n",
		       st.missing);
	printf("\n");
	report_types(&r);

	printf("\nTop call sites by bytes allocated:\n");
	report_sites(&r, &syms, KMT_BY_BYTES, top);
	printf("\nTop call sites by allocation count:\n");
	report_sites(&r, &syms, KMT_BY_COUNT, top);
	printf("\nInternal fragmentation by call site (waste = bytes_alloc - bytes_req):\n");
	report_sites(&r, &syms, KMT_BY_WASTE, top);
	printf("\nNever freed during the run: %" PRIu64 " allocations, %"
	       PRIu64 " bytes\n", r.live, r.live_bytes);
	printf("(objects freed by kmem_cache_free_bulk() or kfree_bulk(), kfree_rcu() included, have no free record: they count here, or as replaced if their address is reused)\n");
	if (r.live)
		report_sites(&r, &syms, KMT_BY_LIVE, top);
	printf("\nFrees of memory allocated before the run: %" PRIu64 "\n",
	       r.unmatched_frees);
	printf("Allocations of a still-live pointer (its free was not seen; the older object is not counted as never freed): %"
	       PRIu64 "\n", r.replaced);
	printf("Frees as another type than allocated (e.g. kfree of a cache object): %"
	       PRIu64 "\n", r.type_mismatch);

	kmt_syms_free(&syms);
	kmt_report_free(&r);
	run_free(&run);
	return 0;
}

/* ---- record ---- */

static volatile sig_atomic_t got_stop;

static void on_stop(int sig)
{
	got_stop = sig;
}

/* Only there so that SIGCHLD interrupts the parent's ppoll(). */
static void on_chld(int sig)
{
}

/* No SA_RESTART: ppoll() must return EINTR (it is never restarted anyway). */
static void set_handler(int sig, void (*fn)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

/*
 * One read() into @buf, appended to @out.  Returns bytes read, 0 when the
 * channel is empty, -1 on an error (reported).
 */
static ssize_t read_once(int fd, int out, uint8_t *buf, int cpu)
{
	ssize_t n;
	int ret;

	do {
		n = read(fd, buf, READ_BUF_SIZE);
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		if (errno == EAGAIN)
			return 0;
		fprintf(stderr, "kmemtrace: cpu%d: read: %s\n", cpu,
			strerror(errno));
		return -1;
	}
	if (n > READ_BUF_SIZE) {
		fprintf(stderr, "kmemtrace: cpu%d: read returned too much\n",
			cpu);
		return -1;
	}
	ret = write_all(out, buf, n);
	if (ret) {
		fprintf(stderr, "kmemtrace: cpu%d: write: %s\n", cpu,
			strerror(-ret));
		return -1;
	}
	return n;
}

/*
 * ppoll() delivers a signal only when it fails with EINTR: while the
 * channel is never empty a stop would stay pending (blocked) for ever,
 * so look.
 */
static bool sig_pending(int sig)
{
	sigset_t set;

	return !sigpending(&set) && sigismember(&set, sig) == 1;
}

/*
 * A reader child: pin, open, poll/read until told to stop, then drain.
 * Only SIGTERM stops it: normally the parent's, sent once CMD has ended
 * and recording is off, so that the drain gets everything.  SIGINT is
 * ignored: Ctrl-C reaches the whole process group, and a reader that
 * stopped on it would drain while CMD still runs and the channels are
 * still enabled.  @waitmask unblocks only SIGTERM.
 */
static int reader(int cpu, const char *root, const char *dir,
		  const sigset_t *waitmask)
{
	char path[4096];
	struct pollfd pfd;
	cpu_set_t set;
	uint8_t *buf;
	double until;
	ssize_t n;
	int fd, out, ret = 0;

	/* Also drops a SIGINT pending since fork(): it was blocked. */
	signal(SIGINT, SIG_IGN);
	signal(SIGCHLD, SIG_DFL);
	/* Do not outlive a parent that was killed. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() == 1)
		return 1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		fprintf(stderr, "kmemtrace: cpu%d: cannot pin to the CPU (%s); reading unpinned\n",
			cpu, strerror(errno));
	/*
	 * The channel's read() never blocks; O_NONBLOCK keeps the drain
	 * from hanging should some other file (a FIFO in tests) block.
	 */
	snprintf(path, sizeof(path), "%s/cpu%d", root, cpu);
	fd = open(path, O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		fprintf(stderr, "kmemtrace: %s: %s\n", path, strerror(errno));
		return 1;
	}
	snprintf(path, sizeof(path), "%s/cpu%d.raw", dir, cpu);
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0) {
		fprintf(stderr, "kmemtrace: %s: %s\n", path, strerror(errno));
		return 1;
	}
	buf = malloc(READ_BUF_SIZE);
	if (!buf) {
		fprintf(stderr, "kmemtrace: cpu%d: out of memory\n", cpu);
		return 1;
	}

	/*
	 * SIGTERM is blocked except inside ppoll(), so a stop can never
	 * slip in between the check of got_stop and the wait.
	 */
	while (!got_stop && !sig_pending(SIGTERM)) {
		pfd.fd = fd;
		pfd.events = POLLIN;
		pfd.revents = 0;
		if (ppoll(&pfd, 1, NULL, waitmask) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "kmemtrace: cpu%d: poll: %s\n", cpu,
				strerror(errno));
			ret = 1;
			break;
		}
		if (pfd.revents & (POLLERR | POLLNVAL)) {
			fprintf(stderr, "kmemtrace: cpu%d: poll: error on the channel\n",
				cpu);
			ret = 1;
			break;
		}
		if (pfd.revents & POLLIN) {
			if (read_once(fd, out, buf, cpu) < 0) {
				ret = 1;
				break;
			}
		} else if (pfd.revents & POLLHUP) {
			break;
		}
	}

	/* Drain what is left; bounded, as the kernel may still be writing. */
	until = now() + DRAIN_SECONDS;
	while (!ret) {
		n = read_once(fd, out, buf, cpu);
		if (n < 0)
			ret = 1;
		if (n <= 0)
			break;
		if (now() > until) {
			fprintf(stderr, "kmemtrace: cpu%d: still busy after %.0f s of draining; stopped\n",
				cpu, DRAIN_SECONDS);
			break;
		}
	}
	free(buf);
	close(fd);
	if (close(out)) {
		fprintf(stderr, "kmemtrace: cpu%d: close: %s\n", cpu,
			strerror(errno));
		ret = 1;
	}
	return ret;
}

/* Parse /sys/devices/system/cpu/online ("0-3,8\n") into @cpus. */
static int online_cpus(int **cpus, int *nr)
{
	uint8_t *data;
	size_t len, cap = 0;
	char *p, *end;
	long a, b, c;
	int *v = NULL, *nv, n = 0;

	*cpus = NULL;
	*nr = 0;
	if (read_file("/sys/devices/system/cpu/online", &data, &len)) {
		long cnt = sysconf(_SC_NPROCESSORS_ONLN);

		if (cnt < 1)
			return -1;
		v = malloc(cnt * sizeof(*v));
		if (!v)
			return -1;
		for (n = 0; n < cnt; n++)
			v[n] = n;
		*cpus = v;
		*nr = n;
		return 0;
	}
	nv = realloc(data, len + 1);
	if (!nv) {
		free(data);
		return -1;
	}
	p = (char *)nv;
	p[len] = '\0';
	data = (uint8_t *)p;
	while (*p && *p != '\n') {
		a = strtol(p, &end, 10);
		if (end == p || a < 0)
			goto bad;
		b = a;
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			if (end == p + 1 || b < a)
				goto bad;
			p = end;
		}
		for (c = a; c <= b; c++) {
			if (c >= CPU_SETSIZE)
				goto bad;
			if ((size_t)n == cap) {
				cap = cap ? cap * 2 : 16;
				nv = realloc(v, cap * sizeof(*v));
				if (!nv)
					goto bad;
				v = nv;
			}
			v[n++] = (int)c;
		}
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			goto bad;
	}
	free(data);
	if (!n) {
		free(v);
		return -1;
	}
	*cpus = v;
	*nr = n;
	return 0;
bad:
	free(data);
	free(v);
	return -1;
}

/* Remove a previous recording's cpuN.raw so check sees only this one. */
static int clean_out_dir(const char *dir)
{
	char path[4096];
	struct dirent *de;
	DIR *d;

	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "kmemtrace: mkdir %s: %s\n", dir, strerror(errno));
		return -1;
	}
	d = opendir(dir);
	if (!d) {
		fprintf(stderr, "kmemtrace: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		if (raw_name_cpu(de->d_name) < 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (unlink(path))
			fprintf(stderr, "kmemtrace: unlink %s: %s\n", path,
				strerror(errno));
	}
	closedir(d);
	snprintf(path, sizeof(path), "%s/overruns", dir);
	unlink(path);
	return 0;
}

/*
 * record -e: empty every channel before recording is switched on, so
 * that records left from an earlier run do not open this one (they would
 * show as a huge range of missing seqs up to its first record).  Bounded,
 * as a channel that is already enabled may never be empty.  0, or -1
 * after a message.
 */
static int discard_old(const char *root, const int *cpus, int nr_cpus)
{
	double until = now() + DISCARD_SECONDS;
	uint64_t total = 0;
	char path[4096];
	bool late = false;
	uint8_t *buf;
	ssize_t n;
	int i, fd, ret = 0;

	buf = malloc(READ_BUF_SIZE);
	if (!buf) {
		fprintf(stderr, "kmemtrace: out of memory\n");
		return -1;
	}
	for (i = 0; i < nr_cpus && !ret && !late; i++) {
		snprintf(path, sizeof(path), "%s/cpu%d", root, cpus[i]);
		fd = open(path, O_RDONLY | O_NONBLOCK);
		if (fd < 0) {
			fprintf(stderr, "kmemtrace: %s: %s\n", path,
				strerror(errno));
			ret = -1;
			break;
		}
		for (;;) {
			n = read(fd, buf, READ_BUF_SIZE);
			if (n < 0 && errno == EINTR)
				continue;
			/* EAGAIN: an empty FIFO standing in for a channel. */
			if (!n || (n < 0 && errno == EAGAIN))
				break;
			if (n < 0) {
				fprintf(stderr, "kmemtrace: %s: read: %s\n",
					path, strerror(errno));
				ret = -1;
				break;
			}
			total += n;
			if (now() > until) {
				late = true;
				break;
			}
		}
		close(fd);
	}
	free(buf);
	if (late)
		fprintf(stderr, "kmemtrace: cpu%d still not empty after %.0f s (recording already enabled?); the recording may start with older records\n",
			cpus[i - 1], DISCARD_SECONDS);
	if (total)
		fprintf(stderr, "kmemtrace: discarded %" PRIu64 " bytes left in the channels from before\n",
			total);
	return ret;
}

/* Wait for @pid, sending SIGKILL if it is not gone after @secs. */
static int wait_or_kill(pid_t pid, double secs)
{
	struct timespec ts = to_timespec(0.01);
	double until = now() + secs;
	int status = 0;
	pid_t r;

	for (;;) {
		r = waitpid(pid, &status, WNOHANG);
		if (r == pid || (r < 0 && errno != EINTR))
			return status;
		if (now() > until) {
			kill(pid, SIGKILL);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			return status;
		}
		nanosleep(&ts, NULL);
	}
}

static int check_abi(const char *root)
{
	char path[4096], shown[64];
	unsigned long major = 0;
	uint8_t *text;
	size_t len, i;
	int ret;

	snprintf(path, sizeof(path), "%s/abi_version", root);
	ret = read_file(path, &text, &len);
	if (ret) {
		fprintf(stderr, "kmemtrace: %s: %s (debugfs mounted? kernel with kmemtrace? root?)\n",
			path, strerror(-ret));
		return 1;
	}
	ret = kmt_abi_check((const char *)text, len, &major);
	while (len && (text[len - 1] == '\n' || text[len - 1] == '\0'))
		len--;
	for (i = 0; i < len && i < sizeof(shown) - 1; i++)
		shown[i] = text[i] >= ' ' && text[i] < 127 ? text[i] : '?';
	shown[i] = '\0';
	free(text);
	if (ret > 0) {
		fprintf(stderr, "kmemtrace: the kernel's kmemtrace ABI is version %lu, this tool reads version %d at most; use a newer kmemtrace\n",
			major, KMT_ABI_VERSION);
		return 2;
	}
	if (ret < 0) {
		fprintf(stderr, "kmemtrace: %s is not an ABI version: \"%s\"\n",
			path, shown);
		return 2;
	}
	return 0;
}

struct rec_opts {
	const char	*dir;
	const char	*root;
	double		seconds;	/* 0: no limit */
	bool		enable;
	char		**cmd;
};

static int record_parse(int argc, char **argv, struct rec_opts *o)
{
	char *end;
	int opt;

	o->dir = DEFAULT_OUT;
	o->root = getenv("KMEMTRACE_ROOT");
	if (!o->root || !*o->root)
		o->root = DEFAULT_ROOT;
	/* '+': stop at CMD, whose options are its own. */
	while ((opt = getopt(argc, argv, "+d:t:eh")) != -1) {
		switch (opt) {
		case 'd':
			o->dir = optarg;
			break;
		case 't':
			errno = 0;
			o->seconds = strtod(optarg, &end);
			if (errno || *end || end == optarg ||
			    !(o->seconds > 0) || o->seconds > 1e9) {
				fprintf(stderr, "kmemtrace: -t wants a positive number of seconds\n");
				return 2;
			}
			break;
		case 'e':
			o->enable = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return 2;
		}
	}
	o->cmd = optind < argc ? argv + optind : NULL;
	return 0;
}

static int cmd_record(int argc, char **argv)
{
	struct rec_opts o = { 0 };
	sigset_t block, orig, waitmask, rwaitmask;
	uint64_t ov_before = 0, ov_after = 0;
	char path[4096], text[128];
	pid_t *pids = NULL, cmd_pid = -1, pid;
	int *cpus = NULL, nr_cpus = 0, i, alive, status, ret, fd, failed = 0;
	bool have_after, enabled = false;
	double deadline = 0;
	struct timespec ts;
	struct stat st;
	uint64_t total = 0;

	ret = record_parse(argc, argv, &o);
	if (ret)
		return ret;
	ret = check_abi(o.root);
	if (ret)
		return ret;
	if (online_cpus(&cpus, &nr_cpus)) {
		fprintf(stderr, "kmemtrace: cannot tell which CPUs are online\n");
		return 1;
	}
	for (i = 0; i < nr_cpus; i++) {
		snprintf(path, sizeof(path), "%s/cpu%d", o.root, cpus[i]);
		if (access(path, R_OK)) {
			fprintf(stderr, "kmemtrace: %s: %s\n", path,
				strerror(errno));
			free(cpus);
			return 1;
		}
	}
	/* Without -e the channels are recorded with what they hold. */
	if (o.enable && discard_old(o.root, cpus, nr_cpus)) {
		free(cpus);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/total_overruns", o.root);
	ret = read_u64_file(path, &ov_before);
	if (ret) {
		fprintf(stderr, "kmemtrace: %s: %s\n", path, strerror(-ret));
		free(cpus);
		return 1;
	}
	if (clean_out_dir(o.dir)) {
		free(cpus);
		return 1;
	}
	pids = calloc(nr_cpus, sizeof(*pids));
	if (!pids) {
		free(cpus);
		return 1;
	}

	/*
	 * Signals that end the run stay blocked except while waiting, in
	 * the parent and in the readers, which inherit mask and handlers.
	 * The readers wait with SIGINT blocked (and ignore it): only the
	 * parent acts on Ctrl-C, and tells them with SIGTERM once CMD has
	 * ended and recording is off.
	 */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, &orig);
	waitmask = orig;
	sigdelset(&waitmask, SIGINT);
	sigdelset(&waitmask, SIGTERM);
	sigdelset(&waitmask, SIGCHLD);
	rwaitmask = orig;
	sigaddset(&rwaitmask, SIGINT);
	sigdelset(&rwaitmask, SIGTERM);
	set_handler(SIGINT, on_stop);
	set_handler(SIGTERM, on_stop);
	set_handler(SIGCHLD, on_chld);
	fflush(NULL);

	for (i = 0; i < nr_cpus; i++) {
		pid = fork();
		if (pid < 0) {
			fprintf(stderr, "kmemtrace: fork: %s\n", strerror(errno));
			failed = 1;
			got_stop = SIGTERM;
			break;
		}
		if (!pid)
			_exit(reader(cpus[i], o.root, o.dir, &rwaitmask));
		pids[i] = pid;
	}
	alive = i;

	snprintf(path, sizeof(path), "%s/enable", o.root);
	if (!got_stop && o.enable) {
		ret = write_text(path, "1\n");
		if (ret) {
			fprintf(stderr, "kmemtrace: enabling through %s: %s\n",
				path, strerror(-ret));
			failed = 1;
			got_stop = SIGTERM;
		} else {
			enabled = true;
		}
	}
	if (!got_stop && o.cmd) {
		cmd_pid = fork();
		if (cmd_pid < 0) {
			fprintf(stderr, "kmemtrace: fork: %s\n", strerror(errno));
			failed = 1;
			got_stop = SIGTERM;
		} else if (!cmd_pid) {
			signal(SIGINT, SIG_DFL);
			signal(SIGTERM, SIG_DFL);
			signal(SIGCHLD, SIG_DFL);
			sigprocmask(SIG_SETMASK, &orig, NULL);
			execvp(o.cmd[0], o.cmd);
			fprintf(stderr, "kmemtrace: %s: %s\n", o.cmd[0],
				strerror(errno));
			_exit(127);
		}
	}
	if (o.seconds)
		deadline = now() + o.seconds;

	while (!got_stop) {
		if (o.seconds) {
			double left = deadline - now();

			if (left <= 0)
				break;
			ts = to_timespec(left);
		}
		if (ppoll(NULL, 0, o.seconds ? &ts : NULL, &waitmask) < 0 &&
		    errno != EINTR)
			break;
		while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
			if (pid == cmd_pid) {
				cmd_pid = -1;
				got_stop = SIGCHLD;
				if (WIFEXITED(status) && WEXITSTATUS(status))
					fprintf(stderr, "kmemtrace: %s exited with %d\n",
						o.cmd[0], WEXITSTATUS(status));
				else if (WIFSIGNALED(status))
					fprintf(stderr, "kmemtrace: %s killed by signal %d\n",
						o.cmd[0], WTERMSIG(status));
				continue;
			}
			for (i = 0; i < nr_cpus; i++) {
				if (pids[i] != pid)
					continue;
				pids[i] = 0;
				alive--;
				/*
				 * A SIGTERM to the whole process group
				 * (timeout(1)) stops the readers too.
				 */
				if (WIFEXITED(status) && !WEXITSTATUS(status) &&
				    (got_stop == SIGTERM || sig_pending(SIGTERM)))
					continue;
				fprintf(stderr, "kmemtrace: the reader of cpu%d stopped early; its records end there\n",
					cpus[i]);
				failed = 1;
			}
		}
		if (!alive)
			break;
	}

	/* CMD first, so that what it does last is still recorded. */
	if (cmd_pid > 0) {
		kill(cmd_pid, SIGTERM);
		wait_or_kill(cmd_pid, CMD_KILL_SECONDS);
	}
	if (enabled) {
		ret = write_text(path, "0\n");
		if (ret) {
			fprintf(stderr, "kmemtrace: disabling through %s: %s\n",
				path, strerror(-ret));
			failed = 1;
		}
	}
	for (i = 0; i < nr_cpus; i++)
		if (pids[i] > 0)
			kill(pids[i], SIGTERM);
	for (i = 0; i < nr_cpus; i++) {
		if (pids[i] <= 0)
			continue;
		/* A reader stuck in read() must not hang the tool. */
		status = wait_or_kill(pids[i], DRAIN_SECONDS + 3);
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			fprintf(stderr, "kmemtrace: the reader of cpu%d failed\n",
				cpus[i]);
			failed = 1;
		}
	}

	snprintf(path, sizeof(path), "%s/total_overruns", o.root);
	ret = read_u64_file(path, &ov_after);
	have_after = !ret;
	if (ret) {
		fprintf(stderr, "kmemtrace: %s: %s\n", path, strerror(-ret));
		failed = 1;
	}
	snprintf(path, sizeof(path), "%s/overruns", o.dir);
	if (have_after)
		snprintf(text, sizeof(text), "before %" PRIu64 "\nafter %"
			 PRIu64 "\n", ov_before, ov_after);
	else
		snprintf(text, sizeof(text), "before %" PRIu64 "\n",
			 ov_before);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write_all(fd, text, strlen(text)) || close(fd)) {
		fprintf(stderr, "kmemtrace: %s: %s\n", path, strerror(errno));
		failed = 1;
	}

	for (i = 0; i < nr_cpus; i++) {
		snprintf(path, sizeof(path), "%s/cpu%d.raw", o.dir, cpus[i]);
		if (!stat(path, &st))
			total += st.st_size;
	}
	fprintf(stderr, "kmemtrace: %" PRIu64 " bytes from %d CPUs in %s",
		total, nr_cpus, o.dir);
	if (have_after && ov_after >= ov_before)
		fprintf(stderr, "; %" PRIu64 " bytes dropped (overruns) during the run",
			ov_after - ov_before);
	fprintf(stderr, "\n");
	free(pids);
	free(cpus);
	return failed;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	/* Each command parses its own options from argv[1] on. */
	if (!strcmp(argv[1], "record"))
		return cmd_record(argc - 1, argv + 1);
	if (!strcmp(argv[1], "check"))
		return cmd_check(argc - 1, argv + 1);
	if (!strcmp(argv[1], "dump"))
		return cmd_dump(argc - 1, argv + 1);
	if (!strcmp(argv[1], "report"))
		return cmd_report(argc - 1, argv + 1);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	fprintf(stderr, "kmemtrace: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
