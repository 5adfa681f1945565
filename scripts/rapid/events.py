#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Read RAPID's tracepoints (tcp_rapid:rapid_abest, tcp_rapid:rapid_stream)
from an ftrace text dump and summarise or export them.

  events.py csv TRACE [--event rapid_abest]       one row per event
  events.py phases TRACE [--skip S] [--until U] [--src N]
                                                        per-phase statistics

A trace is what /sys/kernel/tracing/trace (or trace-cmd report) prints, e.g.

  iperf3-311 [000] ..s2. 101.5: rapid_abest: sport=40112 dport=5301 \
      skaddr=... id=17 src=1 rule=1 lossy=0 raw_kbps=61234 abest_kbps=61234 \
      r_avg_kbps=59000 phase=1 acc=0

Phases are delimited by trace_marker lines "phase NAME" (echo "phase x" >
/sys/kernel/tracing/trace_marker); events before the first marker belong
to phase "start".  `phases` prints one JSON object per phase: event count
(streams that gave none, rule 0, are only counted) and p10/median/p90 of
raw_kbps and r_avg_kbps for the chosen source
(0 inject, 1 receiver feedback, 2 sender-side), skipping the first S
seconds of each phase (convergence) and, with --until U, what comes later
than U seconds into it.
"""
import argparse
import csv
import json
import re
import sys

import numpy as np

LINE = re.compile(r"\s(?P<ts>\d+\.\d+):\s+(?P<event>[a-z_]+):\s(?P<rest>.*)$")
MARK = re.compile(r"\s(?P<ts>\d+\.\d+):\s+tracing_mark_write:\s+phase\s+(?P<name>\S+)")
KV = re.compile(r"(\w+)=(\S+)")


def parse(path):
    """Yield ("mark", ts, name) and ("event", ts, name, fields) tuples."""
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("#"):
                continue
            m = MARK.search(line)
            if m:
                yield ("mark", float(m["ts"]), m["name"])
                continue
            m = LINE.search(line)
            if not m or not m["event"].startswith("rapid_"):
                continue
            fields = {}
            for k, v in KV.findall(m["rest"]):
                try:
                    fields[k] = int(v)
                except ValueError:
                    fields[k] = v
            yield ("event", float(m["ts"]), m["event"], fields)


def cmd_csv(a):
    rows = [(ts, f) for kind, ts, *rest in parse(a.trace) if kind == "event"
            for ev, f in [rest] if ev == a.event]
    if not rows:
        return 1
    keys = ["ts"] + list(rows[0][1].keys())
    w = csv.writer(sys.stdout)
    w.writerow(keys)
    for ts, f in rows:
        w.writerow([ts] + [f.get(k, "") for k in keys[1:]])
    return 0


def pct(v, q):
    return round(float(np.percentile(v, q)), 1) if len(v) else None


def cmd_phases(a):
    phases = [{"name": "start", "t0": None, "raw": [], "r_avg": [], "n": 0, "none": 0}]
    for kind, ts, *rest in parse(a.trace):
        if kind == "mark":
            phases.append({"name": rest[0], "t0": ts, "raw": [], "r_avg": [], "n": 0,
                           "none": 0})
            continue
        ev, f = rest
        ph = phases[-1]
        if ph["t0"] is None:
            ph["t0"] = ts
        if ev != "rapid_abest" or (a.src is not None and f.get("src") != a.src):
            continue
        if ts - ph["t0"] < a.skip or (a.until and ts - ph["t0"] > a.until):
            continue
        if f.get("rule") == 0 and f.get("src") != 0:
            ph["none"] += 1     # the stream gave no estimate
            continue
        ph["n"] += 1
        ph["raw"].append(f.get("raw_kbps", 0) / 1000.0)
        ph["r_avg"].append(f.get("r_avg_kbps", 0) / 1000.0)
    for ph in phases:
        raw, ravg = np.array(ph["raw"]), np.array(ph["r_avg"])
        print(json.dumps({"phase": ph["name"], "estimates": ph["n"], "no_estimate": ph["none"],
                          "abest_p10": pct(raw, 10), "abest_median": pct(raw, 50),
                          "abest_p90": pct(raw, 90), "r_avg_median": pct(ravg, 50)}))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("csv")
    c.add_argument("trace")
    c.add_argument("--event", default="rapid_abest")
    p = sub.add_parser("phases")
    p.add_argument("trace")
    p.add_argument("--skip", type=float, default=0.0, help="seconds skipped per phase")
    p.add_argument("--until", type=float, default=0.0,
                   help="seconds after the phase start where it is cut (0: its end)")
    p.add_argument("--src", type=int, help="0 inject, 1 receiver, 2 sender-side")
    a = ap.parse_args()
    return cmd_csv(a) if a.cmd == "csv" else cmd_phases(a)


if __name__ == "__main__":
    sys.exit(main())
