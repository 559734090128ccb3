# The published runs in data/ (data/README.md).
#
#   make redraw-data     redraw every run's plots and report.md, every
#                        comparison and data/README-plot.png from the
#                        measurements, with this checkout's code
#                        (scripts/redraw-data.sh; stage 30-plots checks
#                        that the committed text outputs are current)
#   make table           only data/TABLE.md and data/table/

.PHONY: redraw-data
redraw-data: $(BUILD)/smapbench
	@./scripts/redraw-data.sh

# data/TABLE.md and data/table/ only: the cross-machine table of every run
# in data/ (smapbench table; TCG runs are listed as left out).
.PHONY: table
table: $(BUILD)/smapbench
	@./scripts/redraw-data.sh --table
