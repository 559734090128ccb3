# The instruction census (docs/census.md): a QEMU TCG plugin counts the
# STAC, CLAC and POPF the guest kernel executes per benchmark operation.
#
#   make census-plugin   build/vm/census/libcensus.so from census/plugin/
#                        (part of `make` where mk/config.mk found QEMU and
#                        QEMU 7.2's qemu-plugin.h: scripts/deps.sh install
#                        test or scripts/fetch-qemu-plugin-header.sh)
#   make census          boot Debian's 6.1 and 6.12 kernels and unstable's
#                        newest (fetched: vm/kernel.sh sid) in each SMAP
#                        state under the plugin (vm/census.sh) and write
#                        a census run directory under data/
#   make census-check    the same into build/census/, then the oracle
#                        (smapbench census check) as TAP lines
#       CENSUS_ARGS=...  more vm/census.sh options, e.g. --states smap
#
# The plugin is a shared object QEMU dlopen()s: position-independent, and
# nothing but its two entry points visible. QEMU's header is included as
# a system header (-isystem): its warnings are QEMU's, not the project's.

CENSUS_PLUGIN := $(BUILD)/vm/census/libcensus.so
CENSUS_PLUGIN_SRCS := census/plugin/census_plugin.c census/census_protocol.h

.PHONY: census-plugin census census-check census-lint
ifeq ($(HAVE_QEMU)$(HAVE_QEMU_PLUGIN_H),11)
all: census-plugin
endif
lint: census-lint

ifeq ($(HAVE_QEMU_PLUGIN_H),1)
census-plugin: $(CENSUS_PLUGIN)
$(CENSUS_PLUGIN): $(CENSUS_PLUGIN_SRCS) $(QEMU_PLUGIN_H) $(BUILD_FLAGS)
	@mkdir -p $(dir $@)
	@echo "  CC      $< (QEMU plugin)"
	@$(CC) $(USER_CFLAGS) -isystem $(QEMU_PLUGIN_INCLUDE) \
		-fPIC -fvisibility=hidden -shared $(LDFLAGS) -o $@ $< $(LDLIBS)
else
# Not a rule for the plugin's file: one left from before must not pass.
census-plugin:
	@echo "census-plugin: no $(QEMU_PLUGIN_H) (QEMU 7.2's plugin API): run scripts/fetch-qemu-plugin-header.sh" >&2
	@false
endif

census: census-plugin smapbench smapbench-static
	@BUILD=$(BUILD) vm/census.sh --out data $(CENSUS_ARGS)

census-check: census-plugin smapbench smapbench-static
	@BUILD=$(BUILD) vm/census.sh --out $(BUILD)/census --check $(CENSUS_ARGS)

census-lint:
	shellcheck -S warning vm/census.sh scripts/fetch-qemu-plugin-header.sh
	shellcheck -S warning -s sh vm/census/init

# The host side without QEMU (reading the plugin's output, census.csv,
# the oracle's verdicts): stage 42-census runs it before the boots.
CENSUS_UNIT := $(BUILD)/tests/unit/test_census
.PHONY: census-unit
ifeq ($(HAVE_CMOCKA),1)
all: census-unit
census-unit: $(CENSUS_UNIT)
else
census-unit:
	@echo "census-unit: cmocka.h not found: apt-get install libcmocka-dev" >&2
	@false
endif

# The known workload of the census of a command (stage 43-census-command):
# exactly 1000 pread()s of 64 bytes from tmpfs, static so that no dynamic
# loader adds windows of its own.
CENSUS_PREAD_LOOP := $(BUILD)/tests/census/pread-loop
.PHONY: census-pread-loop
all: census-pread-loop
census-pread-loop: $(CENSUS_PREAD_LOOP)
$(CENSUS_PREAD_LOOP): tests/census/pread_loop.c

# `true`, static: the baseline of the census of a static command. Beside
# smapbench, where `smapbench census exec` looks for it.
CENSUS_TRUE_STATIC := $(BUILD)/census/true-static
.PHONY: census-true-static
all: census-true-static
census-true-static: $(CENSUS_TRUE_STATIC)
$(CENSUS_TRUE_STATIC): census/baseline/true.c

# Both are static programs of one C file each.
$(CENSUS_PREAD_LOOP) $(CENSUS_TRUE_STATIC): $(BUILD_FLAGS)
	@mkdir -p $(dir $@)
	@echo "  CC      $(filter %.c,$^) (static)"
	@$(CC) $(USER_CFLAGS) -static $(LDFLAGS) -o $@ $(filter %.c,$^) $(LDLIBS)
