#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lab-time: 437 (host seconds under TCG, precise clock, measured in
# `tests/run.sh --vm-only` of 2026-12-02, two boots at once, on a host
# whose page cache held next to nothing: tests/run.sh balances its
# parallel boots with it)
# lab-k7: yes (also runs in the 7.x boot)
#
# The RAPID receiver helper (tcp_rapid_rx) in the kernel:
#  - loads and unloads cleanly, its parameters are bounded;
#  - a non-RAPID flow (cubic) through a receiver that has it loaded is left
#    alone: no option on its ACKs, no state, valid checksums;
#  - end to end with the lab marker (mark_tx_port: the sender host marks a
#    plain TCP socket's data as RAPID's sender would, including the MSS
#    reduction): the receiver records streams, analyses them and appends
#    the feedback option to pure ACKs, for IPv4 and IPv6, with transmit
#    checksum offload OFF on the veths (so every checksum is computed in
#    software and verified by the peer: TcpInCsumErrors stays 0, and an
#    independent checksum check of the captured packets passes);
#  - loss, a path MTU below the peer's MSS, idle eviction, the flow cap,
#    crafted malformed options, unload with live flows.
. "$LAB_TOP/tests/vm/lib.sh"

PY=$LAB_PY
KO=$LAB_MODDIR/tcp_rapid_rx.ko
P=/sys/module/tcp_rapid_rx/parameters

# --- helpers ----------------------------------------------------------------

# pcap analyser: checksums of every IPv4/IPv6 TCP packet (computed here,
# independently of the kernel), RAPID options on data and ACKs.
cat >"$KT_TMP/pcap_tcp.py" <<'EOF'
import json, struct, sys

from tests.vm.crafted import ones_sum as csum  # PYTHONPATH: the top (lib.sh)

def packets(path):
    with open(path, "rb") as f:
        hdr = f.read(24)
        magic, = struct.unpack("<I", hdr[:4])
        e = "<" if magic in (0xa1b2c3d4, 0xa1b23c4d) else ">"
        link, = struct.unpack(e + "I", hdr[20:24])
        while True:
            ph = f.read(16)
            if len(ph) < 16:
                return
            _, _, incl, _ = struct.unpack(e + "IIII", ph)
            yield link, bytearray(f.read(incl))

def options(opt):
    out, i = [], 0
    while i < len(opt):
        k = opt[i]
        if k == 0:
            break
        if k == 1:
            out.append((1, 1, b"")); i += 1; continue
        if i + 1 >= len(opt) or opt[i + 1] < 2:
            out.append((k, -1, b"")); break
        n = opt[i + 1]
        out.append((k, n, bytes(opt[i + 2:i + n]))); i += n
    return out

def main():
    # data: segments towards port (dport == port); ACKs: from it (sport == port)
    # pcap_tcp.py PCAP PORT [IPERF_JSON|-] [CORRUPT_NTH]
    path, port = sys.argv[1], int(sys.argv[2])
    iperf = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] != "-" else None
    corrupt = int(sys.argv[4]) if len(sys.argv) > 4 else -1
    r = dict(tcp=0, bad_tcp_csum=0, bad_ip_csum=0, snaplen_short=0, data=0,
             data_dopt=0, acks=0, acks_fb=0, any_253=0, dopt_bad=0,
             ack_layouts=[], max_doff=0, fb_max_doff=0, fb_share=0.0,
             fb_with_sack=0, sack_bad=0)
    last = {}
    conn = {}       # client port -> [ACKs from the first feedback on, with it, without it
                    #                 despite room, client FIN seen]
    fb = []
    layouts = set()
    marked_sizes = []
    for link, p in packets(path):
        off = 14 if link == 1 else 16 if link == 113 else 0
        ip = p[off:]
        if ip[0] >> 4 == 4:
            ihl = (ip[0] & 15) * 4
            if ip[9] != 6:
                continue
            tot = struct.unpack("!H", ip[2:4])[0]
            if len(ip) < tot:
                r["snaplen_short"] += 1; continue
            if csum(bytes(ip[:ihl])) != 0xffff:
                r["bad_ip_csum"] += 1
            seg = ip[ihl:tot]
            pseudo = ip[12:20] + struct.pack("!BBH", 0, 6, len(seg))
        elif ip[0] >> 4 == 6:
            if ip[6] != 6:
                continue
            plen = struct.unpack("!H", ip[4:6])[0]
            if len(ip) < 40 + plen:
                r["snaplen_short"] += 1; continue
            seg = ip[40:40 + plen]
            pseudo = ip[8:40] + struct.pack("!IxxxB", len(seg), 6)
        else:
            continue
        sport, dport = struct.unpack("!HH", seg[:4])
        if port not in (sport, dport):
            continue
        r["tcp"] += 1
        if r["tcp"] == corrupt:
            seg[-1] ^= 0x5a
        if csum(bytes(pseudo) + bytes(seg)) != 0xffff:
            r["bad_tcp_csum"] += 1
        doff = (seg[12] >> 4) * 4
        flags = seg[13]
        r["max_doff"] = max(r["max_doff"], doff // 4)
        opts = options(seg[20:doff])
        payload = len(seg) - doff
        if any(k == 253 for k, _, _ in opts):
            r["any_253"] += 1
        if dport == port and flags & 0x01:
            conn.setdefault(sport, [0, 0, 0, 0])[3] = 1     # client's FIN
        if payload and dport == port:
            r["data"] += 1
            r["max_payload"] = max(r.get("max_payload", 0), payload)
            for k, n, d in opts:
                if k == 253 and n == 12 and d[:2] == b"RD":
                    sid, idx, nn, tx = struct.unpack("!HBBI", d[2:])
                    r["data_dopt"] += 1
                    marked_sizes.append(payload)
                    # the marker numbers new data only: strictly increasing
                    if nn != 30 or idx >= nn or (sid, idx) <= last.get(sport, (-1, -1)):
                        r["dopt_bad"] += 1
                    last[sport] = (sid, idx)
        elif not payload and sport == port and not flags & 0x07:
            r["acks"] += 1
            layouts.add(",".join(str(k) for k, _, _ in opts))
            has = 0
            for k, n, d in opts:
                if k == 253 and n == 8 and d[:2] == b"RA":
                    sid, word = struct.unpack("!HH", d[2:])
                    e, m = (word >> 8) & 31, word & 255
                    rate = m if not e else (256 + m) << (e - 1)
                    r["acks_fb"] += 1
                    r["fb_max_doff"] = max(r["fb_max_doff"], doff // 4)
                    fb.append((dport, sid, word >> 14, (word >> 13) & 1, rate))
                    has = 1
            # a SACK option beside the result: whole blocks, left < right
            for k, n, d in opts:
                if k == 5 and has:
                    r["fb_with_sack"] += 1
                    if n < 10 or (n - 2) % 8 or any(
                            struct.unpack("!II", d[i:i + 8])[0] >=
                            struct.unpack("!II", d[i:i + 8])[1]
                            for i in range(0, n - 2, 8)):
                        r["sack_bad"] += 1
            c = conn.setdefault(dport, [0, 0, 0, 0])
            if (has or c[0]) and not c[3]:
                c[0] += 1
                c[1] += has
                # an ACK with room (doff <= 13) that went without
                c[2] += not has and doff // 4 <= 13
    r["ack_layouts"] = sorted(layouts)
    r["tail_max_marked"] = max(marked_sizes[-300:], default=0)
    rules = [f[2] for f in fb]
    r["fb_rules"] = {str(k): rules.count(k) for k in range(4)}
    r["fb_streams"] = len(set(f[:2] for f in fb))
    shares = [c[1] / c[0] for c in conn.values() if c[0] >= 20]
    r["fb_share"] = round(max(shares), 3) if shares else 0.0
    r["fb_missed_with_room"] = sum(c[2] for c in conn.values())
    est = sorted(f[4] for f in fb if f[2])
    r["fb_abest_median_mbit"] = round(est[len(est) // 2] * 8 / 1e6, 2) if est else 0
    r["bad_csums"] = r["bad_tcp_csum"] + r["bad_ip_csum"] + r["snaplen_short"]
    r["unmarked"] = r["data"] - r["data_dopt"]
    r["fb_per_stream"] = round(r["acks_fb"] / max(r["fb_streams"], 1), 3)
    r["ack_layouts"] = ";".join(r["ack_layouts"]) or "-"
    r["fb_rules"] = ",".join("%s:%d" % kv for kv in r["fb_rules"].items())
    if iperf:
        t = open(iperf).read()
        d = json.loads(t[t.index("{"):])
        r["mbit"] = round(d["end"]["sum_received"]["bits_per_second"] / 1e6, 1)
        r["retransmits"] = d["end"]["sum_sent"].get("retransmits", 0)
    for k, v in r.items():
        print(k, v)

main()
EOF

# v FILE KEY: a value from an analyser output ("key value" lines)
v() { awk -v k="$2" '$1 == k { print $2 }' "$1"; }
# csum_errors NS: TcpInCsumErrors of a namespace (absolute; new netns start at 0)
csum_errors() { lab_ns "$1" nstat -asz TcpInCsumErrors | awk '/TcpInCsumErrors/ { print $2 }'; }

# capture NS DEV FILE PORT: tcpdump in the background, full packets
capture() {
	lab_ns "$1" tcpdump -i "$2" -s 0 -c 3000 -U -w "$3" "tcp port $4" >/dev/null 2>&1 &
	CAP_PID=$!
	sleep 0.7
}
capture_stop() { sleep 0.5; kill -TERM "$CAP_PID" 2>/dev/null; wait "$CAP_PID" 2>/dev/null; }

# --- module: load, unload, parameters ---------------------------------------

kt_check "modinfo tcp_rapid_rx has a description and license GPL" \
	bash -c "modinfo $KO | grep -q '^description:' && modinfo -F license $KO | grep -qx GPL"
if [ -d /sys/module/tcp_rapid_rx ]; then
	kt_check "rmmod tcp_rapid_rx (loaded by lab-run, no flows)" rmmod tcp_rapid_rx
fi
kt_check_not "insmod max_flows=0 is refused" insmod "$KO" max_flows=0
kt_check "the refusal names the parameter and its range" \
	bash -c "dmesg | tail -n 5 | grep -q 'max_flows=0 refused: must be in \[1, 65536\]'"
kt_check_not "insmod f_milli=999 is refused" insmod "$KO" f_milli=999
kt_check_not "insmod stats=1 is refused (read-only)" insmod "$KO" stats=1
kt_check "insmod tcp_rapid_rx with valid parameters" insmod "$KO" idle_ms=10000 min_pkts=3
kt_check_not "writing min_pkts=1 is refused" bash -c "echo 1 > $P/min_pkts"
kt_check_not "writing recv_gap_min_ns=1000001 is refused" bash -c "echo 1000001 > $P/recv_gap_min_ns"
kt_check_not "writing mark_tx_port=65536 is refused" bash -c "echo 65536 > $P/mark_tx_port"
kt_check_not "writing idle_ms=99 is refused" bash -c "echo 99 > $P/idle_ms"
kt_check "min_pkts still 3 after the refused write" grep -qx 3 "$P/min_pkts"
kt_check "writing recv_gap_min_ns=0 (off) is accepted" \
	bash -c "echo 0 > $P/recv_gap_min_ns && grep -qx 0 $P/recv_gap_min_ns"
echo 1000 >"$P/recv_gap_min_ns"
kt_check "stats lists every counter, all zero after load" \
	bash -c "[ \$(wc -l < $P/stats) = 22 ] && ! awk '\$2 != 0' $P/stats | grep -q ."
kt_check "unload and reload while namespaces exist" \
	bash -c "ip netns add kt-rx-$$ && rmmod tcp_rapid_rx && insmod $KO &&
		 ip netns exec kt-rx-$$ cat /proc/net/rapid_rx | grep -q '^# flows 0'; r=\$?;
		 ip netns del kt-rx-$$; exit \$r"

# --- topology: checksums in software on every veth end ----------------------
lab_dumbbell --rate 50mbit --rtt 10
snd=${LAB_SND[0]}
lab_ns "$snd" ethtool -K eth0 tx off >/dev/null
lab_ns "$LAB_RTR" ethtool -K s1 tx off >/dev/null
lab_ns "$LAB_RTR" ethtool -K bn0 tx off >/dev/null
lab_ns "$LAB_DLY" ethtool -K up0 tx off >/dev/null
lab_ns "$LAB_DLY" ethtool -K dn0 tx off >/dev/null
lab_ns "$LAB_RCV" ethtool -K eth0 tx off >/dev/null
kt_check "transmit checksum offload is off on sender and receiver" \
	bash -c "ip netns exec $snd ethtool -k eth0 | grep -q 'tx-checksumming: off' &&
		 ip netns exec $LAB_RCV ethtool -k eth0 | grep -q 'tx-checksumming: off'"

# pcap self-test: the analyser catches one corrupted byte.
lab_iperf_server "$LAB_RCV" 5600
capture "$snd" eth0 "$KT_TMP/self.pcap" 5600
lab_iperf "$snd" "$LAB_RCV4" 5600 1 cubic "$KT_TMP/self.json"
capture_stop
$PY "$KT_TMP/pcap_tcp.py" "$KT_TMP/self.pcap" 5600 - >"$KT_TMP/self.clean"
$PY "$KT_TMP/pcap_tcp.py" "$KT_TMP/self.pcap" 5600 - 40 >"$KT_TMP/self.bad"
kt_cmp "pcap checker: an untouched cubic capture verifies (bad checksums)" \
	"$(v "$KT_TMP/self.clean" bad_csums)" "==" 0
kt_cmp "pcap checker: ... on enough packets" "$(v "$KT_TMP/self.clean" tcp)" ">" 50
kt_cmp "pcap checker: one flipped byte is caught (bad checksums)" \
	"$(v "$KT_TMP/self.bad" bad_tcp_csum)" "==" 1

# --- a non-RAPID flow is left alone -----------------------------------------
# plain_run FAMILY PORT TAG: a cubic transfer with capture at the receiver.
plain_run() {
	local fam=$1 port=$2 tag=$3 dst=$LAB_RCV4
	[ "$fam" = 6 ] && dst=$LAB_RCV6
	lab_iperf_server "$LAB_RCV" "$port"
	capture "$LAB_RCV" eth0 "$KT_TMP/$tag.pcap" "$port"
	lab_iperf "$snd" "$dst" "$port" 1 cubic "$KT_TMP/$tag.json"
	capture_stop
	$PY "$KT_TMP/pcap_tcp.py" "$KT_TMP/$tag.pcap" "$port" "$KT_TMP/$tag.json" >"$KT_TMP/$tag.sum"
	kt_diag "$tag: $(tr '\n' ' ' <"$KT_TMP/$tag.sum")"
}
plain_run 4 5601 plain4
plain_run 6 5602 plain6
for fam in 4 6; do
	s=$KT_TMP/plain$fam.sum
	# In the precise clock the guest keeps up with the 50 Mbit/s link
	# (45.9-46.5 Mbit/s measured, 2026-11-26): a helper that slowed the
	# receive path, or dropped segments, shows here.  (1 Mbit/s was the
	# fast clock's bound, where the guest's CPU limited the transfer.)
	kt_cmp "cubic IPv$fam with the helper loaded: transfer at 70% of the link or more (Mbit/s)" \
		"$(v "$s" mbit)" ">" 35
	kt_cmp "cubic IPv$fam: pure ACKs captured at the receiver" "$(v "$s" acks)" ">" 100
	kt_cmp "cubic IPv$fam: no packet carries kind 253" "$(v "$s" any_253)" "==" 0
	kt_cmp "cubic IPv$fam: every TCP/IP checksum valid (software checksums)" \
		"$(v "$s" bad_csums)" "==" 0
done
kt_cmp "cubic: the helper created no flow and touched no packet" \
	"$(( $(kt_modstat tcp_rapid_rx flows_new) + $(kt_modstat tcp_rapid_rx feedback) + $(kt_modstat tcp_rapid_rx no_room) + $(kt_modstat tcp_rapid_rx add_failed) + $(kt_modstat tcp_rapid_rx pkts) + $(kt_modstat tcp_rapid_rx marked) ))" "==" 0
# The same flow without the helper: the same ACK option layouts.
rmmod tcp_rapid_rx
plain_run 4 5603 bare4
insmod "$KO"
l_with=$(v "$KT_TMP/plain4.sum" ack_layouts)
l_bare=$(v "$KT_TMP/bare4.sum" ack_layouts)
if [ "$l_with" = "$l_bare" ] && [ -n "$l_bare" ]; then
	kt_ok "cubic: ACK option layouts identical with and without the helper ($l_bare)"
else
	kt_fail "cubic: ACK option layouts with the helper '$l_with', without '$l_bare'"
fi
kt_cmp "cubic: no TcpInCsumErrors at the receiver" "$(csum_errors "$LAB_RCV")" "==" 0
kt_cmp "cubic: no TcpInCsumErrors at the sender" "$(csum_errors "$snd")" "==" 0

# --- end to end with the lab marker ------------------------------------------
# marked_run FAMILY PORT TAG SECONDS [iperf3 args]: a cubic transfer whose
# data the sender host marks; capture at the sender (marked data out,
# feedback in).
marked_run() {
	local fam=$1 port=$2 tag=$3 secs=$4 dst=$LAB_RCV4
	shift 4
	[ "$fam" = 6 ] && dst=$LAB_RCV6
	echo "$port" >"$P/mark_tx_port"
	stat_before=$(cat "$P/stats")
	lab_iperf_server "$LAB_RCV" "$port"
	capture "$snd" eth0 "$KT_TMP/$tag.pcap" "$port"
	lab_iperf "$snd" "$dst" "$port" "$secs" cubic "$KT_TMP/$tag.json" "$@"
	capture_stop
	echo 0 >"$P/mark_tx_port"
	$PY "$KT_TMP/pcap_tcp.py" "$KT_TMP/$tag.pcap" "$port" "$KT_TMP/$tag.json" >"$KT_TMP/$tag.sum"
	kt_diag "$tag: $(tr '\n' ' ' <"$KT_TMP/$tag.sum")"
	# counter deltas of this run
	awk 'NR == FNR { b[$1] = $2; next } { print $1, $2 - b[$1] }' \
		<(echo "$stat_before") "$P/stats" >"$KT_TMP/$tag.delta"
	kt_diag "$tag: counters $(tr '\n' ' ' <"$KT_TMP/$tag.delta")"
}
d() { awk -v n="$2" '$1 == n { print $2 }' "$KT_TMP/$1.delta"; }

marked_run 4 5611 mark4 2
marked_run 6 5612 mark6 2
for fam in 4 6; do
	t=mark$fam s=$KT_TMP/mark$fam.sum
	mss_want=1436
	[ $fam = 6 ] && mss_want=1416
	kt_cmp "marked IPv$fam: transfer at 70% of the link or more (46.0-46.7 measured; Mbit/s)" \
		"$(v "$s" mbit)" ">" 35
	kt_cmp "marked IPv$fam: the sender's MSS made room for the 12-byte option (largest payload)" \
		"$(v "$s" max_payload)" "==" "$mss_want"
	kt_cmp "marked IPv$fam: data segments marked" "$(d $t marked)" ">" 500
	kt_cmp "marked IPv$fam: no marking refused (full-size segments fit)" "$(d $t mark_failed)" "==" 0
	kt_cmp "marked IPv$fam: captured data carrying the data option" "$(v "$s" data_dopt)" ">" 500
	kt_cmp "marked IPv$fam: unmarked data segments are retransmissions (count)" \
		"$(v "$s" unmarked)" "<=" "$(( $(v "$s" retransmits) + 2 ))"
	kt_cmp "marked IPv$fam: option fields as the marker wrote them (N = 30, increasing)" \
		"$(v "$s" dopt_bad)" "==" 0
	kt_cmp "marked IPv$fam: the receiver recorded marked packets" "$(d $t pkts)" ">" 500
	kt_cmp "marked IPv$fam: streams analysed" "$(d $t streams)" ">" 15
	kt_cmp "marked IPv$fam: streams that gave an estimate" "$(d $t estimates)" ">" 10
	kt_cmp "marked IPv$fam: feedback options appended" "$(d $t feedback)" ">" 15
	kt_cmp "marked IPv$fam: feedback seen on the sender's side (ACKs)" "$(v "$s" acks_fb)" ">" 15
	kt_cmp "marked IPv$fam: feedback for distinct streams" "$(v "$s" fb_streams)" ">" 10
	kt_cmp "marked IPv$fam: at most feedback_acks (4) ACKs per stream" \
		"$(v "$s" fb_per_stream)" "<=" 4
	kt_cmp "marked IPv$fam: every checksum valid in the capture (data and ACKs)" \
		"$(v "$s" bad_csums)" "==" 0
	# the control connection idles through the transfer: on a slow host
	# idle_ms may evict its flow, and its closing data creates it anew
	kt_cmp "marked IPv$fam: one flow per connection (iperf3: control + data; re-creations after idle eviction aside)" \
		"$(( $(d $t flows_new) - $(d $t flows_evicted) ))" "==" 2
	kt_cmp "marked IPv$fam: both closed by FIN/RST afterwards" "$(d $t flows_closed)" "==" 2
done
kt_cmp "marked: no TcpInCsumErrors at the receiver (marked data)" "$(csum_errors "$LAB_RCV")" "==" 0
kt_cmp "marked: no TcpInCsumErrors at the sender (feedback ACKs)" "$(csum_errors "$snd")" "==" 0
kt_cmp "marked: every flow gone after the transfers" "$(kt_modstat tcp_rapid_rx flows)" "==" 0

# --- the offline tools on a real capture -------------------------------------
# The receiver-side capture of a marked flow, converted to a trace
# (scripts/rapid/pcap2trace.py) and analysed by build/rapid-trace with the
# helper's parameters, gives each stream the estimate the helper fed back:
# the same analysis (rapid_chirp.h) of the same packets, only the arrival
# stamps come from the capture tap instead of the helper's hook a few
# microseconds later.  IPv6 here, the option bytes as the kernel wrote them.
VPY=$(bash "$LAB_TOP/scripts/lab/setup.sh" --print-env | sed -n 's/^LAB_VENV=//p')/bin/python
CLI=$LAB_TOP/build/rapid-trace
echo 5617 >"$P/mark_tx_port"
lab_iperf_server "$LAB_RCV" 5617
capture "$LAB_RCV" eth0 "$KT_TMP/off6.pcap" 5617
lab_iperf "$snd" "$LAB_RCV6" 5617 1 cubic "$KT_TMP/off6.json"
capture_stop
echo 0 >"$P/mark_tx_port"
kt_check "converter: receiver capture -> trace" \
	"$VPY" "$LAB_TOP/scripts/rapid/pcap2trace.py" --stats --port 5617 \
	"$KT_TMP/off6.pcap" -o "$KT_TMP/off6.trace"
kt_diag "converter: $(cat "$KT_TMP/off6.trace" | head -n 1)"
opts="-F $(awk '{ printf "%.3f", $1 / 1000 }' "$P/f_milli") -L $(cat "$P/min_excursion")"
opts="$opts -g $(cat "$P/recv_gap_min_ns") -m $(cat "$P/min_pkts") -n $(cat "$P/q_noise_ns") -j $(cat "$P/noise_mult")"
kt_check "rapid-trace analyses the converted trace with the helper's parameters ($opts)" \
	bash -c "$CLI $opts $KT_TMP/off6.trace >$KT_TMP/off6.out"
# per stream with feedback: CLI ABest, helper ABest (columns 4 and fb=)
awk '/fb=/ { for (i = 6; i <= NF; i++) if ($i ~ /^fb=/) { split(substr($i, 4), f, "/");
	print $1, $4, $5, f[1], f[2] } }' "$KT_TMP/off6.out" >"$KT_TMP/off6.cmp"
kt_diag "offline vs helper: $(awk '{ n++; if ($3 == $5) r++;
	if ($4 > 0 && ($2 - $4) / $4 < 0.05 && ($4 - $2) / $4 < 0.05) a++ }
	END { printf "%d streams with feedback, same rule %d, ABest within 5%% %d", n, r, a }' "$KT_TMP/off6.cmp")"
kt_cmp "offline: streams with the helper's feedback in the capture" \
	"$(wc -l <"$KT_TMP/off6.cmp")" ">" 10
# (measured: 55 of 55 with the same rule, 50 within 5%; a converter that
# misplaced stamps or indices would agree on next to none)
kt_cmp "offline: share of them where rapid-trace and the helper agree (same rule, ABest within 5%)" \
	"$(awk '{ n++; if ($3 == $5 && $4 > 0 && ($2 - $4) / $4 < 0.05 && ($4 - $2) / $4 < 0.05) a++ }
		END { printf "%.2f\n", n ? a / n : 0 }' "$KT_TMP/off6.cmp")" ">=" 0.7

# feedback_acks=0: every pure ACK carries the latest result.
echo 0 >"$P/feedback_acks"
marked_run 4 5613 every4 1
echo 4 >"$P/feedback_acks"
# (ACKs whose SACK blocks fill the header cannot carry it: how many depends
# on the loss the run happened to see; the next check is the strict one)
kt_cmp "feedback_acks=0: most pure ACKs after the first result carry one (share)" \
	"$(v "$KT_TMP/every4.sum" fb_share)" ">=" 0.5
kt_cmp "feedback_acks=0: the ACKs without it had no room (doff 14, 15)" \
	"$(v "$KT_TMP/every4.sum" fb_missed_with_room)" "==" 0

# --- loss: SACK-laden ACKs, truncated streams -------------------------------
lab_set_data_netem "loss 2%"
marked_run 4 5614 lossy4 2
lab_set_data_netem ""
s=$KT_TMP/lossy4.sum
# (cubic through 2% random loss at 10 ms: 7.0 and 8.5 Mbit/s measured in
# 2 s, Mathis' 1.22 MSS / (RTT sqrt(p)) gives 10)
kt_cmp "2% loss: transfer moved at least 4 Mbit/s" \
	"$(v "$s" mbit)" ">" 4
kt_cmp "2% loss: some streams were truncated by holes" "$(d lossy4 truncated)" ">" 0
kt_cmp "2% loss: feedback still appended" "$(d lossy4 feedback)" ">" 5
kt_cmp "2% loss: every checksum valid (SACK ACKs with feedback)" \
	"$(v "$s" bad_csums)" "==" 0
kt_cmp "2% loss: no ACK header beyond 60 bytes (doff words)" "$(v "$s" max_doff)" "<=" 15
kt_diag "2% loss: feedback on ACKs up to doff $(v "$s" fb_max_doff), no_room $(d lossy4 no_room)"
kt_cmp "2% loss: no TcpInCsumErrors (receiver + sender)" \
	"$(( $(csum_errors "$LAB_RCV") + $(csum_errors "$snd") ))" "==" 0

# --- reordering: streams recorded in any order (reorder=1) -----------------
# netem's reorder sends 10% of the packets without the 2 ms delay: each one
# overtakes the packets before it.  With reorder=0 (the old rule) a stream
# stopped at its first overtaking packet, and a packet that overtook the
# stream before it closed that stream; reorder=1 records them in any order.
lab_set_data_netem "delay 2ms reorder 10%"
echo 0 >"$P/reorder"
marked_run 4 5616 reo0 2
echo 1 >"$P/reorder"
marked_run 4 5617 reo1 2
lab_set_data_netem ""
share() { awk -v t="$(d "$1" truncated)" -v s="$(d "$1" streams)" \
	'BEGIN { printf "%.2f\n", s ? t / s : 1 }'; }
kt_diag "reorder 10%: truncated streams reorder=0 $(d reo0 truncated)/$(d reo0 streams), reorder=1 $(d reo1 truncated)/$(d reo1 streams); reordered $(d reo1 reordered), held $(d reo1 early)"
kt_cmp "reorder 10%, reorder=0 (control): most streams cut short (share)" "$(share reo0)" ">" 0.5
kt_cmp "reorder 10%, reorder=1: packets recorded out of order" "$(d reo1 reordered)" ">" 20
kt_cmp "reorder 10%, reorder=1: packets of the next stream held" "$(d reo1 early)" ">" 5
kt_cmp "reorder 10%, reorder=1: few streams cut short (share)" "$(share reo1)" "<" 0.2
kt_cmp "reorder 10%, reorder=1: streams analysed" "$(d reo1 streams)" ">" 15
kt_cmp "reorder 10%, reorder=1: streams that gave an estimate" "$(d reo1 estimates)" ">" 10

# --- full options: the result in place of a SACK block (sack_trade) --------
# On a path that reorders most pure ACKs carry timestamps and three SACK
# blocks: 40 bytes, no room for the 8-byte result.  sack_trade=1 gives up
# the SACK option's last (oldest) block for it.
lab_set_data_netem "delay 2ms reorder 25%"
echo 0 >"$P/sack_trade"
marked_run 4 5618 trade0 3
echo 1 >"$P/sack_trade"
marked_run 4 5619 trade1 3
lab_set_data_netem ""
kt_diag "reorder 25%: feedback options sack_trade=0 $(d trade0 feedback), =1 $(d trade1 feedback); no room $(d trade0 no_room) / $(d trade1 no_room); traded $(d trade1 sack_traded)"
kt_cmp "reorder 25%, sack_trade=0 (control): ACKs skipped for want of room" "$(d trade0 no_room)" ">" 50
kt_cmp "reorder 25%, sack_trade=0: no SACK block given up" "$(d trade0 sack_traded)" "==" 0
kt_cmp "reorder 25%, sack_trade=1: results in place of a SACK block" "$(d trade1 sack_traded)" ">" 50
kt_cmp "reorder 25%, sack_trade=1: (almost) no ACK skipped for want of room" "$(d trade1 no_room)" "<=" 5
kt_cmp "reorder 25%, sack_trade=1: ACKs with a result and a SACK option (captured)" \
	"$(v "$KT_TMP/trade1.sum" fb_with_sack)" ">" 20
kt_cmp "reorder 25%, sack_trade=1: those SACK options are whole, valid blocks" \
	"$(v "$KT_TMP/trade1.sum" sack_bad)" "==" 0
kt_cmp "reorder 25%, sack_trade=1: every checksum valid" "$(v "$KT_TMP/trade1.sum" bad_csums)" "==" 0
kt_cmp "reorder 25%, sack_trade=1: no TcpInCsumErrors (receiver + sender)" \
	"$(( $(csum_errors "$LAB_RCV") + $(csum_errors "$snd") ))" "==" 0

# --- path MTU below the peer's MSS: the sender keeps room for the option ----
# The first full-size segments hit a 1400-byte link; after PMTU discovery
# TCP sizes segments to the path MTU again (tcp_sync_mss(), the clamp is
# not the limit) and the marker has to refit (rapid_tcp_fit_opt_space()).
ip -n "$LAB_RTR" link set bn0 mtu 1400
ip -n "$LAB_DLY" link set up0 mtu 1400
marked_run 4 5615 pmtu4 2
ip -n "$LAB_RTR" link set bn0 mtu 1500
ip -n "$LAB_DLY" link set up0 mtu 1500
kt_cmp "PMTU 1400: marked segments keep 12 bytes of room under it (largest payload, last 300)" \
	"$(v "$KT_TMP/pmtu4.sum" tail_max_marked)" "==" 1336
kt_cmp "PMTU 1400: data segments marked" "$(d pmtu4 marked)" ">" 300
kt_cmp "PMTU 1400: few markings refused (segments sized before the refit)" \
	"$(d pmtu4 mark_failed)" "<=" 30
kt_cmp "PMTU 1400: feedback appended" "$(d pmtu4 feedback)" ">" 5
kt_cmp "PMTU 1400: every checksum valid" \
	"$(v "$KT_TMP/pmtu4.sum" bad_csums)" "==" 0

# --- flow table: idle eviction, cap, crafted options, unload with flows -----
# A sink that reads until the client closes.
SOCK=$LAB_TOP/tests/vm/cc_socket.py
lab_bg lab_ns "$LAB_RCV" $PY "$SOCK" --sink 5620
lab_wait_listen "$LAB_RCV" 5620 || kt_fail "the sink listens on port 5620"
echo 5620 >"$P/mark_tx_port"
echo 300 >"$P/idle_ms"
# a flow left over from the runs above goes first (a data segment that a
# reordering path delivered after the FIN re-creates one, idle since)
for _ in $(seq 1 100); do
	lab_ns "$LAB_RCV" grep -q '^# flows 0' /proc/net/rapid_rx && break
	sleep 0.1
done
b_ev=$(kt_modstat tcp_rapid_rx flows_evicted) b_cl=$(kt_modstat tcp_rapid_rx flows_closed)
# (held 30 s and closed once checked: the check below must see it open
# after the eviction, and the loop's execs cost seconds of guest time each
# on a loaded host (9p); a 6 s hold was too short once, 2026-11-26)
# (ip netns exec execs the client: $! is the client itself)
ip netns exec "$snd" $PY "$SOCK" --connect "$LAB_RCV4:5620" --send 2000000 --hold 30 >/dev/null &
hpid=$!
# flows in the receiver's table, every 50 ms, while the connection is open
f_max=0 f_gone=0
: >"$KT_TMP/idle.proc"
for _ in $(seq 1 60); do
	lab_ns "$LAB_RCV" cat /proc/net/rapid_rx >"$KT_TMP/idle.now"
	f=$(awk '/^# flows/ { print $3 }' "$KT_TMP/idle.now")
	[ "$f" -gt "$f_max" ] && f_max=$f
	[ "$f" = 1 ] && cp "$KT_TMP/idle.now" "$KT_TMP/idle.proc"
	if [ "$f_max" = 1 ] && [ "$f" = 0 ]; then f_gone=1; break; fi
	sleep 0.05
done
est=$(lab_ns "$snd" ss -tnH state established "dport = :5620" | wc -l)
kill $hpid 2>/dev/null
wait $hpid
kt_cmp "idle: the flow exists while data flows (flows in /proc)" "$f_max" "==" 1
kt_diag "idle: /proc/net/rapid_rx: $(tr '\n' '|' <"$KT_TMP/idle.proc")"
kt_check "idle: /proc/net/rapid_rx lists the flow (sender, receiver:5620, counts)" \
	grep -Eq "^${LAB_SND4[0]}:[0-9]+ $LAB_RCV4:5620 [0-9]+ [0-9]+ [0-9]+ [a-z-]+ [0-9]+ [01] [0-9]+ [0-9]+\$" "$KT_TMP/idle.proc"
kt_cmp "idle: it is gone after idle_ms=300 without data" "$f_gone" "==" 1
kt_cmp "idle: ... while the connection was still open" "$est" "==" 1
kt_cmp "idle: counted as an eviction" "$(( $(kt_modstat tcp_rapid_rx flows_evicted) - b_ev ))" "==" 1
kt_cmp "idle: the FIN later found no flow to close" "$(( $(kt_modstat tcp_rapid_rx flows_closed) - b_cl ))" "==" 0
echo 10000 >"$P/idle_ms"

echo 1 >"$P/max_flows"
b_ref=$(kt_modstat tcp_rapid_rx flows_refused)
for i in 1 2; do
	lab_ns "$snd" $PY "$SOCK" --connect "$LAB_RCV4:5620" --send 3000000 --hold 3 >/dev/null &
	eval "cpid$i=\$!"
done
f_cap=0
for _ in $(seq 1 60); do
	f=$(lab_ns "$LAB_RCV" awk '/^# flows/ { print $3 }' /proc/net/rapid_rx)
	[ "$f" -gt "$f_cap" ] && f_cap=$f
	[ "$(( $(kt_modstat tcp_rapid_rx flows_refused) - b_ref ))" -gt 0 ] && [ "$f_cap" -ge 1 ] && break
	sleep 0.05
done
kt_cmp "max_flows=1: one flow tracked with two marked connections" "$f_cap" "==" 1
kt_cmp "max_flows=1: the second flow was refused" "$(( $(kt_modstat tcp_rapid_rx flows_refused) - b_ref ))" ">" 0
# unload with a live flow, then the connections finish normally
kt_check "rmmod with live flows" rmmod tcp_rapid_rx
# shellcheck disable=SC2154
wait "$cpid1" && wait "$cpid2" && kt_ok "connections finish after the unload" ||
	kt_fail "connections finish after the unload"
kt_check "insmod again" insmod "$KO"

# Crafted segments (raw socket) with malformed data options: counted, no
# flow, no crash; a valid one without a connection leaves no state either.
b_bad=$(kt_modstat tcp_rapid_rx bad_opt) b_new=$(kt_modstat tcp_rapid_rx flows_new) b_nosk=$(kt_modstat tcp_rapid_rx no_socket)
lab_ns "$snd" $PY "$LAB_TOP/tests/vm/crafted.py" rx-options "${LAB_SND4[0]}" "$LAB_RCV4" 5620
sleep 0.5
kt_cmp "crafted: 6 malformed data options counted" "$(( $(kt_modstat tcp_rapid_rx bad_opt) - b_bad ))" "==" 6
lab_ns "$snd" $PY "$LAB_TOP/tests/vm/crafted.py" rx-options "${LAB_SND4[0]}" "$LAB_RCV4" 5620 valid
sleep 0.5
kt_cmp "crafted: a valid option for no connection is counted (no_socket)" \
	"$(( $(kt_modstat tcp_rapid_rx no_socket) - b_nosk ))" "==" 1
kt_cmp "crafted: no flow created by any of them" "$(( $(kt_modstat tcp_rapid_rx flows_new) - b_new ))" "==" 0
kt_cmp "crafted: no flow left" "$(kt_modstat tcp_rapid_rx flows)" "==" 0
echo 0 >"$P/mark_tx_port"
echo 1024 >"$P/max_flows"

kt_done
