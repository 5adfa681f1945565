#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh - the project in one command (README, `make demo`): set-up, build,
# boot the pinned lab kernel in the precise clock mode, run RAPID, PERT, ICC
# and cubic one after another, each alone for 8 s on a 50 Mbit/s, 40 ms
# dumbbell with a 1-BDP drop-tail buffer (scripts/bench/scenarios/demo.json), and print
#
#   goodput (Mbit/s), p95 bottleneck queue (packets), p95 srtt (ms),
#   retransmitted segments, and the ratios to cubic.
#
# Plots and raw samples land in build/bench/<timestamp>-demo/.  About 3-5
# minutes of wall time under TCG (the precise clock runs ~4x slower than real
# time); on a KVM host or the pinned kernel itself, well under a minute.
#
#   scripts/demo.sh [--cc a,b,...] [--set key=value ...]
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
start=$(date +%s)
bash "$here/bench/run.sh" --scenario demo \
	--columns goodput_mbps,q95_pkts,srtt_p95_ms,retrans,goodput_ratio_vs_cubic,q95_ratio_vs_cubic,srtt_p95_ratio_vs_cubic \
	"$@"
echo "demo: done in $(( $(date +%s) - start )) s of wall time; plots: build/bench/*-demo/timeseries.png" >&2
