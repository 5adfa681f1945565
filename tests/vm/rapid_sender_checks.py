#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The checks of tests/vm/timing-50-rapid-sender.sh, in one process.

  rapid_sender_checks.py DIR

DIR holds what the suite's traffic phase left: the captures NAME.pcap, the
rapid_probe.py logs abest.jsonl and ss50.jsonl, raw `ss -tin` output
NAME.ss, iperf3 reports cubic1.json / cubic2.json, and values.txt ("key
value" lines measured by the shell: CPU windows, fq counters, log lines).
Analyses the captures with scripts/rapid/gaps.py (imported: numpy starts
once), writes DIR/gaps.json and DIR/gaps.txt, and prints one line per
check for the suite to report:

  ok<TAB>NAME (value op limit)     not ok<TAB>NAME (...)     #<TAB>diagnostic

One process instead of one per check: in the precise clock every process
start costs virtual time, the more the busier the host.
"""
import json
import math
import os
import re
import sys

from scripts.rapid import gaps as rapid_gaps  # PYTHONPATH: the top (tests/vm/lib.sh)

F_FQ, F_INTERNAL, F_INJECT = 1, 2, 8
OPS = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
       ">=": lambda a, b: a >= b, "==": lambda a, b: a == b}


def emit(kind, text):
    print(f"{kind}\t{text}", flush=True)


def diag(text):
    emit("#", text)


def check(name, ok):
    emit("ok" if ok else "not ok", name)


def cmp(name, value, op, limit):
    """kt_cmp: value op limit; a missing value fails."""
    if value is None:
        check(f"{name} (no value, want {op} {limit})", False)
        return
    ok = OPS[op](value, limit)
    shown = round(value, 5) if isinstance(value, float) else value
    check(f"{name} ({shown} {op} {limit})" if ok else f"{name} (got {shown}, want {op} {limit})", ok)


def read_values(path):
    vals = {}
    if os.path.exists(path):
        for line in open(path):
            k, _, v = line.strip().partition(" ")
            if k:
                vals[k] = v
    return vals


def num(vals, key):
    try:
        return float(vals[key])
    except (KeyError, ValueError):
        return None


def bbr_info(path):
    """RAPID's get_info record from scripts/obs/cc_info.py --json (PATH.cc,
    written with the raw ss output PATH): (r_avg bit/s, phase, n, flags,
    m) of the data socket (the faster one: iperf3 has a control one)."""
    if not os.path.exists(path + ".cc"):
        return None
    socks = [json.loads(l) for l in open(path + ".cc") if l.startswith("{")]
    socks = [s for s in socks if "r_avg_bps" in s]
    if not socks:
        return None
    s = max(socks, key=lambda s: s["r_avg_bps"])
    phases = {"slow-start": 0, "steady": 1, "fixed": 2}
    bits = {"fq": 1, "internal-pacing": 2, "no-records": 4, "injected": 8, "loss": 16,
            "ring-full": 32, "receiver-feedback": 64, "sender-estimate": 128}
    return (s["r_avg_bps"], phases.get(s["phase"], s["phase"]), s["n"],
            sum(bits[f] for f in s["flags"]), round(s["m"] * 1000))


def samples(path):
    rows = [json.loads(l) for l in open(path)] if os.path.exists(path) else []
    return [r for r in rows if "bw" in r], [r["t"] for r in rows if "event" in r]


def analyse_captures(d):
    caps = [("chirp20", 20000), ("chirp100", 100000), ("chirp100u", 100000), ("chirp100m", 100000),
            ("retx", 20000), ("acks", 10000),
            ("plimit", 20000), ("side", 20000), ("nofq", 20000)]
    res = {}
    with open(os.path.join(d, "gaps.txt"), "w") as kv:
        for name, rate in caps:
            path = os.path.join(d, name + ".pcap")
            try:
                r, _ = rapid_gaps.analyse(path, rate, 30, 1.07, 100, 10)
            except (OSError, ValueError) as e:
                diag(f"{name}: {e}")
                continue
            res[name] = r
            rapid_gaps.write_kv(kv, r)
            diag(f"{name}: " + " ".join(f"{k}={r[k]}" for k in (
                "packets", "payload_p50", "within10", "within10_top", "ratio_p5", "ratio_p50", "ratio_p95",
                "dep_err_us_p95", "m_est_p50", "rising", "stream_avg_p50", "long_run_mbps",
                "phase_changes", "retransmissions", "retx_gap_p50", "pure_acks")))
    with open(os.path.join(d, "gaps.json"), "w") as f:
        json.dump(list(res.values()), f, indent=1)
    return res


def err(v):
    return None if v is None else abs(v - 1)


def chirps(res, name, mbit, min_within):
    r = res.get(name, {})
    what = f"{name} (r_avg {mbit} Mbit/s)"
    cmp(f"{what}: gaps within 10% of the schedule (share)", r.get("within10"), ">=", min_within)
    cmp(f"{what}: period N: one stream phase throughout (changes)", r.get("phase_changes"), "==", 0)
    cmp(f"{what}: rates grow by m=1.07 within streams (median fit >=)", r.get("m_est_p50"), ">=", 1.06)
    cmp(f"{what}: rates grow by m=1.07 within streams (median fit <=)", r.get("m_est_p50"), "<=", 1.08)
    cmp(f"{what}: rates rise in (nearly) every stream (share)", r.get("rising"), ">=", 0.9)
    cmp(f"{what}: median stream averages r_avg (|ratio - 1|)", err(r.get("stream_avg_p50")), "<=", 0.03)
    cmp(f"{what}: long-run rate within 3% of r_avg (|ratio - 1|)", err(r.get("long_run")), "<=", 0.03)


def cpu(vals, d):
    def per_gb(tag):
        b, n = num(vals, f"cpu_{tag}_busy"), num(vals, f"cpu_{tag}_bytes")
        if not b or not n:
            return None, None
        return b / n * 1e9, n * 8 / 2e6     # s per GB, Mbit/s in the 2 s window
    r, r_mbit = per_gb("rapid")
    c, c_mbit = per_gb("cubic")
    c1, c1_mbit = per_gb("cubic1mss")
    if None in (r, c, c1):
        check("cpu: windows measured", False)
        return
    pkt = 1514e-9                           # GB per full-size frame
    diag(f"CPU (whole guest, busy s per GB on the sender's wire): rapid {r:.2f} ({r_mbit:.1f} Mbit/s); "
         f"cubic {c:.2f} ({c_mbit:.1f} Mbit/s): rapid/cubic {r / c:.2f}, +{(r - c) * pkt * 1e9:.0f} ns "
         f"per packet; cubic with 1 MSS per skb {c1:.2f} ({c1_mbit:.1f} Mbit/s): rapid/cubic-1MSS "
         f"{r / c1:.2f}, {(r - c1) * pkt * 1e9:+.0f} ns per packet")
    with open(os.path.join(d, "cpu.txt"), "w") as f:
        f.write(f"rapid_s_per_gb {r:.2f} rapid_mbit {r_mbit:.1f} cubic_s_per_gb {c:.2f} "
                f"cubic_mbit {c_mbit:.1f} ratio {r / c:.2f} cubic1mss_s_per_gb {c1:.2f} "
                f"cubic1mss_mbit {c1_mbit:.1f} ratio_1mss {r / c1:.2f}\n")
    u, u_mbit = per_gb("rapidu")
    if u is not None:
        diag(f"CPU: rapid without the data option (mark_data=0) {u:.2f} ({u_mbit:.1f} Mbit/s): "
             f"rapid/cubic {u / c:.2f}; marking and the receiver's feedback add "
             f"{(r - u) * pkt * 1e9:+.0f} ns per packet")
        with open(os.path.join(d, "cpu.txt"), "a") as f:
            f.write(f"rapidu_s_per_gb {u:.2f} rapidu_mbit {u_mbit:.1f} ratio_u {u / c:.2f}\n")
    cmp("cpu: cubic compared at the same rate (Mbit/s on the wire)", round(c_mbit, 1), ">=", 95)
    cmp("cpu: rapid costs less than 3x cubic per GB (ratio)", round(r / c, 2), "<", 3)
    cmp("cpu: rapid costs less than 1.5x cubic with 1 MSS per skb (ratio)", round(r / c1, 2), "<", 1.5)


def abest(d):
    s, ev = samples(os.path.join(d, "abest.jsonl"))
    if len(ev) < 2 or not s:
        check("abest: samples", False)
        return
    t1, t2 = ev[0], ev[1]
    ss_n = []
    for r in s:
        if r["phase"] == 0 and (not ss_n or ss_n[-1] != r["n"]):
            ss_n.append(r["n"])
    ex = next((r for r in s if r["phase"] != 0), None)
    diag(f"slow start N: {ss_n}; exit: " + (
        f"at {ex['t']:.3f} s, bw {ex['bw']} phase {ex['phase']} N {ex['n']} m {ex['m']} "
        f"flags {ex['flags']}" if ex else "none"))
    cmp("ss: N doubles while ABest is the top rate (increasing)",
        int(bool(ss_n) and all(b > a for a, b in zip(ss_n, ss_n[1:]))), "==", 1)
    cmp("ss: exit after the N = 8 stream (top 25.6 > 10 Mbit/s) (max N)", max(ss_n, default=0), "==", 8)
    # right after the exit the refinement's streams probe wide (refine_m
    # 1120, docs/rapid-deviations.md#wide-refine); the first estimate below
    # their top (the injected 10 Mbit/s) takes m back
    check("ss exit: r_avg = ABest = 10 Mbit/s, steady state, N 30, m 1120 (refine_m), inject flag",
          bool(ex) and (ex["bw"], ex["phase"], ex["n"], ex["m"]) == (10000000, 1, 30, 1120)
          and bool(ex["flags"] & F_INJECT))
    pre = [r for r in s if t1 - 0.3 <= r["t"] < t1]
    cmp("steady: held at 10 Mbit/s before the increase (min bit/s)",
        min((r["bw"] for r in pre), default=None), "==", 10000000)
    check("steady: m 1070 again before the increase (every sample)",
          bool(pre) and all(r["m"] == 1070 for r in pre))
    tau, a, r0 = 0.2, 40e6, 10e6
    inc = [r for r in s if t1 <= r["t"] < t2]
    diag("increase 10 -> 40 Mbit/s, t-t1:Mbit/s " +
         " ".join(f"{r['t'] - t1:.2f}:{r['bw'] / 1e6:.1f}" for r in inc[::20]))
    for dt in (0.2, 0.6):
        r = min(inc, key=lambda r: abs(r["t"] - t1 - dt))
        x = r["t"] - t1
        want = a - (a - r0) * math.exp(-x / tau)
        hi = a - (a - r0) * math.exp(-x / (0.8 * tau))
        lo = a - (a - r0) * math.exp(-max(0.0, x - 0.1) / (1.5 * tau))
        got = r["bw"] / 1e6
        diag(f"increase at +{x:.3f} s: {got:.2f} Mbit/s (Eq. 6 continuous: {want / 1e6:.2f}; "
             f"accepted {lo / 1e6:.2f}..{hi / 1e6:.2f})")
        cmp(f"increase follows the tau filter at +{dt} s (Mbit/s >= lower)", got, ">=", round(lo / 1e6, 2))
        cmp(f"increase follows the tau filter at +{dt} s (Mbit/s <= upper)", got, "<=", round(hi / 1e6, 2))
    bws = [r["bw"] for r in inc]
    cmp("increase: r_avg never falls on the way up (monotone)",
        int(all(b >= a for a, b in zip(bws, bws[1:]))), "==", 1)
    cmp("increase: converged to 40 Mbit/s after 1 s (Mbit/s)", bws[-1] / 1e6 if bws else None, ">=", 38.8)
    dec = [r for r in s if r["t"] >= t2]
    first = next((r for r in dec if r["bw"] == 15e6), None)
    cmp("decrease: 15 Mbit/s adopted within RTT + 2 streams (s)",
        round(first["t"] - t2, 3) if first else None, "<=", 0.08)
    cmp("decrease: and held (all later samples)",
        int(bool(first) and all(r["bw"] == 15e6 for r in dec if r["t"] >= first["t"])), "==", 1)
    s, _ = samples(os.path.join(d, "ss50.jsonl"))
    n_ss = [r["n"] for r in s if r["phase"] == 0]
    e = next((r for r in s if r["phase"] == 1), None)
    diag(f"slow start to 50 Mbit/s: max N {max(n_ss, default=0)}, exit bw {e and e['bw']}")
    # from 100 kbit/s (Table 4) the exit stream is N = 16; the slow-start
    # floor (n * mss / srtt, docs/rapid-deviations.md#slow-start-floor) can
    # make an earlier stream's top pass 50 Mbit/s: N doubled at least once,
    # <= 16
    cmp("ss to 50 Mbit/s: slow start doubled N (max N >= 4)", max(n_ss, default=0), ">=", 4)
    cmp("ss to 50 Mbit/s: ... up to ss_n_max (max N <= 16)", max(n_ss, default=99), "<=", 16)
    cmp("ss to 50 Mbit/s: r_avg = ABest (bit/s)", e["bw"] if e else None, "==", 50000000)


def injected_step(d, name, what, before_bps):
    """Samples of an injected run and the time of its one step (None when
    there are none), with the check that r_avg held before_bps for the
    0.2 s before it."""
    s, ev = samples(os.path.join(d, name + ".jsonl"))
    if not ev or not s:
        check(f"{what}: samples", False)
        return None, None
    t1 = ev[0]
    pre = [r["bw"] for r in s if t1 - 0.2 <= r["t"] < t1]
    cmp(f"{what}: held at {before_bps / 1e6:.0f} Mbit/s before the step (min bit/s)",
        min(pre, default=None), "==", before_bps)
    return s, t1


def abest_bounded(d):
    """(4b): the defaults cut r_avg by at most 1/8 per estimate."""
    s, t1 = injected_step(d, "cut", "bounded cut", 40000000)
    if s is None:
        return
    dec = [r["bw"] for r in s if r["t"] >= t1]
    steps = [b / a for a, b in zip(dec, dec[1:]) if b < a]
    diag("bounded cut: r_avg after 1.0 s (Mbit/s) " +
         " ".join(f"{b / 1e6:.2f}" for b in sorted(set(dec), reverse=True)))
    # 7/8 exactly, but for the last step to 15 Mbit/s and the kbit/s of bw
    cmp("bounded cut: no step below 7/8 of r_avg (smallest ratio)",
        round(min(steps), 4) if steps else None, ">=", 0.874)
    cmp("bounded cut: ... so it takes several estimates (steps)", len(steps), ">=", 6)
    # the last cuts stop within hold_milli (20%) of the estimate: on this
    # 1 Gbit/s path there is no standing queue to say r_avg is too high
    first = next((r for r in s if r["t"] >= t1 and r["bw"] <= 15e6 / 0.8), None)
    cmp("bounded cut: within 20% of 15 Mbit/s (the hold) after 0.5 s at most (s)",
        round(first["t"] - t1, 3) if first else None, "<=", 0.5)
    cmp("bounded cut: ... and not below the estimate (min bit/s)", min(dec, default=None), ">=", 15000000)


def abest_accel(d):
    """(4c): the defaults accelerate towards a step up that lasts."""
    s, t1 = injected_step(d, "accel", "accel", 30000000)
    if s is None:
        return
    inc = [r for r in s if r["t"] >= t1]
    diag("accel: 30 -> 40 Mbit/s, t-t1:Mbit/s " +
         " ".join(f"{r['t'] - t1:.2f}:{r['bw'] / 1e6:.1f}" for r in inc[::10]))
    at = min(inc, key=lambda r: abs(r["t"] - t1 - 0.5)) if inc else None
    # Eq. 6 with tau 1.2 s: 40 - 10 exp(-0.5 / 1.2) = 33.4 Mbit/s; with the
    # acceleration about 36.7: the check sits between them
    cmp("accel: 0.5 s after the step well above Eq. 6's 33.4 Mbit/s (Mbit/s)",
        round(at["bw"] / 1e6, 2) if at else None, ">=", 35.0)
    cmp("accel: never above the estimate (max bit/s)", max((r["bw"] for r in inc), default=None),
        "<=", 40000000)
    bws = [r["bw"] for r in inc]
    cmp("accel: r_avg never falls on the way up (monotone)",
        int(all(b >= a for a, b in zip(bws, bws[1:]))), "==", 1)


def iperf_mbit(path):
    try:
        return json.load(open(path))["end"]["sum_received"]["bits_per_second"] / 1e6
    except (OSError, ValueError, KeyError):
        return None


def main():
    d = sys.argv[1]
    vals = read_values(os.path.join(d, "values.txt"))
    res = analyse_captures(d)

    # (1) fixed-rate chirps
    chirps(res, "chirp20", 20, 0.9)
    info = bbr_info(os.path.join(d, "chirp20.ss"))
    diag(f"chirp20 get_info (bw phase N flags m): {info}")
    check("get_info in fixed mode: bw 20 Mbit/s, phase 2, N 30, m 1070, fq",
          bool(info) and info[:3] == (20000000, 2, 30) and info[4] == 1070 and bool(info[3] & F_FQ))
    chirps(res, "chirp100", 100, 0.85)
    diag(f"chirp100: sender fq {vals.get('fq100', '?')}")
    chirps(res, "chirp100u", 100, 0.85)
    chirps(res, "chirp100m", 100, 0.85)
    # mark_data: the data option takes 12 bytes of every segment's payload
    # (IPv4 with timestamps: MSS 1448 -> 1436)
    cmp("chirp100: data marked (payload bytes, mark_data=1)",
        res.get("chirp100", {}).get("payload_p50"), "==", 1436)
    cmp("chirp100u: data not marked (payload bytes, mark_data=0)",
        res.get("chirp100u", {}).get("payload_p50"), "==", 1448)
    cmp("chirp100m: data marked, no receiver helper (payload bytes)",
        res.get("chirp100m", {}).get("payload_p50"), "==", 1436)
    # (2)
    cpu(vals, d)
    # (3)
    r = res.get("retx", {})
    cmp("retx: retransmissions happened (count)", r.get("retransmissions"), ">=", 5)
    cmp("retx: stream phase unchanged across retransmissions (changes)", r.get("phase_changes"), "==", 0)
    cmp("retx: gap after a retransmission is P / r_avg (|median ratio - 1|)", err(r.get("retx_gap_p50")), "<=", 0.1)
    cmp("retx: new data still within 10% of the schedule (share)", r.get("within10"), ">=", 0.9)
    r = res.get("acks", {})
    cmp("acks: the rapid socket sent pure ACKs between its data (count)", r.get("pure_acks"), ">=", 50)
    cmp("acks: stream phase unchanged by pure ACKs (changes)", r.get("phase_changes"), "==", 0)
    cmp("acks: data within 10% of the schedule (share)", r.get("within10"), ">=", 0.9)
    r = res.get("plimit", {})
    cmp("plimit: fq refused packets at enqueue (count)", num(vals, "plimit_refused"), ">=", 100)
    cmp("plimit: a refused segment keeps its place in the stream (phase changes)", r.get("phase_changes"), "==", 0)
    cmp("plimit: gaps within 10% of the schedule (share)", r.get("within10"), ">=", 0.85)
    # TCP sends a refused segment again when fq frees a slot; how late that
    # is depends on the host (TSQ, softirq), and RAPID keeps the schedule's
    # gaps after a late packet, so the lateness is lost for good: long_run
    # was 0.946-0.986 over nine CI runs, with 1 - long_run equal to
    # late_share each time.  The schedule's own rate is checked with that
    # time taken out; the lateness gets a bound of its own (a gap added
    # per refusal, as TCP's would be if RAPID lost track, costs ~1/3).
    diag(f"plimit: long-run {r.get('long_run')} r_avg, late departures {r.get('late_share')} of the time")
    cmp("plimit: long-run rate on schedule apart from late retries (|ratio - 1|)",
        err(r.get("long_run_on_time")), "<=", 0.03)
    cmp("plimit: late retries cost under 10% of the time (share)", r.get("late_share"), "<", 0.10)
    # (4)
    abest(d)
    abest_bounded(d)
    abest_accel(d)
    # (5)
    c1, c2 = iperf_mbit(os.path.join(d, "cubic1.json")), iperf_mbit(os.path.join(d, "cubic2.json"))
    diag(f"cubic alone {c1} Mbit/s, beside rapid {c2} Mbit/s")
    cmp("side by side: cubic's throughput unchanged by a rapid socket (|ratio - 1|)",
        abs(c2 / c1 - 1) if c1 and c2 else None, "<=", 0.05)
    cs = open(os.path.join(d, "cubic.ss")).read() if os.path.exists(os.path.join(d, "cubic.ss")) else ""
    check("side by side: the cubic socket has no RAPID state", " cubic " in cs and "bbr:" not in cs)
    if " cubic " not in cs:
        diag(f"cubic ss: {cs.strip()[:300]}")
    r = res.get("side", {})
    cmp("side by side: rapid's gaps within 10% of its schedule (share)", r.get("within10"), ">=", 0.9)
    # (the cubic flow's CPU makes TCP late now and then; late is not caught up)
    cmp("side by side: rapid's long-run rate within 5% (|ratio - 1|)", err(r.get("long_run")), "<=", 0.05)
    # (6)
    info = bbr_info(os.path.join(d, "nofq.ss"))
    diag(f"nofq get_info (bw phase N flags m): {info}")
    cmp("no fq: get_info flags INTERNAL (2) without FQ (1)",
        info[3] & (F_FQ | F_INTERNAL) if info else None, "==", F_INTERNAL)
    cmp("no fq: the kernel log says so, once (lines)", num(vals, "nofq_log"), "==", 1)
    r = res.get("nofq", {})
    cmp("no fq: internal pacing keeps the gaps (share within 10%)", r.get("within10"), ">=", 0.8)
    cmp("no fq: long-run rate within 3% of r_avg (|ratio - 1|)", err(r.get("long_run")), "<=", 0.03)
    return 0


if __name__ == "__main__":
    sys.exit(main())
