# The unit test of compare/plot/report's statistics and run loader
# (tests/unit/test_compare.c). The pattern rule for $(BUILD)/tests/unit/%
# in mk/user.mk builds it against the harness and bench objects;
# tests/stages/30-plots.sh runs it.

COMPARE_TEST   := $(BUILD)/tests/unit/test_compare
COMPARE_CMOCKA := $(shell printf '\#include <cmocka.h>\n' | \
	$(CC) -E -x c - >/dev/null 2>&1 && echo 1)

.PHONY: compare-tests
compare-tests: $(COMPARE_TEST)
all: $(if $(COMPARE_CMOCKA),compare-tests)
