# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# tests/vm/lib.sh - what every VM suite sources: kselftest-style TAP output
# and the shared topology library (scripts/lab/topology.sh).  A suite is a
# bash script run inside the lab kernel by tests/vm/guest-suite.sh; it
# reports with kt_ok/kt_fail/kt_skip/kt_check and ends with kt_done.

# shellcheck source=scripts/lab/topology.sh
. "$LAB_TOP/scripts/lab/topology.sh"

# The suites' Python imports from the top (scripts.rapid, tests.vm, ...).
export PYTHONPATH=$LAB_TOP${PYTHONPATH:+:$PYTHONPATH}

# The tcp_*.ko lab-run loaded (build/k7 for the 7.x kernel).
LAB_MODDIR=${LAB_MODDIR:-$LAB_TOP}

KT_N=0
KT_FAILED=0
KT_SKIPPED=0
KT_SUITE=${KT_SUITE:-$(basename "$0" .sh)}
KT_TMP=$(mktemp -d /tmp/kt.XXXXXX)
KSFT_PASS=0 KSFT_FAIL=1 KSFT_SKIP=4

kt_ok() { KT_N=$((KT_N + 1)); echo "ok $KT_N - $KT_SUITE: $*"; }
kt_fail() { KT_N=$((KT_N + 1)); KT_FAILED=$((KT_FAILED + 1)); echo "not ok $KT_N - $KT_SUITE: $*"; }
kt_skip() { KT_N=$((KT_N + 1)); KT_SKIPPED=$((KT_SKIPPED + 1)); echo "ok $KT_N - $KT_SUITE: $1 # SKIP $2"; }
kt_diag() { echo "# $*"; }

# kt_check NAME CMD...: ok when CMD succeeds; on failure CMD's output is shown.
kt_check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		kt_ok "$name"
	else
		kt_fail "$name"
		printf '%s\n' "$out" | tail -n 15 | sed 's/^/#   /'
	fi
}

# kt_check_not NAME CMD...: ok when CMD fails.
kt_check_not() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		kt_fail "$name (unexpectedly succeeded)"
		printf '%s\n' "$out" | tail -n 5 | sed 's/^/#   /'
	else
		kt_ok "$name"
	fi
}

# kt_isnum X: X is a finite decimal number (no nan, inf, None, empty).
kt_isnum() {
	[[ "$1" =~ ^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$ ]]
}

# kt_cmp NAME VALUE OP LIMIT: numeric comparison with awk (floats allowed),
# OP one of < <= > >= == !=; the values are printed either way.  A VALUE or
# LIMIT that is not a finite decimal number ("nan", "None", "", a python
# traceback) fails: awk would compare it as a string.
kt_cmp() {
	local name=$1 v=$2 op=$3 lim=$4
	case "$op" in
	"<"|"<="|">"|">="|"=="|"!=") ;;
	*) kt_fail "$name (bad operator '$op')"; return ;;
	esac
	if ! kt_isnum "$v" || ! kt_isnum "$lim"; then
		kt_fail "$name (got '${v}', want $op $lim: not a number)"
	elif awk -v v="$v" -v l="$lim" "BEGIN { exit !((v + 0) $op (l + 0)) }"; then
		kt_ok "$name ($v $op $lim)"
	else
		kt_fail "$name (got '${v}', want $op $lim)"
	fi
}

# kt_json FILE KEY...: the KEYs of the JSON object in FILE on one line,
# floats rounded to 3 digits, "-" for a missing or null one (kt_cmp fails
# it).  kt_json_best FILE KEY...: the same of the line with the highest
# bw_mbps among FILE's JSON lines (scripts/obs/cc_info.py prints one per
# socket: iperf3's data socket, not its control connection).  One python
# start per call, so read every key in one: a start costs seconds of guest
# time in the precise clock.
kt_json() {
	"$LAB_PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
f = lambda v: "-" if v is None else round(v, 3) if isinstance(v, float) else v
print(" ".join(str(f(d.get(k))) for k in sys.argv[2:]))' "$@"
}
kt_json_best() {
	"$LAB_PY" -c '
import json, sys
s = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
d = max(s, key=lambda d: d.get("bw_mbps", 0)) if s else {}
print(" ".join(str(d.get(k, "-")) for k in sys.argv[2:]))' "$@"
}

# kt_retrans NS: TCP segments retransmitted from NS so far (TcpRetransSegs).
kt_retrans() {
	lab_ns "$1" awk '$1 == "Tcp:" && $2 ~ /^[0-9]+$/ { print $13 }' /proc/net/snmp
}

# kt_modstat MODULE NAME: the counter NAME of a module's read-only "stats"
# parameter (one "name value" line per counter; all network namespaces).
kt_modstat() {
	awk -v n="$2" '$1 == n { print $2 }' "/sys/module/$1/parameters/stats"
}

# kt_rmmod_wait MODULE [SECONDS]: rmmod, retrying while sockets of earlier
# suites (FIN_WAIT, LAST_ACK) still hold the module; 0 on success.
kt_rmmod_wait() {
	local m=$1 end=$((SECONDS + ${2:-90}))
	until rmmod "$m" 2>/dev/null; do
		if [ $SECONDS -ge $end ]; then
			rmmod "$m"
			ss -tanpie 2>/dev/null | head -n 5
			return 1
		fi
		sleep 1
	done
}

# kt_done: clean up, print the plan "1..N" and "N passed, N failed"; exit
# 0 when nothing failed, 1 when something did, 4 when every check skipped.
kt_done() {
	lab_cleanup
	rm -rf "$KT_TMP"
	echo "1..$KT_N"
	echo "$((KT_N - KT_FAILED - KT_SKIPPED)) passed, $KT_FAILED failed"
	[ $KT_FAILED = 0 ] || exit $KSFT_FAIL
	[ $KT_N -gt 0 ] && [ $KT_SKIPPED = $KT_N ] && exit $KSFT_SKIP
	exit $KSFT_PASS
}

# kt_mount_tracefs: tracefs at /sys/kernel/tracing.
kt_mount_tracefs() {
	[ -d /sys/kernel/tracing/events ] ||
		mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
	[ -d /sys/kernel/tracing/events ]
}
