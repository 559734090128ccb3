#!/bin/bash
# The README's path on a kernel that loads the module: QEMU boots Debian's
# kernel with this machine's own root filesystem (vm/hostroot.sh), and
# run-bench.sh runs inside as root, exactly as on a user's machine.
# tests/vm/hostroot-checks.sh does the checking in the guest; this stage
# boots, relays its TAP lines with the kernel and boot in front, and
# judges the guest's kernel log. docs/vm.md, "The host-root guest".
#
# Boots, one at a time (TCG: each is minutes):
#   6.1  smap        a run killed with SIGKILL, then a complete run with the
#                    module still loaded from it, then Ctrl-C mid-run
#   6.1  clearcpuid  a complete run, the compare command it prints (against
#                    the smap boot's run: both boots share --out), SIGTERM
#   6.12 smap        a complete run (6.12 ships xz-compressed modules)
# HOSTROOT_BOOTS="6.1-smap 6.12-smap" runs only some of them.
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=vm/lib.sh
. vm/lib.sh
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh
# shellcheck source=tests/lib/guest.sh
. tests/lib/guest.sh

build=${BUILD:-build}
case $build in /*) ;; *) build=$PWD/$build ;; esac
work=$build/vm/hostroot-check
only=${HOSTROOT_BOOTS:-}

# The guest-side scripts are held to the same lint as vm/*.sh.
if out=$(shellcheck -S warning tests/vm/hostroot-checks.sh 2>&1 &&
	shellcheck -S warning -s sh vm/hostroot-init 2>&1); then
	ok "hostroot: shellcheck clean on the guest's init and checks"
else
	show <<<"$out"
	not_ok "hostroot: shellcheck on vm/hostroot-init, tests/vm/hostroot-checks.sh"
fi

need_guest_tools hostroot qemu-system-x86_64
if ! make -s all >"$build/hostroot-make.log" 2>&1; then
	show <"$build/hostroot-make.log"
	not_ok "hostroot: make all"
	exit 1
fi

rm -rf "$work"
mkdir -p "$work"
# The guest's writes vanish; its results come back through the share.
# Both boots of one kernel share --out, so the SMAP-off run finds the
# SMAP-on one. A space in the path checks the quoting of printed commands.
runs="/run/smapbench/runs with space"

# boot LABEL IMAGE NAME CPU APPEND EXPECT_STATE STEP...
boot() {
	local label=$1 image=$2 name=$3 cpu=$4 append=$5 expect=$6 rc prefix
	local dir=$work/$label/$name share=$work/$label/share tainted allowed
	shift 6
	prefix="$label $name"
	if [ -n "$only" ] && [[ " $only " != *" $label-$name "* ]]; then
		return
	fi
	mkdir -p "$dir" "$share"
	echo "# $prefix: booting $image ($*)"
	vm/hostroot.sh boot --quiet --kernel "$image" --dir "$dir" \
		--share "$share" --cpu "$cpu" --append "$append" --timeout 1500 -- \
		env RUNS="$runs" EXPECT_STATE="$expect" LOGS="/run/smapbench/logs/$name" \
		tests/vm/hostroot-checks.sh "$@" 2>"$dir/hostroot.err"
	rc=$?
	echo "# $prefix: boot to poweroff $(cat "$dir/seconds" 2>/dev/null)s"
	relay "$prefix: " < <(grep -E '^((not )?ok - |#)' "$share/job.out" 2>/dev/null)
	if [ "$rc" -eq 125 ] || ! [ -e "$share/done" ]; then
		show 40 <"$dir/hostroot.err"
		not_ok "$prefix: the guest ran the checks and reported back"
		return
	fi
	ok "$prefix: the guest ran the checks and reported back (status $rc)"
	if grep -qE "$VM_BAD_LOG_RE" "$share/dmesg.txt"; then
		grep -E "$VM_BAD_LOG_RE" "$share/dmesg.txt" | show
		not_ok "$prefix: guest kernel log clean (no BUG, WARNING, oops, lockup)"
	else
		ok "$prefix: guest kernel log clean (no BUG, WARNING, oops, lockup)"
	fi
	# O and E (out-of-tree, unsigned module), S from clearcpuid.
	allowed=$((4096 | 8192))
	[[ $append == *clearcpuid* ]] && allowed=$((allowed | 4))
	tainted=$(cat "$share/tainted" 2>/dev/null)
	if [ -n "$tainted" ] && (((tainted & ~allowed) == 0)); then
		ok "$prefix: guest kernel taint $tainted within $allowed"
	else
		not_ok "$prefix: guest kernel taint ${tainted:-unknown} within $allowed"
	fi
}

start=$(date +%s)
release=$(debian_kernel 6.1)
if [ -n "$release" ]; then
	image=/boot/vmlinuz-$release
	boot 6.1 "$image" smap max "" smap killed normal sigint
	boot 6.1 "$image" clearcpuid max clearcpuid=smap nosmap normal compare sigterm
else
	not_ok "hostroot: Debian's default kernel is not installed (scripts/deps.sh install test)"
fi
release=$(debian_kernel 6.12)
if [ -n "$release" ]; then
	boot 6.12 "/boot/vmlinuz-$release" smap max "" smap normal
else
	skip "hostroot: 6.12 boots" "linux-image-6.12-amd64 not installed"
fi
echo "# hostroot: all boots in $(($(date +%s) - start))s; files in $work"
stage_exit
