#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Sample TCP senders and the bottleneck queue every few milliseconds.

One process samples every namespace of a lab topology without spawning
anything per sample: it enters each namespace once (setns), opens a netlink
socket there (a socket stays in the namespace it was created in) and then
asks, at every tick,

  - NETLINK_SOCK_DIAG (what `ss -ti` uses): tcp_info and the congestion
    control name of every TCP socket of a sender whose destination port is
    one of --ports;
  - NETLINK_ROUTE RTM_GETQDISC (what `tc -s qdisc` uses): bytes, packets,
    drops, backlog (bytes and packets) of the bottleneck's qdiscs.

Output, in --out (CSV with a header line, times in seconds of CLOCK_REALTIME,
the same clock as the driver's $EPOCHREALTIME):

  tcp.csv    t,sender,sport,dport,cookie,cc,state,ca_state,cwnd,ssthresh,
             srtt_us,rttvar_us,min_rtt_us,pacing_Bps,delivery_Bps,
             bytes_acked,bytes_sent,bytes_retrans,data_segs_out,
             total_retrans,lost,unacked,app_limited,delivered,snd_mss
             (delivered counts segments: times snd_mss, the socket's own
             MSS, it is bytes; RAPID's marked segments carry 12 bytes less)
  qdisc.csv  t,handle,kind,bytes,packets,drops,overlimits,qlen,backlog_bytes
  cbr.csv    t,cbr,bytes,packets   (with --cbr: the root qdisc of each
             constant-bit-rate sender, so the analysis knows when its
             stream really started and stopped)
  cpu.csv    t,uptime_s,idle_s   (every tick: the guest's busy time is
             uptime - idle; in the precise clock it counts executed
             instructions.  In ns from /proc/timer_list, "now at" and CPU
             0's idle_sleeptime, what /proc/uptime prints in 10 ms steps,
             which is where it falls back to; one vCPU)

Runs until SIGTERM/SIGINT (or --duration) and flushes.  Python standard
library only: it runs inside the lab guest with whatever python3 is there.

  sampler.py --out DIR --interval-ms 100 --ports 5201,5202 \
      --sender 0:lab-snd1-xxxx --sender 1:lab-snd2-yyyy \
      --router lab-rtr-zzzz --dev bn0 --cbr 0:lab-snd3-wwww:eth0
"""
import argparse
import ctypes
import os
import re
import signal
import socket
import struct
import sys
import time

CLONE_NEWNET = 0x40000000
NETLINK_ROUTE = 0
NETLINK_SOCK_DIAG = 4
NLM_F_REQUEST = 0x1
NLM_F_DUMP = 0x300
NLMSG_ERROR = 2
NLMSG_DONE = 3
SOCK_DIAG_BY_FAMILY = 20
RTM_GETQDISC = 38
RTM_NEWQDISC = 36
INET_DIAG_INFO = 2
INET_DIAG_CONG = 4
TCA_KIND = 1
TCA_STATS = 3

# TCP states worth sampling: ESTABLISHED, FIN_WAIT1, FIN_WAIT2, CLOSE_WAIT,
# LAST_ACK, CLOSING (not LISTEN, not TIME_WAIT: they carry no tcp_info).
TCP_STATES = (1 << 1) | (1 << 4) | (1 << 5) | (1 << 8) | (1 << 9) | (1 << 11)

# struct tcp_info (include/uapi/linux/tcp.h), byte offsets on x86_64.
TI = {
    "ca_state": (1, "B"), "rtt": (68, "I"), "rttvar": (72, "I"),
    "ssthresh": (76, "I"), "cwnd": (80, "I"), "total_retrans": (100, "I"),
    "pacing_rate": (104, "Q"), "bytes_acked": (120, "Q"),
    "min_rtt": (148, "I"), "data_segs_out": (156, "I"),
    "delivery_rate": (160, "Q"), "bytes_sent": (200, "Q"),
    "bytes_retrans": (208, "Q"), "lost": (32, "I"), "unacked": (24, "I"),
    "delivered": (192, "I"), "snd_mss": (16, "I"),
}

TCP_HEADER = ("t,sender,sport,dport,cookie,cc,state,ca_state,cwnd,ssthresh,"
              "srtt_us,rttvar_us,min_rtt_us,pacing_Bps,delivery_Bps,"
              "bytes_acked,bytes_sent,bytes_retrans,data_segs_out,"
              "total_retrans,lost,unacked,app_limited,delivered,snd_mss")
QDISC_HEADER = "t,handle,kind,bytes,packets,drops,overlimits,qlen,backlog_bytes"

_libc = ctypes.CDLL(None, use_errno=True)


def enter_netns(name):
    """Move this thread into the named network namespace (/run/netns/NAME)."""
    fd = os.open(f"/run/netns/{name}", os.O_RDONLY)
    try:
        if _libc.setns(fd, CLONE_NEWNET) != 0:
            err = ctypes.get_errno()
            raise OSError(err, f"setns({name}): {os.strerror(err)}")
    finally:
        os.close(fd)


def nl_socket(proto):
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, proto)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
    s.bind((0, 0))
    return s


def nl_dump(sock, msg_type, payload, seq):
    """Send one dump request; return the payloads of the answer's messages."""
    hdr = struct.pack("=LHHLL", 16 + len(payload), msg_type,
                      NLM_F_REQUEST | NLM_F_DUMP, seq, 0)
    sock.send(hdr + payload)
    out = []
    while True:
        data = sock.recv(1 << 20)
        off = 0
        while off + 16 <= len(data):
            ln, typ, _flags, rseq, _pid = struct.unpack_from("=LHHLL", data, off)
            if ln < 16:
                return out
            if rseq == seq:
                if typ == NLMSG_DONE:
                    return out
                if typ == NLMSG_ERROR:
                    err = struct.unpack_from("=i", data, off + 16)[0]
                    if err:
                        raise OSError(-err, os.strerror(-err))
                    return out
                out.append((typ, data[off + 16:off + ln]))
            off += (ln + 3) & ~3


def rtattrs(buf, off):
    """Yield (type, value bytes) of the netlink attributes from off on."""
    while off + 4 <= len(buf):
        ln, typ = struct.unpack_from("=HH", buf, off)
        if ln < 4:
            return
        yield typ & 0x3fff, buf[off + 4:off + ln]
        off += (ln + 3) & ~3


def diag_request():
    sockid = bytes(48)
    return struct.pack("=BBBBI", socket.AF_INET, socket.IPPROTO_TCP,
                       (1 << (INET_DIAG_INFO - 1)) | (1 << (INET_DIAG_CONG - 1)),
                       0, TCP_STATES) + sockid


def ti_get(info, name):
    off, fmt = TI[name]
    if off + struct.calcsize(fmt) > len(info):
        return 0
    return struct.unpack_from("=" + fmt, info, off)[0]


def sample_tcp(sock, seq, ports):
    """Rows (sport, dport, cookie, cc, state, fields...) of matching sockets."""
    rows = []
    for _typ, msg in nl_dump(sock, SOCK_DIAG_BY_FAMILY, diag_request(), seq):
        if len(msg) < 72:
            continue
        state = msg[1]
        sport, dport = struct.unpack_from("!HH", msg, 4)
        if ports and dport not in ports:
            continue
        c0, c1 = struct.unpack_from("=II", msg, 44)
        cookie = (c1 << 32) | c0
        info, cc = b"", ""
        for typ, val in rtattrs(msg, 72):
            if typ == INET_DIAG_INFO:
                info = val
            elif typ == INET_DIAG_CONG:
                cc = val.split(b"\0", 1)[0].decode(errors="replace")
        if not info:
            continue
        app_limited = (info[7] & 1) if len(info) > 7 else 0
        rows.append((sport, dport, cookie, cc, state,
                     ti_get(info, "ca_state"), ti_get(info, "cwnd"),
                     ti_get(info, "ssthresh"), ti_get(info, "rtt"),
                     ti_get(info, "rttvar"), ti_get(info, "min_rtt"),
                     ti_get(info, "pacing_rate"), ti_get(info, "delivery_rate"),
                     ti_get(info, "bytes_acked"), ti_get(info, "bytes_sent"),
                     ti_get(info, "bytes_retrans"), ti_get(info, "data_segs_out"),
                     ti_get(info, "total_retrans"), ti_get(info, "lost"),
                     ti_get(info, "unacked"), app_limited,
                     ti_get(info, "delivered"), ti_get(info, "snd_mss")))
    return rows


def sample_qdisc(sock, seq, ifindex):
    """Rows (handle, kind, bytes, packets, drops, overlimits, qlen, backlog)."""
    req = struct.pack("=BxxxiIII", socket.AF_UNSPEC, ifindex, 0, 0, 0)
    rows = []
    for typ, msg in nl_dump(sock, RTM_GETQDISC, req, seq):
        if typ != RTM_NEWQDISC or len(msg) < 20:
            continue
        _fam, idx, handle, _parent, _info = struct.unpack_from("=BxxxiIII", msg, 0)
        if idx != ifindex:
            continue
        kind, stats = "", None
        for atyp, val in rtattrs(msg, 20):
            if atyp == TCA_KIND:
                kind = val.split(b"\0", 1)[0].decode()
            elif atyp == TCA_STATS and len(val) >= 36:
                stats = struct.unpack_from("=QIIIIIII", val, 0)
        if stats is None:
            continue
        nbytes, pkts, drops, over, _bps, _pps, qlen, backlog = stats
        rows.append((f"{handle >> 16:x}:", kind, nbytes, pkts, drops, over,
                     qlen, backlog))
    return rows


TL_NOW = re.compile(rb"now at (\d+) nsecs")
TL_IDLE = re.compile(rb"\.idle_sleeptime\s*: (\d+) nsecs")


def read_busy():
    """'uptime_s,idle_s' for cpu.csv: ns-precise from /proc/timer_list,
    else /proc/uptime's 10 ms steps."""
    try:
        with open("/proc/timer_list", "rb") as f:
            text = f.read()
        t, i = TL_NOW.search(text), TL_IDLE.search(text)
        if t and i:
            return f"{int(t.group(1)) / 1e9:.9f},{int(i.group(1)) / 1e9:.9f}"
    except OSError:
        pass
    with open("/proc/uptime") as f:
        return ",".join(f.read().split()[:2])


def read_leaf(path, t0=0.0, handle="10:"):
    """The rows of one qdisc (the bottleneck's leaf by default) in a
    qdisc.csv this sampler wrote: (t - t0, qlen, backlog_bytes, drops)."""
    import csv
    with open(path, newline="") as f:
        return [(float(r["t"]) - t0, int(r["qlen"]), int(r["backlog_bytes"]),
                 int(r["drops"])) for r in csv.DictReader(f)
                if r["handle"] == handle]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--interval-ms", type=float, default=100)
    ap.add_argument("--ports", default="", help="destination ports to keep")
    ap.add_argument("--sender", action="append", default=[],
                    help="INDEX:NETNS of a sender namespace (repeat)")
    ap.add_argument("--router", help="netns of the bottleneck router")
    ap.add_argument("--dev", default="bn0", help="bottleneck device in --router")
    ap.add_argument("--cbr", action="append", default=[],
                    help="INDEX:NETNS:DEV of a CBR sender's egress (repeat)")
    ap.add_argument("--duration", type=float, default=0,
                    help="stop after this many seconds (0: until SIGTERM)")
    ap.add_argument("--ready", help="touch this file once sampling runs")
    a = ap.parse_args()

    ports = {int(p) for p in a.ports.split(",") if p}
    os.makedirs(a.out, exist_ok=True)
    tcp_socks = []
    for spec in a.sender:
        idx, ns = spec.split(":", 1)
        enter_netns(ns)
        tcp_socks.append((int(idx), nl_socket(NETLINK_SOCK_DIAG)))
    q_sock, ifindex = None, 0
    if a.router:
        enter_netns(a.router)
        q_sock = nl_socket(NETLINK_ROUTE)
        ifindex = socket.if_nametoindex(a.dev)

    cbr_socks = []
    for spec in a.cbr:
        idx, ns, dev = spec.split(":", 2)
        enter_netns(ns)
        cbr_socks.append((int(idx), nl_socket(NETLINK_ROUTE), socket.if_nametoindex(dev)))

    tcp_f = open(os.path.join(a.out, "tcp.csv"), "w", buffering=1 << 16)
    q_f = open(os.path.join(a.out, "qdisc.csv"), "w", buffering=1 << 16)
    tcp_f.write(TCP_HEADER + "\n")
    q_f.write(QDISC_HEADER + "\n")
    c_f = None
    if cbr_socks:
        c_f = open(os.path.join(a.out, "cbr.csv"), "w", buffering=1 << 16)
        c_f.write("t,cbr,bytes,packets\n")

    cpu_f = open(os.path.join(a.out, "cpu.csv"), "w", buffering=1 << 16)
    cpu_f.write("t,uptime_s,idle_s\n")
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    if a.ready:
        open(a.ready, "w").close()

    interval = a.interval_ms / 1000.0
    start = time.time()
    tick = 0
    seq = 1
    errors = 0
    while not stop:
        now = time.time()
        if a.duration and now - start >= a.duration:
            break
        try:
            for idx, s in tcp_socks:
                seq += 1
                for r in sample_tcp(s, seq, ports):
                    tcp_f.write(f"{now:.6f},{idx}," + ",".join(map(str, r)) + "\n")
            if q_sock is not None:
                seq += 1
                for r in sample_qdisc(q_sock, seq, ifindex):
                    q_f.write(f"{now:.6f}," + ",".join(map(str, r)) + "\n")
            for idx, s, ifi in cbr_socks:
                seq += 1
                rows = sample_qdisc(s, seq, ifi)
                if rows:	# the root counts everything the device sent
                    top = max(rows, key=lambda r: r[2])
                    c_f.write(f"{now:.6f},{idx},{top[2]},{top[3]}\n")
            cpu_f.write(f"{now:.6f},{read_busy()}\n")
        except OSError as e:
            errors += 1
            if errors <= 5:
                print(f"bench_sampler: {e}", file=sys.stderr)
        tick += 1
        nxt = start + tick * interval
        now = time.time()
        if nxt < now:	# fell behind: skip the missed ticks
            tick = int((now - start) / interval) + 1
            nxt = start + tick * interval
        if not stop:
            time.sleep(max(0.0, nxt - now))
    tcp_f.close()
    q_f.close()
    cpu_f.close()
    if c_f:
        c_f.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
