// SPDX-License-Identifier: GPL-2.0
/*
 * The int3 side of retrace's breakpoint protocol for live patching.
 *
 * While the call-site patcher rewrites sites (callsite/callsite.c, under
 * stop_machine()), each site being changed starts with an int3 from
 * the moment its first byte is replaced until its last byte is final.
 * A CPU that runs such a site meanwhile, which can only be code in NMI
 * context or the patching CPU itself, traps here, and the trap does
 * what the site's new instruction does: a NOP jumps over the site, a
 * call is emulated on the interrupted stack (the kernel's int3 entry
 * leaves room for it).  No CPU ever fetches a half-written "call rel32".
 *
 * The handler runs first in exc_int3(), before anything that could be
 * traced (and so hit another int3), like the kernel's own
 * poke_int3_handler(), and is noinstr for the same reason.  The
 * patching CPU's helpers below are notrace: they run inside the round.
 *
 * Protocol for retrace_poke_active (the table being patched):
 *   - written only by the patching CPU, inside the stop_machine() round:
 *     published (release) before the first int3 is written, cleared
 *     after the last site is final and every CPU has serialised;
 *   - read by this handler in any context; it takes a reference with
 *     inc-not-zero, so once the patcher has dropped its own reference
 *     and seen the count reach zero, no handler is using the table and
 *     it may be freed.
 */
#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/preempt.h>
#include <linux/unaligned.h>
#include <asm/processor.h>
#include <asm/ptrace.h>
#include <asm/retrace.h>
#include <asm/text-patching.h>

struct retrace_poke *retrace_poke_active;
atomic_long_t retrace_poke_hits, retrace_poke_nmi_hits, retrace_poke_gone;
atomic_long_t retrace_poke_gone_emulated;

/* The entry of @p whose site starts at @ip, or NULL. */
static __always_inline const struct retrace_poke_site *
retrace_poke_find(const struct retrace_poke *p, unsigned long ip)
{
	unsigned int lo = 0, hi = p->nr, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (p->sites[mid].ip < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < p->nr && p->sites[lo].ip == ip ? &p->sites[lo] : NULL;
}

/*
 * Emulate the instruction the text now holds at @ip, if it is one that
 * live patching writes: a jump label's jmp or NOP, a call site's call or
 * NOP, a static call trampoline's ret.  Return 1 with @regs past it, or
 * 0 if it is something else.
 *
 * Why the bytes read here are one whole instruction, old or new: this
 * runs with interrupts off (int3 is an interrupt gate), and every
 * patcher of live text (text_poke_bp_batch(), retrace's callsite round)
 * waits for every online CPU between its three steps: the int3 on the
 * first byte, the tail, the new first byte.  So while this CPU reads, at
 * most one step lands; the tail only changes while the first byte is an
 * int3, and then nothing is emulated.  The first byte is read once more
 * at the end, a cheap guard should that rule ever be broken.
 */
static __always_inline int retrace_emulate_text(struct pt_regs *regs,
						unsigned long ip, u8 op)
{
	const u8 *insn = (const u8 *)ip;
	unsigned long next;
	s32 rel = 0;

	switch (op) {
	case JMP8_INSN_OPCODE:
		rel = (s8)READ_ONCE(insn[1]);
		next = ip + JMP8_INSN_SIZE;
		break;
	case JMP32_INSN_OPCODE:
	case CALL_INSN_OPCODE:
		rel = get_unaligned((const s32 *)(insn + 1));
		next = ip + JMP32_INSN_SIZE;
		break;
	case RET_INSN_OPCODE:
		next = 0;
		break;
	case 0x66:	/* NOP2: 66 90 */
		if (READ_ONCE(insn[1]) != 0x90)
			return 0;
		next = ip + 2;
		break;
	case 0x0f:	/* NOP5: 0f 1f 44 00 00, read no further than it */
		if (READ_ONCE(insn[1]) != 0x1f || READ_ONCE(insn[2]) != 0x44 ||
		    READ_ONCE(insn[3]) || READ_ONCE(insn[4]))
			return 0;
		next = ip + 5;
		break;
	default:
		return 0;
	}
	barrier();
	if (READ_ONCE(insn[0]) != op)
		return 0;
	if (op == CALL_INSN_OPCODE)
		int3_emulate_call(regs, next + rel);
	else if (op == RET_INSN_OPCODE)
		int3_emulate_ret(regs);
	else
		int3_emulate_jmp(regs, next + rel);
	return 1;
}

/*
 * An int3 that is no longer in the text: its patcher removed it after
 * this CPU trapped, or (seen under QEMU's multi-threaded TCG) the CPU
 * ran a stale translation that still held it.  Run what the text holds
 * now.  Done here, before exc_int3() reaches any traced code, so a
 * stale int3 in a function on that path (rcu_read_unlock() in
 * notify_die(), say) cannot make the trap nest until the NMI count
 * overflows; upstream's exc_int3() would die() on such an int3.
 *
 * Resuming at the int3's address is not enough on its own: QEMU's
 * multi-threaded TCG was seen to run the same stale translation again
 * and again, two vCPUs each trapping at a jump label just flipped, for
 * minutes (55latency/switch_stress).  So an instruction that patching
 * writes is emulated here, which moves the CPU past the site; anything
 * else is run again from the text.
 */
static __always_inline int retrace_int3_gone(struct pt_regs *regs)
{
	unsigned long ip = regs->ip - INT3_INSN_SIZE;
	u8 op = READ_ONCE(*(u8 *)ip);

	if (op == INT3_INSN_OPCODE)
		return 0;
	raw_atomic_long_inc(&retrace_poke_gone);
	if (retrace_emulate_text(regs, ip, op))
		raw_atomic_long_inc(&retrace_poke_gone_emulated);
	else
		regs->ip = ip;
	return 1;
}

/**
 * retrace_int3_handler - emulate a call site hit while it is rewritten
 * @regs: the trap's registers; regs->ip is just after the int3
 *
 * Return: 1 if the int3 was one of a site being patched (and @regs now
 * resume after what the site's new instruction does), or is no longer
 * in the text (@regs resume past the instruction now there, emulated,
 * or at its address); 0 otherwise.
 */
noinstr int retrace_int3_handler(struct pt_regs *regs)
{
	const struct retrace_poke_site *s;
	struct retrace_poke *p;
	int ret = 0;

	if (user_mode(regs))
		return 0;
	/* Pairs with the release in retrace_poke_publish(). */
	p = smp_load_acquire(&retrace_poke_active);
	if (!p || !raw_atomic_inc_not_zero(&p->refs))
		return retrace_int3_gone(regs);
	s = retrace_poke_find(p, regs->ip - INT3_INSN_SIZE);
	if (s) {
		if (s->target)
			int3_emulate_call(regs, s->target);
		else
			int3_emulate_jmp(regs, s->ip + RETRACE_POKE_SITE_SIZE);
		raw_atomic_long_inc(&retrace_poke_hits);
		/* The interrupted context's count: exc_int3 has not entered. */
		if (in_nmi())
			raw_atomic_long_inc(&retrace_poke_nmi_hits);
		ret = 1;
	}
	raw_atomic_dec(&p->refs);
	return ret ? ret : retrace_int3_gone(regs);
}

/**
 * retrace_poke_publish - make @p the table the int3 handler consults
 * @p: sorted by ip; @p->refs is set to 1 here (the patcher's reference)
 *
 * Call before writing the first int3 of @p.
 */
void notrace retrace_poke_publish(struct retrace_poke *p)
{
	atomic_set(&p->refs, 1);
	/* Pairs with the acquire in the handler: the table goes first. */
	smp_store_release(&retrace_poke_active, p);
}

/**
 * retrace_poke_retire - stop using @p; wait until no handler holds it
 * @p: the table given to retrace_poke_publish()
 *
 * Call after every site of @p is final and every CPU has serialised:
 * no int3 of @p is left to trap on, only handlers already running.
 */
void notrace retrace_poke_retire(struct retrace_poke *p)
{
	WRITE_ONCE(retrace_poke_active, NULL);
	atomic_dec(&p->refs);
	while (atomic_read(&p->refs))
		cpu_relax();
}
