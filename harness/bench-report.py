#!/usr/bin/env python3
"""Turn make bench's guest logs into a table and build/bench/results.csv.

usage: bench-report.py OUTDIR ICOUNT_RUNS WALL_RUNS

Rows named <tracer>_<loop> are overheads: traced minus baseline of the same
kernel and run, and the ratio is retrace's overhead over upstream's.  Other
rows compare plain values.  Spread is (max - min) / mean over the runs.
"""
import csv
import re
import statistics
import sys

out, runs, wall_runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])

ROWS = [  # name, unit, is_overhead
    ("baseline_getppid", "ns/call", False),
    ("baseline_openclose", "ns/call", False),
    ("function_getppid", "ns/call", True),
    ("function_openclose", "ns/call", True),
    ("function_graph_getppid", "ns/call", True),
    ("function_graph_openclose", "ns/call", True),
    ("irqsoff_getppid", "ns/call", True),
    ("irqsoff_openclose", "ns/call", True),
    ("preemptoff_getppid", "ns/call", True),
    ("preemptoff_openclose", "ns/call", True),
    ("preemptirqsoff_getppid", "ns/call", True),
    ("preemptirqsoff_openclose", "ns/call", True),
    ("wakeup_getppid", "ns/call", True),
    ("wakeup_openclose", "ns/call", True),
    ("wakeup_rt_getppid", "ns/call", True),
    ("wakeup_rt_openclose", "ns/call", True),
    ("baseline_poll32", "ns/call", False),
    ("kmemev_poll32", "ns/call", True),
    ("kmemchan_poll32", "ns/call", True),
    ("kprobe_getppid", "ns/call", True),
    ("kprobe_entry4_getppid", "ns/call", True),
    ("kprobe_offset_getppid", "ns/call", True),
    ("marker_write", "ns/write", False),
    ("kmarker_loop_plain", "ns/turn", False),
    ("kmarker_off_extra", "ns/turn", False),
    ("kmarker_off_hit", "ns/call", False),
    ("kmarker_event_hit", "ns/call", False),
    ("kmarker_kprobe_hit", "ns/call", False),
    ("reader_raw_recs_per_s", "rec/s", False),
    ("reader_raw_lost_per_s", "rec/s", False),
    ("reader_text_recs_per_s", "rec/s", False),
    ("reader_text_lost_per_s", "rec/s", False),
    ("rb_ns_per_entry", "ns/entry", False),
    ("boot_to_user_ms", "ms", False),
]


def parse(path):
    vals = {}
    with open(path, errors="replace") as f:
        for line in f:
            m = re.search(r"BENCH (\S+) (\S+)", line)
            if m:
                try:
                    vals[m.group(1)] = float(m.group(2))
                except ValueError:
                    vals[m.group(1)] = None
    return vals


def value(v, name, overhead):
    if v.get(name) is None:
        return None
    if overhead:
        base = "baseline_" + name.split("_")[-1]
        if v.get(base) is None:
            return None
        return v[name] - v[base]
    return v[name]


def series(kind, flavour, n):
    return [parse(f"{out}/{kind}-{flavour}-{i}.log") for i in range(1, n + 1)]


def fmt(x):
    return "n/a" if x is None else f"{x:.1f}"


def table(kind, n, agg):
    data = {f: series(kind, f, n) for f in ("ref", "normal")}
    rows = []
    for name, unit, ovh in ROWS:
        per = {}
        spread = {}
        for f in data:
            xs = [value(v, name, ovh) for v in data[f]]
            xs = [x for x in xs if x is not None]
            per[f] = agg(xs) if xs and len(xs) == n else None
            if len(xs) == n and n > 1 and statistics.mean(xs):
                spread[f] = (max(xs) - min(xs)) / abs(statistics.mean(xs))
            else:
                spread[f] = None
        ratio = None
        if per["ref"] and per["normal"] is not None:
            ratio = per["normal"] / per["ref"]
        label = name + (" (overhead)" if ovh else "")
        rows.append((label, unit, per["ref"], per["normal"], ratio,
                     spread["ref"], spread["normal"]))
    return rows


def show(title, rows):
    print(title)
    print(f"{'workload':36} {'unit':9} {'upstream':>10} {'retrace':>10} {'ratio':>7} {'spread':>7}")
    for label, unit, up, rt, ratio, s1, s2 in rows:
        sp = [s for s in (s1, s2) if s is not None]
        print(f"{label:36} {unit:9} {fmt(up):>10} {fmt(rt):>10} "
              f"{'n/a' if ratio is None else f'{ratio:.2f}':>7} "
              f"{'' if not sp else f'{100 * max(sp):.1f}%':>7}")
    print()


icount = table("icount", runs, statistics.mean)
show(f"make bench: QEMU -icount (instruction-counted), mean of {runs} runs", icount)
wall = table("wall", wall_runs, statistics.median) if wall_runs else []
if wall:
    show(f"cross-check: wall clock, median of {wall_runs} runs (NOISY, smaller loops)", wall)

def idle_cost(without, title, column):
    """Baseline loops of the normal kernel against flavour @without."""
    rows = []
    for name in ("baseline_getppid", "baseline_openclose", "baseline_poll32"):
        xs = {f: [parse(f"{out}/icount-{f}-{i}.log").get(name) for i in range(1, runs + 1)]
              for f in (without, "normal")}
        if all(x is not None for f in xs for x in xs[f]):
            a, b = statistics.mean(xs[without]), statistics.mean(xs["normal"])
            rows.append((name, a, b, 100 * (b - a) / a))
    if rows:
        print(f"{title}: QEMU -icount, mean of {runs} runs")
        print(f"{'workload':36} {column:>10} {'retrace':>10} {'cost':>7}")
        for name, a, b, pct in rows:
            print(f"{name:36} {a:10.1f} {b:10.1f} {pct:6.2f}%")
        print()
    return rows


# Idle cost: retrace compiled in (call sites as NOPs) against the same
# kernel without its function tracer, tracing off in both; and against
# the kernel without its latency tracers (their dormant hooks and the
# tracepoints).
idle = idle_cost("idle", "idle cost of retrace", "no ftrace")
nolat = idle_cost("nolat", "idle cost of the latency tracers", "no lat")

with open(f"{out}/results.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["clock", "workload", "unit", "upstream", "retrace",
                "ratio", "spread_upstream", "spread_retrace"])
    for clock, rows in (("icount", icount), ("wall", wall)):
        for r in rows:
            w.writerow([clock, r[0], r[1]] + ["" if x is None else f"{x:.4f}" for x in r[2:]])
    for clock, rows in (("icount-idle", idle), ("icount-nolat", nolat)):
        for name, a, b, pct in rows:
            w.writerow([clock, name, "ns/call", f"{a:.4f}", f"{b:.4f}",
                        f"{b / a:.4f}", "", ""])
print(f"wrote {out}/results.csv")
