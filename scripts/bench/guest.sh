#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# guest.sh PLAN.json OUTDIR [RUN_INDEX...] - the benchmark's guest
# driver: runs the runs of a plan (made by `python3 -m scripts.bench
# plan`) inside the lab kernel, one after another, and leaves raw samples
# in OUTDIR/<run dir>/.  Run by scripts/bench/run.sh through
# scripts/lab/run.sh, or directly inside an already booted guest
# (tests/vm/timing-40-bench-smoke.sh).
#
# Per run: modprobe the congestion controls it needs, build the dumbbell
# with lab_dumbbell (scripts/lab/topology.sh, the only place that creates
# namespaces and qdiscs), start iperf3 servers, the short-transfer server
# and the sampler (sampler.py: tcp_info of every flow + bottleneck
# qdisc stats every sample_ms), then play the events at their times:
# bulk flows (iperf3 -C CC), CBR streams (iperf3 -u -b), short transfers
# (rr.py client), bottleneck rate changes (lab_set_rate) and netem
# changes (lab_set_data_netem).  Then wait for the flows, stop the sampler,
# tear the topology down.
#
# Files of a run: tcp.csv qdisc.csv cbr.csv (sampler), flow<i>.json cbr<j>.json
# (iperf3 -J), short<k>.csv (response times), events.csv (what ran when),
# run.json (t0, namespaces, errors), topology.log, tc.txt, nstat.txt,
# modstats.txt.
# Exit status: 0 when every run completed, 1 otherwise.
set -u

top=${LAB_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
# The harness's Python package, scripts.bench, imported from the top.
export PYTHONPATH=$top${PYTHONPATH:+:$PYTHONPATH}
# shellcheck source=scripts/lab/topology.sh
. "$top/scripts/lab/topology.sh"
PY=${BENCH_PY:-$LAB_PY}	# stdlib only (topology.sh: LAB_PY)

[ $# -ge 2 ] || { echo "usage: $0 PLAN.json OUTDIR [RUN_INDEX...]" >&2; exit 2; }
plan=$1
out=$2
shift 2
mkdir -p "$out" || exit 1

now_us() { echo "${EPOCHREALTIME/./}"; }
us_to_s() { printf '%d.%06d' "$(($1 / 1000000))" "$(($1 % 1000000))"; }
# bench_modstats WHEN: "# WHEN" and each loaded module's counters
# (/sys/module/<m>/parameters/stats, cumulative over the boot: tcp_rapid's
# estimates and feedback, tcp_rapid_rx's streams, reordered, held, ...).
bench_modstats() {
	local f
	for f in /sys/module/tcp_*/parameters/stats; do
		[ -r "$f" ] || continue
		echo "# $1 ${f#/sys/module/}"
		cat "$f"
	done
}

# sleep_until_us T: sleep until the absolute time T (microseconds).
sleep_until_us() {
	local d=$(($1 - $(now_us)))
	[ "$d" -gt 0 ] && sleep "$(us_to_s "$d")"
	return 0
}

nruns=$($PY -m scripts.bench plan-info "$plan" runs) || exit 1
if [ $# -eq 0 ]; then
	set -- $(seq 0 $((nruns - 1)))
fi

{
	printf '{"accel": "%s", "clock": "%s", "kernel": "%s", "cpus": %d, ' \
		"${LAB_ACCEL:-unknown}" "${LAB_CLOCK:-unknown}" "$(uname -r)" "$(nproc)"
	printf '"start": %s}\n' "$(us_to_s "$(now_us)")"
} >"$out/guest.json"

# Bigger socket buffers than the defaults (6 MB receive window at most)
# so that a 100 Mbit/s x 200 ms path is not receive-window limited.  The
# initial receive buffer stays what the topology set (lab_dumbbell
# --rcv-rmem, the scenario's receiver.rmem_kb; else the kernel's 131072).
bench_tune_ns() {
	local mid
	mid=$(lab_ns "$1" sysctl -n net.ipv4.tcp_rmem | awk '{ print $2 }')
	lab_ns "$1" sysctl -qw net.ipv4.tcp_rmem="4096 ${mid:-131072} 33554432" \
		net.ipv4.tcp_wmem="4096 16384 33554432"
}

# bench_restore_modparams: put back the module parameters run_one changed
# (MP_RESTORE: "FILE=VALUE", newest last; restored in reverse order).
bench_restore_modparams() {
	local i
	for ((i = ${#MP_RESTORE[@]} - 1; i >= 0; i--)); do
		echo "${MP_RESTORE[$i]#*=}" >"${MP_RESTORE[$i]%%=*}" 2>/dev/null
	done
	MP_RESTORE=()
}

# bench_kill_leftovers: SIGKILL whatever still runs in this run's
# namespaces (a process started with SIGTERM ignored would survive
# lab_cleanup and keep a caller's pipe open).
bench_kill_leftovers() {
	local ns
	for ns in "${LAB_NS_ALL[@]}"; do
		ip netns pids "$ns" 2>/dev/null | xargs -r kill -KILL 2>/dev/null
	done
	return 0
}

# bench_trace_start EVENT...: enable these tracepoints ("system:event")
# with an empty buffer (8 MB per CPU); nothing without events.
bench_trace_start() {
	[ $# -gt 0 ] || return 0
	local tr=/sys/kernel/tracing e
	[ -d $tr/events ] || mount -t tracefs nodev $tr 2>/dev/null || return 1
	echo 0 >$tr/tracing_on && echo >$tr/trace && echo 8192 >$tr/buffer_size_kb || return 1
	for e in "$@"; do
		echo 1 >"$tr/events/${e%%:*}/${e#*:}/enable" || return 1
	done
	echo 1 >$tr/tracing_on
}

# bench_trace_stop FILE EVENT...: disable them and save the buffer to FILE.
bench_trace_stop() {
	local out=$1 tr=/sys/kernel/tracing e
	shift
	[ $# -gt 0 ] || return 0
	echo 0 >$tr/tracing_on
	for e in "$@"; do
		echo 0 >"$tr/events/${e%%:*}/${e#*:}/enable" 2>/dev/null
	done
	cat $tr/trace >"$out" 2>/dev/null
	echo >$tr/trace
}

# bench_modules off|loaded|on: the bystander states of a "cpu" scenario
# (RUN_BYSTANDER: the idle connection's cc, then the modules).  Each
# closes the idle connection of the state before; off: unload the modules
# (newest first; a closing socket may hold its module for a round trip);
# loaded: load them from $LAB_MODDIR; on: load them and open one idle
# connection with that cc from the first sender's namespace to the
# receiver's listener (port 5599; ip netns exec execs python: $! is it).
BENCH_IDLE_PORT=5599
bench_modules() {
	local cc=${RUN_BYSTANDER[0]} i m
	local -a mods=("${RUN_BYSTANDER[@]:1}")
	[ -n "${BENCH_IDLE_PID:-}" ] && kill "$BENCH_IDLE_PID" 2>/dev/null &&
		wait "$BENCH_IDLE_PID" 2>/dev/null
	BENCH_IDLE_PID=
	if [ "$1" = off ]; then
		for ((i = ${#mods[@]} - 1; i >= 0; i--)); do
			m=${mods[$i]}
			for _ in $(seq 1 100); do
				[ -d "/sys/module/$m" ] || break
				rmmod "$m" 2>/dev/null && break
				sleep 0.05
			done
			[ -d "/sys/module/$m" ] && return 1
		done
		return 0
	fi
	for m in "${mods[@]}"; do
		[ -d "/sys/module/$m" ] || insmod "$LAB_MODDIR/$m.ko" || return 1
	done
	[ "$1" = on ] || return 0
	ip netns exec "${LAB_SND[0]}" "$PY" -c 'import socket, sys, time
s = socket.socket()
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, sys.argv[3].encode())
s.connect((sys.argv[1], int(sys.argv[2])))
time.sleep(1e6)' "$LAB_RCV4" "$BENCH_IDLE_PORT" "$cc" &
	BENCH_IDLE_PID=$!
}

run_failed=0

# run_one INDEX
run_one() {
	local idx=$1 i cc ns err=""
	local -a FLOW_SND FLOW_PORT FLOW_CC FLOW_SECS CBR_SND CBR_PORT CBR_RATE CBR_SECS
	local -a SHORT_SND SHORT_PORT SHORT_CC RUN_CCS EV_US EV_KIND EV_ARG RUN_TOPO
	local -a RUN_MODPARAMS RUN_TRACE RUN_BYSTANDER MP_RESTORE=()
	local RUN_ID RUN_CC RUN_DIR RUN_DURATION_US RUN_SAMPLE_MS
	local setup
	setup=$($PY -m scripts.bench shell "$plan" "$idx" "$out") || {
		echo "bench: cannot read run $idx of $plan" >&2; return 1; }
	eval "$setup"
	mkdir -p "$RUN_DIR"
	rm -f "$RUN_DIR"/*.csv "$RUN_DIR"/flow*.json "$RUN_DIR"/cbr*.json "$RUN_DIR/error"
	# Everything a run writes goes to the guest's own /tmp (RAM) first and
	# is copied to RUN_DIR (a 9p share with the host) at the end: under
	# the precise clock a process waiting for host I/O falls behind the
	# virtual clock, which would stall the sampler or a flow mid-run.
	local W
	W=$(mktemp -d /tmp/bench-run.XXXXXX)
	cp "$RUN_DIR"/short*.schedule.json "$W/" 2>/dev/null
	echo "# bench: run $RUN_K of $RUN_N: $RUN_ID (${RUN_CCS[*]}; $((RUN_DURATION_US / 1000000)) s of guest time)" >&2

	for cc in "${RUN_CCS[@]}"; do
		lab_cc_available "$cc" || modprobe "tcp_$cc" 2>/dev/null
		lab_cc_available "$cc" || err="congestion control $cc is not available in this kernel"
	done
	# Module parameters of this run (the scenario's modparams), restored
	# after it.
	local mp name val f
	for mp in "${RUN_MODPARAMS[@]}"; do	# "module/param=value"
		[ -n "$err" ] && break
		name=${mp%%=*} val=${mp#*=}
		f=/sys/module/${name%%/*}/parameters/${name#*/}
		if [ -w "$f" ] && MP_RESTORE+=("$f=$(cat "$f")") && echo "$val" >"$f" 2>/dev/null; then
			echo "# bench: $name = $val" >&2
		else
			err="module parameter $name cannot be set to $val"
		fi
	done
	if [ -z "$err" ]; then
		lab_dumbbell "${RUN_TOPO[@]}" >"$W/topology.log" 2>&1 ||
			err="lab_dumbbell ${RUN_TOPO[*]} failed"
	fi
	if [ -n "$err" ]; then
		echo "bench: $RUN_ID: $err" >&2
		echo "$err" >"$W/error"
		bench_restore_modparams
		bench_kill_leftovers
		lab_cleanup
		cp -r "$W/." "$RUN_DIR/"
		rm -rf "$W"
		return 1
	fi
	for ns in "${LAB_SND[@]}" "$LAB_RCV"; do bench_tune_ns "$ns"; done

	# Servers.
	for i in "${!FLOW_PORT[@]}"; do
		lab_iperf_server "$LAB_RCV" "${FLOW_PORT[$i]}" || err="iperf3 server ${FLOW_PORT[$i]}"
	done
	for i in "${!CBR_PORT[@]}"; do
		lab_iperf_server "$LAB_RCV" "${CBR_PORT[$i]}" || err="iperf3 server ${CBR_PORT[$i]}"
	done
	for i in "${!SHORT_PORT[@]}"; do
		lab_bg lab_ns "$LAB_RCV" "$PY" "$top/scripts/bench/rr.py" server --port "${SHORT_PORT[$i]}"
	done
	[ ${#RUN_BYSTANDER[@]} -gt 0 ] &&
		lab_bg lab_ns "$LAB_RCV" "$PY" "$top/scripts/bench/rr.py" server --port $BENCH_IDLE_PORT

	# receiver.capture: the receiver's packets (headers, ns stamps) into
	# rx.pcap, for scripts/rapid/pcap2trace.py and build/rapid-trace.
	local cap_pid=
	if [ "${RUN_CAPTURE:-0}" = 1 ]; then
		lab_bg lab_ns "$LAB_RCV" tcpdump -i eth0 -s 128 -n -q -Z root \
			--time-stamp-precision=nano -w "$W/rx.pcap" tcp \
			2>"$W/tcpdump.log"
		cap_pid=${LAB_BG_PIDS[-1]}
		sleep 1
	fi

	# Tracepoints of the run (the scenario's trace list): into trace.txt.
	bench_trace_start "${RUN_TRACE[@]}" || err="cannot enable tracepoints ${RUN_TRACE[*]}"

	# The sampler: every sender namespace that has a bulk flow.
	local -a sargs=() ports=()
	local seen=" "
	for i in "${!FLOW_SND[@]}"; do
		ports+=("${FLOW_PORT[$i]}")
		case "$seen" in *" ${FLOW_SND[$i]} "*) continue ;; esac
		seen="$seen${FLOW_SND[$i]} "
		sargs+=(--sender "${FLOW_SND[$i]}:${LAB_SND[${FLOW_SND[$i]}]}")
	done
	# ... and every CBR sender's egress: when its stream really ran.
	for i in "${!CBR_SND[@]}"; do
		sargs+=(--cbr "$i:${LAB_SND[${CBR_SND[$i]}]}:eth0")
	done
	rm -f "$W/.ready"
	lab_bg "$PY" "$top/scripts/bench/sampler.py" --out "$W" \
		--interval-ms "$RUN_SAMPLE_MS" --ports "$(IFS=,; echo "${ports[*]}")" \
		"${sargs[@]}" --router "$LAB_RTR" --dev "$LAB_BN_DEV" --ready "$W/.ready" \
		2>"$W/sampler.log"
	local sampler_pid=${LAB_BG_PIDS[-1]}
	lab_wait_file "$W/.ready" 60 || err="the sampler did not start"

	# The modules' counters (cumulative over the boot): before and after.
	bench_modstats start >"$W/modstats.txt"

	# Play the events, with a progress line every 10 guest seconds (the
	# host relays "# bench:" lines: a long run is not silent).
	local t0 t0s k arg hb_pid
	local -a clients=()
	t0=$(now_us)
	t0s=$(us_to_s "$t0")
	( s=0 d=$((RUN_DURATION_US / 1000000))
	  while sleep 10; do
		s=$((s + 10))
		[ $s -lt "$d" ] || break
		echo "# bench: run $RUN_K of $RUN_N: $RUN_ID: $s of $d s of guest time done" >&2
	  done ) &
	hb_pid=$!
	echo "t_s,kind,arg" >"$W/events.csv"
	for k in "${!EV_US[@]}"; do
		sleep_until_us $((t0 + EV_US[k]))
		arg=${EV_ARG[$k]}
		echo "$(us_to_s $(( $(now_us) - t0 ))),${EV_KIND[$k]},$arg" >>"$W/events.csv"
		case "${EV_KIND[$k]}" in
		flow)
			lab_iperf "${LAB_SND[${FLOW_SND[$arg]}]}" "$LAB_RCV4" "${FLOW_PORT[$arg]}" \
				"${FLOW_SECS[$arg]}" "${FLOW_CC[$arg]}" "$W/flow$arg.json" -i 1 -Z &
			clients+=($!) ;;
		cbr)
			lab_udp "${LAB_SND[${CBR_SND[$arg]}]}" "$LAB_RCV4" "${CBR_PORT[$arg]}" \
				"${CBR_RATE[$arg]}" "${CBR_SECS[$arg]}" "$W/cbr$arg.json" -l 1448 2>&1 &
			clients+=($!) ;;
		short)
			lab_ns "${LAB_SND[${SHORT_SND[$arg]}]}" "$PY" "$top/scripts/bench/rr.py" client \
				--dst "$LAB_RCV4" --port "${SHORT_PORT[$arg]}" --cc "${SHORT_CC[$arg]}" \
				--schedule "$W/short$arg.schedule.json" --t0 "$t0s" \
				--out "$W/short$arg.csv" 2>"$W/short$arg.log" &
			clients+=($!) ;;
		rate) lab_set_rate "$arg" || err="lab_set_rate $arg failed" ;;
		netem) lab_set_data_netem "$arg" || err="lab_set_data_netem $arg failed" ;;
		modules) bench_modules "$arg" || err="modules $arg failed" ;;
		esac
	done
	sleep_until_us $((t0 + RUN_DURATION_US))
	kill "$hb_pid" 2>/dev/null
	wait "$hb_pid" 2>/dev/null

	# The flows end a little after their scheduled stop (iperf3's set-up
	# comes first); give them 30 s, then stop them.
	local deadline=$(( $(now_us) + 30000000 )) p alive
	while :; do
		alive=0
		for p in "${clients[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
		[ $alive = 0 ] && break
		if [ "$(now_us)" -gt $deadline ]; then
			err="flows still running 30 s after the end: stopped"
			for p in "${clients[@]}"; do kill "$p" 2>/dev/null; done
			break
		fi
		sleep 0.2
	done
	for p in "${clients[@]}"; do wait "$p" 2>/dev/null; done
	local t_end
	t_end=$(now_us)
	sleep "$(us_to_s $((RUN_SAMPLE_MS * 1000)))"
	kill -TERM "$sampler_pid" 2>/dev/null
	wait "$sampler_pid" 2>/dev/null
	if [ -n "$cap_pid" ]; then
		kill -TERM "$cap_pid" 2>/dev/null
		wait "$cap_pid" 2>/dev/null
	fi
	tc -n "$LAB_RTR" -s qdisc show dev "$LAB_BN_DEV" >"$W/tc.txt" 2>&1
	# TCP's counters of each sender namespace (nstat: absolute, zeros
	# too, no history update): reordering seen (TcpExtTCPSACKReorder,
	# TCPTSReorder), DSACKs, spurious retransmissions, ...
	local i
	for i in "${!LAB_SND[@]}"; do
		echo "# sender $i (${LAB_SND[$i]})"
		lab_ns "${LAB_SND[$i]}" nstat -asz 2>&1
	done >"$W/nstat.txt"
	bench_modstats end >>"$W/modstats.txt"
	bench_trace_stop "$W/trace.txt" "${RUN_TRACE[@]}"
	{
		printf '{"id": "%s", "cc": "%s", "t0": %s, "end": %s, ' "$RUN_ID" "$RUN_CC" \
			"$t0s" "$(us_to_s "$t_end")"
		printf '"router": "%s", "senders": [%s], ' "$LAB_RTR" \
			"$(printf '"%s",' "${LAB_SND[@]}" | sed 's/,$//')"
		# the module parameters as the run left them (read back)
		printf '"modparams": {'
		local sep=""
		for mp in "${RUN_MODPARAMS[@]}"; do
			name=${mp%%=*}
			printf '%s"%s": "%s"' "$sep" "$name" \
				"$(cat "/sys/module/${name%%/*}/parameters/${name#*/}" 2>/dev/null)"
			sep=", "
		done
		printf '}, '
		printf '"error": %s}\n' "$( [ -n "$err" ] && printf '"%s"' "$err" || echo null)"
	} >"$W/run.json"
	[ -n "$err" ] && { echo "$err" >"$W/error"; echo "bench: $RUN_ID: $err" >&2; }
	[ ${#RUN_BYSTANDER[@]} -gt 0 ] && { bench_modules loaded || err="modules not loaded again"; }
	bench_restore_modparams
	bench_kill_leftovers
	lab_cleanup
	rm -f "$W/.ready"
	cp -r "$W/." "$RUN_DIR/"
	rm -rf "$W"
	[ -z "$err" ]
}

RUN_N=$# RUN_K=0
for idx in "$@"; do
	RUN_K=$((RUN_K + 1))
	run_one "$idx" || run_failed=1
done
printf '%s\n' "$(us_to_s "$(now_us)")" >"$out/guest.end"
exit $run_failed
