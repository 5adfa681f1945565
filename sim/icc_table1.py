#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ICC Table 1 (seed 004) in the scale engine: the throughput ratio
(40-ms flow / other) per algorithm and RTT ratio, mean and 95% t-interval
over seeds, beside the paper's, as a markdown table and a PNG
(docs/results.md#icc-table1-engine).

Input: one directory per bottleneck rate holding seed<K>.log, the stdout
of one `sim/sim.py --scenario icc-rttfair --set seed=K ...` run (its last
line is the JSON summary sim.py prints).

  PYTHONPATH=. <venv python> sim/icc_table1.py --rate 100=DIR --rate 2500=DIR \\
      [--png docs/img/sim-icc-table1.png]
"""
import argparse
import glob
import json
import math
import os
import re
import sys

# The paper's Table 1 (seed 004): throughput ratio at RTT ratio 1 / 3 / 6.
PAPER = {
    100: {"icc": (0.98, 11.69, 26.94), "highspeed": (1.02, 8.85, 38.87),
          "scalable": (0.93, 18.95, 65.12)},
    2500: {"icc": (0.87, 11.92, 39.54), "highspeed": (1.01, 29.25, 108.2),
           "scalable": (0.99, 126.89, 389.21)},
}
RATIOS = (1, 3, 6)
VARIANT = {"ratio1": 1, "ratio3": 3, "ratio6": 6}
NAMES = {"icc": "ICC", "highspeed": "HSTCP (highspeed)", "scalable": "STCP (scalable)"}
# two-sided 95% Student t quantiles, df = n - 1
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365,
       8: 2.306, 9: 2.262, 10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160,
       14: 2.145, 15: 2.131, 19: 2.093, 24: 2.064, 29: 2.045}


def t95(df):
    return T95.get(df) or T95[max(k for k in T95 if k <= df)]


def load(d):
    """{cc: {rtt ratio: [throughput ratio per seed]}}, seeds"""
    out, seeds = {}, []
    for path in sorted(glob.glob(os.path.join(d, "seed*.log")),
                       key=lambda p: int(re.findall(r"\d+", os.path.basename(p))[0])):
        lines = [ln for ln in open(path) if ln.startswith("{")]
        if not lines:
            sys.exit(f"{path}: no JSON line (run failed or unfinished)")
        seeds.append(os.path.basename(path)[4:-4])
        for cc, m in json.loads(lines[-1])["results"].items():
            for v, x in zip(m["variants"], m["throughput_ratio"]):
                out.setdefault(cc, {}).setdefault(VARIANT[v], []).append(x)
    return out, seeds


def stats(xs):
    n = len(xs)
    mean = sum(xs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    return mean, t95(n - 1) * sd / math.sqrt(n) if n > 1 else float("nan"), min(xs), max(xs), n


def fmt(x):
    return f"{x:.2f}" if abs(x) < 10 else f"{x:.1f}" if abs(x) < 100 else f"{x:.0f}"


def table(rate, data):
    rows = [f"| {rate} Mbit/s | RTT ratio 1 | 3 | 6 | paper 1 / 3 / 6 |",
            "|---|---|---|---|---|"]
    for cc in ("icc", "highspeed", "scalable"):
        if cc not in data:
            continue
        cells = []
        for r in RATIOS:
            if r not in data[cc]:	# a run of some variants only
                cells.append("-")
                continue
            m, h, lo, hi, n = stats(data[cc][r])
            cells.append(f"{fmt(m)} ± {fmt(h)} [{fmt(lo)}-{fmt(hi)}]")
        paper = " / ".join(f"{x:g}" for x in PAPER.get(rate, {}).get(cc, ())) or "-"
        rows.append(f"| {NAMES[cc]} | " + " | ".join(cells) + f" | {paper} |")
    return "\n".join(rows)


def plot(sets, png):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker
    colors = {"icc": "C0", "highspeed": "C1", "scalable": "C2"}
    fig, axes = plt.subplots(1, len(sets), figsize=(5.2 * len(sets), 4.2),
                             squeeze=False, sharey=True)
    for ax, (rate, (data, seeds)) in zip(axes[0], sets):
        for i, cc in enumerate(("icc", "highspeed", "scalable")):
            if cc not in data:
                continue
            xs = [r * (1 + 0.04 * (i - 1)) for r in RATIOS]
            st = [stats(data[cc][r]) for r in RATIOS]
            # log axis: a lower bar past zero is drawn down to 1% of the mean
            lo = [min(s[1], 0.99 * s[0]) for s in st]
            ax.errorbar(xs, [s[0] for s in st], yerr=[lo, [s[1] for s in st]],
                        fmt="o-", color=colors[cc], capsize=4,
                        label=f"{NAMES[cc].split()[0]} engine (n={st[0][4]})")
            if cc in PAPER.get(rate, {}):
                ax.plot(RATIOS, PAPER[rate][cc], "s--", mfc="none",
                        color=colors[cc], label=f"{NAMES[cc].split()[0]} paper")
        ax.plot(RATIOS, RATIOS, ":", color="grey", label="ratio = RTT ratio")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xticks(RATIOS)
        ax.set_xticklabels([str(r) for r in RATIOS])
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.set_xlabel("RTT ratio (long / 40 ms)")
        ax.set_title(f"{rate / 1000:g} Gbit/s" if rate >= 1000 else f"{rate:g} Mbit/s")
        ax.grid(True, which="both", alpha=0.3)
    axes[0][0].set_ylabel("throughput ratio (40-ms flow / other)\nmean, 95% t-interval")
    axes[0][-1].legend(fontsize=7, loc="upper left")
    fig.suptitle("ICC Table 1 (RTT fairness, 2 flows, drop-tail 1 BDP of 40 ms, "
                 "120 s, measured 60-120 s): scale engine vs paper", fontsize=9)
    fig.tight_layout()
    fig.savefig(png, dpi=80)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rate", action="append", required=True,
                    help="MBIT=DIR: the seed<K>.log files of one bottleneck rate")
    ap.add_argument("--png", default="")
    a = ap.parse_args()
    sets = []
    for spec in a.rate:
        rate, _, d = spec.partition("=")
        data, seeds = load(d)
        sets.append((int(rate), (data, seeds)))
        print(f"{d}: seeds {','.join(seeds)}")
        print(table(int(rate), data))
        print()
    if a.png:
        plot(sets, a.png)
        print(f"wrote {a.png}")


if __name__ == "__main__":
    main()
