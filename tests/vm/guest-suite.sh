#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/vm/guest-suite.sh SUITE... - run inside the lab kernel (scripts/lab/run.sh):
# each suite in turn, its TAP lines passed through, then a kernel-health
# check per suite: the kernel log gained no WARN, BUG, oops, "scheduling
# while atomic", lockdep, KFENCE or SLUB report while the suite ran.
set -u
export LAB_TOP=${LAB_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
kt_n=0
echo "# guest: kernel $(uname -r), accel ${LAB_ACCEL:-?}, clock ${LAB_CLOCK:-?}, $(nproc) cpu(s)"
health_re='WARNING:|BUG:|Oops|general protection|scheduling while atomic|possible recursive locking|circular locking|KFENCE:|INFO: task .* blocked|Call Trace:|=====.*SLUB|refcount_t:|list_(add|del) corruption'
# After each suite's own TAP (its results numbered from 1 and its plan),
# a block of two more, numbered and planned the same way: the suite's exit
# status (4, kselftest's skip, is a skip, which tests/run.sh fails unless
# skips are allowed) and the kernel log check.
status=0
# nforks: processes and threads started since boot (/proc/stat)
nforks() { awk '$1 == "processes" { print $2 }' /proc/stat; }
# A heartbeat on stderr every 60 s of guest time: scripts/lab/run.sh's
# watchdog (--idle-timeout) kills a boot whose output stops, and a suite
# may be quietly busy (a benchmark run inside one check) for longer than
# that on a loaded host; a hung guest stops the heartbeat too.
t_start=$(date +%s)
( trap 'kill $sp 2>/dev/null; exit 0' TERM
  while :; do
	sleep 60 & sp=$!
	wait $sp
	echo "# guest-suite: alive, $(( $(date +%s) - t_start )) s of guest time" >&2
  done ) &
hb_pid=$!
for suite in "$@"; do
	name=$(basename "$suite" .sh)
	before=$(dmesg | wc -l)
	start=$(date +%s)
	forks=$(nforks)
	KT_SUITE=$name timeout -k 5 "${KT_SUITE_TIMEOUT:-900}" bash "$suite"
	rc=$?
	# the processes it started, threads included (/proc/stat counts every
	# fork): each program start costs 120-170 ms of guest time here
	# (scripts/lab/topology.sh, sleep), a thread next to nothing
	forks=$(( $(nforks) - forks ))
	echo "# $name: exit $rc after $(( $(date +%s) - start )) s, $forks processes"
	case $rc in
	0) echo "ok 1 - $name: exit status 0" ;;
	4) echo "ok 1 - $name: exit status # SKIP the suite exited 4 (skip)" ;;
	124) echo "not ok 1 - $name: suite timed out after ${KT_SUITE_TIMEOUT:-900} s"; status=1 ;;
	*) echo "not ok 1 - $name: exit status $rc"; status=1 ;;
	esac
	bad=$(dmesg | tail -n +"$((before + 1))" | grep -E "$health_re")
	if [ -n "$bad" ]; then
		echo "not ok 2 - $name: kernel log clean"
		printf '%s\n' "$bad" | head -n 20 | sed 's/^/#   /'
		status=1
	else
		echo "ok 2 - $name: kernel log clean"
	fi
	echo "1..2"
done
kill $hb_pid 2>/dev/null
exit $status
