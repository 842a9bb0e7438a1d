#!/bin/bash
# Boot the built kernel in QEMU (TCG).
#   boot.sh MODE [LOG]   MODE: check | demo | shell
# Environment: SMP (4), MEM (2G), TCG_THREAD (multi|single),
# BOOT_TIMEOUT seconds (check/demo only), APPEND (extra cmdline),
# QEMU_EXTRA (extra QEMU arguments, e.g. "-icount shift=0,align=off,sleep=off"
# for instruction-counted, repeatable timings).
#
# TCG_THREAD=multi (QEMU's default) runs vCPUs truly in parallel, which
# the ring buffer's races want, but has oopsed the kernel's own live text
# patching (int3 seen in a stale translation); single is reliable.  See
# harness/check.sh for which test boot uses which.
set -e
. "$(dirname "$0")/lib.sh"

MODE=${1:-shell}
LOG=${2:-}
OUT=$(outdir)
[ -f "$OUT/bzImage" ] || die "no kernel at $OUT/bzImage; run make kernel"
# no_timer_check: the kernel's early check that the IO-APIC timer ticks
# panicked a multi-threaded TCG boot on a busy host ("IO-APIC + timer
# doesn't work!"); virtual machines commonly skip it.
# la57=off: with 5-level paging, identify_cpu() briefly clears the boot
# CPU's LA57 bit, and a KASAN kernel interrupted in that window reports
# its own direct-map accesses as wild (seen at boot under MTTCG).
args=(-m "${MEM:-2G}" -smp "${SMP:-4}" -cpu max,la57=off
      -accel "tcg,thread=${TCG_THREAD:-single}"
      -kernel "$OUT/bzImage" -initrd "$OUT/initramfs.cpio.gz"
      -nographic -no-reboot
      -append "console=ttyS0 panic=-1 no_timer_check rt.mode=$MODE ${APPEND:-}")
# shellcheck disable=SC2206
[ -n "${QEMU_EXTRA:-}" ] && args+=(${QEMU_EXTRA})
if [ "$MODE" = shell ]; then
	exec qemu-system-x86_64 "${args[@]}"
fi
# Exit with QEMU's status: 124 when BOOT_TIMEOUT ran out (check.sh
# fails the boot on any non-zero status).
set +e
timeout --foreground "${BOOT_TIMEOUT:-900}" qemu-system-x86_64 "${args[@]}" \
	</dev/null 2>&1 | tee "${LOG:-/dev/null}" | \
	{ if [ -n "${QUIET:-}" ]; then grep --line-buffered -E '^\[(PASS|FAIL|SKIP)\]|RETRACE-(PLAN|STATUS|TESTS-DONE|DEMO-DONE)|selftests:' || true; else cat; fi; }
rc=${PIPESTATUS[0]}
[ "$rc" = 124 ] && echo "retrace: QEMU killed after BOOT_TIMEOUT=${BOOT_TIMEOUT:-900}s" >&2
exit "$rc"
