# The published runs in data/ (data/README.md).
#
#   make redraw-data     redraw every run's plots and report.md, every
#                        comparison and data/README-plot.png from the
#                        measurements, with this checkout's code
#                        (scripts/redraw-data.sh; stage 30-plots checks
#                        that the committed text outputs are current)

.PHONY: redraw-data
redraw-data: $(BUILD)/smapbench
	@./scripts/redraw-data.sh
