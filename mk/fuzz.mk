# libFuzzer targets for every parser of outside input (tests/fuzz/).
#
#   make fuzz-build      build/fuzz/fuzz_<target>, with ASan and UBSan
#   make fuzz            run each target FUZZ_SECONDS (default 300) from a
#                        copy of its checked-in corpus; new inputs go to
#                        build/fuzz/corpus/<target>/, crashes to
#                        build/fuzz/crash-<target>-*
#
# Targets: tar (tar_next, tar_read), csv (csv_read_row), json (json_parse),
# manifest (run_manifest_parse), import (a whole run_import of the input
# as an archive), import_resummed (the same after the MANIFEST's sizes
# and sums are made the members', so that mutations get past them) and
# phases (phases_csv_load, then the plan's costs from it) and workload
# (the readers of `smapbench workload`, census_workload_read.c: a
# census.csv, sites.csv, compare.csv and pair-fit.csv in one input). make
# check runs each for about 10 s (stage 37-fuzz), and every input of
# tests/fuzz/regressions/<target>/ once.

FUZZ_TARGETS := tar csv json manifest import import_resummed phases workload
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 300
FUZZ_CFLAGS  := -g -O1 -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined -std=c11 -D_GNU_SOURCE \
	-I. -I$(BUILD)/include
# What the parsers use, and nothing that needs an optional library; of
# analysis/, only what phases' costs take.
FUZZ_SRCS    := $(sort $(wildcard archive/*.c rundata/*.c measure/*.c system/*.c)) \
	analysis/series_plan_phases.c census/command/census_workload_read.c
FUZZ_BINS    := $(addprefix $(BUILD)/fuzz/fuzz_,$(FUZZ_TARGETS))

.PHONY: fuzz fuzz-build
fuzz-build: $(FUZZ_BINS)

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(wildcard tests/fuzz/*.h) $(FUZZ_SRCS) $(REVISION_H)
	@mkdir -p $(@D)
	@echo "  FUZZ    $@"
	@$(FUZZ_CC) $(FUZZ_CFLAGS) $< $(FUZZ_SRCS) -lm -o $@

fuzz: fuzz-build
	@FUZZ_BUILD=$(BUILD)/fuzz tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)
