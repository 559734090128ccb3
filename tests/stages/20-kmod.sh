#!/bin/bash
# The module's build-time checks, one TAP line each: W=1 builds without a
# warning and sparse (C=2) without a report against Debian 12's 6.1 and
# 6.12 headers, checkpatch and kernel-doc clean, the uapi header usable
# from C11 user space, and the in-guest self-test builds statically.
# Loading and running the module is the VM stage's business (40-vm.sh).
set -u
cd "$(dirname "$0")/../.." || exit 1
fail=0
ok() { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; fail=1; }
skip() { echo "ok - $1 # SKIP $2"; }
show() { sed "s/^/#   /" | head -n 30; }

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
		echo "$log" | show
		not_ok "module build against $rel with W=1: status $rc, warnings above"
	fi
	if [ -f "$ko" ]; then
		vermagic=$(modinfo -F vermagic "$ko" 2>/dev/null | cut -d' ' -f1)
		if [ "$vermagic" = "$rel" ]; then
			ok "smapbench.ko for $rel carries vermagic $rel"
		else
			not_ok "smapbench.ko for $rel has vermagic '$vermagic'"
		fi
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
		echo "$log" | show
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
		echo "$log" | show
		not_ok "checkpatch reports problems in kmod/ sources"
	fi

	log=$(perl "$tools/kernel-doc" -none -Werror kmod/uapi/smapbench.h \
		kmod/smapbench_ops.h kmod/smapbench_main.c 2>&1)
	rc=$?
	if [ "$rc" -eq 0 ] && [ -z "$log" ]; then
		ok "kernel-doc -Werror is clean on the uapi header and the module's doc comments"
	else
		echo "$log" | show
		not_ok "kernel-doc reports problems"
	fi
else
	skip "checkpatch --no-tree -f is clean on kmod/ sources" \
		"no linux-source-6.1 tarball (apt-get install linux-source-6.1)"
	skip "kernel-doc is clean on the uapi header" "no linux-source-6.1 tarball"
fi

# The header is the harness's contract: it must stand alone in C11 and
# keep its layout (sizes are part of the ioctl numbers).
cc=${CC:-cc}
log=$(printf '%s\n' '#include "kmod/uapi/smapbench.h"' \
	'_Static_assert(sizeof(struct smapbench_info) == 152, "info size");' \
	'_Static_assert(sizeof(struct smapbench_run) == 96, "run size");' \
	'_Static_assert(sizeof(struct smapbench_sample) == 16, "sample size");' \
	'int main(void) { return SMAPBENCH_IOC_RUN == 0; }' |
	"$cc" -std=c11 -Wall -Wextra -Werror -pedantic -I. -x c -o /dev/null - 2>&1)
if [ $? -eq 0 ]; then
	ok "uapi header compiles standalone in C11 user space, struct sizes unchanged"
else
	echo "$log" | show
	not_ok "uapi header does not compile standalone with -std=c11 -Wall -Wextra -Werror"
fi

# Without any headers `make` must explain what to install, not fail.
log=$(make --no-print-directory -s module KDIR=/nonexistent KMOD_DEB61= 2>&1)
if [ $? -eq 0 ] && echo "$log" | grep -q "apt-get install linux-headers"; then
	ok "make module without kernel headers says what to install and succeeds"
else
	echo "$log" | show
	not_ok "make module without kernel headers fails or gives no hint"
fi

log=$(make --no-print-directory -s kmod-selftest 2>&1)
if [ $? -eq 0 ] && [ -x "$BUILD/tests/kmod_selftest" ] &&
	! readelf -l "$BUILD/tests/kmod_selftest" | grep -q INTERP; then
	ok "kmod_selftest builds as a static program"
else
	echo "$log" | show
	not_ok "kmod_selftest does not build statically"
fi

exit "$fail"
