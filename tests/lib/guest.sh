# What the stages that boot this machine's own Debian kernels in QEMU
# share (45-hostroot, 46-boot-series, 49-series-command): sourced after
# vm/lib.sh and tests/lib/tap.sh.
# shellcheck shell=bash

# need_guest_tools WHAT COMMAND...: without each COMMAND the stage boots
# nothing: one failure naming those missing and the packages that have
# them, and the stage's end.
need_guest_tools() {
	local what=$1 command missing=()
	shift
	for command; do
		command -v "$command" >/dev/null || missing+=("$command")
	done
	[ ${#missing[@]} -eq 0 ] && return
	not_ok "$what: ${missing[*]} not installed (scripts/deps.sh install test)"
	stage_exit
}

# debian_kernel SERIES: the release of Debian's kernel of SERIES installed
# here, 6.1 (linux-image-amd64, the default) or 6.12
# (linux-image-6.12-amd64), whose image is /boot/vmlinuz-RELEASE; nothing
# when the package or its image is not there.
debian_kernel() {
	local package=linux-image-amd64 release
	[ "$1" = 6.12 ] && package=linux-image-6.12-amd64
	release=$(vm_debian_release "$package")
	[ -n "$release" ] && [ -r "/boot/vmlinuz-$release" ] && echo "$release"
}
