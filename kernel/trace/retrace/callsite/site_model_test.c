// SPDX-License-Identifier: GPL-2.0
/*
 * Exhaustive model test of the call-site protocol (site.c).
 *
 * A small text buffer holds two functions, A (core kernel) and B (a
 * module's), each starting with a 5-byte call site.  A model patcher
 * keeps a struct rt_callsite per site and three clients:
 *
 *   0  the function tracer      (no regs; wants a site when on and the
 *                                filter is empty or names it)
 *   1  traceon/traceoff commands (no regs; here on B)
 *   2  a kprobe on A's site      (needs regs)
 *
 * Beside them a kprobe at A+5 (inside the function, over "push %rbp")
 * writes its own int3 and keeps its own saved byte.
 *
 * Every sequence of at most MAX_DEPTH operations over the alphabet
 * below is run (depth-first, the state copied per depth), and after
 * every step:
 *
 *   1. each live site holds a legal instruction (NOP5, call __fentry__,
 *      call retrace_caller, call retrace_regs_caller) equal to
 *      rt_cs_encode() of its state;
 *   2. executing each live site reaches exactly the clients that want
 *      it: a NOP nobody, a call to a caller the dispatcher, which calls
 *      the clients whose bit the site has (regs clients only through
 *      the regs caller);
 *   3. the byte at A+5 is 0xcc exactly while that kprobe is armed;
 *   4. rt_cs_apply() never found foreign bytes (-EBUSY).
 *
 * Built with -DRT_MODEL_OLD_PROTOCOL the kprobe on A's site follows the
 * old protocol instead: registered for the whole run, it saved a copy
 * of the site's bytes at registration, writes 0xcc over byte 0 when
 * armed and puts the saved byte back when disarmed, and the patcher
 * skips sites whose bytes are foreign.  That build must fail, and
 * prints the shortest sequence that breaks each check (check 1 shows
 * the "0f <rel32>" invalid opcode of the real oops).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pure_shim.h"
#include <trace/retrace/callsite.h>

#ifndef MAX_DEPTH
#define MAX_DEPTH	6
#endif

#define BIT(n)		(1u << (n))

enum { CL_FUNC, CL_CMD, CL_KPROBE, NR_CLIENTS };
static const bool client_needs_regs[NR_CLIENTS] = { false, false, true };
static const char *const client_name[NR_CLIENTS] = {
	"function tracer", "commands", "kprobe on site",
};

#ifdef RT_MODEL_OLD_PROTOCOL
/* The old kprobe was no client: the patcher knew no regs client. */
static const unsigned int regs_mask;
#else
static const unsigned int regs_mask = BIT(CL_KPROBE);
#endif

/* --- the text --------------------------------------------------------- */

enum { SITE_A, SITE_B, NR_SITES };

#define TEXT_SIZE	64
#define FUNC_SIZE	16
#define OFF_KPROBE	RT_CS_SITE_SIZE	/* A+5: push %rbp */
#define POISON		0x6b		/* freed module text */

static const u8 nop5[RT_CS_SITE_SIZE] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };
/* push %rbp; mov %rsp,%rbp; xor %eax,%eax; pop %rbp; ret */
static const u8 body[] = { 0x55, 0x48, 0x89, 0xe5, 0x31, 0xc0, 0x5d, 0xc3 };

static struct rt_cs_targets targets;

static unsigned long site_ip(int s);

static unsigned int site_off(int s)
{
	return s * FUNC_SIZE;
}

/* Built by hand, not by rt_cs_encode(): the reference it is checked against. */
static void make_call(u8 *insn, unsigned long ip, unsigned long dest)
{
	long rel = (long)dest - (long)(ip + RT_CS_SITE_SIZE);
	s32 r = (s32)rel;

	insn[0] = 0xe8;
	memcpy(insn + 1, &r, 4);
}

/* What executing a site does. */
enum insn_kind { INSN_NOP, INSN_FENTRY, INSN_CALLER, INSN_REGS_CALLER, INSN_BAD };

static enum insn_kind decode(const u8 *b, unsigned long ip)
{
	s32 rel;
	unsigned long dest;

	if (!memcmp(b, nop5, RT_CS_SITE_SIZE))
		return INSN_NOP;
	if (b[0] != 0xe8)
		return INSN_BAD;
	memcpy(&rel, b + 1, 4);
	dest = ip + RT_CS_SITE_SIZE + (long)rel;
	if (dest == targets.fentry)
		return INSN_FENTRY;
	if (dest == targets.caller)
		return INSN_CALLER;
	if (dest == targets.regs_caller)
		return INSN_REGS_CALLER;
	return INSN_BAD;
}

static const enum rt_cs_state kind_state[] = {
	[INSN_NOP] = RT_CS_NOP, [INSN_FENTRY] = RT_CS_FENTRY,
	[INSN_CALLER] = RT_CS_CALL, [INSN_REGS_CALLER] = RT_CS_REGS,
};

static const char *const state_name[] = {
	[RT_CS_FENTRY] = "FENTRY", [RT_CS_NOP] = "NOP",
	[RT_CS_CALL] = "CALL", [RT_CS_REGS] = "REGS",
};

/* --- the model state ------------------------------------------------- */

struct model {
	u8			text[TEXT_SIZE] __attribute__((aligned(64)));
	struct rt_callsite	cs[NR_SITES];
	bool			live[NR_SITES];
	/* What the clients were asked for. */
	bool			fn_on;
	bool			filter_a;	/* filter = { A }; else empty */
	bool			cmd_b;		/* a command on B */
	bool			kp_site;	/* kprobe on A's site armed */
	bool			kp_off;		/* kprobe at A+5 armed */
	u8			kp_off_saved;
#ifdef RT_MODEL_OLD_PROTOCOL
	u8			kp_site_saved[RT_CS_SITE_SIZE];
#endif
	bool			ebusy;		/* rt_cs_apply() said -EBUSY */
};

/*
 * The live state.  Its text is the text: site addresses are addresses
 * in m.text, so the rel32 arithmetic is done on real addresses.  Saved
 * copies (per depth) are copied back into m, never run in place.
 */
static struct model m;

static unsigned long site_ip(int s)
{
	return (unsigned long)&m.text[s * FUNC_SIZE];
}

/* --- the model patcher (rt_callsite_update() and friends) ----------- */

static void patch_site(int s)
{
	int ret;

	if (!m.live[s])
		return;
	ret = rt_cs_apply(&m.cs[s], &m.text[site_off(s)], regs_mask, &targets);
	/* The old patcher, too, skipped foreign bytes: left alone. */
	if (ret == -EBUSY)
		m.ebusy = true;
}

static void update(void)
{
	int s;

	for (s = 0; s < NR_SITES; s++)
		patch_site(s);
}

static void client_want(int client, int s, bool on)
{
	if (!m.live[s])
		return;		/* -ENOENT */
	if (on)
		m.cs[s].clients |= BIT(client);
	else
		m.cs[s].clients &= ~BIT(client);
}

static bool fn_selects(int s)
{
	return !m.filter_a || s == SITE_A;
}

/* rt_fn_sync(): rt_cs_client_want_each() then rt_callsite_update(). */
static void fn_sync(void)
{
	int s;

	for (s = 0; s < NR_SITES; s++)
		client_want(CL_FUNC, s, m.fn_on && fn_selects(s));
	update();
}

static void module_b_going(void)
{
	if (!m.live[SITE_B])
		return;
	/* Clients' module_going: the commands on B go with it. */
	m.cmd_b = false;
	m.live[SITE_B] = false;
	memset(&m.text[site_off(SITE_B)], POISON, FUNC_SIZE);
	update();
}

static void module_b_coming(void)
{
	struct rt_callsite *cs = &m.cs[SITE_B];
	u8 *t = &m.text[site_off(SITE_B)];

	if (m.live[SITE_B])
		return;
	make_call(t, site_ip(SITE_B), targets.fentry);
	memcpy(t + RT_CS_SITE_SIZE, body, sizeof(body));
	cs->ip = site_ip(SITE_B);
	cs->state = RT_CS_FENTRY;
	cs->clients = 0;
	/* want_new_site: only the function tracer has one. */
	if (m.fn_on && fn_selects(SITE_B))
		cs->clients |= BIT(CL_FUNC);
	m.live[SITE_B] = true;
	patch_site(SITE_B);	/* rt_cs_patch_group(g) */
	update();		/* rt_callsite_update() */
}

/* --- the kprobes ----------------------------------------------------- */

static void kprobe_site_set(bool on)
{
	if (m.kp_site == on)
		return;		/* enable/disable of an enabled/disabled kprobe */
	m.kp_site = on;
#ifdef RT_MODEL_OLD_PROTOCOL
	/* arm_kprobe(): int3 over byte 0; disarm: the saved byte back. */
	m.text[site_off(SITE_A)] = on ? 0xcc : m.kp_site_saved[0];
#else
	/* retrace_{arm,disarm}_kprobe_site() */
	client_want(CL_KPROBE, SITE_A, on);
	update();
#endif
}

static void kprobe_off_set(bool on)
{
	if (m.kp_off == on)
		return;
	m.kp_off = on;
	m.text[OFF_KPROBE] = on ? 0xcc : m.kp_off_saved;
}

/* --- the operations -------------------------------------------------- */

enum op {
	OP_FN_ON, OP_FN_OFF, OP_FILTER_A, OP_FILTER_CLEAR,
	OP_KP_SITE_ARM, OP_KP_SITE_DISARM, OP_KP_OFF_ARM, OP_KP_OFF_DISARM,
	OP_CMD_B_ON, OP_CMD_B_OFF, OP_MOD_B_REMOVE, OP_MOD_B_RELOAD,
	NR_OPS
};

static const char *const op_name[NR_OPS] = {
	[OP_FN_ON]		= "function-on",
	[OP_FN_OFF]		= "function-off",
	[OP_FILTER_A]		= "filter=A",
	[OP_FILTER_CLEAR]	= "filter-clear",
	[OP_KP_SITE_ARM]	= "kprobe-arm@A",
	[OP_KP_SITE_DISARM]	= "kprobe-disarm@A",
	[OP_KP_OFF_ARM]		= "kprobe-arm@A+5",
	[OP_KP_OFF_DISARM]	= "kprobe-disarm@A+5",
	[OP_CMD_B_ON]		= "traceon-cmd@B",
	[OP_CMD_B_OFF]		= "traceon-cmd-remove@B",
	[OP_MOD_B_REMOVE]	= "module-remove(B)",
	[OP_MOD_B_RELOAD]	= "module-reload(B)",
};

static void do_op(enum op op)
{
	switch (op) {
	case OP_FN_ON:
		m.fn_on = true;
		fn_sync();
		break;
	case OP_FN_OFF:
		m.fn_on = false;
		fn_sync();
		break;
	case OP_FILTER_A:
		m.filter_a = true;
		fn_sync();
		break;
	case OP_FILTER_CLEAR:
		m.filter_a = false;
		fn_sync();
		break;
	case OP_KP_SITE_ARM:
		kprobe_site_set(true);
		break;
	case OP_KP_SITE_DISARM:
		kprobe_site_set(false);
		break;
	case OP_KP_OFF_ARM:
		kprobe_off_set(true);
		break;
	case OP_KP_OFF_DISARM:
		kprobe_off_set(false);
		break;
	case OP_CMD_B_ON:
	case OP_CMD_B_OFF:
		if (!m.live[SITE_B])
			break;	/* no such function: the command is refused */
		m.cmd_b = op == OP_CMD_B_ON;
		client_want(CL_CMD, SITE_B, m.cmd_b);
		update();
		break;
	case OP_MOD_B_REMOVE:
		module_b_going();
		break;
	case OP_MOD_B_RELOAD:
		module_b_coming();
		break;
	default:
		abort();
	}
}

/* --- the checks ------------------------------------------------------ */

enum { CHK_BYTES, CHK_FIRE, CHK_OFFSET, CHK_EBUSY, NR_CHECKS };

static const char *const check_name[NR_CHECKS] = {
	"site bytes are always a legal instruction equal to rt_cs_encode(state)",
	"every client that wants a site fires, no other client does",
	"offset kprobe byte is 0xcc exactly while armed, else the original",
	"rt_cs_apply never returned -EBUSY",
};

/* The clients that want site @s, from what they were asked for. */
static unsigned int wanted_by(int s)
{
	unsigned int w = 0;

	if (m.fn_on && fn_selects(s))
		w |= BIT(CL_FUNC);
	if (s == SITE_B && m.cmd_b)
		w |= BIT(CL_CMD);
	if (s == SITE_A && m.kp_site)
		w |= BIT(CL_KPROBE);
	return w;
}

/* The dispatcher: the clients whose bit the site has. */
static unsigned int dispatch(int s, bool regs)
{
	unsigned int reached = 0;
	int c;

	for (c = 0; c < NR_CLIENTS; c++)
		if ((m.cs[s].clients & BIT(c)) && (regs || !client_needs_regs[c]))
			reached |= BIT(c);
	return reached;
}

static unsigned int run_insn(int s, enum insn_kind k)
{
	switch (k) {
	case INSN_CALLER:
		return dispatch(s, false);
	case INSN_REGS_CALLER:
		return dispatch(s, true);
	default:
		return 0;	/* NOP, __fentry__ (a ret), or an oops */
	}
}

/* Execute site @s: the clients it reaches; *bad if it would oops. */
static unsigned int execute_site(int s, bool *bad)
{
	const u8 *b = &m.text[site_off(s)];
	enum insn_kind k;

#ifdef RT_MODEL_OLD_PROTOCOL
	if (s == SITE_A && b[0] == 0xcc) {
		/* int3: the kprobe's handler, then its saved copy single-stepped */
		unsigned int reached = m.kp_site ? BIT(CL_KPROBE) : 0;

		k = decode(m.kp_site_saved, site_ip(s));
		*bad = k == INSN_BAD || !m.kp_site;
		return reached | run_insn(s, k);
	}
#endif
	k = decode(b, site_ip(s));
	*bad = k == INSN_BAD;
	return run_insn(s, k);
}

static void hex5(char *out, const u8 *b)
{
	sprintf(out, "%02x %02x %02x %02x %02x", b[0], b[1], b[2], b[3], b[4]);
}

/* One step's checks: a bit per failed check; @why gets the first reason. */
static unsigned int check_state(char *why, size_t len)
{
	unsigned int fail = 0;
	char hb[32], he[32];
	int s;

	why[0] = 0;
#define FAIL(chk, ...) do {						\
		if (!(fail & BIT(chk)))					\
			snprintf(why + strlen(why), len - strlen(why),	\
				 __VA_ARGS__);				\
		fail |= BIT(chk);					\
	} while (0)

	for (s = 0; s < NR_SITES; s++) {
		const u8 *b = &m.text[site_off(s)];
		u8 enc[RT_CS_SITE_SIZE];
		unsigned int want, got;
		enum insn_kind k;
		bool bad, legal;

		if (!m.live[s])
			continue;
		rt_cs_encode(enc, m.cs[s].ip, m.cs[s].state, &targets);
		k = decode(b, site_ip(s));
		legal = k != INSN_BAD && kind_state[k] == m.cs[s].state &&
			!memcmp(b, enc, RT_CS_SITE_SIZE);
#ifdef RT_MODEL_OLD_PROTOCOL
		/* The old protocol's own int3 over an otherwise good site. */
		if (!legal && s == SITE_A && m.kp_site && b[0] == 0xcc)
			legal = !memcmp(b + 1, enc + 1, RT_CS_SITE_SIZE - 1);
#endif
		if (!legal) {
			hex5(hb, b);
			hex5(he, enc);
			FAIL(CHK_BYTES, "site %c holds %s%s, its state %s encodes %s; ",
			     'A' + s, hb,
			     k == INSN_BAD && b[0] != 0xcc ?
			     " (invalid opcode: oops)" : "",
			     state_name[m.cs[s].state], he);
		}

		want = wanted_by(s);
		got = execute_site(s, &bad);
		if (bad || want != got) {
			int c;

			if (bad)
				FAIL(CHK_FIRE, "site %c: executing it oopses; ", 'A' + s);
			for (c = 0; c < NR_CLIENTS; c++) {
				if ((want & ~got) & BIT(c))
					FAIL(CHK_FIRE, "site %c: %s wants it but is not reached; ",
					     'A' + s, client_name[c]);
				if ((got & ~want) & BIT(c))
					FAIL(CHK_FIRE, "site %c: %s reached without wanting it; ",
					     'A' + s, client_name[c]);
			}
		}
	}

	if (m.text[OFF_KPROBE] != (m.kp_off ? 0xcc : body[0]))
		FAIL(CHK_OFFSET, "A+5 holds %02x, kprobe %s; ", m.text[OFF_KPROBE],
		     m.kp_off ? "armed" : "disarmed");
	if (m.ebusy)
		FAIL(CHK_EBUSY, "rt_cs_apply returned -EBUSY; ");
#undef FAIL
	return fail;
}

/* --- exploration ----------------------------------------------------- */

static unsigned long long nr_sequences, nr_steps;
static unsigned long long nr_fail[NR_CHECKS];
static int shortest_len[NR_CHECKS];
static enum op shortest_seq[NR_CHECKS][MAX_DEPTH];
static char shortest_why[NR_CHECKS][1024];
static enum op seq[MAX_DEPTH];

static void record(unsigned int fail, int depth, const char *why)
{
	int c;

	for (c = 0; c < NR_CHECKS; c++) {
		if (!(fail & BIT(c)))
			continue;
		nr_fail[c]++;
		if (shortest_len[c] >= 0 && shortest_len[c] <= depth)
			continue;
		shortest_len[c] = depth;
		memcpy(shortest_seq[c], seq, depth * sizeof(seq[0]));
		snprintf(shortest_why[c], sizeof(shortest_why[c]), "%s", why);
	}
}

/*
 * Every sequence of length @depth..MAX_DEPTH extending seq[0..depth).
 * m holds the state after seq[0..depth); it is saved per depth and put
 * back after each child.  A failing prefix is explored further, so a
 * failure of one check cannot hide a shorter one of another.
 */
static void explore(int depth)
{
	struct model saved;
	char why[1024];
	unsigned int fail;
	int op;

	nr_sequences++;
	fail = check_state(why, sizeof(why));
	if (fail)
		record(fail, depth, why);
	if (depth == MAX_DEPTH)
		return;
	saved = m;
	for (op = 0; op < NR_OPS; op++) {
		seq[depth] = op;
		m.ebusy = false;
		do_op(op);
		nr_steps++;
		explore(depth + 1);
		m = saved;
	}
}

static void init_model(void)
{
	int s;

	memset(&m, 0, sizeof(m));
	for (s = 0; s < NR_SITES; s++) {
		memset(&m.text[site_off(s)], 0xcc, FUNC_SIZE);	/* padding */
		memcpy(&m.text[site_off(s)], nop5, RT_CS_SITE_SIZE);
		memcpy(&m.text[site_off(s) + RT_CS_SITE_SIZE], body, sizeof(body));
		m.cs[s].ip = site_ip(s);
		m.cs[s].state = RT_CS_NOP;
		m.live[s] = true;
	}
	/* B, a module's function, comes in as the compiler left it. */
	m.live[SITE_B] = false;
	module_b_coming();
	m.kp_off_saved = m.text[OFF_KPROBE];
#ifdef RT_MODEL_OLD_PROTOCOL
	/* Registered (kprobe event defined) now: its copy of the site. */
	memcpy(m.kp_site_saved, &m.text[site_off(SITE_A)], RT_CS_SITE_SIZE);
#endif
}

static int tap;
static int failures;

static void tap_line(bool okay, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void tap_line(bool okay, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", okay ? "" : "not ", ++tap);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!okay)
		failures++;
}

/* rt_cs_encode() against the hand-built encodings, on both sites. */
static bool encode_sanity(void)
{
	static const enum rt_cs_state st[] = {
		RT_CS_FENTRY, RT_CS_NOP, RT_CS_CALL, RT_CS_REGS,
	};
	unsigned long dest[] = {
		targets.fentry, 0, targets.caller, targets.regs_caller,
	};
	u8 a[RT_CS_SITE_SIZE], b[RT_CS_SITE_SIZE];
	unsigned int i;
	int s;

	for (s = 0; s < NR_SITES; s++) {
		for (i = 0; i < ARRAY_SIZE(st); i++) {
			rt_cs_encode(a, site_ip(s), st[i], &targets);
			if (st[i] == RT_CS_NOP)
				memcpy(b, nop5, sizeof(b));
			else
				make_call(b, site_ip(s), dest[i]);
			if (memcmp(a, b, sizeof(a)) ||
			    decode(a, site_ip(s)) == INSN_BAD ||
			    kind_state[decode(a, site_ip(s))] != st[i])
				return false;
		}
	}
	return rt_cs_wanted(0, regs_mask) == RT_CS_NOP &&
	       rt_cs_wanted(BIT(CL_FUNC) | BIT(CL_CMD), BIT(CL_KPROBE)) == RT_CS_CALL &&
	       rt_cs_wanted(BIT(CL_FUNC) | BIT(CL_KPROBE), BIT(CL_KPROBE)) == RT_CS_REGS;
}

/* sum of NR_OPS^k, k = 0..MAX_DEPTH */
static unsigned long long expected_sequences(void)
{
	unsigned long long n = 0, p = 1;
	int k;

	for (k = 0; k <= MAX_DEPTH; k++, p *= NR_OPS)
		n += p;
	return n;
}

/*
 * The breakpoint steps (rt_cs_poke_step()) between every pair of site
 * instructions: after each step a CPU that fetches the site finds the
 * old instruction, the new one, or an int3 first; never one
 * instruction's first byte with another's tail.
 */
static bool poke_steps_sane(void)
{
	static const enum rt_cs_state from[] = {
		RT_CS_FENTRY, RT_CS_NOP, RT_CS_CALL, RT_CS_REGS };
	static const enum rt_cs_state to[] = { RT_CS_NOP, RT_CS_CALL, RT_CS_REGS };
	unsigned long ip = (unsigned long)m.text + 0x40;
	u8 old[RT_CS_SITE_SIZE], new[RT_CS_SITE_SIZE], b[RT_CS_SITE_SIZE];
	unsigned int i, j;
	int step;

	for (i = 0; i < ARRAY_SIZE(from); i++)
		for (j = 0; j < ARRAY_SIZE(to); j++) {
			rt_cs_encode(old, ip, from[i], &targets);
			rt_cs_encode(new, ip, to[j], &targets);
			memcpy(b, old, sizeof(b));
			for (step = RT_CS_STEP_INT3; step <= RT_CS_STEP_HEAD; step++) {
				rt_cs_poke_step(b, new, step);
				if (!memcmp(b, old, sizeof(b)) ||
				    !memcmp(b, new, sizeof(b)))
					continue;
				if (b[0] != RT_CS_INT3 ||
				    (memcmp(b + 1, old + 1, 4) &&
				     memcmp(b + 1, new + 1, 4)))
					return false;
				if (step == RT_CS_STEP_HEAD)
					return false;
			}
			if (memcmp(b, new, sizeof(b)))
				return false;
		}
	return true;
}

int main(void)
{
	struct timespec t0, t1;
	double secs;
	int c, i;

	/* Targets near the text, on both sides, so rel32 is signed. */
	targets.fentry = (unsigned long)m.text + 0x10000;
	targets.caller = (unsigned long)m.text - 0x20000;
	targets.regs_caller = (unsigned long)m.text + 0x7fff0;

	for (c = 0; c < NR_CHECKS; c++)
		shortest_len[c] = -1;

	printf("1..%d\n", NR_CHECKS + 3);
#ifdef RT_MODEL_OLD_PROTOCOL
	printf("# model: OLD protocol (kprobe on a site writes int3, keeps a copy); expected to fail\n");
#else
	printf("# model: new protocol (the patcher is the only writer of a site)\n");
#endif
	tap_line(encode_sanity(),
		 "site_model: rt_cs_encode matches hand-built NOP5/call encodings");
	tap_line(poke_steps_sane(),
		 "site_model: breakpoint steps never expose a torn instruction");

	clock_gettime(CLOCK_MONOTONIC, &t0);
	init_model();
	explore(0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;

	for (c = 0; c < NR_CHECKS; c++) {
		tap_line(!nr_fail[c], "site_model: %s", check_name[c]);
		if (!nr_fail[c])
			continue;
		printf("#   %llu failing sequences; shortest (%d ops):",
		       nr_fail[c], shortest_len[c]);
		for (i = 0; i < shortest_len[c]; i++)
			printf(" %s%s", i ? "-> " : "", op_name[shortest_seq[c][i]]);
		printf("\n#   then: %s\n", shortest_why[c]);
	}
	tap_line(nr_sequences == expected_sequences(),
		 "site_model: explored %llu sequences of 0..%d ops over %d ops",
		 nr_sequences, MAX_DEPTH, NR_OPS);
	printf("# %llu steps in %.2f s\n", nr_steps, secs);

	if (failures) {
		int best = -1;

		for (c = 0; c < NR_CHECKS; c++)
			if (nr_fail[c] && (best < 0 || shortest_len[c] < shortest_len[best]))
				best = c;
		printf("# FAILED: shortest failing sequence (%d ops):", shortest_len[best]);
		for (i = 0; i < shortest_len[best]; i++)
			printf(" %s%s", i ? "-> " : "", op_name[shortest_seq[best][i]]);
		printf("\n");
		if (nr_fail[CHK_BYTES]) {
			printf("# shortest sequence to a torn site (%d ops):",
			       shortest_len[CHK_BYTES]);
			for (i = 0; i < shortest_len[CHK_BYTES]; i++)
				printf(" %s%s", i ? "-> " : "",
				       op_name[shortest_seq[CHK_BYTES][i]]);
			printf("\n");
		}
	}
	return failures ? 1 : 0;
}
