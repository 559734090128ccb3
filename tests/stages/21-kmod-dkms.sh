#!/bin/bash
# smapbench.ko through Debian's dkms, as a user installs it so that every
# new kernel gets its module (kmod/dkms.conf): `dkms add ./kmod` copies
# kmod/ and must take all the build needs (uapi header, probes); `dkms
# install` builds and installs it for 6.1; `dkms autoinstall`, what a
# kernel package's postinst runs, does the same for 6.12, whose probes
# answer differently (masked uaccess); `dkms remove --all` takes it all
# away. dkms works in trees of its own here (--sourcetree, --dkmstree,
# --installtree, --no-depmod): nothing lands in /usr/src, /var/lib/dkms's
# module tree or /lib/modules. dkms signs the module for these kernels
# with its own key, which it creates in /var/lib/dkms on first use, as
# on any machine that has dkms.
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh

BUILD=${BUILD:-build}
work=$BUILD/kmod-dkms

if ! command -v dkms >/dev/null; then
	skip "dkms builds, installs and removes smapbench.ko" \
		"dkms not installed (apt-get install dkms, or scripts/deps.sh install test)"
	stage_exit
fi

conf_value() { sed -n "s/^$1=\"\\(.*\\)\"\$/\\1/p" kmod/dkms.conf; }
version=$(sed -n 's/^#define SMAPBENCH_VERSION "\(.*\)"$/\1/p' system/version.h)
name=$(conf_value PACKAGE_NAME)
if [ "$name" = smapbench ] && [ "$(conf_value 'BUILT_MODULE_NAME\[0\]')" = smapbench ] &&
	[ -n "$version" ] && [ "$(conf_value PACKAGE_VERSION)" = "$version" ]; then
	ok "kmod/dkms.conf: package smapbench $version (system/version.h's), module smapbench.ko"
else
	show < kmod/dkms.conf
	not_ok "kmod/dkms.conf names another package, module or version than smapbench $version"
fi

# Installed headers of a series, as the release dkms -k takes.
release_of() {
	local d
	for d in /usr/src/linux-headers-*; do
		[ -f "$d/include/generated/utsrelease.h" ] || continue
		sed -n 's/^#define UTS_RELEASE "\(.*\)"/\1/p' "$d/include/generated/utsrelease.h"
	done | grep -E -- "$1" | sort -uV | tail -n 1
}
rel61=$(release_of '^6\.1\.[0-9]+-[0-9]+-amd64$')
rel612=$(release_of '^6\.12\.[0-9]+(\+deb[0-9]+)?-amd64$')
if [ -z "$rel61" ] || [ -z "$rel612" ]; then
	not_ok "dkms: needs Debian's 6.1 and 6.12 headers (apt-get install linux-headers-amd64 linux-headers-6.12-amd64)"
	stage_exit
fi

rm -rf "$work"
mkdir -p "$work/src" "$work/tree" "$work/install/$rel61" "$work/install/$rel612"
work=$(cd "$work" && pwd)
trees=(--sourcetree "$work/src" --dkmstree "$work/tree" --installtree "$work/install" --no-depmod)
log=$work/dkms.log

# dkms's own log of a build that failed, if it kept one.
show_dkms_logs() {
	show 30 <"$log"
	find "$work/tree" -name make.log -exec cat {} + 2>/dev/null | show 30
}

copy=$work/src/smapbench-$version
if dkms add "${trees[@]}" "$PWD/kmod" >"$log" 2>&1; then
	missing=$(git ls-files kmod | sed 's|^kmod/||' | while read -r f; do
		[ -f "$copy/$f" ] || echo "$f"
	done)
	if [ -z "$missing" ]; then
		ok "dkms add ./kmod copies all of kmod/ to smapbench-$version/, uapi header and probes included"
	else
		not_ok "dkms add ./kmod left out of smapbench-$version/:" $missing
	fi
else
	show_dkms_logs
	not_ok "dkms add ./kmod failed"
	stage_exit
fi

# installed KERNEL: the module dkms installed for it, if any.
installed() { find "$work/install/$1" -name 'smapbench.ko*' 2>/dev/null | head -n 1; }
# The probes' answers show in the module: masked loops are built only
# where the kernel has masked_user_access_begin(). dkms compresses the
# module as the kernel does its own (6.12: xz).
masked_loops() {
	rm -f "$work/module.ko"
	case $1 in
	*.xz) xz -dc "$1" >"$work/module.ko" ;;
	*.zst) zstd -qdc "$1" >"$work/module.ko" ;;
	*) cp "$1" "$work/module.ko" ;;
	esac 2>/dev/null
	nm "$work/module.ko" 2>/dev/null | grep -c ' smapbench_loop_get_user_masked_8$'
}

# check_module KERNEL MASKED-LOOPS HOW
check_module() {
	local ko vermagic
	ko=$(installed "$1")
	vermagic=$(modinfo -F vermagic "$ko" 2>/dev/null | cut -d' ' -f1)
	if [ -n "$ko" ] && [ "$vermagic" = "$1" ] && [ "$(masked_loops "$ko")" = "$2" ]; then
		ok "$3 builds and installs smapbench.ko for $1 (vermagic $1, masked loops: $2, as its probes found)"
	else
		show_dkms_logs
		not_ok "$3 for $1: module '${ko:-none}', vermagic '$vermagic', masked loops '$(masked_loops "$ko")' (want $2)"
	fi
}

# The kernel a user runs, then a new one as its package's postinst
# installs it.
dkms install "${trees[@]}" "$name/$version" -k "$rel61" >"$log" 2>&1
check_module "$rel61" 0 "dkms install"
dkms autoinstall "${trees[@]}" -k "$rel612" >"$log" 2>&1
check_module "$rel612" 1 "dkms autoinstall (a new kernel's postinst)"

status=$(dkms status "${trees[@]}" 2>/dev/null)
if [ "$(echo "$status" | grep -c "^$name/$version, .*: installed")" -eq 2 ]; then
	ok "dkms status: installed for $rel61 and $rel612"
else
	show <<<"$status"
	not_ok "dkms status does not show smapbench installed for both kernels"
fi

if dkms remove "${trees[@]}" "$name/$version" --all >"$log" 2>&1 &&
	[ -z "$(installed "$rel61")$(installed "$rel612")" ] &&
	! [ -e "$work/tree/$name/$version" ]; then
	ok "dkms remove --all takes the module out of both kernels and out of dkms's tree"
else
	show_dkms_logs
	not_ok "dkms remove --all left a module or its tree behind"
fi
rm -rf "$work"
stage_exit
