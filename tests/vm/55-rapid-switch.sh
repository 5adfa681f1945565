#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lab-time: 233 (host seconds under TCG, precise clock, measured in
# `tests/run.sh --vm-only` of 2026-12-02, two boots at once, on a host
# whose page cache held next to nothing: tests/run.sh balances its
# parallel boots with it)
#
# Leaving RAPID is clean (docs/rapid.md, "Switching away"): a socket
# switched from rapid to cubic mid-transfer (setsockopt(TCP_CONGESTION))
# must get back what tcp_rapid's .init changed (one MSS per skb, the MSS
# lowered for the data option, sk_pacing_shift 7), so that cubic behaves
# as on a fresh socket.  Two 8 s transfers on the same 100 Mbit/s, 20 ms
# path: A starts with rapid and switches to cubic at 3 s, B is cubic from
# the start.  From 4 s on, the kernel's net_dev_queue tracepoint (a hist
# trigger: every skb handed to the sender's device, before fq and before
# software GSO splits it) sums the skbs longer than two MSS; the sender
# samples TCP_INFO itself (tests/vm/rapid_probe.py).  Checks, A against B:
#  (1) cubic's skbs carry several MSS again: at least half of the bytes A
#      sent after 4 s left in skbs of > 3000 bytes (RAPID: none), and
#      their mean size is within a factor 2 of B's (sk_pacing_shift: 7
#      makes TCP's autosized skbs up to 8 times as large);
#  (2) the same MSS as the fresh socket (tcpi_snd_mss);
#  (3) throughput from 5 s to 8 s (tcpi_bytes_acked) within 15% of B's.
. "$LAB_TOP/tests/vm/lib.sh"
PY=$LAB_PY	# stdlib only (scripts/lab/topology.sh)
. "$LAB_TOP/tests/vm/lib-rapid.sh"

rapid_reload || { kt_fail "reload tcp_rapid"; kt_done; }
KEEP=${LAB_OUTDIR:-$KT_TMP}/rapid-switch	# the samples, kept for a look
mkdir -p "$KEEP"
lab_allow_cc rapid
lab_dumbbell --rate 100mbit --rtt 20
snd=${LAB_SND[0]}
dst=${LAB_RCV4:-203.0.113.6}
rapid_sink "$LAB_RCV" --port 5801 --port 5802 || { kt_fail "sink starts"; kt_done; }
# tracefs of its own under /tmp: `ip netns exec` (the sender's --at
# writes the trigger) mounts a fresh /sys, without /sys/kernel/tracing
TR=$KT_TMP/tracing
mkdir -p "$TR" && mount -t tracefs nodev "$TR" || { kt_fail "tracefs"; kt_done; }
TRIG=$TR/events/net/net_dev_queue/trigger
HIST=$TR/events/net/net_dev_queue/hist
H='hist:keys=name:vals=hitcount,len if len > 3000'

# run TAG PORT [rapid_probe.py send options]: 8 s transfer; the trigger is
# set at 4 s and its sums for the sender's eth0 land in $KEEP/TAG.hist
run() {
	local tag=$1 port=$2
	shift 2
	rapid_send "$snd" "$dst:$port" 8 "$KEEP/$tag.jsonl" --sample-ms 100 \
		--at "4.0:$TRIG=$H" "$@"
	grep -q 'if len > 3000' "$TRIG" || kt_diag "$tag: the hist trigger was not set"
	grep 'name: *eth0 ' "$HIST" >"$KEEP/$tag.hist"
	echo "!$H" >>"$TRIG"
}

# stats FILE.jsonl HIST: "sent_after_4s big_bytes big_skbs mss_at_end
# acked_bps_5_to_8 cc_at_end" (python: the samples are JSON)
stats() {
	"$PY" - "$1" "$2" <<'EOF'
import json, re, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if '"acked"' in l]
def at(t):
    return min(recs, key=lambda r: abs(r["t"] - t))
h = open(sys.argv[2]).read()
m = re.search(r"hitcount:\s*(\d+)\s+len:\s*(\d+)", h)
skbs, big = (int(m.group(1)), int(m.group(2))) if m else (0, 0)
last = recs[-1]
a5, a8 = at(5.0), last
bps = (a8["acked"] - a5["acked"]) * 8 / (a8["t"] - a5["t"])
print(last["sent"] - at(4.0)["sent"], big, skbs, last["mss"], int(bps), last["cc"])
EOF
}

run switch 5801 --cc rapid --switch 3.0:cubic
run fresh 5802 --cc cubic
read -r a_sent a_big a_skbs a_mss a_bps a_cc < <(stats "$KEEP/switch.jsonl" "$KEEP/switch.hist")
read -r b_sent b_big b_skbs b_mss b_bps b_cc < <(stats "$KEEP/fresh.jsonl" "$KEEP/fresh.hist")
kt_diag "switched: cc $a_cc, sent after 4 s $a_sent B, in skbs > 3000 B: $a_big B in $a_skbs skbs, mss $a_mss, $a_bps bit/s (5-8 s)"
kt_diag "fresh:    cc $b_cc, sent after 4 s $b_sent B, in skbs > 3000 B: $b_big B in $b_skbs skbs, mss $b_mss, $b_bps bit/s (5-8 s)"

kt_check "the switched socket runs cubic" test "$a_cc" = cubic
kt_check "the fresh socket sent skbs of several MSS (the probe sees them)" test "${b_skbs:-0}" -gt 0
kt_cmp "switched to cubic: share of bytes in skbs > 3000 B" \
	"$(awk -v b="$a_big" -v s="$a_sent" 'BEGIN { if (s > 0) printf "%.3f", b / s }')" ">=" 0.5
if [ "${a_skbs:-0}" -gt 0 ] && [ "${b_skbs:-0}" -gt 0 ]; then
	kt_cmp "switched to cubic: mean large skb / fresh cubic's" \
		"$(awk -v a="$a_big" -v n="$a_skbs" -v b="$b_big" -v m="$b_skbs" \
			'BEGIN { printf "%.3f", (a / n) / (b / m) }')" "<=" 2
	kt_cmp "switched to cubic: mean large skb / fresh cubic's (lower bound)" \
		"$(awk -v a="$a_big" -v n="$a_skbs" -v b="$b_big" -v m="$b_skbs" \
			'BEGIN { printf "%.3f", (a / n) / (b / m) }')" ">=" 0.5
else
	kt_fail "switched to cubic: mean large skb (no large skbs to compare)"
fi
kt_check "switched to cubic: the fresh socket's MSS ($a_mss vs $b_mss)" \
	test "${a_mss:-0}" -gt 0 -a "${a_mss:-0}" = "${b_mss:-}"
kt_cmp "switched to cubic: throughput 5-8 s / fresh cubic's" \
	"$(awk -v a="$a_bps" -v b="$b_bps" 'BEGIN { if (b > 0) printf "%.3f", a / b }')" ">=" 0.85
kt_cmp "switched to cubic: throughput 5-8 s / fresh cubic's (upper bound)" \
	"$(awk -v a="$a_bps" -v b="$b_bps" 'BEGIN { if (b > 0) printf "%.3f", a / b }')" "<=" 1.15
umount "$TR"
kt_done
