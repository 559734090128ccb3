#!/bin/bash
# The accelerator of the QEMU boots (vm/lib.sh, docs/vm.md): on a host
# whose /dev/kvm runs a real-mode boot sector but hangs a Linux kernel
# before long mode, the probe must say TCG and why, a boot that goes
# silent under KVM must be taken again under TCG, and run-bench.sh --vm,
# the vm matrix and the census must finish. The host is made so by
# tests/fixtures/kvm-hangs-linux (a qemu-system-x86_64 first on PATH) and
# a stand-in for /dev/kvm, so that this stage does the same on every host.
# Then the detection on this host as it is.
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh
# shellcheck source=vm/lib.sh
. vm/lib.sh

build=${BUILD:-build}
case $build in /*) ;; *) build=$PWD/$build ;; esac
if ! command -v qemu-system-x86_64 >/dev/null; then
	not_ok "accel: qemu-system-x86_64 not installed (scripts/deps.sh install test)"
	exit 1
fi
release=$(vm_debian_release linux-image-amd64)
image=/boot/vmlinuz-$release
if [ -z "$release" ] || ! [ -r "$image" ]; then
	not_ok "accel: Debian's default kernel is not installed (scripts/deps.sh install test)"
	exit 1
fi
work=$build/accel-check
rm -rf "$work"
mkdir -p "$work/vm"
fake=$PWD/tests/fixtures/kvm-hangs-linux
: >"$work/kvm"
hang_env=(env PATH="$fake:$PATH" SMAPBENCH_KVM_DEVICE="$work/kvm" SMAPBENCH_ACCEL=)

# The fixture is what the issue describes: the old probe's boot sector
# runs under its KVM.
printf '\260\001\346\364\364\353\375' >"$work/sector.img"
head -c 503 /dev/zero >>"$work/sector.img"
printf '\125\252' >>"$work/sector.img"
"${hang_env[@]}" timeout 10 qemu-system-x86_64 -accel kvm -cpu max -M pc \
	-nodefaults -display none -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	-drive "file=$work/sector.img,format=raw,if=ide" >/dev/null 2>&1
check "accel: the fixture's KVM runs a real-mode boot sector (QEMU status 3)" [ $? -eq 3 ]

# 1. Detection boots the kernel and waits for user space.
start=$SECONDS
line=$("${hang_env[@]}" BUILD="$work/build" vm/hostroot.sh accel --kernel "$image" 2>&1)
rc=$? took=$((SECONDS - start))
echo "# $line"
check "accel: a KVM that hangs Linux gives TCG with the reason, in ${took}s" \
	test "$rc" -eq 0 -a "$line" = "accelerator: TCG: $work/kvm is present, but a Linux guest printed no kernel line in 20 s under KVM (emulated timings)"
# The margin is for building the probe's initramfs and starting and
# stopping QEMU, which a loaded host stretches; a probe that waited twice
# its 20 s still fails.
check "accel: the probe gives up within its 20 s and a margin (${took}s)" [ "$took" -le 50 ]
cache=$(ls "$work/build/vm/accel/$release"-* 2>/dev/null | head -n 1)
check "accel: the answer is cached per host and kernel ($(cat "$cache" 2>/dev/null))" \
	test "$(cat "$cache" 2>/dev/null)" = "tcg kvm-no-kernel"
# A cached answer boots nothing: the probe's console is not written again.
console_before=$(stat -c %y "$cache.serial" 2>/dev/null)
start=$SECONDS
again=$("${hang_env[@]}" BUILD="$work/build" vm/hostroot.sh accel --kernel "$image" 2>&1)
check "accel: the cached answer comes back without a boot ($((SECONDS - start))s), the same" \
	test "$again" = "$line" -a -n "$console_before" \
	-a "$(stat -c %y "$cache.serial" 2>/dev/null)" = "$console_before"
out=$("${hang_env[@]}" BUILD="$work/build" SMAPBENCH_ACCEL=kvm vm/hostroot.sh accel --kernel "$image" 2>&1)
rc=$?
echo "# $out"
check "accel: SMAPBENCH_ACCEL=kvm that cannot boot fails (status $rc) saying why" \
	test "$rc" -eq 2 -a -n "$(grep -F 'printed no kernel line in 20 s under KVM' <<<"$out")"
out=$("${hang_env[@]}" BUILD="$work/build" vm/hostroot.sh accel --kernel "$image" --accel tcg 2>&1)
check "accel: --accel tcg is taken as asked" \
	test "$out" = "accelerator: TCG, as asked (--accel or SMAPBENCH_ACCEL): emulated timings, functional only"
out=$(SMAPBENCH_ACCEL=fast vm/hostroot.sh accel --kernel "$image" 2>&1)
check "accel: SMAPBENCH_ACCEL=fast is refused (status $?)" \
	test -n "$(grep -F "accelerator 'fast'" <<<"$out")"

# 2. A boot that goes silent under KVM is stopped and taken again under
# TCG, once, and the guest's run says why.
mkdir -p "$work/fallback"
start=$SECONDS
# The probe itself boots under TCG here: give it time to reach user space
# on a loaded host, or it answers kvm-no-userspace and nothing falls back.
"${hang_env[@]}" FAKE_KVM=probe-passes BUILD="$work/build-probe-passes" \
	SMAPBENCH_KVM_PROBE_SECONDS=120 \
	SMAPBENCH_KVM_FIRST_LINE_SECONDS=10 vm/hostroot.sh boot --quiet \
	--kernel "$image" --dir "$work/fallback" --timeout 600 -- \
	sh -c "cat /proc/cmdline; '$build/smapbench' info --format=kv | grep -E '^(virt|virt_accel_why|warnings)='" \
	>"$work/fallback.out" 2>&1
rc=$?
grep -E '^#' "$work/fallback.out"
check "accel: the probe passed, the boot went silent and finished under TCG (status $rc, $((SECONDS - start))s)" \
	test "$rc" -eq 0 -a "$(cat "$work/fallback/accel" 2>/dev/null)" = tcg \
	-a "$(cat "$work/fallback/accel-why" 2>/dev/null)" = kvm-silent
check "accel: the fallback was said on the screen" \
	grep -q 'printed no kernel line in 10 s, so it was stopped and taken again under TCG' "$work/fallback.out"
job=$work/fallback/share/job.out
check "accel: the guest booted with SMAPBENCH_VIRT=tcg SMAPBENCH_ACCEL_WHY=kvm-silent" \
	grep -q 'SMAPBENCH_VIRT=tcg SMAPBENCH_ACCEL_WHY=kvm-silent' "$job"
check "accel: the guest's context says virt=tcg, virt_accel_why=kvm-silent and warns" \
	test "$(grep -c -e '^virt=tcg$' -e '^virt_accel_why=kvm-silent$' -e '^warnings=.*took QEMU TCG instead' "$job")" -eq 3
[ "$(grep -c 'Linux version' "$work/fallback/serial.log.kvm-silent" 2>/dev/null)" = 0 ]
check "accel: the silent boot's console is kept, empty (serial.log.kvm-silent)" [ $? -eq 0 ]

# 3. Under the fixture, every QEMU path finishes.
start=$SECONDS
"${hang_env[@]}" vm/run-vm.sh check --kernel "$image" --boots smap \
	>"$work/run-vm.out" 2>&1
rc=$?
grep -E '^# .*accelerator' "$work/run-vm.out"
check "accel: vm/run-vm.sh check finished under TCG (status $rc, $((SECONDS - start))s)" \
	test "$rc" -eq 0 -a -n "$(grep -F 'printed no kernel line in 20 s' "$work/run-vm.out")"
start=$SECONDS
"${hang_env[@]}" vm/census.sh --kernel "$image" --states smap \
	--filter '^syscall/getppid$' --out "$work/census" >"$work/census.out" 2>&1
rc=$?
check "accel: vm/census.sh finished (status $rc, $((SECONDS - start))s)" \
	test "$rc" -eq 0 -a -n "$(grep '^census directory: ' "$work/census.out")"
out=$(SMAPBENCH_ACCEL=kvm vm/census.sh --kernel "$image" 2>&1)
check "accel: the census refuses SMAPBENCH_ACCEL=kvm (status $?): its plugin needs TCG" \
	test -n "$(grep -F 'always runs under TCG' <<<"$out")"
start=$SECONDS
"${hang_env[@]}" ./run-bench.sh --vm --quick --suite syscall --no-install \
	--out "$work/runs" >"$work/run-bench.out" 2>&1
rc=$?
head -n 1 "$work/run-bench.out" | sed 's/^/# first line: /'
grep -E '^run-bench.sh: boot [0-9] of 3: .* finished' "$work/run-bench.out" | sed 's/^/# /'
check "accel: run-bench.sh --vm --quick finished (status $rc, $((SECONDS - start))s)" \
	test "$rc" -eq 0 -a "$(find "$work/runs" -maxdepth 1 -name 'vm-*' -type d | wc -l)" -ge 3
check "accel: run-bench.sh --vm says first which accelerator, and why" \
	test -n "$(head -n 1 "$work/run-bench.out" | grep -F 'accelerator: TCG: ' | grep -F 'printed no kernel line in 20 s')"
# The guests print no advice meant for a real machine: the host says
# what comes next, and under TCG tags every line of its summary.
advice=$(grep -E "^run-bench.sh: next:|for the SMAP-off run add|sudo \./run-bench\.sh --vm runs" "$work/run-bench.out")
check "accel: the guests of --vm give no advice meant for a real machine${advice:+: $advice}" \
	test -z "$advice"
untagged=$(sed -n '/^!! The guests ran under QEMU/,$p' "$work/run-bench.out" |
	grep -vE '^(!!|$)|functional only' | head -n 3)
check "accel: under TCG every line of the --vm summary says functional only${untagged:+ (not: $untagged)}" \
	test -z "$untagged"

# 4. This host as it is.
line=$(vm/hostroot.sh accel --kernel "$image" 2>&1)
rc=$?
echo "# this host: $line"
check "accel: the detection on this host gives one line (status $rc)" \
	test "$rc" -eq 0 -a -n "$(grep -E '^accelerator: (KVM|TCG)' <<<"$line")"
stage_exit
