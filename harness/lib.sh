# Shared helpers for the retrace harness scripts (sourced, not run).
# shellcheck shell=bash

TOP=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
BUILD=${BUILD:-$TOP/build}
SRC=$BUILD/src
JOBS=${JOBS:-$(nproc)}
T0=${T0:-$(date +%s)}
export TOP BUILD SRC JOBS T0

step() {
	printf '[retrace %4ds] %s\n' $(( $(date +%s) - T0 )) "$*"
}

die() {
	echo "retrace: error: $*" >&2
	exit 1
}

# Run a long command, printing a heartbeat every 30 s so that a user
# never watches a silent terminal; the command's own output goes to
# $log and its tail is shown on failure.
run_logged() {
	local log=$1; shift
	"$@" >"$log" 2>&1 &
	local pid=$! start=$(date +%s) ticks=0
	while kill -0 "$pid" 2>/dev/null; do
		sleep 5
		ticks=$((ticks + 1))
		if (( ticks % 6 == 0 )); then
			step "  ... still running ($(( $(date +%s) - start ))s): $(tail -n 1 "$log" | cut -c1-90)"
		fi
	done
	if ! wait "$pid"; then
		tail -n 40 "$log"
		die "command failed: $* (full log: $log)"
	fi
}

# Kernel flavours: normal (retrace), debug (retrace + KASAN/lockdep,
# DEBUG=1), ref (upstream 6.12 tracing for make bench, REF=1) and idle
# (retrace without its function tracer, for make bench's idle cost,
# IDLE=1) and nolat (retrace without its latency tracers, the idle cost
# of those, NOLAT=1); for make bench also refnolat (upstream without its
# latency tracers, REFNOLAT=1) and notrace (no tracing at all, NOTRACE=1).
flavour() {
	if [ "${REFNOLAT:-0}" = 1 ]; then echo refnolat
	elif [ "${NOTRACE:-0}" = 1 ]; then echo notrace
	elif [ "${REF:-0}" = 1 ]; then echo ref
	elif [ "${IDLE:-0}" = 1 ]; then echo idle
	elif [ "${NOLAT:-0}" = 1 ]; then echo nolat
	elif [ "${DEBUG:-0}" = 1 ]; then echo debug
	else echo normal; fi
}

# Directory holding kernel objects for this flavour.
objdir() {
	case $(flavour) in
	normal) echo "$BUILD/obj" ;;
	*) echo "$BUILD/obj-$(flavour)" ;;
	esac
}

# Where `make kernel` leaves bzImage and modules for this flavour.
outdir() {
	case $(flavour) in
	normal) echo "$BUILD" ;;
	*) echo "$BUILD/$(flavour)" ;;
	esac
}
