#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lab-time: 95 (host seconds under TCG, precise clock, measured in
# `tests/run.sh --vm-only` of 2026-12-02, two boots at once, on a host
# whose page cache held next to nothing: tests/run.sh balances its
# parallel boots with it)
#
# Receive and send offloads with RAPID (docs/rapid-helper.md#gro), on a
# 50 Mbit/s, 20 ms path with tcp_rapid_rx on the receiver.
#  GRO: the receiver's veth with GRO on and its NAPI deferred by 500 us
#  (packets arrive in batches, as behind a NIC that coalesces interrupts,
#  so GRO has something to merge).  Receive skbs longer than 1600 bytes
#  are counted at the net:netif_receive_skb tracepoint (a hist trigger).
#   (1) a cubic flow's segments are merged (the control: GRO is working
#       and the count sees merges);
#   (2) a rapid flow's marked segments are not (each carries its own data
#       option, and GRO does not merge segments whose options differ): the
#       helper's "merged" counter stays where it was, the long skbs are
#       no more than the flow's retransmissions (which carry no data
#       option, so back-to-back ones may merge) can make, and the helper
#       still analyses the flow's streams.
#  TSO: the sender's eth0 with TSO and GSO on.  skbs handed to the device
#  (net:net_dev_queue, before any GSO split) longer than 3000 bytes:
#   (3) none from a rapid flow (one MSS per skb whatever the device
#       offers), some from a cubic flow on the same device.
. "$LAB_TOP/tests/vm/lib.sh"

kt_mount_tracefs || { kt_fail "tracefs mounts"; kt_done; }
T=/sys/kernel/tracing
lab_allow_cc rapid
lsmod | grep -q '^tcp_rapid_rx ' || insmod "$LAB_MODDIR/tcp_rapid_rx.ko" ||
	{ kt_fail "tcp_rapid_rx loads"; kt_done; }
stat() { kt_modstat tcp_rapid_rx "$1"; }
lab_dumbbell --rate 50mbit --rtt 20
snd=${LAB_SND[0]}
lab_rcv_gro on 500 || { kt_fail "GRO on at the receiver"; kt_done; }

# hits EVENT FILTER CC PORT SECONDS: a CC flow; prints "skbs bytes" of the
# EVENT (net/...) records matching FILTER during it (a hist trigger keyed
# on nothing but a constant: common_pid would split them).
hits() {
	local ev=$1 filt=$2 cc=$3 port=$4 secs=$5 h
	h="hist:keys=common_type:vals=hitcount,len if $filt"
	echo "$h" >"$T/events/$ev/trigger"
	lab_iperf_server "$LAB_RCV" "$port"
	lab_iperf "$snd" "$LAB_RCV4" "$port" "$secs" "$cc" "$KT_TMP/$cc-$port.json"
	sed -n 's/.*hitcount: *\([0-9]*\) *len: *\([0-9]*\).*/\1 \2/p' \
		"$T/events/$ev/hist" | head -n 1 | grep . || echo "0 0"
	echo "!$h" >>"$T/events/$ev/trigger"
}
# goodput FILE.json: Mbit/s received
goodput() {
	"$LAB_PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); print("%.1f" % (d["end"]["sum_received"]["bits_per_second"] / 1e6))' "$1" 2>/dev/null || echo 0
}

m0=$(stat merged) s0=$(stat streams) p0=$(stat pkts) x0=$(kt_retrans "$snd")
read -r r_skbs r_bytes < <(hits net/netif_receive_skb 'len > 1600' rapid 5601 3)
m1=$(stat merged) s1=$(stat streams) p1=$(stat pkts) x1=$(kt_retrans "$snd")
read -r c_skbs c_bytes < <(hits net/netif_receive_skb 'len > 1600' cubic 5602 2)
kt_diag "GRO on, NAPI deferred 500 us: rapid $(goodput "$KT_TMP/rapid-5601.json") Mbit/s, $r_skbs merged skbs ($r_bytes B), $((x1 - x0)) retransmitted segments, helper: $((p1 - p0)) marked packets, $((s1 - s0)) streams, merged $m0 -> $m1"
kt_diag "GRO on, NAPI deferred 500 us: cubic $(goodput "$KT_TMP/cubic-5602.json") Mbit/s, $c_skbs merged skbs ($c_bytes B)"
kt_cmp "GRO: a cubic flow's segments are merged (control)" "$c_skbs" ">=" 20
kt_cmp "GRO: no marked segment of the rapid flow merged (helper's counter)" "$((m1 - m0))" "==" 0
kt_cmp "GRO: long skbs of the rapid flow <= its retransmissions / 2" "$r_skbs" "<=" "$(((x1 - x0) / 2))"
kt_cmp "GRO: the helper analyses the rapid flow's streams" "$((s1 - s0))" ">=" 50

# The GRO part ran with the lab's default sender (TSO and GSO off): only
# the receiver's GRO made long skbs there.
lab_ns "$snd" ethtool -K eth0 tso on gso on >/dev/null ||
	{ kt_fail "TSO on at the sender"; kt_done; }
read -r r_skbs r_bytes < <(hits net/net_dev_queue 'len > 3000' rapid 5603 2)
read -r c_skbs c_bytes < <(hits net/net_dev_queue 'len > 3000' cubic 5604 2)
kt_diag "TSO on at the sender: skbs > 3000 B: rapid $r_skbs ($r_bytes B), cubic $c_skbs ($c_bytes B)"
kt_cmp "TSO: rapid's skbs stay one MSS" "$r_skbs" "==" 0
kt_cmp "TSO: cubic's skbs on the same device carry several MSS" "$c_skbs" ">=" 20
kt_done
