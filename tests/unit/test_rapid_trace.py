#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the offline tools of RAPID's estimation: build/rapid-trace
(the PathChirp analysis of rapid_chirp.h on a trace) and
scripts/rapid/pcap2trace.py (receiver-side capture -> trace).

The capture is made here from tests/data/rapid_trace_sample.txt: every
packet becomes a TCP segment carrying the data option (crafted.py's codec,
the one the VM suites use) and arriving at its recv_ns, with the 32-bit
departure stamps wrapping inside stream 1, a duplicated packet, unmarked
segments and a second flow around it, and the helper's feedback on an ACK
of the reverse direction; once more cut to the headers (tcpdump -s 96).  Converted back, the analysis must give every
stream exactly what the trace itself gives.  TAP and "N passed, N failed";
exit 0 when all pass."""
import os
import subprocess
import sys
import tempfile
from decimal import Decimal

import dpkt

from tap import Tap
from tests.vm import crafted  # PYTHONPATH: the top (tests/run.sh)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")

T = Tap("rapid_trace: ")
CLI = os.path.join(ROOT, "build", "rapid-trace")
CONV = os.path.join(ROOT, "scripts", "rapid", "pcap2trace.py")
SAMPLE = os.path.join(ROOT, "tests", "data", "rapid_trace_sample.txt")
TMP = tempfile.mkdtemp(prefix="rapid_trace.")
WRAP_AT = 10	# stream 1's departure stamp wraps between index 9 and 10


def run(*argv, stdin=None):
    p = subprocess.run(list(argv), capture_output=True, text=True, input=stdin)
    return p.returncode, p.stdout, p.stderr


def streams_of(out):
    """{id: (pkts, abest, rule, flags...)} of rapid-trace's table."""
    rows = {}
    for line in out.splitlines():
        f = line.split()
        if f and not line.startswith("#"):
            rows[f[0]] = (int(f[1]), f[3], f[4], tuple(f[5:]))
    return rows


def sample():
    """[(id, [(send_ns, recv_ns, bytes)])] of the sample trace."""
    out = []
    with open(SAMPLE) as f:
        for line in f:
            f4 = line.split("#")[0].split()
            if len(f4) != 4:
                continue
            if not out or out[-1][0] != int(f4[0]):
                out.append((int(f4[0]), []))
            out[-1][1].append(tuple(int(x) for x in f4[1:]))
    return out


def ip_packet(v6, src, dst, sport, dport, opts, payload):
    tcp = dpkt.tcp.TCP(sport=sport, dport=dport, seq=1, ack=1, flags=0x18,
                       win=512, opts=opts + b"\1" * (-len(opts) % 4),
                       data=payload)
    tcp.off = (20 + len(tcp.opts)) // 4
    if v6:
        ip = dpkt.ip6.IP6(src=bytes(15) + bytes([src]), dst=bytes(15) + bytes([dst]),
                          nxt=6, hlim=64, data=tcp, plen=len(tcp))
        return dpkt.ethernet.Ethernet(type=dpkt.ethernet.ETH_TYPE_IP6, data=ip)
    ip = dpkt.ip.IP(src=bytes([10, 0, 0, src]), dst=bytes([10, 0, 0, dst]),
                    p=6, ttl=64, data=tcp)
    ip.len = len(ip)
    return dpkt.ethernet.Ethernet(type=dpkt.ethernet.ETH_TYPE_IP, data=ip)


def write_capture(path, v6, streams, fb=None, snap=0):
    """The sample as a receiver-side capture (see the docstring); with
    snap, every frame is cut after snap bytes (tcpdump -s)."""
    frames = []
    smp_prev = None
    for sid, pk in streams:
        n = len(pk)
        # stream 1's stamps cross 2^32 between WRAP_AT - 1 and WRAP_AT
        off = (1 << 32) - pk[WRAP_AT][0] + 500 if sid == 1 else 7
        for i, (send, recv, nbytes) in enumerate(pk):
            if recv < 0:
                continue
            opt = crafted.dopt(sid, i, n, (send + off) & 0xffffffff)
            pkt = ip_packet(v6, 1, 2, 5201, 40000, opt, b"x" * nbytes)
            frames.append((recv, pkt))
            if sid == 6 and i == 3:		# duplicated, the copy 2 packets late
                frames.append((pk[i + 2][1] + 1000, pkt))
            if sid == 2 and i == 0:		# an unmarked segment
                frames.append((recv + 1, ip_packet(v6, 1, 2, 5201, 40000, b"", b"y" * 100)))
        if sid == 3:			# a straggler of stream 2 amid stream 3
            late = smp_prev[-1]
            frames.append((pk[5][1] + 3, ip_packet(v6, 1, 2, 5201, 40000,
                                                   crafted.dopt(2, n - 1, n, late[0] + 7),
                                                   b"x" * late[2])))
        smp_prev = pk
        # a second, smaller flow: three marked packets of one stream
        if sid == 3:
            for i in range(3):
                frames.append((pk[i][1] + 2, ip_packet(v6, 3, 2, 5301, 40001,
                                                       crafted.dopt(9, i, 3, 100 * i),
                                                       b"z" * 500)))
        if fb and sid in fb:
            ack = ip_packet(v6, 2, 1, 40000, 5201, fb[sid], b"")
            frames.append((pk[-1][1] + 5000, ack))
    frames.sort(key=lambda x: x[0])
    with open(path, "wb") as f:
        w = dpkt.pcap.Writer(f, nano=True, snaplen=snap or 65535)
        hdr = dpkt.pcap.LEPktHdr if sys.byteorder == "little" else dpkt.pcap.PktHdr
        for ns, pkt in frames:
            if not snap:
                w.writepkt(pkt, Decimal(ns) / Decimal(10 ** 9))
                continue
            b = bytes(pkt)
            f.write(bytes(hdr(tv_sec=ns // 10 ** 9, tv_usec=ns % 10 ** 9,
                              caplen=min(len(b), snap), len=len(b))) + b[:snap])


# 1. the CLI on the sample: what the sample's header says
rc, out, err = run(CLI, SAMPLE)
direct = streams_of(out)
T.check("CLI reads the sample", rc == 0 and len(direct) == 6, f"rc {rc} {err} {out}")
want_rules = {"1": "excursion", "2": "early-trend", "3": "no-trend",
              "4": "excursion", "5": "invalid", "6": "excursion"}
T.check("CLI rules per stream", {k: v[2] for k, v in direct.items()} == want_rules, out)
ab = {k: float(v[1]) for k, v in direct.items()}
T.check("CLI excursion ABest in (A, A * m] for A = 30 and 80 Mbit/s",
        30 < ab.get("1", 0) <= 32.1 and 80 < ab.get("6", 0) <= 85.6, out)
T.check("CLI no-trend ABest = r_(N-1) (24.1 Mbit/s)", abs(ab.get("3", 0) - 24.1) < 0.05, out)
T.check("CLI loss truncates stream 4 to 25 packets, same ABest as 1",
        direct.get("4", (0,))[0] == 25 and "loss" in direct["4"][3] and ab["4"] == ab["1"], out)

# 2. capture -> trace -> CLI gives the same per-stream result
smp = sample()
rate = crafted.rate_pack(30 * 1000 * 1000 // 8)
fb = {1: crafted.fb_option(1, rate), 4: crafted.fb_option(4, rate, truncated=1)}
for v6, snap in ((False, 0), (True, 0), (False, 96)):
    name = ("IPv6" if v6 else "IPv4") + (f" -s {snap}" if snap else "")
    cap = os.path.join(TMP, name.replace(" ", "") + ".pcap")
    trace = os.path.join(TMP, name.replace(" ", "") + ".trace")
    write_capture(cap, v6, smp, fb, snap)
    rc, out, err = run(sys.executable, CONV, "--stats", cap, "-o", trace)
    T.check(f"{name}: converter exits 0", rc == 0, err)
    T.check(f"{name}: converter picks the bigger flow and counts 6 streams, 2 feedback",
            "6 streams" in err and "2 feedback" in err, err)
    rc, out, err = run(CLI, trace)
    conv = streams_of(out)
    same = {k: v[:3] for k, v in conv.items()} == {k: v[:3] for k, v in direct.items()}
    T.check(f"{name}: converted trace gives the direct analysis (wrap, dup, loss)",
            rc == 0 and same, f"{err}\n{out}")
    fb1 = [x for x in conv.get("1", ((), (), (), ()))[3] if x.startswith("fb=")]
    T.check(f"{name}: the helper's feedback shows beside stream 1",
            len(fb1) == 1 and fb1[0].endswith("/excursion") and
            29.5 < float(fb1[0][3:].split("/")[0]) <= 30.0, out)
    T.check(f"{name}: no feedback shown where none was sent",
            not any(x.startswith("fb=") for k in "2356" for x in conv.get(k, ((), (), (), ()))[3]),
            out)

# --port picks the other flow: one 3-packet stream
cap = os.path.join(TMP, "IPv4.pcap")
rc, out, err = run(sys.executable, CONV, "--port", "5301", cap)
lines = [x for x in out.splitlines() if not x.startswith("#")]
T.check("--port 5301 selects the second flow's stream 9",
        rc == 0 and len(lines) == 3 and all(x.split()[0] == "9" for x in lines), out + err)

# 3. bad input is refused, not guessed
rc, out, err = run(sys.executable, CONV, "--port", "1", cap)
T.check("converter: no marked data on that port -> exit 1", rc == 1 and "no marked" in err, err)
junk = os.path.join(TMP, "junk.pcap")
with open(junk, "wb") as f:
    f.write(b"this is not a capture\n" * 4)
rc, out, err = run(sys.executable, CONV, junk)
T.check("converter: a file that is no capture -> exit 1", rc == 1, f"rc {rc} {err}")
empty = os.path.join(TMP, "empty.pcap")
with open(empty, "wb") as f:
    dpkt.pcap.Writer(f, nano=True)
rc, out, err = run(sys.executable, CONV, empty)
T.check("converter: an empty capture -> exit 1", rc == 1 and "no marked" in err, f"rc {rc} {err}")
rc, out, err = run(CLI, "-", stdin="1 100 200\n")
T.check("CLI: a 3-field line -> exit 1", rc == 1 and ":1:" in err, err)
good = crafted.fb_option(1, rate).hex()
for bad, why in ((good[:-2], "short"), (good[:-2] + "zz", "not hex"),
                 (crafted.fb_option(2, rate).hex(), "other id"),
                 ("fd08524400014ed3", "data ExID")):
    rc, out, err = run(CLI, "-", stdin=f"fb 1 {bad}\n1 100 200 1500\n")
    T.check(f"CLI: fb option {why} -> exit 1", rc == 1 and "fb ID" in err, f"rc {rc} {err}")
rc, out, err = run(CLI, "-F", "0", SAMPLE)
T.check("CLI: -F 0 -> exit 2 (bad usage)", rc == 2, f"rc {rc} {err}")

# 4. damaged and other captures: a clear message and exit status, never a
# traceback; what is complete still gives its trace (exit 4, a warning)
def conv(*argv):
    rc, out, err = run(sys.executable, CONV, *argv)
    return rc, out, err, "Traceback" not in err


def same_as_direct(trace_text, drop=()):
    path = os.path.join(TMP, "cmp.trace")
    with open(path, "w") as f:
        f.write(trace_text)
    rc, out, err = run(CLI, path)
    got = {k: v[:3] for k, v in streams_of(out).items()}
    want = {k: v[:3] for k, v in direct.items() if k not in drop}
    return rc == 0 and got == want


# pcapng (Wireshark's default), nanosecond interface resolution
ng = os.path.join(TMP, "IPv4.pcapng")
with open(os.path.join(TMP, "IPv4.pcap"), "rb") as f:
    recs = list(dpkt.pcap.Reader(f))
LE = sys.byteorder == "little"
IDB = dpkt.pcapng.InterfaceDescriptionBlockLE if LE else dpkt.pcapng.InterfaceDescriptionBlock
OPT = dpkt.pcapng.PcapngOptionLE if LE else dpkt.pcapng.PcapngOption
with open(ng, "wb") as f:
    idb = IDB(snaplen=65535, linktype=dpkt.pcap.DLT_EN10MB,
              opts=[OPT(code=dpkt.pcapng.PCAPNG_OPT_IF_TSRESOL, data=b"\x09"),
                    OPT(code=dpkt.pcapng.PCAPNG_OPT_ENDOFOPT)])
    w = dpkt.pcapng.Writer(f, idb=idb)
    for ts, buf in recs:
        ns = int(ts * 10 ** 9)
        w.writepkt(w._kls(ts_high=ns >> 32, ts_low=ns & 0xffffffff, caplen=len(buf),
                          pkt_len=len(buf), pkt_data=buf))
rc, out, err, clean = conv(ng)
T.check("pcapng: read (ns stamps), the same analysis as the pcap", rc == 0 and clean and
        same_as_direct(out), f"rc {rc} {err[-400:]}")

# the last record cut short (a killed tcpdump), pcap and pcapng: the trace
# is that of the capture without its last record
last = len(recs[-1][1])
for src, what, rec_len in ((os.path.join(TMP, "IPv4.pcap"), "pcap", 16 + last),
                           (ng, "pcapng", 32 + last + (-last % 4))):
    cut = src + ".cut"
    with open(src, "rb") as f:
        b = f.read()
    with open(cut, "wb") as f:
        f.write(b[:-rec_len])
    rc0, want, err0, _ = conv(cut)
    for chop, part in ((30, "body"), (rec_len - 6, "header")):
        with open(cut, "wb") as f:
            f.write(b[:-chop])
        rc, out, err, clean = conv(cut)
        T.check(f"{what}, last record cut in its {part}: exit 4, a warning, the trace "
                "of the complete packets", rc0 == 0 and rc == 4 and clean and
                "cut short" in err and out == want and out.count("\n") > 100,
                f"rc {rc} (complete ones: {rc0} {err0}) {err[-400:]}")

# options cut by the snap length: a lone kind byte (dpkt: None in the list)
cap = os.path.join(TMP, "snap55.pcap")
write_capture(cap, False, smp, fb, 55)
rc, out, err, clean = conv(cap)
T.check("snap length through the TCP options: exit 1, says the snap cut the options",
        rc == 1 and clean and "snap length" in err, f"rc {rc} {err[-400:]}")

# marked packets with N = 0 and with index >= N amid a valid capture
cap = os.path.join(TMP, "badn.pcap")
write_capture(cap, False, smp, fb)
with open(cap, "ab") as f:
    w = dpkt.pcap.Writer.__new__(dpkt.pcap.Writer)
    hdr = dpkt.pcap.LEPktHdr if sys.byteorder == "little" else dpkt.pcap.PktHdr
    t_end = smp[-1][1][-1][1] + 10 ** 6
    for i, opt in enumerate((crafted.dopt(7, 0, 0, 5), crafted.dopt(7, 31, 30, 5))):
        b = bytes(ip_packet(False, 1, 2, 5201, 40000, opt, b"x" * 100))
        ns = t_end + i
        f.write(bytes(hdr(tv_sec=ns // 10 ** 9, tv_usec=ns % 10 ** 9,
                          caplen=len(b), len=len(b))) + b)
rc, out, err, clean = conv(cap)
T.check("data options with N = 0 and index >= N: exit 4, 2 skipped, the rest analysed",
        rc == 4 and clean and "2 marked packet(s) with an invalid data option" in err and
        same_as_direct(out), f"rc {rc} {err[-400:]}")

# an unwritable -o
rc, out, err, clean = conv(os.path.join(TMP, "IPv4.pcap"), "-o", os.path.join(TMP, "no", "dir", "t"))
T.check("unwritable -o: exit 3, says it cannot write the trace",
        rc == 3 and clean and "cannot write" in err, f"rc {rc} {err[-400:]}")

# 5. the CLI says what is wrong with a trace, and where
for data, want, why in ((b"1 100 200 1500\n1 2\x0000 300 1500\n", ":2:4: a NUL byte", "a NUL byte"),
                        (b"1 100 200 1500\n1 300 400 15", ":2:12: the last line has no newline",
                         "a file cut mid-number"),
                        (b"1 100 200 1500\n1 3x0 400 1500\n", ":2:3: field 2 (send_ns)",
                         "a malformed field"),
                        (b"1 100 200 1500" + b" " * 1100 + b"\n", ":1: line too long (1114 bytes, at most 1023)",
                         "a line over 1023 bytes")):
    path = os.path.join(TMP, "bad.trace")
    with open(path, "wb") as f:
        f.write(data)
    rc, out, err = run(CLI, path)
    T.check(f"CLI: {why} -> exit 1, '{want.strip(':')}'", rc == 1 and want in err, f"rc {rc} {err}")
rc, out, err = run(CLI, "--help")
T.check("CLI: --help states the line-length limit", rc == 0 and "at most 1023 bytes" in out, out)

sys.exit(T.done())
