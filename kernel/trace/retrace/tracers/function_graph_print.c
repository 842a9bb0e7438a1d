// SPDX-License-Identifier: GPL-2.0
/*
 * The function_graph tracer's output: the call graph in trace and
 * trace_pipe, one line per record.
 *
 *   [TIME |] [CPU)] [TASK-PID |] [MARK DURATION us |]  INDENT TEXT
 *
 * TEXT is "func() {" for an entry, "}" for a return ("} / * func * /"
 * when this file did not show its "{" line for that task on this CPU),
 * and "func();" for an entry whose return is the very next record of
 * that CPU (a leaf: the two are printed as one line, with the return's
 * duration).  With funcgraph-retval a leaf is "func(); / * = VALUE * /"
 * and a return "} / * func = VALUE * /".  Other
 * records print as "/ * text * /" comments at the current depth.  Each
 * open file keeps, per CPU, the pid, depth and context (task, softirq,
 * hardirq, NMI) of the last line, to mark a task switch with a banner
 * and the start and end of an interrupt with "==========>" and
 * "<==========".  With funcgraph-flat the records print in the default
 * format as "graph_ent: func=NAME" and "graph_ret: func=NAME".
 */
#include <linux/err.h>
#include <linux/math64.h>
#include <linux/sched.h>
#include <trace/retrace/core.h>
#include "function_graph.h"

/* What an open file remembers of a CPU's last line. */
struct rt_graph_cpu {
	int	pid;
	int	depth;		/* indentation for a comment */
	u64	open;		/* depths (< 64) whose "{" line this task shows */
	u8	level;		/* rt_graph_level() */
	bool	seen;
};

#define RT_GRAPH_COMMENT	512

struct rt_graph_state {
	char			comment[RT_GRAPH_COMMENT];
	struct rt_graph_cpu	cpu[];
};

/* Task 0, softirq 1, hardirq 2, NMI 3. */
static u8 rt_graph_level(const struct rt_entry *e)
{
	if (e->flags & RT_FLAG_NMI)
		return 3;
	if (e->flags & RT_FLAG_HARDIRQ)
		return 2;
	return (e->flags & RT_FLAG_SOFTIRQ) ? 1 : 0;
}

static bool rt_gopt(const struct rt_print_ctx *ctx, unsigned int bit)
{
	return rt_tracer_opt(ctx->tr, bit);
}

/*
 * The columns before the function text.  @dur is the duration to show,
 * or -1 for a line without one.
 */
static void rt_graph_columns(struct rt_print_ctx *ctx, s64 dur)
{
	const struct rt_entry *e = ctx->ent;
	struct seq_buf *s = ctx->s;
	char comm[TASK_COMM_LEN], who[TASK_COMM_LEN + 12];
	u32 rem;
	u64 q;

	if (rt_gopt(ctx, RT_GOPT_ABSTIME)) {
		q = div_u64_rem(ctx->rec->ts, NSEC_PER_SEC, &rem);
		seq_buf_printf(s, "%6llu.%06u |  ", q, rem / 1000);
	}
	if (rt_gopt(ctx, RT_GOPT_CPU))
		seq_buf_printf(s, " %2u) ", ctx->rec->cpu);
	if (rt_gopt(ctx, RT_GOPT_PROC)) {
		rt_find_comm(e->pid, comm);
		snprintf(who, sizeof(who), "%.8s-%d", comm, e->pid);
		seq_buf_printf(s, " %14s | ", who);
	}
	if (!rt_gopt(ctx, RT_GOPT_DURATION)) {
		seq_buf_puts(s, " ");
		return;
	}
	/* Aligned up to 9999.999 us; longer durations widen the line. */
	if (dur < 0) {
		seq_buf_puts(s, "              |  ");
		return;
	}
	q = div_u64_rem(dur, 1000, &rem);
	seq_buf_printf(s, "%c %4llu.%03u us |  ",
		       rt_gopt(ctx, RT_GOPT_OVERHEAD) ? rt_graph_mark(dur) : ' ',
		       q, rem);
}

static void rt_graph_indent(struct seq_buf *s, int depth)
{
	seq_buf_printf(s, "%*s", 2 * clamp(depth, 0, 255), "");
}

/*
 * Banners before the line of @ctx's record: another task on this CPU,
 * or an interrupt level entered or left.
 */
static void rt_graph_banners(struct rt_print_ctx *ctx, struct rt_graph_cpu *c)
{
	const struct rt_entry *e = ctx->ent;
	char from[TASK_COMM_LEN], to[TASK_COMM_LEN];
	u8 level = rt_graph_level(e);

	if (!c)
		return;
	if (c->seen && c->pid != e->pid) {
		rt_find_comm(c->pid, from);
		rt_find_comm(e->pid, to);
		seq_buf_printf(ctx->s,
			       " ------------------------------------------\n"
			       " %2u) %s-%d => %s-%d\n"
			       " ------------------------------------------\n\n",
			       ctx->rec->cpu, from, c->pid, to, e->pid);
	}
	if (c->seen && level != c->level) {
		rt_graph_columns(ctx, -1);
		seq_buf_puts(ctx->s, level > c->level ? "==========>\n"
						     : "<==========\n");
	}
	/* Another task's open levels are not this one's. */
	if (c->pid != e->pid)
		c->open = 0;
	c->seen = true;
	c->pid = e->pid;
	c->level = level;
}

/* A graph record of the same task that returns the entry @ent. */
static const struct rt_graph_ret_entry *
rt_graph_leaf_return(struct rt_print_ctx *ctx,
		     const struct rt_graph_ent_entry *ent)
{
	const struct rt_rb_record *next = rt_print_peek(ctx);
	const struct rt_graph_ret_entry *ret;

	if (!next || next->len < sizeof(*ret))
		return NULL;
	ret = (const void *)next->data;
	if (ret->ent.type != rt_graph_ret_type.type ||
	    ret->ent.pid != ent->ent.pid || ret->ip != ent->ip ||
	    ret->depth != ent->depth)
		return NULL;
	return ret;
}

static s64 rt_graph_duration(const struct rt_graph_ret_entry *r)
{
	return r->rettime > r->calltime ? r->rettime - r->calltime : 0;
}

/*
 * funcgraph-retval's VALUE: an error code (-MAX_ERRNO to -1, as a long
 * or as an int in the low half) in decimal, anything else in hex; with
 * funcgraph-retval-hex, everything in hex.  A void function shows
 * whatever %rax held.
 */
static void rt_graph_print_retval(struct rt_print_ctx *ctx, unsigned long v)
{
	long err = (long)v;

	if (!rt_gopt(ctx, RT_GOPT_RETVAL_HEX)) {
		if (!(v >> 32) && (v & BIT(31)))
			err = (int)v;
		if (IS_ERR_VALUE(err)) {
			seq_buf_printf(ctx->s, "%ld", err);
			return;
		}
	}
	seq_buf_printf(ctx->s, "0x%lx", v);
}

static void rt_graph_print_entry(struct rt_print_ctx *ctx,
				 struct rt_graph_cpu *c)
{
	const struct rt_graph_ent_entry *e = (const void *)ctx->ent;
	const struct rt_graph_ret_entry *r;

	if (ctx->len < sizeof(*e))
		return;
	r = rt_graph_leaf_return(ctx, e);
	rt_graph_columns(ctx, r ? rt_graph_duration(r) : -1);
	rt_graph_indent(ctx->s, e->depth);
	rt_print_sym(ctx, e->ip);
	if (r && rt_gopt(ctx, RT_GOPT_RETVAL)) {
		seq_buf_puts(ctx->s, "(); /* = ");
		rt_graph_print_retval(ctx, r->retval);
		seq_buf_puts(ctx->s, " */\n");
		rt_print_take(ctx);
	} else if (r) {
		seq_buf_puts(ctx->s, "();\n");
		rt_print_take(ctx);
	} else {
		seq_buf_puts(ctx->s, "() {\n");
	}
	if (c) {
		c->depth = e->depth + !r;
		if (!r && e->depth < 64)
			c->open |= BIT_ULL(e->depth);
	}
}

static void rt_graph_print_return(struct rt_print_ctx *ctx,
				  struct rt_graph_cpu *c)
{
	const struct rt_graph_ret_entry *r = (const void *)ctx->ent;

	if (ctx->len < sizeof(*r))
		return;
	rt_graph_columns(ctx, rt_graph_duration(r));
	rt_graph_indent(ctx->s, r->depth);
	/*
	 * A return whose "{" line this file did not show for the task on
	 * this CPU (not recorded under tracing_thresh, lost before the
	 * buffer's start, or shown on another CPU) names its function, as
	 * every return does with funcgraph-retval.
	 */
	if (c && r->depth < 64 && (c->open & BIT_ULL(r->depth))) {
		c->open &= ~BIT_ULL(r->depth);
		if (!rt_gopt(ctx, RT_GOPT_RETVAL)) {
			seq_buf_puts(ctx->s, "}\n");
			goto out;
		}
	}
	seq_buf_puts(ctx->s, "} /* ");
	rt_print_sym(ctx, r->ip);
	if (rt_gopt(ctx, RT_GOPT_RETVAL)) {
		seq_buf_puts(ctx->s, " = ");
		rt_graph_print_retval(ctx, r->retval);
	}
	seq_buf_puts(ctx->s, " */\n");
out:
	if (c)
		c->depth = r->depth;
}

/* Any other record: its text as a comment at the current depth. */
static void rt_graph_print_comment(struct rt_print_ctx *ctx,
				   struct rt_graph_state *st,
				   struct rt_graph_cpu *c)
{
	const struct rt_entry *e = ctx->ent;
	struct seq_buf text;
	char small[128], *buf = st ? st->comment : small;
	size_t size = st ? sizeof(st->comment) : sizeof(small);
	struct rt_print_ctx sub = *ctx;
	size_t n;

	seq_buf_init(&text, buf, size);
	sub.s = &text;
	if ((e->type == RT_TYPE_PRINT || e->type == RT_TYPE_MARKER) &&
	    ctx->len >= sizeof(struct rt_print_entry)) {
		const struct rt_print_entry *p = (const void *)e;

		seq_buf_printf(&text, "%.*s",
			       (int)strnlen(p->buf, ctx->len - sizeof(*p)),
			       p->buf);
	} else if (ctx->et && ctx->et->print) {
		seq_buf_printf(&text, "%s: ", ctx->et->name);
		ctx->et->print(&sub);
	} else {
		seq_buf_printf(&text, "record type %u", e->type);
	}
	n = min_t(size_t, seq_buf_used(&text), size - 1);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	rt_graph_columns(ctx, -1);
	rt_graph_indent(ctx->s, c ? c->depth : 0);
	seq_buf_printf(ctx->s, "/* %.*s */\n", (int)n, buf);
}

/**
 * rt_graph_print_line - the function_graph tracer's line format
 * @ctx: the record and its output
 *
 * Return: false with funcgraph-flat, which leaves every record to the
 * default format; true otherwise.
 */
bool rt_graph_print_line(struct rt_print_ctx *ctx)
{
	struct rt_graph_state *st;
	struct rt_graph_cpu *c = NULL;
	unsigned int type = ctx->ent->type;

	if (rt_gopt(ctx, RT_GOPT_FLAT))
		return false;
	st = rt_print_state(ctx, sizeof(*st) +
				 nr_cpu_ids * sizeof(struct rt_graph_cpu));
	if (st && ctx->rec->cpu < nr_cpu_ids)
		c = &st->cpu[ctx->rec->cpu];
	rt_graph_banners(ctx, c);
	if (type == rt_graph_ent_type.type)
		rt_graph_print_entry(ctx, c);
	else if (type == rt_graph_ret_type.type)
		rt_graph_print_return(ctx, c);
	else
		rt_graph_print_comment(ctx, st, c);
	return true;
}

/**
 * rt_graph_print_columns - the header's column legend
 * @tr: the instance (its options)
 * @s: output
 *
 * Return: false with funcgraph-flat (the default legend applies).
 */
bool rt_graph_print_columns(struct rt_instance *tr, struct seq_buf *s)
{
	/* Each column's legend is as wide as the column (rt_graph_columns()). */
	static const struct {
		unsigned int	bit;
		const char	*name, *bar;
	} cols[] = {
		{ RT_GOPT_ABSTIME,  "     TIME        ", "      |          " },
		{ RT_GOPT_CPU,      "  CPU",             "  |  " },
		{ RT_GOPT_PROC,     "     TASK/PID     ", "      |    |      " },
		{ RT_GOPT_DURATION, "  DURATION    ",    "    |   |     " },
	};
	char name[96] = "", bar[96] = "";
	unsigned int i;

	if (rt_tracer_opt(tr, RT_GOPT_FLAT))
		return false;
	for (i = 0; i < ARRAY_SIZE(cols); i++) {
		if (!rt_tracer_opt(tr, cols[i].bit))
			continue;
		strlcat(name, cols[i].name, sizeof(name));
		strlcat(bar, cols[i].bar, sizeof(bar));
	}
	strlcat(name, "   FUNCTION CALLS", sizeof(name));
	strlcat(bar, "   |   |   |   |", sizeof(bar));
	/* Every legend starts with a blank, which the comment mark takes. */
	name[0] = '#';
	bar[0] = '#';
	seq_buf_printf(s, "%s\n%s\n", name, bar);
	return true;
}

/* funcgraph-flat */
void rt_graph_print_ent_flat(struct rt_print_ctx *ctx)
{
	const struct rt_graph_ent_entry *e = (const void *)ctx->ent;

	if (ctx->len < sizeof(*e))
		return;
	seq_buf_puts(ctx->s, "graph_ent: func=");
	rt_print_sym(ctx, e->ip);
}

void rt_graph_print_ret_flat(struct rt_print_ctx *ctx)
{
	const struct rt_graph_ret_entry *r = (const void *)ctx->ent;

	if (ctx->len < sizeof(*r))
		return;
	seq_buf_puts(ctx->s, "graph_ret: func=");
	rt_print_sym(ctx, r->ip);
}
