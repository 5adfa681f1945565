#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lab-time: 62 (host seconds under TCG, precise clock, measured in the
# clean-clone `bash .ci/run` of ea2c528 on 2026-12-06, two boots at once:
# 50 s of guest time)
#
# RAPID's report's law after a step down of the avail-bw (issue 15,
# docs/rapid-deviations.md#pace-drain; precise clock: the law reads
# queueing delay).  One rapid flow alone on 50 Mbit/s, 100 ms, a 1-BDP
# drop-tail buffer; after 4 s a UDP stream of 15 Mbit/s joins for the
# rest of the run.  The queue grows for a round trip before any estimate
# shows the step; the drain of that queue slows the streams
# (pace_drain=1, the default) and r_avg stays near the new avail-bw, where
# the drain on the estimates (pace_drain=0) cut r_avg by up to a quarter
# per estimate below it and Eq. 6 climbed back for seconds.  Checks, from
# tcp_rapid:rapid_abest's r_avg after the step: its lowest value is at
# least 0.8 of its median over the 3 s before the flow's end, and that median at least
# 0.8 of the payload avail-bw (the flow came back); the rapid and UDP
# iperf3 clients succeed.  KT_RAPID_STEP_PARAMS="pace_drain=0 bias_milli=0"
# runs the law before 2026-12-06, to show that the first check bites.
. "$LAB_TOP/tests/vm/lib.sh"
. "$LAB_TOP/tests/vm/lib-rapid.sh"

SECS=10		# the rapid flow
STEP=4		# the UDP stream starts here and outlasts the rapid flow
UDP=15		# Mbit/s
# shellcheck disable=SC2086 # KT_RAPID_STEP_PARAMS: a list of module parameters
rapid_reload ${KT_RAPID_STEP_PARAMS:-} ||
	{ kt_fail "reload tcp_rapid ${KT_RAPID_STEP_PARAMS:-}"; kt_done; }
TR=/sys/kernel/tracing
kt_mount_tracefs || kt_fail "tracefs mounts"
echo 0 >"$TR/tracing_on"
echo >"$TR/trace"
echo 1 >"$TR/events/tcp_rapid/rapid_abest/enable" || kt_fail "enable tcp_rapid:rapid_abest"
echo 1 >"$TR/events/tcp_rapid/rapid_stream/enable" || kt_fail "enable tcp_rapid:rapid_stream"
KEEP=${LAB_OUTDIR:-$KT_TMP}/rapid-step	# the trace, kept for a look
mkdir -p "$KEEP"
lab_allow_cc rapid
# 1 BDP at 50 Mbit/s and 100 ms: 413 full-size packets
lab_dumbbell --senders 2 --rate 50mbit --rtt 100 --buffer 413

lab_iperf_server "$LAB_RCV" 5531
lab_iperf_server "$LAB_RCV" 5532
echo 1 >"$TR/tracing_on"
lab_iperf "${LAB_SND[0]}" "$LAB_RCV4" 5531 $SECS rapid "$KT_TMP/r.json" &
p1=$!
sleep $STEP
# the step's time on the trace's clock (the UDP stream starts a little
# later); the stream outlasts the rapid flow, and the windows below end
# before the rapid flow does
echo step >"$TR/trace_marker"
lab_udp "${LAB_SND[1]}" "$LAB_RCV4" 5532 ${UDP}M $((SECS - STEP + 2)) "$KT_TMP/u.json" &
p2=$!
wait $p1
rrc=$?
wait $p2
urc=$?
echo 0 >"$TR/tracing_on"
echo 0 >"$TR/events/tcp_rapid/rapid_abest/enable"
echo 0 >"$TR/events/tcp_rapid/rapid_stream/enable"
cp "$TR/trace" "$KEEP/trace"
kt_cmp "the rapid iperf3 client succeeded (exit status)" "$rrc" "==" 0
kt_cmp "the UDP iperf3 client succeeded (exit status)" "$urc" "==" 0

# r_avg of the data connection (port 5531) after the step, in Mbit/s, in
# the time since the marker: the lowest until 0.5 s before the rapid
# flow's end, and the median of the 3 s before that.
read -r low settled <<<"$($PY - "$KEEP/trace" "$STEP" "$SECS" <<'EOF'
import re, sys
import numpy as np
try:
    step, secs = float(sys.argv[2]), float(sys.argv[3])
    lines = open(sys.argv[1]).read().splitlines()
    mark = next(float(m.group(1)) for m in
                (re.search(r"\s([0-9.]+): tracing_mark_write: step", x) for x in lines) if m)
    pat = re.compile(r"\s([0-9.]+): rapid_abest: sport=\d+ dport=5531 .* r_avg_kbps=(\d+) phase=1")
    pts = [(float(m.group(1)), int(m.group(2)) / 1000)
           for m in map(pat.search, lines) if m]
    t = np.array([p[0] - mark for p in pts]); r = np.array([p[1] for p in pts])
    end = secs - step - 0.5
    after = r[(t >= 0) & (t <= end)]
    last = r[(t >= end - 3) & (t <= end)]
    print(f"{after.min():.2f} {np.median(last):.2f}")
except (OSError, ValueError, IndexError) as e:
    print(f"nan nan # {e}")
EOF
)"
avail=$(awk -v u=$UDP 'BEGIN { printf "%.2f", (50 - u) * 1448 / 1514 }')
ratio=$(awk -v a="$low" -v b="$settled" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "nan" }')
kt_diag "after the step: lowest r_avg $low Mbit/s, median of the 3 s before the end $settled (payload avail-bw about $avail): lowest / median $ratio"
kt_cmp "after the step r_avg stays at >= 0.8 of where it settles (lowest / median of the 3 s before the end)" "$ratio" ">=" 0.8
kt_cmp "r_avg settles at >= 0.8 of the payload avail-bw (Mbit/s)" "$settled" ">=" \
	"$(awk -v a="$avail" 'BEGIN { printf "%.2f", 0.8 * a }')"
kt_done
