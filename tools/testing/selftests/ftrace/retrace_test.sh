#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# retrace selftest runner (busybox sh).  Runs every test.d/<area>/*.tc
# in its own shell, from a clean tracing state, under a timeout, and
# prints one "[PASS] area/name" or "[FAIL] area/name" line per test
# (with the test's "INFO: " lines, or its log's tail when it failed) and
# a closing "N passed, N failed" line.
#
# usage: retrace_test.sh [-t SECS] [PATTERN...]

TRACING=${TRACING:-/sys/kernel/debug/tracing}
HERE=$(cd "$(dirname "$0")" && pwd)
TIMEOUT=120
[ "$1" = -t ] && { TIMEOUT=$2; shift 2; }
export TRACING HERE PATH="$HERE/helpers:$PATH"

[ -d "$TRACING" ] || mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
[ -d "$TRACING" ] || { echo "no tracing directory at $TRACING"; exit 1; }

pass=0
fail=0
for tc in "$HERE"/test.d/*/*.tc; do
	name=${tc#"$HERE"/test.d/}
	name=${name%.tc}
	if [ $# -gt 0 ]; then
		m=0
		for p in "$@"; do case $name in *$p*) m=1 ;; esac; done
		[ $m = 1 ] || continue
	fi
	log=/tmp/retrace-test.log
	# A test may ask for more time with a "# timeout: SECS" line.
	t=$(sed -n 's/^# timeout: \([0-9]*\)$/\1/p' "$tc")
	start=$(date +%s)
	timeout "${t:-$TIMEOUT}" sh -c ". '$HERE/test.d/functions'; rt_reset; . '$tc'" >"$log" 2>&1
	rc=$?
	if [ $rc = 0 ]; then
		echo "[PASS] $name ($(($(date +%s) - start))s)"
		# Figures a passing test wants on record.
		sed -n 's/^INFO: /    /p' "$log"
		pass=$((pass + 1))
	else
		[ $rc = 124 ] || [ $rc = 143 ] && echo "  (timed out after ${t:-$TIMEOUT}s)" >>"$log"
		echo "[FAIL] $name ($(($(date +%s) - start))s)"
		sed 's/^/    /' "$log" | tail -n 30
		fail=$((fail + 1))
	fi
done
echo "selftests: $pass passed, $fail failed"
[ $fail = 0 ]
