# smapbench - top-level build.
#
#   make            build the smapbench program and (when
#                   kernel headers are installed) the module; needs only a
#                   C compiler, and ends by naming each optional part it
#                   left out and the package that brings it (mk/config.mk)
#   make check      every test: unit, lint, module builds, QEMU end-to-end;
#                   ends with one line "N passed, N failed"
#   make lint       checkpatch, sparse, W=1 module build
#   make fuzz       every libFuzzer target for FUZZ_SECONDS (mk/fuzz.mk)
#   make clean
#
# CFLAGS, CPPFLAGS, LDFLAGS and LDLIBS are the user's, as in any GNU build
# (make CFLAGS='-O0 -g3'): they come after the project's own flags, which
# stay (-std=c11, the warnings, -Werror).
#
# Each part keeps its rules in mk/<part>.mk; this file only ties them.

BUILD    ?= build
# The checkout's own build directory, however it is spelled: vm/census.sh
# and `smapbench census` pass it absolute, run-bench.sh and the guests
# relative. One spelling keeps build-flags (mk/user.mk) the same, so that
# one does not make the other rebuild everything (under TCG, minutes).
# (Only an absolute BUILD under a checkout path without spaces: make
# cannot take spaces in an absolute path anyway.)
ifneq ($(filter $(CURDIR)/%,$(BUILD)),)
override BUILD := $(patsubst $(CURDIR)/%,%,$(BUILD))
endif
CC       ?= cc
CFLAGS   ?= -O2 -g
# Flags every user-space object of the project is built and linked with.
# Include paths are relative: a checkout path may contain a space.
USER_CFLAGS = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror \
	-Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-I. -I$(BUILD)/include $(CPPFLAGS) $(CFLAGS)
USER_LDFLAGS = $(CFLAGS) $(LDFLAGS)
# Holds every flag and option the user-space objects were built with
# (mk/user.mk): they are rebuilt when it changes, e.g. after run-bench.sh
# installed a library that `make` had left out.
BUILD_FLAGS := $(BUILD)/build-flags

.PHONY: all check lint clean
all:

# Probes first: every part reads its HAVE_* results.
include mk/config.mk
include $(filter-out mk/config.mk,$(sort $(wildcard mk/*.mk)))

# Last, after everything it builds: what was left out, and why.
all:
	@$(config_print)

# Installs the test packages first (as root), so that a fresh machine needs
# nothing but this command.
check:
	@./scripts/deps.sh ensure --yes test
	@$(MAKE) --no-print-directory all
	@./tests/check.sh

clean:
	rm -rf $(BUILD)
