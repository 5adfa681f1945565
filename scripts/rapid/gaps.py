#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Departure gaps of a RAPID flow against its p-stream schedule.

  gaps.py [options] CAPTURE.pcap[:RATE_KBPS] ...

Reads a pcap of the sender's egress (tcpdump -w, microsecond or nanosecond
precision, Ethernet or Linux cooked link type, IPv4 or IPv6) of a RAPID flow
in fixed-rate lab mode (tcp_rapid fixed_rate_kbps=RATE_KBPS), works out the
intended gap after every new data segment from the schedule of docs/rapid.md
and compares it with the gap on the wire:

    gap after packet i of a stream (i = 1..N-1) = P_i / (r_1 m^(i-1)),
    gap after packet N = P_N / r_avg,   r_1 = r_avg (1/(N-1)) sum m^-k

(P_i is the packet's payload: Linux spaces a packet from the next by its own
length).  The rates are computed here in double precision from N, m and
r_avg, independently of the module's fixed-point code.

Packet index.  New data segments (sequence numbers beyond everything sent
before; retransmissions are counted and left out) are numbered in the order
they leave.  A stream is N of them unless the sender had less data queued,
which a bulk sender has only at the start, so the index within a stream is
(number - phase) mod N with one phase per block of --block streams, the
phase that best fits the block.  One fitted integer per block of hundreds of
gaps cannot make bad gaps look good; a short stream in the middle of a run
shows up as a phase change between blocks (reported; that block's gaps are
still judged against the fitted phase).

Reported per capture (and as JSON with --json, as "NAME.key value" lines
with --kv):
  within10      share of gaps within 10% of the intended gap
  ratio p5/p50/p95   actual / intended gap
  within10_top  the same for the 5 fastest gaps of each stream
  m_est         per stream, exp(slope) of log(rate) over the intra-stream
                gaps: the rate ratio m on the wire (p5/p50/p95)
  rising        share of streams whose rates rise (Spearman rho > 0.9)
  dep_err_us    per packet, |departure - scheduled departure| in us, the
                schedule anchored at its stream's first packet (p50/p95/p99;
                a retransmission inside a stream shifts the rest of it)
  stream_avg    per stream, N P / (start of next stream - own start) / r_avg
  long_run      payload bytes / time over the whole analysed span / r_avg
                (the gap after the last counted packet is part of the span)
  late_share    time the wire lost to late departures: the excess of the
                gaps more than 10% longer than intended, / span.  RAPID
                keeps the schedule's gaps after a late packet, so a late
                departure (a qdisc refused the segment and TCP retried it
                later) is time lost for good: long_run is about 1 - late_share
  long_run_on_time  long_run with that time taken out of the span: the
                schedule's own rate, whatever the stack's retries cost

--plot PNG draws intended and actual gaps of --plot-streams consecutive
streams per capture (one panel each).  Needs numpy (and matplotlib for the
plot): use the lab venv's python (scripts/lab/setup.sh --print-env).
Exit status: 0, 1 on a capture it cannot use, 2 on bad usage.
"""
import argparse
import json
import math
import struct
import sys

import numpy as np

PCAP_MAGIC_US = 0xA1B2C3D4
PCAP_MAGIC_NS = 0xA1B23C4D
LINK_ETHERNET = 1
LINK_LINUX_SLL = 113
LINK_LINUX_SLL2 = 276
ETH_P_IP = 0x0800
ETH_P_IPV6 = 0x86DD
ETH_P_8021Q = 0x8100
IPPROTO_TCP = 6
TOP_GAPS = 5            # "fastest gaps" of a stream for within10_top


def read_pcap(path):
    """Yield (t_ns, l3_proto, l3_bytes) for every frame of a pcap file."""
    with open(path, "rb") as f:
        hdr = f.read(24)
        if len(hdr) < 24:
            raise ValueError(f"{path}: not a pcap file (too short)")
        for endian in ("<", ">"):
            magic, _, _, _, _, _, link = struct.unpack(endian + "IHHiIII", hdr)
            if magic in (PCAP_MAGIC_US, PCAP_MAGIC_NS):
                break
        else:
            raise ValueError(f"{path}: not a pcap file (pcapng is not read: use tcpdump -w)")
        scale = 1 if magic == PCAP_MAGIC_NS else 1000
        rec = struct.Struct(endian + "IIII")
        while True:
            h = f.read(16)
            if len(h) < 16:
                return
            sec, frac, incl, _ = rec.unpack(h)
            data = f.read(incl)
            if len(data) < incl:
                return
            t_ns = sec * 1_000_000_000 + frac * scale
            if link == LINK_ETHERNET:
                off, proto = 14, struct.unpack_from(">H", data, 12)[0]
                if proto == ETH_P_8021Q and len(data) >= 18:
                    off, proto = 18, struct.unpack_from(">H", data, 16)[0]
            elif link == LINK_LINUX_SLL:
                off, proto = 16, struct.unpack_from(">H", data, 14)[0]
            elif link == LINK_LINUX_SLL2:
                off, proto = 20, struct.unpack_from(">H", data, 0)[0]
            else:
                raise ValueError(f"{path}: link type {link} not supported")
            yield t_ns, proto, data[off:]


def tcp_segments(path):
    """Yield (t_ns, flow, seq, payload_len) of TCP segments in a pcap."""
    for t_ns, proto, ip in read_pcap(path):
        if proto == ETH_P_IP and len(ip) >= 20:
            ihl = (ip[0] & 0x0F) * 4
            if ip[9] != IPPROTO_TCP:
                continue
            tot = struct.unpack_from(">H", ip, 2)[0]
            src, dst = ip[12:16], ip[16:20]
            l4, l4_len = ip[ihl:], tot - ihl
        elif proto == ETH_P_IPV6 and len(ip) >= 40:
            if ip[6] != IPPROTO_TCP:    # extension headers: not used here
                continue
            l4_len = struct.unpack_from(">H", ip, 4)[0]
            src, dst = ip[8:24], ip[24:40]
            l4 = ip[40:]
        else:
            continue
        if len(l4) < 20:
            continue
        sport, dport, seq = struct.unpack_from(">HHI", l4, 0)
        doff = (l4[12] >> 4) * 4
        flags = l4[13]
        payload = l4_len - doff
        if flags & 0x02:        # SYN
            continue
        yield t_ns, (src, sport, dst, dport), seq, payload


def new_data(path, dport=None):
    """The busiest flow's data segments, in departure order.

    Returns (t, lens, retx, pure_acks): t and lens are numpy arrays of the
    departure times (ns) and payload bytes of the new data segments,
    retx a list of (payload, gap to the next data segment in ns or None)
    for the retransmitted ones, pure_acks the number of segments of the
    flow without payload.
    """
    flows = {}
    for t_ns, flow, seq, plen in tcp_segments(path):
        if dport is not None and flow[3] != dport:
            continue
        flows.setdefault(flow, []).append((t_ns, seq, plen))
    flows = {f: v for f, v in flows.items() if any(p > 0 for _, _, p in v)}
    if not flows:
        raise ValueError(f"{path}: no TCP data segments")
    segs = max(flows.values(), key=lambda v: sum(p for _, _, p in v))
    segs.sort(key=lambda s: s[0])
    pure_acks = sum(1 for _, _, p in segs if p <= 0)
    segs = [s for s in segs if s[2] > 0]
    t, lens, retx = [], [], []
    base = segs[0][1]
    high = 0                            # highest byte sent + 1, relative
    for j, (t_ns, seq, plen) in enumerate(segs):
        rel = (seq - base) & 0xFFFFFFFF
        if rel >= 0x80000000 or rel + plen <= high:
            nxt = segs[j + 1][0] - t_ns if j + 1 < len(segs) else None
            retx.append((plen, nxt))
            continue
        if rel < high:                  # partly new: counts as new data
            plen = rel + plen - high
        high = rel + plen
        t.append(t_ns)
        lens.append(plen)
    return (np.array(t, dtype=np.int64), np.array(lens, dtype=np.float64),
            retx, pure_acks)


def schedule_rates(r_avg, n, m):
    """Rates (B/s) of the gap after packets 1..n: r_1 m^(i-1), then r_avg."""
    rho = sum(m ** -k for k in range(n - 1)) / (n - 1)
    r1 = r_avg * rho
    rates = [r1 * m ** (i - 1) for i in range(1, n)] + [r_avg]
    return np.array(rates)


def intended_gaps(lens, idx, rates):
    """Intended gap (ns) after each packet: its payload / rate of its index."""
    return lens * 1e9 / rates[idx]


def fit_phase(gaps, lens, start, count, rates, n):
    """The phase (0..n-1) that best fits packets start..start+count-1."""
    best, best_err = 0, math.inf
    sl = slice(start, start + count)
    g = gaps[sl]
    ok = g > 0
    numbers = np.arange(start, start + count)
    for phase in range(n):
        idx = (numbers - phase) % n
        want = intended_gaps(lens[sl], idx, rates)
        err = np.median(np.abs(np.log(g[ok] / want[ok]))) if ok.any() else math.inf
        if err < best_err:
            best, best_err = phase, err
    return best


def spearman(x, y):
    rx = np.argsort(np.argsort(x))
    ry = np.argsort(np.argsort(y))
    if np.std(rx) == 0 or np.std(ry) == 0:
        return 0.0
    return float(np.corrcoef(rx, ry)[0, 1])


def analyse(path, rate_kbps, n, m, skip, block, dport=None, max_packets=None):
    """All the numbers for one capture, as a dict (plus arrays for plots)."""
    t, lens, retx, pure_acks = new_data(path, dport)
    if max_packets:
        t, lens = t[:skip + max_packets + 1], lens[:skip + max_packets + 1]
    r_avg = rate_kbps * 125.0
    rates = schedule_rates(r_avg, n, m)
    if len(t) < skip + 3 * n:
        raise ValueError(f"{path}: {len(t)} new data segments, need {skip + 3 * n}")
    gaps = np.diff(t).astype(np.float64)        # gap after packet j (j < len-1)
    lens_g = lens[:-1]
    first = skip
    last = len(gaps)                            # gaps first..last-1 analysed
    # Phase per block of `block` streams.
    idx = np.zeros(len(gaps), dtype=np.int64)
    phases = []
    bs = block * n
    for start in range(first, last, bs):
        count = min(bs, last - start)
        if count < 2 * n and phases:            # short tail: keep the last phase
            ph = phases[-1]
        else:
            ph = fit_phase(gaps, lens_g, start, count, rates, n)
        phases.append(ph)
        numbers = np.arange(start, start + count)
        idx[start:start + count] = (numbers - ph) % n
    phase_changes = sum(1 for a, b in zip(phases, phases[1:]) if a != b)
    sl = slice(first, last)
    want = intended_gaps(lens_g[sl], idx[sl], rates)
    got = gaps[sl]
    ratio = got / want
    within = np.abs(ratio - 1) <= 0.10
    top = idx[sl] >= n - 1 - TOP_GAPS           # gaps after packets N-5..N-1
    top &= idx[sl] < n - 1
    # Per stream (complete streams only): rate ratio, rising, average.
    pk_idx = idx[sl]
    starts = [first + j for j in np.nonzero(pk_idx == 0)[0]]
    m_est, rising, avg, dep_err = [], [], [], []
    for s0, s1 in zip(starts, starts[1:]):
        if s1 - s0 != n:
            continue
        # departure time error against the schedule anchored at the
        # stream's first packet (gaps err in pairs: one late packet makes
        # the gap before it long and the one after it short)
        want_t = t[s0] + np.concatenate([[0.0], np.cumsum(
            lens_g[s0:s0 + n - 1] * 1e9 / rates[:n - 1])])
        dep_err.extend(np.abs(t[s0:s1] - want_t)[1:] / 1e3)
        g = gaps[s0:s0 + n - 1]
        if (g <= 0).any():
            continue
        r = lens_g[s0:s0 + n - 1] / (g / 1e9)
        i = np.arange(1, n)
        slope = np.polyfit(i, np.log(r), 1)[0]
        m_est.append(math.exp(slope))
        rising.append(spearman(i, r) > 0.9)
        span = (t[s1] - t[s0]) / 1e9
        avg.append(lens[s0:s1].sum() / span / r_avg)
    # Retransmissions: the gap after each one, against P / r_avg.
    rg = np.array([g / (p * 1e9 / r_avg) for p, g in retx if g is not None])
    span = (t[last] - t[first]) / 1e9
    payload = lens[first:last].sum()
    long_run = payload / span / r_avg
    late = ratio > 1.10
    late_s = float((got - want)[late].sum()) / 1e9
    long_run_on_time = payload / (span - late_s) / r_avg

    def pct(a, q):
        return round(float(np.percentile(a, q)), 4) if len(a) else None

    res = {
        "capture": path,
        "rate_kbps": rate_kbps,
        "n": n,
        "m": m,
        "packets": int(last - first),
        "skipped": int(skip),
        "retransmissions": len(retx),
        "retx_gap_p50": pct(rg, 50),
        "retx_gap_within10": round(float(np.mean(np.abs(rg - 1) <= 0.10)), 4)
        if len(rg) else None,
        "pure_acks": int(pure_acks),
        "payload_p50": int(np.median(lens[first:last])),
        "phase_changes": int(phase_changes),
        "within10": round(float(within.mean()), 4),
        "ratio_p5": pct(ratio, 5),
        "ratio_p50": pct(ratio, 50),
        "ratio_p95": pct(ratio, 95),
        "within10_top": round(float(within[top].mean()), 4) if top.any() else None,
        "within10_by_index": [round(float(within[pk_idx == i].mean()), 3)
                              if (pk_idx == i).any() else None for i in range(n)],
        "streams": len(m_est),
        "m_est_p5": pct(m_est, 5),
        "m_est_p50": pct(m_est, 50),
        "m_est_p95": pct(m_est, 95),
        "rising": round(float(np.mean(rising)), 4) if rising else None,
        "dep_err_us_p50": pct(dep_err, 50),
        "dep_err_us_p95": pct(dep_err, 95),
        "dep_err_us_p99": pct(dep_err, 99),
        "stream_avg_p5": pct(avg, 5),
        "stream_avg_p50": pct(avg, 50),
        "stream_avg_p95": pct(avg, 95),
        "long_run": round(float(long_run), 5),
        "late_share": round(late_s / span, 5),
        "long_run_on_time": round(float(long_run_on_time), 5),
        "long_run_mbps": round(float(payload * 8 / span / 1e6), 3),
        "span_s": round(span, 4),
    }
    arrays = {"t": t, "gaps": gaps, "want": np.concatenate(
        [np.full(first, np.nan), want, np.full(len(gaps) - last, np.nan)]),
        "idx": idx, "first": first, "starts": starts}
    return res, arrays


def write_kv(f, res):
    """One "NAME.key value" line per scalar (NAME: the capture's file name
    without directory and .pcap), plus the deviations |x - 1| of the
    ratios as *_err, for shell scripts."""
    name = res["capture"].rsplit("/", 1)[-1]
    if name.endswith(".pcap"):
        name = name[:-5]
    for k, v in res.items():
        if isinstance(v, (list, dict)) or k == "capture":
            continue
        f.write(f"{name}.{k} {'none' if v is None else v}\n")
    for k in ("long_run", "stream_avg_p50", "retx_gap_p50", "ratio_p50"):
        v = res.get(k)
        f.write(f"{name}.{k}_err {'none' if v is None else round(abs(v - 1), 5)}\n")


def plot(results, out, streams):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(results), 1, figsize=(10, 3.6 * len(results)),
                             squeeze=False)
    for ax, (res, arr) in zip(axes[:, 0], results):
        n = res["n"]
        # from the middle of the run: a representative stretch
        starts = arr["starts"]
        s0 = starts[len(starts) // 2] if starts else arr["first"]
        sel = np.arange(s0, min(s0 + streams * n, len(arr["gaps"])))
        x = sel - s0
        ax.step(x, arr["want"][sel] / 1e3, where="mid", color="tab:blue",
                label="intended (schedule)")
        ax.plot(x, arr["gaps"][sel] / 1e3, "o", ms=3.5, color="tab:red",
                label="actual (capture)")
        for k in range(streams + 1):
            ax.axvline(k * n - 0.5, color="0.8", lw=0.8, zorder=0)
        ax.set_yscale("log")
        ax.set_ylabel("gap after packet (us)")
        name = res["capture"].rsplit("/", 1)[-1]
        name = name[:-5] if name.endswith(".pcap") else name
        ax.set_title(f"{name}: r_avg {res['rate_kbps'] / 1000:g} Mbit/s, N={n}, m={res['m']}: "
                     f"{100 * res['within10']:.1f}% of {res['packets']} gaps within 10%, "
                     f"long-run {res['long_run_mbps']:.2f} Mbit/s", fontsize=10)
        ax.legend(loc="upper right", fontsize=8)
    axes[-1, 0].set_xlabel(f"packet number from a stream start ({streams} p-streams; "
                           "grey lines: stream boundaries)")
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("captures", nargs="+", metavar="CAPTURE[:RATE_KBPS]")
    ap.add_argument("--rate-kbps", type=int, help="r_avg for captures without :RATE")
    ap.add_argument("--n", type=int, default=30, help="p-stream length N (default 30)")
    ap.add_argument("--m", type=float, default=1.07, help="rate ratio m (default 1.07)")
    ap.add_argument("--skip", type=int, default=100,
                    help="new data segments to skip at the start (default 100)")
    ap.add_argument("--block", type=int, default=10,
                    help="streams per phase block (default 10)")
    ap.add_argument("--max-packets", type=int, help="analyse at most this many gaps")
    ap.add_argument("--dport", type=int, help="only the flow to this port")
    ap.add_argument("--json", help="write the results (a list) here")
    ap.add_argument("--kv", help="write 'NAME.key value' lines here")
    ap.add_argument("--plot", help="PNG of intended vs actual gaps")
    ap.add_argument("--plot-streams", type=int, default=4)
    a = ap.parse_args()
    if a.n < 3 or a.m <= 1:
        ap.error("--n >= 3 and --m > 1")

    results = []
    for spec in a.captures:
        path, _, rate = spec.rpartition(":") if ":" in spec else (spec, "", "")
        rate_kbps = int(rate) if rate else a.rate_kbps
        if not rate_kbps:
            ap.error(f"{spec}: no rate (CAPTURE:RATE_KBPS or --rate-kbps)")
        try:
            res, arr = analyse(path, rate_kbps, a.n, a.m, a.skip, a.block,
                               a.dport, a.max_packets)
        except (OSError, ValueError) as e:
            print(f"rapid_gaps: {e}", file=sys.stderr)
            return 1
        results.append((res, arr))
        print(f"{path}: r_avg {rate_kbps / 1000:g} Mbit/s, {res['packets']} gaps "
              f"({res['streams']} streams, {res['phase_changes']} phase changes, "
              f"{res['pure_acks']} pure ACKs, payload {res['payload_p50']} bytes)")
        if res["retransmissions"]:
            print(f"  {res['retransmissions']} retransmissions: gap after them / (P / r_avg) "
                  f"p50 {res['retx_gap_p50']}, {100 * res['retx_gap_within10']:.0f}% within 10%")
        print(f"  within 10%: {100 * res['within10']:.1f}%  (5 fastest gaps: "
              f"{100 * (res['within10_top'] or 0):.1f}%)  actual/intended p5/p50/p95: "
              f"{res['ratio_p5']}/{res['ratio_p50']}/{res['ratio_p95']}")
        print(f"  departure time error within streams p50/p95/p99: {res['dep_err_us_p50']}/"
              f"{res['dep_err_us_p95']}/{res['dep_err_us_p99']} us")
        print(f"  m on the wire p5/p50/p95: {res['m_est_p5']}/{res['m_est_p50']}/"
              f"{res['m_est_p95']}; rates rise in {100 * (res['rising'] or 0):.1f}% of streams")
        print(f"  stream average / r_avg p5/p50/p95: {res['stream_avg_p5']}/"
              f"{res['stream_avg_p50']}/{res['stream_avg_p95']}; long run "
              f"{res['long_run_mbps']} Mbit/s = {res['long_run']:.4f} r_avg over {res['span_s']} s")
    if a.json:
        with open(a.json, "w") as f:
            json.dump([r for r, _ in results], f, indent=1)
    if a.kv:
        with open(a.kv, "w") as f:
            for r, _ in results:
                write_kv(f, r)
    if a.plot:
        plot(results, a.plot, a.plot_streams)
    return 0


if __name__ == "__main__":
    sys.exit(main())
