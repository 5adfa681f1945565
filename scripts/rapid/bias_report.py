#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The report of scripts/rapid/bias-exp.sh: per case, the per-stream ABest
that build/rapid-trace finds in the receiver's capture (converted by
scripts/rapid/pcap2trace.py) with the helper's default parameters and with
variations, beside the helper's own feedback and the avail-bw.

  scripts/rapid/bias_report.py DIR [--skip S] [--rate MBIT] [--cases LIST]

Streams whose first packet arrived in the first S seconds (default 1.5) of
a case are left out.  Avail-bw is TCP payload: (rate - cross received) *
1436/1514.  Prints a markdown table (p10 / median / p90 in Mbit/s and the
median's error against the avail-bw)."""
import argparse
import json
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
CLI = os.path.join(HERE, "..", "..", "build", "rapid-trace")
CONV = os.path.join(HERE, "pcap2trace.py")
PAYLOAD, FRAME, UDP_WIRE = 1436, 1514, 1400 + 42
# tcp_rapid_rx's defaults, spelled out (build/rapid-trace's own -n is 0);
# each variant overrides some of them (the CLI takes the last value).
HELPER = ["-F", "6", "-L", "5", "-g", "1000", "-n", "10000"]
VARIANTS = [("helper's defaults (-F 6 -L 5 -g 1000 -n 10000)", []),
            ("-F 1.5 (PathChirp)", ["-F", "1.5"]),
            ("-F 3", ["-F", "3"]),
            ("-g 20000 (20 us coalescing)", ["-g", "20000"]),
            ("-g 100000", ["-g", "100000"]),
            ("-L 10", ["-L", "10"]),
            ("-n 0 (no noise floor)", ["-n", "0"]),
            ("-n 20000 (20 us noise floor)", ["-n", "20000"])]


def stream_starts(trace):
    """First arrival (ns) of each stream, in the trace's order."""
    starts, last = [], None
    with open(trace) as f:
        for line in f:
            p = line.split()
            if not p or p[0] in ("#", "fb") or line.startswith("#"):
                continue
            if p[0] != last:
                starts.append(None)
                last = p[0]
            if p[2] != "-1" and starts[-1] is None:
                starts[-1] = int(p[2])
    return starts


def analyse(trace, extra):
    """[(abest, rule, fb_abest or None)] per stream, in order."""
    out = subprocess.run([CLI] + HELPER + extra + [trace], capture_output=True, text=True,
                         check=True).stdout
    rows = []
    for line in out.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        f = line.split()
        fb = [float(x[3:].split("/")[0]) for x in f[5:] if x.startswith("fb=")]
        rows.append((float(f[3]), f[4], fb[0] if fb else None))
    return rows


def cross_mbit(path):
    if not os.path.exists(path):
        return 0.0
    s = json.load(open(path))["end"]["sum"]
    pk = s["packets"] - s.get("lost_packets", 0)
    return pk * UDP_WIRE * 8 / s["seconds"] / 1e6


def pct(v):
    if not len(v):
        return "-"
    p = np.percentile(v, [10, 50, 90])
    return f"{p[0]:.1f} / {p[1]:.1f} / {p[2]:.1f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--skip", type=float, default=1.5)
    ap.add_argument("--rate", type=float, default=100.0)
    ap.add_argument("--cases", default="none udp30 cbr30 udp60 cbr60",
                    help="cases to report, as bias-exp.sh's BIAS_CASES")
    a = ap.parse_args()
    print("| case | avail-bw | analysis | streams | ABest p10 / median / p90 | median error |")
    print("|---|---|---|---|---|---|")
    for case in a.cases.split():
        pcap = os.path.join(a.dir, case + ".pcap")
        if not os.path.exists(pcap):
            continue
        trace = os.path.join(a.dir, case + ".trace")
        subprocess.run([sys.executable, CONV, pcap, "-o", trace], check=True)
        starts = stream_starts(trace)
        t0 = min(s for s in starts if s is not None)
        keep = [s is not None and s - t0 >= a.skip * 1e9 for s in starts]
        avail = (a.rate - cross_mbit(os.path.join(a.dir, case + ".udp.json"))) * PAYLOAD / FRAME
        fbv = None
        for name, extra in VARIANTS:
            rows = analyse(trace, extra)
            if len(rows) != len(keep):
                sys.exit(f"{case}: {len(rows)} analysed streams, {len(keep)} in the trace")
            v = np.array([r[0] for r, k in zip(rows, keep) if k and r[1] != "invalid"])
            if fbv is None:
                fbv = np.array([r[2] for r, k in zip(rows, keep) if k and r[2]])
            err = f"{(np.median(v) / avail - 1) * 100:+.0f}%" if len(v) else "-"
            print(f"| {case} | {avail:.1f} | rapid-trace {name} | {len(v)} | {pct(v)} | {err} |")
        err = f"{(np.median(fbv) / avail - 1) * 100:+.0f}%" if len(fbv) else "-"
        print(f"| {case} | {avail:.1f} | helper's feedback | {len(fbv)} | {pct(fbv)} | {err} |")


if __name__ == "__main__":
    main()
