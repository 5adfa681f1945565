#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lab-time: 79 (host seconds under TCG, precise clock, measured in the clean-clone
# `make test` of ff2158d, 2026-11-26: tests/run.sh balances its parallel
# boots with it)
#
# RAPID's queue law (law=1, docs/rapid.md "The queue law") against a
# loss-based flow (issue 15; precise clock: the law reads queueing delay).
# One rapid flow, a cubic flow joining it 2 s later for COMP seconds,
# 50 Mbit/s, 40 ms, a 1-BDP drop-tail buffer (the bench scenario vscubic,
# shortened).  The report's law (law=0) yields to the buffer-filling flow
# for good: 0.06 of 47.6 Mbit/s in issue 15's run, 0.006 of a fair share
# in the scale engine.  The queue law detects the standing queue it cannot
# drain and competes (bench vscubic: 1.07-1.09 of a fair share).
# Checks: both iperf3 clients succeed; rapid's share of the goodput over
# the second half of the competition within 0.5..1.5 of a fair share.
# For showing that the bounds bite: KT_RAPID_LAW=0 runs the report's law
# (measured: rapid 0.00 against cubic's 47.7 Mbit/s, the lower bound fails).
. "$LAB_TOP/tests/vm/lib.sh"
. "$LAB_TOP/tests/vm/lib-rapid.sh"

RATE=50
COMP=14		# seconds of competition
LAW=${KT_RAPID_LAW:-1}
# The module's parameters outlive the suite: the law goes back to what it
# was for the suites after this one in the same boot (85-bpftrace's
# injected ABest checks the report's law).
law_was=$(cat "$RAPID_P/law")
restore_law() { echo "$law_was" >"$RAPID_P/law"; }
rapid_reload law="$LAW" || { kt_fail "reload tcp_rapid law=$LAW"; restore_law; kt_done; }
lab_allow_cc rapid
# 1 BDP at 50 Mbit/s and 40 ms: 165 full-size packets
lab_dumbbell --senders 2 --rate ${RATE}mbit --rtt 40 --buffer 165

lab_iperf_server "$LAB_RCV" 5521
lab_iperf_server "$LAB_RCV" 5522
lab_iperf "${LAB_SND[0]}" "$LAB_RCV4" 5521 $((2 + COMP)) rapid "$KT_TMP/r.json" -i 1 &
p1=$!
sleep 2
lab_iperf "${LAB_SND[1]}" "$LAB_RCV4" 5522 $COMP cubic "$KT_TMP/c.json" -i 1 &
p2=$!
wait $p2
crc=$?
wait $p1
rrc=$?
kt_cmp "law=$LAW: the rapid iperf3 client succeeded (exit status)" "$rrc" "==" 0
kt_cmp "law=$LAW: the cubic iperf3 client succeeded (exit status)" "$crc" "==" 0
shares=$($PY - "$KT_TMP/r.json" "$KT_TMP/c.json" "$COMP" <<'EOF'
import json, sys
import numpy as np
try:
    r = json.load(open(sys.argv[1])); c = json.load(open(sys.argv[2]))
    comp = int(sys.argv[3])
    ri = [i["sum"]["bits_per_second"] / 1e6 for i in r["intervals"]]
    ci = [i["sum"]["bits_per_second"] / 1e6 for i in c["intervals"]]
    # rapid started 2 s before cubic: its intervals 2.. are cubic's 0..
    half = comp // 2
    rm, cm = np.mean(ri[2 + half:2 + comp]), np.mean(ci[half:comp])
    print(f"{rm:.2f} {cm:.2f} {rm / ((rm + cm) / 2):.3f}")
except (OSError, ValueError, KeyError, IndexError, ZeroDivisionError) as e:
    print(f"nan nan nan # {e}")
EOF
)
read -r rm cm ratio _ <<<"$shares"
kt_diag "law=$LAW, second half of the competition: rapid $rm Mbit/s, cubic $cm Mbit/s, rapid / fair share $ratio"
kt_cmp "law=$LAW: rapid holds >= 0.5 of a fair share against cubic" "$ratio" ">=" 0.5
kt_cmp "law=$LAW: rapid takes <= 1.5 of a fair share from cubic" "$ratio" "<=" 1.5
restore_law
kt_cmp "tcp_rapid's law parameter is back to what it was ($law_was)" "$(cat "$RAPID_P/law")" "==" "$law_was"
kt_done
