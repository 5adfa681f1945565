#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""scripts/lab/run.sh's watchdog, with a fake virtme-ng (no VM): a guest that
wrote its status and then hangs in its shutdown keeps that status; a guest
whose output stops is killed (125); a normal one passes its status on."""
import os
import subprocess
import sys
import tempfile
import time

from tap import Tap  # noqa: E402

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
KVER = [l.split("=", 1)[1].strip().strip('"') for l in
        open(os.path.join(TOP, "scripts", "lab", "kernel.env"))
        if l.startswith("LAB_KVER=")][0]

# The fake vng runs the guest script on the host, then, like a guest stuck
# in its shutdown, sleeps when FAKE_HANG is set.
FAKE_VNG = """#!/bin/bash
while [ $# -gt 0 ]; do [ "$1" = --exec ] && script=$2; shift; done
bash "$script"
[ -n "${FAKE_HANG:-}" ] && exec sleep "$FAKE_HANG"
exit 0
"""


def lab_run(cache, args, env_extra):
    env = dict(os.environ, LAB_CACHE=cache, LAB_ACCEL_FORCE="tcg",
               LAB_SHUTDOWN_GRACE="3", **env_extra)
    t0 = time.monotonic()
    p = subprocess.run([os.path.join(TOP, "scripts", "lab", "run.sh"), "--no-load",
                        "--outdir", os.path.join(cache, "out")] + args,
                       env=env, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr, time.monotonic() - t0


def main():
    t = Tap("lab_run: ")
    with tempfile.TemporaryDirectory() as cache:
        kdir = os.path.join(cache, f"kernel-{KVER}", "boot")
        os.makedirs(kdir)
        open(os.path.join(kdir, f"vmlinuz-{KVER}"), "w").close()
        os.makedirs(os.path.join(cache, "venv", "bin"))
        vng = os.path.join(cache, "venv", "bin", "vng")
        with open(vng, "w") as f:
            f.write(FAKE_VNG)
        os.chmod(vng, 0o755)

        rc, out, err, secs = lab_run(cache, ["--", "sh", "-c", "echo hi; exit 3"], {})
        t.check("a guest that shuts down: its status (3) and output pass through",
                rc == 3 and "hi" in out, f"rc {rc}, out {out!r}, err {err[-300:]!r}")

        rc, out, err, secs = lab_run(cache, ["--", "sh", "-c", "echo done; exit 0"],
                                     {"FAKE_HANG": "300"})
        t.check("a guest that wrote status 0 and hangs in its shutdown: exit 0, not 125",
                rc == 0 and "did not shut down" in err and secs < 60,
                f"rc {rc} after {secs:.0f} s, err {err[-300:]!r}")

        rc, out, err, secs = lab_run(cache, ["--timeout", "1", "--", "sh", "-c",
                                             "echo done; exit 1"], {"FAKE_HANG": "300"})
        t.check("... and its status stands when --timeout has run out meanwhile (1)",
                rc == 1 and "did not shut down" in err, f"rc {rc} after {secs:.0f} s, err {err[-300:]!r}")

        rc, out, err, secs = lab_run(cache, ["--idle-timeout", "3", "--", "sh", "-c",
                                             "echo start; sleep 300"], {})
        t.check("a guest silent for --idle-timeout is killed: 125",
                rc == 125 and "no guest output" in err and secs < 60,
                f"rc {rc} after {secs:.0f} s, err {err[-300:]!r}")

        rc, out, err, secs = lab_run(cache, ["--idle-timeout", "4", "--", "sh", "-c",
                                             "for i in 1 2 3 4 5 6 7 8; do echo $i; sleep 1; done"],
                                     {})
        t.check("a guest that keeps printing outlives --idle-timeout (8 s > 4 s)",
                rc == 0 and "8" in out, f"rc {rc} after {secs:.0f} s, err {err[-300:]!r}")
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
