# SPDX-License-Identifier: GPL-2.0
"""Benchmark plots (matplotlib, Agg backend, PNG), one set per variant.

  timeseries[-V].png  one row per congestion control: goodput per flow
                      with the avail-bw, cwnd per flow, bottleneck queue
  jain[-V].png        Jain's index (median, p10-p90) vs timescale
  cdf[-V].png         CDFs of the bottleneck queue, the flows' srtt and,
                      with short transfers, their response times
"""
import os

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from . import metrics as bm  # noqa: E402

DPI = 80
COLORS = plt.rcParams["axes.prop_cycle"].by_key()["color"]


def _save(fig, path):
    """PNG at DPI, then palette-quantized (64 colours, a third of the size:
    the plots go into the repository's docs)."""
    fig.savefig(path, dpi=DPI)
    plt.close(fig)
    try:
        from PIL import Image
        im = Image.open(path).convert("RGB")
        im.quantize(colors=64, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)
    except (ImportError, OSError, AttributeError):
        pass


def _step_xy(points, end):
    xs, ys = [], []
    for i, (t, v) in enumerate(points):
        t1 = points[i + 1][0] if i + 1 < len(points) else end
        xs += [t, t1]
        ys += [v, v]
    return xs, ys


def _cdf(ax, x, label, color):
    x = np.sort(np.asarray(x, dtype=float)[np.isfinite(x)])
    if len(x) == 0:
        return
    ax.plot(x, np.arange(1, len(x) + 1) / len(x), label=label, color=color, lw=1.6)


def plot_timeseries(title, items, path):
    n = len(items)
    fig, axes = plt.subplots(n, 3, figsize=(15, 2.3 * n + 0.8), squeeze=False,
                             sharex=True, gridspec_kw={"width_ratios": [2.2, 1.4, 1.4]})
    # y range: the link's goodput capacity and a margin (bytes_acked jumps
    # when a loss recovery fills a hole; such spikes are clipped).
    ymax = 0
    for run, s, m in items:
        ymax = max(ymax, run["bottleneck"]["rate_kbit"] / 1000,
                   max((v for _, v in s["avail"]), default=0))
        for e in run["schedule"]:
            ymax = max(ymax, e.get("rate_kbit", 0) / 1000)
    ymax *= 1.25
    for row, (run, s, m) in enumerate(items):
        g = s["grid"]
        dur = run["duration_s"]
        w = min(1.0, max(0.2, dur / 60, 2 * run["sample_ms"] / 1000))
        ax, axc, axq = axes[row]
        nflows = len(s["flows"])
        for i, f in enumerate(s["flows"]):
            c = COLORS[i % len(COLORS)]
            lab = f"{f['label']} {f['cc']} {f['rtt_ms']}ms" if nflows <= 8 else None
            ax.plot(g, bm.trailing_mean(g, f["rate"], w), color=c, lw=1.1, label=lab)
            axc.plot(g, f["cwnd"], color=c, lw=0.9)
        if nflows > 1:
            agg = sum(f["rate"] for f in s["flows"])
            ax.plot(g, bm.trailing_mean(g, agg, w), color="k", lw=0.8, alpha=0.6, label="sum")
        xs, ys = _step_xy(s["avail"], dur)
        ax.plot(xs, ys, "k--", lw=1, label="avail-bw")
        ax.set_ylim(0, ymax if ymax else 1)
        ax.set_ylabel(f"{run['cc']}\nMbit/s")
        ax.grid(alpha=0.3)
        if row == 0 or nflows > 1:
            ax.legend(fontsize=7, loc="lower right", ncol=2)
        gp = m.get("goodput_mbps")
        ax.set_title(f"{run['cc']}: goodput ({w:g} s mean)"
                     + (f", {gp:.1f} Mbit/s" if gp is not None else ""), fontsize=9)
        axc.set_title("cwnd (packets)", fontsize=9)
        axc.set_ylim(bottom=0)
        axc.grid(alpha=0.3)
        axq.plot(g, s["queue_pkts"], color="tab:red", lw=0.9)
        buf = run["bottleneck"]["buffer_pkts"]
        axq.axhline(buf, color="k", ls=":", lw=1)
        axq.set_ylim(0, buf * 1.08)
        q95 = m.get("q95_pkts")
        axq.set_title("bottleneck queue (packets; dotted: buffer)"
                      + (f", p95 {q95:.0f}" if q95 is not None else ""), fontsize=9)
        axq.grid(alpha=0.3)
    for ax in axes[-1]:
        ax.set_xlabel("time (s)")
    fig.suptitle(title, fontsize=11)
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.3 / fig.get_figheight()))
    _save(fig, path)


def plot_jain(title, items, path):
    fig, ax = plt.subplots(figsize=(7, 4))
    any_ = False
    for i, (run, _s, m) in enumerate(items):
        j = m.get("jain") or {}
        ts = sorted(float(k) for k in j if j[k]["p50"] is not None)
        if not ts:
            continue
        any_ = True
        med = np.array([j[f"{t:g}"]["p50"] for t in ts])
        lo = np.array([j[f"{t:g}"]["p10"] for t in ts])
        hi = np.array([j[f"{t:g}"]["p90"] for t in ts])
        x = np.array(ts) * (1 + 0.03 * (i - len(items) / 2))
        ax.errorbar(x, med, yerr=[med - lo, hi - med], marker="o", capsize=3,
                    label=run["cc"], color=COLORS[i % len(COLORS)])
    if not any_:
        plt.close(fig)
        return False
    ax.set_xscale("log", base=2)
    ax.set_xlabel("timescale (s)")
    ax.set_ylabel("Jain's index (median, p10-p90)")
    ax.set_ylim(0, 1.05)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    _save(fig, path)
    return True


def plot_cdfs(title, items, path):
    has_rt = any(len(s.get("rt_ms", [])) for _, s, _ in items)
    n = 3 if has_rt else 2
    fig, axes = plt.subplots(1, n, figsize=(5 * n, 3.8))
    for i, (run, s, m) in enumerate(items):
        c = COLORS[i % len(COLORS)]
        a, b = run["analysis"].get("from_s") or 0, run["analysis"].get("to_s") or run["duration_s"]
        sel = (s["grid"] >= a) & (s["grid"] <= b)
        _cdf(axes[0], s["queue_pkts"][sel], run["cc"], c)
        srtt = [f["srtt_ms"][sel] for f in s["flows"] if f["tested"]]
        if srtt:
            _cdf(axes[1], np.concatenate(srtt), run["cc"], c)
        if has_rt:
            _cdf(axes[2], s.get("rt_ms", []), run["cc"], c)
    axes[0].set_xlabel("bottleneck queue (packets)")
    axes[1].set_xlabel("srtt of the tested flows (ms)")
    if has_rt:
        axes[2].set_xlabel("short-transfer response time (ms)")
        axes[2].set_xscale("log")
    for ax in axes:
        ax.set_ylabel("CDF")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, loc="lower right")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.3 / fig.get_figheight()))
    _save(fig, path)


def plot_all(plan, series, per_run, outdir):
    """All plots of a benchmark run; returns the paths written."""
    paths = []
    variants = plan["variants"] or [None]
    for v in variants:
        items = [(run, s, m) for (run, s), m in zip(series, per_run)
                 if run["variant"] == v and not m.get("error") and len(s["grid"])]
        if not items:
            continue
        suffix = f"-{v}" if v else ""
        r0 = items[0][0]
        b = r0["bottleneck"]
        title = (f"{plan['scenario']}{' [' + v + ']' if v else ''}: "
                 f"{b['rate_kbit'] / 1000:g} Mbit/s, buffer {b['buffer_pkts']} pkts "
                 f"({b['aqm']}), RTT {'/'.join(str(f['rtt_ms']) for f in r0['flows'][:6])} ms"
                 + (f", loss {b['loss_pct']}%" if b["loss_pct"] else ""))
        p = os.path.join(outdir, f"timeseries{suffix}.png")
        plot_timeseries(title, items, p)
        paths.append(p)
        if max(len(r["flows"]) for r, _, _ in items) >= 2:
            p = os.path.join(outdir, f"jain{suffix}.png")
            if plot_jain(title, items, p):
                paths.append(p)
        p = os.path.join(outdir, f"cdf{suffix}.png")
        plot_cdfs(title, items, p)
        paths.append(p)
    return paths
