# The unit test of compare/plot/report's statistics and run loader
# (tests/unit/test_compare.c). The pattern rule for $(BUILD)/tests/unit/%
# in mk/user.mk builds it against the harness and bench objects;
# tests/stages/30-plots.sh runs it.

COMPARE_TEST := $(BUILD)/tests/unit/test_compare

.PHONY: compare-tests
compare-tests: $(COMPARE_TEST)
all: $(if $(HAVE_CMOCKA),compare-tests)
