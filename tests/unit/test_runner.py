#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tests/run.sh's relay(): which TAP lines count.  Only "ok N - name"
passes; each block must end with a matching plan "1..N"; an exit status of
4 (skip) fails unless LAB_ALLOW_SKIP=1; a non-zero status without a failed
line fails.  relay() and report() are taken out of run.sh as they are."""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
from tap import Tap  # noqa: E402

TOP = os.path.abspath(os.path.join(HERE, "..", ".."))
src = open(os.path.join(TOP, "tests", "run.sh")).read()
funcs = src[src.index("# report RESULT NAME"):src.index("# step NAME CMD")]
T = Tap("runner: ")


def relay(stream, rc, allow_skip="0"):
    """(passed, failed, skipped) after relaying STREAM with exit status RC."""
    with tempfile.NamedTemporaryFile("w", suffix=".tap", delete=False) as f:
        f.write(stream)
    script = (f"n=0 passed=0 failed=0 skipped=0 allow_skip={allow_skip}\n{funcs}\n"
              f"relay 'x: ' {rc} {f.name}\necho \"RESULT $passed $failed $skipped\"\n")
    out = subprocess.run(["bash", "-c", script], capture_output=True, text=True).stdout
    os.unlink(f.name)
    last = [l for l in out.splitlines() if l.startswith("RESULT ")][-1].split()
    return tuple(int(x) for x in last[1:]), out


GOOD = "ok 1 - a\nok 2 - b\n1..2\n2 passed, 0 failed\n"
cases = [
    ("a well-formed stream passes", GOOD, 0, "0", (2, 0, 0)),
    ("two blocks, each with its plan, pass", GOOD + "ok 1 - c\n1..1\n", 0, "0", (3, 0, 0)),
    ("'okay' is no pass (and fails)", "okay\n1..0\n", 0, "0", (0, 1, 0)),
    ("'ok - x' without a number is no pass (and fails)", "ok - x\n1..0\n", 0, "0", (0, 1, 0)),
    ("a plan that disagrees fails", "ok 1 - a\n1..2\n", 0, "0", (1, 1, 0)),
    ("no plan fails", "ok 1 - a\nok 2 - b\n", 0, "0", (2, 1, 0)),
    ("results after the last plan fail", GOOD + "ok 1 - c\n", 0, "0", (3, 1, 0)),
    ("a number out of turn fails", "ok 1 - a\nok 3 - b\n1..2\n", 0, "0", (2, 1, 0)),
    ("exit 4 (skip) fails", GOOD, 4, "0", (2, 1, 0)),
    ("exit 4 with LAB_ALLOW_SKIP=1 is a skip", GOOD, 4, "1", (2, 0, 1)),
    ("a result with the SKIP directive fails", "ok 1 - a # SKIP no dkms\n1..1\n", 0, "0", (0, 1, 0)),
    ("exit 1 without a failed line fails", GOOD, 1, "0", (2, 1, 0)),
    ("a failed line with exit 1 counts once", "not ok 1 - a\n1..1\n", 1, "0", (0, 1, 0)),
]
for name, stream, rc, allow, want in cases:
    got, out = relay(stream, rc, allow)
    T.check(f"{name} (passed, failed, skipped = {want})", got == want, f"got {got}:\n{out}")
sys.exit(T.done())
