# BPF timing programs (bpf/) and their loader library.
#
# HAVE_BPF is decided here, at build time: clang (BPF target), bpftool,
# libbpf and the running kernel's BTF (for vmlinux.h) must all be there.
# Without them the build still succeeds: the loader is replaced by a stub
# whose every call fails with the list of what was missing, so the bpf
# suite reports SKIP with that reason.
#
# Outputs, all under $(BUILD)/bpf:
#   vmlinux.h             from $(BPF_VMLINUX_BTF), never committed
#   smapbench.bpf.o       clang -target bpf, CO-RE relocatable
#   smapbench.skel.h      bpftool gen skeleton (embeds the object)
#   libbpfbench.a         loader (or stub) + common code
# For the program that links the loader: BPF_LIB, BPF_LDLIBS.

BPF_CLANG       ?= clang
BPF_BPFTOOL     ?= $(firstword $(shell command -v bpftool 2>/dev/null) \
			$(wildcard /usr/sbin/bpftool /sbin/bpftool))
BPF_VMLINUX_BTF ?= /sys/kernel/btf/vmlinux
BPF_BUILD       := $(BUILD)/bpf

bpf_missing :=
ifeq ($(shell command -v $(BPF_CLANG) 2>/dev/null),)
bpf_missing += clang
endif
ifeq ($(BPF_BPFTOOL),)
bpf_missing += bpftool
endif
ifneq ($(shell pkg-config --exists libbpf 2>/dev/null && echo yes),yes)
bpf_missing += libbpf-dev
endif
ifeq ($(wildcard $(BPF_VMLINUX_BTF)),)
bpf_missing += kernel-BTF($(BPF_VMLINUX_BTF))
endif
bpf_missing := $(strip $(bpf_missing))
ifeq ($(bpf_missing),)
HAVE_BPF   := 1
BPF_LDLIBS := $(shell pkg-config --libs libbpf) -lelf -lz -lpthread
BPF_LOADER_OBJ := $(BPF_BUILD)/loader.o
else
HAVE_BPF   := 0
BPF_LDLIBS :=
BPF_LOADER_OBJ := $(BPF_BUILD)/loader_stub.o
endif
BPF_LIB := $(BPF_BUILD)/libbpfbench.a

bpf_stub_reason := missing at build time: $(bpf_missing); install them \
	(scripts/deps.sh install run) and rebuild

BPF_PROG_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall -Werror \
	-I$(BPF_BUILD) -I$(CURDIR)
BPF_USER_CFLAGS := $(USER_CFLAGS) -I$(BPF_BUILD)

.PHONY: bpf bpf-status bpf-test
all: bpf
bpf: $(BPF_LIB)

bpf-status:
	@if [ "$(HAVE_BPF)" = 1 ]; then echo "bpf: enabled"; \
	else echo "bpf: disabled, $(bpf_stub_reason)"; fi

$(BPF_BUILD):
	@mkdir -p $@

# The kernel's types, from the BTF of the kernel this builds on.
$(BPF_BUILD)/vmlinux.h: | $(BPF_BUILD)
	@echo "  BTF     $@"
	@$(BPF_BPFTOOL) btf dump file $(BPF_VMLINUX_BTF) format c > $@.tmp
	@mv $@.tmp $@

$(BPF_BUILD)/smapbench.bpf.o: bpf/smapbench.bpf.c bpf/bpfbench.h \
		$(BPF_BUILD)/vmlinux.h
	@echo "  CLANG   $@"
	@$(BPF_CLANG) $(BPF_PROG_CFLAGS) -c $< -o $@

$(BPF_BUILD)/smapbench.skel.h: $(BPF_BUILD)/smapbench.bpf.o
	@echo "  SKEL    $@"
	@$(BPF_BPFTOOL) gen skeleton $< name smapbench_bpf > $@.tmp
	@mv $@.tmp $@

$(BPF_BUILD)/loader.o: bpf/loader.c bpf/loader.h bpf/bpfbench.h \
		$(BPF_BUILD)/smapbench.skel.h
	@echo "  CC      $@"
	@$(CC) $(BPF_USER_CFLAGS) -c $< -o $@

$(BPF_BUILD)/common.o: bpf/common.c bpf/loader.h bpf/bpfbench.h | $(BPF_BUILD)
	@echo "  CC      $@"
	@$(CC) $(BPF_USER_CFLAGS) -c $< -o $@

$(BPF_BUILD)/loader_stub.o: bpf/loader_stub.c bpf/loader.h mk/bpf.mk | $(BPF_BUILD)
	@echo "  CC      $@"
	@$(CC) $(BPF_USER_CFLAGS) -DBPFBENCH_STUB_REASON='"$(bpf_stub_reason)"' \
		-c $< -o $@

$(BPF_LIB): $(BPF_LOADER_OBJ) $(BPF_BUILD)/common.o
	@echo "  AR      $@"
	@rm -f $@ && ar rcs $@ $^
ifneq ($(HAVE_BPF),1)
	@echo "  NOTE    bpf suite disabled: $(bpf_stub_reason)"
endif

# The loader's unit tests (cmocka): its error paths must be clear.
BPF_TEST := $(BUILD)/tests/unit/test_bpf_loader
BPF_CMOCKA := $(shell pkg-config --exists cmocka 2>/dev/null && echo yes)

ifeq ($(BPF_CMOCKA),yes)
all: $(BPF_TEST)
bpf-test: $(BPF_TEST)
$(BPF_TEST): tests/unit/test_bpf_loader.c bpf/loader.h bpf/bpfbench.h $(BPF_LIB)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(BPF_USER_CFLAGS) $< -o $@ $(BPF_LIB) \
		$(shell pkg-config --libs cmocka) $(BPF_LDLIBS)
else
bpf-test:
	@echo "bpf-test: cmocka missing (apt-get install libcmocka-dev)" >&2
	@false
endif
