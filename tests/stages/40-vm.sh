#!/bin/bash
# QEMU end-to-end tests (docs/vm.md): the module, the smapbench program
# and the canary in guests of Debian's 6.1, 6.12 and 6.12-rt kernels, with SMAP on,
# clearcpuid=smap, a CPU without SMAP and (6.1) the ignored nosmap.
# A missing QEMU or default kernel is a failure: CI installs them.
#
# Then the newest kernel, Debian unstable's 7.x, fetched from its packages
# (vm/kernel.sh sid), its module built by its own compiler in a root of
# unstable: the selftest, fuzzer and kmod run in its SMAP and
# clearcpuid=smap boots. Skipped, saying why, only when the archive
# cannot be reached.
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=vm/lib.sh
. vm/lib.sh
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh

# The canary is test-only, but held to the module's standards.
if out=$(make --no-print-directory -s vm-lint 2>&1); then
	ok "vm: canary module checkpatch, W=1 and sparse clean; vm/init shellcheck clean"
else
	show 30 <<<"$out"
	not_ok "vm: canary module or vm/init lint (make vm-lint)"
fi

vm/run-vm.sh check
rc=$?
if [ "$rc" -eq 2 ]; then
	not_ok "vm: end-to-end tests could not start (see the error above;" \
		"scripts/deps.sh install test installs what they need)"
fi

# vm/kernel.sh without the network: bad input is status 2 with a message
# naming it, and a kernel given as Debian packages is unpacked where the
# boots find it. The packages are made here from the installed 6.12
# (its image and the modules of the guests' 9p root), in a private cache.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SMAPBENCH_CACHE=$work/cache
# kernel_fails WHAT MESSAGE ARGUMENT...: status 2 and MESSAGE (a regex).
kernel_fails() {
	local what=$1 message=$2 out rc
	shift 2
	out=$(vm/kernel.sh resolve "$@" 2>&1)
	rc=$?
	if [ "$rc" -eq 2 ] && grep -qE "$message" <<<"$out"; then
		ok "vm/kernel.sh: $what: status 2, '$(tail -n 1 <<<"$out" | cut -c 1-110)'"
	else
		show 5 <<<"$out"
		not_ok "vm/kernel.sh: $what: status $rc, expected 2 and /$message/"
	fi
}
kernel_fails "a missing file" 'nosuch\.deb: no such file' "$work/nosuch.deb"
kernel_fails "neither a file, a release nor a suite" "'bogus' is no file" bogus
# a package whose kernel package is not beside it
mkdir -p "$work/lonely/DEBIAN"
printf '%s\n' 'Package: linux-image-0.0.0-test' 'Version: 1' 'Architecture: amd64' \
	'Maintainer: smapbench tests <tests@localhost>' \
	'Depends: linux-modules-0.0.0-test (= 1), kmod' 'Description: test' \
	>"$work/lonely/DEBIAN/control"
dpkg-deb -Znone -b "$work/lonely" "$work/linux-image-0.0.0-test_1_amd64.deb" >/dev/null
kernel_fails "a kernel package missing beside the image's" \
	'needs linux-modules-0.0.0-test \(= 1\).*apt-get download linux-modules-0.0.0-test=1' \
	"$work/linux-image-0.0.0-test_1_amd64.deb"
release612=$(vm_debian_release linux-image-6.12-amd64)
release61=$(vm_debian_release linux-image-amd64)
if [ -n "$release612" ] && [ -n "$release61" ]; then
	kernel_fails "headers of another release" "are of ${release612//+/\\+}, the kernel is $release61" \
		--headers "/usr/src/linux-headers-$release612" "/boot/vmlinuz-$release61"
	# linux-image-<release>.deb as make bindeb-pkg builds it: the image
	# and the modules, without modules.dep.
	pkg=$work/pkg/image
	mods=/lib/modules/$release612
	mkdir -p "$pkg/DEBIAN" "$pkg/boot" "$pkg/lib/modules/$release612"
	cp "/boot/vmlinuz-$release612" "$pkg/boot/"
	cp "$mods"/modules.order "$mods"/modules.builtin* "$pkg/lib/modules/$release612/"
	vm_module_closure "$mods" virtio_pci 9pnet_virtio 9p overlay pvpanic-mmio |
		while read -r path; do
			mkdir -p "$pkg/lib/modules/$release612/${path%/*}"
			cp "$mods/$path" "$pkg/lib/modules/$release612/$path"
		done
	printf '%s\n' "Package: linux-image-$release612" 'Version: 1' 'Architecture: amd64' \
		'Maintainer: smapbench tests <tests@localhost>' 'Depends: kmod' \
		'Description: test' >"$pkg/DEBIAN/control"
	deb=$work/pkg/linux-image-${release612}_1_amd64.deb
	dpkg-deb -Znone -b "$pkg" "$deb" >/dev/null
	out=$(vm/kernel.sh resolve --headers "/usr/src/linux-headers-$release612" "$deb" 2>&1)
	rc=$?
	image=$(sed -n 's/^image=//p' <<<"$out")
	modules=$(sed -n 's/^modules=//p' <<<"$out")
	if [ "$rc" -eq 0 ] && [ "$(sed -n 's/^release=//p' <<<"$out")" = "$release612" ] &&
		cmp -s "$image" "/boot/vmlinuz-$release612" &&
		[ "$(vm_module_closure "$modules" 9p | tail -n 1)" = kernel/fs/9p/9p.ko.xz ] &&
		[[ $modules == "$SMAPBENCH_CACHE"/kernels/"$release612"/*/tree/lib/modules/"$release612" ]]; then
		ok "vm/kernel.sh: a linux-image .deb is unpacked in the cache, its modules indexed (depmod)"
	else
		show 10 <<<"$out"
		not_ok "vm/kernel.sh: a linux-image .deb unpacked and indexed (status $rc)"
	fi
	# A second look is the cache's: nothing unpacked again.
	before=$(find "$SMAPBENCH_CACHE/kernels" -newer "$image" | wc -l)
	vm/kernel.sh resolve --headers "/usr/src/linux-headers-$release612" "$deb" >/dev/null 2>&1
	if [ "$(find "$SMAPBENCH_CACHE/kernels" -newer "$image" | wc -l)" = "$before" ] &&
		[ "$(find "$SMAPBENCH_CACHE/kernels/$release612" -mindepth 1 -maxdepth 1 | wc -l)" = 1 ]; then
		ok "vm/kernel.sh: the same packages again: the cached tree, unpacked once"
	else
		not_ok "vm/kernel.sh: the same packages were unpacked again"
	fi
else
	skip "vm/kernel.sh: a linux-image .deb" "Debian 12's 6.1 and 6.12 are not both installed"
fi
unset SMAPBENCH_CACHE

# The newest kernel. Fetching and unpacking its packages, and making the
# root its module is built in, happen once: then they are cached
# (${SMAPBENCH_CACHE:-/var/cache/smapbench}).
start=$(date +%s)
out=$(vm/kernel.sh resolve sid 2>&1)
resolved=$?
seconds=$(($(date +%s) - start))
release=$(sed -n 's/^release=//p' <<<"$out")
if [ "$resolved" -eq 3 ]; then
	show 10 <<<"$out"
	skip "vm: Debian unstable's kernel" "its packages cannot be fetched (no archive reachable)"
elif [ "$resolved" -ne 0 ] || [ -z "$release" ]; then
	show 20 <<<"$out"
	not_ok "vm: Debian unstable's kernel fetched, unpacked and its build root made (vm/kernel.sh resolve sid, status $resolved)"
	rc=1
else
	ok "vm: Debian unstable's kernel $release fetched, unpacked and its build root made in ${seconds}s"
	start=$(date +%s)
	vm/run-vm.sh check --kernel sid --boots smap,clearcpuid
	sid_rc=$?
	echo "# vm: $release: module build and 2 boots in $(($(date +%s) - start))s"
	[ "$sid_rc" -eq 0 ] || rc=1
fi
exit "$rc"
