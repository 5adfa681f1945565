#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# DKMS packaging: install the source tree as a DKMS package, build it for
# the running (pinned) kernel, install, and load the modules from there --
# the way a user installs them once and forgets them.
. "$LAB_TOP/tests/vm/lib.sh"

ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$LAB_TOP/dkms.conf")
name=$(sed -n 's/^PACKAGE_NAME="\(.*\)"/\1/p' "$LAB_TOP/dkms.conf")
kver=$(uname -r)
mods=$(sed -n 's/^BUILT_MODULE_NAME\[[0-9]*\]="\(.*\)"/\1/p' "$LAB_TOP/dkms.conf")
eval "$(bash "$LAB_TOP/scripts/lab-setup.sh" --print-env)"

# The guest's /lib/modules/<kver>/build points at /usr/src/linux-headers-<kver>:
# provide that path (the /usr overlay is writable in the guest) from the cache.
ln -sfn "$LAB_KDIR" "/usr/src/linux-headers-$kver"
export PATH=$LAB_CACHE/tools:$PATH	# pahole for module BTF

src=/usr/src/$name-$ver
rm -rf "$src"
mkdir -p "$src"
mkdir -p "$src/scripts"
cp "$LAB_TOP"/{Kbuild,Makefile,dkms.conf} "$LAB_TOP"/*.[ch] "$src/"
cp "$LAB_TOP/scripts/kernel.env" "$src/scripts/"

kt_check "dkms add $name/$ver" dkms add "$name/$ver"
kt_check "dkms build $name/$ver -k $kver" dkms build "$name/$ver" -k "$kver"
kt_check "dkms install $name/$ver -k $kver" dkms install "$name/$ver" -k "$kver" --force
kt_check "dkms status lists $name/$ver installed" \
	bash -c "dkms status | grep -q '$name/$ver, $kver.*: installed'"
for m in $mods; do
	rmmod "$m" 2>/dev/null
	kt_check "modprobe $m loads the DKMS build" modprobe "$m"
	kt_check "modinfo -n $m points into updates/dkms" \
		bash -c "modinfo -n $m | grep -q /updates/dkms/"
done
cc=$(echo "$mods" | grep -v '_rx$' | sed 's/^tcp_//' | tr '\n' ' ')
for c in $cc; do
	kt_check "$c is available after modprobe" lab_cc_available "$c"
done
kt_check "dkms remove $name/$ver --all" dkms remove "$name/$ver" --all
kt_done
