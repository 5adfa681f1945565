#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The scale engine's scorecard: issue 15's lab scenarios over many seeds.

  sim/card.py [--seeds 1-64] [--scenarios dynamic,manyflows,rttfair]
              [--variant NAME:k=v,k=v ...] [--jobs 2] [--bin BIN] [--json F]

Every (variant, scenario, seed) is one `sim/sim.py --scenario S --cc rapid
--start-jitter-ms 700 --set seed=K [--set k=v ...] --no-plots` run, the
way the sessions of issue 15 have compared laws since 2026-11-28
(docs/rapid-deviations.md); the card prints, per variant, the mean over
the seeds of the metrics that issue names, and the worst seed of the
ones with a bound.  A variant without settings is the build's defaults.
--bin runs another engine binary (a scratch build of a candidate law).
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIM_PY = os.path.join(TOP, "sim", "sim.py")

# scenario -> [(label, results key, how to sum the seeds up)]
METRICS = {
    "dynamic": [("reacq", "reacquire_rtts", "mean"), ("reacq_max", "reacquire_rtts", "max"),
                ("gp", "goodput_mbps", "mean"), ("q50", "q50_pkts", "mean"),
                ("q95", "q95_pkts", "mean")],
    "manyflows": [("jain1", "jain_1s", "mean"), ("jain05", "jain_0.5s", "mean"),
                  ("worst1", "jain_worst_1s", "mean"), ("util", "util", "mean"),
                  ("q95", "q95_pkts", "mean"), ("retrans", "retrans", "mean")],
    "rttfair": [("jain1", "jain_1s", "mean"), ("ratio", "throughput_ratio", "mean"),
                ("util", "util", "mean"), ("join", "join_fair_rtts", "mean"),
                ("q95", "q95_pkts", "mean")],
    "demo": [("gp", "goodput_mbps", "mean"), ("t90", "t90_rtts", "mean"),
             ("q95", "q95_pkts", "mean")],
    "vscubic": [("jain1", "jain_1s", "mean"), ("q95", "q95_pkts", "mean")],
    "slowstart": [("gp", "goodput_mbps", "mean"), ("t90", "t90_rtts", "mean")],
}


def parse_seeds(text):
    out = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return out


def parse_variant(text):
    name, _, sets = text.partition(":")
    return name, [s for s in sets.split(",") if s]


def run_one(scenario, seed, sets, binary, jitter_ms, rx_noise_us=0.0, cbr_burst=2):
    with tempfile.TemporaryDirectory(prefix="card-") as out:
        cmd = [sys.executable, SIM_PY, "--scenario", scenario, "--cc", "rapid",
               "--start-jitter-ms", str(jitter_ms), "--set", f"seed={seed}",
               "--no-plots", "--jobs", "1", "--out", out]
        if rx_noise_us:
            cmd += ["--rx-noise-us", str(rx_noise_us)]
        cmd += ["--cbr-burst", str(cbr_burst)]
        if binary:
            cmd += ["--bin", binary]
        for s in sets:
            cmd += ["--set", s]
        env = dict(os.environ, PYTHONPATH=TOP)
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
        if p.returncode:
            raise RuntimeError(f"{' '.join(cmd)}: exit {p.returncode}\n{p.stderr[-2000:]}")
        return json.loads(p.stdout.strip().splitlines()[-1])["results"]["rapid"]


def summarise(rows, metrics):
    out = {}
    for label, key, how in metrics:
        vals = np.array([r[key] for r in rows if r.get(key) is not None], dtype=float)
        if not len(vals):
            out[label] = None
        elif how == "max":
            out[label] = float(vals.max())
        else:
            out[label] = float(vals.mean())
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", default="1-16")
    ap.add_argument("--scenarios", default="dynamic,manyflows,rttfair")
    ap.add_argument("--variant", action="append", default=[],
                    help="NAME:k=v,k=v (--set values of sim.py); repeatable")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--bin", default=None, help="engine binary (default build/sim/sim)")
    ap.add_argument("--start-jitter-ms", type=int, default=700)
    ap.add_argument("--rx-noise-us", type=float, default=0.0,
                    help="sim.py --rx-noise-us: the lab's delivery timing noise")
    ap.add_argument("--cbr-burst", type=int, default=2,
                    help="sim.py --cbr-burst: CBR datagrams per burst (the lab's 2)")
    ap.add_argument("--json", default=None, help="write every run's metrics here")
    a = ap.parse_args(argv)
    seeds = parse_seeds(a.seeds)
    scenarios = a.scenarios.split(",")
    for s in scenarios:
        if s not in METRICS:
            ap.error(f"no card metrics for scenario {s!r} (have {', '.join(METRICS)})")
    variants = [parse_variant(v) for v in a.variant] or [("default", [])]
    jobs = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        for name, sets in variants:
            for sc in scenarios:
                for seed in seeds:
                    jobs[(name, sc, seed)] = ex.submit(run_one, sc, seed, sets, a.bin,
                                                       a.start_jitter_ms, a.rx_noise_us,
                                                       a.cbr_burst)
    runs = {k: f.result() for k, f in jobs.items()}
    card = {}
    for name, _ in variants:
        for sc in scenarios:
            rows = [runs[(name, sc, s)] for s in seeds]
            card.setdefault(name, {})[sc] = summarise(rows, METRICS[sc])
    print(f"# seeds {a.seeds} ({len(seeds)}), start jitter {a.start_jitter_ms} ms"
          + (f", rx noise {a.rx_noise_us} us" if a.rx_noise_us else "")
          + f", CBR bursts of {a.cbr_burst}")
    for sc in scenarios:
        labels = [m[0] for m in METRICS[sc]]
        print(f"{sc:10s} {'variant':14s} " + " ".join(f"{lb:>9s}" for lb in labels))
        for name, _ in variants:
            vals = card[name][sc]
            print(f"{'':10s} {name:14s} " + " ".join(
                f"{vals[lb]:9.3f}" if vals[lb] is not None else f"{'-':>9s}" for lb in labels))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"card": card, "runs": {"|".join(map(str, k)): v for k, v in runs.items()}},
                      f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
