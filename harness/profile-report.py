#!/usr/bin/env python3
"""Report of harness/profile.sh: instructions per call, by function.

usage: profile-report.py System.map PREFIX CALLS
Reads PREFIX.1 .. PREFIX.CALLS (one kernel program counter per line),
and prints each call's count, then the last call's functions by their
own instruction count and the order they ran in."""
import sys

from ksyms import KernelSymbols


def main():
    syms = KernelSymbols(sys.argv[1])
    prefix, calls = sys.argv[2], int(sys.argv[3])
    runs = []
    for c in range(1, calls + 1):
        pcs = [int(x, 16) for x in open('%s.%d' % (prefix, c))]
        print('call %d: %d instructions' % (c, len(pcs)))
        runs.append(pcs)
    pcs = runs[-1]
    self_count = {}
    flow = []
    for pc in pcs:
        n = syms.name(pc)
        self_count[n] = self_count.get(n, 0) + 1
        if flow and flow[-1][0] == n:
            flow[-1][1] += 1
        else:
            flow.append([n, 1])
    print('\nlast call, by function (own instructions):')
    for n, k in sorted(self_count.items(), key=lambda x: -x[1]):
        print('%7d %5.1f%%  %s' % (k, 100.0 * k / len(pcs), n))
    print('\nlast call, in order (function, instructions):')
    for n, k in flow:
        print('  %-40s %d' % (n, k))


if __name__ == '__main__':
    main()
