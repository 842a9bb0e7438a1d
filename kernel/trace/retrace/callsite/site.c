// SPDX-License-Identifier: GPL-2.0
/*
 * One call site's bytes as a pure function of its clients.
 *
 * The patcher is the only writer of a site's five bytes (kprobes on a
 * site are clients too, see kprobe_site.c, and never put an int3
 * there).  A site therefore only ever holds one of four instructions,
 * and which one follows from the clients that want it:
 *
 *   no client            NOP5
 *   clients, none regs   call retrace_caller
 *   a client needs regs  call retrace_regs_caller
 *   (before first seen   call __fentry__, module sites only)
 *
 * rt_cs_apply() only rewrites bytes that hold what the site's state
 * says; anything else is foreign and left alone, so a bug elsewhere
 * cannot be turned into a torn instruction here.
 *
 * Pure C: builds in the kernel and, through host/pure_shim.h, in the
 * host model test (callsite/site_model_test.c).
 */
#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/string.h>
#include <asm/nops.h>
#define RT_NOP5	x86_nops[5]
#else
#include "pure_shim.h"
static const u8 rt_host_nop5[] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };
#define RT_NOP5	rt_host_nop5
#endif
#include <trace/retrace/callsite.h>

#define RT_CALL_OPCODE	0xe8

/**
 * rt_cs_wanted - the state a site must have
 * @clients: mask of clients that want the site
 * @regs_clients: mask of clients that need pt_regs
 *
 * Return: RT_CS_NOP, RT_CS_CALL or RT_CS_REGS.
 */
enum rt_cs_state rt_cs_wanted(unsigned int clients, unsigned int regs_clients)
{
	if (!clients)
		return RT_CS_NOP;
	return (clients & regs_clients) ? RT_CS_REGS : RT_CS_CALL;
}

static void rt_cs_make_call(u8 *insn, unsigned long ip, unsigned long dest)
{
	s32 rel = (s32)(long)(dest - (ip + RT_CS_SITE_SIZE));

	insn[0] = RT_CALL_OPCODE;
	memcpy(insn + 1, &rel, sizeof(rel));
}

/**
 * rt_cs_encode - the five bytes of a site at @ip in @state
 * @insn: out, RT_CS_SITE_SIZE bytes
 * @ip: the site's address
 * @state: enum rt_cs_state
 * @t: the call targets
 */
void rt_cs_encode(u8 *insn, unsigned long ip, enum rt_cs_state state,
		  const struct rt_cs_targets *t)
{
	switch (state) {
	case RT_CS_FENTRY:
		rt_cs_make_call(insn, ip, t->fentry);
		break;
	case RT_CS_CALL:
		rt_cs_make_call(insn, ip, t->caller);
		break;
	case RT_CS_REGS:
		rt_cs_make_call(insn, ip, t->regs_caller);
		break;
	default:
		memcpy(insn, RT_NOP5, RT_CS_SITE_SIZE);
	}
}

/**
 * rt_cs_holds - do @bytes hold what @cs's state says
 * @cs: the site
 * @bytes: its text, or a copy of it
 * @t: the call targets
 *
 * Return: true if they do.
 */
bool rt_cs_holds(const struct rt_callsite *cs, const u8 *bytes,
		 const struct rt_cs_targets *t)
{
	u8 want[RT_CS_SITE_SIZE];

	rt_cs_encode(want, cs->ip, cs->state, t);
	return !memcmp(bytes, want, RT_CS_SITE_SIZE);
}

/**
 * rt_cs_apply - bring a site's bytes in line with its clients
 * @cs: the site; @cs->state is updated
 * @bytes: the site's text (or a page copy that will be written back)
 * @regs_clients: mask of clients that need pt_regs
 * @t: the call targets
 *
 * Return: 1 if @bytes changed, 0 if they already held the wanted
 * instruction, -EBUSY if they held something other than @cs->state
 * says (left alone).
 */
int rt_cs_apply(struct rt_callsite *cs, u8 *bytes, unsigned int regs_clients,
		const struct rt_cs_targets *t)
{
	enum rt_cs_state want = rt_cs_wanted(cs->clients, regs_clients);

	if (cs->state == want)
		return 0;
	if (!rt_cs_holds(cs, bytes, t))
		return -EBUSY;
	rt_cs_encode(bytes, cs->ip, want, t);
	cs->state = want;
	return 1;
}

/**
 * rt_cs_poke_step - one step of rewriting a site that may run meanwhile
 * @bytes: the site's five bytes (or a copy that will be written back)
 * @insn: the instruction the site will hold
 * @step: enum rt_cs_step; the steps are applied in order
 *
 * Between steps a site holds its old instruction, an int3 followed by
 * the old or the new tail, or its new instruction: never the first
 * byte of one instruction with the tail of another.
 */
void rt_cs_poke_step(u8 *bytes, const u8 *insn, enum rt_cs_step step)
{
	switch (step) {
	case RT_CS_STEP_INT3:
		bytes[0] = RT_CS_INT3;
		break;
	case RT_CS_STEP_TAIL:
		memcpy(bytes + 1, insn + 1, RT_CS_SITE_SIZE - 1);
		break;
	case RT_CS_STEP_HEAD:
		bytes[0] = insn[0];
		break;
	}
}
