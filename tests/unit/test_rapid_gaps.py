#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/rapid/gaps.py's rate measures on made-up departures.

The VM suite (timing-50-rapid-sender) judges RAPID's departures with
gaps.analyse(); here the departures come from the schedule itself
(schedule_rates(), 30-packet streams, m = 1.07), then with some packets
leaving late and the schedule's gaps kept after them (what RAPID does
after a refused segment is sent again), then with a whole extra gap after
every second packet (what a lost place in the stream would cost).  The
capture reader is replaced by the made-up segments.  TAP and "N passed,
N failed"; exit 0 when all pass."""
import sys

from tap import Tap
from scripts.rapid import gaps  # PYTHONPATH: the top (tests/run.sh)

T = Tap("rapid_gaps: ")
RATE_KBPS = 20000
N, M, P = 30, 1.07, 1448
PACKETS = 3000
FLOW = (b"\x0a\x00\x00\x01", b"\x0a\x00\x00\x02", 40000, 5607)


def departures(late_every=0, late_ns=0, extra_every=0):
    """(t_ns, flow, seq, len) of PACKETS new data segments on schedule; every
    late_every-th leaves late_ns late and the schedule goes on from there;
    after every extra_every-th the gap is taken twice."""
    rates = gaps.schedule_rates(RATE_KBPS * 125.0, N, M)
    t, segs = 1_000_000, []
    for j in range(PACKETS):
        if late_every and j % late_every == late_every - 1:
            t += late_ns
        segs.append((int(t), FLOW, 1000 + j * P, P))
        gap = P * 1e9 / rates[j % N]
        t += 2 * gap if extra_every and j % extra_every == 0 else gap
    return segs


def analyse(segs):
    gaps.tcp_segments = lambda path: iter(segs)
    res, _ = gaps.analyse("made-up.pcap", RATE_KBPS, N, M, 100, 10)
    return res


r = analyse(departures())
T.check("on schedule: every gap within 10%", r["within10"] == 1.0, f"{r['within10']}")
# (the span ends inside a stream: its slow first gaps count, its fast last do not)
T.check("on schedule: long_run 1", abs(r["long_run"] - 1) < 0.005, f"{r['long_run']}")
T.check("on schedule: no late time", r["late_share"] == 0, f"{r['late_share']}")
T.check("on schedule: long_run_on_time is long_run", r["long_run_on_time"] == r["long_run"],
        f"{r['long_run_on_time']}")

# every 40th packet 300 us late (a gap at 20 Mbit/s is ~580 us)
on_time = r["long_run"]
r = analyse(departures(late_every=40, late_ns=300_000))
late = sum(1 for j in range(100, PACKETS - 1) if j % 40 == 39) * 300e-6 / r["span_s"]
T.check("late retries: long_run falls (by over 1%)", r["long_run"] < on_time - 0.01,
        f"{r['long_run']} against {on_time}")
T.check("late retries: late_share is the lateness put in (within 2%)",
        abs(r["late_share"] / late - 1) < 0.02, f"late_share {r['late_share']}, put in {late:.5f}")
T.check("late retries: on time, the rate is the schedule's (within 0.1%)",
        abs(r["long_run_on_time"] - on_time) < 0.001, f"{r['long_run_on_time']} against {on_time}")
T.check("late retries: no phase change", r["phase_changes"] == 0, f"{r['phase_changes']}")

# a whole gap added after every second packet
r = analyse(departures(extra_every=2))
T.check("an extra gap per second packet: late share over 0.25 (the suite's bound is 0.10)",
        r["late_share"] > 0.25, f"{r['late_share']}")
T.check("an extra gap per second packet: long_run about 2/3", abs(r["long_run"] - 2 / 3) < 0.02,
        f"{r['long_run']}")
sys.exit(T.done())
