# Shell lint, and the layering of the rooms (only the directions
# README.md's Layout allows, no two files that include or call each
# other); the module adds checkpatch and sparse to `lint` in mk/kmod.mk.
SHELL_SCRIPTS := run-bench.sh scripts/deps.sh scripts/include-cycles.sh \
	scripts/fetch-qemu-plugin-header.sh \
	scripts/redraw-data.sh \
	tests/check.sh .ci/run $(wildcard tests/lib/*.sh tests/stages/*.sh vm/*.sh)

.PHONY: lint lint-shell lint-layers
lint: lint-shell lint-layers
lint-shell:
	shellcheck -S warning $(SHELL_SCRIPTS)
lint-layers: smapbench
	BUILD=$(BUILD) scripts/include-cycles.sh
