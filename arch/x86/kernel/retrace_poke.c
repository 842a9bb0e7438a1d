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
#include <asm/processor.h>
#include <asm/ptrace.h>
#include <asm/retrace.h>
#include <asm/text-patching.h>

struct retrace_poke *retrace_poke_active;
atomic_long_t retrace_poke_hits, retrace_poke_nmi_hits, retrace_poke_gone;

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
 * An int3 that is no longer in the text: its patcher removed it after
 * this CPU trapped, or (seen under QEMU's multi-threaded TCG) the CPU
 * ran a stale translation that still held it.  Run what the text holds
 * now.  Done here, before exc_int3() reaches any traced code, so a
 * stale int3 in a function on that path (rcu_read_unlock() in
 * notify_die(), say) cannot make the trap nest until the NMI count
 * overflows.  kprobes does the same, but only after entering.
 */
static __always_inline int retrace_int3_gone(struct pt_regs *regs)
{
	unsigned long ip = regs->ip - INT3_INSN_SIZE;

	if (*(u8 *)ip == INT3_INSN_OPCODE)
		return 0;
	regs->ip = ip;
	raw_atomic_long_inc(&retrace_poke_gone);
	return 1;
}

/**
 * retrace_int3_handler - emulate a call site hit while it is rewritten
 * @regs: the trap's registers; regs->ip is just after the int3
 *
 * Return: 1 if the int3 was one of a site being patched (and @regs now
 * resume after what the site's new instruction does), or is no longer
 * in the text (@regs resume at its address); 0 otherwise.
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
