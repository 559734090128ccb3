#!/bin/bash
# QEMU end-to-end tests (docs/vm.md): the module, the smapbench program
# and the canary in guests of Debian's 6.1, 6.12 and 6.12-rt kernels, with SMAP on,
# clearcpuid=smap, a CPU without SMAP and (6.1) the ignored nosmap.
# A missing QEMU or default kernel is a failure: CI installs them.
set -u
cd "$(dirname "$0")/../.." || exit 1
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
exit "$rc"
