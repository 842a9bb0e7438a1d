#!/bin/bash
# make soak: SOAK_MINUTES (10) of the selftest 60soak/soak on the KASAN +
# lockdep kernel (build/debug/, as `make check DEBUG=1`) under QEMU's
# multi-threaded TCG, -smp 4: tracer switches, trace_pipe readers,
# filter and pid rewrites, kprobe events with filters, test module
# loads, tracing_cpumask changes, resizes and clears all at once, then
# the per-CPU accounting.  The console is judged as in make check
# (harness/judge.sh): a failed test, a timeout or any kernel splat
# fails the soak.  Ends with "N passed, N failed, N skipped" (also in
# build/soak-FLAVOUR/summary); the console log is
# build/soak-FLAVOUR/console.log.
#
# Environment: SOAK_MINUTES (10); SOAK_KERNEL=debug|normal (debug);
# SOAK_BUILD=0 boots the kernel and initramfs already built instead of
# building them first; BOOT_TIMEOUT (the soak plus a margin for boot
# and shutdown).
set -e
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/judge.sh"

minutes=${SOAK_MINUTES:-10}
case $minutes in '' | *[!0-9]*) die "SOAK_MINUTES must be a whole number of minutes" ;; esac
case ${SOAK_KERNEL:-debug} in
debug) DEBUG=1 ;;
normal) DEBUG=0 ;;
*) die "SOAK_KERNEL must be debug or normal" ;;
esac
export DEBUG
flavour=$(flavour)
secs=$((minutes * 60))
RES=$BUILD/soak-$flavour
log=$RES/console.log
mkdir -p "$RES"
rm -f "$RES/summary" "$log"

pass=0
fail=0
skip=0
failed_names=()
record() {	# record NAME PASS|FAIL|SKIP [WHY] (called by judge_log)
	case $2 in
	PASS) pass=$((pass + 1)) ;;
	SKIP) skip=$((skip + 1)) ;;
	*) fail=$((fail + 1)); failed_names+=("$1${3:+: $3}") ;;
	esac
}

if [ "${SOAK_BUILD:-1}" != 0 ]; then
	"$TOP/harness/deps.sh"
	"$TOP/harness/kernel.sh"
	"$TOP/harness/initramfs.sh"
fi

# Booting a KASAN kernel under TCG takes minutes; the runner allows the
# test 600 s beyond rt.soak_secs to stop and check.
margin=$([ "$flavour" = debug ] && echo 1500 || echo 900)
step "soak: $flavour kernel, TCG multi, -smp ${SMP:-4}, $minutes min (console: $log)"
set +e
QUIET=1 TCG_THREAD=multi BOOT_TIMEOUT=${BOOT_TIMEOUT:-$((secs + margin))} \
	APPEND="tsc=unstable rt.filter=60soak/soak rt.soak_secs=$secs" \
	"$TOP/harness/boot.sh" check "$log"
boot_rc=$?
set -e
# The test's figures (its INFO lines, indented under its result).
tr -d '\r' <"$log" | awk '/^\[(PASS|FAIL|SKIP)\] 60soak\/soak/ { on = 1; next }
	on && /^    / { print; next } { on = 0 }'
judge_log soak "$log" "$boot_rc" 60soak/soak

step "soak ($flavour): done"
[ ${#failed_names[@]} -eq 0 ] || printf 'failed: %s\n' "${failed_names[@]}"
echo "$pass $fail $skip" >"$RES/summary"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
