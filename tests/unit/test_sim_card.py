#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The scale engine's scorecard (sim/card.py): its argument parsing, its
sums over the seeds, and one small card through the engine's ASan build
(two seeds of demo, two variants), whose means must be the means of the
runs it kept and whose variants must reach the engine as module
parameters.  Prints kselftest-style TAP.

  PYTHONPATH=. <venv python> tests/unit/test_sim_card.py   (from the top)
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(TOP, "sim"))
from tap import Tap
import card

T = Tap("sim_card: ")
BIN = os.path.join(TOP, "build", "unit", "sim")

T.check("seeds: ranges and single seeds", card.parse_seeds("1-3,7,9-10") == [1, 2, 3, 7, 9, 10],
        card.parse_seeds("1-3,7,9-10"))
T.check("variant: a name without settings is the defaults", card.parse_variant("def:") == ("def", []))
T.check("variant: settings split on commas",
        card.parse_variant("v:a.b=1,c=2") == ("v", ["a.b=1", "c=2"]))
rows = [{"reacquire_rtts": 4.0, "goodput_mbps": 10.0}, {"reacquire_rtts": 8.0, "goodput_mbps": None}]
s = card.summarise(rows, [("r", "reacquire_rtts", "mean"), ("rmax", "reacquire_rtts", "max"),
                          ("gp", "goodput_mbps", "mean"), ("x", "nokey", "mean")])
T.check("summarise: mean and max over the seeds", s["r"] == 6.0 and s["rmax"] == 8.0, s)
T.check("summarise: a seed without the metric is left out, none at all is None",
        s["gp"] == 10.0 and s["x"] is None, s)
p = subprocess.run([sys.executable, os.path.join(TOP, "sim", "card.py"), "--scenarios", "nosuch"],
                   capture_output=True, text=True)
T.check("a scenario without card metrics is refused by name",
        p.returncode == 2 and "nosuch" in p.stderr, p.stderr[-300:])

if T.check("the ASan build of the engine exists (make unit-build)", os.access(BIN, os.X_OK), BIN):
    with tempfile.TemporaryDirectory(prefix="test_sim_card.") as work:
        out = os.path.join(work, "card.json")
        p = subprocess.run([sys.executable, os.path.join(TOP, "sim", "card.py"), "--seeds", "1-2",
                            "--scenarios", "demo", "--bin", BIN, "--json", out,
                            "--variant", "def:",
                            "--variant", "slow:modparams.tcp_rapid.tau_ms=5000"],
                           capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=TOP))
        ok = T.check("a card of two seeds and two variants runs", p.returncode == 0 and
                     os.path.exists(out), (p.stderr or p.stdout)[-800:])
        if ok:
            d = json.load(open(out))
            runs = d["runs"]
            T.check("every (variant, scenario, seed) ran once", sorted(runs) == sorted(
                f"{v}|demo|{k}" for v in ("def", "slow") for k in (1, 2)), sorted(runs))
            gp = [runs[f"def|demo|{k}"]["goodput_mbps"] for k in (1, 2)]
            T.check("the card's goodput is the mean of the seeds' runs",
                    abs(d["card"]["def"]["demo"]["gp"] - sum(gp) / 2) < 1e-9, (gp, d["card"]))
            T.check("a lone flow on the demo path moves data in every run",
                    min(gp) > 10, gp)
            seen = runs["slow|demo|1"].get("modparams_seen", {}).get("tcp_rapid", {})
            T.check("a variant's settings reach the engine", seen.get("tau_ms") == "5000", seen)
            T.check("the table names both variants", " def " in p.stdout and " slow " in p.stdout,
                    p.stdout)
sys.exit(T.done())
