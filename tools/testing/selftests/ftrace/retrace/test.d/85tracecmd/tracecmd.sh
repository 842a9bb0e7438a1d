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

# tc_need: trace-cmd is in the guest; a clean work directory.
tc_need() {
	command -v trace-cmd > /dev/null ||
		skip "trace-cmd is not in the guest (install Debian's trace-cmd on the host)"
	rm -rf $TC_DIR
	mkdir -p $TC_DIR
}

# tc_record ARGS...: trace-cmd record -o $TC_DAT ARGS; must succeed.
tc_record() {
	trace-cmd record -o $TC_DAT "$@" > $TC_OUT 2> $TC_ERR ||
		fail "trace-cmd record $*: status $?: $(tail -n 5 $TC_ERR) $(tail -n 5 $TC_OUT)"
	[ -s $TC_DAT ] || fail "trace-cmd record $*: no $TC_DAT"
}

# tc_report [ARGS...]: the report of $TC_DAT, without its "cpus=N" line.
tc_report() {
	trace-cmd report -i $TC_DAT "$@" 2> $TC_ERR > $TC_DIR/report ||
		fail "trace-cmd report: status $?: $(tail -n 5 $TC_ERR)"
	grep -v '^cpus=' $TC_DIR/report
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
