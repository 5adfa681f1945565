#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the benchmark analysis (scripts/bench/metrics.py) and the
scenario resolution (scripts/bench/scenario.py) on synthetic samples.

Every expectation is derived by hand (or by a formula written out here),
never by calling the code under test.  Prints kselftest-style TAP lines and
"N passed, N failed"; exit 0 when all pass.

  PYTHONPATH=. <venv python> tests/unit/test_bench_metrics.py   (from the top)
"""
import math
import random
import sys

import numpy as np

from scripts.bench import metrics as bm
from scripts.bench import scenario as bs
from tap import Tap

T = Tap("")



def near(a, b, tol=1e-9):
    return a is not None and b is not None and abs(a - b) <= tol


# --- Jain's index ------------------------------------------------------------
T.check("jain: equal shares give 1", near(bm.jain([5, 5, 5, 5]), 1.0))
T.check("jain: one of four flows takes everything gives 1/4",
      near(bm.jain([0, 0, 12, 0]), 0.25))
# (1+2+3)^2 / (3 * (1+4+9)) = 36/42
T.check("jain: [1,2,3] gives 6/7", near(bm.jain([1, 2, 3]), 6 / 7),
      f"got {bm.jain([1, 2, 3])}")
T.check("jain: empty and all-zero are undefined (None)",
      bm.jain([]) is None and bm.jain([0, 0]) is None)
T.check("jain: a single flow gives 1", near(bm.jain([7]), 1.0))

# --- rates and smoothing ---------------------------------------------------------
t = np.arange(0, 2.01, 0.1)
cum = 1.25e6 * np.arange(len(t))	# 1.25 MB per 100 ms = 100 Mbit/s
r = bm.rates_from_cumulative(t, cum)
T.check("rates_from_cumulative: 1.25 MB per 100 ms is 100 Mbit/s",
      r[0] == 0 and np.allclose(r[1:], 100.0), f"got {r[:4]}")
x = np.array([0, 0, 10, 10, 10, 0], dtype=float)
tt = np.arange(6) * 0.1
sm = bm.trailing_mean(tt, x, 0.25)	# windows of 3 samples: (t-0.25, t]
want = [0, 0, 10 / 3, 20 / 3, 10, 20 / 3]
T.check("trailing_mean: 3-sample trailing window", np.allclose(sm, want), f"got {sm}")

# --- time to 90% ---------------------------------------------------------------------
t = np.round(np.arange(0, 10.001, 0.1), 6)
ramp = 10 * t				# Mbit/s, reaches 45 (90% of 50) at t = 4.5
T.check("time_to_fraction: linear ramp reaches 90% of 50 at 4.5 s",
      near(bm.time_to_fraction(t, ramp, 50, 0.0, 0.9), 4.5, 1e-6))
T.check("time_to_fraction: counted from t_start (1 s) gives 3.5 s",
      near(bm.time_to_fraction(t, ramp, 50, 1.0, 0.9), 3.5, 1e-6))
T.check("time_to_fraction: never reached gives None",
      bm.time_to_fraction(t, ramp, 500, 0.0, 0.9) is None)
tgt = np.where(t < 5, 100.0, 40.0)	# target drops to 40 at 5 s: 36 reached at 5.0
T.check("time_to_fraction: a target that changes over time",
      near(bm.time_to_fraction(t, ramp, tgt, 0.0, 0.9), 5.0, 1e-6))

# A ramp that reaches 45 at 4.5 s, falls back to 10 in [6, 7) and then stays
# at 50: first reached at 4.5 s, stable from 7.0 s on.
dip = np.where((t >= 6) & (t < 7), 10.0, np.minimum(ramp, 50.0))
T.check("time_to_stable: stable after the last dip (7.0 s), first reach 4.5 s",
      near(bm.time_to_stable(t, dip, 50, 0.0, 10.0, 0.9), 7.0, 1e-6)
      and near(bm.time_to_fraction(t, dip, 50, 0.0, 0.9), 4.5, 1e-6))
T.check("time_to_stable: samples after t_end are ignored; below at the end gives None",
      near(bm.time_to_stable(t, dip, 50, 0.0, 5.9, 0.9), 4.5, 1e-6)
      and bm.time_to_stable(t, dip, 50, 0.0, 6.5, 0.9) is None)

# --- avail-bw timeline and step detection -------------------------------------------
cbrs = [{"start_s": 5, "stop_s": 40, "rate_mbit": 10},
        {"start_s": 10, "stop_s": 15, "rate_mbit": 10},
        {"start_s": 25, "stop_s": 35, "rate_mbit": 10},
        {"start_s": 46, "stop_s": 47, "rate_mbit": 10}]
pts = bm.avail_timeline(50, 50, (), cbrs)
want = [(0, 50), (5, 40), (10, 30), (15, 40), (25, 30), (35, 40), (40, 50), (46, 40), (47, 50)]
T.check("avail_timeline: seed 002 Fig. 4 schedule scaled (50 Mbit/s, 4 x 10 Mbit/s)",
      [(round(a, 6), round(b, 6)) for a, b in pts] == want, f"got {pts}")
pts2 = bm.avail_timeline(20, 50, [{"at_s": 8, "rate_mbit": 20}], [], 0.5, 1.0)
T.check("avail_timeline: a rate change and the payload fraction",
      pts2 == [(0.0, 25.0), (8.0, 10.0)], f"got {pts2}")
steps = bm.detect_steps(pts)
T.check("detect_steps: 8 steps with their before/after levels",
      [(a, b, c) for a, b, c in steps] ==
      [(5, 50, 40), (10, 40, 30), (15, 30, 40), (25, 40, 30), (35, 30, 40),
       (40, 40, 50), (46, 50, 40), (47, 40, 50)], f"got {steps}")
T.check("detect_steps: a 2% change is not a step at min_rel 0.1",
      bm.detect_steps([(0, 50.0), (3, 49.0), (6, 20.0)], 0.1) == [(6, 49.0, 20.0)])
T.check("level_at: value of the piecewise series",
      list(bm.level_at(pts, [0, 4.99, 5, 12, 49])) == [50, 50, 40, 30, 50])

# --- re-acquire time --------------------------------------------------------------
# Rate follows the avail-bw but needs exactly 1.0 s to come back after each
# upward step (it stays at the old level for 1 s).
t = np.round(np.arange(0, 50.001, 0.1), 6)
avail = bm.level_at(pts, t)
rate = avail.copy()
for st, before, after in steps:
    if after > before:
        rate[(t >= st) & (t < st + 1.0 - 1e-9)] = before
rq = bm.reacquire_times(t, rate, pts, steps, 0.9, end=50)
T.check("reacquire_times: four upward steps, each re-acquired after 1.0 s",
      len(rq) == 4 and all(near(s, 1.0, 1e-6) for _, s, _ in rq), f"got {rq}")
rate2 = avail.copy()
rate2[(t >= 40) & (t < 46)] = 40	# never gets the 50 back before 46 s
rq2 = bm.reacquire_times(t, rate2, pts, steps, 0.9, end=50)
miss = [x for x in rq2 if x[0] == 40][0]
T.check("reacquire_times: not re-acquired before the next change gives None and the segment",
      miss[1] is None and near(miss[2], 6.0), f"got {miss}")

# --- when a CBR stream really ran ---------------------------------------------------
# 1.25 MB/s (10 Mbit/s) from 2.37 s to 5.83 s, sampled every 100 ms, plus
# 300 bytes of control connection at 1.0 s.
t = np.round(np.arange(0, 8.001, 0.1), 6)
run_s = np.clip(t, 2.37, 5.83) - 2.37
cum = 1.25e6 * run_s + np.where(t >= 1.0, 300.0, 0.0)
oo = bm.cbr_on_off(t, cum, 1.25e6)
T.check("cbr_on_off: start and stop found between the samples (2.37, 5.83 s)",
      oo is not None and near(oo[0], 2.37, 2e-3) and near(oo[1], 5.83, 2e-3), f"got {oo}")
T.check("cbr_on_off: a counter that never moves at the rate gives None",
      bm.cbr_on_off(t, np.where(t >= 1.0, 300.0, 0.0), 1.25e6) is None)
cum3 = 1.25e6 * np.clip(t, 0, 0.25)		# running before the first sample
oo3 = bm.cbr_on_off(t, cum3, 1.25e6)
T.check("cbr_on_off: a stream already on at the first samples starts at t[0] at the earliest",
      oo3 is not None and oo3[0] >= 0 and near(oo3[1], 0.25, 2e-3), f"got {oo3}")

# --- percentiles, deltas, utilisation ---------------------------------------------
v = np.arange(1, 101, dtype=float)
T.check("percentile: p50 of 1..100 is 50.5 (linear)", near(bm.percentile(v, 50), 50.5))
T.check("percentile: p95 of 1..100 is 95.05", near(bm.percentile(v, 95), 95.05, 1e-9))
T.check("percentile: empty and all-NaN give None",
      bm.percentile([], 50) is None and bm.percentile([np.nan], 50) is None)
T.check("percentile: NaNs are ignored", near(bm.percentile([1, np.nan, 3], 50), 2.0))
T.check("window_delta: linear interpolation between samples",
      near(bm.window_delta([0, 1, 2], [0, 100, 300], 0.5, 1.5), 150.0))
t = np.arange(0, 10.001, 0.1)
b25 = 25e6 / 8 * t			# 25 Mbit/s worth of bytes
T.check("utilization: 25 Mbit/s through a 50 Mbit/s link is 0.5",
      near(bm.utilization(t, b25, 0, 10, [(0, 50.0)]), 0.5, 1e-9))
# capacity: 50 Mbit/s for 5 s then 25 for 5 s = 375/8 MB; carried 250/8 MB
T.check("utilization: capacity follows a rate change (2/3)",
      near(bm.utilization(t, b25, 0, 10, [(0, 50.0), (5, 25.0)]), 2 / 3, 1e-9))

# --- Jain over timescales -----------------------------------------------------------
t = np.round(np.arange(0, 16.001, 0.1), 6)
ca = 10e6 / 8 * t			# 10 Mbit/s
cb = 30e6 / 8 * t			# 30 Mbit/s: Jain = 40^2 / (2 (100 + 900)) = 0.8
jt = bm.jain_by_timescale(t, [ca, cb], [(0, 16), (0, 16)], [0.5, 1, 4, 16], 0, 16)
T.check("jain_by_timescale: constant 10 vs 30 Mbit/s is 0.8 at every timescale",
      all(near(jt[k]["p50"], 0.8, 1e-6) for k in (0.5, 1, 4, 16)), f"got {jt}")
T.check("jain_by_timescale: number of bins (32 of 0.5 s, 1 of 16 s)",
      jt[0.5]["n"] == 32 and jt[16]["n"] == 1)
# Alternating: A sends in even seconds, B in odd seconds, 10 Mbit/s each.
sec = np.floor(t + 1e-9).astype(int)
ra = np.where(sec % 2 == 0, 10.0, 0.0)
rb = 10.0 - ra
cum_a = np.concatenate([[0], np.cumsum(ra[:-1] * 0.1)])
cum_b = np.concatenate([[0], np.cumsum(rb[:-1] * 0.1)])
jt = bm.jain_by_timescale(t, [cum_a, cum_b], [(0, 16), (0, 16)], [1, 2], 0, 16)
T.check("jain_by_timescale: alternating flows are unfair at 1 s (0.5), fair at 2 s (1.0)",
      near(jt[1]["p50"], 0.5, 1e-6) and near(jt[2]["p50"], 1.0, 1e-6), f"got {jt}")
jt = bm.jain_by_timescale(t, [ca, cb], [(0, 16), (8, 16)], [4], 0, 16)
T.check("jain_by_timescale: bins with one active flow are skipped",
      jt[4]["n"] == 2 and near(jt[4]["p50"], 0.8, 1e-6), f"got {jt}")

# --- scenario resolution ----------------------------------------------------------
# BDP: 50 Mbit/s * 40 ms = 250000 B = 165.1 frames of 1514 B -> 166
T.check("buffer_packets: 1bdp at 50 Mbit/s, 40 ms is 166 packets",
      bs.buffer_packets("1bdp", 50, 40) == 166)
T.check("buffer_packets: {'bdp': 0.5} and '2 bdp'",
      bs.buffer_packets({"bdp": 0.5}, 50, 40) == 83 and bs.buffer_packets("2 bdp", 50, 40) == 331)
T.check("buffer_packets: at least 10 packets", bs.buffer_packets(3, 50, 40) == 10)
doc = {"name": "t", "cc": ["cubic"], "duration_s": 10,
       "flows": [{"cc": "@cc", "rtt_ms": 40}, {"cc": "reno", "rtt_ms": 80, "start_s": 2}]}
plan = bs.resolve(doc, None, ["flows.0.rtt_ms=100", "cc=cubic,none", "bottleneck.rate_mbit=20",
                              "time_scale=2"])
r0, r1 = plan["runs"]
T.check("--set: nested keys, list indices, comma lists",
      r0["flows"][0]["rtt_ms"] == 100 and plan["cc"] == ["cubic", "none"]
      and r0["bottleneck"]["rate_kbit"] == 20000)
T.check("time_scale=2 doubles duration and start times",
      r0["duration_s"] == 20 and r0["flows"][1]["start_s"] == 4)
T.check("cc 'none' leaves out the @cc flows, keeps the others and their ports",
      [f["cc"] for f in r1["flows"]] == ["reno"] and r1["flows"][0]["port"] == bs.FLOW_PORT0 + 1)
try:
    bs.resolve(doc, None, ["bottleneck.aqm=codel"])
    T.check("an unknown aqm is refused", False)
except bs.ScenarioError:
    T.check("an unknown aqm is refused", True)
topo0 = bs.shell_run(plan, 0, "/tmp/x")
# cbrsteady (docs/rapid-deviations.md#cbr-steady): a lone flow beside one
# CBR stream that runs the whole time; 1 BDP at 50 Mbit/s, 100 ms is
# 625000 B = 412.8 frames of 1514 B -> 413
cs = bs.resolve(bs.load("cbrsteady"))["runs"][0]
T.check("cbrsteady: one flow, 10 Mbit/s of CBR for the whole run, 413-packet buffer, "
        "measured from 5 s",
        len(cs["flows"]) == 1 and cs["flows"][0]["rtt_ms"] == 100
        and [(c["rate_mbit"], c["start_s"], c["stop_s"]) for c in cs["cbr"]] == [(10.0, 0.0, 25.0)]
        and cs["bottleneck"]["buffer_pkts"] == 413 and cs["bottleneck"]["rate_kbit"] == 50000
        and cs["analysis"]["from_s"] == 5, f"got {cs}")
plan_r = bs.resolve(doc, None, ["receiver.rmem_kb=8192"])
T.check("receiver.rmem_kb: the receiver's buffer goes to lab_dumbbell; 0 leaves the kernel's",
      "--rcv-rmem 8388608" in bs.shell_run(plan_r, 0, "/tmp/x") and "--rcv-rmem" not in topo0)
# Bottleneck rate: the lab's limit by default (LAB_MAX_RATE_MBIT), the
# caller's (the engine's) when it passes one.
T.check("bottleneck.rate_mbit=1000 (the lab's limit) is accepted by default",
        bs.resolve(doc, None, ["bottleneck.rate_mbit=1000"])["runs"][0]
        ["bottleneck"]["rate_kbit"] == 1000000)
try:
    bs.resolve(doc, None, ["bottleneck.rate_mbit=2500"])
    T.check("bottleneck.rate_mbit=2500 is refused for the lab, by name", False)
except bs.ScenarioError as e:
    T.check("bottleneck.rate_mbit=2500 is refused for the lab, by name",
            "rate_mbit" in str(e) and "the lab" in str(e) and "1000" in str(e), str(e))
T.check("bottleneck.rate_mbit=2500 is accepted under a caller's limit of 10000",
        bs.resolve(doc, None, ["bottleneck.rate_mbit=2500"], max_rate_mbit=10000,
                   who="the engine")["runs"][0]["bottleneck"]["rate_kbit"] == 2500000)
try:
    bs.resolve(doc, None, ["bottleneck.rate_mbit=20000"], max_rate_mbit=10000,
               who="the engine")
    T.check("bottleneck.rate_mbit above the caller's limit is refused, by its name", False)
except bs.ScenarioError as e:
    T.check("bottleneck.rate_mbit above the caller's limit is refused, by its name",
            "the engine" in str(e) and "10000" in str(e), str(e))
plan_c = bs.resolve(doc, None, ["receiver.capture=true"])
T.check("receiver.capture=true: the guest captures the receiver's packets (RUN_CAPTURE=1; 0 by default)",
        "RUN_CAPTURE=1" in bs.shell_run(plan_c, 0, "/tmp/x") and "RUN_CAPTURE=0" in topo0)
try:
    bs.resolve(doc, None, ["receiver.capture=3"])
    T.check("receiver.capture other than true/false is refused", False)
except bs.ScenarioError as e:
    T.check("receiver.capture other than true/false is refused", "receiver.capture" in str(e), str(e))
# a misspelt or misplaced key would run the defaults under its name (a
# session ran `--set jump_mean=6` for modparams.tcp_rapid.jump_mean)
for bad, where in ((["jump_mean=6"], "jump_mean"),
                   (["bottleneck.rte_mbit=20"], "bottleneck.rte_mbit"),
                   (["receiver.rmem=64"], "receiver.rmem"),
                   (["flows.0.rtt=64"], "flows.0.rtt"),
                   (["variants=[{\"name\": \"v\", \"set\": {\"tau_ms\": 100}}]"], "tau_ms")):
    try:
        bs.resolve(doc, None, bad)
        T.check(f"--set {bad[0]}: an unknown field is refused, by its name", False)
    except bs.ScenarioError as e:
        T.check(f"--set {bad[0]}: an unknown field is refused, by its name",
                str(e).startswith(where + ":") and "modparams" in str(e), str(e))
refused = []
for n, _ in bs.list_scenarios():	# under the engine's limits (fig6: 100 senders)
    try:
        bs.resolve(bs.load(n), max_senders=None, max_rate_mbit=10000, who="the engine")
    except bs.ScenarioError as e:
        refused.append(f"{n}: {e}")
T.check("the fields of every scenario in the tree are known", not refused, "; ".join(refused))
try:
    bs.resolve(doc, None, ["receiver.rmem_kb=10"])
    T.check("receiver.rmem_kb below 64 is refused", False)
except bs.ScenarioError:
    T.check("receiver.rmem_kb below 64 is refused", True)
plan_m = bs.resolve(dict(doc, modparams={"tcp_rapid": {"tau_ms": 100, "median": 1}}), None, [])
T.check("modparams: module/param=value lines for the guest, sorted",
      "RUN_MODPARAMS=(tcp_rapid/median=1 tcp_rapid/tau_ms=100)" in bs.shell_run(plan_m, 0, "/tmp/x")
      and "RUN_MODPARAMS=()" in topo0)
for bad in ({"tcp_rapid": {"tau_ms": "1; reboot"}}, {"../x": {"p": 1}}, {"tcp_rapid": 5}):
    try:
        bs.resolve(dict(doc, modparams=bad), None, [])
        T.check(f"modparams {bad} is refused", False)
    except bs.ScenarioError:
        T.check(f"modparams {bad} is refused", True)
# Truncated Pareto mean against a Monte Carlo estimate.
rng = random.Random(7)
a_, lo, hi = 1.2, 10.0, 2000.0
xs = []
while len(xs) < 200000:
    x = lo / (1 - rng.random()) ** (1 / a_)
    if x <= hi:
        xs.append(x)
mc = sum(xs) / len(xs)
T.check("pareto_mean: truncated Pareto mean matches Monte Carlo within 2%",
      abs(bs.pareto_mean(a_, lo, hi) - mc) / mc < 0.02, f"formula {bs.pareto_mean(a_, lo, hi)}, mc {mc}")
sched = bs.short_schedule({"load_mbit": 5, "size_kb": 50}, random.Random(1), 0, 200)
load = sum(b for _, b in sched) * 8 / 200 / 1e6
T.check("short_schedule: offered load within 10% of 5 Mbit/s over 200 s",
      abs(load - 5) < 0.5 and all(0 < s < 200 for s, _ in sched), f"load {load}")

# cli.build_flow: the delivered series is in the socket's own MSS
# (RAPID's marked segments carry 1436 bytes, not 1448: 0.84% less).
from scripts.bench import cli as bench  # noqa: E402


def _rows(mss, segs_per_s, n=11, dt=0.1, with_mss=True):
    rows = []
    for i in range(n):
        d = int(segs_per_s * i * dt)
        r = {"t": f"{i * dt:.3f}", "bytes_acked": str(d * mss), "delivered": str(d),
             "cwnd": "10", "srtt_us": "40000", "pacing_Bps": "0",
             "bytes_sent": str(d * mss + 200), "total_retrans": "0",
             "data_segs_out": str(d), "min_rtt_us": "40000", "cc": "rapid"}
        if with_mss:
            r["snd_mss"] = str(mss)
        rows.append(r)
    return rows


grid = np.round(np.arange(0, 1.01, 0.1), 3)
f = bench.build_flow({"port": 5201}, {(5201, 1): _rows(1436, 1000)}, grid, 0.0)
T.check("build_flow: delivered x the socket's MSS (1436) equals bytes_acked",
        abs(f["cum_dlv"][-1] - f["cum"][-1]) < 1 and f["mss"] == 1436,
        f"cum_dlv {f['cum_dlv'][-1]}, cum {f['cum'][-1]}, mss {f['mss']}")
f = bench.build_flow({"port": 5201}, {(5201, 1): _rows(1448, 1000, with_mss=False)}, grid, 0.0)
T.check("build_flow: without snd_mss (older samples) delivered x MSS_BYTES (1448)",
        abs(f["cum_dlv"][-1] - f["cum"][-1]) < 1, f"cum_dlv {f['cum_dlv'][-1]}, cum {f['cum'][-1]}")

# Jain per bin on the delivered series: a flow whose cumulative ACK stalls
# for 0.5 s in a loss recovery (SACKed data still delivered) is not unfair.
rows = _rows(1448, 1000)
for i, r in enumerate(rows):
    if 3 <= i <= 7:		# bytes_acked held at its value at 0.3 s
        r["bytes_acked"] = rows[2]["bytes_acked"]
fa = bench.build_flow({"port": 5201}, {(5201, 1): _rows(1448, 1000)}, grid, 0.0)
fb = bench.build_flow({"port": 5202}, {(5202, 1): rows}, grid, 0.0)
j_dlv = bm.jain_by_timescale(grid, bench.jain_series([fa, fb]), [(0, 1), (0, 1)], [0.5], 0, 1)
j_ack = bm.jain_by_timescale(grid, [fa["cum"], fb["cum"]], [(0, 1), (0, 1)], [0.5], 0, 1)
T.check("jain_series: 0.5 s Jain of two equal flows is 1 on the delivered series "
        "although one's bytes_acked stalls (it would read "
        f"{j_ack[0.5]['p10']:.2f} on bytes_acked)",
        abs(j_dlv[0.5]["p10"] - 1) < 1e-9 and j_ack[0.5]["p10"] < 0.95, f"{j_dlv} {j_ack}")

# --- the field's measures: worst bin, the aggregate's dips, joining ---------
# Two flows over 4 s sampled every 0.1 s: equal (5 Mbit/s each) except in
# [2, 3) where flow b gets 15 and flow a 5: Jain (20^2)/(2*(25+225)) = 0.8
tt = np.round(np.arange(0, 4.001, 0.1), 3)
ra = np.full(len(tt), 5.0)
rb = np.where((tt > 2) & (tt <= 3.0001), 15.0, 5.0)
ca = np.concatenate([[0.0], np.cumsum(ra[1:] * 0.1 * 1e6 / 8)])
cb = np.concatenate([[0.0], np.cumsum(rb[1:] * 0.1 * 1e6 / 8)])
jw = bm.jain_by_timescale(tt, [ca, cb], [(0, 4), (0, 4)], [1], 0, 4)
T.check("jain_by_timescale: min is the worst 1 s bin (0.8), the median 1",
        near(jw[1]["min"], 0.8, 1e-6) and near(jw[1]["p50"], 1.0, 1e-6), f"{jw}")
T.check("jain_by_timescale: min None when no bin qualifies",
        bm.jain_by_timescale(tt, [ca], [(0, 4)], [1], 0, 4)[1]["min"] is None)
# The aggregate at 10 Mbit/s except one 100 ms bin of 40 at 0: numpy's
# linear rank for p5 is 0.05 x (40 - 1) = 1.95, between the 2nd and 3rd
# smallest bins (10 and 10), so p5 = 10; with three bins at 0 it lies
# between the 2nd and 3rd smallest (0 and 0): 0.
agg = np.full(len(tt), 10.0)
agg[15] = 0.0
cagg = np.concatenate([[0.0], np.cumsum(agg[1:] * 0.1 * 1e6 / 8)])
T.check("binned_rate_percentile: one dip bin of 40 leaves p5 at 10 Mbit/s",
        near(bm.binned_rate_percentile(tt, cagg, 0, 4, 0.1, 5), 10.0, 1e-6))
agg[[15, 25, 35]] = 0.0
cagg = np.concatenate([[0.0], np.cumsum(agg[1:] * 0.1 * 1e6 / 8)])
T.check("binned_rate_percentile: three dip bins of 40 put p5 at 0",
        near(bm.binned_rate_percentile(tt, cagg, 0, 4, 0.1, 5), 0.0, 1e-6))
T.check("binned_rate_percentile: None when the window is shorter than a bin",
        bm.binned_rate_percentile(tt, cagg, 1, 1.05, 0.1, 5) is None)
# Flow a alone on a 10 Mbit/s link from 0; flow b joins at 1 s and ramps
# 1 Mbit/s per 0.1 s (rate 1 at 1.1 s, 2 at 1.2 s, ...); its fair share is
# 5, 0.9 x 5 = 4.5: with no smoothing (one sample) reached at 1.5 s (5).
# Capped at 100 kB it sends 2 Mbit/s at most (1.4 s) and never gets there.
t2 = np.round(np.arange(0, 3.001, 0.1), 3)
rb2 = np.clip(np.round((t2 - 1.0) * 10), 0, 5)
ra2 = 10 - rb2
ca2 = np.concatenate([[0.0], np.cumsum(ra2[1:] * 0.1 * 1e6 / 8)])
cb2 = np.concatenate([[0.0], np.cumsum(rb2[1:] * 0.1 * 1e6 / 8)])
jf = bm.join_fair_times(t2, [ca2, cb2], [(0, 3), (1, 3)], [(0, 10.0)], 0.1, 0.9)
T.check("join_fair_times: the joiner reaches 0.9 of its fair share 0.5 s "
        "after its start; the incumbent is not a joiner",
        len(jf) == 1 and jf[0][0] == 1 and near(jf[0][1], 0.5, 1e-6), f"{jf}")
jf = bm.join_fair_times(t2, [ca2, np.minimum(cb2, 100000)], [(0, 3), (1, 3)],
                        [(0, 10.0)], 0.1, 0.9)
T.check("join_fair_times: a joiner starting before t_from (1 s < 1.5 s) is left out",
        bm.join_fair_times(t2, [ca2, cb2], [(0, 3), (1, 3)], [(0, 10.0)], 0.1, 0.9,
                           t_from=1.5) == [])
T.check("join_fair_times: ... and one starting within [t_from, t_to] counts",
        len(bm.join_fair_times(t2, [ca2, cb2], [(0, 3), (1, 3)], [(0, 10.0)], 0.1, 0.9,
                               t_from=1.0, t_to=1.0)) == 1)
T.check("join_fair_times: a joiner that never gets there is censored (None, "
        "window 2 s)", len(jf) == 1 and jf[0][1] is None and near(jf[0][2], 2.0, 1e-6),
        f"{jf}")

sys.exit(T.done())
