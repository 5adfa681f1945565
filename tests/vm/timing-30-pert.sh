#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lab-time: 690 (host seconds under TCG, precise clock: 652 measured in
# `tests/run.sh --vm-only` of 2026-12-02, two boots at once, on a host
# whose page cache held next to nothing, plus the 8 s of guest time (d)
# gained on 2026-12-06, 171 s of guest time in all, 333 s of host time
# in one boot alone: tests/run.sh balances its parallel boots with it)
#
# PERT on a shaped path (precise clock: PERT reacts to queueing delay, so
# timers must be on time).  Behaviour checks with generous slack; the
# benchmark (make bench BENCH=pert-vs-cubic) has the exact numbers.
#  (a) alone on 50 Mbit/s, 20 ms, a 4-BDP drop-tail buffer: after start-up
#      the standing queue stays below T2 (10 ms), nothing is dropped, and
#      the link is >= 90% used;
#  (b) a cubic flow filling the buffer makes PERT respond early (the
#      response counter in get_info grows) and PERT enters its compete
#      phase (docs/pert.md);
#  (c) PERT and cubic sharing the link: both iperf3 clients succeed;
#      PERT's share of a fair share (RATE/2) at least 0.45 over the 40 s
#      and 0.5 in the second half, at most 1.25 in both, Jain's index of
#      the two >= 0.78, cubic keeps >= 0.75 of a fair share and together
#      they fill >= 85% of the link.  A guard against starvation and
#      overshoot, not issue 21's target and not a separation of issue
#      21's code from the one before: on this 4-BDP buffer their spreads
#      nearly meet (issue 21: 0.555-0.73 over the 40 s, 0.63-0.82 in the
#      second half, Jain 0.846-0.943 in six runs; before: 0.46-0.53,
#      0.55-0.65, 0.784-0.831 in three; the runs: docs/pert.md, "Issue 21:
#      start-up and competing with cubic").  Issue 21's 0.8-1.25 is the
#      1-BDP pert-vs-cubic benchmark's (docs/pert.md, *Measurements*);
#  (d) once cubic has gone PERT leaves the compete phase and is back to a
#      queue below T2: the phase read 13 s after cubic's end, the queue
#      over the run's last 4 s (12-16 s after it).  Usually PERT leaves within a second; when
#      PERT's last loss before cubic stopped holds the phase (the hold
#      through a loss-based competitor's dip, pert_phase_note_loss()),
#      it leaves once it has refilled the queue to the compete region
#      alone: in an engine copy of this test (seeds 1-100) the exit came
#      0.59 s after cubic's end at the median, 7.2 s at p95, 9.45 s at
#      most (docs/pert.md, "A loss just before the competitor leaves").
#      Reading it 5 s after cubic failed CI once (2026-12-05, 37 ms).
. "$LAB_TOP/tests/vm/lib.sh"
PY=python3
RATE=50
COMP=40		# seconds of competition
TAIL=16		# seconds of PERT alone after cubic has gone (see (d))
lab_allow_cc pert
# For showing that the share bounds bite: tcp_pert reloaded with
# KT_PERT_ARGS (e.g. beta_min=16 beta_max=16 pmax_permille=1).
if [ -n "${KT_PERT_ARGS:-}" ]; then
	kt_check "reload tcp_pert with $KT_PERT_ARGS" \
		bash -c "rmmod tcp_pert && insmod $LAB_MODDIR/tcp_pert.ko $KT_PERT_ARGS"
fi
lab_dumbbell --senders 2 --rate ${RATE}mbit --rtt 20 --buffer 350

# sample_queue SECONDS DIR: the bottleneck's qdiscs every 100 ms into
# DIR/qdisc.csv (scripts/bench/sampler.py, the benchmarks' sampler: one
# process reading them over netlink, where a `tc | awk` per sample cost
# half a second of guest time); returns once it samples, its pid in qpid.
sample_queue() {
	lab_bg "$LAB_PY" "$LAB_TOP/scripts/bench/sampler.py" --out "$2" \
		--interval-ms 100 --duration "$1" --router "$LAB_RTR" \
		--dev "$LAB_BN_DEV" --ready "$2.ready"
	qpid=${LAB_BG_PIDS[-1]}
	lab_wait_file "$2.ready"
}

# pert_record NS PORT: PERT's own state for the data socket to PORT, "R C":
# early responses and 1 in the compete phase, else 0 (its TCP_CC_INFO
# record, struct pert_cc_info, read by scripts/obs/cc_info.py from iperf3's
# socket; the data socket is the one with the higher rate).
pert_record() {
	lab_ns "$1" "$LAB_PY" "$LAB_TOP/scripts/obs/cc_info.py" --json --filter "dport = :$2" |
		awk '/"early_responses"/ {
			bw = $0; sub(/.*"bw_mbps": /, "", bw); bw += 0
			r = $0; sub(/.*"early_responses": /, "", r); r += 0
			c = ($0 ~ /"compete_phase": true/)
			if (out == "" || bw >= best) { best = bw; out = r " " c }
		} END { if (out != "") print out }'
}
pert_responses() { pert_record "$@" | awk '{ print $1 }'; }
# pert_phase NS PORT: 1 in the compete phase, else 0
pert_phase() { pert_record "$@" | awk '{ print $2 }'; }

json() { $PY -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

# (a) PERT alone.
lab_iperf_server "$LAB_RCV" 5401
sample_queue 20 "$KT_TMP/q.alone"
t_alone=$EPOCHREALTIME
lab_iperf "${LAB_SND[0]}" "$LAB_RCV4" 5401 20 pert "$KT_TMP/alone.json" -i 1 &
apid=$!
alone_phase=""
for t in 8 14 18; do
	sleep $((t - ${last:-0})); last=$t
	alone_phase="$alone_phase$(pert_phase "${LAB_SND[0]}" 5401)"
done
unset last
wait $apid $qpid
good=$(json "$KT_TMP/alone.json" "round(d['end']['sum_received']['bits_per_second'] / 1e6, 2)")
# Steady state: from 6 s on (slow start may overflow the buffer once).
steady=$($PY - "$KT_TMP/alone.json" "$KT_TMP/q.alone/qdisc.csv" $RATE "$t_alone" <<'EOF'
import json, sys
import numpy as np
from scripts.bench.sampler import read_leaf
d = json.load(open(sys.argv[1]))
rate = float(sys.argv[3])
ivs = [i["sum"] for i in d["intervals"] if i["sum"]["start"] >= 6]
mbit = np.mean([i["bits_per_second"] for i in ivs]) / 1e6
q = np.array(read_leaf(sys.argv[2], float(sys.argv[4])), ndmin=2)
st = q[q[:, 0] >= 6]
qms = st[:, 1] * 1514 * 8 / (rate * 1e6) * 1e3
drops = st[-1, 3] - st[0, 3]
print(f"{mbit:.2f} {np.median(qms):.2f} {np.percentile(qms, 95):.2f} {int(drops)} {int(q[-1, 3])}")
EOF
)
read -r s_mbit s_q50 s_q95 s_drops all_drops <<<"$steady"
retx=$(json "$KT_TMP/alone.json" "d['end']['sum_sent'].get('retransmits', -1)")
kt_diag "pert alone: goodput $good Mbit/s (steady $s_mbit), queue p50 $s_q50 ms p95 $s_q95 ms, drops after 6 s $s_drops (start-up included $all_drops), retransmits $retx"
kt_cmp "(a) pert alone uses >= 90% of the link after start-up (Mbit/s)" "$s_mbit" ">=" "$(echo "$RATE * 0.9" | bc)"
kt_cmp "(a) pert alone: median standing queue below T2 (ms)" "$s_q50" "<" 10
kt_cmp "(a) pert alone: no drops at the bottleneck after start-up" "$s_drops" "==" 0
kt_cmp "(a) pert alone: not in the compete phase at 8, 14, 18 s" "$alone_phase" "==" 0

# (b) + (c): cubic from the second sender shares the link with PERT, then
# (d) PERT alone again for TAIL seconds.
lab_iperf_server "$LAB_RCV" 5402
lab_iperf_server "$LAB_RCV" 5403
sample_queue $((3 + COMP + TAIL)) "$KT_TMP/q.comp"
t_comp=$EPOCHREALTIME
lab_iperf "${LAB_SND[0]}" "$LAB_RCV4" 5402 $((3 + COMP + TAIL)) pert "$KT_TMP/p.json" -i 1 &
p1=$!
# (samples at fixed times after the pert flow's start: reading a record
# starts a python, which takes a while in the guest)
base=$SECONDS
until_t() { local d=$((base + $1 - SECONDS)); [ $d -le 0 ] || sleep $d; }
sleep 3
r0=$(pert_responses "${LAB_SND[0]}" 5402)
lab_iperf "${LAB_SND[1]}" "$LAB_RCV4" 5403 $COMP cubic "$KT_TMP/c.json" -i 1 &
p2=$!
phases=""
for t in 10 20 30 38; do
	until_t $((t + 3))
	kt_diag "t=$t s pert: $(lab_ns "${LAB_SND[0]}" ss -tinH "dport = :5402" | grep -o ' cwnd:[0-9]*\|bbr:([^)]*)' | tr '\n' ' ')"
	[ $t -ge 20 ] && phases="$phases$(pert_phase "${LAB_SND[0]}" 5402)"
done
r1=$(pert_responses "${LAB_SND[0]}" 5402)
wait $p2
crc=$?
until_t $((COMP + TAIL))	# 3 s before the pert flow ends
end_phase=$(pert_phase "${LAB_SND[0]}" 5402)
kt_diag "t=$((COMP + TAIL + 1)) s pert alone again: $(lab_ns "${LAB_SND[0]}" ss -tinH "dport = :5402" | grep -o ' cwnd:[0-9]*\|bbr:([^)]*)' | tr '\n' ' ')"
wait $p1
prc=$?
wait $qpid
kt_cmp "(c) the cubic iperf3 client succeeded (exit status)" "$crc" "==" 0
kt_cmp "(c) the pert iperf3 client succeeded (exit status)" "$prc" "==" 0
shares=$($PY - "$KT_TMP/p.json" "$KT_TMP/c.json" "$KT_TMP/q.comp/qdisc.csv" $RATE $COMP "$t_comp" <<'EOF'
import json, sys
import numpy as np
from scripts.bench.sampler import read_leaf
p = json.load(open(sys.argv[1])); c = json.load(open(sys.argv[2]))
rate, comp = float(sys.argv[4]), int(sys.argv[5])
pi = [i["sum"]["bits_per_second"] / 1e6 for i in p["intervals"]]
ci = [i["sum"]["bits_per_second"] / 1e6 for i in c["intervals"]]
# PERT's intervals while cubic runs (PERT started 3 s earlier)
pc = pi[3:3 + comp]
pm, cm = np.mean(pc), np.mean(ci)
half = len(pc) // 2
jain = (pm + cm) ** 2 / (2 * (pm * pm + cm * cm))
q = np.array(read_leaf(sys.argv[3], float(sys.argv[6])), ndmin=2)
end = q[-1, 0]
tail = q[q[:, 0] >= end - 4]
qms = np.median(tail[:, 1]) * 1514 * 8 / (rate * 1e6) * 1e3
per5 = " ".join(f"{np.mean(pc[i:i + 5]):.1f}" for i in range(0, len(pc), 5))
print(f"{pm:.2f} {cm:.2f} {np.mean(pc[half:]):.2f} {jain:.3f} {qms:.2f} {per5}")
EOF
)
read -r pm cm pm2 jain tail_q per5 <<<"$shares"
kt_diag "pert vs cubic ($COMP s): pert $pm Mbit/s, cubic $cm Mbit/s, pert in the second half $pm2, Jain $jain; early responses $r0 -> $r1"
kt_diag "pert per 5 s while cubic runs: $per5"
kt_diag "compete phase at 20, 30, 38 s: $phases; after cubic: $end_phase, queue median last 4 s $tail_q ms"
kt_cmp "(b) early responses while cubic builds a queue (count)" "$((r1 - r0))" ">" 0
kt_cmp "(b) pert in its compete phase at 20, 30 and 38 s" "$phases" "==" 111
fair=$(echo "scale=2; $RATE / 2" | bc)
kt_cmp "(c) pert's share over 40 s >= 0.45 fair share (Mbit/s)" "$pm" ">=" "$(echo "$fair * 0.45" | bc)"
kt_cmp "(c) pert's share over 40 s <= 1.25 fair share (Mbit/s)" "$pm" "<=" "$(echo "$fair * 1.25" | bc)"
kt_cmp "(c) pert's share in the second half >= 0.5 fair share (Mbit/s)" "$pm2" ">=" "$(echo "$fair * 0.5" | bc)"
kt_cmp "(c) pert's share in the second half <= 1.25 fair share (Mbit/s)" "$pm2" "<=" "$(echo "$fair * 1.25" | bc)"
kt_cmp "(c) cubic keeps >= 0.75 fair share against pert (Mbit/s)" "$cm" ">=" "$(echo "$fair * 0.75" | bc)"
kt_cmp "(c) Jain's index of pert and cubic over 40 s" "$jain" ">=" 0.78
kt_cmp "(c) pert and cubic together fill >= 85% of the link (Mbit/s)" \
	"$(echo "$pm + $cm" | bc 2>/dev/null)" ">=" "$(echo "$RATE * 0.85" | bc)"
kt_cmp "(d) pert left the compete phase once cubic had gone" "$end_phase" "==" 0
kt_cmp "(d) pert alone again: median queue below T2 (ms)" "$tail_q" "<" 10

kt_done
