#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lab-time: 394 (host seconds under TCG, precise clock, measured in
# `tests/run.sh --vm-only` of 2026-12-02, two boots at once, on a host
# whose page cache held next to nothing: tests/run.sh balances its
# parallel boots with it)
#
# Nothing lost, nothing stalls: checked transfers of pseudo-random data
# (tests/vm/xfer.py: SHA-256 of what was sent against what arrived, not
# iperf) with rapid, pert and icc through a 20 Mbit/s, 20 ms path under
# every impairment of netem the issue lists, a link that goes down for 3 s
# and a bottleneck rate that changes mid-transfer (8 MB transfers, so that
# the event is sure to hit them).  Each transfer must deliver every byte
# and reach a minimum goodput from connect() to the server's close (python's
# start-up, 2-13 s in the VM, not counted): MIN_KBPS for 1 MB, EVENT_MIN_KBPS
# for 8 MB through an event, SWITCH_MIN_KBPS for the setsockopt switching,
# NOREC_MIN_KBPS without stream records.  Measured (2026-11-25, precise
# clock, two runs) 1.4-15 Mbit/s for 1 MB (slowest: icc under 10% loss),
# 2.3-16 Mbit/s through the events (slowest: icc through the outage), 2.8
# and 6.8 Mbit/s switching, 0.57-0.62 Mbit/s without records: the bounds
# are 2.3-3x below that and at least 2.5x above the
# 100 kbit/s at which a RAPID stuck at its start rate sends (shown with
# KT_RAPID_ARGS=fixed_rate_kbps=100, docs/reliability.md).  A transfer
# still running after KILL_S is killed and fails.  Then the
# lifecycle: a live socket switched between all four algorithms under
# loss, the stream-record allocation failing (stream_slots=0, the same path
# as a failed GFP_NOWAIT allocation), and 1000 concurrent connections per
# module with the slab memory they cost.  The kernel log is checked after
# the suite (guest-suite.sh).
. "$LAB_TOP/tests/vm/lib.sh"
PY=$LAB_PY
XF=$LAB_TOP/tests/vm/xfer.py
BYTES=$((1024 * 1024))
EVENT_BYTES=$((8 * 1024 * 1024))	# transfers an event hits (xfer)
KILL_S=200		# a transfer still running then is killed (and fails)
MIN_KBPS=500		# 1 MB: measured >= 1370 kbit/s
EVENT_MIN_KBPS=800	# 8 MB through an outage or rate steps: measured >= 2260
SWITCH_MIN_KBPS=1000	# 1 MB switching between algorithms: measured 2800
NOREC_MIN_KBPS=250	# 1 MB with stream_slots=0: measured 617
# For showing that the guard bites (docs/reliability.md): load tcp_rapid
# with KT_RAPID_ARGS (e.g. fixed_rate_kbps=100), run only the impairments
# in KT_INTEGRITY_IMPAIRMENTS and the algorithms in KT_INTEGRITY_CCS, and
# with KT_INTEGRITY_LIFECYCLE=0 nothing after them.
IMPAIRMENTS=${KT_INTEGRITY_IMPAIRMENTS:-"loss10 gemodel reorder duplicate corrupt jitter link rate"}
CCS=${KT_INTEGRITY_CCS:-"rapid pert icc"}
if [ -n "${KT_RAPID_ARGS:-}" ]; then
	kt_diag "tcp_rapid reloaded with: $KT_RAPID_ARGS"
	# shellcheck disable=SC2086 # a list of module parameters
	kt_check "reload tcp_rapid with $KT_RAPID_ARGS" \
		bash -c "rmmod tcp_rapid && insmod $LAB_MODDIR/tcp_rapid.ko $KT_RAPID_ARGS"
fi
lab_allow_cc rapid pert icc
lab_dumbbell --rate 20mbit --rtt 20
snd=${LAB_SND[0]}
PORT=7000
# ip netns exec execs the server: $! is the server itself
ip netns exec "$LAB_RCV" $PY "$XF" server --port $PORT >"$KT_TMP/srv.out" 2>&1 &
LAB_BG_PIDS+=($!)
lab_wait_listen "$LAB_RCV" $PORT

# xfer TAG CC [client args]: one checked transfer; ok when the server got
# exactly what the client sent, and a second check that its goodput
# (bytes over the time from connect() to the server's close, as xfer.py
# reports it) reached MIN_KBPS (XFER_MIN_KBPS if set, EVENT_MIN_KBPS with
# an event).  With XFER_EVENT set
# (a shell function), it runs once the transfer is under way, and the
# transfer is EVENT_BYTES long: at 20 Mbit/s 1 MB could be over before the
# event began (then it tested nothing, and mid_transfer waited out its 20
# s: cubic's and icc's transfers "took" 46-53 s).  That the event began
# mid-transfer is a check of its own.
seed=1
xfer() {
	local tag=$1 cc=$2 out got t0 pid rc bytes=$BYTES secs min=${XFER_MIN_KBPS:-$MIN_KBPS}
	shift 2
	seed=$((seed + 1))
	t0=$SECONDS
	local t0ns
	t0ns=$(date +%s%N)
	[ -n "${XFER_EVENT:-}" ] && bytes=$EVENT_BYTES min=$EVENT_MIN_KBPS
	timeout $KILL_S ip netns exec "$snd" $PY "$XF" client --dst "$LAB_RCV4" \
		--port $PORT --bytes $bytes --seed $seed --cc "$cc" "$@" >"$KT_TMP/cli.out" 2>&1 &
	pid=$!
	if [ -n "${XFER_EVENT:-}" ]; then
		if mid_transfer "$pid"; then
			kt_ok "$tag: $cc: the event began mid-transfer ($((SECONDS - t0)) s in)"
		else
			kt_fail "$tag: $cc: the event began mid-transfer (the transfer was over, or not under way after 20 s)"
		fi
		$XFER_EVENT
	fi
	wait $pid
	rc=$?
	secs=$(awk -v a="$t0ns" -v b="$(date +%s%N)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')
	out=$(cat "$KT_TMP/cli.out")
	local hash=${out#* }
	hash=${hash%% *}
	for _ in $(seq 1 50); do
		got=$(grep -F " $hash" "$KT_TMP/srv.out" | head -n 1)
		[ -n "$got" ] && break
		sleep 0.1
	done
	if [ $rc = 0 ] && [ -n "$hash" ] && [ "$(echo "$got" | awk '{ print $2 }')" = "$bytes" ]; then
		kt_ok "$tag: $cc delivered $bytes bytes intact in $secs s"
	else
		kt_fail "$tag: $cc delivered $bytes bytes intact (client rc $rc: '$out'; server: '$got'; $secs s)"
	fi
	# goodput from connect() to the server's close, as xfer.py measured it
	local xs
	xs=$(echo "$out" | awk '{ for (i = 1; i < NF; i++) if ($i == "secs") print $(i + 1) }')
	kt_cmp "$tag: $cc: goodput (kbit/s, connect to close: $xs s)" \
		"$(awk -v b="$bytes" -v s="$xs" -v rc="$rc" 'BEGIN { if (rc == 0 && s > 0) printf "%.0f", b * 8 / s / 1000; else print "failed" }')" \
		">=" "$min"
}

# mid_transfer PID: wait (at most 20 s) until the transfer to PORT has 100
# KB acknowledged (starting python takes a while in the VM); fails when
# the client PID is gone first.
mid_transfer() {
	local pid=$1 i
	for i in $(seq 1 100); do
		lab_ns "$snd" ss -tniH "dport = :$PORT" | grep -qE 'bytes_acked:[0-9]{6,}' && return 0
		kill -0 "$pid" 2>/dev/null || return 1
		sleep 0.2
	done
	return 1
}
outage() { lab_link_down; sleep 3; lab_link_up; }
rate_steps() { lab_set_rate 4mbit; sleep 1.5; lab_set_rate 40mbit; sleep 1; lab_set_rate 20mbit; }

# impairment NAME: set it up (netem on the data path); "link" and "rate"
# act during the transfer instead.
impair() {
	case $1 in
	loss10) lab_set_data_netem "loss 10%" ;;
	# Gilbert-Elliott: a bad state entered with 1% a packet, left with
	# 60% (bursts of 1.7 packets), 75% lost in it, 0.2% in the good one.
	# Not the 2% 20% 80% 0.5% of before: its bad state lasts 5 packets,
	# and a connection in RTO backoff passes one packet per RTO, so 9
	# packets in a row in it (0.8^8 = 17% of such episodes) cost any TCP
	# 100 s of backoff: cubic took 362 s for 1 MB there (2026-11-26) and
	# icc failed CI at the 120 s socket timeout; no algorithm's doing.
	gemodel) lab_set_data_netem "loss gemodel 1% 60% 75% 0.2%" ;;
	reorder) lab_set_data_netem "delay 10ms reorder 20% 50%" ;;
	duplicate) lab_set_data_netem "duplicate 5%" ;;
	corrupt) lab_set_data_netem "corrupt 2%" ;;
	jitter) lab_set_data_netem "delay 10ms 4ms distribution normal" ;;
	*) lab_set_data_netem "" ;;
	esac
}

for imp in $IMPAIRMENTS; do
	impair $imp
	for cc in $CCS; do
		case $imp in
		link) XFER_EVENT=outage xfer "link down 3 s" $cc ;;
		rate) XFER_EVENT=rate_steps xfer "rate 20 -> 4 -> 40 Mbit/s" $cc ;;
		*) xfer "$imp" $cc ;;
		esac
	done
done
impair none
if [ "${KT_INTEGRITY_LIFECYCLE:-1}" = 0 ]; then
	kt_done
fi

# A live socket switched between the algorithms every 128 KB, under loss.
lab_set_data_netem "loss 1%"
XFER_MIN_KBPS=$SWITCH_MIN_KBPS xfer "setsockopt switching rapid/cubic/pert/icc under 1% loss" rapid \
	--switch cubic,pert,icc,rapid,icc,rapid,cubic,rapid --every 131072
lab_set_data_netem ""

# Stream records unavailable: what a failed allocation in .init leaves.
if kt_rmmod_wait tcp_rapid 60; then
	insmod "$LAB_MODDIR/tcp_rapid.ko" stream_slots=0
	XFER_MIN_KBPS=$NOREC_MIN_KBPS xfer "stream_slots=0 (no records, as after a failed allocation)" rapid
	kt_cmp "stream_slots=0: the socket ran without records (nomem counter unchanged: not an allocation failure)" \
		"$(kt_modstat tcp_rapid nomem)" "==" 0
	kt_rmmod_wait tcp_rapid 60
	insmod "$LAB_MODDIR/tcp_rapid.ko"
else
	kt_fail "rmmod tcp_rapid for the stream_slots=0 run"
fi

# 1000 concurrent connections per module: all connect and exchange data,
# the slab memory they cost is reported, all close and the module unloads.
lab_ns "$LAB_RCV" sysctl -qw net.core.somaxconn=4096
many() {
	local cc=$1 n=1000 before after
	before=$(awk '/^Slab:/ { print $2 }' /proc/meminfo)
	ip netns exec "$snd" $PY - "$LAB_RCV4" $PORT "$cc" $n >"$KT_TMP/many.$cc" 2>&1 <<'EOF_PY'
import socket, sys, time
dst, port, cc, n = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
socks = []
for i in range(n):
    s = socket.socket()
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, cc.encode())
    s.connect((dst, port))
    s.sendall(b"x" * 3000)
    socks.append(s)
time.sleep(2)
with open("/proc/meminfo") as f:
    slab = [l.split()[1] for l in f if l.startswith("Slab:")][0]
ok = sum(1 for s in socks
         if s.getsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, 16).rstrip(b"\0").decode() == cc)
print(len(socks), ok, slab)
for s in socks:
    s.close()
EOF_PY
	read -r opened okcc during <"$KT_TMP/many.$cc"
	kt_cmp "$cc: 1000 concurrent connections opened" "${opened:-0}" "==" $n
	kt_cmp "$cc: all of them run $cc" "${okcc:-0}" "==" $n
	kt_diag "$cc: slab grew by $(( (${during:-$before} - before) )) kB for $n connections (both ends), $(( (${during:-$before} - before) * 1024 / n )) bytes per connection"
}
for cc in rapid pert icc; do
	many $cc
done
for m in tcp_rapid tcp_pert tcp_icc; do
	kt_check "$m unloads once the 1000 connections are closed" kt_rmmod_wait $m 90
	insmod "$LAB_MODDIR/$m.ko" || kt_fail "insmod $m again"
done
kt_done
