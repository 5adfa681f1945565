#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/cc_info.py on ss -tin lines of the kind the VM
suites printed; the expected values are worked out by hand from the
get_info tables of docs/rapid.md, docs/pert.md and docs/icc.md.  TAP and
"N passed, N failed"; exit 0 when all pass."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import cc_info  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tap import Tap  # noqa: E402

T = Tap("cc_info: ")



SS = """ESTAB 0      0           198.51.100.2:59644     203.0.113.6:5999
\t rapid wscale:7,7 rto:212 rtt:11.384/5.692 mss:1436 cwnd:400 bbr:(bw:47720000bps,mrtt:47.72,pacing_gain:1030,cwnd_gain:1.29107e+06) send 2035137bps
ESTAB 0      0           198.51.100.2:59630     203.0.113.6:5999
\t pert wscale:7,7 rto:212 cwnd:47 bbr:(bw:4230731012000bps,mrtt:32.4,pacing_gain:1.5,cwnd_gain:0.332031) send 10467155bps
ESTAB 0      0           198.51.100.2:59620     203.0.113.6:5999
\t icc wscale:7,7 rto:236 cwnd:93 bbr:(bw:37500000bps,mrtt:93.75,pacing_gain:0.0117188,cwnd_gain:0.875)
ESTAB 0      0           198.51.100.2:59610     203.0.113.6:5999
\t cubic wscale:7,7 rto:236 cwnd:10
ESTAB 0      0           198.51.100.2:59600     203.0.113.6:5999
\t rapid wscale:7,7 cwnd:2 bbr:(bw:100000bps,mrtt:0,pacing_gain:2,cwnd_gain:2000)
"""


def main():
    socks = list(cc_info.parse(SS.splitlines()))
    T.check("three of ours plus a second rapid, cubic skipped", [s[2] for s in socks] ==
          ["rapid", "pert", "icc", "rapid"], str([s[2] for s in socks]))
    loc, peer, _, r = socks[0]
    T.check("addresses of the socket line", loc == "198.51.100.2:59644" and peer == "203.0.113.6:5999",
          f"{loc} {peer}")
    T.check("rapid: r_avg 47.72 Mbit/s, ABest 47.72", r["r_avg_mbps"] == 47.72 and r["abest_mbps"] == 47.72, str(r))
    T.check("rapid: pacing_gain 1030 = steady, N 30", r["phase"] == "steady" and r["n"] == 30, str(r))
    T.check("rapid: cwnd_gain 1291070 = flags 129 (fq, sender-estimate), m 1.07",
          r["flags"] == ["fq", "sender-estimate"] and r["m"] == 1.07, str(r))
    p = socks[1][3]
    T.check("pert: 42 early responses, compete region, p 0.0731, curq 12 ms",
          p["early_responses"] == 42 and p["region"] == "compete" and not p["compete_phase"]
          and abs(p["prob"] - 0.0731) < 1e-9 and p["curq_ms"] == 12, str(p))
    T.check("pert: srtt, alpha, beta as printed", p["srtt_ms"] == 32.4 and p["alpha"] == 1.5
          and p["beta"] == 0.332031, str(p))
    i = socks[2][3]
    T.check("icc: Wmax 93.75 packets, inc 3/256 packet/RTT, decrease 0.875",
          i["wmax_pkts"] == 93.75 and i["inc_pkts_per_rtt"] == 0.0117188
          and i["decrease_factor"] == 0.875, str(i))
    s = socks[3][3]
    T.check("rapid in slow start: phase 0, N 2, m 2, no flags",
          s["phase"] == "slow-start" and s["n"] == 2 and s["m"] == 2.0 and s["flags"] == [], str(s))
    T.check("nothing of ours: no socket", list(cc_info.parse(["ESTAB 0 0 a:1 b:2", "\t cubic cwnd:10"])) == [])
    return T.done()


if __name__ == "__main__":
    sys.exit(main())
