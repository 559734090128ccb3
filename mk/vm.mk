# QEMU end-to-end tests and VM mode (vm/, docs/vm.md).
#
#   make vm-check       boot Debian's 6.1 and 6.12 kernels with SMAP on,
#                       clearcpuid=smap, a CPU without SMAP, nosmap (6.1)
#                       and the canary; TAP lines, non-zero on failure
#   make vm-initramfs   only build the guest initramfs of the default kernel
#
# vm/run-vm.sh builds what the guest needs itself (module per kernel via
# kmod-for, the canary, the static programs); these rules only add the
# ioctl fuzzer, which lives here.

VM_FUZZ := $(BUILD)/vm/smapbench_fuzz

$(VM_FUZZ): vm/smapbench_fuzz.c kmod/uapi/smapbench.h
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -static -o $@ vm/smapbench_fuzz.c

.PHONY: vm-check vm-initramfs
vm-check:
	@BUILD=$(BUILD) vm/run-vm.sh check

vm-initramfs:
	@BUILD=$(BUILD) vm/run-vm.sh initramfs
