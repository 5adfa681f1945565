#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lab-time: 280 (host seconds under TCG, precise clock, measured in
# `tests/run.sh --vm-only` of 2026-12-02, two boots at once, on a host
# whose page cache held next to nothing: tests/run.sh balances its
# parallel boots with it)
# (measured 2026-11-25: 493 and 516 s beside three or four other lab VMs,
# load average 8-12, where timing-30 took 995 s against its 375: about
# 200 s on an idle host; it was 124 with cubic and reno)
#
# The benchmark harness end to end, in small: a 5 s scenario with two bulk
# flows, a CBR stream, short transfers and a rate change, run for cubic and
# rapid through the same guest driver as `make bench`
# (scripts/bench/guest.sh), with a module parameter set through the
# scenario's modparams, and analysed by scripts.bench (cli.py).  The results JSON
# must have the metric names of docs/benchmarks.md and values that a broken
# pipeline would get wrong: t90 and the re-acquire time are numbers within
# the run, Jain's index of the two flows at 1 and 2 s is above the 1/2 that
# one flow missing from the series gives and below the 1 of one flow
# counted twice (same cc, same RTT; measured cubic 0.71-0.80, rapid
# 0.59-0.85: RAPID's two flows are not steady in 5 s, hence its lower
# bound), cubic fills the 60-packet buffer (a qdisc sampler reading nothing
# fails) and the queue in ms agrees with the queue in packets, each
# socket's own MSS reached the delivered series (cubic 1448, RAPID 1436;
# delivered x MSS against bytes_acked at the end: cubic within 0.6%, RAPID
# within 3%, since tcpi_delivered also counts spurious retransmissions and
# RAPID retransmits 16-17% here), the module parameter read back in the
# guest is the one set.  jain_10s needs a 10 s bin: in a
# 5 s run it is null by definition (checked to be so).  Precise clock, as
# `make bench` runs (in the fast clock a busy host starts the flows late;
# tests/run.sh runs every suite in the precise clock).
. "$LAB_TOP/tests/vm/lib.sh"

PY=$(bash "$LAB_TOP/scripts/lab/setup.sh" --print-env | sed -n 's/^LAB_VENV=//p')/bin/python
[ -x "$PY" ] || PY=python3
OUT=$KT_TMP/bench
RATE=10

kt_check "scripts.bench plan resolves a scenario with --cc and --set overrides" \
	$PY -m scripts.bench plan --scenario demo --cc cubic,rapid \
	--set duration_s=5 --set bottleneck.rate_mbit=$RATE --set bottleneck.buffer=60 \
	--set 'flows=[{"cc": "@cc", "rtt_ms": 40}, {"cc": "@cc", "rtt_ms": 40, "start_s": 0.5}]' \
	--set 'cross=[{"type": "cbr", "rate_mbit": 4, "start_s": 1, "stop_s": 3}, {"type": "short", "rtt_ms": 20, "start_s": 0.5, "load_mbit": 1, "size_kb": 20}]' \
	--set 'schedule=[{"at_s": 3.5, "rate_mbit": 15}]' \
	--set 'modparams={"tcp_rapid": {"ack_noise_us": 11}}' \
	--out "$OUT"

start=$(date +%s)
kt_check "the guest driver runs both runs without error" \
	bash "$LAB_TOP/scripts/bench/guest.sh" "$OUT/plan.json" "$OUT"
kt_diag "guest driver: $(( $(date +%s) - start )) s"
for cc in cubic rapid; do
	kt_check "$cc: raw samples were written (tcp.csv, qdisc.csv, iperf3 JSON)" \
		test -s "$OUT/runs/$cc/tcp.csv" -a -s "$OUT/runs/$cc/qdisc.csv" \
		-a -s "$OUT/runs/$cc/flow0.json" -a -s "$OUT/runs/$cc/short0.csv"
done

$PY -m scripts.bench analyze "$OUT" --no-plots >"$KT_TMP/analyze.out" 2>&1
rc=$?
[ $rc = 0 ] && kt_ok "scripts.bench analyze succeeds" || {
	kt_fail "scripts.bench analyze succeeds (exit $rc)"
	tail -n 15 "$KT_TMP/analyze.out" | sed 's/^/#   /'
}
tail -n 1 "$KT_TMP/analyze.out" >"$KT_TMP/last.json"
grep -v '^{' "$KT_TMP/analyze.out" | head -n 8 | sed 's/^/# /'

kt_check "the last line is one JSON object with scenario, results, outdir" \
	$PY -c 'import json, sys; d = json.load(open(sys.argv[1]))
assert d["scenario"] == "demo" and set(d["results"]) == {"cubic", "rapid"} and d["outdir"]' \
	"$KT_TMP/last.json"

# Every value the checks need, in one python run: lines "cc.name value".
$PY - "$KT_TMP/last.json" >"$KT_TMP/values" <<'EOF_PY'
import json, sys
d = json.load(open(sys.argv[1]))
keys = ("goodput_mbps util loss q50_pkts q95_pkts q95_ms jain_1s jain_10s t90_s "
        "t90_rtts reacquire_rtts rt_p95_ms flow_goodput_mbps srtt_p95_ms").split()
for cc, r in d["results"].items():
    def out(name, v):
        print(f"{cc}.{name} {'' if v is None else v}")
    out("missing", ",".join(k for k in keys if k not in r) or "none")
    for k in ("goodput_mbps", "util", "loss", "q95_pkts", "jain_1s", "rt_n",
              "goodput_ratio_vs_cubic"):
        out(k, r.get(k))
    out("min_rtt_lo", min(r["flow_min_rtt_ms"]))
    out("min_rtt_hi", max(r["flow_min_rtt_ms"]))
    out("cc_seen", ",".join(r["cc_seen"]))
    ratios = [b / ib for b, ib in zip(r["flow_bytes"], r["iperf_bytes"]) if b and ib]
    out("bytes_lo", min(ratios) if len(ratios) == 2 else None)
    out("bytes_hi", max(ratios) if len(ratios) == 2 else None)
    # one flow counted twice would give both the same bytes (they start
    # 0.5 s apart); the bins Jain's index reads come from the same series
    fb = r["flow_bytes"]
    out("flows_distinct", int(len(fb) == 2 and fb[0] != fb[1]))
    for k in ("t90_s", "reacquire_rtts", "jain_2s", "q95_ms"):
        out(k, r.get(k))
    out("jain_10s_null", int(r.get("jain_10s", 0) is None))
    mss = r.get("flow_mss") or []
    out("mss", ",".join(str(x) for x in mss) or None)
    dv = [x for x in r.get("flow_dlv_over_acked") or [] if x is not None]
    out("dlv_lo", min(dv) if len(dv) == 2 else None)
    out("dlv_hi", max(dv) if len(dv) == 2 else None)
    out("ack_noise_us", (r.get("modparams_seen") or {}).get("tcp_rapid/ack_noise_us"))
    q, qms = r.get("q95_pkts"), r.get("q95_ms")
    out("q_ratio", qms / (q * 1514 * 8 / 10e6 * 1e3) if q and qms is not None else None)
EOF_PY
declare -A V
while read -r k v; do V[$k]=$v; done <"$KT_TMP/values"
kt_diag "values: $(tr '\n' ' ' <"$KT_TMP/values")"
declare -A MSS=([cubic]=1448 [rapid]=1436)
# Jain of two flows: 0.5 when one is missing (measured 2026-11-25: cubic
# 0.71-0.80, rapid 0.59-0.85; the many-flows law of 2026-11-26 took rapid
# to 0.997 at 2 s once, so an upper bound cannot tell a flow counted
# twice from two fair flows: flows_distinct does)
declare -A JAIN_MIN=([cubic]=0.6 [rapid]=0.52)
# delivered x MSS / bytes_acked at the end (measured: cubic 1.0007-1.0031,
# rapid 1.0007-1.0203 at 16% retransmissions)
declare -A DLV_MAX=([cubic]=1.006 [rapid]=1.03)
Q95_CUBIC_MIN=30	# cubic fills the 60-packet buffer (measured 58)

for cc in cubic rapid; do
	[ "${V[$cc.missing]:-}" = none ] && kt_ok "$cc: every expected metric name is there" ||
		kt_fail "$cc: every expected metric name is there (missing: ${V[$cc.missing]:-all})"
	# Bytes the sampler last saw acknowledged against the bytes iperf3's
	# receiver counted, per flow (the sampler may miss the last period).
	kt_cmp "$cc: sampler and iperf3 agree on both flows' bytes (ratio >= 0.8)" \
		"${V[$cc.bytes_lo]:-}" ">=" 0.8
	kt_cmp "$cc: sampler and iperf3 agree on both flows' bytes (ratio <= 1.02)" \
		"${V[$cc.bytes_hi]:-}" "<=" 1.02
	kt_cmp "$cc: goodput (Mbit/s) is positive" "${V[$cc.goodput_mbps]:-}" ">" 0
	kt_cmp "$cc: goodput is below the bottleneck rate" "${V[$cc.goodput_mbps]:-}" "<" $RATE
	kt_cmp "$cc: utilisation is at most 1" "${V[$cc.util]:-}" "<=" 1.02
	kt_cmp "$cc: utilisation is positive" "${V[$cc.util]:-}" ">" 0
	kt_cmp "$cc: loss is a fraction" "${V[$cc.loss]:-}" "<" 1
	kt_cmp "$cc: the flows' measured min RTT is the scenario's 40 ms (>=)" \
		"${V[$cc.min_rtt_lo]:-}" ">=" 39.5
	kt_cmp "$cc: the flows' measured min RTT is the scenario's 40 ms (<=)" \
		"${V[$cc.min_rtt_hi]:-}" "<=" 60
	kt_cmp "$cc: two flows, not one counted twice (their bytes differ)" \
		"${V[$cc.flows_distinct]:-}" "==" 1
	kt_cmp "$cc: Jain's index at 1 s: both flows there" "${V[$cc.jain_1s]:-}" ">=" "${JAIN_MIN[$cc]}"
	kt_cmp "$cc: Jain's index at 2 s: both flows there" "${V[$cc.jain_2s]:-}" ">=" "${JAIN_MIN[$cc]}"
	kt_cmp "$cc: jain_10s is null in a 5 s run (no 10 s bin)" "${V[$cc.jain_10s_null]:-}" "==" 1
	kt_cmp "$cc: t90 is a time within the run (s, > 0)" "${V[$cc.t90_s]:-}" ">" 0
	kt_cmp "$cc: t90 is a time within the first half of the run (s, < 2.5; measured 0.2)" "${V[$cc.t90_s]:-}" "<" 2.5
	kt_cmp "$cc: the re-acquire time is a number of RTTs (> 0)" "${V[$cc.reacquire_rtts]:-}" ">" 0
	kt_cmp "$cc: the re-acquire time is within the run (< 5 s = 125 RTTs)" "${V[$cc.reacquire_rtts]:-}" "<" 125
	[ "${V[$cc.mss]:-}" = "${MSS[$cc]},${MSS[$cc]}" ] &&
		kt_ok "$cc: the sampler recorded each socket's own MSS (${MSS[$cc]})" ||
		kt_fail "$cc: the sampler recorded each socket's own MSS (got '${V[$cc.mss]:-}', want ${MSS[$cc]},${MSS[$cc]})"
	kt_cmp "$cc: delivered x MSS = bytes_acked at the end, both flows (ratio >=)" \
		"${V[$cc.dlv_lo]:-}" ">=" 0.995
	kt_cmp "$cc: delivered x MSS = bytes_acked at the end, both flows (ratio <=)" \
		"${V[$cc.dlv_hi]:-}" "<=" "${DLV_MAX[$cc]}"
	kt_cmp "$cc: the scenario's modparams reached the guest (tcp_rapid ack_noise_us)" \
		"${V[$cc.ack_noise_us]:-}" "==" 11
	# backlog bytes against packets: q95_ms over what q95_pkts full frames
	# take at 10 Mbit/s (the rate is 10 or 15 Mbit/s: 0.67-1; measured 0.96-1)
	kt_cmp "$cc: q95 in ms agrees with q95 in packets (ratio >= 0.5)" "${V[$cc.q_ratio]:-}" ">=" 0.5
	kt_cmp "$cc: q95 in ms agrees with q95 in packets (ratio <= 1.1)" "${V[$cc.q_ratio]:-}" "<=" 1.1
	kt_cmp "$cc: short transfers completed" "${V[$cc.rt_n]:-}" ">=" 3
	[ "${V[$cc.cc_seen]:-}" = "$cc,$cc" ] && kt_ok "$cc: the sampler saw $cc on both flows" ||
		kt_fail "$cc: the sampler saw $cc on both flows (got ${V[$cc.cc_seen]:-})"
done
kt_cmp "cubic: q95 fills much of the 60-packet buffer (packets)" "${V[cubic.q95_pkts]:-}" ">=" $Q95_CUBIC_MIN
kt_cmp "rapid: goodput_ratio_vs_cubic is there" "${V[rapid.goodput_ratio_vs_cubic]:-}" ">" 0
kt_check "no namespace of the benchmark is left behind" \
	bash -c '! ip netns list | grep -q "^lab-"'

kt_done
