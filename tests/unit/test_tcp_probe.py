#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""scripts/obs/tcp_probe.py's window decreases on synthetic tcp_probe
traces: halvings (Reno), gentle decreases at growing windows (ICC: each
new ssthresh above the last), an unchanged ssthresh, and an RTO."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
from tap import Tap  # noqa: E402

TOP = os.path.abspath(os.path.join(HERE, "..", ".."))
T = Tap("tcp_probe: ")
LINE = ("iperf3-1234 [000] ..s1. {ts:.6f}: tcp_probe: family=AF_INET "
        "src=198.51.100.2:40000 dest=203.0.113.6:5301 mark=0x0 data_len=0 "
        "snd_nxt=0x1 snd_una=0x1 snd_cwnd={cwnd} ssthresh={ssth} snd_wnd=65535 "
        "srtt=20000 rcv_wnd=65535 sock_cookie=1")


def decreases(seq):
    with tempfile.NamedTemporaryFile("w", suffix=".trace", delete=False) as f:
        for i, (cwnd, ssth) in enumerate(seq):
            f.write(LINE.format(ts=1.0 + 0.01 * i, cwnd=cwnd, ssth=ssth) + "\n")
    p = subprocess.run([sys.executable, os.path.join(TOP, "scripts", "obs", "tcp_probe.py"),
                        "decreases", f.name, "--dport", "5301", "--min-cwnd", "20"],
                       capture_output=True, text=True)
    os.unlink(f.name)
    return json.loads(p.stdout) if p.returncode == 0 else {"error": p.stderr}


INF = 2147483647
# Reno: halvings
r = decreases([(40, INF), (40, 20)] + [(c, 20) for c in range(20, 61)] + [(60, 30)] +
              [(c, 30) for c in range(30, 51)])
T.check("reno: two halvings counted (%s)" % r.get("decreases"), r.get("decreases") == 2)
T.check("reno: median ratio 0.5 (%s)" % r.get("median_ratio"),
        r.get("median_ratio") is not None and abs(r["median_ratio"] - 0.5) < 0.01)
# ICC: 0.875 at windows 80, 96, 112: each new ssthresh above the last
seq = [(80, INF), (80, 70)] + [(c, 70) for c in range(70, 97)] + [(96, 84)] + \
      [(c, 84) for c in range(84, 113)] + [(112, 98)] + [(c, 98) for c in range(98, 110)]
r = decreases(seq)
T.check("icc: three decreases at growing windows counted (%s)" % r.get("decreases"),
        r.get("decreases") == 3)
T.check("icc: median ratio 0.875 (%s)" % r.get("median_ratio"),
        r.get("median_ratio") is not None and abs(r["median_ratio"] - 0.875) < 0.01)
# growth alone, ssthresh unchanged: nothing
r = decreases([(c, 50) for c in range(20, 80)])
T.check("no loss: no decrease (%s)" % r.get("decreases"), r.get("decreases") == 0)
# an RTO: ssthresh set, cwnd 1: reported apart
r = decreases([(60, INF), (60, 30), (1, 30), (2, 30), (4, 30)])
T.check("rto: not a fast decrease (%s), counted as rto (%s)" %
        (r.get("decreases"), r.get("rto_decreases")),
        r.get("decreases") == 0 and r.get("rto_decreases") == 1)
sys.exit(T.done())
