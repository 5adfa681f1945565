#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lab-time: 97 (host seconds under TCG, precise clock, measured in
# `tests/run.sh --vm-only` of 2026-12-02, two boots at once, on a host
# whose page cache held next to nothing: tests/run.sh balances its
# parallel boots with it)
#
# RAPID above the rate at which its chirp gaps hold (docs/rapid.md#real-host,
# docs/results.md#rapid-rates).  In the lab (precise clock: a 1-GIPS guest
# CPU that runs sender, router and receiver) the departure gaps hold
# (>= 95% within 10%) up to 50 Mbit/s with the data option and 100 Mbit/s
# without; above that the sender misses more and more of the fastest gaps,
# and from ~250 Mbit/s of RAPID traffic on the guest cannot keep up at all.
# Then RAPID must still fill what it can and not collapse towards its
# floor.  One rapid flow alone (closed loop, receiver feedback) through a
# 500 Mbit/s bottleneck, 20 ms, 1-BDP buffer, for 4 s:
#  (1) goodput over seconds 1-4 >= 130 Mbit/s (measured 191-238 in each
#      second of a 10 s run of 50dfc4e; cubic moved 382 on the same path,
#      the guest's CPU being the limit for both; 159-185 in seven runs of
#      f005d38, 129-245 in sixteen of the count before it, which read
#      the noisy estimates as flows: docs/results.md#count-signed-lab;
#      144-188 in fourteen boots of 2026-12-07 with either jump test,
#      149.5 once with the test on three, so 150 was a coin toss there:
#      docs/rapid-deviations.md#jump-mean);
#  (2) no second of the flow after the first below 110 Mbit/s: no
#      collapse (lowest seconds 123.0-164.5 in the boots of 2026-12-07,
#      123.0 in the clean-clone make test of 7ad0a53; held at the gap
#      limit: 95.7);
#  (3) in steady state at ~3 s (TCP_CC_INFO; its r_avg is printed, not
#      bounded: a snapshot of a swinging rate, 102-252 Mbit/s in six runs);
#  (4) retransmissions at most 0.5% of the segments sent (measured 0).
# The guest's speed is a property of the precise clock (instructions
# counted at 1 ns each), not of the host, so the bounds hold on any host.
# RAPID_FAST_PARAMS="name=value ..." (for showing that the suite can fail)
# are given to tcp_rapid when it is reloaded; with max_rate_kbps=100000
# (RAPID held at the gap limit) (1) and (2) fail (measured: 99.1 Mbit/s,
# lowest second 95.7, r_avg 100.0), while pacing_shift=10 still passes (197.8):
#   scripts/lab/run.sh --clock precise -- env RAPID_FAST_PARAMS=max_rate_kbps=100000 \
#       tests/vm/guest-suite.sh tests/vm/64-rapid-fast.sh
. "$LAB_TOP/tests/vm/lib.sh"
. "$LAB_TOP/tests/vm/lib-rapid.sh"

rapid_ticker_start	# set-up only (see lib-rapid.sh)
# shellcheck disable=SC2086 # a word list
rapid_reload ${RAPID_FAST_PARAMS:-} || { kt_fail "reload tcp_rapid"; kt_done; }
lab_allow_cc rapid
lsmod | grep -q '^tcp_rapid_rx ' || insmod "$LAB_MODDIR/tcp_rapid_rx.ko" ||
	{ kt_fail "tcp_rapid_rx loads"; kt_done; }
lab_dumbbell --rate 500mbit --rtt 20
snd=${LAB_SND[0]}
port=5901
lab_iperf_server "$LAB_RCV" $port || { kt_fail "iperf3 server starts"; kt_done; }
rapid_ticker_stop

lab_iperf "$snd" "$LAB_RCV4" $port 4 rapid "$KT_TMP/flow.json" &
pid=$!
sleep 3
lab_ns "$snd" "$LAB_PY" "$LAB_TOP/scripts/obs/cc_info.py" --json \
	--filter "dport = :$port" >"$KT_TMP/cc" 2>&1
wait $pid

rapid_ticker_start
# goodput (seconds 1-4), lowest second after the first, retransmissions,
# segments sent (all from iperf3's report), r_avg in Mbit/s and the phase.
read -r good low retx segs ravg phase < <("$LAB_PY" - "$KT_TMP/flow.json" "$KT_TMP/cc" <<'EOF'
import json, sys
try:
    j = json.load(open(sys.argv[1]))
    iv = [i["sum"] for i in j["intervals"]][1:4]
    good = sum(i["bytes"] for i in iv) * 8 / sum(i["seconds"] for i in iv) / 1e6
    low = min(i["bits_per_second"] for i in iv) / 1e6
    s = j["end"]["sum_sent"]
    retx, segs = s["retransmits"], max(1, s["bytes"] // 1448)
except Exception:
    good = low = retx = segs = "none"
ravg, phase = "none", "none"
for line in open(sys.argv[2]):
    try:
        o = json.loads(line)
    except ValueError:
        continue
    if o.get("cc") == "rapid" and "r_avg_bps" in o:
        ravg, phase = round(o["r_avg_bps"] / 1e6, 1), o["phase"]
print(good if good == "none" else round(good, 1),
      low if low == "none" else round(low, 1), retx, segs, ravg, phase)
EOF
)
kt_diag "rapid through 500 Mbit/s: goodput $good Mbit/s (lowest second $low)," \
	"r_avg $ravg Mbit/s ($phase), $retx retransmissions of ~$segs segments"
kt_cmp "goodput over seconds 1-4 above the gap limit, Mbit/s" "$good" ">=" 130
kt_cmp "no second after the first below 110 Mbit/s (no collapse)" "$low" ">=" 110
# r_avg at ~3 s is one snapshot of a rate that swings with the drain: it
# read 200.5 and 178.5 in two runs, then 115.0 (the clean-clone make test of
# af26764), 149.7 and 251.6 in one boot, and 102.4 with the helper's old
# recording (reorder=0 noise_mult=0), all with goodput 191-203 Mbit/s.  A
# bound on it was a coin toss; (1) and (2) are what tell RAPID held at the
# gap limit (99.1 and 95.7 Mbit/s with max_rate_kbps=100000) from RAPID
# above it.  It stays a diagnostic.
kt_diag "r_avg at ~3 s: $ravg Mbit/s (a snapshot; not a bound)"
if [ "$phase" = steady ]; then
	kt_ok "in steady state at ~3 s"
else
	kt_fail "in steady state at ~3 s (phase '$phase')"
fi
if kt_isnum "$retx" && kt_isnum "$segs"; then
	kt_cmp "retransmissions, per mille of the segments sent" \
		"$(awk -v r="$retx" -v s="$segs" 'BEGIN { printf "%.2f", 1000 * r / s }')" "<=" 5
else
	kt_fail "retransmissions, per mille of the segments sent (no iperf3 report)"
fi
kt_done
