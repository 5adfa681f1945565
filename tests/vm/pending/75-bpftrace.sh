#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The bpftrace scripts in scripts/bpftrace/ run against the lab kernel and
# print what their headers promise.
. "$LAB_TOP/tests/vm/lib.sh"
BT=$LAB_TOP/scripts/bpftrace
kt_mount_tracefs || kt_fail "tracefs mounts"

lab_allow_cc rapid icc
lab_dumbbell --rate 50mbit --rtt 10 --buffer 100
snd=${LAB_SND[0]}

# chirp_gaps.bt: a fixed-rate RAPID flow (10 Mbit/s average) to port 5501.
echo 10000 >/sys/module/tcp_rapid/parameters/fixed_rate_kbps
bpftrace "$BT/chirp_gaps.bt" 5501 >"$KT_TMP/gaps" 2>"$KT_TMP/gaps.err" &
bt=$!
for _ in $(seq 1 100); do grep -q '^# ns' "$KT_TMP/gaps" && break; sleep 0.2; done
lab_iperf_server "$LAB_RCV" 5501
lab_iperf "$snd" "$LAB_RCV4" 5501 4 rapid "$KT_TMP/r.json"
kill -INT $bt; wait $bt
echo 0 >/sys/module/tcp_rapid/parameters/fixed_rate_kbps
read -r n mean_us <<<"$(awk '!/^#/ && NF == 4 && $4 < 1e8 { n++; s += $4 } END { printf "%d %.1f\n", n, n ? s / n / 1000 : 0 }' "$KT_TMP/gaps")"
kt_diag "chirp_gaps.bt: $n gaps, mean $mean_us us; $(grep -c '^@gap_us' "$KT_TMP/gaps") histogram"
kt_cmp "chirp_gaps.bt prints one line per data packet" "$n" ">" 500
# 1448-byte payloads at 10 Mbit/s: 1.16 ms on average (slack for TCG).
kt_cmp "chirp_gaps.bt: mean gap matches the 10 Mbit/s fixed rate (us)" "$mean_us" ">" 900
kt_cmp "chirp_gaps.bt: mean gap not above 1.5x the fixed-rate gap (us)" "$mean_us" "<" 1740
kt_check "chirp_gaps.bt prints the gap histogram on exit" grep -q '^@gap_us' "$KT_TMP/gaps"

# icc_wmax.bt: an ICC flow through random loss.
lab_set_data_netem "loss 0.2%"
bpftrace "$BT/icc_wmax.bt" >"$KT_TMP/wmax" 2>"$KT_TMP/wmax.err" &
bt=$!
for _ in $(seq 1 100); do grep -q '^# ns' "$KT_TMP/wmax" && break; sleep 0.2; done
lab_iperf_server "$LAB_RCV" 5502
lab_iperf "$snd" "$LAB_RCV4" 5502 4 icc "$KT_TMP/i.json"
kill -INT $bt; wait $bt
n=$(awk '!/^#/ && NF == 7' "$KT_TMP/wmax" | wc -l)
kt_diag "icc_wmax.bt: $n events; first: $(awk '!/^#/ && NF == 7' "$KT_TMP/wmax" | head -2 | tr '\n' ';')"
kt_cmp "icc_wmax.bt prints one line per loss" "$n" ">=" 1
kt_check "icc_wmax.bt lines carry cwnd >= ssthresh" \
	awk '!/^#/ && NF == 7 { if ($4 < $7) bad = 1; n++ } END { exit bad || !n }' "$KT_TMP/wmax"
kt_done
