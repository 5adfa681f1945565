#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/obs/cc_info.py on ss -tin lines of the kind the VM
suites printed; the expected values are worked out by hand from the
get_info tables of docs/rapid.md, docs/pert.md and docs/icc.md.  TAP and
"N passed, N failed"; exit 0 when all pass."""
import struct
import sys

from scripts.obs import cc_info  # PYTHONPATH: the top (tests/run.sh)
from tap import Tap

T = Tap("cc_info: ")



SS = """ESTAB 0      0           198.51.100.2:59644     203.0.113.6:5999 users:(("iperf3",pid=812,fd=5))
\t rapid wscale:7,7 rto:212 rtt:11.384/5.692 mss:1436 cwnd:400 bbr:(bw:47.72Mbps,mrtt:10.2,cwnd_gain:1.5) send 2035137bps
ESTAB 0      0           198.51.100.2:59630     203.0.113.6:5999
\t pert wscale:7,7 rto:212 cwnd:47 bbr:(bw:27222400bps,mrtt:16) send 10467155bps
ESTAB 0      0           198.51.100.2:59620     203.0.113.6:5999
\t icc wscale:7,7 rto:236 cwnd:93 bbr:(bw:37500000bps,mrtt:20.1,cwnd_gain:1.25)
ESTAB 0      0           198.51.100.2:59610     203.0.113.6:5999
\t cubic wscale:7,7 rto:236 cwnd:10
"""


def main():
    socks = list(cc_info.parse(SS.splitlines()))
    T.check("three of ours, cubic skipped", [s[2] for s in socks] == ["rapid", "pert", "icc"],
            str([s[2] for s in socks]))
    loc, peer, _, r, users = socks[0]
    T.check("addresses of the socket line", loc == "198.51.100.2:59644" and peer == "203.0.113.6:5999",
            f"{loc} {peer}")
    T.check("the process holding it (ss -p)", users == [(812, 5)], str(users))
    T.check("ss fields: bw 47.72 Mbit/s (ss's unit suffix without -n), min RTT, cwnd_gain",
            r["bw_mbps"] == 47.72 and r["min_rtt_ms"] == 10.2 and r["cwnd_gain"] == 1.5, str(r))
    p = socks[1][3]
    T.check("pert: bw 27.222 Mbit/s, min RTT 16 ms, no gains",
            p == {"bw_mbps": 27.222, "min_rtt_ms": 16.0}, str(p))
    i = socks[2][3]
    T.check("icc: cwnd_gain 1.25", i["cwnd_gain"] == 1.25 and i["bw_mbps"] == 37.5, str(i))
    r = cc_info.record("sabul", struct.pack("=IIIB3x", 231680, 23000, 10000, 1))
    T.check("sabul: record period 231.68 us, p 0.023, T 10 ms, rate control",
            r == {"period_us": 231.68, "loss_rate": 0.023, "syn_ms": 10.0, "phase": "rate-control"}, str(r))
    T.check("sabul: a record too short decodes to nothing", cc_info.record("sabul", b"\0" * 8) == {})
    T.check("nothing of ours: no socket", list(cc_info.parse(["ESTAB 0 0 a:1 b:2", "\t cubic cwnd:10"])) == [])
    # the TCP_CC_INFO records (cc_info.h)
    rr = cc_info.record("rapid", struct.pack("=IIIHBBI", 5965000, 0, 48000, 1070, 1, 30, 0x81))
    T.check("rapid record: r_avg, ABest, steady, N 30, m 1.07, flags fq + sender-estimate",
            rr == {"r_avg_bps": 47720000, "abest_kbps": 48000, "phase": "steady", "n": 30,
                   "m": 1.07, "flags": ["fq", "sender-estimate"]}, str(rr))
    rr = cc_info.record("rapid", struct.pack("=IIIHBBI", 5965000, 0, 48000, 1070, 1, 30, 0x301))
    T.check("rapid record: the law's state flags, competing (256) and keep (512)",
            rr["flags"] == ["fq", "competing", "keep"], str(rr))
    rr = cc_info.record("rapid", struct.pack("=IIIHBBI", 5965000, 0, 48000, 1070, 1, 30, 0x401))
    T.check("rapid record: the path reorders (1024)", rr["flags"] == ["fq", "reordering"], str(rr))
    pr = cc_info.record("pert", struct.pack("=IIIHHBBBB", 42, 12500, 73100, 1500, 332, 3, 1, 0, 0))
    T.check("pert record: 42 responses, curq 12.5 ms, p 0.0731, alpha 1.5, beta 0.332, compete",
            pr == {"early_responses": 42, "curq_ms": 12.5, "prob": 0.0731, "alpha": 1.5,
                   "beta": 0.332, "region": "compete", "compete_phase": True,
                   "degraded": False}, str(pr))
    ir = cc_info.record("icc", struct.pack("=III", 93750, 3, 224))
    T.check("icc record: Wmax 93.75, inc 3/256, decrease 0.875",
            ir == {"wmax_pkts": 93.75, "inc_pkts_per_rtt": 0.011719, "decrease_factor": 0.875},
            str(ir))
    T.check("a short record decodes to nothing", cc_info.record("pert", b"\0" * 12) == {})
    T.check("a bbr record for cubic's name: nothing", cc_info.record("cubic", b"\0" * 20) == {})
    return T.done()


if __name__ == "__main__":
    sys.exit(main())
