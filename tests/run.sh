#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/run.sh - the project's one test command (README, `make test`, .ci/run).
#
# Does its own set-up, then runs, as one flat kselftest-style TAP stream:
#   1. set-up, module builds (pinned 6.12: production, and the lab build
#      with the lab-only parameters that the VM loads; 7.x lab modules in
#      its chroot), production modules without lab parameters, W=1
#      compile matrix (6.12 + 6.1 + 7.3 + sid's 7.2), checkpatch, the DKMS
#      package builds (make dkms, make dkms-k7);
#   2. the userspace unit tests (tests/unit/test_*.c, ASan + UBSan), built
#      from the very headers the modules use, and the libFuzzer targets
#      (tests/fuzz/fuzz_*.c) for FUZZ_SECONDS (default 30) each on their
#      corpus (tests/fuzz/corpus/<target>);
#   3. the lab VM suites (tests/vm/*.sh) inside the pinned kernel, booted by
#      scripts/lab/run.sh in the precise clock mode (see below), and those
#      marked "# lab-k7: yes" once more in a boot of the 7.x kernel
#      (scripts/lab/kernel.env: LAB_K7_KVER; TAP names "vm/7.x: ...").
# Ends with "N passed, N failed, N skipped".  Exit 0 when nothing failed, 1
# otherwise.  A skipped check is a failure unless LAB_ALLOW_SKIP=1 (the lab VM
# is supposed to have everything: mptcp's "expect all features" idea).
#
# Options: --unit-only (2. without fuzzing), --fuzz-only (the fuzzing of
# 2.), --vm-only (just 3.), --filter REGEX (VM suites whose file name
# matches).
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top" || exit 1
# Python imports from the top (scripts.bench, scripts.obs, tests.vm, ...).
export PYTHONPATH=$top${PYTHONPATH:+:$PYTHONPATH}

mode=all
filter=.
while [ $# -gt 0 ]; do
	case "$1" in
	--unit-only) mode=unit ;;
	--vm-only) mode=vm ;;
	--fuzz-only) mode=fuzz ;;
	--filter) filter=$2; shift ;;
	*) echo "usage: $0 [--unit-only|--fuzz-only|--vm-only] [--filter REGEX]" >&2; exit 2 ;;
	esac
	shift
done

n=0 passed=0 failed=0 skipped=0
allow_skip=${LAB_ALLOW_SKIP:-0}
# One log directory per run: several runs may share the tree.
mkdir -p "$top/build/test-logs"
logdir=$(mktemp -d "$top/build/test-logs/$(date +%Y%m%d-%H%M%S).XXXX")

echo "TAP version 13"

# report RESULT NAME [DIAG]: RESULT is ok, fail or skip.
report() {
	local res=$1 name=$2 diag=${3:-}
	n=$((n + 1))
	case "$res" in
	ok) passed=$((passed + 1)); echo "ok $n - $name" ;;
	skip)
		if [ "$allow_skip" = 1 ]; then
			skipped=$((skipped + 1)); echo "ok $n - $name # SKIP $diag"
		else
			failed=$((failed + 1))
			echo "not ok $n - $name # skipped, and skips fail here (LAB_ALLOW_SKIP=1 to allow): $diag"
		fi ;;
	*) failed=$((failed + 1)); echo "not ok $n - $name${diag:+ # $diag}" ;;
	esac
}

# relay PREFIX RC FILE: re-emit a TAP stream renumbered into ours.  Only
# "ok N - name" and "not ok N - name" are results, N counting 1, 2, ... in
# each block of the stream; every block ends with its plan "1..N", which
# must match (a stream may hold several blocks: a lab boot runs many
# suites).  A line that starts like a result but is not one ("okay", "ok -
# x"), a number out of turn, a plan that disagrees or is missing, a
# non-zero exit status without any failed line, and an exit status of 4
# (kselftest's skip) are failures; skips count as failures unless
# LAB_ALLOW_SKIP=1 (report()).
relay() {
	local prefix=$1 rc=$2 file=$3 line name neg num any_fail=0 seg=0 plans=0
	while IFS= read -r line; do
		if [[ "$line" =~ ^(not\ )?ok\ ([0-9]+)\ -\ (.*)$ ]]; then
			neg=${BASH_REMATCH[1]} num=${BASH_REMATCH[2]} name=${BASH_REMATCH[3]}
			seg=$((seg + 1))
			if [ "$num" != "$seg" ]; then
				any_fail=1
				report fail "${prefix}TAP numbering" "test $num where $seg was due: '$line'"
			fi
			if [[ "$name" =~ ^(.*)\ \#\ [Ss][Kk][Ii][Pp]\ ?(.*)$ ]]; then
				report skip "$prefix${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}"
			elif [ -n "$neg" ]; then
				any_fail=1
				report fail "$prefix$name"
			else
				report ok "$prefix$name"
			fi
		elif [[ "$line" =~ ^(not\ )?ok ]]; then
			any_fail=1
			report fail "${prefix}malformed TAP result line" "'$line' (want 'ok N - name')"
		elif [[ "$line" =~ ^1\.\.([0-9]+)$ ]]; then
			plans=$((plans + 1))
			if [ "${BASH_REMATCH[1]}" != "$seg" ]; then
				any_fail=1
				report fail "${prefix}TAP plan" "plan $line after $seg result lines"
			fi
			seg=0
		elif [[ "$line" =~ ^[0-9]+\ passed ]] || [[ "$line" =~ ^TAP\ version ]]; then
			:
		else
			echo "#   ${line#\# }"
		fi
	done <"$file"
	if [ $seg != 0 ] || [ $plans = 0 ]; then
		any_fail=1
		report fail "${prefix}TAP plan" "$seg result lines after the last plan, $plans plan(s) (cut short?)"
	fi
	if [ "$rc" = 4 ]; then
		report skip "${prefix}exit status" "exited 4 (skip)"
	elif [ "$rc" != 0 ] && [ $any_fail = 0 ]; then
		report fail "${prefix}exit status" "exited $rc without a failed check"
	fi
}

# step NAME CMD...: one check from a command's exit status, log kept.
step() {
	local name=$1 log
	shift
	log=$logdir/$(echo "$name" | tr -c 'A-Za-z0-9._-' '_').log
	if "$@" >"$log" 2>&1; then
		report ok "$name"
	else
		report fail "$name" "see $log"
		sed 's/^/#   /' "$log" | tail -n 25
		return 1
	fi
}

finish() {
	echo "1..$n"
	echo "$passed passed, $failed failed, $skipped skipped"
	[ $failed = 0 ] && exit 0
	exit 1
}

# stamp: pass a boot's TAP through, adding to each suite's closing line
# ("# NAME: exit RC after S s, P processes", guest seconds and the
# processes it started) the host seconds it took, the boot's own
# start-up counted with its first suite: what a suite's
# "# lab-time:" line records.  The same line goes to stderr at once, so
# that a long boot is not silent (its TAP is relayed when it ends).
stamp() {
	local line t0=$SECONDS boot=$1
	while IFS= read -r line; do
		if [[ "$line" =~ ^#\ [^\ ]+:\ exit\ [0-9]+\ after\ [0-9]+\ s(,\ [0-9]+\ processes)?$ ]]; then
			line="$line, $((SECONDS - t0)) s of host time"
			t0=$SECONDS
			echo "# progress: boot $boot: ${line#\# }" >&2
		fi
		printf '%s\n' "$line"
	done
}

# run_boots CLOCK PREFIX K7SUITES SUITE...: the suites in min(vms, #units)
# slots of that clock mode at the same time, split by lab-time; their TAP
# relayed in slot order.  A unit is one suite of the pinned kernel's boot,
# or the whole 7.x group K7SUITES (a word list; empty: none), which runs in
# a boot of its own (scripts/lab/run.sh --kver 7, prefix "vm/7.x: ") after its slot's
# pinned-kernel boot.  (Its locals must not shadow report()'s counters.)
run_boots() {
	local clock=$1 prefix=$2 k7=$3 nb g best secs s rc k7secs=0
	shift 3
	[ $# -gt 0 ] || [ -n "$k7" ] || return 0
	for s in $k7; do
		k7secs=$((k7secs + $(lab_time "$s")))
	done
	local units=$#
	[ -z "$k7" ] || units=$((units + 1))
	nb=$vms
	[ "$nb" -gt "$units" ] && nb=$units
	local -a group load pids k7g
	for ((g = 0; g < nb; g++)); do group[g]="" load[g]=0 k7g[g]=0; done
	while read -r secs s; do
		best=0
		for ((g = 1; g < nb; g++)); do
			[ "${load[g]}" -lt "${load[best]}" ] && best=$g
		done
		if [ "$s" = K7 ]; then
			k7g[best]=1
		else
			group[best]="${group[best]} $s"
		fi
		load[best]=$((load[best] + secs))
	done < <({ for s in "$@"; do echo "$(lab_time "$s") $s"; done
		   [ -z "$k7" ] || echo "$k7secs K7"; } | sort -rn)
	for ((g = 0; g < nb; g++)); do
		s=""
		[ "${k7g[g]}" = 1 ] && s=" + the 7.x group"
		echo "# progress: boot $((g + 1)) of $nb:${group[g]}$s (about ${load[g]} s of host time)" >&2
		(
			if [ -n "${group[g]}" ]; then
				# shellcheck disable=SC2086 # the group is a word list
				scripts/lab/run.sh --clock "$clock" --append "$KDEBUG" -- \
					tests/vm/guest-suite.sh ${group[g]} \
					2>"$logdir/vm-$clock$g.err" |
					stamp "$((g + 1)) of $nb" >"$logdir/vm-$clock$g.tap"
				echo "${PIPESTATUS[0]}" >"$logdir/vm-$clock$g.rc"
			fi
			if [ "${k7g[g]}" = 1 ]; then
				# shellcheck disable=SC2086
				scripts/lab/run.sh --kver 7 --clock "$clock" --append "$KDEBUG" -- \
					tests/vm/guest-suite.sh $k7 \
					2>"$logdir/vm-$clock$g-k7.err" |
					stamp "$((g + 1)) of $nb (7.x)" >"$logdir/vm-$clock$g-k7.tap"
				echo "${PIPESTATUS[0]}" >"$logdir/vm-$clock$g-k7.rc"
			fi
		) &
		pids[g]=$!
	done
	for ((g = 0; g < nb; g++)); do
		wait "${pids[g]}"
		for s in "" -k7; do
			if [ -z "$s" ]; then
				[ -n "${group[g]}" ] || continue
			else
				[ "${k7g[g]}" = 1 ] || continue
			fi
			# (no rc file: the boot's shell itself died)
			rc=$(cat "$logdir/vm-$clock$g$s.rc" 2>/dev/null || echo 125)
			[ "$rc" = 0 ] || tail -n 20 "$logdir/vm-$clock$g$s.err" | sed 's/^/#   /'
			if [ -z "$s" ]; then
				relay "$prefix" "$rc" "$logdir/vm-$clock$g.tap"
			else
				relay "${prefix%: }/7.x: " "$rc" "$logdir/vm-$clock$g$s.tap"
			fi
		done
	done
}

# lab_time SUITE: its "# lab-time: SECONDS" (60 when it has none).
lab_time() {
	sed -n 's/^# lab-time: \([0-9]*\).*/\1/p' "$1" | head -n 1 | grep . || echo 60
}

build_ok=1 k7_ok=1
if [ $mode = all ] || [ $mode = vm ]; then
	step "setup: scripts/lab/setup.sh --with-k7 (idempotent, cached)" bash scripts/lab/setup.sh --with-k7 || finish
	step "build: production modules against the pinned 6.12 headers" make -s modules || build_ok=0
	step "build: lab modules (LAB=1, build/lab-modules: what the VM loads)" make -s LAB=1 modules || build_ok=0
	step "build: production modules list no lab-only parameter (modinfo)" \
		bash -c '! /sbin/modinfo -F parm tcp_rapid.ko tcp_rapid_rx.ko |
			grep -E "^(fixed_rate_kbps|inject_abest_kbps|mark_tx_port):"' || true
	step "build: the lab modules list them" \
		bash -c '[ "$(/sbin/modinfo -F parm build/lab-modules/tcp_rapid.ko \
			build/lab-modules/tcp_rapid_rx.ko | grep -cE "^(fixed_rate_kbps|inject_abest_kbps|mark_tx_port):")" = 3 ]' || true
	step "build: lab modules against the 7.x headers (build/k7, in its chroot)" make -s modules-k7 || k7_ok=0
	step "build: userspace tools (build/rapid-trace, used by 60-rapid-rx)" make -s tools || true
	step "build: W=1 warning-free against 6.12, 6.1, 7.3 and sid's 7.2 headers" make -s matrix || true
	step "check: checkpatch --strict clean" make -s check || true
	# (installed and loaded in the VM by tests/vm/80-dkms.sh)
	step "package: dkms add + build of dkms.conf against the pinned kernel" make -s dkms || true
	step "package: dkms build of dkms.conf against the 7.x kernel (in its chroot)" make -s dkms-k7 || true
fi

if [ $mode = all ] || [ $mode = unit ]; then
	if step "unit: build userspace tests (ASan+UBSan)" make -s unit-build; then
		for bin in build/unit/test_*; do
			[ -x "$bin" ] || continue
			t=$(basename "$bin")
			"$bin" >"$logdir/$t.tap" 2>&1
			relay "unit/${t#test_}: " $? "$logdir/$t.tap"
		done
	fi
	# Python unit tests (analysis code) run with the lab venv's python.
	venv_py=$(bash scripts/lab/setup.sh --print-env | sed -n 's/^LAB_VENV=//p')/bin/python
	for t in tests/unit/test_*.py; do
		[ -f "$t" ] || continue
		if [ ! -x "$venv_py" ]; then
			report fail "unit/$(basename "$t" .py)" "no venv python: run scripts/lab/setup.sh"
			continue
		fi
		name=$(basename "$t" .py)
		"$venv_py" "$t" >"$logdir/$name.tap" 2>&1
		relay "unit/${name#test_}: " $? "$logdir/$name.tap"
	done
fi

# libFuzzer, bounded: a crash or a broken invariant fails the target; the
# input that did it is kept in the log directory.
if [ $mode = all ] || [ $mode = fuzz ]; then
	if step "fuzz: build the libFuzzer targets (clang, ASan+UBSan)" make -s fuzz-build; then
		for bin in build/fuzz/fuzz_*; do
			[ -x "$bin" ] || continue
			t=$(basename "$bin")
			work=$(mktemp -d)
			if "$bin" -max_total_time="${FUZZ_SECONDS:-30}" -timeout=10 -rss_limit_mb=2048 \
				-artifact_prefix="$logdir/$t-" "$work" "tests/fuzz/corpus/${t#fuzz_rapid_}" \
				>"$logdir/$t.log" 2>&1; then
				report ok "fuzz/$t: ${FUZZ_SECONDS:-30} s, $(grep -o 'Done [0-9]* runs' "$logdir/$t.log" | tail -n 1), no crash"
			else
				report fail "fuzz/$t" "see $logdir/$t.log"
				grep -E 'ERROR|SUMMARY|runtime error' "$logdir/$t.log" | head -n 5 | sed 's/^/#   /'
			fi
			rm -rf "$work"
		done
	fi
fi

if [ $mode = all ] || [ $mode = vm ]; then
	if [ $build_ok = 0 ]; then
		report fail "vm: lab suites" "modules did not build"
		finish
	fi
	# The runtime checks the pinned kernel has but leaves off: KFENCE is
	# built in with a sample interval of 0 (off); every 10 ms it guards
	# one allocation (out-of-bounds and use-after-free reports, which
	# guest-suite.sh fails on).  (No debug-config 6.12 image in the
	# distro: docs/reliability.md, "Kernel health".)
	KDEBUG="kfence.sample_interval=10"
	# Every suite runs in the precise clock.  Under TCG that is virtual
	# time (icount, sleep=off): timers are exact whatever the host's load,
	# and an idle guest skips ahead, so the mostly waiting functional
	# suites take less host time than in the fast clock (70-integrity: 343
	# s, real time, in the fast clock; 333 guest seconds in 181 s of host
	# time, boot included, in the precise one).  The fast clock, one vCPU
	# per boot, starved the guest: a raw-socket liar in 90-hostile-peer
	# forged 49 ACKs in 5 s instead of 2300, and RTT noise made
	# 50-rapid-loss read random loss as congestive (CI after 377e8d7).
	# Under KVM or on the host both clocks are real time.
	suites=()
	k7suites=""
	for s in tests/vm/[0-9]*.sh tests/vm/timing-*.sh; do
		[ -f "$s" ] || continue
		[[ "$(basename "$s")" =~ $filter ]] || continue
		suites+=("$s")
		# "# lab-k7: yes": also in the 7.x boot (a short group: the
		# modules as users meet them, each algorithm's transfer, the
		# helper's feedback, restart after idle).
		grep -q '^# lab-k7: yes' "$s" && k7suites="$k7suites $s"
	done
	if [ -n "$k7suites" ] && [ $k7_ok = 0 ]; then
		report fail "vm/7.x: lab suites" "modules did not build against 7.x"
		k7suites=""
	fi
	# Under TCG the suites are split over up to two boots in parallel
	# (one per host CPU, at most 2; LAB_VMS=1 for one): greedily by each
	# suite's "# lab-time: SECONDS" (host seconds under TCG, measured:
	# stamp()), longest first.  KVM and the host run in real time: one
	# boot there.
	vms=${LAB_VMS:-$(nproc)}
	[ "$vms" -gt 2 ] && vms=2
	[ "$(scripts/lab/run.sh --print-accel 2>/dev/null)" = tcg ] || vms=1
	[ "$vms" -lt 1 ] && vms=1
	run_boots precise "vm: " "${k7suites# }" "${suites[@]}"
fi

finish
