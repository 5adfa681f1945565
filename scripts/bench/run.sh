#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - lab benchmarks: our congestion controls side by side with the
# kernel's own, on netem-shaped dumbbells in the pinned lab kernel.
#
#   scripts/bench/run.sh [--scenario NAME] [--cc a,b,...] [--set key=value ...]
#                          [--columns a,b,...] [--no-build] [--no-plots] [--list]
#
# With --scenario: that scenario (scripts/bench/scenarios/NAME.json; --cc
# replaces its comparison set, --set overrides any field, e.g. --set
# duration_s=20 --set bottleneck.rate_mbit=20 --set flows.0.rtt_ms=100).
# Without: the default suite (see SUITE below, ~15 min of wall time under TCG).
#
# Steps: set-up (scripts/lab/setup.sh, cached), `make LAB=1` (the lab
# modules, which lab-run loads), then per scenario one boot of the lab
# kernel in the precise clock mode (scripts/lab/run.sh --clock precise)
# running the guest driver (scripts/bench/guest.sh), then the analysis on
# the host (python3 -m scripts.bench analyze: results.json, PNG plots, a
# table).  Output: build/bench/<timestamp>-<name>/
# with plan.json, meta.json (lab mode, wall time), runs/<cc>/ raw samples,
# results.json and the PNGs.  The last line printed for a single scenario
# is one JSON object {"scenario":..., "results": {"<cc>": {...}}, "outdir":...};
# the suite prints one such line per scenario.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
cd "$top"
# The harness's Python package, scripts.bench, imported from the top.
export PYTHONPATH=$top${PYTHONPATH:+:$PYTHONPATH}

# The default suite: demo-sized versions that fit ~15 minutes of wall time
# on a 2-core TCG host (precise clock: ~4x slower than real time).
SUITE=(
	"demo"
	"slowstart --cc rapid,cubic,bbr --set duration_s=10"
	"dynamic --cc rapid,cubic --set time_scale=0.5"
	"rttfair --cc rapid,cubic --set time_scale=0.4"
)

scenario="" ccs="" columns="" build=1 plots=1
sets=()
while [ $# -gt 0 ]; do
	case "$1" in
	--scenario) scenario=$2; shift ;;
	--cc) ccs=$2; shift ;;
	--set) sets+=("$2"); shift ;;
	--columns) columns=$2; shift ;;
	--no-build) build=0 ;;
	--no-plots) plots=0 ;;
	--list) exec python3 -m scripts.bench list ;;
	-h|--help) sed -n "3,23p" "$0" | sed "s/^# \{0,1\}//"; exit 0 ;;
	*) echo "bench: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
	shift
done

log() { printf 'bench: %s\n' "$*" >&2; }

# --- set-up and build ---------------------------------------------------------
# `make bench CC=a,b` exports CC=a,b into MAKEFLAGS: it must not reach the
# module build as the compiler.
unset MAKEFLAGS MAKEOVERRIDES MFLAGS CC
if [ $build = 1 ]; then
	log "set-up (scripts/lab/setup.sh; on a fresh machine it downloads the"
	log "  pinned kernel, QEMU and virtme-ng first: its steps follow)"
	mkdir -p "$top/build"	# a fresh clone has none yet
	set +e
	bash "$top/scripts/lab/setup.sh" 2>&1 | tee "$top/build/bench-setup.log" |
		grep --line-buffered -E '^lab-setup: ' | sed -u 's/^/bench:   /' >&2
	setup_rc=${PIPESTATUS[0]}
	set -e
	[ "$setup_rc" = 0 ] || {
		tail -n 20 "$top/build/bench-setup.log" >&2
		log "set-up failed (log: build/bench-setup.log)"
		exit 1
	}
	log "building the lab modules (make LAB=1)"
	make -s LAB=1 modules >"$top/build/bench-build.log" 2>&1 || {
		tail -n 30 "$top/build/bench-build.log" >&2
		log "module build failed (log: build/bench-build.log)"
		exit 1
	}
fi
eval "$(bash "$top/scripts/lab/setup.sh" --print-env | grep '^LAB_VENV=')"
PY=$LAB_VENV/bin/python3
[ -x "$PY" ] || { log "no analysis python at $PY: run scripts/lab/setup.sh"; exit 1; }

# run_scenario NAME [plan options...]: plan, boot, analyse.
run_scenario() {
	local name=$1
	shift
	local stamp outdir start end rc=0 lab_line accel clock
	stamp=$(date +%Y%m%d-%H%M%S)
	outdir=$top/build/bench/$stamp-$name
	mkdir -p "$outdir"
	"$PY" -m scripts.bench plan --scenario "$name" --out "$outdir" "$@" || return 2
	log "scenario $name -> $outdir"
	start=$(date +%s.%N)
	# The guest driver writes into $outdir (the VM's writable directory);
	# its progress lines ("# bench: run ...") are followed here.
	: >"$outdir/stderr"
	tail -n +1 -F "$outdir/stderr" 2>/dev/null \
		> >(grep --line-buffered -E '^(# bench:|bench:)' >&2) &
	local tail_pid=$!
	"$top/scripts/lab/run.sh" --clock precise --outdir "$outdir" -- \
		bash "$here/guest.sh" "$outdir/plan.json" "$outdir" \
		2> >(tee "$outdir/lab.err" | grep --line-buffered -E '^(# lab:|lab-run:)' >&2) ||
		rc=$?
	end=$(date +%s.%N)
	sleep 0.5
	kill "$tail_pid" 2>/dev/null
	wait "$tail_pid" 2>/dev/null || true
	lab_line=$(grep -m1 '^# lab:' "$outdir/lab.err" || true)
	accel=$(sed -n 's/.*accel=\([^ ]*\).*/\1/p' <<<"$lab_line")
	clock=$(sed -n 's/.*clock=\([^ ]*\).*/\1/p' <<<"$lab_line")
	"$PY" - "$outdir/meta.json" "$start" "$end" "$accel" "$clock" "$rc" "$name" "$@" <<'EOF'
import json, subprocess, sys, platform
path, start, end, accel, clock, rc, name = sys.argv[1:8]
try:
    rev = subprocess.run(["git", "describe", "--always", "--dirty"], capture_output=True,
                         text=True).stdout.strip()
except OSError:
    rev = ""
json.dump({"scenario": name, "args": sys.argv[8:], "wall_s": round(float(end) - float(start), 1),
           "accel": accel, "clock": clock, "lab_rc": int(rc), "git": rev,
           "host": platform.node(), "host_cpus": __import__("os").cpu_count()},
          open(path, "w"), indent=1)
EOF
	if [ "$rc" != 0 ]; then
		log "the lab run of $name exited $rc (guest log: $outdir/stderr, console: $outdir/vng.log)"
		[ "$rc" = 125 ] && return 1
	fi
	local aargs=()
	[ $plots = 0 ] && aargs+=(--no-plots)
	[ -n "$columns" ] && aargs+=(--columns "$columns")
	MPLBACKEND=Agg "$PY" -m scripts.bench analyze "$outdir" "${aargs[@]}" || rc=1
	return $rc
}

status=0
if [ -n "$scenario" ]; then
	args=()
	[ -n "$ccs" ] && args+=(--cc "$ccs")
	for s in "${sets[@]}"; do args+=(--set "$s"); done
	run_scenario "$scenario" "${args[@]}" || status=1
else
	log "default suite: ${#SUITE[@]} scenarios"
	for entry in "${SUITE[@]}"; do
		read -r -a words <<<"$entry"
		extra=()
		for s in "${sets[@]}"; do extra+=(--set "$s"); done
		[ -n "$ccs" ] && extra+=(--cc "$ccs")
		run_scenario "${words[@]}" "${extra[@]}" || status=1
	done
fi
exit $status
