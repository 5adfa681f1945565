#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The cross-validation table of docs/results.md ("The scale engine against
the lab"): the lab numbers recorded in tests/data/xval.json beside the
engine's, from the last JSON lines of `sim/sim.py` runs (one file per seed).

  sim/xval.py RESULT.json ...      # e.g. build/sim/x-demo-s*.json

A row of xval.json matches a result file by scenario name (and variant);
rows whose scenario ran with other --set values are told apart by the
'sets' of the row against the run's plan (plan.json beside the outdir).
Engine cells: the mean over the files, [min-max] when they differ;
bold when the mean is more than the tolerance away from the lab's number.
"""
import json
import os
import statistics
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COLS = [("goodput_mbps", "goodput Mbit/s"), ("util", "util"), ("retrans", "retrans"),
        ("q95_pkts", "q95 pkts"), ("srtt_p95_ms", "srtt95 ms"), ("t90_rtts", "t90 RTTs"),
        ("reacquire_rtts", "reacq RTTs"), ("jain_1s", "Jain 1 s"), ("jain_10s", "Jain 10 s"),
        ("throughput_ratio", "tput ratio")]


def metric(m, k, vi):
    v = m.get(k)
    if isinstance(v, list):
        v = v[vi] if vi is not None and vi < len(v) else (v[0] if v else None)
    if isinstance(v, list):
        v = v[0] if v else None
    return v


def fmt(x):
    if x is None:
        return "-"
    if abs(x) >= 100:
        return f"{x:.0f}"
    if abs(x) >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}" if abs(x) < 2 else f"{x:.1f}"


def main(argv):
    xv = json.load(open(os.path.join(TOP, "tests", "data", "xval.json")))
    tol = xv["tolerance"]
    res = []
    for p in argv:
        with open(p) as f:
            d = json.loads(f.read().strip().splitlines()[-1])
        plan = json.load(open(os.path.join(d["outdir"], "plan.json")))
        res.append((d, plan))
    print("| scenario | cc | " + " | ".join(c[1] for c in COLS) + " |")
    print("|---|---|" + "---|" * len(COLS))
    for row in xv["rows"]:
        vals = {}
        for d, plan in res:
            if d["scenario"] != row["scenario"] or row["cc"] not in d["results"]:
                continue
            if sorted(row.get("sets", [])) != sorted(s for s in plan.get("sets", [])
                                                     if not s.startswith("seed=")):
                continue
            vi = None
            if row.get("variant"):
                vi = plan["variants"].index(row["variant"])
            m = d["results"][row["cc"]]
            for k, _ in COLS:
                v = metric(m, k, vi)
                if v is not None:
                    vals.setdefault(k, []).append(v)
        if not vals:
            continue
        cells = []
        for k, _ in COLS:
            lab = row["lab"].get(k)
            ev = vals.get(k)
            if lab is None and not ev:
                cells.append("-")
                continue
            if not ev:
                cells.append(f"{fmt(lab)} / -")
                continue
            mean = statistics.mean(ev)
            e = fmt(mean)
            if len(ev) > 1 and max(ev) != min(ev):
                e += f" [{fmt(min(ev))}-{fmt(max(ev))}]"
            if lab is None:
                cells.append(f"- / {e}")
                continue
            far = abs(mean - lab) > tol * abs(lab) if lab else abs(mean) > 0.5
            diff = f" ({(mean - lab) / lab * 100:+.0f}%)" if lab else ""
            c = f"{fmt(lab)} / {e}{diff}"
            cells.append(f"**{c}**" if far else c)
        name = row["scenario"] + (f" {row['variant']}" if row.get("variant") else "")
        if row.get("label"):
            name += f" ({row['label']})"
        print(f"| {name} | {row['cc']} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
