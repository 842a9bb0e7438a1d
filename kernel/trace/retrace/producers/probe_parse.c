// SPDX-License-Identifier: GPL-2.0
/*
 * The kprobe_events grammar:
 *
 *   p[:[GRP/]EVENT] [MOD:]SYM[+offs]|MEMADDR [FETCHARGS]
 *   r[MAXACTIVE][:[GRP/]EVENT] [MOD:]SYM[+0] [FETCHARGS]
 *   p[:[GRP/]EVENT] [MOD:]SYM[+0]%return [FETCHARGS]	(same as r)
 *   -:[GRP/]EVENT
 *
 * Each fetch argument is [NAME=]FETCH[:TYPE] where FETCH is %REG,
 * @ADDR, @SYM[+|-offs], $stackN, $stack, $retval, $comm, or
 * +|-offs(FETCH) nested up to RT_PROBE_MAX_STEPS.  A string, and an
 * array, needs an address to start at: a +|-offs(...) or an @ADDR or
 * @SYM (a string also $comm).  Nesting is parsed with a loop over the
 * prefix, never by recursion, so a hostile line cannot exhaust the
 * stack.
 *
 * Syntax only: symbols and addresses are checked by the kernel side
 * when it registers the probe.  Pure C, also built as a host program.
 *
 * A refused line comes with the offset of the part at fault, which
 * error_log marks with a caret.  Where that points follows upstream,
 * since tools check it: the start of whatever is wrong (the maxactive,
 * the group, the event name, the probe point, an argument's name, its
 * base after any +|-offs( prefixes, its type), or where a missing ')'
 * should have been.
 */
#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#else
#include <stdio.h>
#include "pure_shim.h"
#endif
#include <trace/retrace/arch_regs.h>
#include <trace/retrace/probe_def.h>

#define RT_PROBE_DEFAULT_GROUP	"kprobes"
#define RT_PP_RETURN		"%return"
#define RT_PP_RETURN_LEN	(sizeof(RT_PP_RETURN) - 1)

/*
 * @tok is the text being parsed (the line, or a copy of one token of
 * it) and @tok_pos where it starts in the line, so that an error at a
 * pointer into @tok knows its offset in the line.
 */
struct rt_pparse {
	const char	*err;
	unsigned int	pos;
	const char	*tok;
	unsigned int	tok_pos;
};

/* Fail with @why at @at, a pointer into p->tok; the first error wins. */
static int rt_pp_fail_at(struct rt_pparse *p, int ret, const char *why,
			 const char *at)
{
	if (!p->err) {
		p->err = why;
		p->pos = p->tok_pos + (at && p->tok ? at - p->tok : 0);
	}
	return ret;
}

/* Fail with @why at the start of the token being parsed. */
static int rt_pp_fail(struct rt_pparse *p, int ret, const char *why)
{
	return rt_pp_fail_at(p, ret, why, p->tok);
}

/* Parse @tok, which starts at @pos in the line, from now on. */
static void rt_pp_at(struct rt_pparse *p, const char *tok, unsigned int pos)
{
	p->tok = tok;
	p->tok_pos = pos;
}

static bool rt_pp_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* A C identifier of 1 to @max - 1 characters. */
static bool rt_pp_ident(const char *s, size_t n, size_t max)
{
	size_t i;

	if (!n || n >= max)
		return false;
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      c == '_' || (i && c >= '0' && c <= '9')))
			return false;
	}
	return true;
}

/* Symbols may also hold '.', as in "foo.isra.0" or "foo.cold". */
static bool rt_pp_symbol(const char *s, size_t n)
{
	size_t i;

	if (!n || n >= 128 || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      c == '_' || c == '.' || (c >= '0' && c <= '9')))
			return false;
	}
	return true;
}

/* Unsigned decimal or 0x hex filling exactly [s, s + n). */
static bool rt_pp_number(const char *s, size_t n, unsigned long *out)
{
	unsigned long v = 0, base = 10, d;
	size_t i = 0;

	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i == n)
		return false;
	for (; i < n; i++) {
		char c = s[i] | 0x20;

		if (s[i] >= '0' && s[i] <= '9')
			d = s[i] - '0';
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else
			return false;
		if (v > (~0UL - d) / base)
			return false;
		v = v * base + d;
	}
	*out = v;
	return true;
}

static char *rt_pp_dup(struct rt_pparse *p, const char *s, size_t n)
{
	char *d = kstrndup(s, n, GFP_KERNEL);

	if (!d)
		rt_pp_fail(p, -ENOMEM, "out of memory");
	return d;
}

/* "[N]" after a type, @s just past the '['; N from 1 to RT_PROBE_MAX_ARRAY. */
static int rt_pp_array(struct rt_pparse *p, struct rt_probe_arg *a,
		       const char *s)
{
	const char *close = strchr(s, ']');
	unsigned long n;

	if (!close)
		return rt_pp_fail_at(p, -EINVAL, "array is not closed", s + strlen(s));
	if (close[1])
		return rt_pp_fail_at(p, -EINVAL, "text after ']'", close + 1);
	if (!rt_pp_number(s, close - s, &n) || !n)
		return rt_pp_fail_at(p, -EINVAL, "bad array size", s);
	if (n > RT_PROBE_MAX_ARRAY)
		return rt_pp_fail_at(p, -E2BIG, "array too big (64 at most)", s);
	a->count = n;
	return 0;
}

/* TYPE or TYPE[N] at @t, the rest of the argument. */
static int rt_pp_type(struct rt_pparse *p, struct rt_probe_arg *a,
		      const char *t)
{
	static const struct {
		const char *name;
		unsigned char type, size, sgn, hex;
	} types[] = {
		{ "u8", RT_FETCH_U8, 1, 0 }, { "u16", RT_FETCH_U16, 2, 0 },
		{ "u32", RT_FETCH_U32, 4, 0 }, { "u64", RT_FETCH_U64, 8, 0 },
		{ "s8", RT_FETCH_S8, 1, 1 }, { "s16", RT_FETCH_S16, 2, 1 },
		{ "s32", RT_FETCH_S32, 4, 1 }, { "s64", RT_FETCH_S64, 8, 1 },
		{ "x8", RT_FETCH_U8, 1, 0, 1 }, { "x16", RT_FETCH_U16, 2, 0, 1 },
		{ "x32", RT_FETCH_U32, 4, 0, 1 }, { "x64", RT_FETCH_U64, 8, 0, 1 },
		{ "char", RT_FETCH_CHAR, 1, 0 },
		{ "symbol", RT_FETCH_SYMBOL, sizeof(long), 0 },
		{ "symstr", RT_FETCH_SYMSTR, sizeof(long), 0 },
		{ "string", RT_FETCH_STRING, 0, 0 },
		{ "ustring", RT_FETCH_STRING, 0, 0 },
		{ "%pd", RT_FETCH_STRING, 0, 0 },
		{ "%pD", RT_FETCH_STRING, 0, 0 },
	};
	const char *br = strchr(t, '[');
	char name[RT_PROBE_MAX_ARG_BODY + 1];
	unsigned long w, o, c;
	const char *at, *sl;
	unsigned int i;
	size_t n = br ? (size_t)(br - t) : strlen(t);
	int ret;

	if (n >= sizeof(name))
		return rt_pp_fail_at(p, -EINVAL, "unknown type", t);
	memcpy(name, t, n);
	name[n] = '\0';
	if (br) {
		ret = rt_pp_array(p, a, br + 1);
		if (ret)
			return ret;
	}
	for (i = 0; i < ARRAY_SIZE(types); i++) {
		if (!strcmp(name, types[i].name)) {
			a->type = types[i].type;
			a->size = types[i].size;
			a->is_signed = types[i].sgn;
			a->hex = types[i].hex;
			a->ustr = name[0] == 'u' && a->type == RT_FETCH_STRING;
			a->vfs = name[0] != '%' ? RT_VFS_NONE :
				 name[2] == 'd' ? RT_VFS_DENTRY : RT_VFS_FILE;
			if (a->count && (a->vfs || a->type == RT_FETCH_SYMSTR))
				return rt_pp_fail_at(p, -EINVAL, "this type cannot be an array", t);
			return 0;
		}
	}
	/* b<width>@<offset>/<container> */
	at = strchr(name, '@');
	sl = at ? strchr(at, '/') : NULL;
	if (name[0] != 'b' || !at || !sl ||
	    !rt_pp_number(name + 1, at - name - 1, &w) ||
	    !rt_pp_number(at + 1, sl - at - 1, &o) ||
	    !rt_pp_number(sl + 1, strlen(sl + 1), &c))
		return rt_pp_fail_at(p, -EINVAL, "unknown type", t);
	if (c != 8 && c != 16 && c != 32 && c != 64)
		return rt_pp_fail_at(p, -EINVAL, "bitfield container must be 8, 16, 32 or 64", t);
	if (!w || w > c || o >= c || o + w > c)
		return rt_pp_fail_at(p, -EINVAL, "bitfield does not fit its container", t);
	if (a->count)
		return rt_pp_fail_at(p, -EINVAL, "this type cannot be an array", t);
	a->type = RT_FETCH_BITFIELD;
	a->size = c / 8;
	a->bf_width = w;
	a->bf_offset = o;
	return 0;
}

/*
 * Append a memory read at @off to the deref list (innermost first);
 * @user: it reads user memory.
 */
static int rt_pp_deref(struct rt_pparse *p, struct rt_probe_arg *a, long off,
		       unsigned int room, bool user)
{
	if (!a->deref) {
		a->deref = kcalloc(room, sizeof(*a->deref), GFP_KERNEL);
		if (!a->deref)
			return rt_pp_fail(p, -ENOMEM, "out of memory");
	}
	if (user)
		a->user |= 1U << a->nr_deref;
	a->deref[a->nr_deref++] = off;
	return 0;
}

/*
 * The innermost part: %REG, $stack[N], $retval, $argN, @ADDR or
 * @SYM[+|-off].  @entry: the probe is at a function's first byte (or is
 * its return probe, which saves them there), where $argN means the Nth
 * argument.
 */
static int rt_pp_base(struct rt_pparse *p, struct rt_probe_arg *a,
		      const char *s, size_t n, char cmd, bool entry,
		      unsigned int room)
{
	unsigned long v;
	char reg[16];
	int idx;

	if (n > 1 && s[0] == '%') {
		if (n - 1 >= sizeof(reg))
			return rt_pp_fail_at(p, -EINVAL, "unknown register", s);
		memcpy(reg, s + 1, n - 1);
		reg[n - 1] = '\0';
		idx = rt_arch_reg_index(reg);
		if (idx < 0)
			return rt_pp_fail_at(p, -EINVAL, "unknown register", s);
		a->base = RT_FETCH_REG;
		a->reg = idx;
		return 0;
	}
	if (n == 5 && (!strncmp(s, "$comm", 5) || !strncmp(s, "$COMM", 5))) {
		a->base = RT_FETCH_COMM;
		return 0;
	}
	if (n == 7 && !strncmp(s, "$retval", 7)) {
		if (cmd != 'r')
			return rt_pp_fail_at(p, -EINVAL, "$retval is only for return probes", s);
		a->base = RT_FETCH_RETVAL;
		return 0;
	}
	if (n > 4 && !strncmp(s, "$arg", 4)) {
		/* Decimal, from 1, as $stackN is. */
		if (!rt_pp_number(s + 4, n - 4, &v) || !v ||
		    v > RT_PROBE_MAX_ARGNUM || memchr(s + 4, 'x', n - 4) ||
		    memchr(s + 4, 'X', n - 4))
			return rt_pp_fail_at(p, -EINVAL, "bad $arg number", s);
		if (!entry)
			return rt_pp_fail_at(p, -EINVAL, "$arg<N> is only at a function's entry or return (SYM or SYM+0)", s);
		a->base = RT_FETCH_ARG;
		a->reg = v - 1;
		return 0;
	}
	if (n >= 6 && !strncmp(s, "$stack", 6)) {
		a->base = RT_FETCH_STACKP;
		if (n == 6)
			return 0;
		/* Decimal only: "$stack0x8" is a typo, not entry 8. */
		if (!rt_pp_number(s + 6, n - 6, &v) || v > 4096 ||
		    memchr(s + 6, 'x', n - 6) || memchr(s + 6, 'X', n - 6))
			return rt_pp_fail_at(p, -EINVAL, "bad $stack index", s);
		return rt_pp_deref(p, a, v * sizeof(unsigned long), room, false);
	}
	if (n > 1 && s[0] == '@') {
		const char *off = NULL;
		size_t i;

		if (s[1] >= '0' && s[1] <= '9') {
			if (!rt_pp_number(s + 1, n - 1, &v))
				return rt_pp_fail_at(p, -EINVAL, "bad address", s);
			a->base = RT_FETCH_IMM;
			a->imm = v;
			return rt_pp_deref(p, a, 0, room, false);
		}
		for (i = 1; i < n; i++) {
			if (s[i] == '+' || s[i] == '-') {
				off = s + i;
				break;
			}
		}
		if (!rt_pp_symbol(s + 1, (off ? off : s + n) - s - 1))
			return rt_pp_fail_at(p, -EINVAL, "bad symbol", s);
		v = 0;
		if (off && !rt_pp_number(off + 1, s + n - off - 1, &v))
			return rt_pp_fail_at(p, -EINVAL, "bad symbol offset", s);
		a->base = RT_FETCH_SYM;
		a->imm = off && *off == '-' ? -v : v;
		a->sym = rt_pp_dup(p, s + 1, (off ? off : s + n) - s - 1);
		if (!a->sym)
			return -ENOMEM;
		return rt_pp_deref(p, a, 0, room, false);
	}
	return rt_pp_fail_at(p, -EINVAL, "unknown fetch argument", s);
}

/*
 * Upstream's bound on nesting, RT_PROBE_MAX_STEPS: the base's steps
 * plus one per +|-offs( ).  Upstream parses from the inside out and
 * stops at the first prefix that does not fit; the caret goes just
 * inside that prefix's '(', where upstream's does.  @f: the argument's
 * body, @nprefix: its prefixes.
 */
static int rt_pp_steps(struct rt_pparse *p, const struct rt_probe_arg *a,
		       const char *f, unsigned int nprefix)
{
	unsigned int base = a->base == RT_FETCH_SYM ? 3 :
			    a->base == RT_FETCH_IMM ? 2 : 1;
	unsigned int fit = RT_PROBE_MAX_STEPS - base, i;
	const char *q = f;

	if (nprefix <= fit)
		return 0;
	/* Prefixes from the outside: the one at nprefix - fit - 1 fails. */
	for (i = 0; i < nprefix - fit; i++)
		q = strchr(q, '(') + 1;
	return rt_pp_fail_at(p, -E2BIG, "too deeply nested", q);
}

static int rt_pp_arg(struct rt_pparse *p, struct rt_probe_arg *a,
		     const char *tok, char cmd, bool entry, unsigned int idx)
{
	char gen[16];
	const char *eq, *colon, *f, *end, *q, *bad;
	unsigned int nprefix = 0, room, i, user = 0;
	long *prefix = NULL;
	unsigned long off;
	size_t n;
	int ret;

	/* NAME= */
	eq = strchr(tok, '=');
	f = tok;
	if (eq) {
		if (!rt_pp_ident(tok, eq - tok, RT_PROBE_MAX_ARG_NAME + 1))
			return rt_pp_fail(p, -EINVAL, "bad argument name");
		f = eq + 1;
	}
	/* Upstream's bound; it also bounds the nesting below. */
	if (strlen(f) > RT_PROBE_MAX_ARG_BODY)
		return rt_pp_fail_at(p, -E2BIG, "argument too long", f);
	/* :TYPE */
	colon = strrchr(f, ':');
	end = colon ? colon : f + strlen(f);
	if (end == f)
		return rt_pp_fail_at(p, -EINVAL, "empty fetch argument", f);
	a->type = RT_FETCH_U64;
	a->size = 8;
	if (colon) {
		ret = rt_pp_type(p, a, colon + 1);
		if (ret)
			return ret;
	}
	/* An unnamed argument is argN, N its position from 1. */
	if (eq) {
		a->name = rt_pp_dup(p, tok, eq - tok);
	} else {
		snprintf(gen, sizeof(gen), "arg%u", idx);
		a->name = rt_pp_dup(p, gen, strlen(gen));
	}
	if (!a->name)
		return -ENOMEM;
	if (!strncmp(a->name, "common_", 7) || !strncmp(a->name, "__probe_", 8))
		return rt_pp_fail(p, -EINVAL, "reserved argument name");

	/* Count the +|-offs( prefixes, outermost first. */
	for (q = f; q < end && (*q == '+' || *q == '-'); nprefix++) {
		const char *paren = memchr(q, '(', end - q);

		if (!paren)
			return rt_pp_fail_at(p, -EINVAL, "missing '(' after offset", q);
		q = paren + 1;
	}
	/*
	 * The base is what is left once the same number of ')' are gone;
	 * a missing one is reported where it should have been.
	 */
	n = end - q;
	for (i = 0; i < nprefix; i++) {
		if (!n || q[n - 1] != ')')
			return rt_pp_fail_at(p, -EINVAL, "missing ')'", q + n);
		n--;
	}
	bad = memchr(q, '(', n);
	if (!bad)
		bad = memchr(q, ')', n);
	if (bad)
		return rt_pp_fail_at(p, -EINVAL, "unbalanced parentheses", bad);

	room = nprefix + 1;
	if (nprefix) {
		prefix = kcalloc(nprefix, sizeof(*prefix), GFP_KERNEL);
		if (!prefix)
			return rt_pp_fail(p, -ENOMEM, "out of memory");
	}
	/*
	 * +|-[u]<offset>(: 'u' reads user memory at that step.  The steps
	 * fit the bits of @user: each takes four bytes of the body at least.
	 */
	_Static_assert(RT_PROBE_MAX_ARG_BODY / 4 + 1 < 32, "deref steps");
	for (q = f, i = 0; i < nprefix; i++) {
		const char *paren = strchr(q, '(');
		bool u = q[1] == 'u';

		if (!rt_pp_number(q + 1 + u, paren - q - 1 - u, &off)) {
			kfree(prefix);
			return rt_pp_fail_at(p, -EINVAL, "bad offset", q);
		}
		user |= (unsigned int)u << i;
		prefix[i] = *q == '-' ? -(long)off : (long)off;
		q = paren + 1;
	}
	ret = rt_pp_base(p, a, q, n, cmd, entry, room);
	/* Innermost deref first: the prefixes in reverse order. */
	for (i = nprefix; !ret && i > 0; i--)
		ret = rt_pp_deref(p, a, prefix[i - 1], room,
				  user & (1U << (i - 1)));
	kfree(prefix);
	if (ret)
		return ret;
	ret = rt_pp_steps(p, a, f, nprefix);
	if (ret)
		return ret;
	/* A string whose address comes from a user read is a user string. */
	if (a->type == RT_FETCH_STRING && a->nr_deref &&
	    (a->user & (1U << (a->nr_deref - 1))))
		a->ustr = 1;
	if (a->vfs && a->ustr)
		return rt_pp_fail_at(p, -EINVAL, "%pd and %pD name kernel objects", f);
	if (a->base == RT_FETCH_COMM) {
		if (nprefix)
			return rt_pp_fail_at(p, -EINVAL, "$comm cannot be dereferenced", q);
		if (colon && (a->type != RT_FETCH_STRING || a->ustr || a->vfs ||
			      a->count))
			return rt_pp_fail_at(p, -EINVAL, "$comm is a string", colon + 1);
		a->type = RT_FETCH_STRING;
		a->size = 0;
		return 0;
	}
	/* An array is read from memory, where a string would be. */
	if (a->count && !nprefix && a->base != RT_FETCH_IMM &&
	    a->base != RT_FETCH_SYM)
		return rt_pp_fail_at(p, -EINVAL, "an array needs +|-offs(...), @ADDR or @SYM",
				     colon + 1);
	/* symstr names a kernel address: the value, not memory it points to. */
	if (a->type == RT_FETCH_SYMSTR && a->nr_deref &&
	    (a->user & (1U << (a->nr_deref - 1))))
		return rt_pp_fail_at(p, -EINVAL, "symstr takes a kernel value, not user memory",
				     colon + 1);
	/*
	 * A register's or a stack slot's value is not where a string is;
	 * it may point to the dentry or file whose name %pd or %pD takes.
	 */
	if (a->type == RT_FETCH_STRING && !nprefix && !a->vfs &&
	    a->base != RT_FETCH_IMM && a->base != RT_FETCH_SYM)
		return rt_pp_fail_at(p, -EINVAL, "a string needs +|-offs(...), @ADDR or @SYM",
				     colon + 1);
	return 0;
}

/* Split "[GRP/]EVENT". */
static int rt_pp_event(struct rt_pparse *p, struct rt_probe_def *d,
		       const char *s, size_t n)
{
	const char *slash = memchr(s, '/', n);
	const char *ev = slash ? slash + 1 : s;

	if (slash && !rt_pp_ident(s, slash - s, RT_PROBE_MAX_NAME))
		return rt_pp_fail_at(p, -EINVAL, "bad group name", s);
	if (!rt_pp_ident(ev, s + n - ev, RT_PROBE_MAX_NAME))
		return rt_pp_fail_at(p, -EINVAL, "bad event name", ev);
	d->group = slash ? rt_pp_dup(p, s, slash - s) :
			   rt_pp_dup(p, RT_PROBE_DEFAULT_GROUP,
				     strlen(RT_PROBE_DEFAULT_GROUP));
	d->event = rt_pp_dup(p, ev, s + n - ev);
	return d->group && d->event ? 0 : -ENOMEM;
}

static int rt_pp_target(struct rt_pparse *p, struct rt_probe_def *d,
			const char *t)
{
	const char *colon = strchr(t, ':'), *plus, *sym = t;
	unsigned long off = 0;

	if (t[0] >= '0' && t[0] <= '9') {
		if (!rt_pp_number(t, strlen(t), &d->addr))
			return rt_pp_fail(p, -EINVAL, "bad address");
		if (d->cmd == 'r')
			return rt_pp_fail(p, -EINVAL, "return probes need a symbol");
		return 0;
	}
	if (colon) {
		if (!rt_pp_symbol(t, colon - t) || strchr(colon + 1, ':'))
			return rt_pp_fail(p, -EINVAL, "bad module name");
		d->mod = rt_pp_dup(p, t, colon - t);
		if (!d->mod)
			return -ENOMEM;
		sym = colon + 1;
	}
	plus = strchr(sym, '+');
	if (!rt_pp_symbol(sym, (plus ? plus : sym + strlen(sym)) - sym))
		return rt_pp_fail(p, -EINVAL, "bad symbol");
	if (plus && !rt_pp_number(plus + 1, strlen(plus + 1), &off))
		return rt_pp_fail(p, -EINVAL, "bad offset");
	if (d->cmd == 'r' && off)
		return rt_pp_fail(p, -EINVAL, "return probes take no offset");
	d->offset = off;
	d->sym = rt_pp_dup(p, sym, (plus ? plus : sym + strlen(sym)) - sym);
	return d->sym ? 0 : -ENOMEM;
}

/* "p_do_sys_open_0", "r_mod_sym_0", "p_0xffffffff81000000". */
static int rt_pp_gen_name(struct rt_pparse *p, struct rt_probe_def *d)
{
	char buf[RT_PROBE_MAX_NAME + 1];
	int n;
	char *c;

	if (d->sym)
		n = snprintf(buf, sizeof(buf), "%c_%s%s%s_%lu", d->cmd,
			     d->mod ? d->mod : "", d->mod ? "_" : "", d->sym,
			     d->offset);
	else
		n = snprintf(buf, sizeof(buf), "%c_0x%lx", d->cmd, d->addr);
	if (n >= RT_PROBE_MAX_NAME)
		return rt_pp_fail(p, -EINVAL, "generated event name too long; name the event");
	for (c = buf; *c; c++)
		if (*c == '.' || *c == '-')
			*c = '_';
	d->group = rt_pp_dup(p, RT_PROBE_DEFAULT_GROUP,
			     strlen(RT_PROBE_DEFAULT_GROUP));
	d->event = rt_pp_dup(p, buf, n);
	return d->group && d->event ? 0 : -ENOMEM;
}

/**
 * rt_probe_def_free - release a parsed definition
 * @d: from rt_probe_parse(), or NULL
 */
void rt_probe_def_free(struct rt_probe_def *d)
{
	unsigned int i;

	if (!d)
		return;
	for (i = 0; i < d->nr_args; i++) {
		kfree(d->args[i].name);
		kfree(d->args[i].sym);
		kfree(d->args[i].deref);
	}
	kfree(d->args);
	kfree(d->args_text);
	kfree(d->group);
	kfree(d->event);
	kfree(d->mod);
	kfree(d->sym);
	kfree(d);
}

/* The next white-space separated token after *@s, or NULL. */
static const char *rt_pp_token(const char **s, size_t *len)
{
	const char *t = *s;

	while (rt_pp_space(*t))
		t++;
	if (!*t)
		return NULL;
	*s = t;
	while (**s && !rt_pp_space(**s))
		(*s)++;
	*len = *s - t;
	return t;
}

/* Append @tok to the listing, with its generated name if it has none. */
static void rt_pp_list_arg(char *text, const struct rt_probe_arg *a,
			   const char *tok, unsigned int i)
{
	size_t at = strlen(text);

	if (i)
		text[at++] = ' ';
	if (!strchr(tok, '='))
		at += sprintf(text + at, "%s=", a->name);
	strcpy(text + at, tok);
}

/**
 * rt_probe_parse - parse one line written to kprobe_events
 * @line: the line, NUL-terminated, without its newline
 * @out: the definition; NULL for a blank line or a '#' comment
 * @err: on failure, a short reason (static text) and the offset in
 *	@line of the part at fault
 *
 * Return: 0, -EINVAL for a syntax error, -E2BIG for more than
 * RT_PROBE_MAX_ARGS arguments, an argument over RT_PROBE_MAX_ARG_BODY
 * bytes or a line over RT_PROBE_MAX_LINE bytes, or -ENOMEM.
 */
int rt_probe_parse(const char *line, struct rt_probe_def **out,
		   struct rt_probe_error *err)
{
	struct rt_pparse p = { NULL };
	const char *s = line, *t, *rest, *pct, *eq;
	char gen[16];
	unsigned int nargs = 0, i, j;
	struct rt_probe_def *d;
	size_t n, k;
	char *buf;
	int ret;

	*out = NULL;
	err->msg = NULL;
	err->pos = 0;
	if (strnlen(line, RT_PROBE_MAX_LINE + 1) > RT_PROBE_MAX_LINE) {
		err->msg = "line too long";
		return -E2BIG;
	}
	t = rt_pp_token(&s, &n);
	if (!t || t[0] == '#')
		return 0;

	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d) {
		err->msg = "out of memory";
		return -ENOMEM;
	}
	rt_pp_at(&p, line, 0);
	ret = -EINVAL;
	d->cmd = t[0];
	/* r<N>: how many returns may be pending at once */
	for (k = 1; k < n && t[k] >= '0' && t[k] <= '9'; k++)
		;
	if (d->cmd != 'p' && d->cmd != 'r' && d->cmd != '-') {
		rt_pp_fail_at(&p, ret, "expected p, r or -", t);
		goto fail;
	}
	if (k < n && t[k] != ':') {
		rt_pp_fail_at(&p, ret, k > 1 ? "bad maxactive" :
			      "expected p, r or -", k > 1 ? t + 1 : t);
		goto fail;
	}
	if (k < n && n == k + 1) {
		rt_pp_fail_at(&p, ret, "missing event name", t + n);
		goto fail;
	}
	if (k > 1) {
		unsigned long max;

		if (d->cmd != 'r') {
			rt_pp_fail_at(&p, ret, "maxactive is only for return probes",
				      t + 1);
			goto fail;
		}
		if (!rt_pp_number(t + 1, k - 1, &max) || !max ||
		    max > RT_PROBE_MAX_ACTIVE) {
			rt_pp_fail_at(&p, ret, "maxactive must be 1 to 4096", t + 1);
			goto fail;
		}
		d->maxactive = max;
	}
	if (k < n) {
		ret = rt_pp_event(&p, d, t + k + 1, n - k - 1);
		if (ret)
			goto fail;
	}
	if (d->cmd == '-') {
		ret = -EINVAL;
		if (!d->event) {
			rt_pp_fail_at(&p, ret, "'-' needs :[GRP/]EVENT", t);
			goto fail;
		}
		/* "-:EVENT PROBE": one probe of the event, the caller parses it */
		t = rt_pp_token(&s, &n);
		if (t)
			d->spec_pos = t - line;
		*out = d;
		return 0;
	}

	t = rt_pp_token(&s, &n);
	ret = -EINVAL;
	if (!t) {
		rt_pp_fail_at(&p, ret, "missing probe point", line + strlen(line));
		goto fail;
	}
	d->target_pos = t - line;
	/* SYM%return: a return probe, however the line began */
	if (n > RT_PP_RETURN_LEN &&
	    !strncmp(t + n - RT_PP_RETURN_LEN, RT_PP_RETURN, RT_PP_RETURN_LEN)) {
		d->cmd = 'r';
		n -= RT_PP_RETURN_LEN;
	}
	/* %return is the only suffix */
	pct = memchr(t, '%', n);
	if (pct) {
		rt_pp_fail_at(&p, ret, "bad probe point suffix", pct);
		goto fail;
	}
	ret = -ENOMEM;
	buf = rt_pp_dup(&p, t, n);
	if (!buf)
		goto fail;
	rt_pp_at(&p, buf, d->target_pos);
	ret = rt_pp_target(&p, d, buf);
	if (!ret && !d->event)
		ret = rt_pp_gen_name(&p, d);
	kfree(buf);
	rt_pp_at(&p, line, 0);
	if (ret)
		goto fail;

	for (rest = s; rt_pp_token(&rest, &n); nargs++)
		;
	/* The arguments as written, for the kprobe_events listing. */
	while (rt_pp_space(*s))
		s++;
	for (n = strlen(s); n && rt_pp_space(s[n - 1]); n--)
		;
	/* Room for an "argN=" before each unnamed argument. */
	ret = -ENOMEM;
	d->args_text = kmalloc(n + nargs * 8 + 1, GFP_KERNEL);
	if (!d->args_text)
		goto fail;
	d->args_text[0] = 0;
	if (nargs > RT_PROBE_MAX_ARGS) {
		ret = rt_pp_fail_at(&p, -E2BIG, "too many arguments", s);
		goto fail;
	}
	if (nargs) {
		ret = -ENOMEM;
		d->args = kcalloc(nargs, sizeof(*d->args), GFP_KERNEL);
		if (!d->args)
			goto fail;
	}
	for (i = 0; i < nargs; i++) {
		struct rt_probe_arg *a = &d->args[i];

		t = rt_pp_token(&s, &n);
		ret = -ENOMEM;
		buf = rt_pp_dup(&p, t, n);
		if (!buf)
			goto fail;
		d->nr_args++;
		a->pos = t - line;
		rt_pp_at(&p, buf, a->pos);
		/*
		 * A used name is refused before the body is parsed, as
		 * upstream does: NAME= as written, or the argN it gets.
		 */
		eq = strchr(buf, '=');
		if (eq)
			k = eq - buf;
		else
			k = snprintf(gen, sizeof(gen), "arg%u", i + 1);
		ret = 0;
		for (j = 0; !ret && j < i; j++)
			if (strlen(d->args[j].name) == k &&
			    !strncmp(d->args[j].name, eq ? buf : gen, k))
				ret = rt_pp_fail(&p, -EINVAL, "duplicate argument name");
		if (!ret)
			ret = rt_pp_arg(&p, a, buf, d->cmd,
					d->sym && !d->offset, i + 1);
		if (!ret)
			rt_pp_list_arg(d->args_text, a, buf, i);
		kfree(buf);
		rt_pp_at(&p, line, 0);
		if (ret)
			goto fail;
	}
	*out = d;
	return 0;
fail:
	err->msg = p.err ? p.err : "out of memory";
	err->pos = p.err ? p.pos : 0;
	rt_probe_def_free(d);
	return ret;
}

/**
 * rt_probe_def_format - a definition as kprobe_events lists it
 * @d: parsed definition (not a '-' line)
 * @buf: output
 * @size: bytes at @buf
 *
 * "p:GRP/EVENT [MOD:]SYM+OFFS ARGS" or "p:GRP/EVENT 0xADDR ARGS" ("rN:"
 * with a maxactive), the arguments as they were written.  Parsing the result gives back the
 * same definition.
 *
 * Return: the length the full text needs, as snprintf().
 */
int rt_probe_def_format(const struct rt_probe_def *d, char *buf, size_t size)
{
	char head[16];

	if (d->maxactive)
		snprintf(head, sizeof(head), "%c%u", d->cmd, d->maxactive);
	else
		snprintf(head, sizeof(head), "%c", d->cmd);
	if (!d->sym)
		return snprintf(buf, size, "%s:%s/%s 0x%lx%s%s", head,
				d->group, d->event, d->addr,
				*d->args_text ? " " : "", d->args_text);
	return snprintf(buf, size, "%s:%s/%s %s%s%s+%lu%s%s", head, d->group,
			d->event, d->mod ? d->mod : "", d->mod ? ":" : "",
			d->sym, d->offset, *d->args_text ? " " : "",
			d->args_text);
}
