# SPDX-License-Identifier: GPL-2.0
"""Benchmark metrics on sampled time series (numpy).

Everything here is a pure function of arrays and the scenario's schedule,
so that tests/unit/test_bench_metrics.py can check it on synthetic samples.
Conventions: times in seconds, rates in Mbit/s, cumulative counters as
sampled (non-decreasing), `None` where a metric does not apply or was never
reached.

  rates_from_cumulative(t, cum)        per-interval rate (Mbit/s) from bytes
  trailing_mean(t, x, window)          mean of x over (t - window, t]
  time_to_fraction(t, rate, target, t_start, frac)
                                       first time rate >= frac * target
  time_to_stable(t, rate, target, t_start, t_end, frac)
                                       from when on rate stays >= frac * target
  avail_timeline(duration, rate, schedule, cbrs, payload_frac)
                                       piecewise-constant avail-bw (goodput)
  cbr_on_off(t, cum_bytes, rate_Bps)   when a CBR stream really ran, from its
                                       sender's byte counter
  detect_steps(points, min_rel)        changes of a piecewise-constant series
  reacquire_times(t, rate, points, steps, frac)
                                       per up-step: time to frac * new level
  jain(x)                              Jain's fairness index
  jain_by_timescale(t, cums, active, timescales, t_from, t_to)
                                       per timescale: p10/p50/p90 and the
                                       worst of Jain over consecutive bins
  binned_rate_percentile(t, cum, a, b, bin_s, q)
                                       q-th percentile of a counter's rate
                                       over consecutive bins (the
                                       aggregate's dips: p5 of 100 ms bins)
  join_fair_times(t, cums, active, capacity_pts, smooth_s, frac)
                                       per flow that joins running ones:
                                       time to frac of its fair share
  percentile(x, q)                     numpy percentile, None when empty
  window_delta(t, cum, a, b)           counter increase over [a, b]
  utilization(t, cum_bytes, a, b, points)  bytes / capacity over [a, b]
"""
import numpy as np


def rates_from_cumulative(t, cum):
    """Mbit/s over each sampling interval, aligned to its end (rate[0]=0)."""
    t = np.asarray(t, dtype=float)
    cum = np.asarray(cum, dtype=float)
    out = np.zeros_like(t)
    if len(t) < 2:
        return out
    dt = np.diff(t)
    db = np.diff(cum)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(dt > 0, db * 8 / dt / 1e6, 0.0)
    out[1:] = np.maximum(r, 0.0)
    return out


def trailing_mean(t, x, window):
    """Mean of x over the samples in (t_i - window, t_i], for every i."""
    t = np.asarray(t, dtype=float)
    x = np.asarray(x, dtype=float)
    if len(t) == 0:
        return x
    c = np.concatenate([[0.0], np.cumsum(x)])
    lo = np.searchsorted(t, t - window, side="right")
    hi = np.arange(1, len(t) + 1)
    n = np.maximum(hi - lo, 1)
    return (c[hi] - c[lo]) / n


def time_to_fraction(t, rate, target, t_start, frac=0.9):
    """Seconds from t_start until rate first reaches frac * target.

    target is a scalar or an array aligned with t (e.g. the avail-bw at
    each sample).  None when it is never reached."""
    t = np.asarray(t, dtype=float)
    rate = np.asarray(rate, dtype=float)
    tgt = np.broadcast_to(np.asarray(target, dtype=float), t.shape)
    ok = (t >= t_start) & (rate >= frac * tgt) & (tgt > 0)
    idx = np.flatnonzero(ok)
    if len(idx) == 0:
        return None
    return float(t[idx[0]] - t_start)


def time_to_stable(t, rate, target, t_start, t_end, frac=0.9):
    """Seconds from t_start until rate reaches frac * target and stays at
    or above it up to t_end (samples after t_end are ignored).  None when
    the last sample before t_end is still below."""
    t = np.asarray(t, dtype=float)
    rate = np.asarray(rate, dtype=float)
    tgt = np.broadcast_to(np.asarray(target, dtype=float), t.shape)
    sel = np.flatnonzero((t >= t_start) & (t <= t_end))
    if len(sel) == 0:
        return None
    below = sel[rate[sel] < frac * tgt[sel]]
    if len(below) == 0:
        return float(t[sel[0]] - t_start)
    last = below[-1]
    if last == sel[-1]:
        return None
    return float(t[last + 1] - t_start)


def avail_timeline(duration, rate_mbit, schedule=(), cbrs=(), payload_frac=1.0,
                   cbr_overhead=1.0):
    """Avail-bw change points [(t, mbit)] from t=0 to duration.

    rate_mbit: the bottleneck rate at t=0; schedule: [{"at_s", "rate_mbit"}]
    rate changes; cbrs: [{"start_s", "stop_s", "rate_mbit"}] constant-bit-rate
    cross traffic (its rate times cbr_overhead is what it takes from the
    link).  The avail-bw is (rate - cbr) * payload_frac, floored at 0."""
    times = {0.0}
    for e in schedule:
        if e.get("rate_mbit") is not None:
            times.add(float(e["at_s"]))
    for c in cbrs:
        times.add(float(c["start_s"]))
        times.add(float(c["stop_s"]))
    pts = []
    for tp in sorted(x for x in times if 0 <= x < duration):
        rate = rate_mbit
        for e in sorted(schedule, key=lambda e: float(e["at_s"])):
            if e.get("rate_mbit") is not None and float(e["at_s"]) <= tp:
                rate = float(e["rate_mbit"])
        cbr = sum(float(c["rate_mbit"]) for c in cbrs
                  if float(c["start_s"]) <= tp < float(c["stop_s"]))
        pts.append((tp, max(0.0, (rate - cbr * cbr_overhead) * payload_frac)))
    # merge equal consecutive levels
    out = []
    for tp, v in pts:
        if not out or abs(out[-1][1] - v) > 1e-9:
            out.append((tp, v))
    return out


def cbr_on_off(t, cum, rate_bps, high=0.5):
    """(t_on, t_off) of a constant-bit-rate stream from samples of its
    sender's cumulative byte counter, or None when it never ran.

    The stream ran in the intervals whose byte rate reached `high` times its
    rate (rate_bps, bytes per second as counted); the start is placed where
    the bytes of the first such interval and the one before it, sent at
    that rate, would have begun, the stop where those of the last one and
    the one after it would have ended (each within those two intervals), so
    the times are finer than the sampling and a few control-connection
    bytes do not count as the stream."""
    t = np.asarray(t, dtype=float)
    cum = np.asarray(cum, dtype=float)
    if len(t) < 2 or rate_bps <= 0:
        return None
    dt = np.diff(t)
    db = np.maximum(np.diff(cum), 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(dt > 0, db / dt, 0.0)
    on = np.flatnonzero(r >= high * rate_bps)
    if not len(on):
        return None
    k1, k2 = int(on[0]), int(on[-1])	# interval k spans (t[k], t[k+1]]
    b = db[k1] + (db[k1 - 1] if k1 > 0 else 0.0)
    lo = t[k1 - 1] if k1 > 0 else t[0]
    t_on = max(lo, t[k1 + 1] - b / rate_bps)
    b = db[k2] + (db[k2 + 1] if k2 + 1 < len(db) else 0.0)
    hi = t[k2 + 2] if k2 + 2 < len(t) else t[-1]
    t_off = min(hi, t[k2] + b / rate_bps)
    return float(t_on), float(t_off)


def level_at(points, t):
    """Value of a piecewise-constant [(t, v)] series at time(s) t."""
    ts = np.array([p[0] for p in points], dtype=float)
    vs = np.array([p[1] for p in points], dtype=float)
    idx = np.searchsorted(ts, np.asarray(t, dtype=float), side="right") - 1
    idx = np.clip(idx, 0, len(vs) - 1)
    return vs[idx]


def detect_steps(points, min_rel=0.1):
    """Steps of a piecewise-constant series: [(t, before, after)] where the
    level changes by at least min_rel of the larger of the two levels."""
    steps = []
    for (_, a), (t, b) in zip(points, points[1:]):
        big = max(abs(a), abs(b))
        if big > 0 and abs(b - a) >= min_rel * big:
            steps.append((t, a, b))
    return steps


def reacquire_times(t, rate, points, steps, frac=0.9, end=None):
    """For every upward step: seconds from the step until rate reaches
    frac * the new level, before the next change point (or end).

    Returns [(step_t, seconds or None, segment_length)]."""
    t = np.asarray(t, dtype=float)
    rate = np.asarray(rate, dtype=float)
    change_ts = sorted(p[0] for p in points)
    end = float(t[-1]) if end is None and len(t) else end
    out = []
    for st, before, after in steps:
        if after <= before:
            continue
        nxt = [c for c in change_ts if c > st + 1e-9]
        seg_end = min(nxt[0], end) if nxt else end
        sel = (t >= st) & (t <= seg_end)
        hit = np.flatnonzero(sel & (rate >= frac * after))
        secs = float(t[hit[0]] - st) if len(hit) else None
        out.append((st, secs, seg_end - st))
    return out


def jain(x):
    """Jain's fairness index (sum x)^2 / (n sum x^2); None if undefined."""
    x = np.asarray(x, dtype=float)
    if len(x) == 0:
        return None
    s2 = float(np.sum(x * x))
    if s2 <= 0:
        return None
    return float(np.sum(x) ** 2 / (len(x) * s2))


def window_delta(t, cum, a, b):
    """Increase of a sampled cumulative counter between times a and b
    (linear interpolation between samples)."""
    t = np.asarray(t, dtype=float)
    cum = np.asarray(cum, dtype=float)
    if len(t) == 0:
        return 0.0
    return float(np.interp(b, t, cum) - np.interp(a, t, cum))


def jain_by_timescale(t, cums, active, timescales, t_from, t_to):
    """Jain's index over consecutive bins of each timescale.

    cums: per flow, cumulative bytes sampled at t; active: per flow
    (start, stop): a flow counts in a bin only when it is active for the
    whole bin.  Bins with fewer than two active flows are skipped.
    Returns {timescale: {"p10", "p50", "p90", "min", "n"}} (None values
    when no bin qualifies); "min" is the worst bin, transperf's convergence
    fairness when t_from is after convergence."""
    out = {}
    for ts in timescales:
        vals = []
        a = t_from
        while a + ts <= t_to + 1e-9:
            b = a + ts
            xs = [window_delta(t, c, a, b) for c, (s, e) in zip(cums, active)
                  if s <= a + 1e-9 and e >= b - 1e-9]
            if len(xs) >= 2:
                j = jain(xs)
                if j is not None:
                    vals.append(j)
            a = b
        if vals:
            v = np.asarray(vals)
            out[ts] = {"p10": float(np.percentile(v, 10)),
                       "p50": float(np.percentile(v, 50)),
                       "p90": float(np.percentile(v, 90)),
                       "min": float(v.min()), "n": len(vals)}
        else:
            out[ts] = {"p10": None, "p50": None, "p90": None, "min": None,
                       "n": 0}
    return out


def binned_rate_percentile(t, cum, a, b, bin_s, q):
    """q-th percentile (numpy, linear) of the rate (Mbit/s) of a sampled
    cumulative byte counter over consecutive bins of bin_s from a to b
    (a partial last bin is dropped); None when no whole bin fits.  With
    the aggregate of all flows, bin_s = 0.1 and q = 5 it is the depth of
    the aggregate's dips: what a synchronised back-off costs the link."""
    if bin_s <= 0 or b - a < bin_s - 1e-9:
        return None
    edges = np.arange(a, b + 1e-9, bin_s)
    if len(edges) < 2:
        return None
    t = np.asarray(t, dtype=float)
    c = np.interp(edges, t, np.asarray(cum, dtype=float))
    return float(np.percentile(np.diff(c) * 8 / bin_s / 1e6, q))


def join_fair_times(t, cums, active, capacity_pts, smooth_s, frac=0.9,
                    t_from=None, t_to=None):
    """How fast a flow that joins running ones gets its fair share (seed
    002 Fig. 5's case): for every flow whose start finds another flow
    active, seconds from its start until its rate, averaged over the
    trailing smooth_s, first reaches frac x capacity / (flows active at
    that time), before the next flow starts or stops (None when it never
    does: censored).  cums: per flow cumulative bytes at t; active: per
    flow (start, stop); capacity_pts: [(t, Mbit/s)] the link's goodput
    capacity; only joiners starting within [t_from, t_to] count (None: no
    bound).  Returns [(flow index, seconds or None, window length)]."""
    t = np.asarray(t, dtype=float)
    events = sorted({float(x) for se in active for x in se})
    starts = np.array([se[0] for se in active], dtype=float)
    stops = np.array([se[1] for se in active], dtype=float)
    # flows active at each sample, and the fair share that leaves each
    n_act = ((starts[None, :] <= t[:, None] + 1e-9)
             & (stops[None, :] > t[:, None])).sum(axis=1)
    fair = level_at(capacity_pts, t) / np.maximum(n_act, 1)
    out = []
    for i, (s, e) in enumerate(active):
        if (t_from is not None and s < t_from) or (t_to is not None and s > t_to):
            continue
        if not any(j != i and sj <= s + 1e-9 and ej > s + 1e-9
                   for j, (sj, ej) in enumerate(active)):
            continue
        nxt = [x for x in events if x > s + 1e-9]
        end = min(nxt[0] if nxt else float(t[-1]), float(t[-1]))
        rate = trailing_mean(t, rates_from_cumulative(t, cums[i]), smooth_s)
        ok = np.flatnonzero((t >= s + smooth_s) & (t <= end)
                            & (rate >= frac * fair))
        out.append((i, float(t[ok[0]] - s) if len(ok) else None, end - s))
    return out


def percentile(x, q):
    """np.percentile (linear interpolation) or None for no samples."""
    x = np.asarray(x, dtype=float)
    x = x[np.isfinite(x)]
    if len(x) == 0:
        return None
    return float(np.percentile(x, q))


def capacity_bytes(points, a, b):
    """Integral of a piecewise-constant rate [(t, Mbit/s)] over [a, b], in bytes."""
    total = 0.0
    for i, (tp, v) in enumerate(points):
        seg_a = max(a, tp)
        seg_b = min(b, points[i + 1][0]) if i + 1 < len(points) else b
        if seg_b > seg_a:
            total += v * 1e6 / 8 * (seg_b - seg_a)
    return total


def utilization(t, cum_bytes, a, b, rate_points):
    """Bytes through the bottleneck over [a, b] / what its rate allows."""
    cap = capacity_bytes(rate_points, a, b)
    if cap <= 0:
        return None
    return window_delta(t, cum_bytes, a, b) / cap
