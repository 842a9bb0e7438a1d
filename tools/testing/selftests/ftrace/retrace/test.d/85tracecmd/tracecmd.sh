# SPDX-License-Identifier: GPL-2.0
# Helpers for the test.d/85tracecmd tests (not a test: the runner only
# runs *.tc).  Each test sources this after test.d/functions:
#
#     . "$HERE/test.d/85tracecmd/tracecmd.sh"
#
# Debian's trace-cmd (with libtracefs and libtraceevent) is in the guest
# as /usr/bin/trace-cmd when the host has it (harness/deps.sh installs
# it); without it every test here skips.  Records go to $TC_DAT.

TC_DIR=/tmp/tracecmd
TC_DAT=$TC_DIR/trace.dat
TC_OUT=$TC_DIR/out
TC_ERR=$TC_DIR/err
# What the last tc_record printed to stderr ("CPU0 data recorded at
# offset=... N bytes in size" per CPU), kept past tc_report.
TC_RERR=$TC_DIR/record.err
# A command prefix: "tc_record ... -- $TC_SETTLE CMD ARGS" runs CMD a
# second late.  trace-cmd record (3.1.6) forks a recorder per CPU and
# starts the command without waiting for them.  A recorder that gets
# its stop signal (SIGUSR1) before it has entered its loop, because a
# short command was already over, exits without reading anything: that
# CPU's records, one partial page, are lost and the report is empty.
# Seen twice here, once in CI with two guests on the host's two cores;
# 160 runs by hand under host load never showed it.  exec keeps the pid
# and gives the task CMD's name.  (Not for function_graph.tc: busybox
# sh calls getppid(), its graph function, before the exec.)
TC_SETTLE=$TC_DIR/settle

# tc_need: trace-cmd is in the guest; a clean work directory.
tc_need() {
	command -v trace-cmd > /dev/null ||
		skip "trace-cmd is not in the guest (install Debian's trace-cmd on the host)"
	rm -rf $TC_DIR
	mkdir -p $TC_DIR
	printf '#!/bin/sh\nsleep 1\nexec "$@"\n' > $TC_SETTLE
	chmod +x $TC_SETTLE
}

# tc_record ARGS...: trace-cmd record -o $TC_DAT ARGS; must succeed.
tc_record() {
	trace-cmd record -o $TC_DAT "$@" > $TC_OUT 2> $TC_ERR ||
		fail "trace-cmd record $*: status $?: $(tail -n 5 $TC_ERR) $(tail -n 5 $TC_OUT)"
	cp $TC_ERR $TC_RERR
	[ -s $TC_DAT ] || fail "trace-cmd record $*: no $TC_DAT"
}

# tc_report [ARGS...]: the report of $TC_DAT, without its "cpus=N" line.
tc_report() {
	trace-cmd report -i $TC_DAT "$@" 2> $TC_ERR > $TC_DIR/report ||
		fail "trace-cmd report: status $?: $(tail -n 5 $TC_ERR)"
	grep -v '^cpus=' $TC_DIR/report
}

# tc_recorded: what record said it read per CPU, on one line.
tc_recorded() {
	grep -A 1 'data recorded at' $TC_RERR | grep -v '^--' | tr -s '\n\t ' '   '
}

# tc_ts: the timestamps (seconds) of report lines on stdin, one a line.
tc_ts() {
	sed -n 's/^.*\] *\([0-9][0-9]*\.[0-9]*\): .*/\1/p'
}

# tc_sorted: the timestamps on stdin never go down.
tc_sorted() {
	awk 'NR > 1 && $1 < last { bad = 1 } { last = $1 } END { exit bad }'
}

# tc_clean: tracing as rt_reset left it: nop, no filters, no events,
# tracing on.
tc_clean() {
	[ "$(cat current_tracer)" = nop ] || fail "current_tracer left at $(cat current_tracer)"
	[ "$(cat set_ftrace_filter)" = "$RT_ALL_FUNCS" ] ||
		fail "set_ftrace_filter left: $(head -n 5 set_ftrace_filter)"
	[ "$(cat set_graph_function)" = "$RT_ALL_FUNCS" ] ||
		fail "set_graph_function left: $(head -n 5 set_graph_function)"
	[ "$(cat set_ftrace_pid)" = "no pid" ] || fail "set_ftrace_pid left: $(cat set_ftrace_pid)"
	[ "$(cat events/enable)" = 0 ] || fail "events left enabled: $(cat set_event)"
	[ "$(cat tracing_on)" = 1 ] || fail "tracing_on left at $(cat tracing_on)"
}
