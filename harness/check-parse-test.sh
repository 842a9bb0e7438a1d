#!/bin/bash
# Self-test of harness/judge.sh (how check.sh judges a guest console
# log) on fabricated logs in a temporary directory, no QEMU needed.
# Prints "ok N - desc" / "not ok N - desc"; exits non-zero if any case
# fails.
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=harness/judge.sh
. "$HERE/judge.sh"
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# The verdicts of one judge_log call, as check.sh's record() sees them.
declare -A verdict reason
npass=0 nfail=0 nskip=0
record() {
	verdict[$1]=$2
	reason[$1]=${3:-}
	case $2 in
	PASS) npass=$((npass + 1)) ;;
	SKIP) nskip=$((nskip + 1)) ;;
	*) nfail=$((nfail + 1)) ;;
	esac
}

# judge NAME BOOT_RC FILTERS [LINE...]: write LINEs (CRLF, as the
# serial console does) to a log and judge it; no LINE: no log at all.
judge() {
	local name=$1 rc=$2 filters=$3 log=$tmp/console-$1.log
	shift 3
	verdict=()
	reason=()
	npass=0 nfail=0 nskip=0
	rm -f "$log"
	[ $# -eq 0 ] || printf '%s\r\n' "$@" >"$log"
	# check.sh runs it under set +e; it must not fail under set -e either.
	if ! (set -e; judge_log "$name" "$log" "$rc" "$filters" >/dev/null); then
		echo "not ok - judge_log $name failed under set -e"
		bad=1
	fi
	judge_log "$name" "$log" "$rc" "$filters" >"$tmp/out"
}

n=0
bad=0
check() {	# check DESC COMMAND...
	n=$((n + 1))
	if "${@:2}"; then echo "ok $n - $1"; else
		echo "not ok $n - $1"
		sed 's/^/#   /' "$tmp/out"
		for k in "${!verdict[@]}"; do echo "#   $k ${verdict[$k]}"; done
		bad=1
	fi
}
# shellcheck disable=SC2317  # called through check()
is() {	# is KEY VERDICT: KEY was recorded as VERDICT
	[ "${verdict[$1]:-none}" = "$2" ]
}
# shellcheck disable=SC2317
why() {	# why KEY TEXT: KEY's failure was recorded with reason TEXT
	[ "${reason[$1]:-}" = "$2" ]
}
# shellcheck disable=SC2317
counts() {	# counts PASS FAIL SKIP
	[ "$npass $nfail $nskip" = "$1 $2 $3" ]
}

boot=(
	"[    0.000000] Linux version 6.12.0-retrace"
	"retrace guest: 6.12.0-retrace, 4 CPUs, mode check"
)
tail_ok=(
	"selftests: 2 passed, 0 failed, 1 skipped"
	"RETRACE-STATUS 0"
	"RETRACE-TESTS-DONE rc=0"
	"[   12.000000] reboot: Power down"
)

# All good: 2 passes and 1 skip, plan matching.
judge single 0 "" "${boot[@]}" "RETRACE-PLAN 3" \
	"[PASS] 00basic/files (0s)" "[SKIP] 00basic/tracing_cpumask (needs 2 CPUs)" \
	"    INFO: x" "[PASS] 10output/trace_marker (1s)" "${tail_ok[@]}"
check "a clean run passes" counts 7 0 1
check "a skip is counted as a skip" is single/00basic/tracing_cpumask SKIP
check "plan honoured" is single/plan PASS
check "runner status 0" is single/runner-status PASS
check "boot ok" is single/boot PASS
check "end marker" is single/run-completed PASS
check "console clean" is single/console-clean PASS

# The kernel booted without a tracing directory: the runner exits 1
# before its plan.
judge single 0 "" "${boot[@]}" "no tracing directory at /sys/kernel/debug/tracing" \
	"RETRACE-STATUS 1" "RETRACE-TESTS-DONE rc=1"
check "no plan line fails" is single/plan FAIL
check "no plan: runner status 1 fails" is single/runner-status FAIL
check "no plan: the run is a failure" test $nfail -ge 1
check "no plan: the runner's message is shown" grep -q 'no tracing directory' "$tmp/out"

# Fewer results than planned (a test that hung the runner, a line lost).
judge single 0 "" "${boot[@]}" "RETRACE-PLAN 3" \
	"[PASS] 00basic/files (0s)" "[PASS] 00basic/trace_marker (1s)" "${tail_ok[@]}"
check "plan count mismatch fails" is single/plan FAIL
check "plan mismatch reported" grep -q 'planned 3 tests, 2 reported' "$tmp/out"

# More results than planned.
judge single 0 "" "${boot[@]}" "RETRACE-PLAN 1" \
	"[PASS] 00basic/files (0s)" "[PASS] 00basic/trace_marker (1s)" "${tail_ok[@]}"
check "more results than planned fails" is single/plan FAIL

# Two plans (the runner started twice).
judge single 0 "" "${boot[@]}" "RETRACE-PLAN 1" "RETRACE-PLAN 1" \
	"[PASS] 00basic/files (0s)" "${tail_ok[@]}"
check "two plan lines fail" is single/plan FAIL

# The runner exited 1 although every test line was there.
judge single 0 "" "${boot[@]}" "RETRACE-PLAN 1" "[PASS] 00basic/files (0s)" \
	"RETRACE-STATUS 1" "RETRACE-TESTS-DONE rc=1"
check "runner status 1 fails" is single/runner-status FAIL
check "runner status 1: plan still ok" is single/plan PASS
check "runner status 1: counted once" counts 5 1 0

# No RETRACE-STATUS line.
judge single 0 "" "${boot[@]}" "RETRACE-PLAN 1" "[PASS] 00basic/files (0s)" \
	"RETRACE-TESTS-DONE rc=0"
check "missing runner status fails" is single/runner-status FAIL

# A failing test.
judge single 0 "" "${boot[@]}" "RETRACE-PLAN 2" "[PASS] 00basic/files (0s)" \
	"[FAIL] 10output/trace_marker (1s)" "    FAIL: marker not in trace" \
	"RETRACE-STATUS 1" "RETRACE-TESTS-DONE rc=1"
check "a [FAIL] line fails its test" is single/10output/trace_marker FAIL
check "the failure's reason is its FAIL: line" why single/10output/trace_marker "marker not in trace"

# A test killed by the runner's timeout.
judge single 0 "" "${boot[@]}" "RETRACE-PLAN 2" "[FAIL] 10output/slow (300s)" \
	"    x" "      (timed out after 300s)" "[FAIL] 10output/other (1s)" \
	"RETRACE-STATUS 1" "RETRACE-TESTS-DONE rc=1"
check "a timeout is the reason" why single/10output/slow "(timed out after 300s)"
check "no FAIL: line, no reason" why single/10output/other ""

# The guest died mid-run: boot.sh timed out, no end marker.
judge single 124 "" "${boot[@]}" "RETRACE-PLAN 3" "[PASS] 00basic/files (0s)"
check "boot timeout fails" is single/boot FAIL
check "boot timeout reported" grep -q 'timed out' "$tmp/out"
check "died mid-run: plan fails" is single/plan FAIL
check "died mid-run: no end marker" is single/run-completed FAIL
check "died mid-run: no status" is single/runner-status FAIL
check "died mid-run: no test named" why single/boot "timed out (BOOT_TIMEOUT)"

# The guest hung inside a test the runner had announced.
judge mttcg 124 "" "${boot[@]}" "RETRACE-PLAN 3" "RETRACE-START 00basic/files" \
	"[PASS] 00basic/files (0s)" "RETRACE-START 40function/site_stress"
check "a hang names its test" why mttcg/boot "timed out (BOOT_TIMEOUT), during 40function/site_stress"

# No console log at all (QEMU never started).
judge single 1 ""
check "missing log fails the boot" is single/boot FAIL
check "missing log: one failure" counts 0 1 0
judge single 0 ""
check "missing log fails even with status 0" is single/boot FAIL

# A kernel splat.
judge single 0 "" "${boot[@]}" "RETRACE-PLAN 1" "[PASS] 00basic/files (0s)" \
	"[    5.000000] WARNING: CPU: 1 PID: 77 at kernel/trace/retrace/core/core.c:10" \
	"${tail_ok[@]}"
check "a splat fails console-clean" is single/console-clean FAIL

# rt.filter entries: each must match a test that ran.
filters=20ringbuf/stress,40function/toggle_stress,40function/all_functions
judge mttcg 0 "$filters" "${boot[@]}" "RETRACE-PLAN 2" \
	"[PASS] 20ringbuf/stress (40s)" "[PASS] 40function/all_functions (130s)" \
	"${tail_ok[@]}"
check "a filter entry matching no test fails" is mttcg/filter:40function/toggle_stress FAIL
check "filter entries that matched are not failures" counts 7 1 0
judge mttcg 0 "$filters" "${boot[@]}" "RETRACE-PLAN 3" \
	"[PASS] 20ringbuf/stress (40s)" "[PASS] 40function/toggle_stress (200s)" \
	"[PASS] 40function/all_functions (130s)" "${tail_ok[@]}"
check "all filter entries matched: clean" counts 8 0 0

# "!" entries: each must have left out a test, and none of those may run.
filters='!40function/toggle_stress,!45graph/nosuch'
judge single 0 "$filters" "${boot[@]}" "RETRACE-EXCLUDED 40function/toggle_stress" \
	"RETRACE-PLAN 1" "[PASS] 00basic/files (0s)" "${tail_ok[@]}"
check "an exclusion that left out nothing fails" is 'single/filter:!45graph/nosuch' FAIL
check "an exclusion that left out a test is no failure" counts 6 1 0
judge single 0 '!40function/toggle_stress' "${boot[@]}" "RETRACE-EXCLUDED 40function/toggle_stress" \
	"RETRACE-PLAN 1" "[PASS] 40function/toggle_stress (0s)" "${tail_ok[@]}"
check "an excluded test that ran fails" is 'single/filter:!40function/toggle_stress' FAIL

# A test's own indented output never counts as a result line.
judge single 0 "" "${boot[@]}" "RETRACE-PLAN 1" "[FAIL] 00basic/files (0s)" \
	"    [PASS] 00basic/other (0s)" "RETRACE-STATUS 1" "RETRACE-TESTS-DONE rc=1"
check "indented lines are not results" is single/plan PASS

exit $bad
