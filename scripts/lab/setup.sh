#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# setup.sh (lab-setup in its messages) - install everything the build, the lab VM and the tests need,
# on a fresh Debian 12 (bookworm) machine, idempotently.  A second run does no
# downloads: every artefact lives in $LAB_CACHE and every step checks first.
#
# What it provides (paths are printed by `scripts/lab/setup.sh --print-env`):
#   - the pinned guest kernel (scripts/lab/kernel.env): vmlinuz + modules, and its
#     headers for out-of-tree builds, extracted into the cache (Debian's
#     linux-headers packages cannot be apt-installed on this image: pahole ->
#     libdw1 conflicts with the preinstalled libdw1t64);
#   - Debian 12's 6.1 headers (compile matrix);
#   - pahole (module BTF) with its libraries, run via LD_LIBRARY_PATH;
#   - checkpatch.pl from the matching linux-source package;
#   - QEMU (bookworm-backports), kmod, iproute2 (backports: tcp_usec_ts),
#     iperf3, bpftrace, ethtool, tcpdump;
#   - virtme-ng (pinned) in a venv, plus the Python libraries the analysis uses;
#   - with --with-k7 (make setup-k7; tests/run.sh asks for it): the 7.x
#     kernel of scripts/lab/kernel.env (image, modules, headers, kbuild) from
#     its suite through a private apt configuration ($LAB_CACHE/apt-k7:
#     the host's apt sources are never touched), and a debootstrap'd
#     chroot of the suite that kernel was built in ($LAB_CACHE/chroot-<suite>)
#     with the compiler and pahole its headers name, for
#     scripts/lab/kbuild-chroot.sh.
#
# Needs root for apt-get.  Writes nothing outside $LAB_CACHE but apt's.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lab/kernel.env
. "$here/kernel.env"

LAB_CACHE=${LAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tcp-cc-lab}
debs=$LAB_CACHE/debs
kroot=$LAB_CACHE/kernel-$LAB_KVER
oldroot=$LAB_CACHE/kernel-$LAB_OLD_KVER
tools=$LAB_CACHE/tools
venv=$LAB_CACHE/venv

log() { printf 'lab-setup: %s\n' "$*" >&2; }
die() { printf 'lab-setup: error: %s\n' "$*" >&2; exit 1; }

print_env() {
	cat <<EOF
LAB_CACHE=$LAB_CACHE
LAB_KVER=$LAB_KVER
LAB_KDIR=$kroot/usr/src/linux-headers-$LAB_KVER
LAB_OLD_KDIR=$oldroot/usr/src/linux-headers-$LAB_OLD_KVER
LAB_VMLINUZ=$kroot/boot/vmlinuz-$LAB_KVER
LAB_PAHOLE=$tools/pahole
LAB_CHECKPATCH=$tools/checkpatch/checkpatch.pl
LAB_VENV=$venv
LAB_K7_KVER=$LAB_K7_KVER
LAB_K7_KROOT=$LAB_CACHE/kernel-$LAB_K7_KVER
LAB_K7_KDIR=$LAB_CACHE/kernel-$LAB_K7_KVER/usr/src/linux-headers-$LAB_K7_KVER
LAB_K7_CHROOT=$LAB_CACHE/chroot-$LAB_K7_CHROOT_SUITE
EOF
}

k7=0
case "${1:-}" in
--print-env) print_env; exit 0 ;;
--with-k7) k7=1 ;;
"") ;;
*) die "usage: scripts/lab/setup.sh [--with-k7|--print-env]" ;;
esac

[ "$(id -u)" = 0 ] || die "run as root (apt-get needs it)"
command -v apt-get >/dev/null || die "needs a Debian/Ubuntu host with apt-get"
mkdir -p "$debs" "$tools"

# --- apt sources: bookworm-backports (deb822) --------------------------------
src=/etc/apt/sources.list.d/lab-bookworm-backports.sources
if ! grep -rqs "bookworm-backports" /etc/apt/sources.list /etc/apt/sources.list.d/; then
	log "adding bookworm-backports to apt sources ($src)"
	cat >"$src" <<'EOF'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
	apt-get update -q
fi

apt_has() { apt-cache show "$1=$2" >/dev/null 2>&1; }
if ! apt_has "linux-image-$LAB_KVER-unsigned" "$LAB_KPKG_VERSION" ||
   ! apt_has "$LAB_OLD_KBUILD_PKG" "$LAB_OLD_KBUILD_VERSION"; then
	need_debs=0
	for f in "linux-image-$LAB_KVER-unsigned" "linux-headers-$LAB_KVER" \
		 "$LAB_KCOMMON_PKG" "$LAB_KBUILD_PKG" "linux-headers-$LAB_OLD_KVER"; do
		ls "$debs/${f}_"*.deb >/dev/null 2>&1 || need_debs=1
	done
	if [ $need_debs = 1 ]; then
		log "refreshing apt package lists"
		apt-get update -q
	fi
fi

# --- Debian packages installed normally --------------------------------------
# (clang and libclang-rt-14-dev: libFuzzer for tests/fuzz; the latter is
# only a Recommends of clang)
# qemu and iproute2 from backports: QEMU 10 was the one verified with icount,
# iproute2 >= 6.7 knows the tcp_usec_ts route feature.
want_pkgs=(kmod iperf3 bpftrace trace-cmd ethtool tcpdump procps psmisc
	   python3-venv xz-utils busybox-static dkms clang libclang-rt-14-dev)
want_bpo=(qemu-system-x86 iproute2)
missing=()
for p in "${want_pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	log "apt-get install ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null ||
		die "apt-get install ${missing[*]} failed"
fi
bpo_missing=()
for p in "${want_bpo[@]}"; do
	v=$(dpkg-query -W -f='${Version}' "$p" 2>/dev/null || true)
	case "$v" in *bpo12*) ;; *) bpo_missing+=("$p") ;; esac
done
if [ ${#bpo_missing[@]} -gt 0 ]; then
	log "apt-get install -t bookworm-backports ${bpo_missing[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		-t bookworm-backports "${bpo_missing[@]}" >/dev/null ||
		die "apt-get install -t bookworm-backports ${bpo_missing[*]} failed"
fi

# --- debs that are downloaded and extracted, never installed -----------------
# fetch_deb NAME VERSION: leaves NAME_*.deb in $debs, or dies naming kernel.env.
fetch_deb() {
	local name=$1 ver=$2
	if ls "$debs/${name}_"*.deb >/dev/null 2>&1; then
		return 0
	fi
	log "downloading $name${ver:+ $ver}"
	(cd "$debs" && apt-get download -q "$name${ver:+=$ver}" >/dev/null 2>&1) ||
		die "cannot download $name${ver:+ $ver}: the pinned version is gone from the archive? update scripts/lab/kernel.env (apt-cache policy $name)"
}

extract_deb() {	# extract_deb DEB ROOT
	dpkg-deb -x "$1" "$2"
}

# Pinned 6.12: image + headers + kbuild.
fetch_deb "linux-image-$LAB_KVER-unsigned" "$LAB_KPKG_VERSION"
fetch_deb "linux-headers-$LAB_KVER" "$LAB_KPKG_VERSION"
fetch_deb "$LAB_KCOMMON_PKG" "$LAB_KPKG_VERSION"
fetch_deb "$LAB_KBUILD_PKG" "$LAB_KPKG_VERSION"
# 6.1 headers (compile matrix).
fetch_deb "linux-headers-$LAB_OLD_KVER" "$LAB_OLD_KPKG_VERSION"
fetch_deb "$LAB_OLD_KCOMMON_PKG" "$LAB_OLD_KPKG_VERSION"
fetch_deb "$LAB_OLD_KBUILD_PKG" "$LAB_OLD_KBUILD_VERSION"
# pahole and the bookworm libraries it links against.
fetch_deb pahole ""
fetch_deb libdw1 ""
fetch_deb libelf1 ""
# checkpatch.pl lives in the source package.
fetch_deb "$LAB_SOURCE_PKG" "$LAB_KPKG_VERSION"

# install_headers ROOT KVER KCOMMON KBUILD: extract and point the arch
# Makefile's include of the -common tree at the cache.
install_headers() {
	local root=$1 kver=$2 kcommon=$3 kbuild=$4 hdr
	hdr=$root/usr/src/linux-headers-$kver
	[ -f "$root/.complete" ] && return 0
	log "extracting headers for $kver into $root"
	rm -rf "$root"
	mkdir -p "$root"
	extract_deb "$debs/linux-headers-${kver}_"*.deb "$root"
	extract_deb "$debs/${kcommon}_"*.deb "$root"
	extract_deb "$debs/${kbuild}_"*.deb "$root"
	# Debian's arch headers include the -common tree by absolute path.
	sed -i "s|^include /usr/src/|include $root/usr/src/|" "$hdr/Makefile"
	touch "$root/.complete"
}
install_headers "$kroot" "$LAB_KVER" "$LAB_KCOMMON_PKG" "$LAB_KBUILD_PKG"
install_headers "$oldroot" "$LAB_OLD_KVER" "$LAB_OLD_KCOMMON_PKG" "$LAB_OLD_KBUILD_PKG"
# The 6.1 common tree is named after the ABI without -amd64.
[ -d "$oldroot/usr/src/linux-headers-$LAB_OLD_KVER" ] || die "6.1 headers missing in $oldroot"

# The image (vmlinuz + modules).
if [ ! -f "$kroot/boot/vmlinuz-$LAB_KVER" ]; then
	log "extracting kernel image $LAB_KVER"
	extract_deb "$debs/linux-image-$LAB_KVER-unsigned_"*.deb "$kroot"
fi
# virtme-ng links the guest's /lib/modules/<version> to the image's own
# lib/modules next to vmlinuz; it needs modules.dep there.
if [ ! -f "$kroot/lib/modules/$LAB_KVER/modules.dep" ]; then
	log "depmod for the guest modules"
	depmod -b "$kroot" "$LAB_KVER"
fi

# pahole (v1.24, bookworm) runs from the cache with its own libdw/libelf.
if [ ! -x "$tools/pahole" ]; then
	log "extracting pahole"
	rm -rf "$tools/pahole-root"
	mkdir -p "$tools/pahole-root"
	for d in pahole libdw1 libelf1; do
		extract_deb "$debs/${d}_"*.deb "$tools/pahole-root"
	done
	cat >"$tools/pahole" <<EOF
#!/bin/sh
LD_LIBRARY_PATH=$tools/pahole-root/usr/lib/x86_64-linux-gnu\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH} exec $tools/pahole-root/usr/bin/pahole "\$@"
EOF
	chmod +x "$tools/pahole"
fi
"$tools/pahole" --version >/dev/null || die "pahole from the cache does not run"

# checkpatch.pl and its data files from the source tarball.
if [ ! -f "$tools/checkpatch/checkpatch.pl" ]; then
	log "extracting checkpatch.pl from $LAB_SOURCE_PKG"
	tmp=$(mktemp -d)
	extract_deb "$debs/${LAB_SOURCE_PKG}_"*.deb "$tmp"
	tarball=$(ls "$tmp"/usr/src/linux-source-*.tar.*)
	top=$(basename "${tarball%.tar.*}")
	mkdir -p "$tools/checkpatch" "$tools/src"
	tar -xf "$tarball" -C "$tmp" "$top/scripts/checkpatch.pl" \
		"$top/scripts/spelling.txt" "$top/scripts/const_structs.checkpatch" \
		--wildcards "$top/net/ipv4/tcp_*.c"
	cp "$tmp/$top/scripts/checkpatch.pl" "$tmp/$top/scripts/spelling.txt" \
	   "$tmp/$top/scripts/const_structs.checkpatch" "$tools/checkpatch/"
	# Keep the in-tree TCP congestion controls for reference.
	cp "$tmp/$top"/net/ipv4/tcp_*.c "$tools/src/"
	rm -rf "$tmp"
fi

# virtme-ng (pinned) and the analysis libraries in one venv, made again
# when requirements.txt changes.
req_sum=$(sha256sum "$here/requirements.txt" | cut -c1-12)
if [ ! -f "$venv/.complete-$req_sum" ]; then
	log "creating venv with virtme-ng==$LAB_VNG_VERSION (requirements $req_sum)"
	rm -rf "$venv"
	python3 -m venv "$venv"
	"$venv/bin/pip" install -q --disable-pip-version-check \
		-r "$here/requirements.txt" ||
		die "pip install into $venv failed"
	touch "$venv/.complete-$req_sum"
fi

# --- Linux 7.x (--with-k7) ----------------------------------------------------
# setup_k7 SET: the 7.x kernel named by LAB_K7<SET>_* in kernel.env (SET ""
# the lab's: image, modules and headers; SET "_SID": headers only, compile
# matrix), and the chroot of the suite it was built in.
setup_k7() {
	local set=$1 v kver kpkgv abi suite csuite cc
	for v in KVER KPKG_VERSION ABI SUITE CHROOT_SUITE CC; do
		local n=LAB_K7${set}_$v
		[ -n "${!n:-}" ] || die "$n is not set in scripts/lab/kernel.env"
	done
	v=LAB_K7${set}_KVER; kver=${!v}
	v=LAB_K7${set}_KPKG_VERSION; kpkgv=${!v}
	v=LAB_K7${set}_ABI; abi=${!v}
	v=LAB_K7${set}_SUITE; suite=${!v}
	v=LAB_K7${set}_CHROOT_SUITE; csuite=${!v}
	v=LAB_K7${set}_CC; cc=${!v}
	local k7root=$LAB_CACHE/kernel-$kver aptd=$LAB_CACHE/apt-$suite
	local chroot_dir=$LAB_CACHE/chroot-$csuite hdr cc_text pahole_v
	local -a aopt pkgs
	# What the chroot needs to build modules (and, for the lab's 7.x,
	# the DKMS package: make dkms-k7); a changed list makes it again.
	local incl="$cc,make,libc6-dev,libelf1t64,libssl3t64,zlib1g,pahole,perl" mark
	[ -n "$set" ] || incl="$incl,dkms"
	mark=.complete-$(echo "$incl" | md5sum | cut -c1-8)
	hdr=$k7root/usr/src/linux-headers-$kver
	pkgs=("linux-headers-$kver" "linux-headers-$abi-common" "linux-kbuild-$abi")
	[ -n "$set" ] || pkgs+=("linux-binary-unsigned-$kver" "linux-modules-$kver" "linux-base-$kver")
	# A private apt configuration per suite: its own sources list,
	# package lists and state; /etc/apt stays as it is.
	aopt=(-o "Dir::Etc::sourcelist=$aptd/sources.list" -o Dir::Etc::sourceparts=-
	      -o "Dir::State::Lists=$aptd/lists" -o "Dir::Cache=$aptd/cache"
	      -o Dir::State::status=/dev/null -o APT::Sandbox::User=root)
	if [ ! -f "$k7root/.complete" ]; then
		local need=0 p
		for p in "${pkgs[@]}"; do
			ls "$debs/${p}_"*.deb >/dev/null 2>&1 || need=1
		done
		if [ $need = 1 ]; then
			mkdir -p "$aptd/lists/partial" "$aptd/cache/archives/partial"
			echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $suite main" \
				>"$aptd/sources.list"
			log "apt-get update of $suite (private configuration in $aptd)"
			apt-get "${aopt[@]}" update -q >/dev/null || die "apt-get update of $suite failed"
			for p in "${pkgs[@]}"; do
				ls "$debs/${p}_"*.deb >/dev/null 2>&1 && continue
				log "downloading $p $kpkgv"
				(cd "$debs" && apt-get "${aopt[@]}" download -q "$p=$kpkgv" >/dev/null 2>&1) ||
					die "cannot download $p $kpkgv from $suite: gone from the archive? update LAB_K7${set}_* in scripts/lab/kernel.env"
			done
		fi
		log "extracting ${pkgs[*]} into $k7root"
		rm -rf "$k7root"
		mkdir -p "$k7root"
		for p in "${pkgs[@]}"; do
			extract_deb "$debs/${p}_"*.deb "$k7root"
		done
		if [ -z "$set" ]; then
			# Laid out like the 6.12 one for lab-run and virtme-ng:
			# boot/vmlinuz-<kver> and lib/modules/<kver> (merged /usr).
			mkdir -p "$k7root/boot"
			cp "$k7root/usr/lib/modules/$kver/vmlinuz.unsigned" "$k7root/boot/vmlinuz-$kver"
			ln -s usr/lib "$k7root/lib"
			depmod -b "$k7root" "$kver" || die "depmod for $kver failed"
		fi
		touch "$k7root/.complete"
	fi
	# The compiler and pahole the kernel was built with, from its .config.
	cc_text=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\(.*\)"$/\1/p' "$hdr/.config")
	pahole_v=$(sed -n 's/^CONFIG_PAHOLE_VERSION=//p' "$hdr/.config")
	if [ ! -f "$chroot_dir/$mark" ]; then
		command -v debootstrap >/dev/null || {
			log "apt-get install debootstrap"
			DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends debootstrap >/dev/null ||
				die "apt-get install debootstrap failed"
		}
		log "debootstrap $csuite (minbase + $incl) into $chroot_dir"
		rm -rf "$chroot_dir.tmp"
		debootstrap --variant=minbase --include="$incl" \
			"$csuite" "$chroot_dir.tmp" http://deb.debian.org/debian \
			>"$LAB_CACHE/debootstrap-$csuite.log" 2>&1 ||
			die "debootstrap failed: $LAB_CACHE/debootstrap-$csuite.log"
		# Its apt caches are not needed: the chroot only builds.
		rm -rf "$chroot_dir.tmp"/var/cache/apt/archives/*.deb
		rm -rf "$chroot_dir"
		mv "$chroot_dir.tmp" "$chroot_dir"
		touch "$chroot_dir/$mark" "$chroot_dir/.complete"
	fi
	[ "$(chroot "$chroot_dir" "x86_64-linux-gnu-$cc" --version | head -n 1)" = "$cc_text" ] ||
		die "the chroot's $cc is not the compiler $kver was built with ($cc_text): remove $chroot_dir to make it again, or update scripts/lab/kernel.env"
	[ "$(chroot "$chroot_dir" pahole --version)" = "v${pahole_v:0:1}.${pahole_v:1}" ] ||
		die "the chroot's pahole is not $kver's (CONFIG_PAHOLE_VERSION=$pahole_v): remove $chroot_dir to make it again"
	log "ready: $kver ($k7root, chroot-$csuite: $cc_text)"
}
if [ $k7 = 1 ]; then
	setup_k7 ""
	setup_k7 _SID
fi

log "ready: kernel $LAB_KVER, cache $LAB_CACHE"
