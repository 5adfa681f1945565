#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Packet capture of a RAPID flow -> trace for build/rapid-trace.

  pcap2trace.py [--port P] [--stats] CAPTURE.pcap [-o TRACE]

Reads a capture taken on the RECEIVING host (tcpdump -w, nanosecond
precision preferred: --time-stamp-precision=nano; headers are enough,
-s 128, the payload length comes from the IP header; Ethernet or Linux
cooked link type, IPv4 or IPv6) of a RAPID flow whose sender marks its data
(tcp_rapid mark_data=1, the default): every new data segment carries the
12-byte data option {stream id, index, N, departure time} (docs/rapid-helper.md,
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

Reads pcap (microsecond or nanosecond) and pcapng (Wireshark's default;
its timestamps at the interface's resolution).  A damaged capture gives
the trace of what is complete, with a warning on stderr and exit status 4:
a last record cut short (a killed tcpdump) is dropped, a segment whose TCP
options the snap length cut is skipped (take -s 128 or more), a marked
packet whose data option is invalid (N = 0, or index >= N) is skipped.

Exit status: 0 the trace is written; 1 the capture is unreadable (not
pcap or pcapng, an unsupported link type) or holds no marked packets; 2
bad usage; 3 the trace cannot be written (-o); 4 the trace is written from
a damaged capture (above).  Needs dpkt (scripts/lab/requirements.txt, the lab
venv).
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


PCAPNG_MAGIC = b'\x0a\x0d\x0d\x0a'


class Damage:
    """What was wrong with the capture: counts for the warning."""

    def __init__(self):
        self.cut_record = None		# why the last record was dropped
        self.cut_opts = 0		# segments whose options the snap cut
        self.bad_dopt = 0		# marked packets with N = 0 or idx >= N

    def warnings(self):
        w = []
        if self.cut_record:
            w.append(f'the capture is cut short ({self.cut_record}): its last '
                     'record was dropped, the trace holds the packets before it')
        if self.cut_opts:
            w.append(f'{self.cut_opts} TCP segment(s) with options cut by the '
                     'snap length skipped (capture with -s 128 or more)')
        if self.bad_dopt:
            w.append(f'{self.bad_dopt} marked packet(s) with an invalid data '
                     'option (N = 0 or index >= N) skipped')
        return w


class _ShortReads:
    """A file whose reads remember when one came back short: dpkt's pcap
    reader yields a record whose body the file cut without saying so."""

    def __init__(self, f):
        self.f = f
        self.name = getattr(f, 'name', '?')
        self.short = False

    def read(self, n=-1):
        b = self.f.read(n)
        if n is not None and n >= 0 and len(b) < n:
            self.short = True
        return b


def _pcap_records(f, dmg):
    """(ns, link, frame) of a pcap file."""
    sf = _ShortReads(f)
    rd = dpkt.pcap.Reader(sf)
    link = rd.datalink()
    it = iter(rd)
    while True:
        try:
            ts, buf = next(it)
        except StopIteration:
            return
        except dpkt.NeedData:
            dmg.cut_record = 'a record header is incomplete'
            return
        if sf.short:
            dmg.cut_record = 'the last record has fewer bytes than its header says'
            return
        # nanosecond captures give a Decimal stamp (exact), others float
        ns = int(ts * 1000000000) if not isinstance(ts, float) \
            else int(round(ts * 1e6)) * 1000
        yield ns, link, buf


def _pcapng_records(f, dmg):
    """(ns, link, frame) of a pcapng file: dpkt's reader checks the section
    and the first interface; the packet blocks are read here so that the
    stamps stay exact integers (dpkt's iterator gives float seconds, ~0.4
    us coarse) and a block cut short is noticed."""
    rd = dpkt.pcapng.Reader(f)
    link = rd.datalink()
    le = rd._Reader__le		# pylint: disable=protected-access
    div = int(round(rd._divisor))
    off = int(rd._tsoffset)
    while True:
        hdr = f.read(8)
        if not hdr:
            return
        if len(hdr) < 8:
            dmg.cut_record = 'a block header is incomplete'
            return
        typ, blen = int.from_bytes(hdr[:4], 'little' if le else 'big'), \
            int.from_bytes(hdr[4:8], 'little' if le else 'big')
        if blen < 12:
            dmg.cut_record = f'a block claims {blen} bytes'
            return
        body = f.read(blen - 8)
        if len(body) < blen - 8:
            dmg.cut_record = 'the last block has fewer bytes than its header says'
            return
        if typ == dpkt.pcapng.PCAPNG_BT_EPB:
            cls = dpkt.pcapng.EnhancedPacketBlockLE if le else dpkt.pcapng.EnhancedPacketBlock
            try:
                epb = cls(hdr + body)
            except (dpkt.UnpackError, ValueError) as e:
                dmg.cut_record = f'a packet block does not parse ({e})'
                return
            ticks = (epb.ts_high << 32) | epb.ts_low
            yield off * 1000000000 + ticks * 1000000000 // div, link, epb.pkt_data


def frames(path, dmg):
    """(recv_ns, ip packet) of every IPv4/IPv6 frame of the capture."""
    with open(path, 'rb') as f:
        pcapng = f.read(4) == PCAPNG_MAGIC
        f.seek(0)
        recs = _pcapng_records(f, dmg) if pcapng else _pcap_records(f, dmg)
        for ns, link, buf in recs:
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
                    raise ValueError(f'link type {link} not supported')
            except (dpkt.UnpackError, IndexError):
                continue
            if isinstance(ip, (dpkt.ip.IP, dpkt.ip6.IP6)):
                yield ns, ip


def tcp_opts(tcp):
    """The segment's options, or None when they are cut short (dpkt leaves
    None in the list for a kind byte without its length or data)."""
    try:
        opts = dpkt.tcp.parse_opts(tcp.opts)
    except (dpkt.UnpackError, IndexError):
        return None
    if len(tcp.opts) < tcp.off * 4 - 20 or any(o is None for o in opts):
        return None
    return opts


def exp_option(opts, exid, length):
    """The data bytes after the ExID of the first kind-253 option with
    that ExID and length, or None."""
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


def collect(path, dmg):
    """Marked data packets per flow, and feedback options per reverse flow."""
    data = {}	# flow -> [(recv_ns, id, idx, n, tx32, bytes)]
    fb = {}	# flow (as seen from the data sender) -> {id: hex}
    for ns, ip in frames(path, dmg):
        tcp = ip.data
        if not isinstance(tcp, dpkt.tcp.TCP):
            continue
        opts = tcp_opts(tcp)
        if opts is None:
            dmg.cut_opts += 1
            continue
        flow = (addr(ip, True), tcp.sport, addr(ip, False), tcp.dport)
        d = exp_option(opts, EXID_DATA, DOPT_LEN)
        nbytes = payload_len(ip, tcp)
        if d is not None and nbytes:
            if d[5] == 0 or d[4] >= d[5]:
                dmg.bad_dopt += 1
                continue
            sid = int.from_bytes(d[2:4], 'big')
            data.setdefault(flow, []).append(
                (ns, sid, d[4], d[5], int.from_bytes(d[6:10], 'big'), nbytes))
            continue
        f = exp_option(opts, EXID_FB, FBOPT_LEN)
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
    # (a stream whose packets all disagreed with its first one's N is empty)
    return [st for st in out if st['pk']]


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
    dmg = Damage()
    try:
        data, fb = collect(a.capture, dmg)
    except (OSError, ValueError, dpkt.UnpackError) as e:
        why = e.strerror if isinstance(e, OSError) and e.strerror else e
        print(f'rapid_pcap2trace: {a.capture}: not a readable pcap or pcapng '
              f'capture: {why}', file=sys.stderr)
        return 1
    for w in dmg.warnings():
        print(f'rapid_pcap2trace: warning: {a.capture}: {w}', file=sys.stderr)
    flows = [f for f in data if a.port is None or a.port in (f[1], f[3])]
    if not flows:
        print(f'rapid_pcap2trace: {a.capture}: no marked RAPID data'
              f"{'' if a.port is None else f' on port {a.port}'}", file=sys.stderr)
        return 1
    flow = max(flows, key=lambda f: len(data[f]))
    sts = streams(data[flow])
    fbs = fb.get(flow, {})
    try:
        out = open(a.out, 'w') if a.out else sys.stdout
    except OSError as e:
        print(f'rapid_pcap2trace: cannot write the trace to {a.out}: {e.strerror}',
              file=sys.stderr)
        return 3
    try:
        with out:
            out.write(f'# {flow[0]}:{flow[1]} -> {flow[2]}:{flow[3]}, '
                      f'{len(data[flow])} marked packets, {len(sts)} p-streams\n')
            for st in sts:
                write_stream(st, fbs.get(st['id']), out)
    except OSError as e:
        print(f'rapid_pcap2trace: cannot write the trace to {a.out or "stdout"}: '
              f'{e.strerror}', file=sys.stderr)
        return 3
    if a.stats:
        sizes = Counter(len(s['pk']) == s['n'] for s in sts)
        print(f'rapid_pcap2trace: {len(data[flow])} packets, {len(sts)} streams '
              f'({sizes[True]} complete), {len(fbs)} feedback options',
              file=sys.stderr)
    return 4 if dmg.warnings() else 0


if __name__ == '__main__':
    sys.exit(main())
