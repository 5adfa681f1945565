# SPDX-License-Identifier: GPL-2.0
"""Lab benchmarks: scenario plans, analysis of raw samples, tables, plots.

  python3 -m scripts.bench CMD ...   (from the project's top, or with
                                      PYTHONPATH set to it)

  list                                            the shipped scenarios
  plan --scenario NAME [--cc a,b] [--set k=v ...] --out DIR
                                                  resolve into DIR/plan.json
  analyze DIR [--no-plots] [--columns a,b] [--quiet]
                                                  DIR/results.json, PNGs, a
                                                  table, and as the last line
                                                  one JSON object
  table DIR [--columns a,b] [--markdown]          the table again
  shell PLAN INDEX OUTDIR                         bash assignments of one run
                                                  (for scripts/bench/guest.sh)
  plan-info PLAN runs                             number of runs

scripts/bench/run.sh drives the whole thing (set-up, build, lab VM, analysis);
docs/benchmarks.md documents the scenario schema and every metric.
"""
import argparse
import csv
import json
import os
import sys

from . import scenario as bs

# Columns of the table, in order, with their headers and formats.
COLUMNS = [
    ("goodput_mbps", "goodput_Mbps", "{:.1f}"),
    ("util", "util", "{:.2f}"),
    ("loss", "loss", "{:.4f}"),
    ("retrans", "retrans", "{:d}"),
    ("q50_pkts", "q50_pkts", "{:.0f}"),
    ("q95_pkts", "q95_pkts", "{:.0f}"),
    ("q95_ms", "q95_ms", "{:.1f}"),
    ("srtt_p95_ms", "srtt95_ms", "{:.1f}"),
    ("jain_1s", "jain_1s", "{:.3f}"),
    ("jain_10s", "jain_10s", "{:.3f}"),
    ("jain_worst_1s", "jain_min1s", "{:.3f}"),
    ("agg_p5_frac", "agg_p5", "{:.2f}"),
    ("join_fair_rtts", "join_rtts", "{:.1f}"),
    ("t90_s", "t90_s", "{:.2f}"),
    ("t90_rtts", "t90_rtts", "{:.1f}"),
    ("t90_stable_rtts", "stable_rtts", "{:.1f}"),
    ("reacquire_rtts", "reacq_rtts", "{:.1f}"),
    ("throughput_ratio", "tput_ratio", "{:.2f}"),
    ("share", "share", "{:.2f}"),
    ("fair_share", "fair", "{:.2f}"),
    ("share_ratio", "share/fair", "{:.2f}"),
    ("other_goodput_mbps", "others_Mbps", "{:.1f}"),
    ("rt_p50_ms", "rt50_ms", "{:.0f}"),
    ("rt_p95_ms", "rt95_ms", "{:.0f}"),
    ("goodput_ratio_vs_*", "gp/{b}", "{:.2f}"),
    ("q95_ratio_vs_*", "q95/{b}", "{:.2f}"),
    ("srtt_p95_ratio_vs_*", "srtt95/{b}", "{:.2f}"),
    ("rt_p95_ratio_vs_*", "rt95/{b}", "{:.2f}"),
    ("cpu_ns_per_byte", "cpu_ns/B", "{:.3f}"),
    ("bystander_cost", "bystander", "{:.4f}"),
    ("bystander_cost_nosocket", "bystander_nosock", "{:.4f}"),
    ("cpu_ratio_vs_*", "cpu/{b}", "{:.3f}"),
    ("other_goodput_ratio_vs_*", "others/{b}", "{:.2f}"),
]


# ----------------------------------------------------------------------------
# plan / shell

def cmd_list(_a):
    for name, desc in bs.list_scenarios():
        print(f"{name:14s} {desc.split('. ')[0][:100]}")
    return 0


def cmd_plan(a):
    doc = bs.load(a.scenario)
    ccs = [c for c in a.cc.split(",") if c] if a.cc else None
    plan = bs.resolve(doc, ccs, a.set)
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "plan.json"), "w") as f:
        json.dump(plan, f, indent=1)
    print(f"# plan: {plan['scenario']}: {len(plan['runs'])} run(s) "
          f"({', '.join(r['id'] for r in plan['runs'])}), "
          f"{plan['guest_seconds']:.0f} s of guest time", file=sys.stderr)
    return 0


def cmd_plan_info(a):
    with open(a.plan) as f:
        plan = json.load(f)
    if a.what == "runs":
        print(len(plan["runs"]))
    return 0


def cmd_shell(a):
    with open(a.plan) as f:
        plan = json.load(f)
    run = plan["runs"][a.index]
    rdir = os.path.join(a.outdir, run["dir"])
    os.makedirs(rdir, exist_ok=True)
    for s in run["shorts"]:
        with open(os.path.join(rdir, f"short{s['id']}.schedule.json"), "w") as f:
            json.dump(s["schedule"], f)
    sys.stdout.write(bs.shell_run(plan, a.index, a.outdir))
    return 0


# ----------------------------------------------------------------------------
# reading raw samples

def _read_csv(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def _read_json(path):
    """A JSON file, or None; text before the first line that opens an object
    (iperf3 -J with stray stderr lines) is skipped."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return None
    try:
        return json.loads(text)
    except ValueError:
        i = text.find("\n{")
        try:
            return json.loads(text[i + 1:]) if i >= 0 else None
        except ValueError:
            return None


def load_run(rdir):
    """Raw samples of one run as numpy arrays (times relative to t0)."""
    import numpy as np
    meta = _read_json(os.path.join(rdir, "run.json")) or {}
    t0 = float(meta.get("t0", 0))
    q = {}
    for r in _read_csv(os.path.join(rdir, "qdisc.csv")):
        q.setdefault(r["handle"], []).append(r)
    # Samples from before t0 (the sampler starts first) are dropped.
    leaf = [r for r in q.get("10:", []) if float(r["t"]) >= t0 - 1e-6]
    ticks = np.array([float(r["t"]) - t0 for r in leaf])
    qd = {
        "t": ticks,
        "qlen": np.array([float(r["qlen"]) for r in leaf]),
        "backlog": np.array([float(r["backlog_bytes"]) for r in leaf]),
        "drops": np.array([float(r["drops"]) for r in leaf]),
        "bytes": np.array([float(r["bytes"]) for r in leaf]),
        "packets": np.array([float(r["packets"]) for r in leaf]),
    }
    socks = {}
    for r in _read_csv(os.path.join(rdir, "tcp.csv")):
        if float(r["t"]) < t0 - 1e-6:
            continue
        key = (int(r["dport"]), r["cookie"])
        socks.setdefault(key, []).append(r)
    return meta, qd, socks


def measured_cbrs(rdir, run, t0):
    """run["cbr"] with start_s / stop_s where the sampler saw each stream
    really start and stop (cbr.csv; a CBR's iperf3 client takes its own
    round trips to set up, more so in the precise clock), and the start
    lag of each against the plan (None where not measured)."""
    from . import metrics as bm
    by = {}
    for r in _read_csv(os.path.join(rdir, "cbr.csv")):
        by.setdefault(int(r["cbr"]), []).append((float(r["t"]) - t0, float(r["bytes"])))
    out, lags = [], []
    for c in run["cbr"]:
        rows = by.get(c["id"])
        oo = None
        if rows:
            rate = c["rate_mbit"] * 1e6 / 8 * bs.UDP_FRAME / bs.UDP_PAYLOAD
            oo = bm.cbr_on_off([x for x, _ in rows], [b for _, b in rows], rate)
        if oo is None:
            out.append(c)
            lags.append(None)
        else:
            out.append(dict(c, start_s=oo[0], stop_s=oo[1]))
            lags.append(_r(oo[0] - float(c["start_s"]), 3))
    return out, lags


# Bytes an iperf3 data connection sends before its test data (the cookie).
IPERF_COOKIE_MAX = 100


def build_flow(flow, socks, grid, t0):
    import numpy as np
    n = len(grid)
    res = {"cum": np.zeros(n), "cum_dlv": np.zeros(n),
           "cwnd": np.full(n, np.nan), "srtt_ms": np.full(n, np.nan),
           "pacing_mbps": np.full(n, np.nan), "first": None, "last": None,
           "retrans": 0, "segs": 0, "min_rtt_ms": None, "cc_seen": "",
           "mss": None}
    cands = [rows for k, rows in socks.items() if k[0] == flow["port"]]
    if not cands or n == 0:
        return res
    rows = max(cands, key=lambda rs: max(int(r["bytes_acked"]) for r in rs))
    ts = np.array([float(r["t"]) - t0 for r in rows])
    acked = np.array([float(r["bytes_acked"]) for r in rows])
    idx = np.searchsorted(grid, ts - 1e-4)
    idx = np.clip(idx, 0, n - 1)
    present = np.zeros(n, dtype=bool)
    present[idx] = True
    res["cwnd"][idx] = [float(r["cwnd"]) for r in rows]
    res["srtt_ms"][idx] = [float(r["srtt_us"]) / 1000 for r in rows]
    res["pacing_mbps"][idx] = [float(r["pacing_Bps"]) * 8 / 1e6 for r in rows]
    # tcpi_delivered (segments delivered, SACKed ones included) does not
    # stall while a loss recovery holds the cumulative ACK back: the rate
    # series and Jain's index use it; byte totals use bytes_acked.  Its
    # segments are of the socket's own MSS (tcpi_snd_mss: 1436 bytes for
    # RAPID's marked data, 1448 for the others here); samples without it
    # (older tcp.csv) fall back to the scenario's MSS_BYTES.
    if "delivered" in rows[0] and rows[0]["delivered"] not in (None, ""):
        mss = np.array([float(r.get("snd_mss") or 0) or bs.MSS_BYTES for r in rows])
        dlv = np.array([float(r["delivered"]) for r in rows]) * mss
        res["mss"] = int(mss[-1])
    else:
        dlv = acked
    last_i = int(idx[-1])
    first_i = int(idx[0])
    for key, vals in (("cum", acked), ("cum_dlv", dlv)):
        cum = np.zeros(n)
        cum[idx] = vals
        # forward fill after the last sample (the socket closed), zero before
        cum = np.maximum.accumulate(cum)
        cum[last_i:] = vals[-1]
        res[key] = cum
    res["first"] = float(grid[first_i])
    res["last"] = float(grid[last_i])
    # The first payload beyond iperf3's 37-byte cookie left after the last
    # sample that had not seen it: the data connection waits for iperf3's
    # control exchange (up to a round trip) before it sends anything.
    sent = np.array([float(r["bytes_sent"]) for r in rows])
    k = np.flatnonzero(sent > IPERF_COOKIE_MAX)
    if len(k):
        res["data_start"] = float(ts[k[0] - 1]) if k[0] > 0 else float(ts[0])
    res["retrans"] = int(rows[-1]["total_retrans"])
    res["segs"] = int(rows[-1]["data_segs_out"])
    mins = [int(r["min_rtt_us"]) for r in rows if int(r["min_rtt_us"]) > 0]
    res["min_rtt_ms"] = min(mins) / 1000 if mins else None
    res["cc_seen"] = rows[-1]["cc"]
    return res


def jain_series(fs):
    """The per-flow cumulative bytes Jain's index bins: delivered (x the
    socket's own MSS), not bytes_acked, which stalls while a loss recovery
    holds the cumulative ACK back and would read as unfairness at 0.5-1 s."""
    return [s["cum_dlv"] for s in fs]


def load_shorts(rdir, run):
    out = []
    for s in run["shorts"]:
        for r in _read_csv(os.path.join(rdir, f"short{s['id']}.csv")):
            out.append({"start": float(r["start_s"]), "bytes": int(r["bytes"]),
                        "rt": float(r["response_s"]), "ok": r["ok"] == "1"})
    return out


# ----------------------------------------------------------------------------
# metrics of one run

def _r(x, nd=4):
    if x is None:
        return None
    return round(float(x), nd)


def analyze_run(plan, run, rdir):
    import numpy as np
    from . import metrics as bm

    meta, qd, socks = load_run(rdir)
    an = run["analysis"]
    dur = run["duration_s"]
    t_from = float(an.get("from_s") or 0)
    t_to = float(an["to_s"]) if an.get("to_s") is not None else dur
    grid = qd["t"]
    rate0 = run["bottleneck"]["rate_kbit"] / 1000
    sched = [{"at_s": e["at_s"], "rate_mbit": e["rate_kbit"] / 1000}
             for e in run["schedule"] if "rate_kbit" in e]
    rate_pts = bm.avail_timeline(dur, rate0, sched, ())
    payload = bs.MSS_BYTES / bs.FRAME_BYTES
    cbrs, cbr_lags = measured_cbrs(rdir, run, float(meta.get("t0", 0)))
    avail_pts = bm.avail_timeline(dur, rate0, sched, cbrs, payload,
                                  bs.UDP_FRAME / bs.UDP_PAYLOAD)
    m = {"id": run["id"], "cc": run["cc"], "variant": run["variant"]}
    if cbrs:
        m["cbr_start_lag_s"] = cbr_lags
    series = {"grid": grid, "queue_pkts": qd["qlen"], "avail": avail_pts,
              "rate_pts": rate_pts, "flows": []}
    if meta.get("error") or os.path.exists(os.path.join(rdir, "error")):
        err = meta.get("error")
        if not err:
            with open(os.path.join(rdir, "error")) as f:
                err = f.read().strip()
        m["error"] = err
    if len(grid) < 3:
        m.setdefault("error", "no samples")
        return m, series

    flows = run["flows"]
    fs = [build_flow(f, socks, grid, float(meta.get("t0", 0))) for f in flows]
    for f, s in zip(flows, fs):
        s.update({"label": f["label"], "cc": f["cc"], "tested": f["tested"],
                  "rtt_ms": f["rtt_ms"],
                  "rate": bm.rates_from_cumulative(grid, s["cum_dlv"])})
    series["flows"] = fs
    sel = (grid >= t_from) & (grid <= t_to)

    # Per flow goodput over its scheduled life inside the window.
    # Goodput of a flow over its data connection's life (from the first
    # sample that shows it: iperf3's own set-up is not the CC's doing)
    # inside the analysis window and its scheduled stop.
    def flow_gp(f, s):
        if s["first"] is None:
            return 0.0
        a = max(t_from, s["first"], f["start_s"])
        b = min(t_to, f["stop_s"], s["last"])
        if b <= a:
            return None
        return bm.window_delta(grid, s["cum"], a, b) * 8 / (b - a) / 1e6

    m["flow_cc"] = [f["cc"] for f in flows]
    m["flow_rtt_ms"] = [f["rtt_ms"] for f in flows]
    m["flow_min_rtt_ms"] = [_r(s["min_rtt_ms"], 1) for s in fs]
    m["flow_mss"] = [s.get("mss") for s in fs]
    # delivered x MSS against bytes_acked at the end, per flow: 1 when the
    # MSS is each socket's own (no partial segments), 1.0084 for RAPID's
    # marked data counted in 1448-byte segments
    m["flow_dlv_over_acked"] = [_r(s["cum_dlv"][-1] / s["cum"][-1], 5)
                                if s["cum"][-1] > 0 else None for s in fs]
    m["modparams_seen"] = meta.get("modparams") or {}
    m["flow_goodput_mbps"] = [_r(flow_gp(f, s), 2) for f, s in zip(flows, fs)]
    tested = [(f, s) for f, s in zip(flows, fs) if f["tested"]]
    others = [(f, s) for f, s in zip(flows, fs) if not f["tested"]]

    if tested:
        tb = sum(bm.window_delta(grid, s["cum"], t_from, t_to) for _, s in tested)
        firsts = [s["first"] for _, s in tested if s["first"] is not None]
        a = max(t_from, min(firsts)) if firsts else t_from
        m["goodput_mbps"] = _r(tb * 8 / (t_to - a) / 1e6, 2) if t_to > a else None
        segs = sum(s["segs"] for _, s in tested)
        m["retrans"] = int(sum(s["retrans"] for _, s in tested))
        m["loss"] = _r(m["retrans"] / segs, 5) if segs else None
        srtt = np.concatenate([s["srtt_ms"][sel] for _, s in tested])
        m["srtt_p50_ms"] = _r(bm.percentile(srtt, 50), 1)
        m["srtt_p95_ms"] = _r(bm.percentile(srtt, 95), 1)
        if others:
            ob = sum(bm.window_delta(grid, s["cum"], t_from, t_to) for _, s in others)
            m["other_goodput_mbps"] = _r(ob * 8 / (t_to - a) / 1e6, 2) if t_to > a else None
            m["share"] = _r(tb / (tb + ob), 3) if tb + ob > 0 else None
            m["fair_share"] = _r(len(tested) / len(flows), 3)
            if m["share"] is not None:
                m["share_ratio"] = _r(m["share"] / m["fair_share"], 3)

        # Time to 90% of the avail-bw, and re-acquiring it after steps: on
        # the aggregate of the tested flows, when every bulk flow is tested.
        if not others:
            rtt_s = min(f["rtt_ms"] for f, _ in tested) / 1000
            agg_cum = sum(s["cum_dlv"] for _, s in tested)
            agg = bm.rates_from_cumulative(grid, agg_cum)
            w = max(run["sample_ms"] / 1000, rtt_s)
            sm = bm.trailing_mean(grid, agg, w)
            series["agg_smooth"] = sm
            firsts = [s.get("data_start", s["first"]) for _, s in tested
                      if s["first"] is not None]
            frac = float(an.get("t90_frac", 0.9))
            if firsts:
                t_first = min(firsts)
                tgt = bm.level_at(avail_pts, grid)
                t90 = bm.time_to_fraction(grid, sm, tgt, t_first, frac)
                m["t90_s"] = _r(t90, 3)
                m["t90_rtts"] = _r(t90 / rtt_s, 1) if t90 is not None else None
                # ...and from when on it stays there (until the first
                # avail-bw step or the end of the tested flows).
                steps0 = bm.detect_steps(avail_pts, 0.1)
                t_end = min([t_to] + [f["stop_s"] for f, _ in tested]
                            + [st for st, _, _ in steps0 if st > t_first])
                t_end -= run["sample_ms"] / 1000
                st90 = bm.time_to_stable(grid, sm, tgt, t_first, t_end, frac)
                m["t90_stable_s"] = _r(st90, 3)
                m["t90_stable_rtts"] = _r(st90 / rtt_s, 1) if st90 is not None else None
            steps = bm.detect_steps(avail_pts, 0.1)
            if steps:
                rq = bm.reacquire_times(grid, sm, avail_pts, steps, frac, end=t_to)
                m["reacquire_s"] = [_r(x, 3) for _, x, _ in rq]
                done = [x for _, x, _ in rq if x is not None]
                cens = [seg for _, x, seg in rq if x is None]
                worst = max(done + cens) if (done or cens) else None
                m["reacquire_rtts"] = _r(worst / rtt_s, 1) if worst is not None else None
                m["reacquire_censored"] = len(cens)

    # Bottleneck: utilisation (from the first tested data connection on,
    # like goodput), drops, queue.
    firsts = [s["first"] for f, s in zip(flows, fs) if f["tested"] and s["first"] is not None]
    u_from = max(t_from, min(firsts)) if firsts else t_from
    m["util"] = _r(bm.utilization(grid, qd["bytes"], u_from, t_to, rate_pts), 4)
    dd = bm.window_delta(grid, qd["drops"], t_from, t_to)
    dp = bm.window_delta(grid, qd["packets"], t_from, t_to)
    m["drops"] = int(round(dd))
    m["drop_rate"] = _r(dd / (dd + dp), 5) if dd + dp > 0 else None
    qp = qd["qlen"][sel]
    qms = qd["backlog"][sel] * 8 / (bm.level_at(rate_pts, grid[sel]) * 1e6) * 1000
    m["q50_pkts"] = _r(bm.percentile(qp, 50), 1)
    m["q95_pkts"] = _r(bm.percentile(qp, 95), 1)
    m["qmax_pkts"] = _r(qp.max() if len(qp) else None, 0)
    m["q50_ms"] = _r(bm.percentile(qms, 50), 2)
    m["q95_ms"] = _r(bm.percentile(qms, 95), 2)
    m["buffer_pkts"] = run["bottleneck"]["buffer_pkts"]

    # Fairness among all bulk flows.
    if len(flows) >= 2:
        jt = bm.jain_by_timescale(grid, jain_series(fs),
                                  [(f["start_s"], f["stop_s"]) for f in flows],
                                  an["jain_timescales_s"], t_from, t_to)
        for ts, v in jt.items():
            m[f"jain_{ts:g}s"] = _r(v["p50"], 4)
        m["jain"] = {f"{ts:g}": v for ts, v in jt.items()}
        # the field's measures beside ours: the worst 1 s bin in the
        # window (transperf's convergence fairness: the window starts
        # after convergence), the aggregate's dips (p5 of 100 ms bins
        # against the mean avail-bw), and how fast a joining flow gets its
        # fair share (seed 002 Fig. 5's case; from its first data, within
        # a trailing mean of two of its RTTs)
        if 1 in jt:
            m["jain_worst_1s"] = _r(jt[1]["min"], 4)
        dlv = jain_series(fs)
        p5 = bm.binned_rate_percentile(grid, sum(dlv), t_from, t_to, 0.1, 5)
        m["agg_p5_mbps"] = _r(p5, 2)
        cap = bm.capacity_bytes(avail_pts, t_from, t_to) * 8 / 1e6 / (t_to - t_from) \
            if t_to > t_from else 0
        m["agg_p5_frac"] = _r(p5 / cap, 3) if p5 is not None and cap > 0 else None
        act = [(s.get("data_start", s["first"]) if s["first"] is not None
                else f["start_s"], f["stop_s"]) for f, s in zip(flows, fs)]
        jf = bm.join_fair_times(
            grid, dlv, act, avail_pts,
            max(2 * run["sample_ms"] / 1000, 2 * max(f["rtt_ms"] for f in flows) / 1000),
            t_from=t_from, t_to=t_to)
        if jf:
            worst = max(x if x is not None else w for _, x, w in jf)
            m["join_fair_s"] = _r(worst, 3)
            m["join_fair_rtts"] = _r(max((x if x is not None else w) / (flows[i]["rtt_ms"] / 1000)
                                         for i, x, w in jf), 1)
            m["join_fair_censored"] = sum(1 for _, x, _ in jf if x is None)
        if an.get("ratio"):
            i, j = an["ratio"]
            if i < len(flows) and j < len(flows):
                fi, fj = flows[i], flows[j]
                a = max(t_from, fi["start_s"], fj["start_s"])
                b = min(t_to, fi["stop_s"], fj["stop_s"])
                if b > a:
                    xi = bm.window_delta(grid, fs[i]["cum"], a, b)
                    xj = bm.window_delta(grid, fs[j]["cum"], a, b)
                    m["throughput_ratio"] = _r(xi / xj, 3) if xj > 0 else None

    # Short transfers.
    sh = load_shorts(rdir, run)
    if run["shorts"]:
        rts = np.array([x["rt"] * 1000 for x in sh if x["ok"]
                        and t_from <= x["start"] <= t_to])
        m["rt_n"] = int(len(rts))
        m["rt_fail"] = int(sum(1 for x in sh if not x["ok"]))
        m["rt_p50_ms"] = _r(bm.percentile(rts, 50), 1)
        m["rt_p95_ms"] = _r(bm.percentile(rts, 95), 1)
        m["rt_p99_ms"] = _r(bm.percentile(rts, 99), 1)
        m["rt_mean_ms"] = _r(rts.mean() if len(rts) else None, 1)
        series["rt_ms"] = rts
        m["planned_transfers"] = sum(len(s["schedule"]) for s in run["shorts"])

    # CBR streams: what they lost.
    cl = []
    for c in run["cbr"]:
        j = _read_json(os.path.join(rdir, f"cbr{c['id']}.json")) or {}
        lp = ((j.get("end") or {}).get("sum") or {}).get("lost_percent")
        cl.append(_r(lp / 100 if lp is not None else None, 4))
    if cl:
        m["cbr_loss"] = cl
    # iperf3's own totals (cross-check of the sampler's goodput).
    ig, ib = [], []
    for f in flows:
        j = _read_json(os.path.join(rdir, f"flow{f['id']}.json")) or {}
        rcv = (j.get("end") or {}).get("sum_received") or {}
        bps = rcv.get("bits_per_second")
        ig.append(_r(bps / 1e6 if bps else None, 2))
        ib.append(rcv.get("bytes"))
    m["iperf_goodput_mbps"] = ig
    m["iperf_bytes"] = ib
    m["flow_bytes"] = [int(s["cum"][-1]) for s in fs]
    m["cc_seen"] = [s["cc_seen"] for s in fs]
    m["guest_s"] = _r(float(meta["end"]) - float(meta["t0"]), 2) if meta.get("end") else None
    if run.get("cpu") and tested:
        m.update(cpu_metrics(run, rdir, grid, float(meta.get("t0", 0)),
                             sum(s["cum"] for _, s in tested)))
    return m, series


def cpu_metrics(run, rdir, grid, t0, cum):
    """Guest busy time (uptime - idle, cpu.csv) per byte the tested flows
    got acknowledged, in ns, per window of the scenario's "cpu" (its first
    settle_s left out).  cpu_ns_per_byte: over the 'off' windows of a
    bystander run (the algorithm alone), over all windows otherwise;
    bystander runs also give the 'on' value, bystander_cost = on / off and
    its spread: each 'on' window against the mean of the nearest 'off'
    windows before and after it; the same for 'loaded' windows (no
    socket): bystander_cost_nosocket."""
    import numpy as np
    rows = _read_csv(os.path.join(rdir, "cpu.csv"))
    if len(rows) < 2:
        return {"cpu_error": "no cpu.csv"}
    t = np.array([float(r["t"]) - t0 for r in rows])
    busy = np.array([float(r["uptime_s"]) - float(r["idle_s"]) for r in rows])
    cpu = run["cpu"]
    wins = []
    for a, b, state in cpu["windows"]:
        i = int(np.searchsorted(t, a + float(cpu.get("settle_s", 0))))
        j = int(np.searchsorted(t, b, side="right")) - 1
        if j <= i:
            continue
        by = float(np.interp(t[j], grid, cum) - np.interp(t[i], grid, cum))
        wins.append((state, busy[j] - busy[i], by, t[j] - t[i]))

    def per_byte(ws):
        b = sum(w[2] for w in ws)
        return sum(w[1] for w in ws) * 1e9 / b if b > 0 else None
    out = {"cpu_windows": [[w[0], _r(w[1] * 1e9 / w[2], 3) if w[2] else None,
                            _r(w[3], 2)] for w in wins]}
    off = [w for w in wins if w[0] in ("off", "all")]
    out["cpu_ns_per_byte"] = _r(per_byte(off), 3)
    out["cpu_busy_frac"] = _r(sum(w[1] for w in off) / sum(w[3] for w in off), 4) \
        if off else None
    # "on": loaded with an idle socket (bystander_cost); "loaded": no
    # socket (bystander_cost_nosocket)
    for state, suffix in (("on", ""), ("loaded", "_nosocket")):
        on = [w for w in wins if w[0] == state]
        if not on or not out["cpu_ns_per_byte"]:
            continue
        out[f"cpu_ns_per_byte_{state}"] = _r(per_byte(on), 3)
        out[f"bystander_cost{suffix}"] = _r(per_byte(on) / per_byte(off), 4)
        pairs = []
        for k, w in enumerate(wins):
            if w[0] != state or not w[2]:
                continue
            # the nearest 'off' window before and after it
            nb = [x for x in wins[k::-1] if x[0] == "off" and x[2]][:1] + \
                [x for x in wins[k:] if x[0] == "off" and x[2]][:1]
            if nb:
                pairs.append(w[1] / w[2] / (sum(x[1] / x[2] for x in nb) / len(nb)))
        if pairs:
            out[f"bystander_cost{suffix}_windows"] = [_r(x, 4) for x in pairs]
            out[f"bystander_cost{suffix}_spread"] = [_r(min(pairs), 4), _r(max(pairs), 4),
                                                     _r(float(np.std(pairs)), 4)]
    return out


def add_baseline_ratios(results, baseline):
    """<metric>_ratio_vs_<baseline> for the same variant."""
    if not baseline:
        return
    for m in results:
        base = next((x for x in results if x["cc"] == baseline
                     and x["variant"] == m["variant"]), None)
        if base is None or m is base:
            continue
        for key, name in (("goodput_mbps", "goodput"), ("q95_pkts", "q95"),
                          ("srtt_p95_ms", "srtt_p95"), ("rt_p95_ms", "rt_p95"),
                          ("util", "util"), ("cpu_ns_per_byte", "cpu"),
                          ("other_goodput_mbps", "other_goodput")):
            a, b = m.get(key), base.get(key)
            if a is not None and b:
                m[f"{name}_ratio_vs_{baseline}"] = _r(a / b, 3)


def collect(plan, per_run):
    """{"<cc>": metrics} (lists across variants when there are variants)."""
    out = {}
    if not plan["variants"]:
        for m in per_run:
            out[m["cc"]] = {k: v for k, v in m.items() if k not in ("id", "cc", "variant")}
        return out
    for cc in plan["cc"]:
        rows = [next((m for m in per_run if m["cc"] == cc and m["variant"] == v), {})
                for v in plan["variants"]]
        keys = []
        for r in rows:
            keys += [k for k in r if k not in keys and k not in ("id", "cc", "variant")]
        d = {"variants": plan["variants"]}
        for k in keys:
            d[k] = [r.get(k) for r in rows]
        out[cc] = d
    return out


# ----------------------------------------------------------------------------
# table

def table(per_run, baseline, columns=None, markdown=False):
    cols = []
    for key, head, fmt in COLUMNS:
        if "*" in key:
            if not baseline:
                continue
            key = key.replace("*", baseline)
            head = head.format(b=baseline)
        if columns and key not in columns:
            continue
        if any(m.get(key) is not None for m in per_run):
            cols.append((key, head, fmt))
    if columns:
        cols.sort(key=lambda c: columns.index(c[0]))
    rows = [["run"] + [h for _, h, _ in cols]]
    for m in per_run:
        row = [m["id"]]
        for key, _, fmt in cols:
            v = m.get(key)
            if v is None:
                row.append("-" if not m.get("error") else "err")
            else:
                try:
                    row.append(fmt.format(int(v) if "d}" in fmt else v))
                except (ValueError, TypeError):
                    row.append(str(v))
        rows.append(row)
    errs = [f"# {m['id']}: {m['error']}" for m in per_run if m.get("error")]
    if markdown:
        lines = ["| " + " | ".join(r) + " |" for r in rows]
        lines.insert(1, "|" + "|".join("---" for _ in rows[0]) + "|")
        return "\n".join(lines + errs)
    w = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.rjust(w[i]) if i else c.ljust(w[i]) for i, c in enumerate(r))
             for r in rows]
    lines.insert(1, "  ".join("-" * x for x in w))
    return "\n".join(lines + errs)


def cmd_analyze(a):
    with open(os.path.join(a.dir, "plan.json")) as f:
        plan = json.load(f)
    per_run, series = [], []
    for run in plan["runs"]:
        rdir = os.path.join(a.dir, run["dir"])
        m, s = analyze_run(plan, run, rdir)
        per_run.append(m)
        series.append((run, s))
    add_baseline_ratios(per_run, plan["baseline"])
    meta = _read_json(os.path.join(a.dir, "meta.json")) or {}
    guest = _read_json(os.path.join(a.dir, "guest.json")) or {}
    res = {"scenario": plan["scenario"], "results": collect(plan, per_run),
           "outdir": os.path.abspath(a.dir)}
    full = dict(res)
    full.update({"description": plan["description"], "baseline": plan["baseline"],
                 "variants": plan["variants"], "sets": plan["sets"], "runs": per_run,
                 "lab": {"accel": guest.get("accel", meta.get("accel")),
                         "clock": guest.get("clock", meta.get("clock")),
                         "kernel": guest.get("kernel"), "cpus": guest.get("cpus")},
                 "wall_s": meta.get("wall_s"), "host": meta})
    plots = []
    if not a.no_plots:
        from . import plot as bench_plot
        plots = bench_plot.plot_all(plan, series, per_run, a.dir)
    full["plots"] = [os.path.basename(p) for p in plots]
    with open(os.path.join(a.dir, "results.json"), "w") as f:
        json.dump(full, f, indent=1)
    cols = [c for c in a.columns.split(",") if c] if a.columns else None
    if not a.quiet:
        lab = full["lab"]
        print(f"== {plan['scenario']}: accel={lab['accel']} clock={lab['clock']}"
              f"{' wall=%.0fs' % meta['wall_s'] if meta.get('wall_s') else ''}"
              f" outdir={res['outdir']}")
        print(table(per_run, plan["baseline"], cols))
    if a.json:
        res["lab"] = full["lab"]
        res["wall_s"] = full["wall_s"]
        print(json.dumps(res, separators=(",", ":")))
    return 0 if not any(m.get("error") for m in per_run) else 1


def cmd_table(a):
    with open(os.path.join(a.dir, "results.json")) as f:
        full = json.load(f)
    cols = [c for c in a.columns.split(",") if c] if a.columns else None
    print(table(full["runs"], full["baseline"], cols, a.markdown))
    return 0


def main():
    ap = argparse.ArgumentParser(prog="python3 -m scripts.bench", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list")
    p = sub.add_parser("plan")
    p.add_argument("--scenario", required=True)
    p.add_argument("--cc", default="")
    p.add_argument("--set", action="append", default=[])
    p.add_argument("--out", required=True)
    p = sub.add_parser("plan-info")
    p.add_argument("plan")
    p.add_argument("what", choices=["runs"])
    p = sub.add_parser("shell")
    p.add_argument("plan")
    p.add_argument("index", type=int)
    p.add_argument("outdir")
    p = sub.add_parser("analyze")
    p.add_argument("dir")
    p.add_argument("--no-plots", action="store_true")
    p.add_argument("--columns", default="")
    p.add_argument("--quiet", action="store_true", help="no table")
    p.add_argument("--no-json", dest="json", action="store_false",
                   help="no JSON line at the end")
    p = sub.add_parser("table")
    p.add_argument("dir")
    p.add_argument("--columns", default="")
    p.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    try:
        return {"list": cmd_list, "plan": cmd_plan, "plan-info": cmd_plan_info,
                "shell": cmd_shell, "analyze": cmd_analyze, "table": cmd_table}[a.cmd](a)
    except bs.ScenarioError as e:
        print(f"bench: scenario error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
