#!/bin/bash
# make bench: retrace against upstream 6.12's own tracing, same source
# tree, same config otherwise.  Boots both kernels under QEMU with
# -icount (guest time counts instructions: repeatable), twice each, and
# once more per kernel without -icount as a noisy wall-clock cross-check
# (median of BENCH_WALL_RUNS).  Upstream runs twice: with its latency
# tracers (ref) and without (refnolat), its fastest configuration for
# the rest.  Three more kernels run the baseline loops only: retrace
# without its function tracer (idle), without its latency tracers
# (nolat), and a kernel with no tracing at all (notrace), the floor of
# the idle cost.  Writes build/bench/results.csv.
set -e
. "$(dirname "$0")/lib.sh"

OUTB=$BUILD/bench
mkdir -p "$OUTB"
RUNS=${BENCH_RUNS:-2}
WALL_RUNS=${BENCH_WALL_RUNS:-5}
SCALE=${BENCH_SCALE:-100}

"$TOP/harness/deps.sh"
use_flavour() {	# use_flavour FLAVOUR: set the variables lib.sh reads
	unset REF REFNOLAT NOTRACE IDLE NOLAT DEBUG
	case $1 in
	ref) export REF=1 ;;
	refnolat) export REFNOLAT=1 ;;
	notrace) export NOTRACE=1 ;;
	idle) export IDLE=1 ;;
	nolat) export NOLAT=1 ;;
	esac
}

for f in ref refnolat normal idle nolat notrace; do
	use_flavour $f
	"$TOP/harness/kernel.sh"
	"$TOP/harness/initramfs.sh"
done
use_flavour normal

boot_bench() {	# boot_bench FLAVOUR LOG EXTRA_QEMU APPEND
	local f=$1
	use_flavour "$f"
	QEMU_EXTRA="$3" TCG_THREAD=single SMP=2 BOOT_TIMEOUT=1800 \
		APPEND="$4" "$TOP/harness/boot.sh" bench "$2" >/dev/null 2>&1 || true
	use_flavour normal
	grep -aq BENCH-DONE "$2" || die "bench boot of $f did not finish; see $2"
}

ICOUNT="-icount shift=0,align=off,sleep=off"
for run in $(seq 1 "$RUNS"); do
	for f in ref refnolat normal; do
		step "icount run $run/$RUNS: $f kernel"
		boot_bench $f "$OUTB/icount-$f-$run.log" "$ICOUNT" "rt.bench_scale=$SCALE"
	done
	for f in idle nolat notrace; do
		step "icount run $run/$RUNS: $f kernel (baseline loops only)"
		boot_bench $f "$OUTB/icount-$f-$run.log" "$ICOUNT" \
			"rt.bench_scale=$SCALE rt.bench_only=baseline"
	done
done
for run in $(seq 1 "$WALL_RUNS"); do
	for f in ref refnolat normal; do
		step "wall-clock run $run/$WALL_RUNS: $f kernel (noisy cross-check)"
		boot_bench $f "$OUTB/wall-$f-$run.log" "" "rt.bench_scale=$((SCALE / 4)) rt.bench_ms=2000"
	done
done
python3 "$TOP/harness/bench-report.py" "$OUTB" "$RUNS" "$WALL_RUNS"
