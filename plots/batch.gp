# batch.gp - cost per access against K, the accesses per STAC/CLAC pair:
# batched blocks divided by their accesses, and the kernel API (a pair
# per access) dashed as the reference level; a panel per op. Drawn by
# lib/sweep.gp.
#
# From smapbench (analysis/plot_sweeps.c): the .dat and its layout
# (ops as op/size, nseries: per panel the batched series of each run,
# then their kapi references), unit; runs.

title = "Cost per access against accesses per STAC/CLAC pair (center, 95% CI)"
xlabel = "K, accesses per STAC/CLAC pair"
ylabel = unit." per access"
keypos = "top right"
height = 560
if (nruns == 1) {
	titles = "batched kapi"
	styles = "l d"
	colourof = "1 2"
} else {
	# a run's reference in its own colour
	titles = word(runs, 1).":batched ".word(runs, 2).":batched ".word(runs, 1).":kapi ".word(runs, 2).":kapi"
	styles = "l l d d"
	colourof = "1 2 1 2"
}
load plotsdir."/lib/sweep.gp"
