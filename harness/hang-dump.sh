#!/bin/bash
# harness/hang-dump.sh LOG: boot `check` (APPEND, TCG_THREAD, SMP as for
# boot.sh, plus nokaslr) with QEMU's monitor on a socket, and when the
# console has been silent for STALL_SECS dump every vCPU's registers
# through the monitor, three samples a second apart, each RIP as a kernel
# symbol, to LOG.regs, then stop QEMU.  For boots that hang without a
# word (issue 12: the MTTCG switch stress).  The runner prints nothing
# while a test runs, and a test may take up to its "# timeout:" (1500 s
# for 40function/toggle_stress), so the default, 1800 s, is longer;
# with a filter of short tests, set STALL_SECS lower.  Exits with the
# boot's status, or 3 after a dump.
set -e
. "$(dirname "$0")/lib.sh"

LOG=${1:?usage: hang-dump.sh LOG}
STALL=${STALL_SECS:-1800}
OBJ=$(objdir)
[ -f "$OBJ/System.map" ] || die "no $OBJ/System.map: build the $(flavour) kernel first"
SOCK=$(mktemp -u /tmp/rt-monitor.XXXXXX)
rm -f "$LOG" "$LOG.regs"
setsid env QEMU_EXTRA="${QEMU_EXTRA:-} -monitor unix:$SOCK,server=on,wait=off" \
	APPEND="${APPEND:-} nokaslr" \
	BOOT_TIMEOUT="${BOOT_TIMEOUT:-7200}" "$TOP/harness/boot.sh" check "$LOG" \
	>/dev/null 2>&1 </dev/null &
qpid=$!
trap 'kill -- -$qpid 2>/dev/null || true; rm -f "$SOCK"' EXIT
last=0 quiet=0
while kill -0 $qpid 2>/dev/null; do
	sleep 10
	size=$(stat -c %s "$LOG" 2>/dev/null || echo 0)
	if [ "$size" = "$last" ]; then
		quiet=$((quiet + 10))
	else
		last=$size quiet=0
	fi
	[ $quiet -ge "$STALL" ] || continue
	step "console silent for ${quiet}s: dumping the vCPUs (LOG.regs)"
	python3 - "$SOCK" "$OBJ/System.map" > "$LOG.regs" <<'PY'
import os, re, socket, sys, time
sys.path.insert(0, os.path.join(os.environ['TOP'], 'harness'))
from ksyms import KernelSymbols
sock, mapfile = sys.argv[1], sys.argv[2]
syms = KernelSymbols(mapfile)
def name(pc):
    return syms.name(pc, offset=True)
s = socket.socket(socket.AF_UNIX)
s.connect(sock)
def cmd(c, wait=5):
    s.sendall((c + '\n').encode())
    out, end = b'', time.time() + wait
    s.settimeout(0.5)
    while time.time() < end:
        try:
            d = s.recv(65536)
            if not d:
                break
            out += d
        except socket.timeout:
            pass
    return out.decode(errors='replace')
cmd('', 2)
for rnd in range(3):	# three samples, a second apart: spinning or stuck
    regs = cmd('info registers -a', 8)
    print('==== sample %d' % rnd)
    if 'RIP=' not in regs:
        print('(no registers: the monitor did not answer; a vCPU may hold '
              "QEMU's lock: try gdb -p QEMU_PID -batch -ex 'thread apply all bt')")
    cpu = None
    for line in regs.splitlines():
        m = re.match(r'CPU#(\d+)', line)
        if m:
            cpu = m.group(1)
        m = re.search(r'RIP=([0-9a-f]{16})', line)
        if m:
            pc = int(m.group(1), 16)
            fl = re.search(r'RFL=([0-9a-f]+)', line)
            print('CPU#%s RIP %s %s RFL=%s' % (cpu, m.group(1), name(pc),
                                             fl.group(1) if fl else '?'))
    print(regs)
    time.sleep(1)
PY
	grep -a "RIP " "$LOG.regs" | head -20
	exit 3
done
wait $qpid
