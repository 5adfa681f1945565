#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Read `tcp:tcp_probe` tracepoint output and answer questions about it.

The kernel's tcp_probe event fires on every ACK a sender processes and logs
snd_cwnd, ssthresh, srtt and the sequence numbers of that socket; it is the
in-tree way to watch a congestion control work.  Used by the VM tests and the
benchmarks.

  tcp_probe.py decreases TRACE --dport PORT   window decreases as JSON
  tcp_probe.py samples TRACE --dport PORT     one JSON object per sample

A "decrease" lowers ssthresh below both its previous value and the cwnd of
the sample before it: ratio = new ssthresh / cwnd before the loss.  Decreases
that end in cwnd 1 (RTO) are reported apart.
"""
import argparse
import json
import re
import statistics
import sys

LINE = re.compile(
    r"^\s*(?P<task>.+?)\s+\[\d+\].*?\s(?P<ts>\d+\.\d+): tcp_probe: (?P<fields>.*)$")
FIELD = re.compile(r"(\w+)=(\S+)")


def parse(path, dport=None, sport=None):
    """Yield dicts (ts, src, dest, snd_cwnd, ssthresh, srtt, snd_una, ...)."""
    with open(path, errors="replace") as f:
        for line in f:
            m = LINE.match(line)
            if not m:
                continue
            d = dict(FIELD.findall(m.group("fields")))
            if "snd_cwnd" not in d:
                continue
            src, dst = d.get("src", ""), d.get("dest", "")
            sp = int(src.rsplit(":", 1)[1]) if ":" in src else -1
            dp = int(dst.rsplit(":", 1)[1]) if ":" in dst else -1
            if dport is not None and dp != dport:
                continue
            if sport is not None and sp != sport:
                continue
            yield {
                "ts": float(m.group("ts")),
                "flow": f"{src}>{dst}",
                "sport": sp,
                "dport": dp,
                "snd_cwnd": int(d["snd_cwnd"]),
                "ssthresh": int(d["ssthresh"]),
                "srtt_us": int(d.get("srtt", "0")),
                "snd_una": int(d.get("snd_una", "0"), 16),
                "snd_nxt": int(d.get("snd_nxt", "0"), 16),
                "data_len": int(d.get("data_len", "0")),
            }


def busiest_flow(samples):
    counts = {}
    for s in samples:
        counts[s["flow"]] = counts.get(s["flow"], 0) + 1
    return max(counts, key=counts.get) if counts else None


def decreases(samples):
    """Window decreases of the busiest flow: list of dicts."""
    flow = busiest_flow(samples)
    out = []
    prev = None
    pending = None
    for s in (x for x in samples if x["flow"] == flow):
        # A loss response lowers ssthresh below the window it had; cwnd
        # validation (tcp_cwnd_application_limited) only ever raises it.
        if prev is not None and s["ssthresh"] < prev["ssthresh"] \
                and s["ssthresh"] < prev["snd_cwnd"]:
            pending = {"ts": s["ts"], "cwnd_before": prev["snd_cwnd"],
                       "ssthresh": s["ssthresh"],
                       "ratio": s["ssthresh"] / prev["snd_cwnd"], "rto": False}
            out.append(pending)
        elif pending is not None and s["snd_cwnd"] == 1:
            pending["rto"] = True
        if pending is not None and s["ts"] - pending["ts"] > 0.5:
            pending = None
        prev = s
    return flow, out


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["decreases", "samples"])
    ap.add_argument("trace")
    ap.add_argument("--dport", type=int)
    ap.add_argument("--sport", type=int)
    ap.add_argument("--min-cwnd", type=int, default=0,
                    help="only decreases from at least this cwnd")
    a = ap.parse_args()
    samples = list(parse(a.trace, a.dport, a.sport))
    if a.what == "samples":
        for s in samples:
            print(json.dumps(s))
        return 0
    flow, dec = decreases(samples)
    fast = [d for d in dec if not d["rto"] and d["cwnd_before"] >= a.min_cwnd]
    ratios = [d["ratio"] for d in fast]
    cwnds = [s["snd_cwnd"] for s in samples if s["flow"] == flow]
    print(json.dumps({
        "flow": flow,
        "samples": len(cwnds),
        "max_cwnd": max(cwnds) if cwnds else 0,
        "decreases": len(fast),
        "rto_decreases": sum(1 for d in dec if d["rto"]),
        "median_ratio": statistics.median(ratios) if ratios else None,
        "min_ratio": min(ratios) if ratios else None,
        "max_ratio": max(ratios) if ratios else None,
        "events": fast[:20],
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
