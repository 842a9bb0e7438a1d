"""Kernel text symbols from a System.map, for the harness's reports.

profile-report.py and hang-dump.sh name program counters with it."""
import bisect


class KernelSymbols:
    """The text symbols of @path, looked up by address."""

    def __init__(self, path):
        syms = []
        for line in open(path):
            parts = line.split()
            if len(parts) >= 3 and parts[1] in 'tTwW':
                syms.append((int(parts[0], 16), parts[2]))
        syms.sort()
        self.addrs = [a for a, _ in syms]
        self.names = [n for _, n in syms]
        ends = [a for a, n in syms if n == '_etext']
        self.etext = ends[0] if ends else (self.addrs[-1] if self.addrs else 0)

    def name(self, pc, offset=False):
        """@pc's function ('?' outside the kernel's text), +0xOFF if @offset."""
        i = bisect.bisect_right(self.addrs, pc) - 1
        if i < 0 or pc >= self.etext:
            return '?'	# a module, user space, or no text at all
        if offset:
            return '%s+0x%x' % (self.names[i], pc - self.addrs[i])
        return self.names[i]
