#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What rapid, pert, icc and sabul report for each socket (cc_info.h).

`ss -ti` prints their struct tcp_bbr_info as
bbr:(bw:..,mrtt:..[,cwnd_gain:..]) with what ss labels each field: bw the
sending rate (rapid: r_avg; pert, icc: cwnd * mss / srtt), mrtt the
minimum RTT, cwnd_gain cwnd over bw x min_rtt; no pacing_gain.  Each
module's own state (rapid: ABest, phase, N, m, flags; pert: early
responses, queueing delay, probability, alpha, beta, region; icc: Wmax,
increment, decrease) is a record of its own that getsockopt(TCP_CC_INFO)
returns on the socket.  This tool prints both:

  cc_info.py                  every socket of ours here: `ss -tinpH`, and
                              each one's TCP_CC_INFO record, read from its
                              process through pidfd_getfd() (root, or
                              ptrace rights over the process; Linux 5.6)
  cc_info.py --filter 'dport = :5201'   only the sockets ss's filter selects
  cc_info.py FILE|-           saved `ss -tin[p]` output: the ss fields only
  cc_info.py --json ...       one JSON object per socket

Sockets of other algorithms are skipped.  In Python, record(cc, raw)
decodes the bytes of getsockopt(IPPROTO_TCP, TCP_CC_INFO, 64) on one's own
socket.
"""
import argparse
import ctypes
import json
import os
import re
import shlex
import socket
import struct
import subprocess
import sys

ADDR = re.compile(r"^\s*(?:\S+\s+)?\d+\s+\d+\s+(\S+)\s+(\S+)")
BBR = re.compile(r"bbr:\(bw:([0-9.e+]+[kMGT]?)bps,mrtt:([0-9.e+]+)((?:,[a-z_]+:[0-9.e+]+)*)\)")
CC = re.compile(r"(?:^|\s)(rapid|pert|icc|sabul)(?:\s|$)")
USER = re.compile(r'\("[^"]*",pid=(\d+),fd=(\d+)\)')

TCP_CC_INFO = 26
SYS_PIDFD_OPEN = 434
SYS_PIDFD_GETFD = 438

RAPID_PHASES = {0: "slow-start", 1: "steady", 2: "fixed"}
RAPID_FLAGS = [(1, "fq"), (2, "internal-pacing"), (4, "no-records"), (8, "injected"),
               (16, "loss"), (32, "ring-full"), (64, "receiver-feedback"),
               (128, "sender-estimate"), (256, "competing"), (512, "keep"),
               (1024, "reordering")]
PERT_REGIONS = {0: "no-sample", 1: "high-speed", 2: "safe", 3: "compete"}

# the TCP_CC_INFO records of cc_info.h (native byte order, no padding)
RECORDS = {"rapid": struct.Struct("=IIIHBBI"), "pert": struct.Struct("=IIIHHBBBB"),
           "icc": struct.Struct("=III"), "sabul": struct.Struct("=IIIB3x")}


UNITS = {"k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}


def ss_fields(bw, mrtt_ms, extra):
    """The tcp_bbr_info fields as ss printed them (bw with or without -n's
    exact digits: 47720000 or 47.7M)."""
    bw_bps = float(bw[:-1]) * UNITS[bw[-1]] if bw[-1] in UNITS else float(bw)
    d = {"bw_mbps": round(bw_bps / 1e6, 3), "min_rtt_ms": mrtt_ms}
    for kv in extra.strip(",").split(","):
        if kv:
            k, v = kv.split(":")
            d[k] = float(v)
    return d


def record(cc, raw):
    """Decode a TCP_CC_INFO record of CC (bytes); {} if it does not fit."""
    st = RECORDS.get(cc)
    if st is None or len(raw) < st.size:
        return {}
    v = st.unpack_from(raw)
    if cc == "rapid":
        lo, hi, abest, m, phase, n, flags = v
        return {"r_avg_bps": ((hi << 32) | lo) * 8, "abest_kbps": abest,
                "phase": RAPID_PHASES.get(phase, phase), "n": n, "m": m / 1000,
                "flags": [name for bit, name in RAPID_FLAGS if flags & bit]}
    if cc == "pert":
        resp, curq, prob, alpha, beta, region, compete, degraded, _ = v
        return {"early_responses": resp, "curq_ms": curq / 1000, "prob": prob / 1e6,
                "alpha": alpha / 1000, "beta": beta / 1000,
                "region": PERT_REGIONS.get(region, region),
                "compete_phase": bool(compete), "degraded": bool(degraded)}
    if cc == "sabul":
        period, p, syn, phase = v
        return {"period_us": period / 1000, "loss_rate": p / 1e6, "syn_ms": syn / 1000,
                "phase": "start" if phase == 0 else "rate-control"}
    wmax, inc, dec = v
    return {"wmax_pkts": wmax / 1000, "inc_pkts_per_rtt": round(inc / 256, 6),
            "decrease_factor": round(dec / 256, 6)}


def sockopt(sock, cc=None):
    """The TCP_CC_INFO record of one's own socket, decoded."""
    if cc is None:
        cc = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, 16)
        cc = cc.split(b"\0")[0].decode()
    return record(cc, sock.getsockopt(socket.IPPROTO_TCP, TCP_CC_INFO, 64))


def remote(pid, fd, cc):
    """The TCP_CC_INFO record of fd FD of process PID (pidfd_getfd)."""
    libc = ctypes.CDLL(None, use_errno=True)
    pfd = libc.syscall(SYS_PIDFD_OPEN, pid, 0)
    if pfd < 0:
        raise OSError(ctypes.get_errno(), f"pidfd_open({pid}): {os.strerror(ctypes.get_errno())}")
    try:
        sfd = libc.syscall(SYS_PIDFD_GETFD, pfd, fd, 0)
        if sfd < 0:
            raise OSError(ctypes.get_errno(),
                          f"pidfd_getfd({pid}, {fd}): {os.strerror(ctypes.get_errno())}")
        s = socket.socket(fileno=sfd)
        try:
            return sockopt(s, cc)
        finally:
            s.detach()
            os.close(sfd)
    finally:
        os.close(pfd)


def parse(lines):
    """Yield (local, peer, cc, ss fields, [(pid, fd), ...]) for each socket
    of ours in ss -ti[p] output (a socket line followed by its info line)."""
    local = peer = None
    users = []
    for line in lines:
        m = ADDR.match(line)
        if m and not line.startswith("\t") and "bbr:" not in line:
            local, peer = m.group(1), m.group(2)
            users = [(int(p), int(f)) for p, f in USER.findall(line)]
        c = CC.search(line)
        b = BBR.search(line)
        if c and b:
            yield local, peer, c.group(1), ss_fields(b.group(1), float(b.group(2)),
                                                     b.group(3)), users


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", nargs="?", help="saved ss -tin output, - for stdin")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--filter", default="", help="an ss filter expression")
    a = ap.parse_args()
    live = not a.file
    if a.file == "-":
        lines = sys.stdin.read().splitlines()
    elif a.file:
        with open(a.file) as f:
            lines = f.read().splitlines()
    else:
        lines = subprocess.run(["ss", "-tinpH"] + shlex.split(a.filter), capture_output=True,
                               text=True, check=False).stdout.splitlines()
    n = 0
    for local, peer, cc, d, users in parse(lines):
        n += 1
        rec, err = {}, None
        if live:
            for pid, fd in users:
                try:
                    rec = remote(pid, fd, cc)
                    break
                except OSError as e:
                    err = str(e)
            if not users:
                err = "no process holds it (ss -p)"
        out = {"local": local, "peer": peer, "cc": cc, **d, **rec}
        if err and not rec:
            out["record_error"] = err
        if a.json:
            print(json.dumps(out))
        else:
            print(f"{local} -> {peer} {cc}: " +
                  " ".join(f"{k}={v}" for k, v in out.items() if k not in ("local", "peer", "cc")))
    return 0 if n else 1


if __name__ == "__main__":
    sys.exit(main())
