#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench workloads, run inside the guest on either kernel (retrace or
# upstream 6.12) through the tracing files both provide.  Prints
# "BENCH <name> <value>" lines; "n/a" where this kernel lacks the feature.
#
# usage: guest-bench.sh [scale]   (scale 100 = full, smaller = quicker)
# BENCH_ONLY=baseline stops after the tracing-off loops, BENCH_ONLY=marker
# after them and the trace_marker row; BENCH_ONLY=reader
# runs only the reader-throughput rows (a quick look at one kernel:
# harness/boot.sh bench LOG with APPEND="rt.bench_only=reader").

T=/sys/kernel/debug/tracing
S=${1:-1}
N=$((200000 * S / 100))	# scale is a percentage
[ "$N" -gt 0 ] || N=1000
RBMS=${RB_BENCH_MS:-10000}

bench() { echo "BENCH $1 $2"; }
loops() {	# loops PREFIX: the syscall loops under the current setup
	bench "$1_getppid" "$(rtbench getppid $N)"
	bench "$1_openclose" "$(rtbench openclose $((N / 4)))"
}

has_tracer() { grep -qw "$1" available_tracers; }

# make bench's notrace kernel has no tracing directory: it runs only the
# baseline loops, the floor the other kernels' are compared with.
if [ -f "$T/current_tracer" ]; then
	cd "$T" || exit 1
	echo nop > current_tracer
	echo 1 > tracing_on
	echo > trace
elif [ "${BENCH_ONLY:-}" != baseline ]; then
	echo "no tracing directory at $T" >&2
	exit 1
fi
loops baseline
# poll() of 32 ignored fds: one kmalloc() and kfree() per call (kmemtrace
# below).
bench baseline_poll32 "$(rtbench poll32 $N)"
# BENCH_ONLY=baseline: the idle-cost kernel needs nothing else.
if [ "${BENCH_ONLY:-}" = baseline ]; then
	echo "BENCH-DONE"
	exit 0
fi
# BENCH_ONLY=marker: the baselines and the trace_marker row.
if [ "${BENCH_ONLY:-}" = marker ]; then
	echo > trace
	bench marker_write "$(rtbench marker $N trace_marker)"
	echo "BENCH-DONE"
	exit 0
fi

if [ "${BENCH_ONLY:-}" != reader ]; then
for t in function function_graph irqsoff preemptoff preemptirqsoff wakeup wakeup_rt; do
	if has_tracer $t; then
		echo $t > current_tracer
		loops $t
		echo nop > current_tracer
		echo > trace
	else
		bench "${t}_getppid" n/a
		bench "${t}_openclose" n/a
	fi
done

fn=__do_sys_getppid
if [ -f kprobe_events ] && grep -qw "$fn" available_filter_functions 2>/dev/null; then
	echo "p:benchk $fn" > kprobe_events
	echo 1 > events/kprobes/benchk/enable
	bench kprobe_getppid "$(rtbench getppid $N)"
	echo 0 > events/kprobes/benchk/enable
	echo > kprobe_events
	# SYM+4: on an IBT kernel the call site past the endbr64, which is
	# where a probe on SYM goes too, so it should cost the same; on a
	# kernel without IBT +4 is inside the call and is refused (n/a).
	if echo "p:benchk $fn+4" > kprobe_events 2>/dev/null; then
		echo 1 > events/kprobes/benchk/enable
		bench kprobe_entry4_getppid "$(rtbench getppid $N)"
		echo 0 > events/kprobes/benchk/enable
		echo > kprobe_events
	else
		bench kprobe_entry4_getppid n/a
	fi
	# Inside the function: the first instruction boundary past the
	# call site (and an endbr64, if any) that kprobes accepts.  Both
	# kernels use an int3 there, whereas upstream can use ftrace at +0.
	for off in 5 9 4 8; do
		echo "p:benchk $fn+$off" > kprobe_events 2>/dev/null && break
	done
	if [ -d events/kprobes/benchk ]; then
		echo 1 > events/kprobes/benchk/enable
		bench kprobe_offset_getppid "$(rtbench getppid $N)"
		echo "INFO kprobe offset $off" >&2
		echo 0 > events/kprobes/benchk/enable
		echo > kprobe_events
	else
		bench kprobe_offset_getppid n/a
	fi
else
	bench kprobe_getppid n/a
	bench kprobe_entry4_getppid n/a
	bench kprobe_offset_getppid n/a
fi

echo > trace
bench marker_write "$(rtbench marker $N trace_marker)"
echo > trace

# Kernel markers (retrace only): a loop with a disarmed trace_mark()
# against the same loop without, in instructions per turn under -icount;
# then ns per hit of one function, its four-argument marker recorded as
# an event, against a kprobe event fetching the same four arguments.
km=/sys/module/rt_mark_test/parameters
if m=$(find /lib/modules -name rt_mark_test.ko | head -n 1) && [ -n "$m" ] &&
   insmod "$m" 2>/dev/null; then
	echo $((N * 10)) > $km/bench_loop
	set -- $(cat $km/bench_loop)
	bench kmarker_off_extra "$(awk -v a=$1 -v b=$2 -v n=$((N * 10)) 'BEGIN { printf "%.3f", (b - a) / n }')"
	bench kmarker_loop_plain "$(awk -v a=$1 -v n=$((N * 10)) 'BEGIN { printf "%.3f", a / n }')"
	echo 1 > events/markers/rt_mark_bench_hit/enable
	echo $N > $km/bench_hits
	echo 0 > events/markers/rt_mark_bench_hit/enable
	set -- $(cat $km/bench_hits)
	bench kmarker_event_hit "$(awk -v t=$3 -v n=$N 'BEGIN { printf "%.1f", t / n }')"
	echo > trace
	# The marker's own NOP may be the first instruction, where kprobes
	# refuse to go: the first offset accepted, before any argument
	# register is touched (the disarmed path is NOP, return).
	for off in 0 2 4 5; do
		echo "p:benchm rt_mark_test:rt_mark_bench_target+$off seq=%di:u32 cpu=%si:s32 name=+0(%dx):string big=%cx:u64" \
			> kprobe_events 2>/dev/null && break
	done
	if [ -d events/kprobes/benchm ]; then
		echo 1 > events/kprobes/benchm/enable
		echo $N > $km/bench_hits
		echo 0 > events/kprobes/benchm/enable
		[ "$(grep -c ' benchm: ' trace)" -gt 0 ] || echo "INFO kprobe at +$off recorded nothing" >&2
		set -- $(cat $km/bench_hits)
		bench kmarker_kprobe_hit "$(awk -v t=$3 -v n=$N 'BEGIN { printf "%.1f", t / n }')"
		echo "INFO kmarker kprobe at +$off" >&2
		echo > kprobe_events
	else
		bench kmarker_kprobe_hit n/a
	fi
	echo $N > $km/bench_hits
	set -- $(cat $km/bench_hits)
	bench kmarker_off_hit "$(awk -v t=$3 -v n=$N 'BEGIN { printf "%.1f", t / n }')"
	echo > trace
	rmmod rt_mark_test
else
	for r in off_extra loop_plain event_hit kprobe_hit off_hit; do bench kmarker_$r n/a; done
fi

# Allocator records: poll() of 32 fds kmallocs the 2 that do not fit on
# its stack and frees them, so each call makes one allocation record
# and one free record.  kmemev: the allocator's events in the trace (retrace:
# events/kmemtrace; upstream: the six events/kmem ones kmemtrace
# covers).  kmemchan (retrace only): kmemtrace's binary channels, sized
# to hold the whole loop with no reader, so nothing is dropped.
if [ -d events/kmemtrace ]; then
	kev="events/kmemtrace/alloc events/kmemtrace/free"
else
	kev=""
	for e in kmalloc kfree kmem_cache_alloc kmem_cache_free mm_page_alloc mm_page_free; do
		[ -d events/kmem/$e ] && kev="$kev events/kmem/$e"
	done
fi
if [ -n "$kev" ]; then
	echo > trace
	for e in $kev; do echo 1 > $e/enable; done
	bench kmemev_poll32 "$(rtbench poll32 $N)"
	for e in $kev; do echo 0 > $e/enable; done
	echo > trace
else
	bench kmemev_poll32 n/a
fi
K=/sys/kernel/debug/kmemtrace
if [ -f $K/enable ]; then
	kb0=$(cat $K/buffer_size_kb)
	# 80 bytes a pair in the ring (two 4-byte headers), and room to spare.
	echo $((N * 96 / 1024 + 1024)) > $K/buffer_size_kb
	o0=$(cat $K/total_overruns)
	echo 1 > $K/enable
	bench kmemchan_poll32 "$(rtbench poll32 $N)"
	echo 0 > $K/enable
	[ "$(cat $K/total_overruns)" = "$o0" ] || echo "INFO kmemchan dropped $(( $(cat $K/total_overruns) - o0 )) bytes" >&2
	echo $kb0 > $K/buffer_size_kb
else
	bench kmemchan_poll32 n/a
fi

fi

# Reader throughput, the function tracer on every function while two
# getppid loops run, for RD_SECS of guest time: records drained per
# second and records lost per second, (a) by trace-cmd record through
# per_cpu/cpuN/trace_pipe_raw (binary pages), (b) by cat of trace_pipe
# (text).  Counts come from per_cpu/cpuN/stats, whose "read events",
# "entries" and "overrun" lines both kernels print; trace-cmd's count
# includes the records it flushed after the stop ("entries" then).
RD_SECS=${RD_SECS:-3}
rd_stats() {	# rd_stats: "read overrun" summed over the CPUs
	cat per_cpu/cpu*/stats | awk '/^read events:/ { r += $3 }
		/^overrun:/ { o += $2 } END { print r, o }'
}
tc_stats() {	# tc_stats FILE: "records overrun" trace-cmd saved in FILE
	trace-cmd report -i "$1" --stat 2> /dev/null |
		awk '/^read events:/ { r += $3 } /^entries:/ { e += $2 }
		     /^overrun:/ { o += $2 } END { print r + e, o }'
}
rd_raw() {	# rd_raw CMD...: "records lost" of trace-cmd record while CMD runs
	( cd /tmp && trace-cmd record -p function -o /tmp/rd.dat -- "$@" \
		> /tmp/rd.out 2>&1 ) || echo "INFO reader: trace-cmd record failed: $(tail -n 3 /tmp/rd.out)" >&2
	# The stats trace-cmd saved when it stopped: read + left (flushed).
	tc_stats /tmp/rd.dat
	rm -f /tmp/rd.dat
}
rd_left() {	# rd_left: records still in the CPUs' rings
	cat per_cpu/cpu*/stats | awk '/^entries:/ { e += $2 } END { print e + 0 }'
}
# rd_text [-d] CMD...: "read lost" of cat trace_pipe while CMD runs;
# with -d cat then drains what is left (at most 10 s), as trace-cmd
# flushes at its end, so that read + lost is every record written.
rd_text() {
	drain=
	[ "$1" = -d ] && { drain=1; shift; }
	echo function > current_tracer
	echo > trace
	cat trace_pipe > /dev/null & c=$!
	"$@"
	echo 0 > tracing_on
	i=0
	while [ -n "$drain" ] && [ "$(rd_left)" != 0 ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -z "$drain" ] || [ "$(rd_left)" = 0 ] ||
		echo "INFO reader: trace_pipe left $(rd_left) records undrained" >&2
	kill $c 2> /dev/null
	wait $c 2> /dev/null
	rd_stats
	echo nop > current_tracer
	echo 1 > tracing_on
	echo > trace
}
if has_tracer function && command -v trace-cmd > /dev/null; then
	rtbench getppid 2000000000 > /dev/null & l1=$!
	rtbench getppid 2000000000 > /dev/null & l2=$!
	set -- $(rd_raw sleep $RD_SECS)
	bench reader_raw_recs_per_s "$(( ${1:-0} / RD_SECS ))"
	bench reader_raw_lost_per_s "$(( ${2:-0} / RD_SECS ))"
	set -- $(rd_text sleep $RD_SECS)
	bench reader_text_recs_per_s "$(( ${1:-0} / RD_SECS ))"
	bench reader_text_lost_per_s "$(( ${2:-0} / RD_SECS ))"
	kill $l1 $l2
	wait $l1 $l2 2> /dev/null

	# The same as a fixed amount of work: RD_WORK getppid calls in
	# each loop, read while they run, then what is left drained.  Records drained and lost for
	# the same workload: a faster tracer writes these records in less
	# time, where per second (above) it writes more of them.
	RD_WORK=${RD_WORK:-$((N * 5 / 2))}
	work="rtbench getppid $RD_WORK > /dev/null & rtbench getppid $RD_WORK > /dev/null; wait"
	set -- $(rd_raw sh -c "$work")
	bench reader_raw_work_recs "${1:-0}"
	bench reader_raw_work_lost "${2:-0}"
	set -- $(rd_text -d sh -c "$work")
	bench reader_text_work_recs "${1:-0}"
	bench reader_text_work_lost "${2:-0}"
else
	for r in raw_recs raw_lost text_recs text_lost; do bench reader_${r}_per_s n/a; done
	for r in raw_work_recs raw_work_lost text_work_recs text_work_lost; do bench reader_$r n/a; done
fi

if [ "${BENCH_ONLY:-}" = reader ]; then
	echo "BENCH-DONE"
	exit 0
fi

# Ring buffer benchmark module of this kernel, same method on both: the
# writer alone.  With a reader on the other vCPU the interleaving
# changes from boot to boot even under -icount (25% apart here).
if m=$(find /lib/modules -name ring_buffer_benchmark.ko | head -n 1) && [ -n "$m" ]; then
	echo > trace
	# Upstream's module runs 10 s rounds and reports through the trace.
	# Under -icount it has hung the guest's insmod/rmmod more than once
	# (see README), so it runs in the background and is given up on
	# after RB_REF_WAIT seconds; the module is then left loaded.
	rm -f /tmp/rbref.out
	( insmod "$m" disable_reader=1
	  i=0
	  while ! grep -q 'ns per entry' trace && [ $i -lt ${RB_REF_WAIT:-30} ]; do
		sleep 1
		i=$((i + 1))
	  done
	  grep -m1 'ns per entry' trace > /tmp/rbref.line
	  mv /tmp/rbref.line /tmp/rbref.out
	  rmmod ring_buffer_benchmark ) &
	i=0
	while [ ! -f /tmp/rbref.out ] && [ $i -lt $((${RB_REF_WAIT:-30} + 30)) ]; do
		sleep 1
		i=$((i + 1))
	done
	v=$(sed -E 's/.* ([0-9]+) ns per entry.*/\1/' /tmp/rbref.out 2>/dev/null)
	bench rb_ns_per_entry "${v:-n/a}"
elif m=$(find /lib/modules -name rb_benchmark.ko | head -n 1) && [ -n "$m" ]; then
	dmesg -c > /dev/null
	insmod "$m" run_ms=$RBMS no_consumer=1
	rmmod rb_benchmark
	bench rb_ns_per_entry "$(dmesg | sed -n -E 's/.*ns per entry: ([0-9]+).*/\1/p' | head -n 1)"
else
	bench rb_ns_per_entry n/a
fi
echo "BENCH-DONE"
