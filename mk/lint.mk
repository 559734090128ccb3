# Shell lint; the module adds checkpatch and sparse to `lint` in mk/kmod.mk.
SHELL_SCRIPTS := run-bench.sh scripts/deps.sh tests/check.sh .ci/run \
	$(wildcard tests/stages/*.sh vm/*.sh)

.PHONY: lint lint-shell
lint: lint-shell
lint-shell:
	shellcheck -S warning $(SHELL_SCRIPTS)
