#!/bin/bash
# The Debian/Ubuntu packages each use of smapbench needs, in one place.
#
#   scripts/deps.sh list run|test     print the package names
#   scripts/deps.sh install run|test  apt-get install the missing ones
#   scripts/deps.sh ensure run|test   install them as root, else name them
#
# "run" is what run-bench.sh needs on a user's machine; "test" is what
# make check needs (module builds for both Debian kernels, QEMU guests,
# lint tools, a fresh Debian root). Package names are Debian 12's; Ubuntu
# has the same ones. "test" also needs QEMU 7.2's qemu-plugin.h for the
# census plugin, which no package ships: install fetches it with
# scripts/fetch-qemu-plugin-header.sh; ensure does too (no root needed
# for a writable SMAPBENCH_CACHE) unless it has packages to name.
set -eu
fetch_header=$(dirname "$0")/fetch-qemu-plugin-header.sh

run_packages() {
	echo build-essential pkg-config make gcc
	echo libhwloc-dev hwloc libpfm4-dev libcmocka-dev
	echo gnuplot-nox
	echo clang llvm libbpf-dev bpftool libelf-dev zlib1g-dev
	echo linux-source-6.1 xz-utils
	echo kmod
	# Headers for the running kernel, when the archive has them.
	local hdr
	hdr="linux-headers-$(uname -r)"
	if apt-cache show "$hdr" >/dev/null 2>&1; then
		echo "$hdr"
	fi
}

test_packages() {
	run_packages
	# The two kernels Debian 12 ships, to build the module against and
	# to boot in QEMU: 6.1 (the default) and 6.12 (masked uaccess).
	echo linux-headers-amd64 linux-image-amd64
	echo linux-headers-6.12-amd64 linux-image-6.12-amd64
	# PREEMPT_RT, built and booted: the module caps its windows lower there.
	echo linux-headers-6.12-rt-amd64 linux-image-6.12-rt-amd64
	# A clang-configured 6.12 tree for the module (scripts/kmod-clang-tree.sh).
	echo linux-source-6.12 lld libssl-dev
	echo qemu-system-x86 busybox-static cpio
	# run-bench.sh --vm --boots: the guest reboots itself with kexec.
	echo kexec-tools
	# scripts/fetch-qemu-plugin-header.sh: Debian's QEMU source tarball.
	echo curl xz-utils
	echo sparse flex bison bc shellcheck
	# tests/stages/50-fresh-machine.sh: a minimal Debian root to run the
	# README's commands in, and the clones the build stages test.
	echo mmdebstrap debian-archive-keyring git
	# tests/stages/55-fleet.sh: the fleet playbook, run against localhost.
	echo ansible
}

missing() {
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'install ok installed' || echo "$p"
	done
}

what=${2:-}
case "${1:-}:$what" in
list:run) run_packages | tr ' ' '\n' | sort -u ;;
list:test) test_packages | tr ' ' '\n' | sort -u ;;
ensure:run | ensure:test)
	# shellcheck disable=SC2046
	todo=$(missing $("$0" list "$what"))
	header=""
	if [ "$what" = test ] && ! "$fetch_header" --check; then
		header="QEMU 7.2's qemu-plugin.h"
	fi
	[ -z "$todo$header" ] && exit 0
	if [ -z "$todo" ]; then
		# Root or not: SMAPBENCH_CACHE may name a writable directory.
		exec "$fetch_header"
	fi
	if [ "$(id -u)" -ne 0 ]; then
		echo "deps: missing packages:" $todo >&2
		if [ -n "$header" ]; then
			echo "deps: missing $header (scripts/fetch-qemu-plugin-header.sh)" >&2
		fi
		echo "deps: install them with: sudo $0 install $what" >&2
		exit 1
	fi
	exec "$0" install "$what"
	;;
install:run | install:test)
	export DEBIAN_FRONTEND=noninteractive
	# A fresh machine may have no package lists yet (minimal and cloud
	# images drop them): without them the running kernel's headers look
	# absent from the archive and would be left out.
	if ! compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null; then
		apt-get update -qq
		updated=1
	fi
	# shellcheck disable=SC2046
	todo=$(missing $("$0" list "$what"))
	if [ -z "$todo" ]; then
		echo "deps: all $what packages present"
	else
		echo "deps: installing:" $todo
		[ -n "${updated:-}" ] || apt-get update -qq
		# shellcheck disable=SC2086
		apt-get install -y -qq --no-install-recommends $todo
	fi
	# No package ships the header the census plugin is built against.
	if [ "$what" = test ]; then
		exec "$fetch_header"
	fi
	;;
*)
	echo "usage: $0 list|ensure|install run|test" >&2
	exit 2
	;;
esac
