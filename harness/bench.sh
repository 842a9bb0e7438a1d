#!/bin/bash
# make bench: retrace against upstream 6.12's own tracing, same source
# tree, same config otherwise.  Boots both kernels under QEMU with
# -icount (guest time counts instructions: repeatable), twice each, and
# once more per kernel without -icount as a noisy wall-clock cross-check
# (median of BENCH_WALL_RUNS).  Writes build/bench/results.csv.
set -e
. "$(dirname "$0")/lib.sh"

OUTB=$BUILD/bench
mkdir -p "$OUTB"
RUNS=${BENCH_RUNS:-2}
WALL_RUNS=${BENCH_WALL_RUNS:-5}
SCALE=${BENCH_SCALE:-100}

"$TOP/harness/deps.sh"
for f in ref normal; do
	if [ $f = ref ]; then export REF=1; else unset REF; fi
	"$TOP/harness/kernel.sh"
	"$TOP/harness/initramfs.sh"
done
unset REF

boot_bench() {	# boot_bench FLAVOUR LOG EXTRA_QEMU APPEND
	local f=$1
	if [ "$f" = ref ]; then export REF=1; else unset REF; fi
	QEMU_EXTRA="$3" TCG_THREAD=single SMP=2 BOOT_TIMEOUT=1800 \
		APPEND="$4" "$TOP/harness/boot.sh" bench "$2" >/dev/null 2>&1 || true
	unset REF
	grep -aq BENCH-DONE "$2" || die "bench boot of $f did not finish; see $2"
}

ICOUNT="-icount shift=0,align=off,sleep=off"
for run in $(seq 1 "$RUNS"); do
	for f in ref normal; do
		step "icount run $run/$RUNS: $f kernel"
		boot_bench $f "$OUTB/icount-$f-$run.log" "$ICOUNT" "rt.bench_scale=$SCALE"
	done
done
for run in $(seq 1 "$WALL_RUNS"); do
	for f in ref normal; do
		step "wall-clock run $run/$WALL_RUNS: $f kernel (noisy cross-check)"
		boot_bench $f "$OUTB/wall-$f-$run.log" "" "rt.bench_scale=$((SCALE / 4)) rt.bench_ms=2000"
	done
done
python3 "$TOP/harness/bench-report.py" "$OUTB" "$RUNS" "$WALL_RUNS"
