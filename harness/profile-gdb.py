# gdb script of harness/profile.sh: single-step whole syscalls.
#
# Stops at entry_SYSCALL_64 when %rax holds PROFILE_NR, then steps until
# the program counter is back in user space, writing every kernel
# program counter to PROFILE_OUT.N (one hex number per line).
import os
import gdb

port = os.environ['PROFILE_PORT']
nr = int(os.environ['PROFILE_NR'])
calls = int(os.environ['PROFILE_CALLS'])
entry = int(os.environ['PROFILE_ENTRY'], 16)
out = os.environ['PROFILE_OUT']
limit = int(os.environ.get('PROFILE_MAX_STEPS', '100000'))
USER_TOP = 0x0000800000000000

gdb.execute('set pagination off')
gdb.execute('set confirm off')
gdb.execute('set architecture i386:x86-64')
gdb.execute('target remote 127.0.0.1:%s' % port)
bp = gdb.Breakpoint('*0x%x' % entry, type=gdb.BP_HARDWARE_BREAKPOINT,
                    internal=True)
bp.condition = '$rax == %d' % nr


def pc():
    return int(gdb.parse_and_eval('$pc').cast(
        gdb.lookup_type('unsigned long'))) & 0xffffffffffffffff


for c in range(1, calls + 1):
    bp.enabled = True
    gdb.execute('continue', to_string=True)
    bp.enabled = False
    pcs = []
    p = pc()
    while p >= USER_TOP and len(pcs) < limit:
        pcs.append(p)
        gdb.execute('stepi', to_string=True)
        p = pc()
    with open('%s.%d' % (out, c), 'w') as f:
        f.write(''.join('%x\n' % x for x in pcs))
    print('call %d: %d instructions%s' % (c, len(pcs), ' (stopped at the limit)' if p >= USER_TOP else ''))
gdb.execute('kill')
