# The few parts of Debian's linux-source-6.1 tarball the build uses:
# checkpatch.pl (lint) and tools/lib/perf (libperf for the perf counter).
# Extracting only these takes ~10 s instead of a full unpack.

LINUX_SOURCE_STAMP := $(LINUX_SOURCE_DIR)/.extracted
LINUX_SOURCE_PARTS := scripts/checkpatch.pl scripts/spelling.txt scripts/kernel-doc \
	scripts/const_structs.checkpatch \
	'tools/lib/perf/*' 'tools/lib/api/*' 'tools/include/*' \
	'tools/build/*' 'tools/scripts/*' 'tools/arch/x86/*' \
	'tools/lib/*.c' 'tools/lib/*.h' 'include/uapi/*'
CHECKPATCH := $(LINUX_SOURCE_DIR)/scripts/checkpatch.pl

$(LINUX_SOURCE_STAMP):
	@if [ -z "$(LINUX_SOURCE_TARBALL)" ]; then \
		echo "error: /usr/src/linux-source-6.1.tar.xz not found;" \
		     "install it with: apt-get install linux-source-6.1" >&2; \
		exit 1; \
	fi
	@echo "  EXTRACT $(LINUX_SOURCE_TARBALL) (checkpatch, tools/lib/perf)"
	@rm -rf $(LINUX_SOURCE_DIR).tmp && mkdir -p $(LINUX_SOURCE_DIR).tmp
	@tar -xJf $(LINUX_SOURCE_TARBALL) -C $(LINUX_SOURCE_DIR).tmp \
		--strip-components=1 --wildcards \
		$(addprefix linux-source-6.1/,$(LINUX_SOURCE_PARTS))
	@rm -rf $(LINUX_SOURCE_DIR) && mv $(LINUX_SOURCE_DIR).tmp $(LINUX_SOURCE_DIR)
	@touch $@

.PHONY: linux-source
linux-source: $(LINUX_SOURCE_STAMP)
