// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests for the kprobe_events parser: every syntax form of the
 * grammar, every fetch argument and type, and each error with its
 * errno.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pure_shim.h"
#include <trace/retrace/probe_def.h>

static int failures;

static void check(const char *name, int cond)
{
	printf("%s %s\n", cond ? "ok" : "not ok", name);
	if (!cond)
		failures++;
}

static struct rt_probe_def *parse(const char *line)
{
	struct rt_probe_def *d;
	struct rt_probe_error err;
	int ret = rt_probe_parse(line, &d, &err);

	if (ret) {
		printf("# '%s': %d %s\n", line, ret, err.msg);
		return NULL;
	}
	return d;
}

static void test_heads(void)
{
	struct rt_probe_def *d;

	d = parse("p:myprobe do_sys_open");
	check("probe p:EVENT SYM", d && d->cmd == 'p' &&
	      !strcmp(d->group, "kprobes") && !strcmp(d->event, "myprobe") &&
	      !strcmp(d->sym, "do_sys_open") && !d->offset && !d->mod &&
	      !d->nr_args);
	rt_probe_def_free(d);

	d = parse("p:grp/ev vfs_read+0x10");
	check("probe p:GRP/EVENT SYM+offs", d && !strcmp(d->group, "grp") &&
	      !strcmp(d->event, "ev") && d->offset == 16);
	rt_probe_def_free(d);

	d = parse("p vfs_read+12");
	check("probe generated name", d && !strcmp(d->event, "p_vfs_read_12") &&
	      !strcmp(d->group, "kprobes"));
	rt_probe_def_free(d);

	d = parse("r do_sys_open");
	check("probe r generated name", d && d->cmd == 'r' &&
	      !strcmp(d->event, "r_do_sys_open_0"));
	rt_probe_def_free(d);

	d = parse("r:rp do_sys_open+0 $retval");
	check("probe r SYM+0", d && !d->offset && d->nr_args == 1 &&
	      d->args[0].base == RT_FETCH_RETVAL &&
	      !strcmp(d->args[0].name, "arg1"));
	rt_probe_def_free(d);

	d = parse("p rt_func_test:rt_func_test_leaf");
	check("probe MOD:SYM", d && !strcmp(d->mod, "rt_func_test") &&
	      !strcmp(d->sym, "rt_func_test_leaf") &&
	      !strcmp(d->event, "p_rt_func_test_rt_func_test_leaf_0"));
	rt_probe_def_free(d);

	d = parse("p 0xffffffff81000000");
	check("probe MEMADDR", d && !d->sym && d->addr == 0xffffffff81000000UL &&
	      !strcmp(d->event, "p_0xffffffff81000000"));
	rt_probe_def_free(d);

	d = parse("p foo.isra.0");
	check("probe dotted symbol", d && !strcmp(d->sym, "foo.isra.0") &&
	      !strcmp(d->event, "p_foo_isra_0_0"));
	rt_probe_def_free(d);

	d = parse("-:myprobe");
	check("probe -:EVENT", d && d->cmd == '-' && !strcmp(d->event, "myprobe") &&
	      !strcmp(d->group, "kprobes"));
	rt_probe_def_free(d);

	d = parse("-:g/e");
	check("probe -:GRP/EVENT", d && !strcmp(d->group, "g") && !d->spec_pos);
	rt_probe_def_free(d);

	d = parse("-:g/e  foo+4 a=%di");
	check("probe -:GRP/EVENT PROBE", d && d->cmd == '-' &&
	      !strcmp(d->event, "e") && d->spec_pos == 7);
	rt_probe_def_free(d);

	d = parse("   \t ");
	check("probe blank line", !d);
	d = parse("# a comment");
	check("probe comment", !d);
	d = parse("  p:x   f   %di   ");
	check("probe extra spaces", d && d->nr_args == 1);
	rt_probe_def_free(d);
}

static void test_args(void)
{
	struct rt_probe_def *d;
	struct rt_probe_arg *a;

	d = parse("p:myprobe do_sys_open dfd=%ax filename=%dx flags=%cx mode=+4($stack)");
	check("probe spec example", d && d->nr_args == 4);
	if (d) {
		a = d->args;
		check("arg %ax", !strcmp(a[0].name, "dfd") &&
		      a[0].base == RT_FETCH_REG && a[0].reg == 10 &&
		      a[0].type == RT_FETCH_U64 && a[0].size == 8 && !a[0].nr_deref);
		check("arg %dx and %cx", a[1].reg == 12 && a[2].reg == 11);
		check("arg +4($stack)", a[3].base == RT_FETCH_STACKP &&
		      a[3].nr_deref == 1 && a[3].deref[0] == 4);
	}
	rt_probe_def_free(d);

	d = parse("p f %rdi %r8 %sp %rip %flags %orig_ax");
	check("arg register spellings", d && d->args[0].reg == 14 &&
	      d->args[1].reg == 9 && d->args[2].reg == 19 &&
	      d->args[3].reg == 16 && d->args[4].reg == 18 &&
	      d->args[5].reg == 15 && !strcmp(d->args[0].name, "arg1") &&
	      !strcmp(d->args[5].name, "arg6"));
	rt_probe_def_free(d);

	d = parse("p f $stack $stack0 $stack3 @0x1000 @jiffies @sym+8 @sym-0x10");
	if (d) {
		a = d->args;
		check("arg $stack", a[0].base == RT_FETCH_STACKP && !a[0].nr_deref);
		check("arg $stack0/$stack3", a[1].nr_deref == 1 &&
		      !a[1].deref[0] && a[2].deref[0] == 24);
		check("arg @ADDR", a[3].base == RT_FETCH_IMM &&
		      a[3].imm == 0x1000 && a[3].nr_deref == 1 && !a[3].deref[0]);
		check("arg @SYM", a[4].base == RT_FETCH_SYM &&
		      !strcmp(a[4].sym, "jiffies") && !a[4].imm);
		check("arg @SYM+offs @SYM-offs", a[5].imm == 8 &&
		      (long)a[6].imm == -16 && !strcmp(a[6].sym, "sym"));
	} else {
		check("arg stack and memory forms", 0);
	}
	rt_probe_def_free(d);

	d = parse("p f x=+8(-4(+0x10(%di))):s32");
	if (d) {
		a = d->args;
		check("arg nested derefs, innermost first",
		      a->nr_deref == 3 && a->deref[0] == 16 &&
		      a->deref[1] == -4 && a->deref[2] == 8 &&
		      a->type == RT_FETCH_S32 && a->size == 4 && a->is_signed &&
		      !strcmp(a->name, "x"));
	} else {
		check("arg nested derefs", 0);
	}
	rt_probe_def_free(d);

	d = parse("p f +8(+8($stack2))");
	check("arg nested on $stackN", d && d->args[0].nr_deref == 3 &&
	      d->args[0].deref[0] == 16 && d->args[0].deref[2] == 8 &&
	      !strcmp(d->args[0].name, "arg1"));
	rt_probe_def_free(d);
}

/* r<N>, SYM%return, and the listing of each. */
static void test_returns(void)
{
	struct rt_probe_def *d;
	char buf[256];

	d = parse("r10:rp vfs_read");
	check("return r10 maxactive", d && d->cmd == 'r' && d->maxactive == 10 &&
	      !strcmp(d->event, "rp"));
	check("return r10 listing", d && rt_probe_def_format(d, buf, sizeof(buf)) > 0 &&
	      !strcmp(buf, "r10:kprobes/rp vfs_read+0"));
	rt_probe_def_free(d);
	d = parse("r4096 vfs_read");
	check("return r4096, generated name", d && d->maxactive == 4096 &&
	      !strcmp(d->event, "r_vfs_read_0"));
	rt_probe_def_free(d);
	d = parse("r:rp vfs_read");
	check("return r without maxactive", d && !d->maxactive &&
	      rt_probe_def_format(d, buf, sizeof(buf)) > 0 &&
	      !strcmp(buf, "r:kprobes/rp vfs_read+0"));
	rt_probe_def_free(d);
	d = parse("p:rp vfs_read%return $retval");
	check("return SYM%return is r", d && d->cmd == 'r' && !d->maxactive &&
	      !strcmp(d->sym, "vfs_read") && d->nr_args == 1 &&
	      d->args[0].base == RT_FETCH_RETVAL &&
	      rt_probe_def_format(d, buf, sizeof(buf)) > 0 &&
	      !strcmp(buf, "r:kprobes/rp vfs_read+0 arg1=$retval"));
	rt_probe_def_free(d);
	d = parse("r10:rp vfs_read%return");
	check("return r10 with SYM%return", d && d->cmd == 'r' &&
	      d->maxactive == 10 && !strcmp(d->sym, "vfs_read"));
	rt_probe_def_free(d);
	d = parse("p mod:vfs_read+0%return");
	check("return MOD:SYM+0%return, generated name",
	      d && d->cmd == 'r' && !strcmp(d->mod, "mod") &&
	      !strcmp(d->event, "r_mod_vfs_read_0"));
	rt_probe_def_free(d);
}

static void test_types(void)
{
	static const struct { const char *t; int type, size, sgn, hex; } t[] = {
		{ "u8", RT_FETCH_U8, 1, 0 }, { "u16", RT_FETCH_U16, 2, 0 },
		{ "u32", RT_FETCH_U32, 4, 0 }, { "u64", RT_FETCH_U64, 8, 0 },
		{ "s8", RT_FETCH_S8, 1, 1 }, { "s16", RT_FETCH_S16, 2, 1 },
		{ "s32", RT_FETCH_S32, 4, 1 }, { "s64", RT_FETCH_S64, 8, 1 },
		{ "x8", RT_FETCH_U8, 1, 0, 1 }, { "x16", RT_FETCH_U16, 2, 0, 1 },
		{ "x32", RT_FETCH_U32, 4, 0, 1 }, { "x64", RT_FETCH_U64, 8, 0, 1 },
		{ "string", RT_FETCH_STRING, 0, 0 },
	};
	struct rt_probe_def *d;
	char line[64], name[64];
	unsigned int i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		snprintf(line, sizeof(line), "p f a=+0(%%di):%s", t[i].t);
		d = parse(line);
		snprintf(name, sizeof(name), "type %s", t[i].t);
		check(name, d && d->args[0].type == t[i].type &&
		      d->args[0].size == t[i].size &&
		      d->args[0].is_signed == t[i].sgn &&
		      d->args[0].hex == t[i].hex);
		rt_probe_def_free(d);
	}
	d = parse("p f $comm c=$comm:string");
	check("type $comm is a string", d && d->args[0].base == RT_FETCH_COMM &&
	      d->args[0].type == RT_FETCH_STRING && !d->args[0].nr_deref &&
	      d->args[1].type == RT_FETCH_STRING);
	rt_probe_def_free(d);
	d = parse("p f @0x1000:string +0($stack):string");
	check("type string at @ADDR and +0($stack)",
	      d && d->args[0].type == RT_FETCH_STRING &&
	      d->args[1].type == RT_FETCH_STRING);
	rt_probe_def_free(d);
	d = parse("p f %di:b4@3/32 +0(%si):b1@0/8 %dx:b64@0/64");
	check("type bitfields", d && d->args[0].type == RT_FETCH_BITFIELD &&
	      d->args[0].bf_width == 4 && d->args[0].bf_offset == 3 &&
	      d->args[0].size == 4 && d->args[1].size == 1 &&
	      d->args[2].bf_width == 64 && !strcmp(d->args[0].name, "arg1"));
	rt_probe_def_free(d);
	d = parse("p f $arg1 b=$arg6 $arg7 +8($arg2):u32");
	check("$argN at entry", d && d->args[0].base == RT_FETCH_ARG &&
	      d->args[0].reg == 0 && d->args[1].reg == 5 &&
	      d->args[2].reg == 6 && d->args[3].base == RT_FETCH_ARG &&
	      d->args[3].nr_deref == 1 && !d->args[3].user);
	rt_probe_def_free(d);
	d = parse("r f a=$arg1 $retval");
	check("$argN in a return probe", d && d->cmd == 'r' &&
	      d->args[0].base == RT_FETCH_ARG && d->args[0].reg == 0);
	rt_probe_def_free(d);
	d = parse("p f%return $arg2");
	check("$argN in SYM%return", d && d->cmd == 'r' &&
	      d->args[0].base == RT_FETCH_ARG && d->args[0].reg == 1);
	rt_probe_def_free(d);
	d = parse("p f+0 $arg128");
	check("$argN at SYM+0, the highest N",
	      d && d->args[0].base == RT_FETCH_ARG && d->args[0].reg == 127);
	rt_probe_def_free(d);
	d = parse("p f a=+0($arg2):ustring b=+u0($arg2):string c=+u8(+0(%di)):u64 e=+0(+u8(%di)):string");
	check("user memory: ustring, +u as the string's step, +u inside",
	      d && d->args[0].ustr && !d->args[0].user &&
	      d->args[1].ustr && d->args[1].user == 1 &&
	      !d->args[2].ustr && d->args[2].user == 2 &&
	      d->args[2].nr_deref == 2 && !d->args[3].ustr &&
	      d->args[3].user == 1);
	rt_probe_def_free(d);
	d = parse("p f $arg1:%pd n=%si:%pD +8(%di):%pd");
	check("%pd and %pD on a pointer, a register or a deref",
	      d && d->args[0].vfs == RT_VFS_DENTRY &&
	      d->args[0].type == RT_FETCH_STRING && !d->args[0].nr_deref &&
	      d->args[1].vfs == RT_VFS_FILE && d->args[2].vfs == RT_VFS_DENTRY &&
	      d->args[2].nr_deref == 1 && !d->args[0].ustr);
	rt_probe_def_free(d);
	d = parse("p f +0(%di):string @jiffies:u32");
	check("type string via deref, typed @SYM",
	      d && d->args[0].type == RT_FETCH_STRING &&
	      d->args[1].type == RT_FETCH_U32);
	rt_probe_def_free(d);
	d = parse("p f +0(%di):char %si:symbol $arg3:symstr r=+8(%di):symstr");
	check("types char, symbol, symstr",
	      d && d->args[0].type == RT_FETCH_CHAR && d->args[0].size == 1 &&
	      !d->args[0].is_signed && !d->args[0].count &&
	      d->args[1].type == RT_FETCH_SYMBOL && d->args[1].size == 8 &&
	      !d->args[1].nr_deref && d->args[2].type == RT_FETCH_SYMSTR &&
	      d->args[2].base == RT_FETCH_ARG &&
	      d->args[3].type == RT_FETCH_SYMSTR && d->args[3].nr_deref == 1);
	rt_probe_def_free(d);
	d = parse("p f +0(%di):char[4] +4(%si):u32[0x10] @jiffies:x64[2] +0($stack):s8[64]");
	check("arrays of chars and numbers",
	      d && d->nr_args == 4 &&
	      d->args[0].type == RT_FETCH_CHAR && d->args[0].count == 4 &&
	      d->args[1].type == RT_FETCH_U32 && d->args[1].count == 16 &&
	      d->args[2].hex && d->args[2].count == 2 &&
	      d->args[3].is_signed && d->args[3].count == 64);
	rt_probe_def_free(d);
	d = parse("p f +0(%dx):string[3] +u0(%cx):ustring[2] +0(%di):symbol[1] +u0(%si):u16[3]");
	check("arrays of strings, symbols and user memory",
	      d && d->nr_args == 4 &&
	      d->args[0].type == RT_FETCH_STRING && d->args[0].count == 3 &&
	      !d->args[0].ustr && d->args[1].ustr && d->args[1].count == 2 &&
	      d->args[2].type == RT_FETCH_SYMBOL && d->args[2].count == 1 &&
	      d->args[3].user == 1 && d->args[3].count == 3);
	rt_probe_def_free(d);
}

static void test_errors(void)
{
	static const struct { const char *l; int err; } t[] = {
		{ "x f", -EINVAL }, { "p:", -EINVAL }, { "pp f", -EINVAL },
		{ "p", -EINVAL }, { "-", -EINVAL }, { "-: f", -EINVAL },
		{ "p:1ev f", -EINVAL }, { "p:g/ f", -EINVAL },
		{ "p:/e f", -EINVAL }, { "p:g/e/x f", -EINVAL },
		{ "p:e f+", -EINVAL }, { "p:e f+x", -EINVAL },
		{ "p:e f-4", -EINVAL }, { "p:e 0xzz", -EINVAL },
		{ "p:e a:b:c", -EINVAL }, { "p:e :f", -EINVAL },
		{ "r:e f+4", -EINVAL }, { "r:e 0x1000", -EINVAL },
		{ "p:e f $retval", -EINVAL }, { "p:e f %xx", -EINVAL },
		{ "p:e f %eax", -EINVAL }, { "p:e f %rcs", -EINVAL },
		{ "p:e f %", -EINVAL }, { "p:e f x=%di:u128", -EINVAL },
		{ "p:e f %di:", -EINVAL }, { "p:e f %di:b0@0/32", -EINVAL },
		{ "p:e f %di:b33@0/32", -EINVAL },
		{ "p:e f %di:b4@30/32", -EINVAL },
		{ "p:e f %di:b4@0/24", -EINVAL }, { "p:e f %di:b4@/32", -EINVAL },
		{ "p:e f %di:b4", -EINVAL }, { "p:e f +4(%di", -EINVAL },
		{ "p:e f %di:u8[4]", -EINVAL }, { "p:e f $arg1:char[2]", -EINVAL },
		{ "p:e f +0(%di):u8[0]", -EINVAL }, { "p:e f +0(%di):u8[65]", -E2BIG },
		{ "p:e f +0(%di):u8[4", -EINVAL }, { "p:e f +0(%di):u8[4]x", -EINVAL },
		{ "p:e f +0(%di):u8[x]", -EINVAL }, { "p:e f +0(%di):u8[]", -EINVAL },
		{ "p:e f +0(%di):u8[-1]", -EINVAL }, { "p:e f +0(%di):b4@0/8[2]", -EINVAL },
		{ "p:e f +0(%di):%pd[2]", -EINVAL }, { "p:e f %di:symstr[2]", -EINVAL },
		{ "p:e f $comm:string[2]", -EINVAL }, { "p:e f $comm:symstr", -EINVAL },
		{ "p:e f +u0(%di):symstr", -EINVAL }, { "p:e f %di:chars", -EINVAL },
		{ "p:e f %di:u8[4][4]", -EINVAL }, { "p:e f %di:[4]", -EINVAL },
		{ "p:e f $stack0:u8[8]", -EINVAL },
		{ "p:e f +1(+1(+1(+1(+1(+1(+1(+1(+1(+1(+1(+1(+1(@jiffies)))))))))))))", -E2BIG },
		{ "p:e f +0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(@0))))))))))))))", -E2BIG },
		{ "p:e f +0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(%di)))))))))))))))", -E2BIG },
		{ "p:e f +4%di)", -EINVAL }, { "p:e f +4(%di))", -EINVAL },
		{ "p:e f +(%di)", -EINVAL }, { "p:e f +x(%di)", -EINVAL },
		{ "p:e f 4(%di)", -EINVAL }, { "p:e f $stackx", -EINVAL },
		{ "p:e f $stack0x8", -EINVAL }, { "p:e f $stack99999", -EINVAL },
		{ "p:e f @", -EINVAL }, { "p:e f @sym+", -EINVAL },
		{ "p:e f @0xg", -EINVAL }, { "p:e f 1=%di", -EINVAL },
		{ "p:e f =%di", -EINVAL }, { "p:e f a=", -EINVAL },
		{ "p:e f a=%di a=%si", -EINVAL }, { "p:e f arg2=%di %di", -EINVAL },
		{ "p:e f common_pid=%di", -EINVAL },
		{ "p:e f __probe_ip=%di", -EINVAL }, { "p:e f plain", -EINVAL },
		{ "p:e f 1234", -EINVAL }, { "p:e f +0(+0())", -EINVAL },
		{ "p:e f a=%di=%si", -EINVAL },
		{ "p:e f %di:string", -EINVAL }, { "p:e f $stack:string", -EINVAL },
		{ "p:e f $stack1:string", -EINVAL },
		{ "r:e f $retval:string", -EINVAL },
		{ "p:e f $comm:x64", -EINVAL }, { "p:e f +10($comm)", -EINVAL },
		{ "p:e f $comm:u8", -EINVAL }, { "p:e f $commx", -EINVAL },
		{ "p:e f %di:x128", -EINVAL }, { "p:e f %di:x", -EINVAL },
		{ "p:e f $arg0", -EINVAL }, { "p:e f $arg129", -EINVAL },
		{ "p:e f $arg", -EINVAL }, { "p:e f $argx", -EINVAL },
		{ "p:e f $arg0x1", -EINVAL }, { "p:e f+4 $arg1", -EINVAL },
		{ "p:e 0x1000 $arg1", -EINVAL }, { "p:e f $arg1:ustring", -EINVAL },
		{ "p:e f +u(%di)", -EINVAL }, { "p:e f +ux8(%di)", -EINVAL },
		{ "p:e f +u0(%di):%pd", -EINVAL }, { "p:e f %di:%px", -EINVAL },
		{ "p:e f +0(%di):%pd%", -EINVAL }, { "p:e f $comm:%pd", -EINVAL },
		{ "p:e f $comm:%pD", -EINVAL }, { "p:e f $comm:ustring", -EINVAL },
		{ "p10:e f", -EINVAL }, { "r0:e f", -EINVAL },
		{ "r4097:e f", -EINVAL }, { "r1000000 f", -EINVAL },
		{ "r10fuzz:e f", -EINVAL }, { "r10: f", -EINVAL },
		{ "r10x f", -EINVAL }, { "a:e f", -EINVAL },
		{ "-5:e", -EINVAL },
		{ "p:e f+4%return", -EINVAL }, { "p:e 0x1000%return", -EINVAL },
		{ "p:e %return", -EINVAL }, { "p:e f%returnx", -EINVAL },
	};
	struct rt_probe_def *d;
	struct rt_probe_error err;
	char name[128];
	unsigned int i;
	int ret;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		d = (void *)1;
		ret = rt_probe_parse(t[i].l, &d, &err);
		snprintf(name, sizeof(name), "error '%s' -> %d (%s)", t[i].l,
			 ret, err.msg ? err.msg : "");
		check(name, ret == t[i].err && !d && err.msg &&
		      err.pos <= strlen(t[i].l));
	}
}

/*
 * Where error_log's caret points: each line marks the expected offset
 * with '^', which is removed before parsing.  These are the cases of
 * upstream's ftracetest kprobe_syntax_errors.tc that retrace's syntax
 * covers (its README decides which of them run), with their positions.
 */
static void test_error_positions(void)
{
	static const char *const t[] = {
		"p^100 vfs_read",			/* maxactive on p */
		"r^1a111 vfs_read",			/* bad maxactive */
		"r^100000 vfs_read",			/* maxactive too big */
		"p ^hoge-fuga",				/* bad probe point */
		"p ^hoge+1000-1000",
		"r ^vfs_read+10",			/* offset on a return probe */
		"p:^/bar vfs_read",			/* empty group */
		"p:^12345678901234567890123456789012345678901234567890123456789012345/bar vfs_read",
		"p:^foo.1/bar vfs_read",
		"p:^ vfs_read",				/* empty event */
		"p:foo/^12345678901234567890123456789012345678901234567890123456789012345 vfs_read",
		"p:foo/^bar.1 vfs_read",
		"p vfs_read ^$retval",
		"p vfs_read ^$stack10000",
		"p vfs_read ^$arg10000",		/* N too big */
		"p vfs_read ^$arg*",			/* no BTF names here */
		"p vfs_read ^$none_var",
		"p vfs_read ^%none_reg",
		"p vfs_read ^@12345678abcde",
		"p vfs_read ^@+10",
		"p vfs_read ^+0@0)",			/* no '(' */
		"p vfs_read ^+0ab1(@0)",		/* bad offset */
		"p vfs_read +0(+0(@0^)",		/* no ')' */
		"p vfs_read +0(^$comm)",
		"p vfs_read ^&1",
		"p vfs_read @11:^unknown_type",
		"p vfs_read $stack0:^string",
		"p vfs_read @11:^b10@a/16",
		"p vfs_read +0(@11):u8[10^",		/* array not closed */
		"p vfs_read +0(@11):u8[10]^a",		/* text after ']' */
		"p vfs_read +0(@11):u8[^10a]",		/* bad array size */
		"p vfs_read +0(@11):u8[^256]",		/* array too big */
		"p vfs_read +0(^+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(@0))))))))))))))",
		"p vfs_read +0(^+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(%di)))))))))))))))",
		"p vfs_read +1(^+1(+1(+1(+1(+1(+1(+1(+1(+1(+1(+1(+1(@jiffies)))))))))))))",
		"p vfs_read +0(+0(^+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(@0)))))))))))))))",
		"p vfs_read ^arg123456789012345678901234567890=@11",
		"p vfs_read ^=@11",
		"p vfs_read ^var.1=@11",
		"p vfs_read var1=@11 ^var1=@12",
		"p vfs_read ^+1234567(+1234567(+1234567(+1234567(+1234567(+1234567(@1234))))))",
		"p vfs_read arg1=^",
		"p vfs_read^%hoge",			/* unknown suffix */
		"p ^vfs_read+10%return",
		"p vfs_read ^$arg*",
		"^x vfs_read",				/* unknown command */
		"p vfs_read ^%zz x=",			/* the first error wins */
		"p vfs_read a=%di ^a=%zz",		/* a used name, before the body */
		"p:e^",					/* no probe point */
	};
	struct rt_probe_def *d;
	struct rt_probe_error err;
	char line[160], name[256];
	unsigned int i, want;
	const char *caret;
	int ret;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		caret = strchr(t[i], '^');
		want = caret - t[i];
		snprintf(line, sizeof(line), "%.*s%s", (int)want, t[i],
			 caret + 1);
		ret = rt_probe_parse(line, &d, &err);
		snprintf(name, sizeof(name), "error position '%s' -> %u (%s)",
			 t[i], ret ? err.pos : 0, ret ? err.msg : "parsed");
		check(name, ret && !d && err.pos == want);
		rt_probe_def_free(d);
	}
}

static void test_limits(void)
{
	char *line = malloc(RT_PROBE_MAX_LINE + 64);
	struct rt_probe_def *d;
	struct rt_probe_error err;
	unsigned int i, n;
	int ret;

	n = sprintf(line, "p:e f");
	for (i = 0; i < RT_PROBE_MAX_ARGS; i++)
		n += sprintf(line + n, " a%u=%%di", i);
	d = parse(line);
	check("limit 128 arguments", d && d->nr_args == RT_PROBE_MAX_ARGS);
	rt_probe_def_free(d);
	sprintf(line + n, " z=%%si");
	ret = rt_probe_parse(line, &d, &err);
	check("limit 129 arguments is E2BIG", ret == -E2BIG && !d);

	memset(line, ' ', RT_PROBE_MAX_LINE + 1);
	memcpy(line, "p f", 3);
	line[RT_PROBE_MAX_LINE + 1] = 0;
	ret = rt_probe_parse(line, &d, &err);
	check("limit line length", ret == -E2BIG && !d);

	/* Upstream's 15 steps: 14 prefixes on a register (or $stackN). */
	n = sprintf(line, "p f x=");
	for (i = 0; i < 14; i++)
		n += sprintf(line + n, "+1(");
	n += sprintf(line + n, "%%di");
	for (i = 0; i < 14; i++)
		line[n++] = ')';
	line[n] = 0;
	d = parse(line);
	check("limit 14 nested derefs", d && d->args[0].nr_deref == 14);
	rt_probe_def_free(d);
	d = parse("p f x=+1(+1(+1(+1(+1(+1(+1(+1(+1(+1(+1(+1(+1(@0)))))))))))))");
	check("limit 13 prefixes on @ADDR", d && d->args[0].nr_deref == 14);
	rt_probe_def_free(d);
	d = parse("p f +0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0($stack0))))))))))))))");
	check("limit 14 prefixes on $stackN", d && d->args[0].nr_deref == 15);
	rt_probe_def_free(d);
	d = parse("p f +1(+1(+1(+1(+1(+1(+1(+1(+1(+1(+1(+1(@jiffies))))))))))))");
	check("limit 12 prefixes on @SYM", d && d->args[0].nr_deref == 13);
	rt_probe_def_free(d);
	n = sprintf(line, "p f x=");
	memset(line + n, 'a', RT_PROBE_MAX_ARG_BODY);
	line[n] = '@';
	line[n + RT_PROBE_MAX_ARG_BODY] = 0;
	d = parse(line);
	check("limit argument of 63 bytes", d && d->nr_args == 1);
	rt_probe_def_free(d);
	strcpy(line + n + RT_PROBE_MAX_ARG_BODY, "a");
	ret = rt_probe_parse(line, &d, &err);
	check("limit argument of 64 bytes is E2BIG", ret == -E2BIG && !d &&
	      err.pos == (unsigned int)n);
	n = sprintf(line, "p f ");
	memset(line + n, 'n', RT_PROBE_MAX_ARG_NAME);
	strcpy(line + n + RT_PROBE_MAX_ARG_NAME, "=%di");
	d = parse(line);
	check("limit argument name of 32", d && d->nr_args == 1);
	rt_probe_def_free(d);
	memset(line + n, 'n', RT_PROBE_MAX_ARG_NAME + 1);
	strcpy(line + n + RT_PROBE_MAX_ARG_NAME + 1, "=%di");
	ret = rt_probe_parse(line, &d, &err);
	check("limit argument name of 33 is EINVAL", ret == -EINVAL && !d);

	n = sprintf(line, "p:");
	memset(line + n, 'e', RT_PROBE_MAX_NAME);
	strcpy(line + n + RT_PROBE_MAX_NAME, " f");
	ret = rt_probe_parse(line, &d, &err);
	check("limit event name length", ret == -EINVAL && !d);
	n = sprintf(line, "p ");
	memset(line + n, 's', 100);
	strcpy(line + n + 100, "+1");
	ret = rt_probe_parse(line, &d, &err);
	check("limit generated name length", ret == -EINVAL && !d);
	free(line);
}

int main(void)
{
	test_heads();
	test_args();
	test_types();
	test_returns();
	test_errors();
	test_error_positions();
	test_limits();
	printf("# probe_test: %d failure(s)\n", failures);
	return failures ? 1 : 0;
}
