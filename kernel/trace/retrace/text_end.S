/* SPDX-License-Identifier: GPL-2.0 */
/* Last in retrace's link order: where its .text ends (text_start.S). */
	.section .text, "ax"
	.globl	__retrace_text_end
__retrace_text_end:
