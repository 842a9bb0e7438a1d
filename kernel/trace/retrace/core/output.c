// SPDX-License-Identifier: GPL-2.0
/*
 * Turning records into the text of the trace and trace_pipe files:
 * the header, the per-line context columns in the default and latency
 * formats, and the raw, hex and bin forms chosen in trace_options.
 */
#include <linux/kallsyms.h>
#include <linux/math64.h>
#include <linux/sched.h>
#include <linux/utsname.h>
#include "context_fmt.h"
#include "internal.h"

/**
 * rt_print_sym - print a kernel address as the options ask
 * @ctx: the printer's context (output and options)
 * @ip: the address
 *
 * Plain name (module functions without their module), name+off/size
 * [module] with sym-offset, and " <addr>" appended with sym-addr.
 * Unknown addresses print in hex.
 */
void rt_print_sym(const struct rt_print_ctx *ctx, unsigned long ip)
{
	const struct rt_instance *tr = ctx->tr;
	struct seq_buf *s = ctx->s;
	char sym[KSYM_SYMBOL_LEN];
	const char *name;

	if (!ip) {
		seq_buf_puts(s, "0");
		return;
	}
	if (rt_opt(tr, RT_OPT_SYM_OFFSET)) {
		sprint_symbol(sym, ip);
		name = sym;
	} else {
		/* the bare name, without " [module]" */
		name = rt_sym_cache_name(rt_reader_syms(ctx->reader), ip, sym);
		if (!name) {
			snprintf(sym, sizeof(sym), "0x%lx", ip);
			name = sym;
		}
	}
	seq_buf_puts(s, name);
	if (rt_opt(tr, RT_OPT_SYM_ADDR))
		seq_buf_printf(s, " <%016lx>", ip);
}
EXPORT_SYMBOL_GPL(rt_print_sym);

static void rt_print_hex_words(struct seq_buf *s, const void *p,
			       unsigned int len)
{
	const u32 *w = p;
	unsigned int i;

	for (i = 0; i < len / 4; i++)
		seq_buf_printf(s, " %08x", w[i]);
}

/* irqs-off, need-resched, hardirq/softirq, preempt-depth: "d.h1". */
static void rt_print_lat_flags(struct seq_buf *s, const struct rt_entry *e)
{
	char ctx = '.';

	if ((e->flags & RT_FLAG_HARDIRQ) && (e->flags & RT_FLAG_SOFTIRQ))
		ctx = 'H';
	else if (e->flags & (RT_FLAG_HARDIRQ | RT_FLAG_NMI))
		ctx = 'h';
	else if (e->flags & RT_FLAG_SOFTIRQ)
		ctx = 's';
	seq_buf_printf(s, "%c%c%c",
		       (e->flags & RT_FLAG_IRQS_OFF) ? 'd' : '.',
		       (e->flags & RT_FLAG_NEED_RESCHED) ? 'N' : '.', ctx);
	if (e->preempt_count)
		seq_buf_printf(s, "%x", min_t(unsigned int, e->preempt_count, 15));
	else
		seq_buf_putc(s, '.');
}

/* Latency format: times relative to the first record shown. */
static void rt_print_lat_context(const struct rt_instance *tr,
				 struct seq_buf *s,
				 const struct rt_rb_record *rec,
				 const struct rt_entry *e, const char *comm,
				 u64 first_ts, u64 next_ts)
{
	u64 rel = rec->ts > first_ts ? rec->ts - first_ts : 0;
	u64 delay = next_ts > rec->ts ? next_ts - rec->ts : 0;
	char mark = delay > 100 * NSEC_PER_USEC ? '!' :
		    delay > NSEC_PER_USEC ? '+' : ' ';

	if (rt_opt(tr, RT_OPT_VERBOSE)) {
		u64 ms = div_u64(rel, NSEC_PER_MSEC);
		u64 dms = div_u64(delay, NSEC_PER_USEC);

		seq_buf_printf(s, "%s %d %u %x %08x %08lx [%08llx] %llu.%03llums (+%llu.%03llums): ",
			       comm, e->pid, rec->cpu, e->flags,
			       e->preempt_count,
			       (unsigned long)(rec->pos & 0xffffffff),
			       rec->ts, ms,
			       div_u64(rel - ms * NSEC_PER_MSEC, NSEC_PER_USEC),
			       div_u64(dms, 1000), dms % 1000);
		return;
	}
	seq_buf_printf(s, "%8.8s-%-5d %3u", comm, e->pid, rec->cpu);
	rt_print_lat_flags(s, e);
	seq_buf_printf(s, " %4lluus%c: ", div_u64(rel, NSEC_PER_USEC), mark);
}

static void rt_print_context(const struct rt_instance *tr, struct seq_buf *s,
			     const struct rt_rb_record *rec,
			     const struct rt_entry *e, u64 first_ts,
			     u64 next_ts)
{
	char comm[TASK_COMM_LEN], line[RT_CONTEXT_FMT_MAX];
	unsigned int n;
	u32 nsecs;
	u64 secs;

	rt_find_comm(e->pid, comm);
	if (rt_opt(tr, RT_OPT_LATENCY_FMT)) {
		rt_print_lat_context(tr, s, rec, e, comm, first_ts, next_ts);
		return;
	}
	/* trace_clock "counter" stamps are a count, not a time. */
	if (READ_ONCE(tr->clock) == RT_RB_CLOCK_COUNTER) {
		seq_buf_printf(s, "%16s-%-5d [%03u] %12llu: ", comm, e->pid,
			       rec->cpu, rec->ts);
		return;
	}
	secs = div_u64_rem(rec->ts, NSEC_PER_SEC, &nsecs);
	/* By hand: vsnprintf() cost a trace_pipe line ~2,000 instructions. */
	n = rt_context_fmt(line, comm, strnlen(comm, sizeof(comm)), e->pid,
			   rec->cpu, secs, nsecs / NSEC_PER_USEC);
	if (n)
		seq_buf_putmem(s, line, n);
	else
		seq_buf_printf(s, RT_CONTEXT_FMT, comm, e->pid, rec->cpu,
			       secs, (u32)(nsecs / NSEC_PER_USEC));
}

/* rt_print_record_ctx() with the RCU read lock held. */
static int rt_print_record_rcu(struct rt_instance *tr, struct seq_buf *s,
			       const struct rt_rb_record *rec,
			       u64 first_ts, u64 next_ts,
			       struct rt_reader *reader)
{
	const struct rt_entry *e = (const void *)rec->data;
	struct rt_print_ctx ctx = { .s = s, .tr = tr, .rec = rec, .ent = e,
				    .len = rec->len, .reader = reader };
	struct rt_event_type *et;
	struct rt_tracer *t;

	if (rec->len < sizeof(*e))
		return 0;
	et = rt_find_event_type(e->type);
	ctx.et = et;

	if (rt_opt(tr, RT_OPT_BIN)) {
		u32 cpu = rec->cpu;

		seq_buf_putmem(s, &e->pid, sizeof(e->pid));
		seq_buf_putmem(s, &cpu, sizeof(cpu));
		seq_buf_putmem(s, &rec->ts, sizeof(rec->ts));
		seq_buf_putmem(s, rec->data, rec->len);
		return seq_buf_has_overflowed(s) ? -EOVERFLOW : 0;
	}
	if (rt_opt(tr, RT_OPT_HEX)) {
		seq_buf_printf(s, "%08x %08x %016llx %04x:", e->pid, rec->cpu,
			       rec->ts, e->type);
		rt_print_hex_words(s, e + 1, rec->len - sizeof(*e));
		seq_buf_putc(s, '\n');
		return seq_buf_has_overflowed(s) ? -EOVERFLOW : 0;
	}
	if (rt_opt(tr, RT_OPT_RAW)) {
		seq_buf_printf(s, "%d %u %llu %u", e->pid, rec->cpu, rec->ts,
			       e->type);
		if (et && et->print_raw)
			et->print_raw(&ctx);
		else
			rt_print_hex_words(s, e + 1, rec->len - sizeof(*e));
		seq_buf_putc(s, '\n');
		return seq_buf_has_overflowed(s) ? -EOVERFLOW : 0;
	}

	/* Module tracers are unregistered with an RCU grace period. */
	t = READ_ONCE(tr->tracer);
	if (t && t->print_line && !rt_opt(tr, RT_OPT_LATENCY_FMT) &&
	    t->print_line(&ctx))
		return seq_buf_has_overflowed(s) ? -EOVERFLOW : 0;

	rt_print_context(tr, s, rec, e, first_ts, next_ts);
	if (et && et->print)
		et->print(&ctx);
	else
		seq_buf_printf(s, "unknown record type %u", e->type);
	seq_buf_putc(s, '\n');
	return seq_buf_has_overflowed(s) ? -EOVERFLOW : 0;
}

/**
 * rt_print_record_ctx - format one record
 * @tr: the instance (its options)
 * @s: output
 * @rec: the record as read from the buffer
 * @first_ts: timestamp of the first record shown (latency format)
 * @next_ts: timestamp of the record after it, or 0 (latency format)
 * @reader: the open file's reader, for look-ahead; NULL for none
 *
 * A record type's printer may belong to an event being removed; RCU
 * keeps it alive until the print is done.
 *
 * Return: 0, or -EOVERFLOW if @s filled up.
 */
int rt_print_record_ctx(struct rt_instance *tr, struct seq_buf *s,
			const struct rt_rb_record *rec, u64 first_ts,
			u64 next_ts, struct rt_reader *reader)
{
	int ret;

	rcu_read_lock();
	ret = rt_print_record_rcu(tr, s, rec, first_ts, next_ts, reader);
	rcu_read_unlock();
	return ret;
}

/* The kernel's preemption model, as the latency header names it. */
static const char *rt_preempt_model(void)
{
	if (preempt_model_full() || preempt_model_rt())
		return "preempt";
	if (preempt_model_voluntary())
		return "desktop";
	return "server";
}

/**
 * rt_print_header - the comment lines that open the trace file
 * @tr: the instance
 * @counted: the buffer whose records the entries line counts: the live
 *	one for "trace", the snapshot's for "snapshot"
 * @m: output
 */
void rt_print_header(struct rt_instance *tr, struct rt_buffer *counted,
		     struct seq_buf *m)
{
	u64 entries = 0, written = 0;
	struct rt_max_info mx = {};
	struct rt_rb_stats st;
	int cpu;

	if (rt_opt(tr, RT_OPT_RAW) || rt_opt(tr, RT_OPT_HEX) ||
	    rt_opt(tr, RT_OPT_BIN))
		return;
	/* The current tracer may be a module's: hold it while we print. */
	mutex_lock(&rt_trace_lock);
	for_each_possible_cpu(cpu) {
		rt_buffer_stats(counted, cpu, &st);
		entries += st.entries;
		written += st.written;
	}
	seq_buf_printf(m, "# tracer: %s\n#\n", rt_current_tracer_name(tr));
	/* A latency tracer's trace is its snapshot: count that. */
	mx.cpu = raw_smp_processor_id();
	if (rt_tracer_uses_max(tr)) {
		rt_max_header(tr, &mx, &entries);
		written = entries;
	}
	if (rt_opt(tr, RT_OPT_LATENCY_FMT)) {
		seq_buf_printf(m, "%s latency trace v1.1.5 on %s\n",
			   rt_current_tracer_name(tr), init_utsname()->release);
		seq_buf_puts(m, "--------------------------------------------------------------------\n");
		seq_buf_printf(m, " latency: %lu us, #%llu/%llu, CPU#%d | (M:%s VP:0, KP:0, SP:0 HP:0 #P:%u)\n",
			   READ_ONCE(tr->max_latency), entries, written,
			   mx.cpu, rt_preempt_model(), num_online_cpus());
		seq_buf_puts(m, "    -----------------\n");
		if (rt_tracer_uses_max(tr) && mx.latency_ns) {
			seq_buf_printf(m, "    | task: %.16s-%d (uid:%u nice:%d policy:%u rt_prio:%u)\n",
				       mx.comm, mx.pid, mx.uid, mx.nice,
				       mx.policy, mx.rt_prio);
			seq_buf_puts(m, "    -----------------\n");
			/* Sections have ends; wakeups have none. */
			if (mx.start_ip) {
				seq_buf_printf(m, " => started at: %ps\n", (void *)mx.start_ip);
				seq_buf_printf(m, " => ended at:   %ps\n", (void *)mx.end_ip);
			}
			seq_buf_puts(m, "\n");
		}
		rt_tracer_print_header(tr, m);
		seq_buf_puts(m, "#                  _------=> CPU#\n"
			    "#                 / _-----=> irqs-off\n"
			    "#                | / _----=> need-resched\n"
			    "#                || / _---=> hardirq/softirq\n"
			    "#                ||| / _--=> preempt-depth\n"
			    "#                |||| /\n"
			    "#                |||||     delay\n"
			    "#  cmd     pid   ||||| time  |   caller\n"
			    "#     \\   /      |||||   \\   |   /\n");
		goto out;
	}
	if (tr->tracer && tr->tracer->print_columns &&
	    tr->tracer->print_columns(tr, m))
		goto out;
	seq_buf_printf(m, "# entries-in-buffer/entries-written: %llu/%llu   #P:%u\n#\n",
		   entries, written, num_online_cpus());
	rt_tracer_print_header(tr, m);
	seq_buf_puts(m, "#           TASK-PID     CPU#     TIMESTAMP  FUNCTION\n"
		    "#              | |         |          |         |\n");
out:
	mutex_unlock(&rt_trace_lock);
}
