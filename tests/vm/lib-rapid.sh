# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# tests/vm/lib-rapid.sh - helpers of the RAPID sender suites
# (tests/vm/timing-50-rapid-sender.sh, tests/vm/50-rapid-*.sh), sourced
# after tests/vm/lib.sh.  Not a suite itself (the runner picks up
# tests/vm/[0-9]*.sh and tests/vm/timing-*.sh only).

RAPID_P=/sys/module/tcp_rapid/parameters
RAPID_PROBE=$LAB_TOP/tests/vm/rapid_probe.py
RAPID_GAPS=$LAB_TOP/scripts/rapid/gaps.py
PY=${PY:-python3}	# the venv's (numpy); stdlib-only suites set $LAB_PY
# get_info flags (docs/rapid.md, "get_info")
RAPID_F_FQ=1 RAPID_F_INTERNAL=2 RAPID_F_INJECT=8 RAPID_F_LOSS=16

# rapid_reload [PARAM=VALUE...]: a fresh tcp_rapid (default parameters,
# pr_info_once re-armed).  Waits for sockets of earlier tests to go away.
rapid_reload() {
	local i
	for i in $(seq 1 50); do
		[ -d /sys/module/tcp_rapid ] || break
		rmmod tcp_rapid 2>/dev/null && break
		sleep 0.2
	done
	[ -d /sys/module/tcp_rapid ] && { kt_diag "tcp_rapid still in use"; return 1; }
	insmod "$LAB_MODDIR/tcp_rapid.ko" "$@"
}

# rapid_cap_start NS FILE FILTER: tcpdump on NS's eth0 (the sender's egress:
# departures from fq), nanosecond stamps, headers only.
rapid_cap_start() {
	local i
	rm -f "$2.err"
	# ip netns exec execs tcpdump: $! is tcpdump itself
	ip netns exec "$1" tcpdump -i eth0 -s 96 -B 16384 -n \
		--time-stamp-precision=nano -w "$2" "$3" 2>"$2.err" &
	RAPID_CAP_PID=$!
	for i in $(seq 1 100); do
		grep -q listening "$2.err" 2>/dev/null && return 0
		sleep 0.05
	done
	kt_diag "tcpdump did not start: $(cat "$2.err")"
	return 1
}

# rapid_cap_stop: let tcpdump drain its ring, then stop it.
rapid_cap_stop() {
	sleep 0.5
	kill -INT "$RAPID_CAP_PID" 2>/dev/null
	wait "$RAPID_CAP_PID" 2>/dev/null
}

# rapid_sink NS [rapid_probe.py sink options]: one discard server for all
# the ports given (--port P, --trickle P:KBPS).
rapid_sink() {
	local ns=$1 port
	shift
	lab_bg ip netns exec "$ns" "$LAB_PY" "$RAPID_PROBE" sink "$@" >/dev/null
	port=$(echo "$*" | sed -E 's/^.*(--port|--trickle) ([0-9]+).*$/\2/')
	lab_wait_listen "$ns" "$port" 80
}

# rapid_send NS HOST:PORT SECS OUT.jsonl [rapid_probe.py send options]
rapid_send() {
	local ns=$1 dst=$2 secs=$3 out=$4
	shift 4
	lab_ns "$ns" "$LAB_PY" "$RAPID_PROBE" send --connect "$dst" --secs "$secs" \
		--out "$out" "$@"
}

# wait_file FILE [SECONDS]: until FILE exists (rapid_probe.py --at writes
# such markers at exact times of a flow).
wait_file() {
	lab_wait_file "$@" && return 0
	kt_diag "no $1 after ${2:-30} s"
	return 1
}

# drop_every NTH PORT: the router drops every NTH packet sent to PORT
# (deterministic, tc gact), on its ingress from sender 1.
drop_every() {
	tc -n "$LAB_RTR" qdisc replace dev s1 clsact
	tc -n "$LAB_RTR" filter replace dev s1 ingress protocol ip prio 1 u32 \
		match ip protocol 6 0xff match ip dport "$2" 0xffff \
		action pass random determ drop "$1"
}

drop_none() { tc -n "$LAB_RTR" qdisc del dev s1 clsact 2>/dev/null; }

# rapid_ticker_start / rapid_ticker_stop: in the precise clock an idle CPU
# jumps to its next timer whenever it waits, for instance for a 9p read of
# a program being started, so with sparse timers every command of a set-up
# phase costs seconds of guest time (and guest-suite.sh's timeout counts
# guest time).  A pending 2 ms timer bounds each jump.  Builtins only, ~1%
# of the CPU; never while something is measured.  No-op in the fast clock.
_rapid_tick() {
	exec 3<>"$1"
	while :; do
		read -r -t 0.002 -u 3 _
	done
}
rapid_ticker_start() {
	[ "${LAB_CLOCK:-}" = precise ] || return 0
	[ -p "$KT_TMP/tick" ] || mkfifo "$KT_TMP/tick"
	lab_bg _rapid_tick "$KT_TMP/tick"
	RAPID_TICKER=${LAB_BG_PIDS[-1]}
}
rapid_ticker_stop() {
	[ -n "${RAPID_TICKER:-}" ] || return 0
	kill "$RAPID_TICKER" 2>/dev/null
	wait "$RAPID_TICKER" 2>/dev/null
	RAPID_TICKER=
}
