#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Read `tcp:tcp_probe` tracepoint output and answer questions about it.

The kernel's tcp_probe event fires on every ACK a sender processes and logs
snd_cwnd, ssthresh, srtt and the sequence numbers of that socket; it is the
in-tree way to watch a congestion control work.  Used by the VM tests and the
benchmarks.

  tcp_probe.py decreases TRACE --dport PORT   window decreases as JSON
  tcp_probe.py samples TRACE --dport PORT     one JSON object per sample

A "decrease" is a loss response seen in the samples: on a duplicate ACK
the window starts to fall to a target ssthresh below it, and it comes
down to that target (PRR ends recovery at cwnd = ssthresh); ratio = the
target / cwnd before the loss.  Or, a recovery ending and the next
beginning on one ACK, the target falls below the last one: ratio = the
new target / the old.  Decreases that end in cwnd 1 (RTO) are reported
apart.

The event's ssthresh is tcp_current_ssthresh(): outside a cwnd reduction
(CWR, Recovery) it is max(ssthresh, 3/4 cwnd), so it rises with the
window and says nothing about losses there.  Hence the rule does not
look for changes of it: a loss at a larger window than the last one
raises it (ICC: 0.875 cwnd over 0.75 cwnd), one at the same window
leaves it as it was, and the window's growth past 4/3 ssthresh raises it
on every increment (3702753, reverted, counted those: Reno's median
ratio read 0.755).
"""
import argparse
import json
import statistics
import sys

# The event's text follows this; the timestamp ends what comes before it.
MARK = ": tcp_probe: "
# TCP_INFINITE_SSTHRESH: no ssthresh yet (slow start).
NO_SSTHRESH = 0x7fffffff


def parse(path, dport=None, sport=None):
    """Yield dicts (ts, src, dest, snd_cwnd, ssthresh, srtt, snd_una, ...).

    Plain string splits, no regular expression: half the time (a whole
    12 s flow is ~25000 lines, seconds of Python in the lab's TCG guest).
    """
    with open(path, errors="replace") as f:
        for line in f:
            head, sep, fields = line.partition(MARK)
            if not sep:
                continue
            try:
                ts = float(head.rsplit(None, 1)[-1])
            except (ValueError, IndexError):
                continue
            d = dict(kv.split("=", 1) for kv in fields.split() if "=" in kv)
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
                "ts": ts,
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


def open_state_ssthresh(cwnd):
    """What tcp_current_ssthresh() reports for cwnd outside a reduction
    when 3/4 cwnd is above the real ssthresh (include/net/tcp.h)."""
    return (cwnd >> 1) + (cwnd >> 2)


def loss_window(prev, s):
    """The window a loss response that begins at sample s came at (prev:
    the sample before it), or None when none begins there."""
    target = s["ssthresh"]
    # The window falls, towards a target below where it was ...
    if s["snd_cwnd"] < prev["snd_cwnd"] and target < prev["snd_cwnd"] \
            and not any(target == open_state_ssthresh(c)
                        for c in range(prev["snd_cwnd"], prev["snd_cwnd"] + 3)):
        # ... that is not the 3/4 cwnd the event shows outside a
        # reduction (cwnd validation and the restart after idle lower
        # cwnd there and set ssthresh to it, from a window that may have
        # grown on the ACK before: by up to 2, ABC), on duplicate ACKs
        # (snd_una put with data outstanding: recovery) or from 1 (RTO).
        dupack = s["snd_una"] == prev["snd_una"] and s["snd_nxt"] != s["snd_una"]
        if dupack or s["snd_cwnd"] == 1:
            return prev["snd_cwnd"]
    # A recovery that ends and the next that begins on one ACK (the losses
    # of slow start's overshoot): the end set cwnd to the old target, the
    # new one is a share of that, and PRR had shown a window below both.
    # Only a loss lowers the event's ssthresh (validation, undo raise it).
    if prev["snd_cwnd"] <= target < prev["ssthresh"] < NO_SSTHRESH:
        return prev["ssthresh"]
    return None


def at_target(cwnd, target):
    """cwnd down to its target: within 2 packets and 1/32 of it (the ACK
    that ends recovery at cwnd = ssthresh may grow it right away)."""
    return cwnd <= target + 2 + target // 32


def decreases(samples, max_wait=2.0):
    """Window decreases of the busiest flow: list of dicts.

    A decrease counts once the window has come down to its target: one
    that does not within max_wait seconds, or whose window climbs back to
    where it was first (a spurious recovery undone), is not one.  Until
    the window grew past the target again or a new loss set a new one, no
    other can start: PRR lowers cwnd on many duplicate ACKs of one
    recovery.
    """
    flow = busiest_flow(samples)
    out = []
    prev = None
    cur = None      # the decrease in progress
    for s in (x for x in samples if x["flow"] == flow):
        if cur is not None and not cur["counted"]:
            if at_target(s["snd_cwnd"], cur["ssthresh"]):
                cur["counted"] = True
                out.append(cur)
            elif s["snd_cwnd"] >= cur["cwnd_before"] \
                    or s["ts"] - cur["ts"] > max_wait:
                cur = None
        if cur is not None and s["snd_cwnd"] == 1 and s["ts"] - cur["ts"] <= 0.5:
            cur["rto"] = True
        if cur is not None and cur["counted"] \
                and (not at_target(s["snd_cwnd"], cur["ssthresh"])
                     or s["ssthresh"] != cur["ssthresh"]):
            cur = None
        w = loss_window(prev, s) if cur is None and prev is not None else None
        if w:
            cur = {"ts": s["ts"], "cwnd_before": w, "ssthresh": s["ssthresh"],
                   "ratio": s["ssthresh"] / w, "rto": s["snd_cwnd"] == 1,
                   "counted": False}
            if at_target(s["snd_cwnd"], cur["ssthresh"]):
                cur["counted"] = True
                out.append(cur)
        prev = s
    for d in out:
        del d["counted"]
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
