# BPF timing programs (bpf/) and their loader library.
#
# HAVE_BPF is decided at build time by mk/config.mk: clang (BPF target),
# bpftool, libbpf and the running kernel's BTF (for vmlinux.h) must all
# be there. Without them the build still succeeds: the loader is replaced
# by a stub whose every call fails with the list of what was missing, so
# the bpf suite reports SKIP with that reason.
#
# Outputs, all under $(BUILD)/bpf:
#   vmlinux.h             from $(BPF_VMLINUX_BTF), never committed
#   smapbench.bpf.o       clang -target bpf, CO-RE relocatable
#   smapbench.skel.h      bpftool gen skeleton (embeds the object)
#   libbpfbench.a         loader (or stub) + common code
# For the program that links the loader: BPF_LIB, BPF_LDLIBS.

BPF_BUILD := $(BUILD)/bpf

# HAVE_BPF, BPF_CLANG, BPF_BPFTOOL, bpf_stub_reason: mk/config.mk.
ifeq ($(HAVE_BPF),1)
BPF_LDLIBS := $(or $(shell pkg-config --libs libbpf 2>/dev/null),-lbpf) -lelf -lz -lpthread
BPF_LOADER_OBJ := $(BPF_BUILD)/loader.o
else
BPF_LDLIBS :=
BPF_LOADER_OBJ := $(BPF_BUILD)/loader_stub.o
endif
BPF_LIB := $(BPF_BUILD)/libbpfbench.a

BPF_PROG_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall -Werror \
	-I$(BPF_BUILD) -I.
BPF_USER_CFLAGS = $(USER_CFLAGS) -I$(BPF_BUILD)

.PHONY: bpf bpf-status
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
		$(BPF_BUILD)/smapbench.skel.h $(BUILD_FLAGS)
	@echo "  CC      $@"
	@$(CC) $(BPF_USER_CFLAGS) -c $< -o $@

$(BPF_BUILD)/common.o: bpf/common.c bpf/loader.h bpf/bpfbench.h $(BUILD_FLAGS) | $(BPF_BUILD)
	@echo "  CC      $@"
	@$(CC) $(BPF_USER_CFLAGS) -c $< -o $@

$(BPF_BUILD)/loader_stub.o: bpf/loader_stub.c bpf/loader.h $(BUILD_FLAGS) | $(BPF_BUILD)
	@echo "  CC      $@"
	@$(CC) $(BPF_USER_CFLAGS) -DBPFBENCH_STUB_REASON='"$(bpf_stub_reason)"' \
		-c $< -o $@

$(BPF_LIB): $(BPF_LOADER_OBJ) $(BPF_BUILD)/common.o $(BUILD_FLAGS)
	@echo "  AR      $@"
	@rm -f $@ && ar rcs $@ $(BPF_LOADER_OBJ) $(BPF_BUILD)/common.o

# The loader stub of build/smapbench-static where this distribution's
# libbpf cannot be linked into a static program (mk/user.mk tries, and
# says so when it cannot): the guests' bpf suite is then skipped with
# this reason.
ifeq ($(HAVE_BPF),1)
BPF_STATIC_STUB_LIB := $(BPF_BUILD)/libbpfbench-static-stub.a
$(BPF_BUILD)/loader_static_stub.o: bpf/loader_stub.c bpf/loader.h $(BUILD_FLAGS) | $(BPF_BUILD)
	@echo "  CC      $@"
	@$(CC) $(BPF_USER_CFLAGS) -DBPFBENCH_STUB_REASON='"libbpf could not be linked statically where this static program was built"' \
		-c $< -o $@

$(BPF_STATIC_STUB_LIB): $(BPF_BUILD)/loader_static_stub.o $(BPF_BUILD)/common.o $(BUILD_FLAGS)
	@echo "  AR      $@"
	@rm -f $@ && ar rcs $@ $(BPF_BUILD)/loader_static_stub.o $(BPF_BUILD)/common.o
endif
