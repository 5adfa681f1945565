#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lab-time: 139 (host seconds under TCG, precise clock, measured in
# `tests/run.sh --vm-only` of 2026-12-02, two boots at once, on a host
# whose page cache held next to nothing: tests/run.sh balances its
# parallel boots with it)
#
# RAPID's parameters and its loss responses.  docs/rapid.md, "Loss responses":
#  - parameters out of range are refused, with a message;
#  - RTO: slow start again with N = 2, m = 2, r_1 = r_avg / 4, flag LOSS;
#    with ABest coming back (lab injection) slow start ends at it again;
#  - an isolated loss (one stream in ten) changes nothing;
#  - random loss (5%, no standing queue) changes nothing either, and is
#    counted as such (loss_random), also on a path that reorders, where
#    TCP's min RTT is the overtaking packets' (docs/rapid-deviations.md,
#    "The base RTT on a path that reorders");
#  - congestive loss in consecutive streams (the bottleneck drops to 5
#    Mbit/s under the 10 Mbit/s sender: its buffer fills, then overflows):
#    r_avg *= 0.7, one step at a time, the first within one RTT of the
#    first retransmission.
# The rate is set by the lab injection (inject_abest_kbps: slow start exits
# at it), then held (injection off: no ABest, no change) so that only the
# loss responses move it.  For that the loss part runs on a module loaded
# with sender_estimate=0 mark_data=0: no sender-side estimate and, with
# unmarked data, no receiver feedback (tcp_rapid_rx is loaded in the lab),
# so the injection is the only ABest.  get_info is sampled by the sender
# itself (tests/vm/rapid_probe.py) every 10 ms.
. "$LAB_TOP/tests/vm/lib.sh"
PY=$LAB_PY	# stdlib only (scripts/lab/topology.sh)
. "$LAB_TOP/tests/vm/lib-rapid.sh"

# --- parameters --------------------------------------------------------------
rapid_reload || { kt_fail "reload tcp_rapid"; kt_done; }
rmmod tcp_rapid
kt_check_not "insmod tcp_rapid n=1 is refused" insmod "$LAB_MODDIR/tcp_rapid.ko" n=1
kt_check "the refusal names the parameter and its range" \
	bash -c "dmesg | tail -n 5 | grep -q 'n=1 refused: must be in \[2, 128\] packets'"
# (a read-only parameter without a ->set would be called through NULL here)
kt_check_not "insmod tcp_rapid stats=1 is refused (read-only)" insmod "$LAB_MODDIR/tcp_rapid.ko" stats=1
kt_check "insmod tcp_rapid with valid parameters" insmod "$LAB_MODDIR/tcp_rapid.ko" n=30 m=1070
for bad in n=129 m=1000 m=4001 ss_n_max=1 tau_ms=0 pacing_shift=11 loss_factor=99 \
	fixed_rate_kbps=5 inject_abest_kbps=100000001 min_rate_kbps=200000000 \
	mark_data=2 sender_estimate=2 ack_noise_us=1001 f_milli=999 f_milli=1000001 \
	median=0 median=8 ss_refine=256 refine_m=1000 refine_m=4001 \
	pace_drain=2 bias_milli=251 cut_deep=2 cut_max=0 cut_max=1001; do
	kt_check_not "writing ${bad%%=*}=${bad#*=} is refused" \
		bash -c "echo ${bad#*=} > $RAPID_P/${bad%%=*}"
done
echo 1000 >"$RAPID_P/max_rate_kbps"
kt_check_not "min_rate_kbps above max_rate_kbps is refused" bash -c "echo 2000 > $RAPID_P/min_rate_kbps"
echo 100000000 >"$RAPID_P/max_rate_kbps"
kt_check_not "stream_slots is read-only" bash -c "echo 64 > $RAPID_P/stream_slots"
kt_check_not "stats is read-only" bash -c "echo 0 > $RAPID_P/stats"
kt_check "0 switches the lab modes off" bash -c "echo 0 > $RAPID_P/fixed_rate_kbps && echo 0 > $RAPID_P/inject_abest_kbps"
kt_check "n and m still 30 and 1070 after the refused writes" \
	bash -c "grep -qx 30 $RAPID_P/n && grep -qx 1070 $RAPID_P/m"

# --- loss responses ------------------------------------------------------------
# Only the injection gives ABest (see the top of this file).
rapid_reload sender_estimate=0 mark_data=0 || { kt_fail "reload tcp_rapid without estimates"; kt_done; }
KEEP=${LAB_OUTDIR:-$KT_TMP}/rapid-loss	# the samples, kept for a look
mkdir -p "$KEEP"
lab_allow_cc rapid
lab_dumbbell --rate 200mbit --rtt 20 --buffer 500
snd=${LAB_SND[0]}
rapid_sink "$LAB_RCV" --port 5701 --port 5702 --port 5703 --port 5704 --port 5705 || { kt_fail "sink starts"; kt_done; }
INJ=$RAPID_P/inject_abest_kbps

# RTO: 10 Mbit/s, an outage of the data path (netem drops everything)
# from 1.5 s to 3 s.  One tc command each way: lab_link_down/up take six ip
# commands (routes go with the link), each of which can take a second of
# real time on a loaded host, which pushed the recovery to the end of the
# flow.  The first retransmission after the outage comes with TCP's
# backed-off RTO, so the flow lasts 10 s.
echo 10000 >"$INJ"
rapid_send "$snd" "$LAB_RCV4:5701" 10 "$KEEP/rto.jsonl" \
	--at "1.5:$KT_TMP/down=1" --at "3.0:$KT_TMP/up=1" &
pid=$!
wait_file "$KT_TMP/down" && lab_set_data_netem "loss 100%"
wait_file "$KT_TMP/up"
lab_set_data_netem ""
wait $pid
"$PY" - "$KEEP/rto.jsonl" >"$KT_TMP/rto.res" 2>&1 <<'EOF'
import json, sys
s = [json.loads(l) for l in open(sys.argv[1]) if '"bw"' in l]
pre = [r for r in s if r.get("rtos", 0) == 0 and r["phase"] == 1]
post = [r for r in s if r.get("rtos", 0) >= 1]
p = pre[-1] if pre else {}
print("pre", p.get("bw", 0), p.get("phase", -1), p.get("retrans", -1))
r = post[0] if post else {}
print("rto", r.get("bw", 0), r.get("phase", -1), r.get("n", 0), r.get("m", 0), r.get("flags", 0), len(post))
# r_1 after the RTO: r_avg (B/s) before it >> 2, in bit/s
print("want", (p.get("bw", 0) // 8 >> 2) * 8)
e = s[-1]
print("end", e["bw"], e["phase"], e["n"], e.get("rtos", 0))
# the recovery: the first sample back in steady state after the RTO
back = next((r for r in post if r["phase"] == 1), None)
print("back", back["t"] if back else -1)
EOF
res() { sed -n "s/^$1 //p" "$2"; }
kt_diag "rto: before (bw phase retrans) $(res pre "$KT_TMP/rto.res"); first sample after the RTO (bw phase N m flags samples) $(res rto "$KT_TMP/rto.res"); back in steady state at $(res back "$KT_TMP/rto.res") s; end (bw phase N rtos) $(res end "$KT_TMP/rto.res")"
read -r bw phase n m flags cnt <<<"$(res rto "$KT_TMP/rto.res")"
read -r pbw pphase pretr <<<"$(res pre "$KT_TMP/rto.res")"
want=$(res want "$KT_TMP/rto.res")
kt_cmp "rto: before the outage in steady state (phase)" "${pphase:--1}" "==" 1
# Without a loss before the outage r_avg is the injected ABest exactly; a
# loss response to losses before it (a packet is dropped now and then,
# in the precise clock too) leaves it below, climbing back (Eq. 6).
if [ "${pretr:--1}" = 0 ]; then
	kt_cmp "rto: before the outage, at ABest 10 Mbit/s (bit/s)" "${pbw:-0}" "==" 10000000
else
	kt_cmp "rto: before the outage, near ABest 10 Mbit/s after $pretr retransmissions (bit/s)" \
		"${pbw:-0}" ">=" 9000000
fi
kt_cmp "rto: TCP saw an RTO (samples after it)" "${cnt:-0}" ">" 0
if [ "$phase" = 0 ] && [ "$n" = 2 ] && [ "$m" = 2000 ] && [ -n "$bw" ] && [ "$bw" = "$want" ] &&
   [ "${want:-0}" -gt 0 ] && [ $((flags & RAPID_F_LOSS)) != 0 ]; then
	kt_ok "rto: slow start again, N 2, m 2, r_1 = r_avg / 4 = $want bit/s, flag LOSS"
else
	kt_fail "rto: state after the RTO (bw phase N m flags: $bw $phase $n $m $flags; want r_1 $want)"
fi
# After the outage either slow start finds ABest again, or TCP judges the
# RTO spurious (the receiver's timestamp echo can make it) and the undo
# restores the rate before it; losses of the streams sent into the outage
# may then cost one x0.7 that the tau filter wins back.  Either way the
# flow ends in steady state at (nearly) the injected ABest.
read -r bw phase _ _ <<<"$(res end "$KT_TMP/rto.res")"
kt_cmp "rto: after the outage back in steady state (phase)" "${phase:--1}" "==" 1
kt_cmp "rto: after the outage back near ABest 10 Mbit/s (bit/s >=)" "${bw:-0}" ">=" 9000000
kt_cmp "rto: after the outage back near ABest 10 Mbit/s (bit/s <=)" "${bw:-0}" "<=" 10000000

# hold_run NAME PORT SECS [rapid_probe.py args]: 10 Mbit/s by injection,
# held from 1.0 s on.
hold_run() {
	local name=$1 port=$2 secs=$3
	shift 3
	echo 10000 >"$INJ"
	rapid_send "$snd" "$LAB_RCV4:$port" "$secs" "$KEEP/$name.jsonl" --at "1.0:$INJ=0" "$@"
}
# loss_summary FILE: bw steps after 1.0 s, LOSS flag, retransmissions.
loss_summary() {
	"$PY" - "$1" <<'EOF'
import json, sys
s = [json.loads(l) for l in open(sys.argv[1]) if '"bw"' in l]
held = [r for r in s if r["t"] >= 1.1]
bws = []
for r in held:
    if not bws or bws[-1] != r["bw"]:
        bws.append(r["bw"])
steps = [b / a for a, b in zip(bws, bws[1:])]
print("start", held[0]["bw"], held[0]["phase"])
print("end", held[-1]["bw"], int(any(r["flags"] & 16 for r in held)), held[-1].get("retrans", 0))
print("steps", len(steps), min(steps, default=0.7), max(steps, default=0.7))
print("bws", " ".join(f"{b / 1e6:.2f}" for b in bws[:12]))
# the first reduction after the first retransmission, and the RTT then (s)
r0 = next((r for r in held if r.get("retrans", 0) > 0), None)
r1 = next((r for r in held if r["bw"] < held[0]["bw"]), None)
if r0 and r1:
    print("react", round(r1["t"] - r0["t"], 3), round(r0.get("rtt_us", 0) / 1e6, 3))
EOF
}

# Isolated loss: the router drops every 300th packet (one stream in 10).
drop_every 300 5702
hold_run iso 5702 5
drop_none
loss_summary "$KEEP/iso.jsonl" >"$KT_TMP/iso.res"
kt_diag "isolated: start (bw phase) $(res start "$KT_TMP/iso.res"); end (bw loss-flag retrans) $(res end "$KT_TMP/iso.res"); Mbit/s $(res bws "$KT_TMP/iso.res")"
read -r bw lossf retr <<<"$(res end "$KT_TMP/iso.res")"
kt_cmp "isolated loss: packets were retransmitted (count)" "${retr:-0}" ">=" 2
kt_cmp "isolated loss: r_avg unchanged (steps)" "$(res steps "$KT_TMP/iso.res" | cut -d' ' -f1)" "==" 0
kt_cmp "isolated loss: no LOSS flag" "${lossf:-1}" "==" 0

# random_run NAME PORT NETEM LABEL: a held flow with NETEM on the data path
# from 1.2 s on, no queue; its losses must all count as random.
random_run() {
	local name=$1 port=$2 netem=$3 label=$4 lr0 pid bw lossf retr
	lr0=$(kt_modstat tcp_rapid loss_random)
	hold_run "$name" "$port" 4 --at "1.2:$KT_TMP/$name.on=1" &
	pid=$!
	wait_file "$KT_TMP/$name.on" && lab_set_data_netem "$netem"
	wait $pid
	lab_set_data_netem ""
	loss_summary "$KEEP/$name.jsonl" >"$KT_TMP/$name.res"
	kt_diag "$label: start (bw phase) $(res start "$KT_TMP/$name.res"); end (bw loss-flag retrans) $(res end "$KT_TMP/$name.res"); Mbit/s $(res bws "$KT_TMP/$name.res")"
	read -r bw lossf retr <<<"$(res end "$KT_TMP/$name.res")"
	kt_cmp "$label: packets were retransmitted (count)" "${retr:-0}" ">=" 10
	kt_cmp "$label: r_avg unchanged (steps)" "$(res steps "$KT_TMP/$name.res" | cut -d' ' -f1)" "==" 0
	kt_cmp "$label: no LOSS flag" "${lossf:-1}" "==" 0
	kt_cmp "$label: losses counted as random (loss_random)" "$(( $(kt_modstat tcp_rapid loss_random) - lr0 ))" ">" 0
}

# Persistent random loss: 5% on the data path from 1.2 s on, no queue.
random_run pers 5703 "loss 5%" "random loss"

# Persistent congestive loss: the bottleneck drops from 200 to 5 Mbit/s
# at 1.2 s under the 10 Mbit/s sender; its 500-packet buffer fills in
# ~1.2 s (a standing queue of up to 1.2 s) and then overflows.
hold_run cong 5704 7 --at "1.2:$KT_TMP/slow=1" &
pid=$!
wait_file "$KT_TMP/slow" && lab_set_rate 5mbit
wait $pid
lab_set_rate 200mbit
loss_summary "$KEEP/cong.jsonl" >"$KT_TMP/cong.res"
kt_diag "congestive: start (bw phase) $(res start "$KT_TMP/cong.res"); end (bw loss-flag retrans) $(res end "$KT_TMP/cong.res"); Mbit/s $(res bws "$KT_TMP/cong.res")"
read -r nsteps smin smax <<<"$(res steps "$KT_TMP/cong.res")"
read -r bw lossf retr <<<"$(res end "$KT_TMP/cong.res")"
kt_cmp "congestive loss: r_avg reduced (steps)" "${nsteps:-0}" ">=" 1
kt_cmp "congestive loss: each step is x0.7, one at a time (smallest ratio)" "$smin" ">=" 0.69
kt_cmp "congestive loss: each step is x0.7, one at a time (largest ratio)" "$smax" "<=" 0.71
kt_cmp "congestive loss: flag LOSS" "${lossf:-0}" "==" 1
# Persistent loss is known from the SACKs of the streams past the first
# hole, one RTT after it was sent: the reduction must not wait for the
# recovery (the retransmissions meet the same full buffer, so snd_una
# stalls for several RTTs).
read -r react rtt <<<"$(res react "$KT_TMP/cong.res")"
kt_diag "congestive: first reduction ${react:-none} s after the first retransmission (RTT then ${rtt:-?} s)"
kt_cmp "congestive loss: the first reduction within one RTT of the first retransmission (s)" \
	"${react:-99}" "<" "${rtt:-0}"

# Random loss on a path that reorders (last: after lab_set_data_netem's
# "tc qdisc change" without it, tc still shows the reorder setting, so
# nothing runs after it here): from 1.2 s on netem sends 10% of
# the data packets without the path's 10 ms (they overtake the others) and
# drops 3%.  TCP's min RTT then reads ~10 ms on this 20 ms path, so each
# stream's lowest RTT lay 10 ms "above" it: a standing queue of 10 ms
# against the 2.5 ms of the congestion test, every loss congestive, r_avg
# x0.7 (the old rule).  The base RTT from the streams' median RTTs while
# TCP counts reordering (docs/rapid-deviations.md#robust-base) sees no
# queue at 10 Mbit/s of a 200 Mbit/s link: the losses are random.
random_run reo 5705 "delay 10ms reorder 10% loss 3%" "reordering + random loss"
"$PY" - "$KEEP/reo.jsonl" >"$KT_TMP/reo.flags" <<'EOF'
import json, sys
s = [json.loads(l) for l in open(sys.argv[1]) if '"bw"' in l]
late = [r for r in s if r["t"] >= 2.5]
print(int(any(r["flags"] & 1024 for r in late)), min((r.get("min_rtt_us", 0) for r in late), default=0))
EOF
read -r reof reomin <"$KT_TMP/reo.flags"
kt_diag "reordering: TCP's min RTT ${reomin:-?} us, REORDER flag ${reof:-?}"
kt_cmp "reordering: TCP's min RTT is the overtaking packets' (us, the path's is 20 ms)" "${reomin:-0}" "<" 15000
kt_cmp "reordering: the REORDER state flag (1024) is set" "${reof:-0}" "==" 1

# the next suites of this boot get tcp_rapid with its defaults again
kt_check "tcp_rapid reloaded with its default parameters" rapid_reload

kt_done
