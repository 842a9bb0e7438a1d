// SPDX-License-Identifier: GPL-2.0
/*
 * Marker format strings to event fields; see mark_format.h.
 *
 * Accepted: flags "-+ #0", a decimal width and precision, the length
 * modifiers hh h l ll z t j, and the conversions d i u o x X c s p,
 * with p alone or as %pS %ps %pB %px.  Refused, with the position of
 * the offending character: '*' widths (their int would be an unnamed
 * argument), %n, floating point, other %p extensions (they would read
 * memory when the record is printed, long after the call), a length
 * modifier on c, s or p, and a format that ends inside a conversion.
 */
#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/sprintf.h>
#include <linux/string.h>
#else
#include "pure_shim.h"
#include <stdio.h>
#endif
#include <trace/retrace/mark_format.h>

static bool rt_mark_ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static bool rt_mark_alnum(char c)
{
	return rt_mark_ident_char(c) && c != '_';
}

/* Length modifier at @p: its code and length; 'L' (long double) is refused. */
enum {
	RT_LEN_NONE, RT_LEN_HH, RT_LEN_H, RT_LEN_L, RT_LEN_LL, RT_LEN_Z,
	RT_LEN_T, RT_LEN_J,
};

static unsigned int rt_mark_len_mod(const char *p, int *mod)
{
	if (p[0] == 'h' && p[1] == 'h')
		return *mod = RT_LEN_HH, 2;
	if (p[0] == 'l' && p[1] == 'l')
		return *mod = RT_LEN_LL, 2;
	switch (p[0]) {
	case 'h':
		return *mod = RT_LEN_H, 1;
	case 'l':
		return *mod = RT_LEN_L, 1;
	case 'z':
		return *mod = RT_LEN_Z, 1;
	case 't':
		return *mod = RT_LEN_T, 1;
	case 'j':
		return *mod = RT_LEN_J, 1;
	}
	*mod = RT_LEN_NONE;
	return 0;
}

/* Integer conversions: va_arg type, record size and type name. */
static void rt_mark_int_field(struct rt_mark_field *f, int mod, bool sign)
{
	static const struct {
		unsigned char arg[2];	/* unsigned, signed */
		unsigned char size;
		const char *type[2];
	} t[] = {
		[RT_LEN_NONE] = { { RT_MARK_UINT, RT_MARK_INT }, 4,
				  { "unsigned int", "int" } },
		[RT_LEN_HH] = { { RT_MARK_UINT, RT_MARK_INT }, 1,
				{ "unsigned char", "signed char" } },
		[RT_LEN_H] = { { RT_MARK_UINT, RT_MARK_INT }, 2,
			       { "unsigned short", "short" } },
		[RT_LEN_L] = { { RT_MARK_ULONG, RT_MARK_LONG }, 8,
			       { "unsigned long", "long" } },
		[RT_LEN_LL] = { { RT_MARK_ULLONG, RT_MARK_LLONG }, 8,
				{ "unsigned long long", "long long" } },
		[RT_LEN_Z] = { { RT_MARK_SIZE, RT_MARK_SIZE }, 8,
			       { "size_t", "ssize_t" } },
		[RT_LEN_T] = { { RT_MARK_PTRDIFF, RT_MARK_PTRDIFF }, 8,
			       { "ptrdiff_t", "ptrdiff_t" } },
		[RT_LEN_J] = { { RT_MARK_ULLONG, RT_MARK_LLONG }, 8,
			       { "u64", "s64" } },
	};

	f->arg = t[mod].arg[sign];
	f->size = t[mod].size;
	f->type = t[mod].type[sign];
	f->is_signed = sign;
}

/*
 * Name field @idx from the text before its '%' (@lit, @len bytes):
 * the last identifier, after stripping blanks around one "=" or ":".  An
 * identifier must not start with a digit, be taken already, or look
 * like a common field.
 */
static bool rt_mark_name(struct rt_mark_format *out, unsigned int idx,
			 const char *lit, unsigned int len)
{
	struct rt_mark_field *f = &out->f[idx];
	unsigned int end = len, start, i;

	while (end && lit[end - 1] == ' ')
		end--;
	if (end && (lit[end - 1] == '=' || lit[end - 1] == ':'))
		end--;
	while (end && lit[end - 1] == ' ')
		end--;
	start = end;
	while (start && rt_mark_ident_char(lit[start - 1]))
		start--;
	if (start == end || end - start >= RT_MARK_MAX_NAME ||
	    (lit[start] >= '0' && lit[start] <= '9') ||
	    (end - start >= 7 && !strncmp(lit + start, "common_", 7)))
		goto numbered;
	memcpy(f->name, lit + start, end - start);
	f->name[end - start] = '\0';
	for (i = 0; i < idx; i++)
		if (!strcmp(out->f[i].name, f->name))
			goto numbered;
	return true;
numbered:
	/* A word may have taken argN already: add '_' until it is free. */
	len = snprintf(f->name, sizeof(f->name), "arg%u", idx);
	for (i = 0; i < idx; i++) {
		if (strcmp(out->f[i].name, f->name))
			continue;
		if (len + 1 >= RT_MARK_MAX_NAME)
			return false;	/* only a contrived format gets here */
		f->name[len++] = '_';
		f->name[len] = '\0';
		i = -1U;		/* and check all of them again */
	}
	return true;
}

/**
 * rt_mark_format_parse - a marker format string to its fields
 * @fmt: the format ("len %u name %s"); "" and " " have no fields
 * @out: the fields
 * @err_pos: on error, the offset of the character refused
 *
 * Return: 0, -EINVAL for a conversion that is refused (see the file
 * comment) or a field left without a name of its own (only a contrived
 * format runs out of argN_ names), -E2BIG for more than
 * RT_MARK_MAX_FIELDS conversions or a format longer than
 * RT_MARK_MAX_FORMAT.
 */
int rt_mark_format_parse(const char *fmt, struct rt_mark_format *out,
			 unsigned int *err_pos)
{
	unsigned int pos = 0, lit = 0, idx;
	struct rt_mark_field *f;
	int mod;

	out->nr = 0;
	*err_pos = 0;
	/* Bounded first: offsets and lengths then fit their fields. */
	if (strnlen(fmt, RT_MARK_MAX_FORMAT + 1) > RT_MARK_MAX_FORMAT) {
		*err_pos = RT_MARK_MAX_FORMAT;
		return -E2BIG;
	}
	while (fmt[pos]) {
		if (fmt[pos] != '%') {
			pos++;
			continue;
		}
		if (fmt[pos + 1] == '%') {
			pos += 2;
			continue;
		}
		idx = out->nr;
		if (idx == RT_MARK_MAX_FIELDS) {
			*err_pos = pos;
			return -E2BIG;
		}
		f = &out->f[idx];
		memset(f, 0, sizeof(*f));
		f->spec = pos++;
		while (fmt[pos] && strchr("-+ #0", fmt[pos]))
			pos++;
		while (fmt[pos] >= '0' && fmt[pos] <= '9')
			pos++;
		if (fmt[pos] == '.') {
			pos++;
			while (fmt[pos] >= '0' && fmt[pos] <= '9')
				pos++;
		}
		pos += rt_mark_len_mod(fmt + pos, &mod);
		switch (fmt[pos]) {
		case 'd':
		case 'i':
			rt_mark_int_field(f, mod, true);
			break;
		case 'u':
		case 'o':
		case 'x':
		case 'X':
			rt_mark_int_field(f, mod, false);
			break;
		case 'c':
			if (mod != RT_LEN_NONE)
				goto bad;
			f->arg = RT_MARK_INT;
			f->size = 1;
			f->type = "char";
			break;
		case 's':
			if (mod != RT_LEN_NONE)
				goto bad;
			f->arg = RT_MARK_STR;
			f->size = 4;
			f->type = "__data_loc char[]";
			break;
		case 'p':
			if (mod != RT_LEN_NONE)
				goto bad;
			f->arg = RT_MARK_PTR;
			f->size = 8;
			f->type = "void *";
			if (fmt[pos + 1] && strchr("SsBx", fmt[pos + 1])) {
				pos++;
				if (rt_mark_alnum(fmt[pos + 1])) {
					pos++;
					goto bad;
				}
			} else if (rt_mark_alnum(fmt[pos + 1])) {
				pos++;
				goto bad;
			}
			break;
		default:
			goto bad;
		}
		f->conv = f->arg == RT_MARK_PTR ? 'p' : fmt[pos];
		pos++;
		f->spec_len = pos - f->spec;
		if (!rt_mark_name(out, idx, fmt + lit, f->spec - lit)) {
			pos = f->spec;
			goto bad;
		}
		lit = pos;
		out->nr++;
	}
	return 0;
bad:
	*err_pos = pos;
	return -EINVAL;
}
