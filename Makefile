# smapbench - top-level build.
#
#   make            build the harness, the smapbench program and (when
#                   kernel headers are installed) the module
#   make check      every test: unit, lint, module builds, QEMU end-to-end;
#                   ends with one line "N passed, N failed"
#   make lint       checkpatch, sparse, W=1 module build
#   make clean
#
# Each part keeps its rules in mk/<part>.mk; this file only ties them.

BUILD      ?= build
CC         ?= cc
# Flags every user-space object of the project is built with.
USER_CFLAGS := -std=c11 -O2 -g -D_GNU_SOURCE -Wall -Wextra -Werror \
	       -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	       -I$(CURDIR) -I$(CURDIR)/harness -I$(BUILD)/include
USER_LDFLAGS :=

# Debian's kernel source: checkpatch.pl and libperf come from it.
LINUX_SOURCE_TARBALL ?= $(firstword $(wildcard /usr/src/linux-source-6.1.tar.xz))
LINUX_SOURCE_DIR     := $(BUILD)/linux-source

.PHONY: all check lint clean
all:

include $(sort $(wildcard mk/*.mk))

# Installs the test packages first (as root), so that a fresh machine needs
# nothing but this command.
check:
	@./scripts/deps.sh ensure test
	@$(MAKE) --no-print-directory all
	@./tests/check.sh

clean:
	rm -rf $(BUILD)
