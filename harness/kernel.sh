#!/bin/bash
# Configure and build the patched kernel; leave bzImage and modules in
# build/ (or build/debug/ with DEBUG=1).
set -e
. "$(dirname "$0")/lib.sh"

"$TOP/harness/prepare-src.sh"
OBJ=$(objdir)
OUT=$(outdir)
mkdir -p "$OBJ" "$OUT"
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.ccache}
# Hash paths relative to build/ so a fresh clone elsewhere hits the cache.
export CCACHE_BASEDIR=$BUILD CCACHE_NOHASHDIR=1 CCACHE_SLOPPINESS=time_macros
ccache -M 8G >/dev/null 2>&1 || true
KMAKE=(make -C "$SRC" O="$OBJ" -j"$JOBS" CC="ccache gcc" HOSTCC="ccache gcc")

frags=("$TOP/harness/config/retrace.config")
case $(flavour) in
debug) frags+=("$TOP/harness/config/debug.config") ;;
ref) frags+=("$TOP/harness/config/reference.config") ;;
refnolat) frags+=("$TOP/harness/config/reference.config"
		  "$TOP/harness/config/reference-nolat.config") ;;
notrace) frags+=("$TOP/harness/config/notrace.config") ;;
idle) frags+=("$TOP/harness/config/idle.config") ;;
nolat) frags+=("$TOP/harness/config/nolat.config") ;;
esac
stamp=$OBJ/.retrace-config-stamp
want=$(cat "${frags[@]}" "$TOP/Kconfig.patch" "$TOP"/kernel/trace/retrace/Kconfig | md5sum)
if [ ! -f "$OBJ/.config" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
	step "configuring kernel in $OBJ"
	"${KMAKE[@]}" -s x86_64_defconfig >/dev/null
	(cd "$SRC" && scripts/kconfig/merge_config.sh -m -O "$OBJ" "$OBJ/.config" "${frags[@]}" >/dev/null)
	"${KMAKE[@]}" -s olddefconfig >/dev/null
	if [ "$(flavour)" = ref ]; then
		wants="CONFIG_FUNCTION_TRACER=y CONFIG_DYNAMIC_FTRACE=y CONFIG_KPROBE_EVENTS=y"
	elif [ "$(flavour)" = refnolat ]; then
		wants="CONFIG_FUNCTION_TRACER=y CONFIG_DYNAMIC_FTRACE=y CONFIG_KPROBE_EVENTS=y"
		! grep -qE '^CONFIG_(IRQSOFF_TRACER|PREEMPT_TRACER|SCHED_TRACER)=y' "$OBJ/.config" ||
			die "refnolat kernel still has upstream's latency tracers"
	elif [ "$(flavour)" = notrace ]; then
		wants="CONFIG_DEBUG_FS=y"
		! grep -qE '^CONFIG_(RETRACE|FTRACE|TRACING|KPROBES|TRACEPOINTS|TRACEFS)=y' "$OBJ/.config" ||
			die "notrace kernel still has tracing compiled in"
	elif [ "$(flavour)" = idle ]; then
		wants="CONFIG_RETRACE=y CONFIG_DEBUG_FS=y"
		! grep -q '^CONFIG_RETRACE_FUNCTION_TRACER=y' "$OBJ/.config" ||
			die "idle kernel still has the function tracer"
	elif [ "$(flavour)" = nolat ]; then
		wants="CONFIG_RETRACE=y CONFIG_RETRACE_FUNCTION_TRACER=y CONFIG_DEBUG_FS=y"
		# Tracepoints stay: retrace's event layer selects them
		# (RETRACE_TRACEPOINTS: set_event_pid follows the scheduler's).
		! grep -qE '^CONFIG_RETRACE_LATENCY_HOOKS=y' "$OBJ/.config" ||
			die "nolat kernel still has the latency hooks"
	else
		wants="CONFIG_RETRACE=y CONFIG_RETRACE_FUNCTION_TRACER=y CONFIG_RETRACE_KPROBE_EVENTS=y CONFIG_DEBUG_FS=y CONFIG_TRACEFS=y CONFIG_SECURITY_LOCKDOWN_LSM=y CONFIG_KPROBES=y CONFIG_RELAY=y"
		if grep -qE '^CONFIG_(FTRACE|TRACING)=y' "$OBJ/.config"; then
			die "upstream tracing is still enabled in $OBJ/.config"
		fi
	fi
	for want_sym in $wants; do
		grep -qx "$want_sym" "$OBJ/.config" || die "config lacks $want_sym"
	done
	echo "$want" >"$stamp"
fi

# KERNEL_CONFIG_ONLY=1: stop here (make check configures while the
# host tests run).
[ "${KERNEL_CONFIG_ONLY:-0}" = 1 ] && exit 0
step "building $(flavour) kernel (-j$JOBS, log: $OBJ/build.log)"
run_logged "$OBJ/build.log" "${KMAKE[@]}" bzImage modules
cp "$OBJ/arch/x86/boot/bzImage" "$OUT/bzImage"
rm -rf "$OUT/modules"
run_logged "$OBJ/modules_install.log" "${KMAKE[@]}" INSTALL_MOD_PATH="$OUT/modules" INSTALL_MOD_STRIP=1 modules_install
step "kernel ready: $OUT/bzImage, modules in $OUT/modules/"
