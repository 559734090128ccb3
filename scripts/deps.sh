#!/bin/bash
# The Debian/Ubuntu packages each use of smapbench needs, in one place.
#
#   scripts/deps.sh list run|vm|test               print the package names
#   scripts/deps.sh install [--yes] run|vm|test    apt-get install the missing ones
#   scripts/deps.sh ensure [--yes] run|vm|test     install them as root, else name them
#
# "run" is what run-bench.sh needs on this machine to measure, and only
# what this machine can use (see run_packages). "vm" is run-bench.sh
# --vm's: the run set plus QEMU, the Debian kernel its guests boot and
# what builds their initramfs. "test" is what make check needs (module
# builds for both Debian kernels, QEMU guests, lint tools, a fresh Debian
# root). Package names are Debian 12's; Ubuntu has the same ones. "test"
# also needs QEMU 7.2's qemu-plugin.h for the census plugin, which no
# package ships: install fetches it with scripts/fetch-qemu-plugin-header.sh;
# ensure does too (no root needed for a writable SMAPBENCH_CACHE) unless
# it has packages to name.
#
# install lists what apt-get would install (dependencies included), with
# the download and on-disk sizes, and asks before it installs, unless
# --yes is given or stdin is not a terminal. Packages already installed
# are never upgraded for their own sake (--no-upgrade); an upgrade that a
# new package requires is listed before the question. apt-get's and
# dpkg's output goes to a log (SMAPBENCH_APT_LOG, default
# build/deps-apt.log); the console gets one line, or the log's last lines
# when apt-get fails. Exit status: 0 installed or nothing to do, 1 failed,
# 2 bad usage, 3 declined at the question.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
fetch_header=$here/fetch-qemu-plugin-header.sh
apt_log=${SMAPBENCH_APT_LOG:-$here/../build/deps-apt.log}

# The machine's facts the run set follows; each a path a test may point
# elsewhere.
sys=${SMAPBENCH_DEPS_SYSFS:-/sys}
proc=${SMAPBENCH_DEPS_PROCFS:-/proc}

# A hardware cycle counter that user space may read with RDPMC: the only
# case in which the perf counter (libperf) can time anything. Cloud VMs
# without a virtual PMU have no cpu PMU at all.
user_rdpmc() {
	local file value
	for file in "$sys"/bus/event_source/devices/cpu/rdpmc \
		"$sys"/bus/event_source/devices/cpu_core/rdpmc; do
		[ -r "$file" ] || continue
		value=$(cat "$file" 2>/dev/null) || continue
		[ "$value" != 0 ] && return 0
	done
	return 1
}

# This kernel can load a module: a module built against its headers is
# of use.
modules_load() {
	[ -e "$proc/modules" ] &&
		[ "$(cat "$proc/sys/kernel/modules_disabled" 2>/dev/null)" != 1 ]
}

# The packages every run needs: the build, pinning, plots, the module's
# loader.
run_base_packages() {
	echo build-essential pkg-config make gcc
	echo libhwloc-dev hwloc
	echo gnuplot-nox
	echo kmod
}

# The bpf suite's build (its loader embeds an object built against the
# running kernel's BTF).
bpf_packages() {
	echo clang llvm libbpf-dev bpftool libelf-dev zlib1g-dev
}

# The perf counter (core cycles read with RDPMC): libperf, which no
# package ships, is built from Debian's kernel source tarball (136 MB;
# mk/linux-source.mk), and libpfm4 names its event. Without them the
# harness times with rdtscp and converts with its own calibration, so the
# run works either way. The tarball is Debian 12's (mk/linux-source.mk):
# where the archive has none (Debian 13 and later), the perf counter is
# left out, as make says, rather than the run failing at apt-get.
perf_counter_packages() {
	if apt-cache show linux-source-6.1 >/dev/null 2>&1; then
		echo linux-source-6.1 xz-utils libpfm4-dev
	fi
}

# Headers for the running kernel, when the archive has them.
running_headers_package() {
	local hdr
	hdr="linux-headers-$(uname -r)"
	if apt-cache show "$hdr" >/dev/null 2>&1; then
		echo "$hdr"
	fi
}

# What a run needs here, and only what this machine can use: the bpf
# toolchain where the kernel has BTF, the sources of libperf where a
# cycle counter is readable from user space, the running kernel's headers
# where it loads modules. make says what it left out, and why.
run_packages() {
	run_base_packages
	if [ -r "$sys/kernel/btf/vmlinux" ]; then
		bpf_packages
	fi
	if user_rdpmc; then
		perf_counter_packages
	fi
	if modules_load; then
		running_headers_package
	fi
}

# run-bench.sh --vm (vm/hostroot.sh): the run set for the build this
# machine makes, QEMU, Debian's default kernel and its headers (the guests
# boot it and load the module built against them), busybox and cpio for
# the guests' initramfs, kexec-tools for --vm --boots.
vm_packages() {
	run_packages
	echo qemu-system-x86 busybox-static cpio
	echo linux-image-amd64 linux-headers-amd64
	echo kexec-tools
}

test_packages() {
	# Every part of the build, whatever this machine can use.
	run_base_packages
	bpf_packages
	perf_counter_packages
	running_headers_package
	# The unit tests.
	echo libcmocka-dev
	# The two kernels Debian 12 ships, to build the module against and
	# to boot in QEMU: 6.1 (the default) and 6.12 (masked uaccess).
	echo linux-headers-amd64 linux-image-amd64
	echo linux-headers-6.12-amd64 linux-image-6.12-amd64
	# PREEMPT_RT, built and booted: the module caps its windows lower there.
	echo linux-headers-6.12-rt-amd64 linux-image-6.12-rt-amd64
	echo qemu-system-x86 busybox-static cpio
	# run-bench.sh --vm --boots: the guest reboots itself with kexec.
	echo kexec-tools
	# scripts/fetch-qemu-plugin-header.sh: Debian's QEMU source tarball.
	echo curl xz-utils
	echo sparse shellcheck
	# tests/stages/21-kmod-dkms.sh: the module rebuilt by dkms, as users
	# install it (kmod/dkms.conf).
	echo dkms
	# Roots of Debian 12, 13 and unstable (scripts/distro-root.sh): the
	# README's commands run in them (stage 50-fresh-machine) and the
	# module's matrix builds in them, unstable's clang tree included
	# (stage 20-kmod); git for the clones the build stages test.
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

usage() {
	echo "usage: $0 list|install|ensure [--yes] run|vm|test" >&2
	exit 2
}

# A size in bytes, for people.
megabytes() {
	awk -v b="$1" 'BEGIN { printf "%.0f MB", b / 1e6 }'
}

# apt-get, its output to the log; on failure the log's end on the console.
apt_logged() {
	local rc=0
	{
		printf '\n$ apt-get %s\n' "$*"
		LC_ALL=C apt-get "$@" </dev/null
	} >>"$apt_log" 2>&1 || rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "deps: apt-get $1 failed (status $rc); the end of its log:" >&2
		tail -n 15 "$apt_log" | sed 's/^/  /' >&2
		echo "deps: full log: $apt_log" >&2
	fi
	return "$rc"
}

# install SET: what is missing, said and (maybe) asked, then installed.
install() {
	local what=$1 todo plan news upgrades count download=0 disk=0 answer
	export DEBIAN_FRONTEND=noninteractive
	mkdir -p "$(dirname "$apt_log")"
	: >"$apt_log" || {
		echo "deps: cannot write the log $apt_log" >&2
		return 1
	}
	# A fresh machine may have no package lists yet (minimal and cloud
	# images drop them): without them the running kernel's headers look
	# absent from the archive and would be left out.
	local updated=0
	if ! compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null; then
		apt_logged update || return 1
		updated=1
	fi
	# shellcheck disable=SC2046
	todo=$(missing $(list "$what"))
	if [ -z "$todo" ]; then
		echo "deps: all $what packages present"
		return 0
	fi
	[ "$updated" -eq 1 ] || apt_logged update || return 1
	# What apt-get would do, dependencies included: "Inst NAME (VERSION"
	# for a new package, "Inst NAME [OLD] (VERSION" for an upgrade.
	# shellcheck disable=SC2086
	plan=$(LC_ALL=C apt-get install -s --no-install-recommends --no-upgrade $todo 2>&1) || {
		echo "deps: apt-get cannot install the $what packages:" >&2
		grep -v '^\(Inst\|Conf\|NOTE\|Reading\|Building\) ' <<<"$plan" | tail -n 15 | sed 's/^/  /' >&2
		return 1
	}
	news=$(awk '$1 == "Inst" && $3 !~ /^\[/ { print $2 }' <<<"$plan")
	upgrades=$(awk '$1 == "Inst" && $3 ~ /^\[/ { print $2 }' <<<"$plan")
	count=$(awk '$1 == "Inst"' <<<"$plan" | wc -l)
	# Sizes: the archives to fetch (--print-uris, bytes) and the space
	# the packages take once unpacked (Installed-Size, KiB).
	# shellcheck disable=SC2086
	download=$(LC_ALL=C apt-get install -qq --print-uris --no-install-recommends --no-upgrade $todo 2>/dev/null |
		awk '/^'\''/ { sum += $3 } END { printf "%.0f", sum }')
	# shellcheck disable=SC2046
	disk=$(LC_ALL=C apt-cache show --no-all-versions $(awk '$1 == "Inst" { v = $3; if (v ~ /^\[/) v = $4; sub(/^\(/, "", v); print $2 "=" v }' <<<"$plan") 2>/dev/null |
		awk '/^Installed-Size:/ { sum += $2 } END { printf "%.0f", sum * 1024 }')
	echo "deps: installing:" $todo
	echo "deps: with their dependencies, $count packages: $(megabytes "$download") to download, $(megabytes "$disk") on disk"
	if [ "$yes" -eq 0 ] && [ -t 0 ]; then
		echo "deps: new:" $news
		[ -z "$upgrades" ] || echo "deps: upgraded, because a new package needs a newer version:" $upgrades
		read -r -p "deps: install them? [y/N] " answer || answer=""
		case $answer in
		y | Y | yes | YES) ;;
		*)
			echo "deps: nothing installed, as answered." >&2
			return 3
			;;
		esac
	elif [ -n "$upgrades" ]; then
		echo "deps: upgraded, because a new package needs a newer version:" $upgrades
	fi
	# shellcheck disable=SC2086
	apt_logged install -y -q --no-install-recommends --no-upgrade $todo || return 1
	echo "deps: installed $count packages ($(megabytes "$disk") on disk); log: $apt_log"
}

list() {
	case $1 in
	run) run_packages ;;
	vm) vm_packages ;;
	test) test_packages ;;
	esac | tr ' ' '\n' | sed '/^$/d' | sort -u
}

yes=0 cmd="" what=""
for arg in "$@"; do
	case $arg in
	--yes | -y) yes=1 ;;
	list | install | ensure) [ -z "$cmd" ] || usage; cmd=$arg ;;
	run | vm | test) [ -z "$what" ] || usage; what=$arg ;;
	*) usage ;;
	esac
done
[ -n "$cmd" ] && [ -n "$what" ] || usage
yes_flag=()
[ "$yes" -eq 0 ] || yes_flag=(--yes)

case $cmd in
list) list "$what" ;;
ensure)
	# shellcheck disable=SC2046
	todo=$(missing $(list "$what"))
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
	exec "$0" install "${yes_flag[@]}" "$what"
	;;
install)
	rc=0
	install "$what" || rc=$?
	[ "$rc" -eq 0 ] || exit "$rc"
	# No package ships the header the census plugin is built against.
	if [ "$what" = test ]; then
		exec "$fetch_header"
	fi
	;;
esac
