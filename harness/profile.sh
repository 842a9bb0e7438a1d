#!/bin/bash
# harness/profile.sh SETUP [CALLS]: where the instructions of one syscall
# go, instruction by instruction.  Boots the built kernel (FLAVOUR as
# lib.sh: REF=1 for upstream's tracing) under single-threaded TCG with
# QEMU's gdb stub, lets guest-profile.sh set up SETUP (off, function,
# graph, kprobe, kprobe+N, marker, raw, text, open, close) and loop on
# its syscall, then single-steps CALLS (3) whole calls from the syscall
# entry back to user mode.  QEMU steps with interrupts and timers
# masked, so a call's count is the call alone; it matches what -icount
# charges it.  Prints the instructions per call and the functions they
# ran in; the program counters go to build/profile/.  A perf-style
# breakdown for make bench's rows (the guest has no PMU under TCG).
# One vCPU (SMP=1) by default:
# while one vCPU steps the others stand still, and a step that waits
# for them (a seqcount retry in ktime_get(), an IPI) would wait forever.
#   PROFILE_FN=SYM: the kprobe setups' function (__x64_sys_getppid).
set -e
. "$(dirname "$0")/lib.sh"

SETUP=${1:?usage: profile.sh off|function|graph|kprobe|kprobe+N|marker|raw|text|open|close [CALLS]}
CALLS=${2:-3}
OUT=$(outdir)
OBJ=$(objdir)
MAP=$OBJ/System.map
command -v gdb >/dev/null || die "profile.sh needs gdb (apt-get install gdb)"
[ -f "$MAP" ] || die "no $MAP: build the $(flavour) kernel first"
case $SETUP in
marker) NR=1 ;;		# write(2)
raw) NR=275 ;;		# splice(2), into the pipe and out of it in turn
text) NR=0 ;;		# read(2)
open) NR=257 ;;		# openat(2) of the open+close loop
close) NR=3 ;;		# close(2) of the same loop
*) NR=110 ;;		# getppid(2)
esac
PD=$BUILD/profile
mkdir -p "$PD"
TAG=$(flavour)-$SETUP
LOG=$PD/$TAG.console
PORT=${PROFILE_PORT:-12345}
rm -f "$LOG"
setsid env QEMU_EXTRA="-gdb tcp:127.0.0.1:$PORT" TCG_THREAD=single \
	SMP="${SMP:-1}" BOOT_TIMEOUT=1800 \
	APPEND="rt.profile=$SETUP ${PROFILE_FN:+rt.profile_fn=$PROFILE_FN} nokaslr ${APPEND:-}" \
	"$TOP/harness/boot.sh" profile "$LOG" >/dev/null 2>&1 < /dev/null &
qpid=$!
trap 'kill -- -$qpid 2>/dev/null || true' EXIT
step "booting the $(flavour) kernel for '$SETUP' (console: $LOG)"
for _ in $(seq 1 600); do
	grep -aq 'PROFILE-READY' "$LOG" 2>/dev/null && break
	grep -aq 'PROFILE-BAD-SETUP\|Kernel panic' "$LOG" 2>/dev/null && die "guest refused '$SETUP': see $LOG"
	kill -0 $qpid 2>/dev/null || die "QEMU exited: see $LOG"
	sleep 1
done
grep -aq 'PROFILE-READY' "$LOG" || die "guest never got ready: see $LOG"
sleep 2
entry=$(awk '$3 == "entry_SYSCALL_64" { print $1 }' "$MAP")
step "stepping $CALLS calls of syscall $NR from entry_SYSCALL_64 (0x$entry)"
PROFILE_PORT=$PORT PROFILE_NR=$NR PROFILE_CALLS=$CALLS PROFILE_ENTRY=0x$entry \
	PROFILE_OUT=$PD/$TAG timeout 1200 gdb -batch -nx -q \
	-x "$TOP/harness/profile-gdb.py" > "$PD/$TAG.gdb.log" 2>&1 ||
	die "gdb failed: see $PD/$TAG.gdb.log"
python3 "$TOP/harness/profile-report.py" "$MAP" "$PD/$TAG" "$CALLS" | tee "$PD/$TAG.txt"
