#!/bin/bash
# The module's build-time checks, one TAP line each: W=1 builds without a
# warning and sparse (C=2) without a report against Debian 12's 6.1 and
# 6.12 headers, the layout of the timed loops in both builds (every
# inline/nopad twin: same bytes but STAC/CLAC <-> NOP3, same offset mod
# 64; every loop head 64-byte aligned: tests/kmod/check-layout.sh), checkpatch
# and kernel-doc clean, the uapi header usable from C11 user space with
# one layout for 32- and 64-bit callers, and the in-guest self-test
# builds statically.
# Loading and running the module is the VM stage's business (40-vm.sh).
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh

BUILD=${BUILD:-build}
out_dir=$BUILD/kmod-check

# Newest installed headers of a kernel series (6.1, 6.12), as a release name.
headers_for() {
	local series=$1 d
	for d in /usr/src/linux-headers-"$series".*-amd64 /lib/modules/"$series".*/build; do
		[ -f "$d/include/generated/utsrelease.h" ] || continue
		sed -n 's/^#define UTS_RELEASE "\(.*\)"/\1/p' "$d/include/generated/utsrelease.h"
	done | sort -uV | tail -n 1
}

# A fresh build directory per check, so every file is compiled (and
# checked) again rather than found up to date.
kbuild() { # release flags label
	local rel=$1 flags=$2
	local dir="$out_dir/$rel-$3"
	rm -rf "$dir"
	make --no-print-directory -s kmod-for KVER="$rel" KMOD_FLAGS="$flags" \
		KMOD_OUT="$dir" 2>&1
}

for series in 6.1 6.12; do
	rel=$(headers_for "$series")
	if [ -z "$rel" ]; then
		skip "module builds against $series headers with W=1" \
			"no $series headers (apt-get install linux-headers-$series-amd64 or linux-headers-amd64)"
		skip "sparse (C=2) is clean against $series headers" "no $series headers"
		continue
	fi

	log=$(kbuild "$rel" W=1 w1)
	rc=$?
	ko="$out_dir/$rel-w1/smapbench.ko"
	# objtool complaints count as warnings too: they name the object.
	warnings=$(echo "$log" | grep -E 'warning|error|objtool' | grep -v 'Skipping BTF')
	if [ "$rc" -eq 0 ] && [ -f "$ko" ] && [ -z "$warnings" ]; then
		ok "module builds against $rel with W=1 and no warning"
	else
		show 30 <<<"$log"
		not_ok "module build against $rel with W=1: status $rc, warnings above"
	fi
	if [ -f "$ko" ]; then
		vermagic=$(modinfo -F vermagic "$ko" 2>/dev/null | cut -d' ' -f1)
		if [ "$vermagic" = "$rel" ]; then
			ok "smapbench.ko for $rel carries vermagic $rel"
		else
			not_ok "smapbench.ko for $rel has vermagic '$vermagic'"
		fi
		# One TAP line per twin pair, from the module's disassembly.
		relay < <(tests/kmod/check-layout.sh --label "loop layout in $rel" "$ko")
	else
		not_ok "loop layout in $rel: no module to disassemble"
	fi

	if ! command -v sparse >/dev/null; then
		skip "sparse (C=2) is clean against $rel" "sparse not installed (apt-get install sparse)"
		continue
	fi
	log=$(kbuild "$rel" C=2 sparse)
	rc=$?
	reports=$(echo "$log" | grep -E ':[0-9]+:[0-9]+: (warning|error)')
	if [ "$rc" -eq 0 ] && [ -z "$reports" ]; then
		ok "sparse (C=2) is clean against $rel"
	else
		show 30 <<<"$log"
		not_ok "sparse (C=2) against $rel: status $rc, reports above"
	fi
done

if make --no-print-directory -s kmod-doctools >/dev/null 2>&1; then
	tools=$BUILD/linux-source/scripts
	log=$("$tools/checkpatch.pl" --no-tree --show-types --terse -f \
		kmod/*.c kmod/*.h kmod/uapi/*.h kmod/uapi/*.def 2>&1)
	rc=$?
	if [ "$rc" -eq 0 ] && ! echo "$log" | grep -qE '(WARNING|ERROR|CHECK):'; then
		ok "checkpatch --no-tree -f is clean on kmod/ sources"
	else
		show 30 <<<"$log"
		not_ok "checkpatch reports problems in kmod/ sources"
	fi

	log=$(perl "$tools/kernel-doc" -none -Werror kmod/uapi/smapbench.h \
		kmod/smapbench_ops.h kmod/smapbench_main.c 2>&1)
	rc=$?
	if [ "$rc" -eq 0 ] && [ -z "$log" ]; then
		ok "kernel-doc -Werror is clean on the uapi header and the module's doc comments"
	else
		show 30 <<<"$log"
		not_ok "kernel-doc reports problems"
	fi
else
	skip "checkpatch --no-tree -f is clean on kmod/ sources" \
		"no linux-source-6.1 tarball (apt-get install linux-source-6.1)"
	skip "kernel-doc is clean on the uapi header" "no linux-source-6.1 tarball"
fi

# The header is the harness's contract: it must stand alone in C11 and
# keep its layout (sizes are part of the ioctl numbers). A struct whose
# size is the sum of its members has no padding, so with its 8-byte
# members at multiples of 8 (asserted) a 32-bit caller, whose __u64 is
# 4-byte aligned, sees the same layout: what compat_ptr_ioctl relies on.
cc=${CC:-cc}
log=$(printf '%s\n' '#include <stddef.h>' '#include "kmod/uapi/smapbench.h"' \
	'#define M(s, f) sizeof(((struct s *)0)->f)' \
	'#define AT8(s, f) _Static_assert(offsetof(struct s, f) % 8 == 0, #f)' \
	'_Static_assert(sizeof(struct smapbench_info) == 152, "info size");' \
	'_Static_assert(sizeof(struct smapbench_run) == 136, "run size");' \
	'_Static_assert(sizeof(struct smapbench_sample) == 24, "sample size");' \
	'_Static_assert(sizeof(struct smapbench_info) == 10 * 4 + 5 * 8 + 72, "info padding");' \
	'_Static_assert(sizeof(struct smapbench_run) == 18 * 4 + 8 * 8, "run padding");' \
	'AT8(smapbench_info, tsc_khz); AT8(smapbench_info, ops_mask); AT8(smapbench_info, reserved);' \
	'AT8(smapbench_run, buffer); AT8(smapbench_run, buffer_len); AT8(smapbench_run, samples_ptr);' \
	'AT8(smapbench_run, timer_overhead_tsc); AT8(smapbench_run, timer_overhead_cycles);' \
	'AT8(smapbench_run, budget_tsc); AT8(smapbench_run, iteration_tsc); AT8(smapbench_run, window_max_tsc);' \
	'_Static_assert(M(smapbench_run, reserved) == 20, "run reserved");' \
	'int main(void) { return SMAPBENCH_IOC_RUN == 0; }' |
	"$cc" -std=c11 -Wall -Wextra -Werror -pedantic -I. -x c -o /dev/null - 2>&1)
if [ $? -eq 0 ]; then
	ok "uapi header compiles standalone in C11, ABI 2 sizes, no padding, 8-byte fields 8-aligned (one layout for 32-bit callers)"
else
	show 30 <<<"$log"
	not_ok "uapi header does not compile standalone with -std=c11 -Wall -Wextra -Werror, or its layout changed"
fi

# Without any headers `make` must explain what to install, not fail.
log=$(make --no-print-directory -s module KDIR=/nonexistent KMOD_DEB61= 2>&1)
if [ $? -eq 0 ] && echo "$log" | grep -q "apt-get install linux-headers"; then
	ok "make module without kernel headers says what to install and succeeds"
else
	show 30 <<<"$log"
	not_ok "make module without kernel headers fails or gives no hint"
fi

log=$(make --no-print-directory -s kmod-selftest 2>&1)
if [ $? -eq 0 ] && [ -x "$BUILD/tests/kmod_selftest" ] &&
	! readelf -l "$BUILD/tests/kmod_selftest" | grep -q INTERP; then
	ok "kmod_selftest builds as a static program"
else
	show 30 <<<"$log"
	not_ok "kmod_selftest does not build statically"
fi

stage_exit
