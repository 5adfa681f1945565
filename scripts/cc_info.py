#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Decode what rapid, pert and icc report through TCP_CC_INFO / `ss -ti`.

An out-of-tree congestion control has to reuse an existing inet_diag
record; these modules fill struct tcp_bbr_info, which ss prints as
bbr:(bw:..,mrtt:..,pacing_gain:..,cwnd_gain:..).  This tool turns those
numbers back into each module's own state (docs/rapid.md, docs/pert.md,
docs/icc.md, "get_info").

  cc_info.py                  run `ss -tinH` here and decode every socket
  cc_info.py FILE|-           decode saved `ss -tin` output
  cc_info.py --json ...       one JSON object per socket

Sockets of other algorithms are skipped.  Use `ss -n` numbers (the tool
runs ss with -n): without -n ss rounds bw to three digits.
"""
import argparse
import json
import re
import subprocess
import sys

ADDR = re.compile(r"^\s*(?:\S+\s+)?\d+\s+\d+\s+(\S+)\s+(\S+)")
BBR = re.compile(r"bbr:\(bw:([0-9.e+]+)bps,mrtt:([0-9.e+]+),pacing_gain:([0-9.e+]+),"
                 r"cwnd_gain:([0-9.e+]+)\)")
CC = re.compile(r"(?:^|\s)(rapid|pert|icc)(?:\s|$)")

RAPID_PHASES = {0: "slow-start", 1: "steady", 2: "fixed"}
RAPID_FLAGS = [(1, "fq"), (2, "internal-pacing"), (4, "no-records"), (8, "injected"),
               (16, "loss"), (32, "ring-full"), (64, "receiver-feedback"),
               (128, "sender-estimate")]
PERT_REGIONS = {0: "no-sample", 1: "high-speed", 2: "safe", 3: "compete", 9: "fallback"}


def decode(cc, bw_bps, mrtt, pgain, cgain):
    """The module's state from ss's four numbers (bw in bit/s, mrtt in ms,
    gains divided by 256)."""
    if cc == "rapid":
        pg, cg = round(pgain), round(cgain)
        flags = cg // 10000
        return {"r_avg_mbps": round(bw_bps / 1e6, 3), "abest_mbps": mrtt,
                "phase": RAPID_PHASES.get(pg // 1000, pg // 1000), "n": pg % 1000,
                "m": (cg % 10000) / 1000,
                "flags": [name for bit, name in RAPID_FLAGS if flags & bit]}
    if cc == "pert":
        x = int(round(bw_bps / 8)) // 125
        q, x = x % 1000, x // 1000
        p, x = x % 10000, x // 10000
        f, r = x % 10, x // 10
        region = PERT_REGIONS.get(f if f < 4 or f == 9 else f - 4, f)
        return {"early_responses": r, "region": region,
                "compete_phase": 4 < f < 8, "prob": p / 10000, "curq_ms": q,
                "srtt_ms": mrtt, "alpha": pgain, "beta": cgain}
    if cc == "icc":
        return {"wmax_rate_mbps": round(bw_bps / 1e6, 3), "wmax_pkts": mrtt,
                "inc_pkts_per_rtt": pgain, "decrease_factor": cgain}
    return {}


def parse(lines):
    """Yield (local, peer, cc, decoded) for each socket of ours in ss -ti
    output (a socket line followed by its info line)."""
    local = peer = None
    for line in lines:
        m = ADDR.match(line)
        if m and not line.startswith("\t") and "bbr:" not in line:
            local, peer = m.group(1), m.group(2)
        c = CC.search(line)
        b = BBR.search(line)
        if c and b:
            vals = [float(v) for v in b.groups()]
            yield local, peer, c.group(1), decode(c.group(1), *vals)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", nargs="?", help="saved ss -tin output, - for stdin")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    if a.file == "-":
        lines = sys.stdin.read().splitlines()
    elif a.file:
        with open(a.file) as f:
            lines = f.read().splitlines()
    else:
        lines = subprocess.run(["ss", "-tinH"], capture_output=True, text=True,
                               check=False).stdout.splitlines()
    n = 0
    for local, peer, cc, d in parse(lines):
        n += 1
        if a.json:
            print(json.dumps({"local": local, "peer": peer, "cc": cc, **d}))
        else:
            print(f"{local} -> {peer} {cc}: " + " ".join(f"{k}={v}" for k, v in d.items()))
    return 0 if n else 1


if __name__ == "__main__":
    sys.exit(main())
