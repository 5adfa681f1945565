#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bias-exp.sh - where the per-stream ABest bias comes from (an
# experiment of docs/results.md#rapid-bias; not a test).  Runs in
# the lab guest, precise clock:
#
#   scripts/lab/run.sh --clock precise --outdir build/bias -- \
#       bash scripts/rapid/bias-exp.sh
#   scripts/rapid/bias_report.py build/bias
#
# One rapid flow (tcp_rapid_rx on the receiver) through 100 Mbit/s, 20 ms
# RTT, for BIAS_SECS (default 6) s per case, beside UDP cross traffic of
# the same average rate sent two ways:
#   udpX  iperf3 -b X: a burst every 1 ms (iperf3's pacing timer; what
#         lab_udp sends with LAB_UDP_BURSTY=1)
#   cbrX  iperf3 -b X --fq-rate X: the same datagrams spaced evenly by the
#         sender's fq (a constant-rate source, as in the fluid model; what
#         lab_udp sends by default, timing-55's cross traffic)
# and none.  BIAS_CBURST=BYTES sets the bottleneck's htb burst and cburst
# (lab_dumbbell's default in the precise clock: 1 byte, exact
# serialisation; BIAS_CBURST=1600 gives the 1600-byte token bucket the lab
# used before).
# The receiver's capture (headers, ns stamps) of each case goes
# to $LAB_OUTDIR/CASE.pcap, the cross sender's report to CASE.udp.json;
# the analysis runs on the host (bias_report.py: converter, then
# build/rapid-trace with several parameters, against the helper's feedback).
. "$LAB_TOP/tests/vm/lib.sh"
. "$LAB_TOP/tests/vm/lib-rapid.sh"
OUT=${LAB_OUTDIR:?run under scripts/lab/run.sh --outdir}
SECS=${BIAS_SECS:-6}
CASES=${BIAS_CASES:-none udp30 cbr30 udp60 cbr60}

lab_allow_cc rapid
lab_dumbbell --senders 2 --rate 100mbit --rtt 20
snd=${LAB_SND[0]} xs=${LAB_SND[1]}
if [ -n "${BIAS_CBURST:-}" ]; then
	tc -n "$LAB_RTR" class change dev bn0 parent 1: classid 1:1 htb rate 100mbit \
		ceil 100mbit burst "$BIAS_CBURST" cburst "$BIAS_CBURST" || exit 1
	tc -n "$LAB_RTR" -d class show dev bn0 >&2
fi
grep -q '^tcp_rapid_rx ' /proc/modules || insmod "$LAB_MODDIR/tcp_rapid_rx.ko"
port=5700
for c in $CASES; do
	port=$((port + 2))
	x=${c#udp}
	x=${x#cbr}
	lab_iperf_server "$LAB_RCV" "$port"
	if [ "$c" != none ]; then
		lab_iperf_server "$LAB_RCV" $((port + 1))
		bursty=1
		[ "${c#cbr}" != "$c" ] && bursty=
		LAB_UDP_BURSTY=$bursty lab_udp "$xs" "$LAB_RCV4" $((port + 1)) "${x}M" \
			$((SECS + 2)) "$OUT/$c.udp.json" -l 1400 &
		sleep 1
	fi
	rapid_cap_start "$LAB_RCV" "$OUT/$c.pcap" "tcp port $port" || exit 1
	lab_iperf "$snd" "$LAB_RCV4" "$port" "$SECS" rapid "$OUT/$c.json"
	rapid_cap_stop
	wait
	echo "case $c port $port done" >&2
done
echo "rapid_rx: $(tr '\n' ' ' </sys/module/tcp_rapid_rx/parameters/stats)" >&2
