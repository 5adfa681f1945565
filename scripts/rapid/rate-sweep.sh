#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# rate-sweep.sh - how fast RAPID can go in the lab (issue 18, item 4; an
# experiment of docs/results.md#rapid-rates, not a test).  Runs in the lab
# guest, precise clock:
#
#   scripts/lab/run.sh --clock precise --outdir build/rates -- \
#       bash scripts/rapid/rate-sweep.sh
#   PY=~/.cache/tcp-cc-lab/venv/bin/python
#   $PY scripts/rapid/gaps.py --json build/rates/gaps.json \
#       build/rates/g10.pcap:10000 ...      (every g*.pcap with its rate)
#
# Two parts (SWEEP_PARTS, default "gaps closed"):
#   gaps    fixed-rate chirps (tcp_rapid fixed_rate_kbps) at SWEEP_GAP_MBIT
#           (default 10 20 50 100 200 400) Mbit/s r_avg, with the data
#           option (mark_data=1, the default; tcp_rapid_rx answers) and
#           without (mark_data=0), through a bottleneck well above the top
#           chirp rate (SWEEP_GAP_LINK, default 2gbit), fq on the sender;
#           departures captured on the sender's eth0 into
#           g<MBIT>[u].pcap (u: unmarked) for scripts/rapid/gaps.py on the
#           host; the guest's busy time over each flow into busy.txt.
#   closed  RAPID in closed loop and cubic as the control, each alone for
#           SWEEP_SECS (20) s on links of SWEEP_LINKS (default 100mbit
#           200mbit 500mbit 1gbit), 20 ms RTT, 1-BDP buffer: the iperf3
#           report (c-<link>-<cc>.json), ss -tin and RAPID's TCP_CC_INFO
#           (scripts/obs/cc_info.py) at 1/4, 1/2, 3/4 of it and 1 s before its end
#           (c-<link>-<cc>.ss / .cc), the bottleneck's drops and the
#           guest's busy share over the flow (closed.txt), tcp_rapid's
#           counters after each RAPID run (c-<link>-rapid.stats).
# SWEEP_RAPID_PARAMS="name=value ..." are written to tcp_rapid's
# parameters before the closed-loop part.
. "$LAB_TOP/tests/vm/lib.sh"
. "$LAB_TOP/tests/vm/lib-rapid.sh"
OUT=${LAB_OUTDIR:?run under scripts/lab/run.sh --outdir}
PARTS=${SWEEP_PARTS:-gaps closed}
GAP_MBIT=${SWEEP_GAP_MBIT:-10 20 50 100 200 400}
GAP_LINK=${SWEEP_GAP_LINK:-2gbit}
LINKS=${SWEEP_LINKS:-100mbit 200mbit 500mbit 1gbit}
SECS=${SWEEP_SECS:-20}

lab_allow_cc rapid
grep -q '^tcp_rapid_rx ' /proc/modules || insmod "$LAB_MODDIR/tcp_rapid_rx.ko"

# busy_start / busy_stop TAG FILE: the guest's busy seconds (uptime -
# idle, /proc/uptime) between the two, and the share of the wall (guest)
# time, as "TAG busy S of T = SHARE" into FILE.
busy_start() { read -r B_U0 B_I0 </proc/uptime; }
busy_stop() {
	local u1 i1
	read -r u1 i1 </proc/uptime
	echo "$1 $B_U0 $B_I0 $u1 $i1" |
		awk '{ b = ($4 - $2) - ($5 - $3); t = $4 - $2;
			printf "%s busy %.2f of %.2f = %.3f\n", $1, b, t, b / t }' >>"$2"
}

port=5800
if [[ " $PARTS " == *" gaps "* ]]; then
	rapid_ticker_start
	lab_dumbbell --rate "$GAP_LINK" --rtt 20 --buffer 4000
	snd=${LAB_SND[0]}
	rapid_ticker_stop
	for r in $GAP_MBIT; do
		secs=2
		[ "$r" -le 20 ] && secs=4
		for mark in 1 0; do
			port=$((port + 1))
			name=g$r
			[ $mark = 0 ] && name=${name}u
			echo "$mark" >"$RAPID_P/mark_data"	# read at .init
			echo $((r * 1000)) >"$RAPID_P/fixed_rate_kbps"
			lab_iperf_server "$LAB_RCV" "$port" || continue
			rapid_cap_start "$snd" "$OUT/$name.pcap" "tcp dst port $port" || continue
			busy_start
			lab_iperf "$snd" "$LAB_RCV4" "$port" "$secs" rapid "$OUT/$name.json"
			busy_stop "$name" "$OUT/busy.txt"
			rapid_cap_stop
			echo "$name $(tc -n "$snd" -s qdisc show dev eth0 |
				grep -o 'dropped [0-9]*\|flows_plimit [0-9]*\|throttled [0-9]*' |
				tr '\n' ' ')" >>"$OUT/fq.txt"
			echo "gaps $name done at t=$SECONDS" >&2
		done
	done
	echo 1 >"$RAPID_P/mark_data"
	echo 0 >"$RAPID_P/fixed_rate_kbps"
	lab_cleanup
fi

# sample PORT FILE: ss -tin and TCP_CC_INFO of the flow to PORT at a
# quarter, half and three quarters of SECS and 1 s before its end.
sample() {
	local t prev=0
	for t in $((SECS / 4)) $((SECS / 2)) $((SECS * 3 / 4)) $((SECS - 1)); do
		sleep $((t - prev))
		prev=$t
		echo "t=$t" >>"$2.ss"
		lab_ns "$snd" ss -tinH "dport = :$1" >>"$2.ss"
		lab_ns "$snd" "$LAB_PY" "$LAB_TOP/scripts/obs/cc_info.py" --json \
			--filter "dport = :$1" >>"$2.cc" 2>&1
	done
}

if [[ " $PARTS " == *" closed "* ]]; then
	for p in ${SWEEP_RAPID_PARAMS:-}; do
		echo "${p#*=}" >"$RAPID_P/${p%%=*}" || echo "cannot set $p" >&2
	done
	for link in $LINKS; do
		rapid_ticker_start
		lab_dumbbell --rate "$link" --rtt 20
		snd=${LAB_SND[0]}
		rapid_ticker_stop
		for cc in cubic rapid; do
			port=$((port + 1))
			base=$OUT/c-$link-$cc
			lab_iperf_server "$LAB_RCV" "$port" || continue
			read -r _ _ d0 <<<"$(lab_bn_backlog)"
			sample "$port" "$base" &
			spid=$!
			busy_start
			lab_iperf "$snd" "$LAB_RCV4" "$port" "$SECS" "$cc" "$base.json"
			busy_stop "c-$link-$cc" "$OUT/closed.txt"
			wait $spid
			read -r _ _ d1 <<<"$(lab_bn_backlog)"
			echo "c-$link-$cc bn_drops $((d1 - d0)) buffer $LAB_BUFFER" >>"$OUT/closed.txt"
			[ $cc = rapid ] && cp "$RAPID_P/stats" "$base.stats"
			echo "closed $link $cc done at t=$SECONDS" >&2
			sleep 1
		done
		lab_cleanup
	done
fi
echo "rapid_rx: $(tr '\n' ' ' </sys/module/tcp_rapid_rx/parameters/stats)" >"$OUT/rx.stats"
echo "sweep done at t=$SECONDS" >&2
