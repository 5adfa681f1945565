#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tests/vm/lib.sh's kt_cmp: numbers compare as numbers; anything that is
not a finite decimal number (nan, inf, None, empty, a traceback) fails
instead of being compared by awk as a string.  kt_done prints the plan."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
from tap import Tap  # noqa: E402

TOP = os.path.abspath(os.path.join(HERE, "..", ".."))
T = Tap("kt_cmp: ")


def kt(body):
    script = f'LAB_TOP={TOP}\n. "$LAB_TOP/tests/vm/lib.sh"\nlab_cleanup() {{ :; }}\n{body}\nkt_done\n'
    p = subprocess.run(["bash", "-c", script], capture_output=True, text=True,
                       env=dict(os.environ, KT_SUITE="s"))
    return p.returncode, p.stdout


for v, op, lim, ok in (("nan", ">", "5", False), ("None", ">=", "45", False),
                       ("Traceback", ">", "1", False), ("", ">", "0", False),
                       ("inf", ">", "0", False), ("3", ">", "nan", False),
                       ("10", ">", "9", True), ("1e3", ">", "5", True), ("-3", "<", "0", True),
                       ("0.5", "<=", ".6", True), ("111", "==", "111", True),
                       ("2", ">", "3", False), ("1", "=~", "1", False)):
    rc, out = kt(f'kt_cmp "c" "{v}" "{op}" "{lim}"')
    T.check(f"kt_cmp '{v}' {op} '{lim}' {'passes' if ok else 'fails'}",
            (rc == 0 and out.startswith("ok 1 - s: c")) if ok else
            (rc == 1 and out.startswith("not ok 1 - s: c")), out)
rc, out = kt('kt_ok a; kt_ok b')
T.check("kt_done prints the plan 1..2 and the summary", "\n1..2\n2 passed, 0 failed" in out, out)
rc, out = kt('kt_skip a why')
T.check("a suite whose every check skipped exits 4", rc == 4 and "1..1" in out, f"rc {rc} {out}")
sys.exit(T.done())
