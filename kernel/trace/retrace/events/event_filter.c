// SPDX-License-Identifier: GPL-2.0
/*
 * Event filter expressions: parse once, evaluate per record.
 *
 *   expr := and { "||" and }
 *   and  := unary { "&&" unary }
 *   unary:= "!" unary | "(" expr ")" | FIELD OP VALUE
 *
 * Integer fields take == != < <= > >= and & (true when any masked bit
 * is set); string fields take == and != with '*' and '?' wildcards.
 * FIELD.function, for a field the size of a pointer, takes == and !=
 * against a function, named or given by any address inside it: true
 * when the field's value lies inside (or, for !=, outside) that
 * function.  Its bounds are looked up once, at compile time.
 *
 * The parser emits the expression in postfix order.  Evaluation is a
 * loop over that array with a stack of one-bit results held in a u64:
 * no recursion and no allocation, so it is safe in any context (NMI
 * included) and its cost is bounded by RT_FILTER_MAX_PREDS.
 *
 * Pure C: builds in the kernel and, through host/pure_shim.h, as a host
 * program for the unit tests and the fuzzer.
 */
#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#else
#include "pure_shim.h"
#endif
#include <trace/retrace/event_filter.h>
#include <trace/retrace/glob.h>

enum { RT_OP_PRED, RT_OP_NOT, RT_OP_AND, RT_OP_OR };
enum {
	RT_CMP_EQ, RT_CMP_NE, RT_CMP_LT, RT_CMP_LE, RT_CMP_GT, RT_CMP_GE,
	RT_CMP_MASK, RT_CMP_IN, RT_CMP_OUT,
};

#define RT_FP_FUNC_SUFFIX	".function"


#define RT_FILTER_MAX_OPS	(4 * RT_FILTER_MAX_PREDS)

struct rt_filter_pred {
	unsigned short	offset;
	unsigned short	size;
	unsigned char	kind;
	unsigned char	is_signed;
	unsigned char	cmp;
	unsigned long long val;
	unsigned long long end;		/* RT_CMP_IN/OUT: [val, end) */
	char		*str;		/* string fields: the pattern */
};

struct rt_filter_op {
	unsigned char	op;
	unsigned short	pred;
};

struct rt_filter {
	unsigned int		nr_ops;
	unsigned int		nr_preds;
	struct rt_filter_op	*ops;
	struct rt_filter_pred	*preds;
	char			*text;
};

/* Parser state; errors record the byte offset they were found at. */
struct rt_fparse {
	const char		*s;
	unsigned int		pos;
	unsigned int		depth;
	unsigned int		sp, max_sp;	/* simulated eval stack */
	const struct rt_event_field *fields;
	unsigned int		nr_fields;
	struct rt_filter	*f;
	int			err;
	unsigned int		err_pos;
};

static bool rt_fp_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool rt_fp_namechar(char c, bool first)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	    c == '$' || c == '%' || c == '@')
		return true;
	return !first && ((c >= '0' && c <= '9') || c == '.');
}

static void rt_fp_skip(struct rt_fparse *p)
{
	while (rt_fp_space(p->s[p->pos]))
		p->pos++;
}

static int rt_fp_fail(struct rt_fparse *p)
{
	if (!p->err) {
		p->err = -EINVAL;
		p->err_pos = p->pos;
	}
	return p->err;
}

static bool rt_fp_eat(struct rt_fparse *p, const char *tok)
{
	size_t n = strlen(tok);

	rt_fp_skip(p);
	if (strncmp(p->s + p->pos, tok, n))
		return false;
	p->pos += n;
	return true;
}

static int rt_fp_emit(struct rt_fparse *p, unsigned char op, unsigned int pred)
{
	struct rt_filter *f = p->f;

	if (f->nr_ops >= RT_FILTER_MAX_OPS)
		return rt_fp_fail(p);
	f->ops[f->nr_ops].op = op;
	f->ops[f->nr_ops].pred = pred;
	f->nr_ops++;
	if (op == RT_OP_PRED && ++p->sp > p->max_sp)
		p->max_sp = p->sp;
	else if (op == RT_OP_AND || op == RT_OP_OR)
		p->sp--;
	return 0;
}

/* A decimal, 0x hex or 0 octal number, optionally negative. */
static int rt_fp_number(struct rt_fparse *p, bool allow_neg,
			unsigned long long *out)
{
	const char *s = p->s + p->pos;
	unsigned long long v = 0;
	unsigned int base = 10, n = 0, d;
	bool neg = false;

	if (*s == '-') {
		if (!allow_neg)
			return rt_fp_fail(p);
		neg = true;
		s++;
		n++;
	}
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
		n += 2;
	} else if (s[0] == '0' && s[1] >= '0' && s[1] <= '9') {
		base = 8;
	}
	if (!((*s >= '0' && *s <= '9') || (base == 16 && ((*s | 0x20) >= 'a' &&
						       (*s | 0x20) <= 'f'))))
		return rt_fp_fail(p);
	for (;; s++, n++) {
		char c = *s | 0x20;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else
			break;
		if (d >= base)
			return rt_fp_fail(p);
		if (v > (~0ULL - d) / base)
			return rt_fp_fail(p);	/* overflow */
		v = v * base + d;
	}
	if (rt_fp_namechar(*s, false)) {
		p->pos += n;
		return rt_fp_fail(p);
	}
	if (neg) {
		if (v > (1ULL << 63))
			return rt_fp_fail(p);
		v = -v;
	}
	p->pos += n;
	*out = v;
	return 0;
}

/* A quoted string ('...' or "...") or a bare word. */
static int rt_fp_string(struct rt_fparse *p, char **out)
{
	const char *s = p->s + p->pos;
	unsigned int n;
	char *str;

	if (*s == '"' || *s == '\'') {
		const char *end = strchr(s + 1, *s);

		if (!end)
			return rt_fp_fail(p);
		n = end - s - 1;
		s++;
		p->pos += n + 2;
	} else {
		for (n = 0; s[n] && !rt_fp_space(s[n]) && !strchr("()&|!=<>", s[n]);
		     n++)
			;
		if (!n)
			return rt_fp_fail(p);
		p->pos += n;
	}
	if (n >= RT_FILTER_MAX_STRING)
		return rt_fp_fail(p);
	str = kmalloc(n + 1, GFP_KERNEL);
	if (!str) {
		p->err = -ENOMEM;
		return p->err;
	}
	memcpy(str, s, n);
	str[n] = '\0';
	*out = str;
	return 0;
}

/*
 * The value of a FIELD.function predicate: a number is any address in
 * the function, a word is its name.  The comparison becomes a range
 * test, so a record costs two compares and no lookup.
 */
static int rt_fp_func(struct rt_fparse *p, struct rt_filter_pred *pr)
{
	unsigned int at = p->pos;
	unsigned long long addr = 0;
	char *name = NULL;
	bool found;

	if (pr->cmp != RT_CMP_EQ && pr->cmp != RT_CMP_NE)
		return rt_fp_fail(p);
	if (p->s[p->pos] >= '0' && p->s[p->pos] <= '9') {
		if (rt_fp_number(p, false, &addr))
			return p->err;
	} else if (rt_fp_string(p, &name)) {
		return p->err;
	}
	found = rt_filter_func_bounds(name, addr, &pr->val, &pr->end);
	kfree(name);
	if (!found) {
		p->pos = at;
		return rt_fp_fail(p);
	}
	pr->cmp = pr->cmp == RT_CMP_EQ ? RT_CMP_IN : RT_CMP_OUT;
	return rt_fp_emit(p, RT_OP_PRED, p->f->nr_preds++);
}

static int rt_fp_pred(struct rt_fparse *p)
{
	static const struct { const char *tok; unsigned char cmp; } cmps[] = {
		{ "==", RT_CMP_EQ }, { "!=", RT_CMP_NE }, { "<=", RT_CMP_LE },
		{ ">=", RT_CMP_GE }, { "<", RT_CMP_LT }, { ">", RT_CMP_GT },
		{ "&", RT_CMP_MASK },
	};
	const size_t flen = strlen(RT_FP_FUNC_SUFFIX);
	const struct rt_event_field *fld = NULL;
	struct rt_filter_pred *pr;
	unsigned int i, start, len;
	bool func = false;

	rt_fp_skip(p);
	start = p->pos;
	if (!rt_fp_namechar(p->s[p->pos], true))
		return rt_fp_fail(p);
	while (rt_fp_namechar(p->s[p->pos], false))
		p->pos++;
	len = p->pos - start;
	if (len > flen && !strncmp(p->s + p->pos - flen, RT_FP_FUNC_SUFFIX,
				   flen)) {
		func = true;
		len -= flen;
	}
	for (i = 0; i < p->nr_fields; i++) {
		if (strlen(p->fields[i].name) == len &&
		    !strncmp(p->fields[i].name, p->s + start, len)) {
			fld = &p->fields[i];
			break;
		}
	}
	if (!fld || fld->kind == RT_FIELD_BYTES ||
	    (func && (fld->kind != RT_FIELD_INT ||
		      fld->size != sizeof(long)))) {
		/* Blamed past the name and its blanks, where upstream puts it. */
		rt_fp_skip(p);
		return rt_fp_fail(p);
	}
	if (p->f->nr_preds >= RT_FILTER_MAX_PREDS)
		return rt_fp_fail(p);
	pr = &p->f->preds[p->f->nr_preds];

	rt_fp_skip(p);
	for (i = 0; i < ARRAY_SIZE(cmps); i++)
		if (rt_fp_eat(p, cmps[i].tok))
			break;
	if (i == ARRAY_SIZE(cmps))
		return rt_fp_fail(p);
	pr->cmp = cmps[i].cmp;
	pr->offset = fld->offset;
	pr->size = fld->size;
	pr->kind = fld->kind;
	pr->is_signed = fld->is_signed;

	rt_fp_skip(p);
	if (func)
		return rt_fp_func(p, pr);
	if (fld->kind == RT_FIELD_STRING || fld->kind == RT_FIELD_CHARS ||
	    fld->kind == RT_FIELD_TAIL) {
		if (pr->cmp != RT_CMP_EQ && pr->cmp != RT_CMP_NE)
			return rt_fp_fail(p);
		if (rt_fp_string(p, &pr->str))
			return p->err;
	} else {
		if (fld->size != 1 && fld->size != 2 && fld->size != 4 &&
		    fld->size != 8)
			return rt_fp_fail(p);
		if (rt_fp_number(p, fld->is_signed, &pr->val))
			return p->err;
	}
	return rt_fp_emit(p, RT_OP_PRED, p->f->nr_preds++);
}

static int rt_fp_expr(struct rt_fparse *p);

static int rt_fp_unary(struct rt_fparse *p)
{
	int ret;

	rt_fp_skip(p);
	if (p->s[p->pos] == '!' && p->s[p->pos + 1] != '=') {
		p->pos++;
		if (++p->depth > RT_FILTER_MAX_DEPTH)
			return rt_fp_fail(p);
		ret = rt_fp_unary(p);
		p->depth--;
		return ret ? ret : rt_fp_emit(p, RT_OP_NOT, 0);
	}
	if (p->s[p->pos] == '(') {
		p->pos++;
		if (++p->depth > RT_FILTER_MAX_DEPTH)
			return rt_fp_fail(p);
		ret = rt_fp_expr(p);
		if (ret)
			return ret;
		if (!rt_fp_eat(p, ")"))
			return rt_fp_fail(p);
		p->depth--;
		return 0;
	}
	return rt_fp_pred(p);
}

/* Binary operators by precedence: "||" binds loosest. */
static const struct {
	const char	*tok;
	unsigned char	op;
} rt_fp_binops[] = {
	{ "||", RT_OP_OR },
	{ "&&", RT_OP_AND },
};

/* A chain of operands joined by the operator of @level, left to right. */
static int rt_fp_chain(struct rt_fparse *p, unsigned int level)
{
	bool last = level + 1 == ARRAY_SIZE(rt_fp_binops);
	int ret = last ? rt_fp_unary(p) : rt_fp_chain(p, level + 1);

	while (!ret && rt_fp_eat(p, rt_fp_binops[level].tok)) {
		ret = last ? rt_fp_unary(p) : rt_fp_chain(p, level + 1);
		if (!ret)
			ret = rt_fp_emit(p, rt_fp_binops[level].op, 0);
	}
	return ret;
}

static int rt_fp_expr(struct rt_fparse *p)
{
	return rt_fp_chain(p, 0);
}

/**
 * rt_filter_free - release a compiled filter
 * @f: filter from rt_filter_compile(), or NULL
 */
void rt_filter_free(struct rt_filter *f)
{
	unsigned int i;

	if (!f)
		return;
	for (i = 0; i < f->nr_preds; i++)
		kfree(f->preds[i].str);
	kfree(f->preds);
	kfree(f->ops);
	kfree(f->text);
	kfree(f);
}

/**
 * rt_filter_compile - parse a filter expression against a field list
 * @text: the expression, NUL-terminated; trailing white space is ignored
 * @fields: the fields it may name
 * @nr_fields: entries in @fields
 * @out: the compiled filter on success
 * @err_pos: on -EINVAL, the byte offset in @text where parsing failed
 *
 * Return: 0, -EINVAL for a malformed expression (unknown field, bad
 * operator for the field's kind, bad number, unbalanced parentheses,
 * more than RT_FILTER_MAX_PREDS predicates or RT_FILTER_MAX_DEPTH
 * nesting), or -ENOMEM.
 */
int rt_filter_compile(const char *text, const struct rt_event_field *fields,
		      unsigned int nr_fields, struct rt_filter **out,
		      int *err_pos)
{
	struct rt_fparse p = { .s = text, .fields = fields,
			       .nr_fields = nr_fields };
	size_t len = strnlen(text, RT_FILTER_MAX_TEXT + 1);
	struct rt_filter_pred *preds;
	struct rt_filter_op *ops;
	struct rt_filter *f;

	*err_pos = 0;
	if (len > RT_FILTER_MAX_TEXT)
		return -EINVAL;
	while (len && rt_fp_space(text[len - 1]))
		len--;
	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	f->ops = kcalloc(RT_FILTER_MAX_OPS, sizeof(*f->ops), GFP_KERNEL);
	f->preds = kcalloc(RT_FILTER_MAX_PREDS, sizeof(*f->preds), GFP_KERNEL);
	f->text = kmalloc(len + 1, GFP_KERNEL);
	if (!f->ops || !f->preds || !f->text) {
		rt_filter_free(f);
		return -ENOMEM;
	}
	memcpy(f->text, text, len);
	f->text[len] = '\0';
	p.s = f->text;
	p.f = f;

	if (!rt_fp_expr(&p)) {
		rt_fp_skip(&p);
		if (p.s[p.pos])
			rt_fp_fail(&p);	/* trailing junk, e.g. a stray ')' */
	}
	/* The evaluator's stack is the bits of a u64. */
	if (!p.err && (p.sp != 1 || p.max_sp > 64))
		rt_fp_fail(&p);
	if (p.err) {
		*err_pos = p.err_pos;
		rt_filter_free(f);
		return p.err;
	}
	/* Parsed into the largest arrays; keep only what is used. */
	ops = krealloc(f->ops, f->nr_ops * sizeof(*f->ops), GFP_KERNEL);
	if (ops)
		f->ops = ops;
	preds = krealloc(f->preds, f->nr_preds * sizeof(*f->preds), GFP_KERNEL);
	if (preds)
		f->preds = preds;
	*out = f;
	return 0;
}

/**
 * rt_filter_text - the expression a filter was compiled from
 * @f: the filter
 *
 * Return: the text, without trailing white space.
 */
const char *rt_filter_text(const struct rt_filter *f)
{
	return f->text;
}

static bool rt_filter_pred_match(const struct rt_filter_pred *pr,
				 const unsigned char *rec, unsigned int len)
{
	const void *p = rec + pr->offset;
	unsigned long long v;
	long long sv;

	if ((unsigned int)pr->offset + pr->size > len)
		return false;
	if (pr->kind == RT_FIELD_STRING || pr->kind == RT_FIELD_CHARS ||
	    pr->kind == RT_FIELD_TAIL) {
		const char *str;
		bool m;

		if (pr->kind == RT_FIELD_STRING)
			str = rt_field_string(rec, len, pr->offset);
		else if (pr->kind == RT_FIELD_CHARS)
			str = rt_field_chars(rec, len, pr->offset, pr->size);
		else
			str = rt_field_tail(rec, len, pr->offset);
		m = str && rt_glob_match(pr->str, str);

		return pr->cmp == RT_CMP_EQ ? m : !m;
	}
	/* Masks test the field's own bits; comparisons follow its sign. */
	v = rt_field_value(p, pr->size, false);
	sv = (long long)rt_field_value(p, pr->size, true);

	switch (pr->cmp) {
	case RT_CMP_EQ:
		return pr->is_signed ? sv == (long long)pr->val : v == pr->val;
	case RT_CMP_NE:
		return pr->is_signed ? sv != (long long)pr->val : v != pr->val;
	case RT_CMP_LT:
		return pr->is_signed ? sv < (long long)pr->val : v < pr->val;
	case RT_CMP_LE:
		return pr->is_signed ? sv <= (long long)pr->val : v <= pr->val;
	case RT_CMP_GT:
		return pr->is_signed ? sv > (long long)pr->val : v > pr->val;
	case RT_CMP_GE:
		return pr->is_signed ? sv >= (long long)pr->val : v >= pr->val;
	case RT_CMP_IN:
		return v >= pr->val && v < pr->end;
	case RT_CMP_OUT:
		return v < pr->val || v >= pr->end;
	default:
		return (v & pr->val) != 0;
	}
}

/**
 * rt_filter_match - does a record pass the filter
 * @f: compiled filter
 * @rec: the record, common header included
 * @len: its length; fields beyond it never match
 *
 * Safe in any context: no locks, no allocation, no recursion.
 *
 * Return: true if the record is to be kept.
 */
bool rt_filter_match(const struct rt_filter *f, const void *rec,
		     unsigned int len)
{
	unsigned long long stack = 0, top;
	unsigned int i;

	for (i = 0; i < f->nr_ops; i++) {
		const struct rt_filter_op *op = &f->ops[i];

		switch (op->op) {
		case RT_OP_PRED:
			stack = stack << 1 |
				rt_filter_pred_match(&f->preds[op->pred], rec, len);
			break;
		case RT_OP_NOT:
			stack ^= 1;
			break;
		case RT_OP_AND:
			top = stack & 1;
			stack >>= 1;
			stack &= ~1ULL | top;
			break;
		default:
			top = stack & 1;
			stack >>= 1;
			stack |= top;
			break;
		}
	}
	return stack & 1;
}
