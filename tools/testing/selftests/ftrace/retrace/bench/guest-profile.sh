#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of harness/profile.sh: set up one bench configuration,
# say PROFILE-READY, then run its syscall loop until the host's gdb has
# stepped through a call of it and QEMU is stopped.
#
# usage: guest-profile.sh SETUP
#   off          no tracer: the getppid baseline
#   function     the function tracer on every function, getppid
#   graph        function_graph on every function, getppid
#   kprobe       a kprobe event at the entry of $PROFILE_FN (getppid)
#   kprobe+N     the same at $PROFILE_FN+N
#   marker       writes of 15 bytes to trace_marker
#   raw          the function tracer on every function, splice() of
#                per_cpu/cpu0/trace_pipe_raw (the reader's own records
#                keep the ring full)
#   text         the same, read() of trace_pipe
#   open, close  no tracer: the open+close baseline (profile.sh steps
#                the openat() or the close() of each turn); these two
#                also run on a kernel without tracing

T=/sys/kernel/debug/tracing
FN=${PROFILE_FN:-__x64_sys_getppid}
case $1 in
open|close)
	echo "PROFILE-READY $1 openclose"
	exec rtbench openclose 2000000000
	;;
esac
cd "$T" || exit 1
echo nop > current_tracer
echo > trace
work=getppid
case $1 in
off) ;;
function) echo function > current_tracer ;;
graph) echo function_graph > current_tracer ;;
kprobe|kprobe+*)
	off=${1#kprobe}
	echo "p:profk $FN$off" > kprobe_events || exit 1
	echo 1 > events/kprobes/profk/enable || exit 1
	;;
marker) work=marker ;;
raw) echo function > current_tracer; work=raw ;;
text) echo function > current_tracer; work=text ;;
*) echo "PROFILE-BAD-SETUP $1"; exit 1 ;;
esac
echo "PROFILE-READY $1 $work"
if [ $work = raw ]; then
	exec rtbench splice 2000000000 per_cpu/cpu0/trace_pipe_raw
fi
if [ $work = text ]; then
	exec rtbench read 2000000000 trace_pipe
fi
if [ $work = marker ]; then
	exec rtbench marker 2000000000 trace_marker
fi
exec rtbench getppid 2000000000
