#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lab-time: 82 (host seconds under TCG, precise clock, measured in
# `tests/run.sh --vm-only` of 2026-12-02, two boots at once, on a host
# whose page cache held next to nothing: tests/run.sh balances its
# parallel boots with it)
# lab-k7: yes (also runs in the 7.x boot)
#
# DKMS packaging: the package dkms.conf describes, built by `make dkms` on
# the host against the pinned kernel (tests/run.sh does that first: the
# compile at native speed, not under TCG), is installed with `dkms install`
# into this kernel's module tree and its modules load from there with
# modprobe -- the way a user installs them once and forgets them.  It is
# the production build: no lab-only parameter (docs/rapid.md, "Lab
# modes"): modinfo lists none, and given one the kernel ignores it ("unknown
# parameter ... ignored": module loading does not fail on unknown
# parameters) and no such file appears in /sys/module/*/parameters.  Then
# `dkms remove` takes them away again.
. "$LAB_TOP/tests/vm/lib.sh"

conf=$LAB_TOP/dkms.conf
name=$(sed -n 's/^PACKAGE_NAME="\(.*\)"/\1/p' "$conf")
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$conf")
mods=$(sed -n 's/^BUILT_MODULE_NAME\[[0-9]*\]="\(.*\)"/\1/p' "$conf")
kver=$(uname -r)
built=$LAB_TOP/build/dkms
if [ ! -d "$built/tree/$name/$ver/$kver" ]; then
	kt_skip "dkms install" "no DKMS build for $kver in $built: run 'make dkms' first"
	kt_done
fi

# The guest's /lib/modules/<kver> is a symlink to the host's (read-only)
# copy of the pinned kernel's ~4000 modules, and depmod over all of them
# takes 80 s under emulation (twice: install and remove).  For this suite
# it points at a module tree of its own, on a tmpfs, that has the kernel's
# built-in module lists and nothing else (the project's modules depend on
# no other module): dkms installs into it and depmod indexes it as on a
# real host.  The real tree comes back at the end.
mods_link=/lib/modules/$kver
mods_orig=$(readlink -f "$mods_link")
tree_dir=$KT_TMP/modtree
mkdir -p "$tree_dir"
mount -t tmpfs tmpfs "$tree_dir"
cp "$mods_orig"/modules.builtin* "$mods_orig/modules.order" "$tree_dir/"
ln -s "$mods_orig/build" "$tree_dir/build"
if [ -L "$mods_link" ]; then
	ln -sfn "$tree_dir" "$mods_link"
else
	mount --bind "$tree_dir" "$mods_link"
fi
restore_mods() {
	if [ -L "$mods_link" ]; then
		ln -sfn "$mods_orig" "$mods_link"
	else
		umount "$mods_link"
	fi
	umount "$tree_dir"
}

# dkms install writes its state into the DKMS tree: a writable copy of the
# host's (the sources stay where they are, read-only).
tree=$KT_TMP/dkms-tree
cp -a "$built/tree" "$tree"
args=(-m "$name" -v "$ver" -k "$kver" --dkmstree "$tree" --sourcetree "$built/src")
kt_check "dkms status: $name/$ver built for $kver" \
	bash -c "dkms status ${args[*]} | grep -q '$name/$ver, $kver, [^:]*: built'"
t0=$SECONDS
kt_check "dkms install $name/$ver -k $kver" dkms install "${args[@]}" --force
kt_diag "dkms install took $((SECONDS - t0)) s"
kt_check "dkms status: $name/$ver installed" \
	bash -c "dkms status ${args[*]} | grep -q '$name/$ver, $kver, [^:]*: installed'"
for m in $mods; do
	[ -d "/sys/module/$m" ] && { kt_rmmod_wait "$m" 30 || kt_diag "$m still loaded"; }
	kt_check "modprobe $m loads the DKMS build" modprobe "$m"
	kt_check "modinfo -n $m points into updates/dkms" \
		bash -c "modinfo -n $m | grep -q /updates/dkms/"
done
# the production build has no lab switches
for mp in tcp_rapid:fixed_rate_kbps tcp_rapid:inject_abest_kbps tcp_rapid_rx:mark_tx_port; do
	m=${mp%%:*} p=${mp#*:}
	kt_check_not "modinfo $m (DKMS) lists no $p" \
		bash -c "modinfo -F parm $m | grep -q '^$p:'"
done
for mp in tcp_rapid:fixed_rate_kbps=1000 tcp_rapid_rx:mark_tx_port=5001; do
	m=${mp%%:*} p=${mp#*:}
	kt_rmmod_wait "$m" 30 || kt_diag "$m still loaded"
	modprobe "$m" "$p"
	kt_check "modprobe $m $p: the kernel ignores the unknown parameter" \
		bash -c "dmesg | tail -n 20 | grep -q \"unknown parameter '${p%%=*}' ignored\""
	kt_check_not "$m (DKMS) has no ${p%%=*} in /sys/module" test -e "/sys/module/$m/parameters/${p%%=*}"
	kt_check "$m (DKMS) loaded" test -d "/sys/module/$m"
done
for c in $(echo "$mods" | grep -v '_rx$' | sed 's/^tcp_//'); do
	kt_check "$c is available after modprobe" lab_cc_available "$c"
done
for m in $mods; do
	kt_check "rmmod $m (the DKMS build)" kt_rmmod_wait "$m" 30
done
kt_check "dkms remove $name/$ver" dkms remove "${args[@]}"
kt_check_not "the modules are gone from the module tree" \
	bash -c "find /lib/modules/$kver -path '*/updates/dkms/*' -name 'tcp_*.ko*' | grep -q ."
restore_mods
# the next suites of this boot get the project's modules again
for m in $mods; do
	kt_check "insmod $m (the lab's build) again" insmod "$LAB_MODDIR/$m.ko"
done
kt_done
