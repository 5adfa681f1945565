#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# kbuild-chroot.sh - run a command (a kbuild `make`) inside the Debian chroot
# that matches a 7.x kernel's headers, so the module is built with the
# compiler, glibc and pahole that kernel was built with.
#
#   scripts/lab/kbuild-chroot.sh CHROOT KROOT -- CMD [ARGS...]
#
# CHROOT  a debootstrap'd suite (scripts/lab/setup.sh makes
#         $LAB_CACHE/chroot-<suite> with gcc-N, make, pahole, libelf)
# KROOT   the kernel's extracted headers + kbuild debs
#         ($LAB_CACHE/kernel-<kver>: usr/src/linux-headers-*,
#         usr/lib/linux-kbuild-*)
#
# In a private mount namespace (nothing is left mounted afterwards, nothing
# of the host changes) KROOT/usr/src and KROOT/usr/lib/linux-kbuild-* are
# bind-mounted read-only at the paths Debian's headers name
# (/usr/src/linux-headers-<kver>, KBUILD_OUTPUT=/usr/src/...), and the
# current directory's project tree at its own path, writable; CMD runs there
# with a clean environment.  Exit status: CMD's.
set -euo pipefail

[ $# -ge 4 ] && [ "$3" = -- ] ||
	{ echo "usage: kbuild-chroot CHROOT KROOT -- CMD..." >&2; exit 2; }
chroot_dir=$(cd "$1" && pwd)
kroot=$(cd "$2" && pwd)
shift 3
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cwd=$PWD
case "$cwd/" in "$top"/*) ;; *) echo "kbuild-chroot: run it inside $top" >&2; exit 2 ;; esac
[ "$(id -u)" = 0 ] || { echo "kbuild-chroot: needs root (chroot, mount namespace)" >&2; exit 2; }
[ -x "$chroot_dir/usr/bin/make" ] ||
	{ echo "kbuild-chroot: no chroot at $chroot_dir: run scripts/lab/setup.sh --kernel7" >&2; exit 2; }

# The inner script runs in the new mount namespace, still on the host.
# shellcheck disable=SC2016 # expanded by the inner shell
exec unshare --mount --propagation private -- bash -c '
	set -e
	c=$1 k=$2 top=$3 cwd=$4
	shift 4
	mount --bind "$k/usr/src" "$c/usr/src"
	mount -o remount,bind,ro "$c/usr/src"
	for d in "$k"/usr/lib/linux-kbuild-*; do
		mkdir -p "$c/usr/lib/${d##*/}"
		mount --bind "$d" "$c/usr/lib/${d##*/}"
		mount -o remount,bind,ro "$c/usr/lib/${d##*/}"
	done
	mkdir -p "$c$top"
	mount --bind "$top" "$c$top"
	mount -t proc proc "$c/proc"
	exec chroot "$c" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
		PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin \
		/bin/sh -c "cd \"\$0\" && exec \"\$@\"" "$cwd" "$@"
' kbuild-chroot "$chroot_dir" "$kroot" "$top" "$cwd" "$@"
