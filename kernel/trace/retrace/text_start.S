/* SPDX-License-Identifier: GPL-2.0 */
/*
 * First in retrace's link order (see the Makefile): marks where its
 * .text starts, so stack traces can tell the tracing machinery's own
 * frames from the traced code's (core/stack.c).
 */
	.section .text, "ax"
	.globl	__retrace_text_start
__retrace_text_start:
