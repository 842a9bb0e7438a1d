#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# retrace selftest runner (busybox sh).  Prints "RETRACE-PLAN N" (the
# number of tests it will run, after the name filter) first, then runs
# every test.d/<area>/*.tc in its own shell and session, from a clean
# tracing state, under a timeout, announcing each with "RETRACE-START
# area/name" (a guest that hangs then names the test), and prints one "[PASS] area/name",
# "[FAIL] area/name" or "[SKIP] area/name (reason)" line per test (with
# the test's "INFO: " lines, or its log's tail when it failed) and a
# closing "selftests: N passed, N failed, N skipped" line.
#
# A test that cannot run here prints "SKIP: reason" and exits with
# status 77 (skip() in test.d/functions); any other non-zero status is
# a failure.  When a test ends (or times out), its whole process group
# is killed, background jobs included.
#
# usage: retrace_test.sh [-t SECS] [PATTERN...] [!PATTERN...]

TRACING=${TRACING:-/sys/kernel/debug/tracing}
HERE=$(cd "$(dirname "$0")" && pwd)
TIMEOUT=120
[ "$1" = -t ] && { TIMEOUT=$2; shift 2; }
export TRACING HERE PATH="$HERE/helpers:$PATH"
# No job control: a background child then is no process group leader,
# so setsid below makes its own session without forking.
set +m

[ -d "$TRACING" ] || mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
[ -d "$TRACING" ] || { echo "no tracing directory at $TRACING"; exit 1; }
command -v setsid >/dev/null || { echo "no setsid command"; exit 1; }

# selected NAME [PATTERN...]: NAME contains none of the "!PATTERN"s and,
# when plain PATTERNs are given, one of them.
selected() {
	_n=$1
	shift
	_want=0
	_hit=1
	for _p in "$@"; do
		case $_p in
		!*) case $_n in *"${_p#!}"*) return 1 ;; esac ;;
		*) _want=1; case $_n in *$_p*) _hit=0 ;; esac ;;
		esac
	done
	[ $_want = 0 ] && return 0
	return $_hit
}

planned=0
for tc in "$HERE"/test.d/*/*.tc; do
	[ -f "$tc" ] || continue
	name=${tc#"$HERE"/test.d/}
	if selected "${name%.tc}" "$@"; then
		planned=$((planned + 1))
	else
		# The judge checks that each "!" entry left out a real test.
		for _p in "$@"; do
			case $_p in !*) case ${name%.tc} in *"${_p#!}"*)
				echo "RETRACE-EXCLUDED ${name%.tc}" ;; esac ;;
			esac
		done
	fi
done
echo "RETRACE-PLAN $planned"

# rt_reset (test.d/functions) restores the boot's buffer size.
RT_BUFFER_KB=$(cat "$TRACING/buffer_size_kb" 2>/dev/null)
export RT_BUFFER_KB
# ... and every option's boot value (options/ keeps a tracer's options
# across selections, so one test's change would outlive it).
RT_OPTIONS_BOOT=/tmp/retrace-options.boot
(cd "$TRACING/options" 2>/dev/null && grep -H . -- *) > "$RT_OPTIONS_BOOT" 2>/dev/null
export RT_OPTIONS_BOOT

pass=0
fail=0
skip=0
log=/tmp/retrace-test.log
for tc in "$HERE"/test.d/*/*.tc; do
	[ -f "$tc" ] || continue
	name=${tc#"$HERE"/test.d/}
	name=${name%.tc}
	selected "$name" "$@" || continue
	# A test may ask for more time with a "# timeout: SECS" line, or
	# "# timeout: SECS+rt.NAME": SECS plus the kernel command line's
	# rt.NAME=N (0 without one).
	t=$(sed -n 's/^# timeout: \([0-9]*\(+rt\.[a-z_]*\)\{0,1\}\)$/\1/p' "$tc")
	case $t in
	*+rt.*)
		v=$(tr ' ' '\n' < /proc/cmdline | sed -n "s/^${t#*+}=\([0-9]*\)$/\1/p" | tail -n 1)
		t=$((${t%%+*} + ${v:-0})) ;;
	esac
	# On the console, so that a guest which hangs names its test.
	echo "RETRACE-START $name"
	start=$(date +%s)
	# setsid: the test's PID is its session's and process group's ID,
	# which its background jobs inherit; once it has ended, kill what
	# is left of the group.  (busybox timeout signals only the PID.)
	setsid timeout -k 10 "${t:-$TIMEOUT}" \
		sh -c ". '$HERE/test.d/functions'; rt_reset; . '$tc'" </dev/null >"$log" 2>&1 &
	pid=$!
	wait "$pid"
	rc=$?
	kill -9 "-$pid" 2>/dev/null
	secs=$(($(date +%s) - start))
	if [ $rc = 0 ]; then
		echo "[PASS] $name (${secs}s)"
		# Figures a passing test wants on record.
		sed -n 's/^INFO: /    /p' "$log"
		pass=$((pass + 1))
	elif [ $rc = 77 ]; then
		why=$(sed -n 's/^SKIP: //p' "$log" | head -n 1)
		echo "[SKIP] $name (${why:-no reason given})"
		skip=$((skip + 1))
	else
		case $rc in
		124|137|143) [ "$secs" -ge "${t:-$TIMEOUT}" ] &&
			echo "  (timed out after ${t:-$TIMEOUT}s)" >>"$log" ;;
		esac
		echo "[FAIL] $name (${secs}s)"
		sed 's/^/    /' "$log" | tail -n 30
		fail=$((fail + 1))
	fi
done
echo "selftests: $pass passed, $fail failed, $skip skipped"
[ $fail = 0 ]
