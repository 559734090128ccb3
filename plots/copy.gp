# copy.gp - copy_to_user and copy_from_user against size, a panel each.
# One run: kapi, inline and nopad, below the pair's share of the copy,
# (inline - nopad) / nopad. Two runs: the kernel API of each, below
# (B - A) / A. Drawn by lib/sweep.gp.
#
# From smapbench (analysis/plot_sweeps.c): the .dat files
# (datafile, pctfile) and their layout (ops, nseries, npct), pctlog and
# pctmin (a log axis when every share is positive), unit; runs.

if (nruns == 1) {
	title = "User copies against size (center, 95% CI)"
	titles = "kapi inline nopad"
	pcttitles = "inline-nopad"
	pctlabel = "pair cost (inline − nopad) / nopad"
} else {
	title = "User copies against size, kernel API as built (center, 95% CI)"
	titles = runs
	pcttitles = word(runs, 2)."−".word(runs, 1)
	pctlabel = "kapi difference as a share of the copy"
}
ylabel = unit." per copy"
load plotsdir."/lib/sweep.gp"
