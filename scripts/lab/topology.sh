# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# topology.sh - the one library that builds lab networks out of network
# namespaces.  Sourced by every VM test and by the benchmark driver; nothing
# else creates namespaces, veths or qdiscs.
#
# The dumbbell (lab_dumbbell):
#
#   snd1 ─┐ fq                     bottleneck                netem
#   snd2 ─┼─────── rtr ─────────────────────── dly ─────────────────── rcv
#   sndK ─┘  (ACK-path netem per   (htb rate R + pfifo/bfifo/   (data: delay
#             sender: its extra      fq_codel/red, B packets)    base/2, loss)
#             RTT)                                               (ACK: base/2)
#
#   - senders: one namespace each, fq on their egress by default (RAPID needs
#     it; --sender-qdisc changes it), TSO/GSO off so that the bottleneck
#     queues real packets;
#   - rtr: the bottleneck on its egress towards dly: htb at --rate with a
#     leaf queue of --buffer packets (--aqm picks the leaf qdisc); the
#     per-sender share of the RTT is netem delay on its egress towards each
#     sender (ACK path), so flows can have different RTTs;
#   - dly: netem on both its egresses: half the smallest RTT each way, the
#     random loss (--loss) and jitter on the data path only;
#   - rcv: the receiver(s).
# IPv4 and IPv6 both work, in documentation ranges: sender i is
# 198.51.100.(4i-2)/30 and 2001:db8:1:i::2/64, the receiver 203.0.113.6 and
# 2001:db8:3::2.  Each topology gets random namespace names; lab_cleanup
# (installed as an EXIT trap by lab_dumbbell) removes everything.
#
# After lab_dumbbell these are set:
#   LAB_SND=(ns1 ns2 ...)  LAB_RTR  LAB_DLY  LAB_RCV     namespace names
#   LAB_RCV4 LAB_RCV6                                      receiver addresses
#   LAB_SND4=(...) LAB_SND6=(...)                          sender addresses
#   LAB_BN_DEV (in LAB_RTR)  LAB_BN_LEAF ("10:")           bottleneck device/qdisc
#   LAB_SND_DEV (in each sender ns: "eth0")

LAB_SND=()
LAB_SND4=()
LAB_SND6=()
LAB_NS_ALL=()
LAB_BG_PIDS=()

# LAB_PY: the guest's interpreter for stdlib-only Python (the suites'
# helpers, the bench driver, sampler and rr); numpy work runs the lab venv's
# python3, first in the guest's PATH.  That one is pyenv's on this machine
# kind, which maps a 23 MB shared libpython through the 9p root at every
# start: 19-22 s of guest time a start where the distribution's static
# /usr/bin/python3 took 1.8-6 s (precise clock, a loaded host, 2026-11-26).
LAB_PY=python3
[ -x /usr/bin/python3 ] && LAB_PY=/usr/bin/python3

lab_log() { printf '# %s\n' "$*" >&2; }

# sleep SECONDS: bash's own timed read instead of /usr/bin/sleep, for every
# script that sources this file (the suites, the bench driver).  A program
# start in the lab guest reads its binary and libraries through the
# uncached 9p root: 120-170 ms of guest time each in the precise clock
# (2026-12-02: 20 x `sleep 0.05` took 3.2-3.5 s, 20 x `/bin/true` 2.6 s,
# 20 timed reads 1.005 s), so polling loops ran at a fifth of their pace
# and scheduled starts came late.  The read waits on a pipe nobody writes;
# anything but a plain non-negative number, or a read that did not time
# out, falls back to the program.
exec {LAB_SLEEP_FD}<> <(:)
sleep() {
	if [ $# -eq 1 ] && [[ $1 =~ ^[0-9]*\.?[0-9]+$ ]]; then
		[[ $1 =~ ^[0.]+$ ]] && return 0
		read -rt "$1" -u "$LAB_SLEEP_FD" || [ $? -le 128 ] || return 0
	fi
	command sleep "$@"
}

# lab_wait_file FILE [SECONDS]: until FILE exists (a helper's --ready
# marker), polled every 50 ms, at most SECONDS (default 30); 1 if it never
# came.
lab_wait_file() {
	local i
	for i in $(seq 1 $((${2:-30} * 20))); do
		[ -e "$1" ] && return 0
		sleep 0.05
	done
	return 1
}

# lab_ns NS CMD...: run CMD inside namespace NS.
lab_ns() {
	local ns=$1
	shift
	ip netns exec "$ns" "$@"
}

_lab_new_ns() {	# _lab_new_ns ROLE -> prints the name
	local name
	name="lab-$1-$(printf '%04x%04x' $RANDOM $RANDOM)"
	ip netns add "$name" || return 1
	LAB_NS_ALL+=("$name")
	ip -n "$name" link set lo up
	# No DAD delay, no stray router solicitations.
	lab_ns "$name" sysctl -qw net.ipv6.conf.all.accept_dad=0 \
		net.ipv6.conf.default.accept_dad=0 net.ipv4.tcp_no_metrics_save=1
	echo "$name"
}

# _lab_link NS1 DEV1 NS2 DEV2: a veth pair between two namespaces.
_lab_link() {
	ip link add "$2" netns "$1" type veth peer name "$4" netns "$3" || return 1
	ip -n "$1" link set "$2" up
	ip -n "$3" link set "$4" up
}

# lab_cleanup: kill what the library started and delete its namespaces.
lab_cleanup() {
	local p ns
	for p in "${LAB_BG_PIDS[@]}"; do
		kill "$p" 2>/dev/null
	done
	for p in "${LAB_BG_PIDS[@]}"; do
		wait "$p" 2>/dev/null
	done
	LAB_BG_PIDS=()
	for ns in "${LAB_NS_ALL[@]}"; do
		ip netns pids "$ns" 2>/dev/null | xargs -r kill 2>/dev/null
		# Abort what lingers (FIN_WAIT, LAST_ACK): such sockets would
		# otherwise hold their congestion-control module for minutes.
		ip netns exec "$ns" ss -K -a -t >/dev/null 2>&1
		ip netns del "$ns" 2>/dev/null
	done
	LAB_NS_ALL=()
	LAB_SND=()
	return 0
}

# lab_bdp_pkts RATE_MBIT RTT_MS [MSS]: bandwidth-delay product in packets.
lab_bdp_pkts() {
	local mss=${3:-1448}
	echo $(( ($1 * 1000000 / 8 * $2 / 1000 + mss - 1) / mss ))
}

# lab_dumbbell [options]
#   --senders K          sender namespaces (default 1)
#   --rate R             bottleneck rate, tc syntax (default 100mbit)
#   --buffer PKTS        bottleneck buffer in packets (default 1 BDP of the
#                        base RTT, at least 10)
#   --aqm Q              leaf qdisc: pfifo (default), bfifo, fq_codel, red
#   --rtt MS[,MS...]     RTT per sender in ms (default 20); the last value
#                        repeats for the remaining senders
#   --loss PCT           random loss on the data path (netem syntax, e.g.
#                        0.1 or "1% 25%" for correlated)
#   --jitter MS          delay jitter on the data path
#   --netem "ARGS"       extra netem arguments on the data path (reorder,
#                        duplicate, corrupt, slot, gemodel ...)
#   --sender-qdisc Q     fq (default), pfifo_fast, noqueue
#   --cc NAME            default congestion control in the senders
#   --mtu BYTES          link MTU (default 1500)
#   --burst BYTES        the bottleneck's token buckets (htb burst and
#                        cburst).  1 serialises packets exactly as a
#                        physical link does (no packet passes before the
#                        previous one's transmission time is over): the
#                        default in virtual time (LAB_CLOCK=precise),
#                        where timers are on time.  With late timers (TCG
#                        fast clock, KVM, a real host) it costs
#                        throughput, so there the default is "15k 1600"
#                        (at most ~1 packet ahead of the rate, which a
#                        chirp sees as a queue that starts 5-6 packets
#                        late: docs/results.md#rapid-bias).
#   --rcv-rmem BYTES     the receiver's initial receive buffer (tcp_rmem's
#                        middle value; default: the kernel's 131072, a
#                        64 KB first window that autotuning about doubles
#                        per round trip, which bounds how fast any sender
#                        can start on a large-BDP path)
lab_dumbbell() {
	local senders=1 rate=100mbit buffer="" aqm=pfifo rtts=20 loss="" jitter=""
	local netem_extra="" sqdisc=fq cc="" mtu=1500 burst="15k" cburst=1600
	local rcv_rmem=""
	[ "${LAB_CLOCK:-}" = precise ] && burst=1 cburst=1
	while [ $# -gt 0 ]; do
		case "$1" in
		--senders) senders=$2; shift ;;
		--rate) rate=$2; shift ;;
		--buffer) buffer=$2; shift ;;
		--aqm) aqm=$2; shift ;;
		--rtt) rtts=$2; shift ;;
		--loss) loss=$2; shift ;;
		--jitter) jitter=$2; shift ;;
		--netem) netem_extra=$2; shift ;;
		--sender-qdisc) sqdisc=$2; shift ;;
		--cc) cc=$2; shift ;;
		--mtu) mtu=$2; shift ;;
		--burst) burst=$2 cburst=$2; shift ;;
		--rcv-rmem) rcv_rmem=$2; shift ;;
		*) lab_log "lab_dumbbell: unknown option $1"; return 2 ;;
		esac
		shift
	done
	[ "$senders" -ge 1 ] && [ "$senders" -le 63 ] || {
		lab_log "lab_dumbbell: --senders 1..63"; return 2; }
	trap lab_cleanup EXIT
	# A netns may default to a module only when the host allows it.
	[ -n "$cc" ] && lab_allow_cc "$cc"

	local -a rtt_list
	IFS=, read -r -a rtt_list <<<"$rtts"
	local min_rtt=${rtt_list[0]} r
	for r in "${rtt_list[@]}"; do
		[ "$r" -lt "$min_rtt" ] && min_rtt=$r
	done
	local half=$((min_rtt / 2))

	LAB_RTR=$(_lab_new_ns rtr) || return 1
	LAB_DLY=$(_lab_new_ns dly) || return 1
	LAB_RCV=$(_lab_new_ns rcv) || return 1
	# $(...) ran _lab_new_ns in a subshell: register the names here so
	# that lab_cleanup finds them.
	LAB_NS_ALL+=("$LAB_RTR" "$LAB_DLY" "$LAB_RCV")
	local ns
	for ns in "$LAB_RTR" "$LAB_DLY"; do
		lab_ns "$ns" sysctl -qw net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1
	done

	# rtr <-> dly <-> rcv
	_lab_link "$LAB_RTR" bn0 "$LAB_DLY" up0 || return 1
	_lab_link "$LAB_DLY" dn0 "$LAB_RCV" eth0 || return 1
	ip -n "$LAB_RTR" addr add 203.0.113.1/30 dev bn0
	ip -n "$LAB_DLY" addr add 203.0.113.2/30 dev up0
	ip -n "$LAB_DLY" addr add 203.0.113.5/30 dev dn0
	ip -n "$LAB_RCV" addr add 203.0.113.6/30 dev eth0
	ip -n "$LAB_RTR" addr add 2001:db8:2::1/64 dev bn0 nodad
	ip -n "$LAB_DLY" addr add 2001:db8:2::2/64 dev up0 nodad
	ip -n "$LAB_DLY" addr add 2001:db8:3::1/64 dev dn0 nodad
	ip -n "$LAB_RCV" addr add 2001:db8:3::2/64 dev eth0 nodad
	ip -n "$LAB_RCV" route add default via 203.0.113.5
	ip -n "$LAB_RCV" -6 route add default via 2001:db8:3::1
	ip -n "$LAB_DLY" route add 198.51.100.0/24 via 203.0.113.1
	ip -n "$LAB_DLY" -6 route add 2001:db8:1::/48 via 2001:db8:2::1
	ip -n "$LAB_RTR" route add 203.0.113.4/30 via 203.0.113.2
	ip -n "$LAB_RTR" -6 route add 2001:db8:3::/64 via 2001:db8:2::2
	LAB_RCV4=203.0.113.6
	LAB_RCV6=2001:db8:3::2
	if [ -n "$rcv_rmem" ]; then
		local rmax=$((rcv_rmem > 6291456 ? rcv_rmem : 6291456))
		lab_ns "$LAB_RCV" sysctl -qw net.ipv4.tcp_rmem="4096 $rcv_rmem $rmax" || return 1
	fi

	# Senders.
	local i rtt extra
	LAB_SND=() LAB_SND4=() LAB_SND6=()
	for i in $(seq 1 "$senders"); do
		ns=$(_lab_new_ns snd$i) || return 1
		LAB_NS_ALL+=("$ns")
		LAB_SND+=("$ns")
		_lab_link "$ns" eth0 "$LAB_RTR" "s$i" || return 1
		ip -n "$ns" addr add "198.51.100.$((4 * i - 2))/30" dev eth0
		ip -n "$LAB_RTR" addr add "198.51.100.$((4 * i - 3))/30" dev "s$i"
		ip -n "$ns" addr add "2001:db8:1:$i::2/64" dev eth0 nodad
		ip -n "$LAB_RTR" addr add "2001:db8:1:$i::1/64" dev "s$i" nodad
		ip -n "$ns" route add default via "198.51.100.$((4 * i - 3))"
		ip -n "$ns" -6 route add default via "2001:db8:1:$i::1"
		LAB_SND4+=("198.51.100.$((4 * i - 2))")
		LAB_SND6+=("2001:db8:1:$i::2")
		# The bottleneck must queue real packets, not TSO super-packets.
		lab_ns "$ns" ethtool -K eth0 tso off gso off >/dev/null 2>&1
		case "$sqdisc" in
		fq) tc -n "$ns" qdisc replace dev eth0 root fq ;;
		noqueue) ;;
		*) tc -n "$ns" qdisc replace dev eth0 root "$sqdisc" ;;
		esac
		[ -n "$cc" ] && lab_ns "$ns" sysctl -qw net.ipv4.tcp_congestion_control="$cc"
		# This sender's RTT minus the 2 x half on dly, on the ACK path (rtr -> sender).
		rtt=${rtt_list[$((i - 1))]:-${rtt_list[-1]}}
		extra=$(( (rtt - 2 * half) * 1000 ))
		tc -n "$LAB_RTR" qdisc replace dev "s$i" root netem delay "${extra}us" limit 100000
		lab_ns "$ns" ip link set eth0 mtu "$mtu"
		ip -n "$LAB_RTR" link set "s$i" mtu "$mtu"
	done
	for dev in bn0; do ip -n "$LAB_RTR" link set $dev mtu "$mtu"; done
	ip -n "$LAB_DLY" link set up0 mtu "$mtu"
	ip -n "$LAB_DLY" link set dn0 mtu "$mtu"
	ip -n "$LAB_RCV" link set eth0 mtu "$mtu"

	# Bottleneck: rtr -> dly.
	local rate_mbit
	rate_mbit=$(_lab_rate_mbit "$rate")
	[ -n "$buffer" ] || buffer=$(lab_bdp_pkts "$rate_mbit" "$min_rtt")
	[ "$buffer" -ge 10 ] || buffer=10
	LAB_BN_DEV=bn0
	LAB_BN_LEAF=10:
	LAB_BUFFER=$buffer
	LAB_RATE=$rate
	LAB_RATE_MBIT=$rate_mbit
	LAB_MIN_RTT=$min_rtt
	tc -n "$LAB_RTR" qdisc replace dev bn0 root handle 1: htb default 1 || return 1
	LAB_BURST="burst $burst cburst $cburst"
	# shellcheck disable=SC2086 # LAB_BURST is a word list
	tc -n "$LAB_RTR" class add dev bn0 parent 1: classid 1:1 htb rate "$rate" ceil "$rate" \
		$LAB_BURST || return 1
	_lab_leaf "$aqm" "$buffer" "$rate_mbit" || return 1

	# Propagation delay, loss and the rest on dly.
	local data_netem="delay ${half}ms"
	[ -n "$jitter" ] && data_netem="$data_netem ${jitter}ms"
	[ -n "$loss" ] && data_netem="$data_netem loss $loss"
	[ -n "$netem_extra" ] && data_netem="$data_netem $netem_extra"
	# shellcheck disable=SC2086
	tc -n "$LAB_DLY" qdisc replace dev dn0 root netem $data_netem limit 100000 || return 1
	tc -n "$LAB_DLY" qdisc replace dev up0 root netem delay "${half}ms" limit 100000 || return 1
	lab_log "dumbbell: ${senders} sender(s), rate $rate, buffer $buffer pkts ($aqm), rtt ${rtts} ms, htb $LAB_BURST${loss:+, loss $loss}${sqdisc:+, sender qdisc $sqdisc}${rcv_rmem:+, receiver rmem $rcv_rmem}"
}

_lab_rate_mbit() {	# tc rate string -> integer Mbit/s (at least 1)
	local r=$1 v
	case "$r" in
	*gbit) v=$(( ${r%gbit} * 1000 )) ;;
	*mbit) v=${r%mbit} ;;
	*kbit) v=$(( ${r%kbit} / 1000 )) ;;
	*) v=$(( ${r%bit} / 1000000 )) ;;
	esac
	[ "$v" -ge 1 ] || v=1
	echo "$v"
}

_lab_leaf() {	# _lab_leaf AQM BUFFER_PKTS RATE_MBIT
	local aqm=$1 buf=$2 mbit=$3
	case "$aqm" in
	pfifo) tc -n "$LAB_RTR" qdisc replace dev bn0 parent 1:1 handle 10: pfifo limit "$buf" ;;
	bfifo) tc -n "$LAB_RTR" qdisc replace dev bn0 parent 1:1 handle 10: bfifo limit $((buf * 1514)) ;;
	fq_codel) tc -n "$LAB_RTR" qdisc replace dev bn0 parent 1:1 handle 10: fq_codel limit "$buf" ;;
	red)
		local max=$((buf * 1514))
		tc -n "$LAB_RTR" qdisc replace dev bn0 parent 1:1 handle 10: red \
			limit $((max * 2)) min $((max / 6)) max $((max / 2)) avpkt 1000 \
			burst $((max / 6 / 1000 + 2)) bandwidth "${mbit}mbit" probability 0.1 ;;
	*) lab_log "lab_dumbbell: --aqm pfifo|bfifo|fq_codel|red"; return 2 ;;
	esac
}

# lab_set_rate RATE: change the bottleneck rate mid-flow.
lab_set_rate() {
	# shellcheck disable=SC2086 # LAB_BURST is a word list
	tc -n "$LAB_RTR" class change dev bn0 parent 1: classid 1:1 htb rate "$1" ceil "$1" \
		${LAB_BURST:-burst 15k cburst 1600}
}

# lab_set_data_netem "NETEM ARGS": replace the data-path impairment on dly
# (keeps half the base RTT of delay unless ARGS has its own delay).
lab_set_data_netem() {
	local args=$1
	case "$args" in *delay*) ;; *) args="delay $((LAB_MIN_RTT / 2))ms $args" ;; esac
	# shellcheck disable=SC2086
	tc -n "$LAB_DLY" qdisc change dev dn0 root netem $args limit 100000
}

# lab_link_down / lab_link_up: take the rtr -> dly link down and back.
lab_link_down() { ip -n "$LAB_RTR" link set bn0 down; ip -n "$LAB_DLY" link set up0 down; }
lab_link_up() {
	ip -n "$LAB_RTR" link set bn0 up
	ip -n "$LAB_DLY" link set up0 up
	ip -n "$LAB_DLY" route replace 198.51.100.0/24 via 203.0.113.1
	ip -n "$LAB_DLY" -6 route replace 2001:db8:1::/48 via 2001:db8:2::1
	ip -n "$LAB_RTR" route replace 203.0.113.4/30 via 203.0.113.2
	ip -n "$LAB_RTR" -6 route replace 2001:db8:3::/64 via 2001:db8:2::2
}

# lab_bn_backlog: "<packets> <bytes> <drops>" of the bottleneck leaf queue.
lab_bn_backlog() {
	tc -n "$LAB_RTR" -s qdisc show dev bn0 | awk '
		/^qdisc/ { leaf = ($3 == "10:") }
		leaf && /dropped/ { gsub(/[,()]/, " "); for (i = 1; i <= NF; i++) if ($i == "dropped") d = $(i + 1) }
		leaf && /backlog/ { b = $2; p = $3; sub(/b$/, "", b); sub(/p$/, "", p) }
		END { printf "%d %d %d\n", p, b, d }'
}

# lab_bg CMD...: start CMD in the background, killed by lab_cleanup.
lab_bg() {
	"$@" &
	LAB_BG_PIDS+=($!)
}

# lab_wait_listen NS PORT [TRIES]: 0 once a TCP socket listens on PORT in
# NS, 1 (and a log line) after TRIES looks 0.25 s apart (default 40).  A
# server's start is seconds of guest time in the precise clock (every exec
# reads the shared root filesystem), so start servers with lab_bg and wait
# here rather than sleeping.
lab_wait_listen() {
	local i
	for i in $(seq 1 "${3:-40}"); do
		lab_ns "$1" ss -Htln "sport = :$2" | grep -q . && return 0
		sleep 0.25
	done
	lab_log "nothing listens on port $2 in $1"
	return 1
}

# lab_iperf_server NS PORT: an iperf3 server (one test, then exits).
lab_iperf_server() {
	lab_bg lab_ns "$1" iperf3 -s -1 -p "$2" >/dev/null 2>&1
	lab_wait_listen "$1" "$2"
}

# lab_iperf NS DST PORT SECONDS CC OUT.json [extra iperf3 args]: one iperf3
# client with congestion control CC; the JSON report goes to OUT.json.
# The client gets SECONDS + LAB_IPERF_GRACE (60) s of (guest) time, then
# SIGINT (iperf3 still writes its report), then SIGKILL 10 s later: an
# iperf3 that waits forever on its control connection would otherwise hold
# a test until its suite's timeout (exit status 124 and a log line then).
lab_iperf() {
	local ns=$1 dst=$2 port=$3 secs=$4 cc=$5 out=$6 bound rc=0
	shift 6
	bound=$(awk -v s="$secs" -v g="${LAB_IPERF_GRACE:-60}" 'BEGIN { print s + g }')
	lab_ns "$ns" timeout --foreground -s INT -k 10 "$bound" \
		iperf3 -c "$dst" -p "$port" -t "$secs" -C "$cc" -J "$@" >"$out" 2>&1 || rc=$?
	[ "$rc" = 124 ] && lab_log "iperf3 to $dst port $port ($cc, $secs s) still ran after $bound s: stopped"
	return "$rc"
}

# lab_udp NS DST PORT RATE SECONDS OUT.json [extra iperf3 args]: UDP cross
# traffic at RATE (iperf3 -b syntax) from NS, evenly spaced: --fq-rate has
# the sender's fq pace the datagrams.  iperf3 alone sends a burst every
# 1 ms (its pacing timer), i.e. ~4 datagrams back to back at 60 Mbit/s;
# LAB_UDP_BURSTY=1 keeps those bursts.  The JSON report goes to OUT.json.
lab_udp() {
	local ns=$1 dst=$2 port=$3 rate=$4 secs=$5 out=$6 fq
	shift 6
	fq=(--fq-rate "$rate")
	[ -n "${LAB_UDP_BURSTY:-}" ] && fq=()
	lab_ns "$ns" iperf3 -c "$dst" -p "$port" -u -b "$rate" -t "$secs" -J "${fq[@]}" "$@" >"$out"
}

# lab_allow_cc NAME...: add algorithms to tcp_allowed_congestion_control
# (init netns), which lets other namespaces and unprivileged sockets use them.
lab_allow_cc() {
	local cur
	cur=$(sysctl -n net.ipv4.tcp_allowed_congestion_control)
	sysctl -qw net.ipv4.tcp_allowed_congestion_control="$cur $*"
}

# lab_cc_available NAME: the algorithm is registered.
lab_cc_available() {
	grep -qw "$1" /proc/sys/net/ipv4/tcp_available_congestion_control
}

# lab_rcv_gro on|off [DEFER_US]: GRO on the receiver's eth0 (after
# lab_dumbbell).  veth receives through NAPI, where GRO runs, only when
# the sending peer has no TSO, so dly's dn0 gets `tso off` with GRO on.
# DEFER_US > 0 also defers the receiver's NAPI by that much
# (gro_flush_timeout, napi_defer_hard_irqs 2): packets then arrive in
# batches, as behind a NIC that coalesces interrupts.
lab_rcv_gro() {
	local on=$1 defer_ns=$((${2:-0} * 1000))
	lab_ns "$LAB_RCV" ethtool -K eth0 gro "$on" >/dev/null || return 1
	if [ "$on" = on ]; then
		lab_ns "$LAB_DLY" ethtool -K dn0 tso off >/dev/null || return 1
	fi
	lab_ns "$LAB_RCV" sh -c "echo $defer_ns >/sys/class/net/eth0/gro_flush_timeout &&
		echo $([ "$defer_ns" -gt 0 ] && echo 2 || echo 0) >/sys/class/net/eth0/napi_defer_hard_irqs"
}
