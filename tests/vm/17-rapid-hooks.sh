#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lab-time: 70 (host seconds under TCG, precise clock, measured in
# `tests/run.sh --vm-only` of 2026-12-02, two boots at once, on a host
# whose page cache held next to nothing: tests/run.sh balances its
# parallel boots with it)
#
# RAPID's global hooks cost other traffic nothing while no RAPID socket
# exists (issue 18): the LOCAL_OUT hook in every netns and the tcp_probe
# probe, which every packet the host sends and every ACK it takes would
# pass through, are attached by the first RAPID socket and detached 1 s
# after the last (tcp_rapid.c, rapid_hooks_get()).  The state is in
# /sys/module/tcp_rapid/parameters/stats: sockets, hooks_attached,
# hook_attaches, hook_detaches, unhooked_starts.
#  (1) a freshly loaded module has no hooks, while a cubic flow runs too;
#  (2) an active open with rapid (.init in softirq at the handshake)
#      attaches them, and its data is paced and marked as p-streams;
#  (3) a passive open (a listener with rapid: the child's .init runs in
#      softirq) attaches them too, and they detach after the last socket;
#  (4) a module with a detach pending (a socket closed just before)
#      unloads, and loads again without hooks.
. "$LAB_TOP/tests/vm/lib.sh"
PY=$LAB_PY	# stdlib only (scripts/lab/topology.sh)
. "$LAB_TOP/tests/vm/lib-rapid.sh"

rstat() { sed -n "s/^$1 //p" "$RAPID_P/stats"; }

# xfer DST PORT BYTES [CC]: one checked transfer from the sender
xfer() {
	lab_ns "$snd" "$PY" "$LAB_TOP/tests/vm/xfer.py" client --dst "$1" --port "$2" \
		--bytes "$3" ${4:+--cc "$4"} >"$KT_TMP/client.$2" 2>&1
}
# server NS PORT COUNT: xfer.py server, up once it listens
server() {
	lab_bg ip netns exec "$1" "$PY" "$LAB_TOP/tests/vm/xfer.py" server --port "$2" \
		--count "$3" >"$KT_TMP/server.$2"
	lab_wait_listen "$1" "$2"
}
# wait_detached: hooks_attached 0 within 5 s (1 s linger after the last)
wait_detached() {
	for _ in $(seq 1 50); do
		[ "$(rstat hooks_attached)" = 0 ] && return 0
		sleep 0.1
	done
	return 1
}

rapid_reload || { kt_fail "reload tcp_rapid"; kt_done; }
lab_allow_cc rapid
kt_check "tcp_rapid reports its hooks (stats: sockets, hooks_attached)" \
	bash -c "grep -q '^hooks_attached ' $RAPID_P/stats && grep -q '^sockets ' $RAPID_P/stats"
lab_dumbbell --rate 100mbit --rtt 10
snd=${LAB_SND[0]}

# (1) loaded, no RAPID socket: no hooks, also while cubic sends
server "$LAB_RCV" 5901 1 || kt_fail "server 5901 listens"
xfer "$LAB_RCV4" 5901 2000000 cubic
kt_cmp "loaded without a RAPID socket: hooks not attached" "$(rstat hooks_attached)" "==" 0
kt_cmp "... and never were, a cubic flow meanwhile (hook_attaches)" "$(rstat hook_attaches)" "==" 0

# (2) active open: attached during the flow, p-streams paced and marked
server "$LAB_RCV" 5902 1 || kt_fail "server 5902 listens"
marked0=$(rstat marked)
xfer "$LAB_RCV4" 5902 4000000 rapid &
xpid=$!
for _ in $(seq 1 40); do
	[ "$(rstat sockets)" = 1 ] && break
	sleep 0.05
done
sleep 0.3
att=$(rstat hooks_attached)
wait $xpid
kt_diag "client: $(cat "$KT_TMP/client.5902"); stats: $(tr '\n' ' ' <"$RAPID_P/stats")"
kt_cmp "an active rapid connection attaches the hooks (hooks_attached)" "$att" "==" 1
kt_cmp "its data was marked as p-streams (marked delta)" "$(( $(rstat marked) - marked0 ))" ">" 1000
read -r sent _ <"$KT_TMP/client.5902"
for _ in $(seq 1 20); do [ -s "$KT_TMP/server.5902" ] && break; sleep 0.25; done
kt_cmp "every byte arrived (bytes)" "$(awk '{ print $2 }' "$KT_TMP/server.5902")" "==" "${sent:-1}"
wait_detached
kt_cmp "detached after the last socket (hooks_attached, 1 s later)" "$(rstat hooks_attached)" "==" 0
kt_cmp "... no socket counted (sockets)" "$(rstat sockets)" "==" 0

# (3) passive open: a rapid listener in the sender's netns, data to it
# from the receiver's side; the child's .init runs in softirq
lab_bg ip netns exec "$snd" "$PY" -c 'import socket, sys
s = socket.socket()
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, b"rapid")
s.bind(("0.0.0.0", 5903))
s.listen(1)
c, _ = s.accept()
c.sendall(bytes(2000000))
c.close()
s.close()'
lab_wait_listen "$snd" 5903
att0=$(rstat hook_attaches)
got=$(lab_ns "$LAB_RCV" "$PY" -c 'import socket, sys
s = socket.create_connection((sys.argv[1], 5903), timeout=60)
n = 0
while True:
    b = s.recv(65536)
    if not b:
        break
    n += len(b)
print(n)' "${LAB_SND4[0]}" 2>&1)
kt_cmp "a passive rapid connection sent everything (bytes)" "${got:-0}" "==" 2000000
kt_cmp "... and attached the hooks (hook_attaches delta)" "$(( $(rstat hook_attaches) - att0 ))" "==" 1
wait_detached
kt_cmp "detached again after it (hooks_attached)" "$(rstat hooks_attached)" "==" 0

# (4) unload with a detach pending: a short connection, rmmod at once
server "$LAB_RCV" 5904 1 || kt_fail "server 5904 listens"
xfer "$LAB_RCV4" 5904 100000 rapid
kt_diag "right after the last socket: $(tr '\n' ' ' <"$RAPID_P/stats")"
kt_check "unloads with the detach pending" kt_rmmod_wait tcp_rapid 30
kt_check "loads again" insmod "$LAB_MODDIR/tcp_rapid.ko"
kt_cmp "... without hooks (hooks_attached)" "$(rstat hooks_attached)" "==" 0
kt_done
