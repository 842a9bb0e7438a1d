#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ftrace_dump_on_oops, in a guest booted with rt.mode=oops (make check):
# trace __do_sys_getppid on every CPU, then oops on CPU 1 through
# rt_printk_test.  The kernel dumps the buffer before the oops report
# ends; harness/check.sh (oops_check) reads the console.
#   rt.oops_mode=1  set through the sysctl: every CPU's records
#   rt.oops_mode=2  set by ftrace_dump_on_oops=orig_cpu on the command
#                   line: only CPU 1's records
T=/sys/kernel/debug/tracing
cd "$T" || exit 1
mode=$(sed -n 's/.*rt\.oops_mode=\([0-9]\).*/\1/p' /proc/cmdline)
S=/proc/sys/kernel/ftrace_dump_on_oops
case $mode in
1)	[ "$(cat $S)" = 0 ] || echo "OOPS-SETUP-FAIL: sysctl starts at $(cat $S)"
	echo 1 > $S ;;
2)	[ "$(cat $S)" = 2 ] || echo "OOPS-SETUP-FAIL: boot parameter gave $(cat $S)" ;;
*)	echo "OOPS-SETUP-FAIL: no rt.oops_mode"; exit 1 ;;
esac
echo __do_sys_getppid > set_ftrace_filter
echo function > current_tracer
cpu=0
while [ $cpu -lt "$(nproc)" ]; do
	taskset $((1 << cpu)) rtbench getppid 5 > /dev/null
	cpu=$((cpu + 1))
done
m=$(find /lib/modules -name rt_printk_test.ko | head -n 1)
insmod "$m" || echo "OOPS-SETUP-FAIL: insmod"
echo "OOPS-TEST-READY mode=$mode cpus=$(nproc)"
taskset 2 sh -c "echo 1 > /sys/module/rt_printk_test/parameters/oops"
