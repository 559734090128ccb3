# ops.gp - kmod ops of at most one access per iteration (up to 64 B, not
# calib): one run per variant (kapi, inline, nopad), two runs the kernel
# API of each. Drawn by lib/bars.gp.
#
# From smapbench (analysis/plot_bars.c): the .dat and its layout
# (nseries, rotate, margins); unit, the kmod suite's; nruns, runs,
# runlabel, context, watermark as every plot.

title = nruns == 1 \
	? "Cost per operation by variant (center, 95% CI) — ".runlabel \
	: "Cost per operation, kernel API as built (center, 95% CI): ".word(runs, 1)." vs ".word(runs, 2)
ylabel = unit." per operation"
load plotsdir."/lib/bars.gp"
