#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Crafted TCP segments for the lab VM's hostile-input tests (raw sockets,
IPv4).  Two commands:

  crafted.py rx-options SRC DST DPORT [valid]
      Data segments with malformed RAPID data options (tcp_rapid_rx's
      parser, tests/vm/60-rapid-rx.sh): six malformed ones, and with
      "valid" one well-formed option for a connection that does not exist.

  crafted.py liar --iface IF --port PORT --mode MODE --secs S [--every K]
                  [--ready FILE]
      A hostile receiver for tests/vm/90-hostile-peer.sh, run in the
      receiver's namespace next to a real sink listening on PORT.  It reads
      the connection's segments on IF (AF_PACKET, both directions) and
      answers the newest of every batch of arriving data segments (with
      --every K: of every K-th) with a forged pure ACK to the sender: a true cumulative ACK of that segment (seq = the receiver's
      snd_nxt, window = the receiver's last advertised one) carrying a
      RAPID feedback option (tcp_rapid_rx's format, rapid_pathchirp.h) that
      lies as MODE says:
        high       ABest at the codec's maximum (4.4 Tbit/s) for the
                   stream the segment belongs to (its data option's id)
        low        ABest 1 byte/s for that stream
        stale      a plausible ABest (the segment's own rate guess of
                   100 Mbit/s) for a stream 1000 ids older
        malformed  options of the feedback ExID with bad lengths, a length
                   past the header, a zero length before it, random bytes
        random     8 random bytes behind the feedback ExID
      It prints one JSON line at the end: {"forged": N, "data": N}.

The rapid_opt codec here mirrors rapid_pathchirp.h (RAPID_OPT_*): kind 253,
length 8, ExID 0x5241, stream id (16 bits), then rule (2 bits), truncated
(1 bit) and a 13-bit rate code (e = code >> 8, m = code & 0xff: m B/s for
e = 0, else (256 + m) << (e - 1)).
"""
import argparse
import json
import os
import random
import select
import socket
import struct
import sys
import time

OPT_KIND = 253
OPT_EXID = 0x5241          # feedback "RA", 8 bytes
DOPT_EXID = 0x5244         # data "RD", 12 bytes
RATE_CODE_MAX = 0x1FFF
RULE_EXCURSION = 1
ETH_P_ALL = 0x0003


def ones_sum(b):
    """The 16-bit one's-complement sum of b (0xFFFF over a packet whose
    checksum is right); also used by 60-rapid-rx's pcap analyser."""
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s


def csum(b):
    """The Internet checksum of b (RFC 1071)."""
    return ~ones_sum(b) & 0xFFFF


def segment(src, dst, sport, dport, seq, ack, flags, win, opts=b"", payload=b""):
    """An IPv4 packet holding one TCP segment, checksums filled in."""
    opts += b"\1" * (-len(opts) % 4)
    doff = (20 + len(opts)) // 4
    th = struct.pack("!HHIIBBHHH", sport, dport, seq, ack, doff << 4, flags, win, 0, 0) + opts
    ph = socket.inet_aton(src) + socket.inet_aton(dst) + struct.pack("!BBH", 0, 6, len(th) + len(payload))
    c = csum(ph + th + payload)
    th = th[:16] + struct.pack("!H", c) + th[18:]
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(th) + len(payload), 0, 0x4000, 64, 6, 0,
                     socket.inet_aton(src), socket.inet_aton(dst))
    return ip + th + payload


def rate_pack(rate):
    """rapid_opt_rate_pack(): bytes/s to the 13-bit code, rounding down."""
    if rate < 256:
        return int(rate)
    b = rate.bit_length() - 1
    e = b - 8 + 1
    code = (e << 8) | ((rate >> (e - 1)) - 256)
    return min(code, RATE_CODE_MAX)


def fb_option(stream_id, rate_code, rule=RULE_EXCURSION, truncated=0):
    word = (rule << 14) | (truncated << 13) | rate_code
    return struct.pack("!BBHHH", OPT_KIND, 8, OPT_EXID, stream_id & 0xFFFF, word)


def dopt(sid, idx, n, tx, ln=12):
    return struct.pack("!BB2sHBBI", OPT_KIND, ln, b"RD", sid, idx, n, tx)[:ln]


def rx_options(args):
    src, dst, dport = args.src, args.dst, args.dport
    bad = [
        struct.pack("!BB2sHH", 253, 8, b"RD", 1, 30),                 # our ExID, len 8
        struct.pack("!BB2sHBBIB", 253, 13, b"RD", 1, 0, 30, 5, 0),     # len 13
        dopt(1, 30, 30, 5),                                           # index = N
        dopt(1, 0, 0, 5),                                             # N = 0
        b"\1\1\x08\x00" + dopt(1, 0, 30, 5),                          # length byte 0 first
        b"\1\1\1\x08\x0c" + b"\0" * 3,                                # length past the area
    ]
    s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
    for i, o in enumerate(bad):
        s.sendto(segment(src, dst, 40000 + i, dport, 1000, 0, 0x18, 512, o, b"x" * 100), (dst, 0))
    if args.valid:
        s.sendto(segment(src, dst, 40100, dport, 1000, 0, 0x18, 512, dopt(7, 0, 30, 12345), b"x" * 100),
                 (dst, 0))
    return 0


def parse_tcp(pkt):
    """(src, dst, sport, dport, seq, ack, flags, win, opts, payload_len) of
    an IPv4/TCP packet, or None."""
    if len(pkt) < 40 or pkt[0] >> 4 != 4 or pkt[9] != 6:
        return None
    ihl = (pkt[0] & 0xF) * 4
    tot = struct.unpack_from("!H", pkt, 2)[0]
    sport, dport, seq, ack, off, flags, win = struct.unpack_from("!HHIIBBH", pkt, ihl)
    doff = (off >> 4) * 4
    return (socket.inet_ntoa(pkt[12:16]), socket.inet_ntoa(pkt[16:20]), sport, dport, seq, ack,
            flags, win, pkt[ihl + 20:ihl + doff], tot - ihl - doff)


def data_stream_id(opts):
    """The stream id of a RAPID data option in a TCP options area, or None."""
    i = 0
    while i < len(opts):
        kind = opts[i]
        if kind == 0:
            break
        if kind == 1:
            i += 1
            continue
        if i + 1 >= len(opts) or opts[i + 1] < 2:
            break
        ln = opts[i + 1]
        if kind == OPT_KIND and ln == 12 and i + 6 <= len(opts) and \
                struct.unpack_from("!H", opts, i + 2)[0] == DOPT_EXID:
            return struct.unpack_from("!H", opts, i + 4)[0]
        i += ln
    return None


def lie(mode, sid, rng):
    if mode == "high":
        return fb_option(sid, RATE_CODE_MAX)
    if mode == "low":
        return fb_option(sid, 1)
    if mode == "stale":
        return fb_option(sid - 1000, rate_pack(100_000_000 // 8))
    if mode == "random":
        return struct.pack("!BBH", OPT_KIND, 8, OPT_EXID) + rng.randbytes(4)
    # malformed: cycle through broken encodings of the feedback option
    bad = [
        struct.pack("!BBHH", OPT_KIND, 6, OPT_EXID, sid),                          # too short
        struct.pack("!BBHHHB", OPT_KIND, 9, OPT_EXID, sid, RATE_CODE_MAX, 0),      # too long
        b"\1\1" + struct.pack("!BB", OPT_KIND, 0) + fb_option(sid, RATE_CODE_MAX),  # length 0 first
        struct.pack("!BBHH", OPT_KIND, 40, OPT_EXID, sid),                         # past the header
        struct.pack("!BB", OPT_KIND, 8),                                           # no room for the ExID
    ]
    return bad[rng.randrange(len(bad))]


def liar(args):
    rng = random.Random(args.seed)
    rx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    rx.bind((args.iface, 0))
    rx.setblocking(False)
    tx = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
    win = {}           # (peer addr, peer port) -> last window the receiver advertised
    forged = data = 0
    if args.ready:
        open(args.ready, "w").close()
    end = None                 # --secs from the first data segment on
    give_up = time.monotonic() + args.secs + 60
    while (end is None or time.monotonic() < end) and time.monotonic() < give_up:
        select.select([rx], [], [], 0.2)
        # Drain what is queued and answer only the newest data segment: a
        # slow (emulated) CPU then lags by one batch, never by a backlog.
        last = None
        while True:
            try:
                pkt, addr = rx.recvfrom(65535)
            except BlockingIOError:
                break
            t = parse_tcp(pkt[14:]) if addr[1] == 0x0800 else None
            if not t:
                continue
            if addr[2] == socket.PACKET_OUTGOING:
                if t[2] == args.port:               # the real receiver's ACK, window
                    win[(t[1], t[3])] = (t[5], t[7])
            elif t[3] == args.port and t[9] > 0:
                data += 1
                if end is None:
                    end = time.monotonic() + args.secs
                if data % args.every == 0:
                    last = t
        if last is None:
            continue
        src, dst, sport, dport, seq, ack, flags, _, opts, plen = last
        sid = data_stream_id(opts)
        real = win.get((src, sport))
        if sid is None or real is None:
            continue
        o = lie(args.mode, sid, rng)
        tx.sendto(segment(dst, src, dport, sport, ack, real[0], 0x10, real[1], o), (src, 0))
        forged += 1
    print(json.dumps({"forged": forged, "data": data}))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("rx-options")
    p.add_argument("src")
    p.add_argument("dst")
    p.add_argument("dport", type=int)
    p.add_argument("valid", nargs="?")
    p.set_defaults(fn=rx_options)
    p = sub.add_parser("liar")
    p.add_argument("--iface", required=True)
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--mode", choices=["high", "low", "stale", "malformed", "random"], required=True)
    p.add_argument("--secs", type=float, required=True,
                   help="lie for this long from the first data segment on")
    p.add_argument("--ready", metavar="FILE", help="created once the sockets are open")
    p.add_argument("--every", type=int, default=1, help="forge after every K-th data segment")
    p.add_argument("--seed", type=int, default=int.from_bytes(os.urandom(4), "little"))
    p.set_defaults(fn=liar)
    args = ap.parse_args()
    return args.fn(args)


if __name__ == "__main__":
    sys.exit(main())
