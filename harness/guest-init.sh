#!/bin/sh
# /init of the retrace test guest.
export PATH=/bin:/sbin:/usr/bin:/usr/sbin:/selftests/helpers
mount -t proc proc /proc
uptime_at_init=$(cut -d' ' -f1 /proc/uptime)
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
mount -t debugfs nodev /sys/kernel/debug
# Where user space mounts tracefs; /sys/kernel/debug/tracing mounts it
# again by itself on first use.
mount -t tracefs nodev /sys/kernel/tracing
mode=shell
for arg in $(cat /proc/cmdline); do
	case $arg in
	rt.mode=*) mode=${arg#rt.mode=} ;;
	rt.filter=*) filter=$(echo "${arg#rt.filter=}" | tr , ' ') ;;
	rt.stress_ms=*) export RB_STRESS_MS=${arg#rt.stress_ms=} ;;
	rt.bench_ms=*) export RB_BENCH_MS=${arg#rt.bench_ms=} ;;
	rt.bench_scale=*) bench_scale=${arg#rt.bench_scale=} ;;
	rt.bench_only=*) export BENCH_ONLY=${arg#rt.bench_only=} ;;
	rt.profile=*) profile=${arg#rt.profile=} ;;
	rt.profile_fn=*) export PROFILE_FN=${arg#rt.profile_fn=} ;;
	rt.fn_all_secs=*) export FN_ALL_SECS=${arg#rt.fn_all_secs=} ;;
	rt.tc_load_secs=*) export RT_TC_LOAD_SECS=${arg#rt.tc_load_secs=} ;;
	rt.tc_load_mask=*) export RT_TC_LOAD_MASK=${arg#rt.tc_load_mask=} ;;
	esac
done
ln -s /sys/kernel/debug/tracing /tracing
echo "retrace guest: $(uname -r), $(nproc) CPUs, mode $mode"
case $mode in
check)
	/selftests/retrace_test.sh $filter
	rc=$?
	# harness/check.sh fails the run unless this status is 0.
	echo "RETRACE-STATUS $rc"
	echo "RETRACE-TESTS-DONE rc=$rc"
	;;
bench)
	echo "BENCH boot_to_user_ms $(echo "$uptime_at_init" | awk '{ printf "%d", $1 * 1000 }')"
	/selftests/bench/guest-bench.sh "${bench_scale:-100}"
	;;
profile)
	# harness/profile.sh: gdb steps through one call from the host.
	/selftests/bench/guest-profile.sh "$profile"
	;;
conformance)
	# Upstream's ftracetest (harness/conformance.sh reads the console).
	/selftests/conformance.sh /ftracetest
	;;
oops)
	# A boot that ends in a deliberate oops: harness/check.sh reads
	# the console (ftrace_dump_on_oops).
	/selftests/oops/dump_on_oops.sh
	echo "RETRACE-OOPS-NOT-TRIGGERED"
	;;
demo)
	cd /sys/kernel/debug/tracing
	set -x
	cat available_tracers
	cat current_tracer
	echo "hello from the retrace demo" > trace_marker
	cat trace
	cat per_cpu/cpu0/stats
	set +x
	echo "RETRACE-DEMO-DONE"
	;;
*)
	echo
	echo "Tracing is at /sys/kernel/debug/tracing (also /tracing)."
	echo "Selftests: /selftests/retrace_test.sh.  Quit: 'poweroff' (or Ctrl-a x)."
	cd /sys/kernel/debug/tracing
	setsid cttyhack sh -l
	;;
esac
sync
poweroff -f
