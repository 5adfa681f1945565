#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/vm/guest-suite.sh SUITE... - run inside the lab kernel (scripts/lab-run):
# each suite in turn, its TAP lines passed through, then a kernel-health
# check per suite: the kernel log gained no WARN, BUG, oops, "scheduling
# while atomic", lockdep, KFENCE or SLUB report while the suite ran.
set -u
export LAB_TOP=${LAB_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
kt_n=0
echo "# guest: kernel $(uname -r), accel ${LAB_ACCEL:-?}, clock ${LAB_CLOCK:-?}, $(nproc) cpu(s)"
health_re='WARNING:|BUG:|Oops|general protection|scheduling while atomic|possible recursive locking|circular locking|KFENCE:|INFO: task .* blocked|Call Trace:|=====.*SLUB|refcount_t:|list_(add|del) corruption'
for suite in "$@"; do
	name=$(basename "$suite" .sh)
	before=$(dmesg | wc -l)
	start=$(date +%s)
	KT_SUITE=$name timeout -k 5 "${KT_SUITE_TIMEOUT:-900}" bash "$suite"
	rc=$?
	case $rc in
	0|1|4) ;;
	124) echo "not ok - $name: suite timed out after ${KT_SUITE_TIMEOUT:-900} s" ;;
	*) echo "not ok - $name: suite exited $rc" ;;
	esac
	echo "# $name: exit $rc after $(( $(date +%s) - start )) s"
	bad=$(dmesg | tail -n +"$((before + 1))" | grep -E "$health_re")
	if [ -n "$bad" ]; then
		echo "not ok - $name: kernel log clean"
		printf '%s\n' "$bad" | head -n 20 | sed 's/^/#   /'
	else
		echo "ok - $name: kernel log clean"
	fi
done
