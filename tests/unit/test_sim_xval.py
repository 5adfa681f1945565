#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The scale engine against the lab, quickly (issue 16, item 4): runs the
engine (the ASan+UBSan build, build/unit/sim) on the scenarios of the rows
of tests/data/xval.json marked "quick" (with the row's "engine" seed and
start jitter, if any) and checks each of their "checked"
metrics against the lab number recorded there, within its "tolerance"
(relative).  The lab numbers are copied from the lab runs each row names
(docs/results.md, "The scale engine against the lab"); the metrics that
disagree today are in each row's "known", with the reason, and are not
checked here, but every row must give one.  A few seconds of CPU.
Prints kselftest-style TAP.

  <venv python> tests/unit/test_sim_xval.py
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
from tap import Tap  # noqa: E402

T = Tap("sim-xval: ")
BIN = os.environ.get("SIM_XVAL_BIN") or os.path.join(TOP, "build", "unit", "sim")
XVAL = os.path.join(TOP, "tests", "data", "xval.json")
WORK = tempfile.mkdtemp(prefix="test_sim_xval.")

try:
    xv = json.load(open(XVAL))
except (OSError, ValueError) as e:
    T.check("tests/data/xval.json is readable", False, str(e))
    sys.exit(T.done())
tol = xv.get("tolerance")
T.check("xval.json: a tolerance in (0, 0.5]", isinstance(tol, (int, float)) and 0 < tol <= 0.5,
        f"{tol}")
rows = xv.get("rows") or []
# every row names its lab run and accounts for each lab number it holds:
# checked, or known with a reason (nothing is silently left out)
for r in rows:
    name = f"{r.get('scenario')} {r.get('variant') or ''} {r.get('cc')}".replace("  ", " ")
    if r.get("label"):
        name += f" ({r['label']})"
    known = r.get("known") or {}
    chk = set(r.get("checked") or [])
    ok = bool(r.get("lab_run")) and not set(known) & chk and \
        all(isinstance(v, str) and len(v) > 10 for v in known.values()) and \
        chk <= set(r.get("lab") or {}) and \
        (not r.get("quick") or chk | set(known) == set(r.get("lab") or {}))
    T.check(f"xval.json: {name}: a lab run named, checked and known disjoint, "
            "every known disagreement with a reason (quick rows: every lab "
            "number one or the other)", ok, json.dumps(r)[:300])

if not T.check("the ASan build of the engine exists (make unit-build)",
               os.access(BIN, os.X_OK), BIN):
    sys.exit(T.done())

# one engine run per (scenario, sets, variant) of the quick rows
groups = {}
for r in rows:
    if r.get("quick"):
        eng = r.get("engine") or {}
        key = (r["scenario"], tuple(r.get("sets") or []), int(eng.get("seed", 0)),
               float(eng.get("start_jitter_ms", 0)))
        groups.setdefault(key, []).append(r)
for (scen, sets, seed, jitter), rs in groups.items():
    out = os.path.join(WORK, f"{scen}-{len(sets)}-{seed}-{jitter:g}")
    ccs = ",".join(dict.fromkeys(r["cc"] for r in rs))
    cmd = [sys.executable, os.path.join(TOP, "sim", "sim.py"), "--bin", BIN, "--no-plots",
           "--jobs", "1", "--scenario", scen, "--cc", ccs, "--out", out]
    for s in sets:
        cmd += ["--set", s]
    if seed:
        cmd += ["--set", f"seed={seed}"]
    if jitter:
        cmd += ["--start-jitter-ms", f"{jitter:g}"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    last = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ""
    res = json.loads(last).get("results", {}) if last.startswith("{") else {}
    if not T.check(f"{' '.join((scen,) + sets)}, seed {seed or 'default'}, start jitter "
                   f"{jitter:g} ms: the engine ran ({ccs})",
                   p.returncode == 0 and res, p.stderr[-500:]):
        continue
    variants = json.load(open(os.path.join(out, "plan.json")))["variants"]
    for r in rs:
        m = res.get(r["cc"], {})
        vi = variants.index(r["variant"]) if r.get("variant") else None
        for k in r["checked"]:
            lab = r["lab"][k]
            v = m.get(k)
            if isinstance(v, list):
                v = v[vi if vi is not None else 0]
            good = v is not None and abs(v - lab) <= tol * abs(lab) if lab else \
                v is not None and abs(v) <= 0.5
            diff = f" ({(v - lab) / lab * 100:+.0f}%)" if v is not None and lab else ""
            label = f" ({r['label']})" if r.get("label") else ""
            T.check(f"{scen} {r.get('variant') or ''} {r['cc']}{label} {k}: engine {v} against "
                    f"the lab's {lab}{diff}, within {tol:.0%}".replace("  ", " "), good,
                    f"lab run: {r['lab_run']}")

sys.exit(T.done())
