# User space: the smapbench program, built from the rooms of docs/development.md's
# Layout but kmod/ and bpf/, and the unit tests (tests/unit/).
#
#   make smapbench          build/smapbench, dynamically linked, every
#                           optional library found at build time
#   make smapbench-static   build/smapbench-static for the guest initramfs,
#                           built by what boots guests (vm/run-vm.sh,
#                           vm/census.sh, make census), not by `make`: a
#                           native run never waits for it or fails on it.
#                           Its libraries come from pkg-config --static
#                           where pkg-config knows them. No hwloc: Debian
#                           ships no static libudev, which libhwloc.a
#                           needs (pinning then uses sysfs +
#                           sched_setaffinity). Where this distribution's
#                           libbpf cannot be linked statically (Debian 13's
#                           libelf.a needs elfutils' internal symbols), the
#                           bpf suite is left out of it, with a note that
#                           says so and why.
#   make unit-tests         build/tests/unit/test_*: every cmocka test
#                           (tests/unit/test_*.c), all by one rule
#
# Optional libraries are found by mk/config.mk and turned into HAVE_*
# macros here; `smapbench info` prints which ones a binary has.

USER_OUT      := $(BUILD)/user
LIBPERF_DIR   := $(LINUX_SOURCE_DIR)/tools/lib/perf
LIBAPI_DIR    := $(LINUX_SOURCE_DIR)/tools/lib/api
LIBPERF_A     := $(LIBPERF_DIR)/libperf.a
LIBAPI_A      := $(LIBAPI_DIR)/libapi.a

# HAVE_* come from mk/config.mk.
FEATURE_CFLAGS := $(if $(HAVE_LIBPFM),-DHAVE_LIBPFM) \
	$(if $(HAVE_CPUCYCLES),-DHAVE_CPUCYCLES) \
	$(if $(HAVE_LIBPERF),-DHAVE_LIBPERF -I$(LIBPERF_DIR)/include)
FEATURE_LIBS   := $(if $(HAVE_LIBPERF),$(LIBPERF_A) $(LIBAPI_A)) \
	$(if $(HAVE_LIBPFM),-lpfm) $(if $(HAVE_CPUCYCLES),-lcpucycles) -lm

DYNAMIC_CFLAGS := $(FEATURE_CFLAGS) $(if $(HAVE_HWLOC),-DHAVE_HWLOC)
DYNAMIC_LIBS   := $(FEATURE_LIBS) $(if $(HAVE_HWLOC),-lhwloc)
STATIC_CFLAGS  := $(FEATURE_CFLAGS)
STATIC_LIBS    := $(FEATURE_LIBS)
# $(call static_libs,<pkg-config package>,<libraries without pkg-config>)
static_libs = $(or $(shell pkg-config --static --libs $(1) 2>/dev/null),$(2))

# The bpf suite (suites/bpf.c) links the loader library of mk/bpf.mk.
BPF_SUITE := $(if $(and $(wildcard suites/bpf.c),$(BPF_LIB)),1)
ifeq ($(BPF_SUITE),1)
DYNAMIC_CFLAGS += -DHAVE_BPF_SUITE
STATIC_CFLAGS  += -DHAVE_BPF_SUITE
DYNAMIC_LIBS   := $(BPF_LIB) $(BPF_LDLIBS) $(DYNAMIC_LIBS)
endif
# The static binary links libbpf where a static program of it links here
# (the recipe tries), else the loader stub, whose every call says why.
STATIC_BPF_LDLIBS = $(call static_libs,libbpf,-lbpf -lelf -lz) -lpthread
static_bpf_link_test = printf '$(HASH)include <bpf/libbpf.h>\nint main(void) { return !bpf_object__open_mem("", 1, 0); }\n' | \
	$(CC) $(USER_CFLAGS) -static -x c - -o /dev/null $(STATIC_BPF_LDLIBS)

# Every room of docs/development.md's Layout (scripts/rooms.sh, the list the room
# checker reads too) but kmod/ and bpf/, which mk/kmod.mk and mk/bpf.mk
# build; a new .c file in one needs no make line. Not census/plugin/
# (QEMU loads that) nor census/baseline/ (a program of its own):
# mk/census.mk builds them.
USER_ROOMS   := $(filter-out kmod bpf,$(shell scripts/rooms.sh))
USER_SRCS    := $(filter-out census/plugin/% census/baseline/% $(if $(BPF_SUITE),,suites/bpf.c),\
	$(sort $(foreach room,$(USER_ROOMS),$(wildcard $(room)/*.c $(room)/*/*.c))))
# Every cmocka test: a new tests/unit/test_<name>.c needs no make line.
UNIT_SRCS    := $(sort $(wildcard tests/unit/test_*.c))

user_objs = $(patsubst %.c,$(USER_OUT)/$(1)/%.o,$(2))
DYNAMIC_OBJS := $(call user_objs,dynamic,$(USER_SRCS))
STATIC_OBJS  := $(call user_objs,static,$(USER_SRCS))
# Everything but main(), for the unit tests.
TESTED_OBJS  := $(filter-out %/cli/main.o,$(DYNAMIC_OBJS))
UNIT_BINS    := $(patsubst tests/unit/%.c,$(BUILD)/tests/unit/%,$(UNIT_SRCS))

REVISION_H := $(BUILD)/include/smapbench_revision.h

.PHONY: smapbench smapbench-static unit-tests json-check libperf FORCE
all: smapbench json-check $(if $(HAVE_CMOCKA),unit-tests)

smapbench: $(BUILD)/smapbench
smapbench-static: $(BUILD)/smapbench-static
ifeq ($(HAVE_CMOCKA),1)
unit-tests: $(UNIT_BINS)
else
unit-tests:
	@echo "unit-tests: cmocka.h not found: apt-get install libcmocka-dev" >&2
	@false
endif
json-check: $(BUILD)/tests/json-check

# libperf and the libapi it uses, built inside the extracted tree. Their
# makefiles find the tree from their own directory, which must have no
# space: see via_space_free_path (mk/kmod.mk).
$(LIBPERF_A): $(LINUX_SOURCE_STAMP)
	@echo "  MAKE    libperf.a"
	+@$(call via_space_free_path,$(MAKE) -s -C $(call from_top,$(LIBPERF_DIR)) \
		srctree=$(call from_top,$(LINUX_SOURCE_DIR)) libperf.a >/dev/null)
$(LIBAPI_A): $(LINUX_SOURCE_STAMP)
	@echo "  MAKE    libapi.a"
	+@$(call via_space_free_path,$(MAKE) -s -C $(call from_top,$(LIBAPI_DIR)) \
		srctree=$(call from_top,$(LINUX_SOURCE_DIR)) libapi.a >/dev/null)
libperf: $(LIBPERF_A) $(LIBAPI_A)

# What the objects are built with, rewritten only when it changes.
BUILD_FLAGS_TEXT = $(CC) $(USER_CFLAGS) | dynamic $(DYNAMIC_CFLAGS) $(DYNAMIC_LIBS) | \
	static $(STATIC_CFLAGS) $(STATIC_LIBS) | $(USER_LDFLAGS) $(LDLIBS) | \
	bpf $(HAVE_BPF) $(bpf_stub_reason)
$(BUILD_FLAGS): FORCE
	@mkdir -p $(dir $@)
	@text='$(subst ','\'',$(BUILD_FLAGS_TEXT))'; \
	if [ ! -f $@ ] || [ "$$(cat $@)" != "$$text" ]; then \
		printf '%s\n' "$$text" > $@; fi

# The revision is baked in; the header changes only when it does. A copy
# made with git archive has no .git: whoever makes one may put the
# revision in a file REVISION at its top (fleet/smapbench.yml does).
$(REVISION_H): FORCE
	@mkdir -p $(dir $@)
	@rev=$$(cat REVISION 2>/dev/null || git describe --always --dirty 2>/dev/null || echo unknown); \
	line="#define SMAPBENCH_GIT_REVISION \"$$rev\""; \
	if [ ! -f $@ ] || [ "$$(cat $@)" != "$$line" ]; then \
		echo "$$line" > $@; fi

$(USER_OUT)/dynamic/%.o: %.c $(REVISION_H) $(BUILD_FLAGS) $(if $(HAVE_LIBPERF),$(LIBPERF_A))
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(USER_CFLAGS) $(DYNAMIC_CFLAGS) -MMD -MP -c $< -o $@

$(USER_OUT)/static/%.o: %.c $(REVISION_H) $(BUILD_FLAGS) $(if $(HAVE_LIBPERF),$(LIBPERF_A))
	@mkdir -p $(dir $@)
	@echo "  CC      $< (static)"
	@$(CC) $(USER_CFLAGS) $(STATIC_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/smapbench: $(DYNAMIC_OBJS) $(if $(BPF_SUITE),$(BPF_LIB)) $(if $(HAVE_LIBPERF),$(LIBPERF_A) $(LIBAPI_A))
	@echo "  LD      $@"
	@$(CC) $(USER_LDFLAGS) -o $@ $(DYNAMIC_OBJS) $(DYNAMIC_LIBS) $(LDLIBS)

$(BUILD)/smapbench-static: $(STATIC_OBJS) $(if $(BPF_SUITE),$(BPF_LIB) $(BPF_STATIC_STUB_LIB)) $(if $(HAVE_LIBPERF),$(LIBPERF_A) $(LIBAPI_A))
	@echo "  LD      $@"
	@bpf_libs='$(if $(BPF_SUITE),$(BPF_LIB) $(if $(filter 1,$(HAVE_BPF)),$(STATIC_BPF_LDLIBS)))'; \
	if [ -n "$$bpf_libs" ] && [ "$(HAVE_BPF)" = 1 ] && \
		! why=$$($(static_bpf_link_test) 2>&1); then \
		bpf_libs='$(BPF_STATIC_STUB_LIB)'; \
		printf 'note: left out the bpf suite from %s: libbpf cannot be linked statically here (%s)\n' \
			'$@' "$$(printf '%s\n' "$$why" | grep -m1 -E 'undefined reference|cannot find' | sed 's/.*: //')"; \
	fi; \
	$(CC) -static $(USER_LDFLAGS) -o $@ $(STATIC_OBJS) $$bpf_libs $(STATIC_LIBS) $(LDLIBS)

# The one rule for the cmocka tests: each is linked against everything
# smapbench is made of but main(), the bpf loader library included, so a
# test may call any function of the rooms or bpf/.
$(BUILD)/tests/unit/%: tests/unit/%.c $(TESTED_OBJS) $(if $(BPF_SUITE),$(BPF_LIB)) $(if $(HAVE_LIBPERF),$(LIBPERF_A) $(LIBAPI_A))
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(USER_CFLAGS) $(DYNAMIC_CFLAGS) -MMD -MP -MF $@.d \
		$(LDFLAGS) -o $@ $< $(TESTED_OBJS) $(DYNAMIC_LIBS) -lcmocka $(LDLIBS)

# A JSON validator for the test stages.
$(BUILD)/tests/json-check: tests/unit/json_check.c $(USER_OUT)/dynamic/rundata/json.o
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(USER_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

-include $(DYNAMIC_OBJS:.o=.d) $(STATIC_OBJS:.o=.d) $(UNIT_BINS:=.d)
