#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""scripts/obs/tcp_probe.py's window decreases on synthetic tcp:tcp_probe
traces, written the way the kernel fills the event: its ssthresh is
tcp_current_ssthresh(), the real one during a reduction (Recovery, CWR)
and max(ssthresh, 3/4 cwnd) outside it.  Cases: Reno's halvings with the
window grown past 4/3 ssthresh in between (the event's ssthresh rising
with it: 3702753 counted those rises, Reno's median read 0.755), ICC's
0.875 at growing windows (each loss raises the event's ssthresh: the rule
before 3702753 missed them), at the same window (it stays put), in a
cascade and in slow start's overshoot, cwnd validation and its raises
alone, an RTO, an undone recovery.  TAP and "N
passed, N failed"; exit 0 when all pass."""
import json
import os
import subprocess
import sys
import tempfile

from tap import Tap

HERE = os.path.dirname(os.path.abspath(__file__))
PROBE = os.path.join(HERE, "..", "..", "scripts", "obs", "tcp_probe.py")
T = Tap("tcp_probe: ")
LINE = ("iperf3-1234 [000] ..s1. {ts:.6f}: tcp_probe: family=AF_INET "
        "src=198.51.100.2:40000 dest=203.0.113.6:5301 mark=0x0 data_len=0 "
        "snd_nxt={nxt:#x} snd_una={una:#x} snd_cwnd={cwnd} ssthresh={ssth} "
        "snd_wnd=3000000 srtt=20000 rcv_wnd=65535 sock_cookie=1")
MSS = 1448
INF = 2147483647


class Sender:
    """A sender's state as tcp_probe samples it, one ACK at a time."""

    def __init__(self):
        self.ts, self.una, self.cwnd, self.ssth = 1.0, 1000, 10, INF
        self.lines = []

    def sample(self, reduction=False, dt=0.0005):
        c = self.cwnd
        shown = self.ssth if reduction else max(self.ssth, (c >> 1) + (c >> 2))
        self.lines.append(LINE.format(ts=self.ts, nxt=self.una + c * MSS, una=self.una,
                                      cwnd=c, ssth=shown))
        self.ts += dt

    def grow(self, to, acks_per_step=1):
        """Open state: every ACK advances snd_una; cwnd +1 per step."""
        while self.cwnd < to:
            for _ in range(acks_per_step):
                self.una += 2 * MSS
                self.sample()
            self.cwnd += 1

    def loss(self, factor, dupacks=30, undo_after=None):
        """Fast recovery: a few duplicate ACKs (snd_una put), ssthresh =
        factor * cwnd, PRR takes cwnd down to it over the rest of them,
        then the retransmission's ACK ends it at cwnd = ssthresh; or,
        found spurious after undo_after of them, it is undone: cwnd and
        ssthresh as before."""
        w, old = self.cwnd, self.ssth
        for _ in range(3):
            self.sample()
        self.ssth = int(w * factor)
        for i in range(dupacks if undo_after is None else undo_after):
            self.cwnd = w - 2 - (w - 2 - self.ssth) * i // dupacks
            self.sample(reduction=True)
        undo = undo_after is not None
        self.una += w * MSS
        if undo:
            self.cwnd, self.ssth = w, old
        else:
            self.cwnd = self.ssth
        self.sample()

    def overshoot(self, factor, depth):
        """Slow start's overshoot: many losses, PRR takes cwnd down to
        depth; the ACK that ends the recovery sets cwnd to ssthresh and,
        SACKing more losses, begins the next from it (ssthresh = factor *
        the old one), PRR's cwnd shown below both; it climbs to it."""
        w = self.cwnd
        for _ in range(3):
            self.sample()
        self.ssth = int(w * factor)
        for i in range(30):
            self.cwnd = w - 2 - (w - 2 - depth) * i // 29
            self.sample(reduction=True)
        self.una += depth * MSS
        self.ssth = int(self.ssth * factor)
        while self.cwnd < self.ssth:
            self.cwnd += 1
            self.sample(reduction=True)
            self.una += MSS
        self.sample()

    def validate(self, used, window_update=False):
        """tcp_cwnd_application_limited: ssthresh = tcp_current_ssthresh(),
        cwnd halfway down to what was used; snd_una moves on as ever, but
        for a window update first if asked (an ACK that acks nothing)."""
        c = self.cwnd
        self.ssth = max(self.ssth, (c >> 1) + (c >> 2))
        self.cwnd = (c + used) // 2
        for i in range(20):
            if i or not window_update:
                self.una += MSS
            self.sample()

    def rto(self, factor):
        """No ACK for an RTO, then cwnd 1 and ssthresh = factor * cwnd."""
        self.ssth = int(self.cwnd * factor)
        self.ts += 0.3
        self.cwnd = 1
        for _ in range(3):
            self.sample()
        self.una += MSS
        self.grow(self.ssth)


def decreases(snd, min_cwnd=20):
    with tempfile.NamedTemporaryFile("w", suffix=".trace", delete=False) as f:
        f.write("\n".join(snd.lines) + "\n")
    p = subprocess.run([sys.executable, PROBE, "decreases", f.name, "--dport", "5301",
                        "--min-cwnd", str(min_cwnd)], capture_output=True, text=True)
    os.unlink(f.name)
    return json.loads(p.stdout) if p.returncode == 0 else {"error": p.stderr}


def near(x, want):
    return x is not None and abs(x - want) < 0.02


def check_count(what, snd, n):
    """tcp_probe.py's decreases of snd's trace; check that n were counted."""
    r = decreases(snd)
    T.check("%s (%s)" % (what, r.get("decreases")), r.get("decreases") == n, str(r))
    return r


def check_median(what, r, want):
    T.check("%s (%s)" % (what, r.get("median_ratio")), near(r.get("median_ratio"), want), str(r))


# Reno: slow start to 80, halvings at 80, 100 (grown past 4/3 ssthresh:
# the event's ssthresh rose on each increment from 54 on) and 70.
s = Sender()
s.grow(80)
s.loss(0.5)
s.grow(100, acks_per_step=3)
s.loss(0.5)
s.grow(70, acks_per_step=3)
s.loss(0.5)
s.grow(60, acks_per_step=3)
r = check_count("reno: three halvings counted", s, 3)
T.check("reno: median ratio 0.5, not the 3/4 cwnd of the raises (%s)" % r.get("median_ratio"),
        near(r.get("median_ratio"), 0.5) and near(r.get("max_ratio"), 0.5), str(r))

# ICC: 0.875 at windows 80, 96, 112: each loss raises the event's ssthresh
# (70 -> 72 -> 84 -> 84 -> 98).
s = Sender()
s.grow(80)
s.loss(0.875)
s.grow(96, acks_per_step=3)
s.loss(0.875)
s.grow(112, acks_per_step=3)
s.loss(0.875)
s.grow(110)
r = check_count("icc: three decreases at growing windows counted", s, 3)
check_median("icc: median ratio 0.875", r, 0.875)

# ICC at the same window (Wmax reached, random losses): 135 -> 118 three
# times, the event's ssthresh 118 throughout.
s = Sender()
s.grow(135)
for _ in range(3):
    s.loss(0.875)
    s.grow(135, acks_per_step=5)
r = check_count("icc: three decreases at the same window counted", s, 3)
check_median("icc: at the same window, ratio 0.875", r, 0.875)

# ICC's cascade: losses before the window regrew to its target.
s = Sender()
s.grow(200)
for _ in range(4):
    s.loss(0.875)
s.grow(160)
check_count("icc: a cascade of four decreases counted", s, 4)

# ICC's slow start overshoot: the second decrease begins on the ACK that
# ends the first, from the window that end set (175), not the one shown.
s = Sender()
s.grow(200)
s.overshoot(0.875, depth=100)
s.grow(170)
r = check_count("icc: two decreases in the overshoot counted", s, 2)
T.check("icc: the second from the window the first ended at (ratios %s..%s)" %
        (r.get("min_ratio"), r.get("max_ratio")),
        near(r.get("min_ratio"), 0.875) and near(r.get("max_ratio"), 0.875), str(r))

# Reno without a loss: the window grows past 4/3 ssthresh (the event's
# ssthresh rises with it) and cwnd validation lowers it twice, once on an
# ACK that did not move snd_una.
s = Sender()
s.ssth = 30
s.grow(90, acks_per_step=2)
s.validate(used=30)
s.grow(90, acks_per_step=2)
s.validate(used=50, window_update=True)
s.grow(80)
r = decreases(s)
T.check("reno: cwnd validation and the 3/4 cwnd raises are no decrease (%s)"
        % r.get("decreases"), r.get("decreases") == 0 and r.get("rto_decreases") == 0, str(r))

# An RTO: reported apart.
s = Sender()
s.grow(60)
s.rto(0.5)
s.grow(40)
r = decreases(s)
T.check("rto: not a fast decrease (%s), counted as rto (%s)" %
        (r.get("decreases"), r.get("rto_decreases")),
        r.get("decreases") == 0 and r.get("rto_decreases") == 1, str(r))

# A spurious recovery undone (DSACK, timestamps) before the window came
# down to its target.
s = Sender()
s.grow(100)
s.loss(0.5, undo_after=8)
s.grow(110)
r = decreases(s)
T.check("undone recovery: no decrease (%s)" % r.get("decreases"),
        r.get("decreases") == 0, str(r))

# --min-cwnd: decreases from smaller windows are left out.
s = Sender()
s.grow(16)
s.loss(0.5)
s.grow(60)
s.loss(0.5)
s.grow(40)
r = decreases(s)
T.check("min-cwnd 20: the decrease from 16 left out (%s)" % r.get("decreases"),
        r.get("decreases") == 1, str(r))
sys.exit(T.done())
