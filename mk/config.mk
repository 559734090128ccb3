# What this machine offers the build, probed once, here and nowhere else.
#
# `make` needs only a C compiler (build-essential). Everything else is
# optional: each probe below sets a HAVE_* variable that the parts
# (mk/*.mk) read, and a part left out gets one note naming what is missing
# and the Debian package that brings it. `make` prints the notes once, at
# its end (Makefile); `make config` prints only them. scripts/deps.sh
# installs every package named here.

HASH := $(shell printf '\043')
comma := ,
# $(call have_header,<header>): 1 when the compiler finds <header>.
have_header = $(shell printf '$(HASH)include <%s>\n' '$(1)' | \
	$(CC) $(CPPFLAGS) -E -x c - >/dev/null 2>&1 && echo 1)
# $(call have_command,<name>): its path (PATH, then /usr/sbin, /sbin), or empty.
have_command = $(firstword $(shell command -v $(1) 2>/dev/null) \
	$(wildcard $(addsuffix /$(1),/usr/sbin /sbin)))

# $(call left_out,<part>,<why, and what to install>)
CONFIG_NOTES :=
left_out = $(eval CONFIG_NOTES += $(words x $(CONFIG_NOTES)))$(eval \
	config_note_$(lastword $(CONFIG_NOTES)) := $(strip $(1)): $(strip $(2)))

# ---------------------------------------------------------------- libraries
HAVE_CMOCKA    := $(call have_header,cmocka.h)
HAVE_HWLOC     := $(call have_header,hwloc.h)
HAVE_LIBPFM    := $(call have_header,perfmon/pfmlib_perf_event.h)
HAVE_CPUCYCLES := $(call have_header,cpucycles.h)

$(if $(HAVE_CMOCKA),,$(call left_out,unit tests (build/tests/unit/*),\
	no cmocka.h; apt-get install libcmocka-dev))
$(if $(HAVE_HWLOC),,$(call left_out,hwloc topology for pinning (sysfs is used instead),\
	no hwloc.h; apt-get install libhwloc-dev))
$(if $(HAVE_LIBPFM),,$(call left_out,perf event names through libpfm4,\
	no perfmon/pfmlib_perf_event.h; apt-get install libpfm4-dev))
$(if $(HAVE_CPUCYCLES),,$(call left_out,libcpucycles counter,\
	no cpucycles.h (not packaged in Debian 12; optional)))

# libperf (the perf cycle counter) and checkpatch come from Debian's kernel
# source tarball; unpacking it needs xz.
LINUX_SOURCE_TARBALL ?= $(firstword $(wildcard /usr/src/linux-source-6.1.tar.xz))
LINUX_SOURCE_DIR     := $(BUILD)/linux-source
HAVE_LIBPERF := $(if $(and $(LINUX_SOURCE_TARBALL),$(call have_command,xz)),1)
$(if $(HAVE_LIBPERF),,$(call left_out,libperf (perf cycle counter),\
	$(if $(LINUX_SOURCE_TARBALL),no xz; apt-get install xz-utils,\
	no /usr/src/linux-source-6.1.tar.xz; apt-get install linux-source-6.1 xz-utils)))

# ---------------------------------------------------------------- bpf suite
# clang (BPF target), bpftool, libbpf and the running kernel's BTF (for
# vmlinux.h). Without them the loader is a stub that names what was
# missing, and the bpf suite is skipped with that reason at run time.
BPF_CLANG       ?= clang
BPF_BPFTOOL     ?= $(call have_command,bpftool)
BPF_VMLINUX_BTF ?= /sys/kernel/btf/vmlinux
bpf_missing := $(strip $(if $(call have_command,$(BPF_CLANG)),,clang) \
	$(if $(BPF_BPFTOOL),,bpftool) \
	$(if $(call have_header,bpf/libbpf.h),,libbpf-dev) \
	$(if $(wildcard $(BPF_VMLINUX_BTF)),,kernel-BTF($(BPF_VMLINUX_BTF))))
HAVE_BPF := $(if $(bpf_missing),,1)
bpf_packages := $(filter-out kernel-BTF%,$(bpf_missing))
bpf_stub_reason := missing at build time: $(bpf_missing); install them \
	(scripts/deps.sh install run) and rebuild
$(if $(HAVE_BPF),,$(call left_out,bpf suite (skipped at run time),\
	$(if $(bpf_packages),no $(bpf_packages); apt-get install $(bpf_packages))\
	$(if $(filter kernel-BTF%,$(bpf_missing)),$(if $(bpf_packages),; )\
	the running kernel has no $(BPF_VMLINUX_BTF) (CONFIG_DEBUG_INFO_BTF))))

# ---------------------------------------------------------------- module
# Headers of the running kernel (KDIR) and nothing else: a module built
# against another kernel's headers would not load here, and would say
# nothing about this kernel's features. Other kernels: make kmod-for.
KERNEL_RELEASE := $(shell uname -r)
KDIR       ?= /lib/modules/$(KERNEL_RELEASE)/build
KMOD_KDIR  := $(patsubst %/Makefile,%,$(wildcard $(KDIR)/Makefile))
kmod_other := $(patsubst linux-headers-%,%,$(notdir $(wildcard /usr/src/linux-headers-*-amd64)))
kmod_no_modules := $(if $(wildcard /proc/modules),,$(comma) though this kernel cannot load modules (no CONFIG_MODULES))
kmod_elsewhere := $(if $(kmod_other),; other kernels: make kmod-for KVER=<release> (headers here for $(kmod_other)))
$(if $(KMOD_KDIR),,$(call left_out,smapbench.ko for this kernel ($(KERNEL_RELEASE)),\
	no kernel headers in $(KDIR); apt-get install linux-headers-$(KERNEL_RELEASE)$(kmod_no_modules)$(kmod_elsewhere)))

# ---------------------------------------------------------------- census
# The instruction census (docs/census.md) runs guests under a QEMU TCG
# plugin; the plugin needs only a C compiler and QEMU 7.2's qemu-plugin.h,
# but is built only where QEMU is, which loads it. No Debian package has
# the header: scripts/fetch-qemu-plugin-header.sh puts it, verified, in
# this cache, outside build/ so that make clean keeps it.
HAVE_QEMU := $(if $(call have_command,qemu-system-x86_64),1)
SMAPBENCH_CACHE     := $(or $(SMAPBENCH_CACHE),/var/cache/smapbench)
QEMU_PLUGIN_INCLUDE := $(SMAPBENCH_CACHE)/qemu-7.2/include
QEMU_PLUGIN_H       := $(QEMU_PLUGIN_INCLUDE)/qemu-plugin.h
HAVE_QEMU_PLUGIN_H  := $(if $(wildcard $(QEMU_PLUGIN_H)),1)
$(if $(HAVE_QEMU),$(if $(HAVE_QEMU_PLUGIN_H),,$(call left_out,\
	the census plugin (census/plugin/; make census),\
	no $(QEMU_PLUGIN_H); run scripts/fetch-qemu-plugin-header.sh)),\
	$(call left_out,the census plugin (census/plugin/; make census),\
	no qemu-system-x86_64; apt-get install --no-install-recommends qemu-system-x86))

# ---------------------------------------------------------------- run time
# Not needed to build, but `smapbench plot` (and so run-bench.sh) runs it.
$(if $(call have_command,gnuplot),,$(call left_out,plots at run time,\
	no gnuplot; apt-get install gnuplot-nox))

.PHONY: config
config:
	@$(config_print)
# One line per part left out, nothing when nothing is.
config_print = $(foreach n,$(CONFIG_NOTES),\
	printf 'note: left out %s\n' '$(config_note_$(n))';) :
