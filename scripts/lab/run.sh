#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh (lab-run in its messages) - run a command inside the pinned lab kernel with the freshly built
# modules loaded, and give back that command's real output and exit status.
# The modules are the lab build (`make LAB=1`: build/lab-modules; for 7.x
# `make modules-k7`: build/k7), which has the lab-only parameters
# (docs/rapid.md, "Lab modes"); the production build (`make`, in the
# project directory) has not.
#
#   scripts/lab/run.sh [options] -- CMD [ARGS...]
#
# Options:
#   --clock fast|precise  fast (default): the quickest accelerator; precise:
#                         timers on time for packet-timing work.  Under TCG
#                         precise means QEMU `-icount shift=0,sleep=off` on
#                         one vCPU (virtual time, ~4x wall time); under KVM
#                         or on a real host both modes are the same.
#   --accel auto|kvm|tcg|host
#                         auto (default): run directly when the running
#                         kernel is the pinned one and can load modules;
#                         else KVM when a probe boot under KVM works (the
#                         result is cached per host), else TCG.
#   --cpus N, --memory SIZE   guest size (defaults 2 / 2G; precise TCG: 1 vCPU)
#   --append ARGS         extra kernel command line (e.g. slub_debug=FZPU)
#   --kver 6|7|KVER       the guest kernel: 6 (default) the pinned
#                         LAB_KVER, 7 the 7.x one (LAB_K7_KVER, set up by
#                         `make setup-k7`; modules from build/k7, made by
#                         `make modules-k7`); also LAB_GUEST_KVER=...
#   --no-load             do not insmod the project's modules
#   --idle-timeout SECONDS
#                         kill the guest when its output has not grown for
#                         this many host seconds (default 1200): the
#                         watchdog for a hung guest.  Suites run in virtual
#                         time, so their host time depends on the host's
#                         load; lack of progress does not
#   --timeout SECONDS     also kill it after this many host seconds in all
#                         (default 0: no such bound)
#   --outdir DIR          keep the guest's stdout/stderr/rc/dmesg here
#   --print-accel         print the accelerator auto would choose (host,
#                         kvm or tcg) and exit (no command needed)
#
# The command runs as root in the guest, in the project directory, with the
# host's root filesystem shared read-only (writable overlays on /tmp, /etc,
# /var, ...) and --outdir writable.  Environment seen by the command:
#   LAB_IN_GUEST=1 LAB_ACCEL=kvm|tcg|host LAB_CLOCK=fast|precise
#   LAB_OUTDIR=<writable dir> LAB_TOP=<project dir>
#   LAB_MODDIR=<directory of the loaded tcp_*.ko: build/lab-modules, or build/k7>
# lab-run prints one line "# lab: accel=... clock=... kernel=..." on stderr
# and exits with the command's exit status (125 when the guest itself failed).
# A status the guest has written is never thrown away: a guest that wrote it
# and then hangs in its shutdown is killed after 60 s and the status stands.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=scripts/lab/kernel.env
. "$here/kernel.env"
LAB_CACHE=${LAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tcp-cc-lab}
venv=$LAB_CACHE/venv
guest_kver=${LAB_GUEST_KVER:-6}

clock=fast accel=${LAB_ACCEL_FORCE:-auto} cpus=2 memory=2G append="" load=1
timeout_s=0 idle_s=1200 outdir="" print_accel=0
grace_s=${LAB_SHUTDOWN_GRACE:-60}	# (tests/unit/test_lab_run.py shortens it)
while [ $# -gt 0 ]; do
	case "$1" in
	--clock) clock=$2; shift ;;
	--accel) accel=$2; shift ;;
	--cpus) cpus=$2; shift ;;
	--memory) memory=$2; shift ;;
	--append) append="$append $2"; shift ;;
	--kver) guest_kver=$2; shift ;;
	--no-load) load=0 ;;
	--timeout) timeout_s=$2; shift ;;
	--idle-timeout) idle_s=$2; shift ;;
	--outdir) outdir=$2; shift ;;
	--print-accel) print_accel=1 ;;
	--) shift; break ;;
	-h|--help) sed -n '3,48p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "lab-run: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
	shift
done
[ $# -gt 0 ] || [ $print_accel = 1 ] ||
	{ echo "lab-run: no command (lab-run [options] -- CMD...)" >&2; exit 2; }
case "$clock" in fast|precise) ;; *) echo "lab-run: --clock fast|precise" >&2; exit 2 ;; esac

die() { echo "lab-run: error: $*" >&2; exit 125; }

# The guest kernel and the directory of the modules built for it.
case "$guest_kver" in
6|"$LAB_KVER") kver=$LAB_KVER moddir=$top/build/lab-modules build_cmd="make LAB=1" ;;
7|"$LAB_K7_KVER") kver=$LAB_K7_KVER moddir=$top/build/k7 build_cmd="make setup-k7 modules-k7" ;;
*) die "--kver 6|7 ($LAB_KVER or $LAB_K7_KVER)" ;;
esac
kroot=$LAB_CACHE/kernel-$kver
vmlinuz=$kroot/boot/vmlinuz-$kver

mods=()
if [ $load = 1 ]; then
	for m in tcp_icc tcp_pert tcp_rapid tcp_rapid_rx tcp_sabul; do
		[ -f "$moddir/$m.ko" ] || die "$moddir/$m.ko is not built (run '$build_cmd')"
		mods+=("$moddir/$m.ko")
	done
fi

# --- choose where to run ------------------------------------------------------
direct_ok() {
	[ "$(uname -r)" = "$kver" ] && [ -e /proc/modules ] && [ "$(id -u)" = 0 ]
}

# kvm_works: boot the pinned kernel once under KVM and see whether a command
# runs.  Nested or odd hosts fail in ways only a boot shows (this machine
# kind: "KVM internal error ... emulation failure" on the first BMI2
# instruction), so the probe is a real boot, cached per host/QEMU/CPU.
kvm_works() {
	[ -w /dev/kvm ] || return 1
	local key probe dir pid i res=1
	key=$( { uname -r; qemu-system-x86_64 --version | head -1;
		 grep -m1 'model name' /proc/cpuinfo; } | md5sum | cut -c1-12)
	probe=$LAB_CACHE/kvm-probe-$key
	if [ -f "$probe" ]; then
		[ "$(cat "$probe")" = works ]
		return
	fi
	echo "lab-run: probing KVM with one boot (cached in $probe)" >&2
	dir=$(mktemp -d)
	PATH=$venv/bin:$PATH vng --run "$vmlinuz" --cpus 1 --memory 512M \
		--rwdir "$dir" --exec "echo ok > $dir/ok" >"$dir/log" 2>&1 &
	pid=$!
	for i in $(seq 1 120); do
		if [ -f "$dir/ok" ]; then res=0; break; fi
		if grep -qE 'KVM internal error|failed to set MSR|kvm_.*assertion|Could not access KVM' "$dir/log" ||
		   ! kill -0 $pid 2>/dev/null; then
			break
		fi
		sleep 0.5
	done
	kill $pid 2>/dev/null || true
	pkill -f "virtme.initmount0=${dir#/}" 2>/dev/null || true
	wait $pid 2>/dev/null || true
	rm -rf "$dir"
	if [ $res = 0 ]; then echo works >"$probe"; else echo broken >"$probe"; fi
	return $res
}

if [ "$accel" = auto ]; then
	if direct_ok; then
		accel=host
	elif kvm_works; then
		accel=kvm
	else
		accel=tcg
	fi
fi
case "$accel" in host|kvm|tcg) ;; *) die "--accel auto|kvm|tcg|host" ;; esac
if [ "$print_accel" = 1 ]; then
	echo "$accel"
	exit 0
fi

if [ -z "$outdir" ]; then
	mkdir -p "$top/build/lab"
	outdir=$(mktemp -d "$top/build/lab/run.XXXXXX")
fi
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
rm -f "$outdir/rc" "$outdir/stdout" "$outdir/stderr" "$outdir/dmesg"

# The guest side: load modules, run, record.  Written into the writable
# outdir so the guest can read it whatever the host's /tmp is.
guest=$outdir/guest.sh
{
	echo '#!/bin/bash'
	echo "export LAB_IN_GUEST=1 LAB_ACCEL=$accel LAB_CLOCK=$clock LAB_OUTDIR=$outdir LAB_TOP=$top LAB_MODDIR=$moddir"
	echo "export PATH=$venv/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
	echo "cd $top"
	echo "exec >$outdir/stdout 2>$outdir/stderr"
	echo 'dmesg -n 1 2>/dev/null'
	echo 'sysctl -qw kernel.panic_on_warn=0 2>/dev/null'
	for m in "${mods[@]}"; do
		echo "insmod $m || { echo 'lab-run: insmod $m failed' >&2; echo 125 > $outdir/rc; dmesg > $outdir/dmesg; exit; }"
	done
	printf '%q ' "$@"
	echo
	# The status first (the host honours it from then on), the log after.
	echo "echo \$? > $outdir/rc.tmp"
	echo "mv $outdir/rc.tmp $outdir/rc"
	echo "dmesg > $outdir/dmesg 2>/dev/null"
} >"$guest"
chmod +x "$guest"

if [ "$accel" = host ]; then
	echo "# lab: accel=host clock=$clock kernel=$kver outdir=$outdir" >&2
	# The running kernel is the pinned one: no VM, same guest script.
	if [ "$(uname -r)" != "$kver" ]; then
		die "--accel host needs the running kernel to be $kver (it is $(uname -r))"
	fi
	bash "$guest" || true
else
	[ -f "$vmlinuz" ] || die "no lab kernel at $vmlinuz: run 'make setup' ('make setup-k7' for 7.x)"
	[ -x "$venv/bin/vng" ] || die "no virtme-ng in $venv: run 'make setup'"
	vargs=(--run "$vmlinuz" --memory "$memory" --rwdir "$outdir" --cwd "$top")
	if [ "$accel" = tcg ]; then
		vargs+=(--disable-kvm)
		if [ "$clock" = precise ]; then
			# icount and multi-threaded TCG exclude each other: one vCPU.
			cpus=1
			vargs+=(--qemu-opts "-icount shift=0,sleep=off")
		fi
	fi
	vargs+=(--cpus "$cpus")
	echo "# lab: accel=$accel clock=$clock kernel=$kver cpus=$cpus outdir=$outdir" >&2
	[ -n "${append# }" ] && vargs+=(--append "${append# }")
	vargs+=(--exec "$guest")
	PATH=$venv/bin:$PATH vng "${vargs[@]}" >"$outdir/vng.log" 2>&1 </dev/null &
	vpid=$!
	# Relay the guest's output live while it runs.
	touch "$outdir/stdout" "$outdir/stderr"
	tail -n +1 -F --pid=$vpid "$outdir/stdout" 2>/dev/null &
	tpid=$!
	tail -n +1 -F --pid=$vpid "$outdir/stderr" 2>/dev/null >&2 &
	tepid=$!
	# Watchdog: a guest whose output stops growing for idle_s, or (with
	# --timeout) that runs longer than timeout_s in all, is killed; one
	# that has written its status gets grace_s (60 s) to shut down.
	t0=$SECONDS last=-1 changed=$SECONDS rc_at="" why=""
	while kill -0 $vpid 2>/dev/null; do
		sleep 1
		size=$(stat -c %s "$outdir/stdout" "$outdir/stderr" 2>/dev/null | tr '\n' ' ')
		if [ "$size" != "$last" ]; then last=$size changed=$SECONDS; fi
		if [ -f "$outdir/rc" ]; then
			rc_at=${rc_at:-$SECONDS}
			[ $((SECONDS - rc_at)) -ge "$grace_s" ] &&
				why="it wrote its status (rc $(cat "$outdir/rc")) but did not shut down within $grace_s s"
		elif [ $((SECONDS - changed)) -ge "$idle_s" ]; then
			why="no guest output for $idle_s s (--idle-timeout)"
		elif [ "$timeout_s" -gt 0 ] && [ $((SECONDS - t0)) -ge "$timeout_s" ]; then
			why="it ran $timeout_s s (--timeout)"
		fi
		if [ -n "$why" ]; then
			echo "lab-run: killing the guest: $why" >&2
			kill $vpid 2>/dev/null || true
			for _ in $(seq 1 10); do kill -0 $vpid 2>/dev/null || break; sleep 1; done
			kill -9 $vpid 2>/dev/null || true
			break
		fi
	done
	wait $vpid || true
	sleep 0.3
	kill $tpid $tepid 2>/dev/null || true
	wait $tpid $tepid 2>/dev/null || true
fi

if [ "$accel" = host ]; then
	cat "$outdir/stdout"
	cat "$outdir/stderr" >&2
fi
# (a status written but not yet renamed is still the guest's status)
[ -f "$outdir/rc" ] || [ ! -s "$outdir/rc.tmp" ] || mv "$outdir/rc.tmp" "$outdir/rc"
if [ ! -f "$outdir/rc" ]; then
	echo "lab-run: the guest did not finish (timeout or crash); console log: $outdir/vng.log" >&2
	tail -n 30 "$outdir/vng.log" >&2 || true
	exit 125
fi
exit "$(cat "$outdir/rc")"
