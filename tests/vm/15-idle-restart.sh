#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lab-time: 29 (host seconds under TCG, precise clock, measured in
# `tests/run.sh --vm-only` of 2026-12-02, two boots at once, on a host
# whose page cache held next to nothing: tests/run.sh balances its
# parallel boots with it)
# lab-k7: yes (also runs in the 7.x boot)
#
# RAPID's restart after idle.  When a connection sends again with nothing in
# flight, TCP raises CA_EVENT_TX_START and RAPID ends the p-stream in
# progress (the next segment starts a new one: docs/rapid.md).  Kernels
# with tcp_congestion_ops.cwnd_event_tx_start (7.x) deliver that event
# only there, never to cwnd_event: a module that handles it only in
# cwnd_event compiles and silently never sees it (compat.h).  RAPID counts
# each delivery in its stats (idle_restarts), counted where it truncates the
# stream.
#
# A connection sends three bursts, each followed by an idle period longer
# than an RTO (nothing in flight: the sender waits for every byte to be
# acknowledged, SIOCOUTQ 0, then sleeps 1 s), and every byte must arrive.
# Each burst starts with nothing in flight, so idle_restarts must grow by at
# least three (the first burst: the first data after the handshake).
. "$LAB_TOP/tests/vm/lib.sh"
PY=$LAB_PY	# stdlib only (scripts/lab/topology.sh)
. "$LAB_TOP/tests/vm/lib-rapid.sh"

rstat() { sed -n "s/^$1 //p" "$RAPID_P/stats"; }

rapid_reload || { kt_fail "reload tcp_rapid"; kt_done; }
kt_check "tcp_rapid has the idle_restarts counter" bash -c "grep -q '^idle_restarts ' $RAPID_P/stats"
lab_allow_cc rapid
lab_dumbbell --rate 50mbit --rtt 10
snd=${LAB_SND[0]}
lab_bg ip netns exec "$LAB_RCV" "$PY" "$LAB_TOP/tests/vm/xfer.py" server --port 5801 --count 1 \
	>"$KT_TMP/server.out"
lab_wait_listen "$LAB_RCV" 5801 80

before=$(rstat idle_restarts)
lab_ns "$snd" "$PY" - "$LAB_RCV4" 5801 >"$KT_TMP/client.out" 2>&1 <<'EOF'
import fcntl, socket, struct, sys, termios, time
s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=60)
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, b"rapid")
cc = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, 16).rstrip(b"\0")
burst = bytes(256 * 1024)
sent = 0
for i in range(3):
    s.sendall(burst)
    sent += len(burst)
    # idle: everything acknowledged (nothing in flight), then > one RTO
    t0 = time.monotonic()
    while struct.unpack("i", fcntl.ioctl(s, termios.TIOCOUTQ, b"\0" * 4))[0]:
        if time.monotonic() - t0 > 30:
            sys.exit("burst %d not acknowledged after 30 s" % i)
        time.sleep(0.01)
    time.sleep(1.0)
s.shutdown(socket.SHUT_WR)
s.recv(1)
s.close()
print(cc.decode(), sent)
EOF
rc=$?
after=$(rstat idle_restarts)
for _ in $(seq 1 40); do [ -s "$KT_TMP/server.out" ] && break; sleep 0.5; done
read -r cc sent <"$KT_TMP/client.out"
got=$(awk '{print $2}' "$KT_TMP/server.out")
kt_diag "client: $(tr '\n' ' ' <"$KT_TMP/client.out"); server: $(cat "$KT_TMP/server.out"); idle_restarts $before -> $after"
[ $rc = 0 ] && [ "$cc" = rapid ] && kt_ok "three bursts with idle periods sent with rapid" ||
	kt_fail "three bursts with idle periods sent with rapid (exit $rc, cc '$cc')"
kt_cmp "every byte arrived after the idle periods (bytes)" "${got:-0}" "==" "${sent:-1}"
kt_cmp "RAPID saw the restart after idle of every burst (idle_restarts delta)" \
	"$(( ${after:-0} - ${before:-0} ))" ">=" 3
kt_done
