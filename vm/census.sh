#!/bin/bash
# The instruction census (docs/census.md): boots each kernel in each SMAP
# state in QEMU (TCG, one vCPU) under the census plugin, runs `smapbench
# census measure` there, and collects the counts into a census run
# directory with census.csv and its plot.
#
#   vm/census.sh [options]
#   vm/census.sh --command --work DIR --smapbench PATH [--cd DIR]
#                 [--command-timeout S] [--kernel PATH]... [--states LIST]
#                 -- COMMAND [ARGUMENT]...
#
# The second form is the boots of `smapbench census -- COMMAND`, which
# calls it: each kernel in each state boots this machine's root file
# system (vm/hostroot.sh) under the plugin and runs `smapbench census exec`
# there on COMMAND, in DIR/command.env's environment; the plugin's output
# of each boot goes to DIR/<release>-<state>.tsv, and DIR/boots.list gets a
# line "<state> <that file> <boot seconds>" per boot. It stops at the first
# boot that fails.
#
# Options:
#   --kernel KERNEL   the kernel to boot, repeat for more: an image, a
#                     Debian kernel .deb, a release or a Debian suite such
#                     as sid (vm/kernel.sh fetches and unpacks packages;
#                     default: Debian's 6.1 and 6.12, those installed,
#                     and, but with --command, Debian unstable's newest)
#   --headers H       headers of the (last) --kernel, when vm/kernel.sh
#                     does not find them: a directory or a .deb
#   --build-root B    where the module for the (last) --kernel is built
#                     when this machine cannot (vm/kernel.sh)
#   --states LIST     comma separated, of smap, clearcpuid, cpu-off
#                     (default: all three)
#   --suite NAME      all (default), syscall, kmod or bpf
#   --filter REGEX    only the benchmarks whose name matches (no spaces)
#   --quick           leave out the extended benchmarks
#   --min-time S      guest seconds per syscall or bpf benchmark
#                     (default 0.05)
#   --out DIR         where the census directory goes (default: data/)
#   --check           then run the oracle on it (smapbench census check)
#   --timeout S       seconds one boot may take (default 1200; with
#                     --command, --command-timeout and 900 more)
#
# SMAPBENCH_KMOD_DIR, holding <release>/smapbench.ko, names prebuilt
# modules instead of building them (make kmod-for).
#
# Exit status: 0 done (with --check: every line ok), 1 a boot or a check
# failed, 2 bad usage or a missing prerequisite.
set -uo pipefail
# shellcheck source=vm/lib.sh
. "$(dirname "$0")/lib.sh"
# Set by vm_script_init; declared for shellcheck, which may not follow lib.sh.
declare here top build
vm_script_init census 'failed, 2'
# The names the rest of this script calls them by.
help() { vm_help; }
die() { vm_die "$@"; }

kernels=() kernel_headers=() kernel_roots=() states="" out=$top/data check=0
boot_timeout="" guest_args=() command=0 work="" smapbench_path="" cd=$PWD
command_timeout=1800
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernels+=("${2:?--kernel needs an image, a .deb, a release or a suite}")
		kernel_headers+=("") kernel_roots+=(""); shift ;;
	--headers)
		[ ${#kernels[@]} -gt 0 ] || die "--headers comes after the --kernel it belongs to"
		kernel_headers[-1]=${2:?--headers needs a directory or a .deb}; shift ;;
	--build-root)
		[ ${#kernels[@]} -gt 0 ] || die "--build-root comes after the --kernel it belongs to"
		kernel_roots[-1]=${2:?--build-root needs a directory or a suite}; shift ;;
	--states) states=${2:?--states needs a list}; shift ;;
	--suite)
		case ${2:?--suite needs a name} in all | syscall | kmod | bpf) ;;
		*) die "--suite: '$2' is not all, syscall, kmod or bpf" ;;
		esac
		guest_args+=(--suite "$2"); shift ;;
	--filter)
		[[ ${2:?--filter needs a regex} =~ [[:space:]] ]] &&
			die "--filter: the regex may not contain spaces (the guest splits its arguments at them)"
		guest_args+=(--filter "$2"); shift ;;
	--quick) guest_args+=(--quick) ;;
	--min-time)
		[[ ${2:?--min-time needs seconds} =~ ^[0-9]*\.?[0-9]+$ ]] ||
			die "--min-time: '$2' is not a number of seconds"
		guest_args+=(--min-time "$2"); shift ;;
	--out) out=${2:?--out needs a directory}; shift ;;
	--check) check=1 ;;
	--timeout)
		boot_timeout=${2:?--timeout needs seconds}; shift
		[[ $boot_timeout =~ ^[1-9][0-9]*$ ]] || die "--timeout must be a number of seconds" ;;
	--command) command=1 ;;
	--work) work=${2:?--work needs a directory}; shift ;;
	--smapbench) smapbench_path=${2:?--smapbench needs a path}; shift ;;
	--cd) cd=${2:?--cd needs a directory}; shift ;;
	--command-timeout)
		command_timeout=${2:?--command-timeout needs seconds}; shift
		[[ $command_timeout =~ ^[1-9][0-9]*$ ]] ||
			die "--command-timeout must be a number of seconds" ;;
	--) shift; break ;;
	-h | --help) help; exit 0 ;;
	*) die "unknown argument '$1' (see $0 --help)" ;;
	esac
	shift
done
if [ "$command" -eq 1 ]; then
	[ -n "$work" ] && [ -d "$work" ] || die "--command needs --work, an existing directory"
	[ -n "$smapbench_path" ] && [ -x "$smapbench_path" ] ||
		die "--command needs --smapbench, the smapbench program the guest runs"
	[ $# -gt 0 ] || die "--command needs -- COMMAND"
	[ -r "$work/command.env" ] || die "--command needs $work/command.env"
	states=${states:-smap,clearcpuid}
	boot_timeout=${boot_timeout:-$((command_timeout + 900))}
elif [ $# -gt 0 ]; then
	die "a COMMAND after -- needs --command"
fi
states=${states:-smap,clearcpuid,cpu-off}
boot_timeout=${boot_timeout:-1200}
IFS=, read -r -a state_list <<<"$states"
for state in "${state_list[@]}"; do
	case $state in smap | clearcpuid | cpu-off) ;;
	*) die "--states: '$state' is not smap, clearcpuid or cpu-off" ;;
	esac
done
# The plugin counts instructions as TCG translates them: KVM cannot host it.
case $(vm_accel_request auto) in
kvm) die "SMAPBENCH_ACCEL=kvm: the census counts instructions with a QEMU TCG plugin, so it always runs under TCG" ;;
"") exit 2 ;;
esac
command -v qemu-system-x86_64 >/dev/null ||
	die "qemu-system-x86_64 not found: apt-get install --no-install-recommends qemu-system-x86"
busybox=$(command -v busybox) || die "busybox not found: apt-get install busybox-static"
vm_check_static "$busybox" 2>/dev/null ||
	die "$busybox is not static: apt-get install busybox-static"

# The image of an installed Debian kernel package, e.g. linux-image-amd64.
debian_image() {
	local release
	release=$(dpkg-query -W -f='${Status} ${Depends}\n' "$1" 2>/dev/null |
		sed -n 's/^install ok installed linux-image-\([^ ,]*\).*/\1/p')
	[ -n "$release" ] && [ -r "/boot/vmlinuz-$release" ] &&
		echo "/boot/vmlinuz-$release"
}
if [ ${#kernels[@]} -eq 0 ]; then
	for package in linux-image-amd64 linux-image-6.12-amd64; do
		image=$(debian_image "$package") &&
			kernels+=("$image") kernel_headers+=("") kernel_roots+=("")
	done
	[ ${#kernels[@]} -gt 0 ] ||
		die "no Debian kernel installed: apt-get install linux-image-amd64 linux-headers-amd64"
	# The benchmark census also counts the newest kernel, unstable's,
	# fetched (vm/kernel.sh sid); a command's census the installed ones.
	[ "$command" -eq 1 ] || kernels+=(sid) kernel_headers+=("") kernel_roots+=("")
fi

make_quiet() {
	make -C "$top" --no-print-directory -s BUILD="$BUILD" "$@"
}

# Stop the boot running, if any, when interrupted.
running="" child=""
stop() {
	[ -n "$running" ] && [ -r "$running/timeout.pid" ] &&
		kill -TERM "$(cat "$running/timeout.pid")" 2>/dev/null
	# vm/hostroot.sh stops its QEMU on SIGTERM
	[ -n "$child" ] && kill -TERM "$child" 2>/dev/null && wait "$child"
	exit 130
}
trap stop INT TERM

# The boots of the census of a command (the second form above).
command_boots() {
	local i image release state dir tsv cpu append rc kernel_args
	: >"$work/boots.list" || return 1
	for i in "${!kernels[@]}"; do
		# The guest builds nothing: no build root.
		vm_kernel "${kernels[i]}" "${kernel_headers[i]}" none || exit 2
		image=$VM_KERNEL_IMAGE release=$VM_KERNEL_RELEASE
		kernel_args=(--kernel "$image" --modules-dir "$VM_KERNEL_MODULES")
		[ -n "$VM_KERNEL_HEADERS" ] && kernel_args+=(--headers "$VM_KERNEL_HEADERS")
		for state in "${state_list[@]}"; do
			cpu=max append=""
			case $state in
			clearcpuid) append=clearcpuid=smap ;;
			cpu-off) cpu=max,-smap ;;
			esac
			dir=$work/boot-$release-$state
			tsv=$work/$release-$state.tsv
			# QEMU splits -plugin's argument at commas
			[[ $tsv == *,* ]] && die "$tsv: a path with a comma cannot be a plugin argument"
			mkdir -p "$dir" || return 1
			vm_note "census boot: $release $state"
			"$here/hostroot.sh" boot --accel tcg --smp 1 --quiet \
				--plugin "$plugin,out=$tsv" "${kernel_args[@]}" \
				--dir "$dir" --cpu "$cpu" --append "$append" --cd "$cd" \
				--timeout "$boot_timeout" -- \
				"$smapbench_path" census exec --env-file "$work/command.env" \
				--output /run/census-command.out \
				--timeout "$command_timeout" -- "$@" &
			child=$!
			wait "$child"
			rc=$?
			child=""
			echo "$state $tsv $(cat "$dir/seconds" 2>/dev/null || echo nan)" \
				>>"$work/boots.list"
			vm_note "census boot: $release $state took $(cat "$dir/seconds" 2>/dev/null)s (status $rc)"
			if [ "$rc" -ne 0 ]; then
				echo "census: $release $state: the census in the guest failed (status $rc); its output:" >&2
				tail -n 30 "$dir/share/job.out" 2>/dev/null | sed 's/^/#   /' >&2
				return 1
			fi
		done
	done
}

if [ "$command" -eq 1 ]; then
	make_quiet census-plugin >/dev/null ||
		die "building the census plugin failed (make census-plugin)"
	plugin=$build/vm/census/libcensus.so
	command_boots "$@"
	exit
fi

make_quiet smapbench smapbench-static census-plugin >/dev/null ||
	die "building smapbench and the census plugin failed (make census-plugin)"
smapbench=$build/smapbench
plugin=$build/vm/census/libcensus.so
work_root=$build/census/work
rm -rf "$work_root"
mkdir -p "$work_root" || die "cannot create $work_root"

# initramfs_for RELEASE DIR HEADERS BUILD_ROOT: the guest's initramfs,
# path on stdout. The module is built where the kernel's kbuild runs:
# here, or in BUILD_ROOT (vm/kernel.sh).
initramfs_for() {
	local release=$1 dir=$2 hdr=$3 build_root=$4 ko root applet
	ko=${SMAPBENCH_KMOD_DIR:-$build/kmod}/$release/smapbench.ko
	if [ -z "${SMAPBENCH_KMOD_DIR:-}" ]; then
		[ -n "$hdr" ] || {
			echo "census: error: no headers for $release: apt-get install" \
				"linux-headers-$release, or pass --headers" >&2
			return 1
		}
		vm_kbuild "$build_root" "$hdr" -- make -C "$top" --no-print-directory -s \
			BUILD="$BUILD" module KDIR="$hdr" >"$dir/kmod-build.log" 2>&1 || {
			tail -n 20 "$dir/kmod-build.log" >&2
			echo "census: error: building the module for $release failed" \
				"(make module KDIR=$hdr${build_root:+, in the build root $build_root})" >&2
			return 1
		}
	fi
	[ -r "$ko" ] || { echo "census: error: no $ko" >&2; return 1; }
	root=$dir/root
	mkdir -p "$root"/{bin,dev,etc,proc,sys,tmp,lib/modules} || return 1
	cp "$busybox" "$root/bin/busybox" || return 1
	for applet in $("$busybox" --list); do
		[ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
	done
	cp "$here/census/init" "$root/init" && chmod 755 "$root/init" &&
		cp "$build/smapbench-static" "$root/bin/smapbench" &&
		cp "$ko" "$root/lib/modules/smapbench.ko" || return 1
	printf '%s\n' "${guest_args[*]}" >"$root/etc/census.args"
	(cd "$root" && find . -print0 | cpio --null -o -H newc --owner=0:0 \
		--quiet | gzip -1) >"$dir/initramfs.cpio.gz" || return 1
	rm -rf "$root"
	echo "$dir/initramfs.cpio.gz"
}

# boot DIR IMAGE INITRAMFS STATE: one census boot; its counts in DIR/census.tsv.
boot() {
	local dir=$1 image=$2 initramfs=$3 state=$4 cpu=max append="" start rc
	case $state in
	clearcpuid) append="clearcpuid=smap" ;;
	cpu-off) cpu="max,-smap" ;;
	esac
	start=$(date +%s.%N)
	running=$dir
	# One vCPU: the plugin's counters are per machine, not per CPU.
	timeout -k 5 "$boot_timeout" qemu-system-x86_64 -accel tcg -M pc \
		-cpu "$cpu" -smp 1 -m 1024 -nodefaults -display none -no-reboot \
		-serial "file:$dir/serial.log" \
		-kernel "$image" -initrd "$initramfs" \
		-append "console=ttyS0 panic=-1 oops=panic no_timer_check quiet $append" \
		-plugin "$plugin,out=$dir/census.tsv" \
		>"$dir/qemu.out" 2>&1 </dev/null &
	echo $! >"$dir/timeout.pid"
	wait $!
	rc=$?
	rm -f "$dir/timeout.pid"
	running=""
	awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.0f\n", e - s }' \
		>"$dir/seconds"
	return "$rc"
}

failures=0 collect=()
total_start=$(date +%s)
# Every kernel first: a bad one is bad input, before any boot.
resolved=()
for i in "${!kernels[@]}"; do
	vm_kernel "${kernels[i]}" "${kernel_headers[i]}" "${kernel_roots[i]}" || exit 2
	resolved+=("$VM_KERNEL_RELEASE|$VM_KERNEL_IMAGE|$VM_KERNEL_HEADERS|$VM_KERNEL_BUILD_ROOT")
done
for entry in "${resolved[@]}"; do
	IFS='|' read -r release image hdr build_root <<<"$entry"
	kdir=$work_root/$release
	mkdir -p "$kdir" || die "cannot create $kdir"
	if ! initramfs=$(initramfs_for "$release" "$kdir" "$hdr" "$build_root"); then
		failures=$((failures + 1))
		continue
	fi
	for state in "${state_list[@]}"; do
		dir=$kdir/$state
		mkdir -p "$dir"
		vm_note "census boot: $release $state"
		boot "$dir" "$image" "$initramfs" "$state"
		rc=$?
		vm_note "census boot: $release $state took $(cat "$dir/seconds")s (QEMU status $rc)"
		if [ "$rc" -ne 0 ] || ! grep -q '^note	finished' "$dir/census.tsv" 2>/dev/null; then
			echo "census: $release $state: the guest did not finish (QEMU status $rc);" \
				"console in $dir/serial.log:" >&2
			grep -a . "$dir/serial.log" 2>/dev/null | tr -d '\r' | tail -n 25 |
				sed 's/^/#   /' >&2
			failures=$((failures + 1))
			continue
		fi
		collect+=("$state=$dir/census.tsv")
	done
done
[ ${#collect[@]} -gt 0 ] || { echo "census: error: no boot finished" >&2; exit 1; }

if ! line=$("$smapbench" census collect --out "$out" "${collect[@]}"); then
	echo "census: error: smapbench census collect failed" >&2
	exit 1
fi
echo "$line"
dir=${line#census directory: }
vm_note "census: ${#collect[@]} boots in $(($(date +%s) - total_start))s; work files in $work_root"
if [ "$check" -eq 1 ]; then
	"$smapbench" census check "$dir" || failures=$((failures + 1))
fi
[ "$failures" -eq 0 ]
