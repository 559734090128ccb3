# smapbench.ko and its in-guest self-test.
#
#   make module                  build the module for the running kernel,
#                                from KDIR (default /lib/modules/$(uname -r)/build)
#                                only; without it, say what to install (not an
#                                error; mk/config.mk finds them)
#   make kmod-for KVER=<release> build build/kmod/<release>/smapbench.ko
#                                against /lib/modules/<release>/build or
#                                /usr/src/linux-headers-<release>; e.g.
#                                KVER=6.12.118+deb12-amd64 for the VM runner
#       KMOD_FLAGS="W=1"|"C=2"   extra kbuild flags (warnings, sparse); for
#                                `module` too
#       KMOD_OUT=<dir>           build directory instead of build/kmod/<release>
#   make kmod-lint               checkpatch, sparse and W=1 for the default kernel,
#                                the layout of its timed loops
#                                (tests/kmod/check-layout.sh) and the prefix of
#                                its names (tests/kmod/check-prefix.sh)
#   make kmod-selftest           build/tests/kmod_selftest, the static program
#                                the VM boots run against /dev/smapbench
#   make kmod-clean              remove build/kmod
#
# Each kernel gets its own copy of the sources in build/kmod/<release>/, so
# 6.1 and 6.12 objects never mix and kmod/ itself stays free of build
# output. The copy is of the files named here and nothing else: a build in
# kmod/ itself (by hand) leaves smapbench.mod.c and objects of one kernel
# there, and copying them along breaks every other kernel's build
# ("disagrees about version of symbol module_layout").

# With them the compile tests of the kernel APIs the module may lack,
# which the module's Kbuild runs (kmod/probes/config.sh): a change to one
# probes again.
KMOD_SOURCES := kmod/Kbuild kmod/smapbench_main.c kmod/smapbench_ops.c \
	kmod/smapbench_ops.h kmod/uapi/smapbench.h kmod/uapi/smapbench_ops.def \
	$(wildcard kmod/probes/*.c) kmod/probes/config.sh

# Arguments of every kbuild run for the module and its probes, which
# select the compiler or the headers rather than warnings:
#   KMOD_LLVM=1            build with clang and LLVM's tools (LLVM=1), as
#                          a clang-built kernel needs
#   KMOD_OVERLAY=<dir>     headers searched before the kernel's own (a model
#                          of another kernel version: tests/kmod/overlays/)
#   KMOD_VERSION=<x.y>     the version kbuild reports (VERSION, PATCHLEVEL);
#                          by default an overlay's, from its directory's name
KMOD_VERSION ?= $(notdir $(patsubst %/,%,$(KMOD_OVERLAY)))
KMOD_KBUILD_ARGS = $(if $(KMOD_LLVM),LLVM=1) $(if $(KMOD_OVERLAY),"NOSTDINC_FLAGS=-nostdinc -I$(call from_top,$(KMOD_OVERLAY))") \
	$(if $(KMOD_VERSION),VERSION=$(word 1,$(subst ., ,$(KMOD_VERSION))) \
	PATCHLEVEL=$(word 2,$(subst ., ,$(KMOD_VERSION))))
KMOD_BUILD   := $(BUILD)/kmod

# Kernel release of a build directory, as the module's vermagic has it
# (Debian's 6.1 include/config/kernel.release says 6.1.NNN instead).
kmod_release = $(shell sed -n 's/^#define UTS_RELEASE "\(.*\)"/\1/p' \
		$(1)/include/generated/utsrelease.h 2>/dev/null)
# build directory of a release
kmod_kdir_of = $(patsubst %/Makefile,%,$(firstword \
		$(wildcard /lib/modules/$(1)/build/Makefile) \
		$(wildcard /usr/src/linux-headers-$(1)/Makefile)))

# Kbuild and the kernel's tools/ makefiles split paths at spaces. When the
# checkout's path has one, they are given a path through a symbolic link
# without spaces, made for the one command and removed after it.
# $(call via_space_free_path,<command using $$top for the checkout>)
# The command runs in a subshell of its own (set -e stays inside).
ifneq ($(word 2,$(CURDIR)),)
via_space_free_path = alias=$$(mktemp -d) && ln -s "$(CURDIR)" "$$alias/top" && \
	top=$$alias/top && ( $(1) ); rc=$$?; rm -f "$$alias/top"; rmdir "$$alias"; exit $$rc
else
via_space_free_path = top='$(CURDIR)' && ( $(1) )
endif

# $(call from_top,<path>): <path> as seen from $$top, the checkout.
from_top = $(if $(filter /%,$(1)),$(1),$$top/$(1))

# What a build was asked for beyond the kernel: compiler and overlay.
kmod_build_label = $(if $(KMOD_LLVM), LLVM=1)$(if $(KMOD_OVERLAY), overlay $(KMOD_OVERLAY))$(if $(KMOD_VERSION), as $(KMOD_VERSION))

# $(call kmod_build,<kernel build dir>,<output dir>,<kbuild flags>)
# The sources, in kmod/'s layout; the Kbuild runs the probes
# (kmod/probes/config.sh writes smapbench_config.h beside them, and
# names each feature the kernel lacks with what it leaves out).
define kmod_build
	@dest=$$(mkdir -p "$(2)" && cd "$(2)" && pwd) && cd kmod && \
		cp -p --parents $(patsubst kmod/%,%,$(KMOD_SOURCES)) "$$dest/"
	@echo "  KBUILD  $(2) against $(1)$(kmod_build_label)$(if $(3), $(3))"
	+@$(call via_space_free_path,$(MAKE) --no-print-directory -C $(1) \
		M=$(call from_top,$(2)) $(KMOD_KBUILD_ARGS) $(3) modules)
endef

.PHONY: module kmod-for kmod-lint kmod-checkpatch kmod-selftest kmod-clean
all: module kmod-selftest
lint: kmod-lint

ifneq ($(KMOD_KDIR),)
# kbuild runs some 35 compiler probes even when nothing changed: a second
# or two here, minutes in an emulated guest, where run-bench.sh runs make
# before every run. So it runs only when a source, the kernel's headers
# (its configuration and symbol versions) or KMOD_FLAGS call for it.
KMOD_KO := $(KMOD_BUILD)/$(call kmod_release,$(KMOD_KDIR))/smapbench.ko
module: $(KMOD_KO)
$(KMOD_KO): $(KMOD_SOURCES) $(wildcard $(KMOD_KDIR)/include/generated/autoconf.h \
		$(KMOD_KDIR)/Module.symvers) $(if $(KMOD_FLAGS),FORCE)
	$(call kmod_build,$(KMOD_KDIR),$(patsubst %/,%,$(dir $@)),$(KMOD_FLAGS))
	@touch $@
	@echo "  KMOD    $@"
else
module:
ifneq ($(filter module,$(MAKECMDGOALS)),)
	@$(config_print)
endif
endif

# The tree kmod-for builds against: KMOD_TREE (any prepared kernel tree,
# e.g. scripts/kmod-clang-tree.sh's), else the headers of release KVER.
kmod_for_kdir = $(if $(KMOD_TREE),$(wildcard $(KMOD_TREE)/Makefile),$(call kmod_kdir_of,$(KVER)))
KMOD_OUT ?= $(KMOD_BUILD)/$(or $(KVER),$(call kmod_release,$(KMOD_TREE)))
kmod-for: $(KMOD_SOURCES)
	@if [ -z "$(KVER)$(KMOD_TREE)" ]; then \
		echo "usage: make kmod-for KVER=<release>|KMOD_TREE=<dir> [KMOD_FLAGS=W=1|C=2] [KMOD_LLVM=1] [KMOD_OVERLAY=<dir>]" >&2; \
		exit 2; \
	fi
	@if [ -z "$(kmod_for_kdir)" ]; then \
		echo "error: $(if $(KMOD_TREE),no kernel tree at $(KMOD_TREE),no headers for $(KVER): apt-get install linux-headers-$(KVER))" >&2; \
		exit 1; \
	fi
	$(call kmod_build,$(patsubst %/Makefile,%,$(kmod_for_kdir)),$(KMOD_OUT),$(KMOD_FLAGS))

kmod-clean:
	rm -rf $(KMOD_BUILD)

kmod-checkpatch: kmod-doctools
	$(CHECKPATCH) --no-tree --show-types -f $(filter-out %/Kbuild,$(KMOD_SOURCES)) \
		$(wildcard kmod/probes/*.c)

kmod-lint: kmod-checkpatch kmod-kerneldoc
	shellcheck -S warning tests/kmod/check-layout.sh tests/kmod/check-prefix.sh
ifneq ($(KMOD_KDIR),)
	@rm -rf $(KMOD_BUILD)/lint-w1
	$(call kmod_build,$(KMOD_KDIR),$(KMOD_BUILD)/lint-w1,W=1)
	tests/kmod/check-layout.sh --label "loop layout" $(KMOD_BUILD)/lint-w1/smapbench.ko
	tests/kmod/check-prefix.sh --label "prefix" $(KMOD_BUILD)/lint-w1
	$(call kmod_build,$(KMOD_KDIR),$(KMOD_BUILD)/lint-sparse,C=2)
else
	@echo "note: no kernel headers: W=1 and sparse builds of the module skipped"
endif

# The self-test runs in a guest without a C library: link it statically.
kmod-selftest: $(BUILD)/tests/kmod_selftest
KMOD_SELFTEST_SRCS := $(wildcard tests/kmod/selftest/*.c) suites/kmod/catalogue.c
$(BUILD)/tests/kmod_selftest: $(KMOD_SELFTEST_SRCS) tests/kmod/selftest/selftest.h \
		suites/kmod/catalogue.h suites/kmod/sweep.h kmod/uapi/smapbench.h \
		kmod/uapi/smapbench_ops.def \
		$(BUILD_FLAGS)
	@mkdir -p $(dir $@)
	@echo "  CC      tests/kmod/selftest/ (static)"
	@$(CC) $(USER_CFLAGS) $(LDFLAGS) -static -pthread -o $@ $(KMOD_SELFTEST_SRCS) \
		-lpthread $(LDLIBS)

# checkpatch.pl and kernel-doc from Debian's linux-source-6.1. kernel-doc
# joined LINUX_SOURCE_PARTS after some trees were extracted: fetch it alone
# where it is missing rather than unpacking everything again.
KERNEL_DOC := $(LINUX_SOURCE_DIR)/scripts/kernel-doc
$(KERNEL_DOC): | $(LINUX_SOURCE_DIR)/.extracted
	@tar -xJf $(LINUX_SOURCE_TARBALL) -C $(LINUX_SOURCE_DIR) \
		--strip-components=1 linux-source-6.1/scripts/kernel-doc
	@touch $@

.PHONY: kmod-doctools kmod-kerneldoc
kmod-doctools: $(LINUX_SOURCE_DIR)/.extracted $(KERNEL_DOC)

kmod-kerneldoc: kmod-doctools
	perl $(KERNEL_DOC) -none -Werror kmod/uapi/smapbench.h kmod/smapbench_ops.h \
		kmod/smapbench_main.c
