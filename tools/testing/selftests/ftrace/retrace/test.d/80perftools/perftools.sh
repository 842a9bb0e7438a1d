# SPDX-License-Identifier: GPL-2.0
# Helpers for the test.d/80perftools tests (not a test: the runner only
# runs *.tc).  Each test sources this after test.d/functions:
#
#     . "$HERE/test.d/80perftools/perftools.sh"
#
# perf-tools' scripts (Debian's perf-tools-unstable, in the guest as
# /usr/sbin/NAME) are run with bash, from the tracing directory, their
# stdout in $PT_OUT and their stderr in $PT_ERR.

PT_LOCK=/var/tmp/.ftrace-lock
PT_OUT=/tmp/perftools.out
PT_ERR=/tmp/perftools.err

# pt_need NAME: perf-tools' NAME and bash are in the guest.  A lock file
# left by an earlier test that was killed would stop every script, so
# any is removed (each test checks that its script removes its own).
pt_need() {
	[ -x "/usr/sbin/$1" ] || fail "perf-tools $1 is not in the guest (harness/initramfs.sh)"
	[ -x /bin/bash ] || fail "no bash in the guest"
	rm -f $PT_LOCK
}

# pt_alive PID: the process exists and is not a zombie.
pt_alive() {
	_pt_s=$(sed -n 's/^.*) \([A-Za-z]\) .*/\1/p' "/proc/$1/stat" 2>/dev/null)
	[ -n "$_pt_s" ] && [ "$_pt_s" != Z ]
}

# pt_start SECS NAME [ARGS...]: start NAME in the background (its pid in
# PT_PID) and return once its "sleep SECS" exists: the scripts clear the
# buffer and then sleep, so tracing is on and the buffer empty.  Fails
# at once if the script ends before that.
pt_start() {
	_pt_d=$1
	_pt_name=$2
	shift 2
	bash "/usr/sbin/$_pt_name" "$@" > $PT_OUT 2> $PT_ERR &
	PT_PID=$!
	_pt_t=0
	until ps -o args | grep -qx "sleep $_pt_d"; do
		if ! pt_alive $PT_PID; then
			wait $PT_PID
			fail "$_pt_name ended (status $?) before its sleep: $(cat $PT_ERR) $(head -n 20 $PT_OUT)"
		fi
		_pt_t=$((_pt_t + 1))
		[ $_pt_t -lt 1500 ] || { kill $PT_PID; fail "$_pt_name never reached its sleep"; }
		sleep 0.1
	done
}

# pt_finish: wait for the script started by pt_start; it must exit 0
# and print no ERROR or WARNING.
pt_finish() {
	wait $PT_PID || fail "script exited with $?: $(cat $PT_ERR) $(head -n 20 $PT_OUT)"
	if grep -q 'ERROR\|WARNING' $PT_ERR; then
		fail "script complained: $(cat $PT_ERR)"
	fi
}

# pt_records: the trace lines of the script's output (not its
# "Tracing ..." and "Ending tracing..." lines, nor blank ones).
pt_records() {
	grep -v '^Tracing \|^Ending tracing\.\.\.$\|^$' $PT_OUT
}

# pt_pids: the pid of each record line on stdin, one a line (the context
# columns are "%16s-%-5d [%03u] ", the task name may hold '-').
pt_pids() {
	sed -n 's/^.*-\([0-9][0-9]*\) *\[[0-9][0-9]*\] .*/\1/p'
}

# pt_clean: the script left tracing as rt_reset (and so the test's start)
# had it: nop, no filters, no pids, no events, no kprobe events, the
# buffer empty, tracing on, no lock file.
pt_clean() {
	[ "$(cat current_tracer)" = nop ] || fail "current_tracer left at $(cat current_tracer)"
	if [ -f set_ftrace_filter ]; then
		[ "$(cat set_ftrace_filter)" = "$RT_ALL_FUNCS" ] ||
			fail "set_ftrace_filter left: $(head -n 5 set_ftrace_filter)"
		[ "$(cat set_ftrace_notrace)" = "$RT_NO_NOTRACE" ] ||
			fail "set_ftrace_notrace left: $(head -n 5 set_ftrace_notrace)"
		[ "$(cat set_ftrace_pid)" = "no pid" ] || fail "set_ftrace_pid left: $(cat set_ftrace_pid)"
	fi
	if [ -f set_graph_function ]; then
		[ "$(cat set_graph_function)" = "$RT_ALL_FUNCS" ] ||
			fail "set_graph_function left: $(head -n 5 set_graph_function)"
	fi
	[ "$(cat events/enable)" = 0 ] || fail "events left enabled: events/enable reads $(cat events/enable)"
	[ -z "$(cat kprobe_events)" ] || fail "kprobe_events left: $(cat kprobe_events)"
	[ "$(cat tracing_on)" = 1 ] || fail "tracing_on left at $(cat tracing_on)"
	[ ! -e $PT_LOCK ] || fail "lock file $PT_LOCK left behind: $(cat $PT_LOCK)"
	_pt_n=$(trace_lines)
	[ "$_pt_n" = 0 ] || fail "trace left with $_pt_n records: $(grep -v '^#' trace | head -n 3)"
}
