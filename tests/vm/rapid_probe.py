#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A bulk TCP sender that watches its own congestion control, for the VM tests.

  rapid_probe.py sink [--port P ...] [--trickle P:KBPS ...]
  rapid_probe.py send --connect HOST:PORT [--cc rapid] [--secs S]
                      [--sample-ms MS] [--out FILE.jsonl] [--recv]
                      [--at SECONDS:PATH=VALUE ...] [--switch SECONDS:CC]

sink: accepts connections (IPv4 and IPv6) on every port and discards what
they send; on a --trickle port it also sends KBPS kbit/s back on each
connection (1448-byte writes), so that the other end sends pure ACKs
between its data.  One process for many ports: in the precise clock every
process start costs virtual time (each file read over 9p idles the CPU,
and an idle CPU jumps to the next timer).

send: connects with congestion control CC, writes as fast as the socket
takes data for S seconds, and every MS milliseconds reads its own socket's
TCP_CC_INFO (struct rapid_cc_info of cc_info.h: docs/rapid.md,
"get_info") and TCP_INFO.  One JSON object per sample goes to FILE:

  {"t": seconds since connect (CLOCK_MONOTONIC),
   "bw": r_avg in bit/s, "abest_kbps": last ABest, "phase": 0/1/2, "n": N,
   "flags": RAPID_F_*, "m": m in 1/1000, "ca_state": TCP ca_state,
   "retrans": tcpi_total_retrans, "rtos": tcpi_total_rto,
   "acked": tcpi_bytes_acked, "cwnd": tcpi_snd_cwnd, "mss": tcpi_snd_mss,
   "sent": tcpi_bytes_sent, "segs": tcpi_data_segs_out}

--at T:PATH=VALUE writes VALUE into PATH (e.g. a module parameter) T seconds
after connect and logs {"t": ..., "event": "PATH=VALUE"} at the moment of the
write.  --switch T:CC selects congestion control CC on the socket
(setsockopt(TCP_CONGESTION)) T seconds after connect, logged as
{"t": ..., "event": "cc=CC"}; the samples after it carry "cc".  Sampling from inside the sending process needs no fork per sample,
so the sample times are exact in the lab's virtual clock.  --recv also reads
(and discards) what the peer sends.
"""
import argparse
import json
import os
import socket
import struct
import sys
import threading
import time

TCP_CONGESTION = getattr(socket, "TCP_CONGESTION", 13)
TCP_INFO = getattr(socket, "TCP_INFO", 11)
TCP_CC_INFO = 26
# struct rapid_cc_info (cc_info.h): r_avg lo/hi (B/s), abest_kbps, m
# (1/1000), phase, N, flags
RAPID_INFO = struct.Struct("=IIIHBBI")


def cc_info(s):
    raw = s.getsockopt(socket.IPPROTO_TCP, TCP_CC_INFO, 64)
    if len(raw) < RAPID_INFO.size:
        return {}
    lo, hi, abest, m, phase, n, flags = RAPID_INFO.unpack_from(raw)
    return {"bw": ((hi << 32) | lo) * 8, "abest_kbps": abest,
            "phase": phase, "n": n, "flags": flags, "m": m}


def tcp_info(s):
    raw = s.getsockopt(socket.IPPROTO_TCP, TCP_INFO, 256)
    d = {"ca_state": raw[1]}
    if len(raw) >= 20:
        d["mss"] = struct.unpack_from("=I", raw, 16)[0]
    if len(raw) >= 104:
        d["rtt_us"], d["rttvar_us"] = struct.unpack_from("=II", raw, 68)
        d["cwnd"] = struct.unpack_from("=I", raw, 80)[0]
        d["retrans"] = struct.unpack_from("=I", raw, 100)[0]
    if len(raw) >= 128:
        d["acked"] = struct.unpack_from("=Q", raw, 120)[0]
    if len(raw) >= 152:
        d["min_rtt_us"] = struct.unpack_from("=I", raw, 148)[0]
    if len(raw) >= 160:
        d["segs"] = struct.unpack_from("=I", raw, 156)[0]
    if len(raw) >= 208:
        d["sent"] = struct.unpack_from("=Q", raw, 200)[0]
    if len(raw) >= 242:
        d["rtos"] = struct.unpack_from("=H", raw, 240)[0]
    return d


def parse_addr(spec):
    host, port = spec.rsplit(":", 1)
    host = host.strip("[]")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return family, (host, int(port))


def drain(conn):
    try:
        while conn.recv(1 << 16):
            pass
    except OSError:
        pass


def trickle(conn, kbps):
    """Send kbps back in 1448-byte writes, evenly spaced."""
    chunk = b"\1" * 1448
    step = 1448 * 8 / (kbps * 1000.0)
    nxt = time.monotonic()
    try:
        while True:
            conn.sendall(chunk)
            nxt += step
            delay = nxt - time.monotonic()
            if delay > 0:
                time.sleep(delay)
    except OSError:
        pass


def serve(port, kbps):
    s = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
    s.bind(("::", port))
    s.listen(16)
    while True:
        conn, _ = s.accept()
        threading.Thread(target=drain, args=(conn,), daemon=True).start()
        if kbps:
            threading.Thread(target=trickle, args=(conn, kbps),
                             daemon=True).start()


def sink(a):
    ports = [(p, 0.0) for p in a.port or []]
    for spec in a.trickle or []:
        p, _, kbps = spec.partition(":")
        ports.append((int(p), float(kbps)))
    for port, kbps in ports:
        threading.Thread(target=serve, args=(port, kbps), daemon=True).start()
    threading.Event().wait()


def send(a):
    family, addr = parse_addr(a.connect)
    s = socket.socket(family, socket.SOCK_STREAM)
    if a.cc:
        s.setsockopt(socket.IPPROTO_TCP, TCP_CONGESTION, a.cc.encode())
    s.connect(addr)
    t0 = time.monotonic()
    stop = threading.Event()
    out = open(a.out, "w") if a.out else sys.stdout
    events = []
    for spec in a.at or []:
        when, _, assign = spec.partition(":")
        path, _, value = assign.partition("=")
        events.append((float(when), path, value))
    for spec in a.switch or []:
        when, _, cc = spec.partition(":")
        events.append((float(when), None, cc))
    events.sort(key=lambda e: e[0])
    cur_cc = a.cc

    def writer():
        buf = b"\0" * (1 << 20)
        try:
            while not stop.is_set():
                s.sendall(buf)
        except OSError:
            pass

    threading.Thread(target=writer, daemon=True).start()
    if a.recv:
        threading.Thread(target=drain, args=(s,), daemon=True).start()
    period = a.sample_ms / 1000.0
    nxt = t0
    end = t0 + a.secs
    while True:
        now = time.monotonic()
        while events and now - t0 >= events[0][0]:
            _, path, value = events.pop(0)
            if path is None:
                s.setsockopt(socket.IPPROTO_TCP, TCP_CONGESTION, value.encode())
                cur_cc = s.getsockopt(socket.IPPROTO_TCP, TCP_CONGESTION,
                                      16).split(b"\0", 1)[0].decode()
                desc = f"cc={cur_cc}"
            else:
                with open(path, "w") as f:
                    f.write(value)
                desc = f"{path}={value}"
            t = time.monotonic() - t0
            out.write(json.dumps({"t": round(t, 6), "event": desc}) + "\n")
        if now >= end:
            break
        rec = {"t": round(now - t0, 6), "cc": cur_cc}
        # TCP_INFO first: two getsockopt() calls are not one snapshot, and
        # an event between them (an RTO, say) must not show up in TCP_INFO's
        # counters with the congestion control state from before it
        ti = tcp_info(s)
        rec.update(cc_info(s))
        rec.update(ti)
        out.write(json.dumps(rec) + "\n")
        nxt += period
        wake = min(nxt, t0 + events[0][0]) if events else nxt
        delay = wake - time.monotonic()
        if delay > 0:
            time.sleep(delay)
    stop.set()
    out.flush()
    # Abort (RST): no unsent data drains afterwards and no socket lingers
    # holding the module.  The writer thread may still be in sendall().
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    os._exit(0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    k = sub.add_parser("sink")
    k.add_argument("--port", type=int, action="append")
    k.add_argument("--trickle", action="append", metavar="PORT:KBPS")
    c = sub.add_parser("send")
    c.add_argument("--connect", required=True)
    c.add_argument("--cc", default="rapid")
    c.add_argument("--secs", type=float, default=5)
    c.add_argument("--sample-ms", type=float, default=10)
    c.add_argument("--out")
    c.add_argument("--recv", action="store_true")
    c.add_argument("--at", action="append", metavar="SECONDS:PATH=VALUE")
    c.add_argument("--switch", action="append", metavar="SECONDS:CC")
    a = ap.parse_args()
    return sink(a) if a.cmd == "sink" else send(a)


if __name__ == "__main__":
    sys.exit(main())
