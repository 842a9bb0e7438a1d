// SPDX-License-Identifier: GPL-2.0
/*
 * The 64-bit syscall path, with or without the latency hooks.
 *
 * A kernel without lockdep has four latency hooks on every syscall:
 * interrupts off on entry, on before the call, off after it and on at
 * the return to user mode.  Each is a static-branch NOP, and the cold
 * calls behind them make do_syscall_64() keep more registers: about
 * twelve instructions per syscall while no latency tracer runs.  So
 * the syscall path is built twice (arch/x86/entry/common.c):
 * do_syscall_64() without the hooks, do_syscall_64_hooked() with
 * them, and entry_SYSCALL_64's one call (retrace_syscall_64_call) is
 * rewritten to the hooked copy while the hooks are on.  The idle
 * kernel then runs the same instructions as one without them.
 *
 * A syscall that entered before the call was rewritten leaves by the
 * copy it came in by.  If it entered unhooked and the hooks came on
 * meanwhile, the last "off" of its exit work can be reported without
 * the "on" that follows; the next entry from user mode on that CPU
 * (a syscall, an interrupt or an exception: every way back into the
 * kernel) reports interrupts off unconditionally, since in user mode
 * they were on, and the client drops the section left open.
 */
#include <linux/bug.h>
#include <linux/memory.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <asm/alternative.h>
#include <asm/syscall.h>
#include <asm/text-patching.h>
#include <trace/retrace/latency_hooks.h>

/*
 * The address of the call to do_syscall_64() in entry_SYSCALL_64
 * (entry_64.S): a data word, so that no symbol marks the spot and
 * stack traces still name entry_SYSCALL_64_after_hwframe.
 */
extern const unsigned long retrace_syscall_64_call;

/**
 * retrace_syscall_hooks - make 64-bit syscalls run the hooked copy, or not
 * @on: true for do_syscall_64_hooked(), false for do_syscall_64()
 *
 * Rewrites the call in entry_SYSCALL_64 with text_poke_bp(); a CPU that
 * runs it meanwhile takes one copy or the other.  The caller serialises
 * calls (the latency hooks' registration lock).  May sleep.
 *
 * Return: 0, or -EINVAL if the call is not the one expected (the text
 * was changed by someone else); the syscall path is then left alone.
 */
int retrace_syscall_hooks(bool on)
{
	void *site = (void *)retrace_syscall_64_call;
	void *plain = (void *)do_syscall_64, *hooked = (void *)do_syscall_64_hooked;
	u8 want[CALL_INSN_SIZE], insn[CALL_INSN_SIZE];
	int ret = 0;

	mutex_lock(&text_mutex);
	/* With call depth tracking (retbleed=stuff) calls go to the thunks. */
	plain = callthunks_translate_call_dest(plain);
	hooked = callthunks_translate_call_dest(hooked);
	__text_gen_insn(want, CALL_INSN_OPCODE, site, on ? plain : hooked,
			CALL_INSN_SIZE);
	__text_gen_insn(insn, CALL_INSN_OPCODE, site, on ? hooked : plain,
			CALL_INSN_SIZE);
	if (!memcmp(site, insn, CALL_INSN_SIZE))
		goto out;	/* already there */
	if (WARN_ON_ONCE(memcmp(site, want, CALL_INSN_SIZE))) {
		ret = -EINVAL;
		goto out;
	}
	text_poke_bp(site, insn, CALL_INSN_SIZE, NULL);
out:
	mutex_unlock(&text_mutex);
	return ret;
}
