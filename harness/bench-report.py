#!/usr/bin/env python3
"""Turn make bench's guest logs into tables and build/bench/results.csv.

usage: bench-report.py OUTDIR ICOUNT_RUNS WALL_RUNS

Kernels (log names icount-FLAVOUR-N.log, wall-FLAVOUR-N.log):
  ref       upstream 6.12's tracing, latency tracers included
  refnolat  the same without IRQSOFF/PREEMPT/SCHED_TRACER: upstream's
            fastest configuration for everything but those tracers
  normal    retrace
  idle      retrace without its function tracer   (baseline loops only)
  nolat     retrace without its latency tracers   (baseline loops only)
  notrace   no tracing compiled in at all         (baseline loops only)

Rows named <tracer>_<loop> are overheads: traced minus the baseline of
the same kernel and run.  Retrace's ratio is taken over the better of
the two upstream kernels (the lower cost, or the higher rate for the
reader's records per second).  Spread is (max - min) / mean over runs.
The baselines of every kernel are then compared with no tracing, and
issue 18's and 17's goals are printed as met or MISSED.
"""
import csv
import re
import statistics
import sys

out, runs, wall_runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])

# name, unit, is_overhead, higher_is_better
ROWS = [
    ("baseline_getppid", "ns/call", False, False),
    ("baseline_openclose", "ns/call", False, False),
    ("function_getppid", "ns/call", True, False),
    ("function_openclose", "ns/call", True, False),
    ("function_graph_getppid", "ns/call", True, False),
    ("function_graph_openclose", "ns/call", True, False),
    ("irqsoff_getppid", "ns/call", True, False),
    ("irqsoff_openclose", "ns/call", True, False),
    ("preemptoff_getppid", "ns/call", True, False),
    ("preemptoff_openclose", "ns/call", True, False),
    ("preemptirqsoff_getppid", "ns/call", True, False),
    ("preemptirqsoff_openclose", "ns/call", True, False),
    ("wakeup_getppid", "ns/call", True, False),
    ("wakeup_openclose", "ns/call", True, False),
    ("wakeup_rt_getppid", "ns/call", True, False),
    ("wakeup_rt_openclose", "ns/call", True, False),
    ("baseline_poll32", "ns/call", False, False),
    ("kmemev_poll32", "ns/call", True, False),
    ("kmemchan_poll32", "ns/call", True, False),
    ("kprobe_getppid", "ns/call", True, False),
    ("kprobe_entry4_getppid", "ns/call", True, False),
    ("kprobe_offset_getppid", "ns/call", True, False),
    ("marker_write", "ns/write", False, False),
    ("kmarker_loop_plain", "ns/turn", False, False),
    ("kmarker_off_extra", "ns/turn", False, False),
    ("kmarker_off_hit", "ns/call", False, False),
    ("kmarker_event_hit", "ns/call", False, False),
    ("kmarker_kprobe_hit", "ns/call", False, False),
    ("reader_raw_recs_per_s", "rec/s", False, True),
    ("reader_raw_lost_per_s", "rec/s", False, False),
    ("reader_text_recs_per_s", "rec/s", False, True),
    ("reader_text_lost_per_s", "rec/s", False, False),
    ("reader_raw_work_recs", "records", False, True),
    ("reader_raw_work_lost", "records", False, False),
    ("reader_text_work_recs", "records", False, True),
    ("reader_text_work_lost", "records", False, False),
    ("rb_ns_per_entry", "ns/entry", False, False),
    ("boot_to_user_ms", "ms", False, False),
]
UPSTREAM = ("ref", "refnolat")
BASELINES = ("baseline_getppid", "baseline_openclose", "baseline_poll32")


def parse(path):
    vals = {}
    try:
        f = open(path, errors="replace")
    except OSError:
        return vals
    with f:
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


def agg_of(xs, n, agg):
    xs = [x for x in xs if x is not None]
    return agg(xs) if xs and len(xs) == n else None


def spread_of(xs, n):
    xs = [x for x in xs if x is not None]
    if len(xs) == n and n > 1 and statistics.mean(xs):
        return (max(xs) - min(xs)) / abs(statistics.mean(xs))
    return None


def best_upstream(per, higher):
    ups = [(per[f], f) for f in UPSTREAM if per.get(f) is not None]
    if not ups:
        return None, None
    return (max if higher else min)(ups)


def table(kind, n, agg):
    data = {f: series(kind, f, n) for f in UPSTREAM + ("normal",)}
    rows = []
    for name, unit, ovh, higher in ROWS:
        per, spread = {}, []
        for f in data:
            xs = [value(v, name, ovh) for v in data[f]]
            per[f] = agg_of(xs, n, agg)
            s = spread_of(xs, n)
            if s is not None:
                spread.append(s)
        best, which = best_upstream(per, higher)
        rt = per["normal"]
        # A cost at or below zero (noise, or a wall-clock run) has no
        # meaningful ratio: n/a, and any goal on it too.
        ratio = (rt / best if best is not None and best > 0 and rt is not None
                 and (rt >= 0 or higher) else None)
        rows.append({"name": name, "label": name + (" (overhead)" if ovh else ""),
                     "unit": unit, "ref": per["ref"], "refnolat": per["refnolat"],
                     "retrace": per["normal"], "ratio": ratio, "vs": which,
                     "spread": max(spread) if spread else None})
    return rows


def show(title, rows):
    print(title)
    print(f"{'workload':36} {'unit':8} {'upstream':>10} {'up-nolat':>10} "
          f"{'retrace':>10} {'ratio':>6} {'vs':>4} {'spread':>7}")
    for r in rows:
        vs = {"ref": "up", "refnolat": "nol"}.get(r["vs"], "")
        print(f"{r['label']:36} {r['unit']:8} {fmt(r['ref']):>10} {fmt(r['refnolat']):>10} "
              f"{fmt(r['retrace']):>10} "
              f"{'n/a' if r['ratio'] is None else format(r['ratio'], '.2f'):>6} {vs:>4} "
              f"{'' if r['spread'] is None else format(100 * r['spread'], '.1f') + '%':>7}")
    print("ratio: retrace over the better upstream kernel (vs: up = with its "
          "latency tracers, nol = without)\n")


def baselines():
    """Every kernel's tracing-off loops against the kernel without tracing."""
    kernels = (("notrace", "no tracing"), ("normal", "retrace"),
               ("idle", "rt no-fn"), ("nolat", "rt no-lat"),
               ("ref", "upstream"), ("refnolat", "up-nolat"))
    vals = {}
    for f, _ in kernels:
        for name in BASELINES:
            xs = [parse(f"{out}/icount-{f}-{i}.log").get(name) for i in range(1, runs + 1)]
            vals[f, name] = agg_of(xs, runs, statistics.mean)
    base = {name: vals["notrace", name] for name in BASELINES}
    print(f"tracing compiled in, off: baseline loops, QEMU -icount, mean of {runs} runs; "
          "(+x%) over no tracing")
    print(f"{'workload':22}" + "".join(f" {label:>18}" for _, label in kernels))
    rows = []
    for name in BASELINES:
        line = f"{name:22}"
        for f, _ in kernels:
            v, b = vals[f, name], base[name]
            cell = fmt(v)
            if v is not None and b and f != "notrace":
                cell += f" ({100 * (v - b) / b:+.1f}%)"
            line += f" {cell:>18}"
            rows.append((name, f, v, None if v is None or not b else v / b))
        print(line)
    print()
    return vals, rows


def goals(icount, vals):
    """Issue 18's and 17's goals, each as met, MISSED or n/a."""
    r = {row["name"]: row for row in icount}
    out_rows = []

    def goal(text, x, ok):
        state = "n/a" if x is None else ("met" if ok(x) else "MISSED")
        out_rows.append((text, x, state))

    for name, limit in (("kprobe_getppid", 0.60), ("kprobe_entry4_getppid", 0.60),
                        ("marker_write", 0.70), ("function_getppid", 0.65),
                        ("function_openclose", 0.65)):
        goal(f"{name}: ratio <= {limit:.2f}", r[name]["ratio"], lambda x, l=limit: x <= l)
    goal("reader_text_recs_per_s: ratio >= 1.30", r["reader_text_recs_per_s"]["ratio"],
         lambda x: x >= 1.30)
    goal("reader_raw_recs_per_s: ratio >= 1.00", r["reader_raw_recs_per_s"]["ratio"],
         lambda x: x >= 1.00)
    for name in ("reader_raw_lost_per_s", "reader_text_lost_per_s",
                 "reader_raw_work_lost", "reader_text_work_lost"):
        row = r[name]
        best = best_upstream({"ref": row["ref"], "refnolat": row["refnolat"]}, False)[0]
        x = row["retrace"]
        goal(f"{name}: retrace's below upstream's ({fmt(best)})",
             None if best is None else x, lambda x, b=best: x < b or x == b == 0)
    for name in BASELINES:
        v, b = vals["normal", name], vals["notrace", name]
        goal(f"{name}: retrace idle within 3% of no tracing",
             None if v is None or not b else 100 * (v - b) / b, lambda x: x <= 3.0)
        for up in UPSTREAM:
            u = vals[up, name]
            goal(f"{name}: retrace idle <= {up} idle ({fmt(u)})",
                 None if v is None or u is None else v, lambda x, u=u: x <= u)
    print("goals (issues 17 and 18)")
    for text, x, state in out_rows:
        print(f"  {state:7} {text:60} {'' if x is None else format(x, '.2f')}")
    print()
    return out_rows


icount = table("icount", runs, statistics.mean)
show(f"make bench: QEMU -icount (instruction-counted), mean of {runs} runs", icount)
wall = table("wall", wall_runs, statistics.median) if wall_runs else []
if wall:
    show(f"cross-check: wall clock, median of {wall_runs} runs (NOISY, smaller loops)", wall)
vals, base_rows = baselines()
goal_rows = goals(icount, vals)

with open(f"{out}/results.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["clock", "workload", "unit", "upstream", "upstream_nolat", "retrace",
                "ratio", "ratio_vs", "spread"])
    for clock, rows in (("icount", icount), ("wall", wall)):
        for r in rows:
            w.writerow([clock, r["name"], r["unit"]] +
                       ["" if r[k] is None else f"{r[k]:.4f}"
                        for k in ("ref", "refnolat", "retrace", "ratio")] +
                       [r["vs"] or "", "" if r["spread"] is None else f"{r['spread']:.4f}"])
    for name, flav, v, rel in base_rows:
        w.writerow(["icount-baseline", f"{name}:{flav}", "ns/call",
                    "", "", "" if v is None else f"{v:.4f}",
                    "" if rel is None else f"{rel:.4f}", "notrace", ""])
    for text, x, state in goal_rows:
        w.writerow(["goal", text, state, "", "", "" if x is None else f"{x:.4f}", "", "", ""])
print(f"wrote {out}/results.csv")
