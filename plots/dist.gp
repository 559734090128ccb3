# dist.gp - sample distributions of the headline benchmarks, a panel
# each (at most nine), a box per run, all in one unit. Drawn by
# lib/boxes.gp.
#
# From smapbench (analysis/plot_dist.c): the .dat, names, unit, panels,
# nseries, ylow/yhigh (each panel's axis: its runs' samples within
# fence IQR of the quartiles), below/above (the samples beyond it); runs,
# the runs' short names.

title = sprintf("Sample distributions, %s per operation\nbox: quartiles, whiskers: 1.5 IQR, dots: single samples; triangles: the samples beyond %g IQR, at the edge with their count", unit, fence)
titles = runs
# about 280 pixels per row of three panels
height = 240 + 280 * int((panels + 2) / 3)
load plotsdir."/lib/boxes.gp"
