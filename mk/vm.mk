# QEMU end-to-end tests and VM mode (vm/, docs/vm.md).
#
#   make vm-check       boot Debian's 6.1 and 6.12 kernels with SMAP on,
#                       clearcpuid=smap, a CPU without SMAP, nosmap (6.1)
#                       and the canary; TAP lines, non-zero on failure
#   make vm-initramfs   only build the guest initramfs of the default kernel
#
# vm/run-vm.sh builds what the guest needs itself: the module per kernel
# via kmod-for, the canary (tests/kmod/canary/), the static programs.

.PHONY: vm-check vm-initramfs
vm-check:
	@BUILD=$(BUILD) vm/run-vm.sh check

vm-initramfs:
	@BUILD=$(BUILD) vm/run-vm.sh initramfs

# The canary module must stay as clean as the real one: checkpatch, and
# W=1 with sparse against each installed Debian kernel's headers.
VM_CANARY_SRC := tests/kmod/canary/Kbuild tests/kmod/canary/smapbench_canary.c
VM_LINT_KDIRS := $(wildcard /usr/src/linux-headers-6.1.*-amd64 \
			    /usr/src/linux-headers-6.12.*-amd64)

.PHONY: vm-lint
lint: vm-lint
vm-lint: $(LINUX_SOURCE_STAMP)
	$(CHECKPATCH) --no-tree --show-types -q -f tests/kmod/canary/smapbench_canary.c
	shellcheck -S warning -s sh vm/init
	+@$(call via_space_free_path,set -e; for kdir in $(VM_LINT_KDIRS); do \
		out=$(call from_top,$(BUILD))/vm/lint/$$(basename $$kdir); \
		mkdir -p $$out; cp -p $(VM_CANARY_SRC) $$out/; \
		echo "  CANARY  W=1 C=2 $$kdir"; \
		$(MAKE) --no-print-directory -s -C $$kdir M=$$out \
			W=1 C=2 modules >$$out/build.log 2>&1 || \
			{ cat $$out/build.log; exit 1; }; \
		grep -v 'Skipping BTF' $$out/build.log >$$out/warnings.log || true; \
		cat $$out/warnings.log; ! test -s $$out/warnings.log; \
	done)
