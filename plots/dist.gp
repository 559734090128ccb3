# dist.gp - sample distributions of the headline benchmarks, a panel
# each (at most nine), a box per run. Drawn by lib/boxes.gp.
#
# From smapbench (analysis/plot_dist.c): the .dat, names and units
# (a word per panel), panels, nseries; runs, the runs' short names.

title = "Sample distributions (box: quartiles, whiskers: 1.5 IQR, dots: single samples)"
titles = runs
# about 280 pixels per row of three panels
height = 240 + 280 * int((panels + 2) / 3)
load plotsdir."/lib/boxes.gp"
