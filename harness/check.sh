#!/bin/bash
# make check: host unit tests, then the kernel, then the selftests in a
# QEMU guest.  Prints one line per test and ends with
# "N passed, N failed, N skipped" (also in build/check-FLAVOUR/summary).
# A WARNING/BUG/Oops/lockdep/KASAN/soft-lockup report in the guest's
# console counts as a failed test, and so does a boot that timed out,
# a runner that did not report every test it planned, or a runner exit
# status other than 0 (harness/judge.sh).
set -e
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/judge.sh"

flavour=$([ "${DEBUG:-0}" = 1 ] && echo debug || echo normal)
RES=$BUILD/check-$flavour
mkdir -p "$RES"
# An old console log must never be judged as this run's.
rm -f "$RES/summary" "$RES"/console-*.log
pass=0
fail=0
skip=0
failed_names=()
record() {	# record NAME PASS|FAIL|SKIP [WHY]
	case $2 in
	PASS) pass=$((pass + 1)) ;;
	SKIP) skip=$((skip + 1)) ;;
	*) fail=$((fail + 1)); failed_names+=("$1${3:+: $3}") ;;
	esac
}

"$TOP/harness/deps.sh"

# 1. Host tests (ASan/UBSan), seconds.
# CHECK_HOST=0 leaves them out: .ci/run runs them once, in the normal
# kernel's check, not again for the debug kernel (they do not depend
# on the kernel).
# Meanwhile the other core unpacks, patches and configures the kernel
# (single-threaded steps; the host tests and fuzzers use one core too).
prep=
if [ "${CHECK_HOST:-1}" != 0 ]; then
	KERNEL_CONFIG_ONLY=1 "$TOP/harness/kernel.sh" >"$RES/kernel-config.log" 2>&1 &
	prep=$!
	trap '[ -z "$prep" ] || kill "$prep" 2>/dev/null' EXIT
	step "host unit tests (ASan + UBSan)"
	mkdir -p "$BUILD/host"
	make -s -C "$TOP/kernel/trace/retrace/host" O="$BUILD/host" all >"$RES/host-build.log" 2>&1 ||
		{ cat "$RES/host-build.log"; die "host tests do not build"; }
	set +e
	for t in "$BUILD"/host/*_test; do
		"$t" >"$RES/$(basename "$t").log" 2>&1
		rc=$?
		while read -r st name; do
			case $st in
			ok) record "host/$name" PASS; echo "[PASS] host/$name" ;;
			not) name=${name#ok }; record "host/$name" FAIL; echo "[FAIL] host/$name" ;;
			esac
		done < <(grep -E '^(ok|not ok) ' "$RES/$(basename "$t").log")
		if [ $rc -ne 0 ]; then
			grep -vE '^(ok|not ok) ' "$RES/$(basename "$t").log" | tail -n 30
			grep -qE '^not ok ' "$RES/$(basename "$t").log" || record "host/$(basename "$t")" FAIL
		fi
	done
	# host_script NAME LOG CMD...: one PASS/FAIL line for a host-side script.
	host_script() {
		local name=$1 log=$RES/$2
		shift 2
		if "$@" >"$log" 2>&1; then
			echo "[PASS] host/$name ($(tail -n 1 "$log"))"
			record "host/$name" PASS
		else
			echo "[FAIL] host/$name:"
			grep -v '^ok ' "$log" | head -n 40
			record "host/$name" FAIL
		fi
	}
	# Layering: each layer includes only its own and lower layers' headers;
	# the checker and the console-log judge (judge.sh) are tested too.
	host_script layering-selftest layering-selftest.log "$TOP/harness/layering-test.sh"
	host_script judge-selftest judge-selftest.log "$TOP/harness/check-parse-test.sh"
	host_script layering layering.log "$TOP/harness/layering.sh" "$TOP"
	fz=$RES/fuzz.log
	step "fuzzing the ring buffer (${FUZZ_SECONDS:-20}s), write carry (5s), glob matcher (10s), filter (20s), kprobe_events (20s), marker format (10s) and kmemtrace record (10s) parsers, the trace_pipe_raw page packer (10s), event trigger lines (5s) and the text context columns (5s) (libFuzzer + ASan/UBSan)"
	if make -s -C "$TOP/kernel/trace/retrace/host" O="$BUILD/host" fuzz \
		FUZZ_SECONDS="${FUZZ_SECONDS:-20}" >"$fz" 2>&1; then
		echo "[PASS] host/fuzz ($(grep -o 'Done [0-9]* runs' "$fz" | paste -sd, -))"
		record host/fuzz PASS
	else
		echo "[FAIL] host/fuzz:"
		grep -E 'fuzz check failed|ERROR|SUMMARY|Test unit written' "$fz" | head -n 10
		record host/fuzz FAIL
	fi
	set -e
fi

# 2. Kernel and initramfs.
if [ -n "$prep" ]; then
	rc=0
	wait "$prep" || rc=$?
	prep=
	cat "$RES/kernel-config.log"
	[ $rc = 0 ] || die "configuring the kernel failed (status $rc)"
fi
"$TOP/harness/kernel.sh"
"$TOP/harness/initramfs.sh"

# The patch series (make series): it generates, git am applies it to
# the pristine tree, the result is the tree just built, and checkpatch
# --strict finds no errors.  Host-side, with the host tests; the build
# after every patch is make series-check's.
if [ "${CHECK_HOST:-1}" != 0 ]; then
	step "patch series: make series, git am, identity, checkpatch --strict"
	set +e
	"$TOP/harness/series.py" gen >"$RES/series.log" 2>&1
	rc=$?
	[ $rc = 0 ] && "$TOP/harness/series.py" check >>"$RES/series.log" 2>&1
	if [ $rc != 0 ]; then
		echo "[FAIL] series/gen:"; tail -n 20 "$RES/series.log"; record series/gen FAIL
	fi
	while read -r st name rest; do
		case $st in
		'[PASS]') record "$name" PASS; echo "$st $name $rest" ;;
		'[FAIL]') record "$name" FAIL; echo "$st $name $rest"
			grep '^  ' "$RES/series.log" | head -n 20 ;;
		esac
	done < <(grep -E '^\[(PASS|FAIL)\] series/' "$RES/series.log")
	# check stopped before its last result (a manifest or count error).
	[ $rc != 0 ] || grep -qE '^\[(PASS|FAIL)\] series/checkpatch' "$RES/series.log" ||
		{ echo "[FAIL] series/check (no result)"; tail -n 5 "$RES/series.log"; record series/check FAIL; }
	set -e
fi

# 3. Selftests in the guest.
#
# "single" boots use -accel tcg,thread=single: QEMU's multi-threaded TCG
# has oopsed the kernel's own live text patching here (int3 left in a
# stale translation after a static key flip).  Such a guest keeps one
# host core busy, so the single boots run two at a time (lanes, below),
# each with part of the tests, and both cores work.
# "mttcg": the ring buffer stress and the function tracer's live
# patching again with vCPUs really in parallel; tsc=unstable keeps
# sched_clock from flipping its static key after SMP (the kernel's own
# int3-based patching, which is what MTTCG trips on).  It has both cores
# to itself.
#
# guest_boot NAME THREAD FILTER EXTRA_APPEND [SMP]: one boot, console log in
# console-NAME.log, boot.sh's status in rc-NAME; judged later by
# guest_judge, which records the verdicts (record() keeps its counts in
# this shell, so boots that ran in the background are judged here).
guest_boot() {
	local name=$1 log=$RES/console-$1.log
	rm -f "$log" "$RES/rc-$name"
	QUIET=1 SMP=${5:-${SMP:-4}} TCG_THREAD=$2 BOOT_TIMEOUT=${BOOT_TIMEOUT:-$([ "$flavour" = debug ] && echo 2400 || echo 1800)} \
		APPEND="${3:+rt.filter=$3} $4 ${CHECK_APPEND:-}" "$TOP/harness/boot.sh" check "$log"
	echo $? >"$RES/rc-$name"
}
guest_judge() {	# guest_judge NAME FILTER
	judge_log "$1" "$RES/console-$1.log" "$(cat "$RES/rc-$1" 2>/dev/null || echo 1)" "$2"
}

# The tests the MTTCG boot below runs with vCPUs really in parallel.
# The single boots leave them out: they are long, and what they look for
# (races between CPUs) needs the vCPUs in parallel.
mttcg_tests=20ringbuf/stress,40function/toggle_stress,40function/all_functions,40function/site_stress,45graph/switch_stress,55latency/switch_stress,65markers/stress,70kmemtrace/load,70kmemtrace/overruns
# The single boots' two lanes, by area, balanced by their times in CI
# (about 1100 s each on the normal kernel); each lane leaves out the
# MTTCG tests of its areas.
lane_a=00basic,10output,20ringbuf,40function,45graph,50kprobe,!20ringbuf/stress,!40function/toggle_stress,!40function/all_functions,!40function/site_stress,!45graph/switch_stress
lane_b=30bench,55latency,60soak,65markers,68sched,70kmemtrace,80perftools,85tracecmd,90lockdown,!55latency/switch_stress,!65markers/stress,!70kmemtrace/load,!70kmemtrace/overruns
# 50kprobe/stress: 30 rounds (60 by default), 20 under KASAN +
# lockdep.  Run by hand, the defaults are longer; make check keeps to
# CI's time.
single_append="rt.kprobe_rounds=30"
mttcg_extra=
if [ "$flavour" = debug ]; then
	# 60soak/soak: 50 s (20 s by default); under KASAN 20 s did not
	# give every worker a turn.
	single_append="rt.kprobe_rounds=20 rt.soak_secs=50"
	if [ "${CHECK_SET:-all}" = ci ]; then
		# .ci/run's debug boots: every test runs on the normal kernel
		# just before, so under KASAN + lockdep run the tests that
		# reach the most locking and memory paths at least once:
		# tracefs files, instances and snapshots, readers, the
		# profiler's and stack tracer's tables, each tracer (its
		# switches in the MTTCG boot), live patching with modules and NMIs,
		# kprobe and marker lifetimes, events and their triggers
		# (soft mode, RCU sets, rmdir), kmemtrace's channels,
		# the soak's everything at once.  Under KASAN a test takes ten
		# times as long (30 s to 400 s here; 790 s for one round of
		# 55latency/switch_stress); the whole list would not fit CI's time.
		lane_a=00basic/instances,00basic/buffer_size_kb_rollback,00basic/snapshot,10output/trace_pipe_raw,10output/subbuf_size,10output/trace_pipe_readers,40function/function_basic,40function/module,!40function/module_pending,40function/event_commands,40function/instances,40function/kprobe_site,!40function/kprobe_site_history,40function/nmi,40function/profiler,45graph/basic,45graph/instances,45graph/kretprobe,68sched/marker_triggers
		lane_b=40function/stack_tracer,50kprobe/fetch_args,50kprobe/array_types,50kprobe/args_user_vfs,50kprobe/errors,50kprobe/module,50kprobe/multiprobe,55latency/wakeup,55latency/preemptoff,60soak,65markers/module,68sched/events,68sched/irq_events,68sched/signal_events,68sched/timer_events,68sched/kmem_events,68sched/syscalls,68sched/triggers,68sched/snapshot_trigger,70kmemtrace/record
		# The MTTCG boot leaves out the two tests that patch every
		# function again and again (all_functions, the function_graph
		# switches): 189 s and over 15 minutes under MTTCG on the
		# normal kernel already.
		# kmemtrace's channels are left to the single boot's
		# 70kmemtrace/record (CI's time).
		# 55latency/switch_stress: 71 s a round here (by hand).
		mttcg_tests=20ringbuf/stress,40function/toggle_stress,55latency/switch_stress,65markers/stress
		# toggle_stress without its all-function toggles: under KASAN
		# with 4 vCPUs on 2 host cores one round patching every site
		# kept every CPU in stop_machine() for 14 s, and RCU's 21 s
		# stall detector fired (CI, stop 29).  The normal kernel's
		# MTTCG boot runs them.
		mttcg_extra=rt.toggles_all=0
	else
		# The benchmark harness's check and the event ID wrap (4000
		# event creations) buy nothing under KASAN + lockdep.
		lane_a=$lane_a,!30bench/workloads,!50kprobe/removed_types
	fi
fi
# -smp 2 (SINGLE_SMP): single-threaded TCG runs the vCPUs one after
# another on one host thread, so every per-CPU step (stop_machine(),
# schedule_on_each_cpu(), a per-CPU buffer walk) costs in proportion
# to their number.  With 2 instead of 4 the normal kernel's lanes took
# 842 s and 784 s instead of about 1250 s each; the tests still see
# more than one CPU.  The ftracetest boot and make run keep 4.
single_smp=${SINGLE_SMP:-${SMP:-2}}
step "booting $flavour kernel twice at once (TCG single, -smp $single_smp): $lane_a | $lane_b"
set +e
guest_boot single-a single "$lane_a" "$single_append" "$single_smp" &
guest_boot single-b single "$lane_b" "$single_append" "$single_smp" &
wait
guest_judge single-a "$lane_a"
guest_judge single-b "$lane_b"
set -e

# 400 live-patching toggles on the normal kernel, 120 under KASAN (at
# most 60 s of them once 50 are done, 40 s under KASAN, and as long
# for all-function toggles once 3 are done); then every function traced
# on every CPU for 30 s.  The limits keep CI's time (a cold .ci/run
# inside an hour); run by hand, the tests' own defaults go further.
toggles=$([ "$flavour" = debug ] && echo 120 || echo 400)
togglesecs=$([ "$flavour" = debug ] && echo 40 || echo 60)
allsecs=30
# 4 tracer switches a round: 50 rounds are the 200 switches asked for.
gswitch=$([ "$flavour" = debug ] && echo 4 || echo 50)
# ... for at most 60 s once 3 rounds are done (a switch patches every
# function: seconds under MTTCG).
graphsecs=60
# 65markers/stress: 40 rounds of switches and probe churn (100 by
# default; 190 s under MTTCG on the normal kernel).
markrounds=40
# 55latency/switch_stress: 25 rounds of its 8 tracers, the 200
# switches asked for (about 120 s); 2 under KASAN + lockdep (71 s a
# round by hand).  Its static key flips once hung the guest
# here: vCPUs ran stale translations of the flipped sites' int3s, and the
# int3 handler now runs past them (retrace-function.txt, "int3").
latswitches=$([ "$flavour" = debug ] && echo 2 || echo 25)
# 65markers/stress with rt.mark_hold=1: hits on every vCPU while probes
# come and go, the site's static key left on (see retrace-markers.txt).
# 40function/site_stress (kprobes and tracers on shared sites): under
# MTTCG it once hung the guest silently after all_functions (twice on
# the debug kernel, once in CI on the normal one).  Those hangs match
# the stale-int3 livelock that retrace_int3_gone() now runs past
# (retrace-function.txt, "int3"); after that fix it passed by hand
# alone twice and after all_functions and toggle_stress with these
# limits, so the normal kernel's MTTCG boot runs it again.  The debug
# MTTCG boot leaves it out for time.
# 70kmemtrace/load and overruns: the channels' writers, the reader and
# the accounting with vCPUs in parallel.
# -smp 2 (MTTCG_SMP): one vCPU thread per host core.  With 4 vCPUs on
# the 2 cores, each stop_machine() round waited for vCPUs the host had
# descheduled: an all-function patching round took 6.5 s, 1.8 s with
# 2 vCPUs; the same boot ran 712 s with 4 and 415 s with 2 and did more
# toggles and switches in it (75 filtered and 10 all-function toggles,
# 5 graph rounds, against 50, 4 and 3).
mttcg_smp=${MTTCG_SMP:-2}
step "booting $flavour kernel in QEMU (TCG multi, -smp $mttcg_smp): $mttcg_tests"
set +e
guest_boot mttcg multi "$mttcg_tests" \
	"tsc=unstable rt.mark_hold=1 rt.lat_switches=$latswitches rt.stress_ms=5000 rt.toggles=$toggles rt.toggle_secs=$togglesecs rt.fn_all_secs=$allsecs rt.graph_switches=$gswitch rt.graph_secs=$graphsecs rt.mark_rounds=$markrounds $mttcg_extra" \
	"$mttcg_smp"
guest_judge mttcg "$mttcg_tests"
set -e

# The last boots, in two lanes again.  Lane 1 (normal kernel only):
# upstream's ftracetest (harness/conformance.sh); every case
# tools/testing/selftests/ftrace/retrace/conformance.txt records as passing
# must still pass.
# Lane 2: kmemtrace.enable=yes, records from early boot, checked by
# 70kmemtrace/boot (which skips in the boots above), then 90lockdown/
# integrity locks the guest down for good (rt.lockdown=1): tracefs must
# keep working where debugfs refuses.  Then ftrace_dump_on_oops: boots
# that end in a deliberate oops, so the usual console judge would fail
# them for it; oops-check.sh reads the dump instead.  Mode 1 is set
# through the sysctl, mode 2 by the boot parameter.
oops_boot() {	# oops_boot MODE EXTRA_APPEND
	local log=$RES/console-oops-$1.log
	rm -f "$log" "$RES/rc-oops-$1"
	QUIET=1 TCG_THREAD=single BOOT_TIMEOUT=${OOPS_TIMEOUT:-600} \
		APPEND="rt.oops_mode=$1 $2" "$TOP/harness/boot.sh" oops "$log" >/dev/null 2>&1
	echo $? >"$RES/rc-oops-$1"
}
oops_judge() {	# oops_judge MODE
	local name=oops/dump_mode_$1 log=$RES/console-oops-$1.log why boot_rc
	boot_rc=$(cat "$RES/rc-oops-$1" 2>/dev/null || echo 1)
	# The oops panics the guest, which then powers off (-no-reboot).
	if [ "$boot_rc" = 124 ]; then
		echo "[FAIL] $name: the guest hung after the oops (BOOT_TIMEOUT)"
		record "$name" FAIL
	elif why=$("$TOP/harness/oops-check.sh" "$log" "$1"); then
		echo "[PASS] $name ($why)"
		record "$name" PASS
	else
		echo "[FAIL] $name: $why"
		record "$name" FAIL
	fi
}
# tsc=unstable: the latency tracers' clock must keep counting with
# interrupts off where local_clock() does not (55latency/unstable_clock,
# which also runs in a lane with whatever TSC that boot has).
kmem_tests=55latency/unstable_clock,70kmemtrace/boot,90lockdown/integrity
# CI's debug check leaves the oops boots out: the dump path they test
# is the same code on both kernels, and they ran on the normal one.
oops_modes="1 2"
[ "$flavour" = debug ] && [ "${CHECK_SET:-all}" = ci ] && oops_modes=
# ... and the kmemtrace.enable=yes boot too (160 s under KASAN), which
# has just passed on the normal kernel: CI's time.
kmem_boot=1
[ "$flavour" = debug ] && [ "${CHECK_SET:-all}" = ci ] && kmem_boot=
if [ -z "$kmem_boot$oops_modes" ] && [ "$flavour" != normal ]; then
	step "CHECK_SET=ci: no kmemtrace.enable=yes or oops boots on the $flavour kernel"
else
	step "booting $flavour kernel: $([ "$flavour" = normal ] && echo "ftracetest | ")${kmem_boot:+$kmem_tests with kmemtrace.enable=yes}${oops_modes:+, then ftrace_dump_on_oops boots (modes $oops_modes)}$([ "$flavour" = normal ] && [ "${CHECK_PREBUILD_DEBUG:-0}" = 1 ] && echo ", then building the debug kernel")"
fi
set +e
if [ "$flavour" = normal ]; then
	CONF_BUILD=0 "$TOP/harness/conformance.sh" >"$RES/conformance.log" 2>&1 &
fi
{
	[ -z "$kmem_boot" ] || guest_boot kmemboot single "$kmem_tests" "kmemtrace.enable=yes rt.lockdown=1 tsc=unstable"
	for m in $oops_modes; do
		oops_boot "$m" "$([ "$m" = 2 ] && echo ftrace_dump_on_oops=orig_cpu)"
	done
	# CHECK_PREBUILD_DEBUG=1 (.ci/run): then build the debug kernel,
	# niced, beside ftracetest's guest, so the debug check that follows
	# finds it built.  A failure here shows again in that check.
	if [ "$flavour" = normal ] && [ "${CHECK_PREBUILD_DEBUG:-0}" = 1 ]; then
		nice -n 19 env DEBUG=1 "$TOP/harness/kernel.sh" >"$RES/debug-prebuild.log" 2>&1 ||
			echo "retrace: building the debug kernel early failed (see $RES/debug-prebuild.log)"
	fi
} &
wait
[ -z "$kmem_boot" ] || guest_judge kmemboot "$kmem_tests"
if [ "$flavour" = normal ]; then
	while read -r st name why; do
		case $st in
		"[PASS]") record "$name" PASS ;;
		"[FAIL]") record "$name" FAIL "$why" ;;
		*) continue ;;
		esac
		echo "$st $name${why:+ $why}"
	done < <(grep -E '^\[(PASS|FAIL)\] ' "$RES/conformance.log")
	grep -q '^\[' "$RES/conformance.log" || { record conformance/run FAIL "no result; see $RES/conformance.log"; tail -n 5 "$RES/conformance.log"; }
	grep -E '^conformance: |^    now passes' "$RES/conformance.log" || true
fi
for m in $oops_modes; do
	oops_judge "$m"
done
set -e

step "$flavour: done"
[ ${#failed_names[@]} -eq 0 ] || printf 'failed: %s\n' "${failed_names[@]}"
echo "$pass $fail $skip" >"$RES/summary"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
