#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Packet capture of a RAPID flow -> trace for build/rapid-trace.

  rapid_pcap2trace.py [--port P] [--stats] CAPTURE.pcap [-o TRACE]

Reads a capture taken on the RECEIVING host (tcpdump -w, nanosecond
precision preferred: --time-stamp-precision=nano; headers are enough,
-s 128, the payload length comes from the IP header; Ethernet or Linux
cooked link type, IPv4 or IPv6) of a RAPID flow whose sender marks its data
(tcp_rapid mark_data=1, the default): every new data segment carries the
12-byte data option {stream id, index, N, departure time} (docs/rapid.md,
"The two options").  The capture's arrival stamps are the receive times,
the option's departure times the send times, so the trace holds exactly
what the receiver helper (tcp_rapid_rx) analyses, taken at the capture
point instead of at LOCAL_IN.

Output, one p-stream after another in order of first arrival:

    fb  ID  OPTION_HEX          the helper's feedback for stream ID, if the
                                capture holds an ACK that carried it (the
                                first such option; both directions must be
                                captured)
    ID  SEND_NS  RECV_NS  BYTES one line per packet index 0..N-1, in send
                                order; RECV_NS -1 for an index that never
                                arrived (SEND_NS is then the previous one's)

ID is the 16-bit stream id of the option.  SEND_NS is the 32-bit departure
stamp unwrapped within its stream (consecutive packets less than 2^31 ns
apart, as rapid_dopt_unwrap() does), RECV_NS the capture stamp in ns.  A
duplicate index (a retransmission never carries the option, so this is a
duplicated packet) keeps its first arrival.  Unmarked packets (pure ACKs,
retransmissions, other flows) are skipped.

--port P keeps the flow whose sender uses port P or sends to port P (the
default: the flow with the most marked packets).  --stats prints packet
and stream counts to stderr.  Then:

    build/rapid-trace TRACE         # ABest per stream, and the helper's

Exit status: 0, 1 on a capture without marked packets or unreadable, 2 on
bad usage.  Needs dpkt (scripts/requirements.txt, the lab venv).
"""
import argparse
import socket
import sys
from collections import Counter, OrderedDict

import dpkt

OPT_KIND = 253
EXID_DATA = 0x5244	# "RD": data option, sender -> receiver
EXID_FB = 0x5241	# "RA": feedback option, receiver -> sender
DOPT_LEN = 12
FBOPT_LEN = 8
SLL_LINKTYPE = 113
SLL2_LINKTYPE = 276
RAW_LINKTYPES = (12, 14, 101)


def frames(path):
    """(recv_ns, ip packet) of every IPv4/IPv6 frame of the capture."""
    with open(path, 'rb') as f:
        rd = dpkt.pcap.Reader(f)
        link = rd.datalink()
        for ts, buf in rd:
            # nanosecond captures give a Decimal stamp (exact), others float
            ns = int(ts * 1000000000) if not isinstance(ts, float) \
                else int(round(ts * 1e6)) * 1000
            try:
                if link == dpkt.pcap.DLT_EN10MB:
                    ip = dpkt.ethernet.Ethernet(buf).data
                elif link == SLL_LINKTYPE:
                    ip = dpkt.sll.SLL(buf).data
                elif link == SLL2_LINKTYPE:
                    ip = dpkt.sll2.SLL2(buf).data
                elif link in RAW_LINKTYPES:
                    ip = dpkt.ip.IP(buf) if buf[0] >> 4 == 4 else dpkt.ip6.IP6(buf)
                else:
                    raise SystemExit(f'{path}: link type {link} not supported')
            except (dpkt.UnpackError, IndexError):
                continue
            if isinstance(ip, (dpkt.ip.IP, dpkt.ip6.IP6)):
                yield ns, ip


def exp_option(tcp, exid, length):
    """The data bytes after the ExID of the first kind-253 option with
    that ExID and length, or None."""
    try:
        opts = dpkt.tcp.parse_opts(tcp.opts)
    except (dpkt.UnpackError, IndexError):
        return None
    for kind, data in opts:
        if kind == OPT_KIND and len(data) == length - 2 and \
                int.from_bytes(data[:2], 'big') == exid:
            return data
    return None


def payload_len(ip, tcp):
    """TCP payload bytes from the IP length fields: a capture cut at a
    snap length (tcpdump -s 96) holds only the headers."""
    if isinstance(ip, dpkt.ip.IP):
        n = ip.len - ip.hl * 4
    else:
        n = ip.plen - sum(len(bytes(h)) for h in getattr(ip, 'all_extension_headers', []))
    return max(n - tcp.off * 4, 0)


def addr(ip, src):
    a = ip.src if src else ip.dst
    return socket.inet_ntop(socket.AF_INET if len(a) == 4 else socket.AF_INET6, a)


def collect(path):
    """Marked data packets per flow, and feedback options per reverse flow."""
    data = {}	# flow -> [(recv_ns, id, idx, n, tx32, bytes)]
    fb = {}	# flow (as seen from the data sender) -> {id: hex}
    for ns, ip in frames(path):
        tcp = ip.data
        if not isinstance(tcp, dpkt.tcp.TCP):
            continue
        flow = (addr(ip, True), tcp.sport, addr(ip, False), tcp.dport)
        d = exp_option(tcp, EXID_DATA, DOPT_LEN)
        nbytes = payload_len(ip, tcp)
        if d is not None and nbytes:
            sid = int.from_bytes(d[2:4], 'big')
            data.setdefault(flow, []).append(
                (ns, sid, d[4], d[5], int.from_bytes(d[6:10], 'big'), nbytes))
            continue
        f = exp_option(tcp, EXID_FB, FBOPT_LEN)
        if f is not None:
            rev = (flow[2], flow[3], flow[0], flow[1])
            sid = int.from_bytes(f[2:4], 'big')
            raw = bytes([OPT_KIND, FBOPT_LEN]) + bytes(f)
            fb.setdefault(rev, {}).setdefault(sid, raw.hex())
    return data, fb


def streams(pkts):
    """Group one flow's marked packets into p-streams (a change of id starts
    the next; an id seen again later is a new stream, as in the trace)."""
    out = []
    cur = None
    for ns, sid, idx, n, tx32, nbytes in pkts:
        if cur is None or sid != cur['id']:
            # a late packet of an earlier stream (serial arithmetic, as the
            # helper) does not open a stream again
            if cur is not None and ((sid - cur['id']) & 0xffff) >= 0x8000:
                continue
            cur = {'id': sid, 'n': n, 'pk': OrderedDict()}
            out.append(cur)
        if idx < cur['n'] and idx not in cur['pk']:
            cur['pk'][idx] = (tx32, ns, nbytes)
    return out


def write_stream(st, fbhex, out):
    """The stream's lines: its feedback, then N packet lines in send order."""
    if fbhex:
        out.write(f"fb {st['id']} {fbhex}\n")
    pk = st['pk']
    first = min(pk)
    base_tx = pk[first][0]
    last_tx = 0
    # departure offsets unwrapped from the first arrived index, packet to
    # packet in index order (each step < 2^31 ns; rapid_dopt_unwrap())
    prev32, prev64 = base_tx, 1 << 32	# offset keeps every stamp positive
    tx64 = {}
    for i in sorted(pk):
        step = (pk[i][0] - prev32) & 0xffffffff
        if step >= 1 << 31:
            step -= 1 << 32
        prev64 += step
        prev32 = pk[i][0]
        tx64[i] = prev64
    for i in range(st['n']):
        if i in pk:
            last_tx = tx64[i]
            out.write(f"{st['id']} {last_tx} {pk[i][1]} {pk[i][2]}\n")
        else:
            out.write(f"{st['id']} {last_tx or tx64[first]} -1 0\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__)
    ap.add_argument('capture')
    ap.add_argument('-o', '--out', help='trace file (default: stdout)')
    ap.add_argument('--port', type=int, help="the flow's sender or receiver port")
    ap.add_argument('--stats', action='store_true', help='counts on stderr')
    a = ap.parse_args()
    try:
        data, fb = collect(a.capture)
    except (OSError, ValueError, dpkt.NeedData) as e:
        print(f'rapid_pcap2trace: {a.capture}: {e}', file=sys.stderr)
        return 1
    flows = [f for f in data if a.port is None or a.port in (f[1], f[3])]
    if not flows:
        print(f'rapid_pcap2trace: {a.capture}: no marked RAPID data'
              f"{'' if a.port is None else f' on port {a.port}'}", file=sys.stderr)
        return 1
    flow = max(flows, key=lambda f: len(data[f]))
    sts = streams(data[flow])
    fbs = fb.get(flow, {})
    out = open(a.out, 'w') if a.out else sys.stdout
    with out:
        out.write(f'# {flow[0]}:{flow[1]} -> {flow[2]}:{flow[3]}, '
                  f'{len(data[flow])} marked packets, {len(sts)} p-streams\n')
        for st in sts:
            write_stream(st, fbs.get(st['id']), out)
    if a.stats:
        sizes = Counter(len(s['pk']) == s['n'] for s in sts)
        print(f'rapid_pcap2trace: {len(data[flow])} packets, {len(sts)} streams '
              f'({sizes[True]} complete), {len(fbs)} feedback options',
              file=sys.stderr)
    return 0


if __name__ == '__main__':
    sys.exit(main())
