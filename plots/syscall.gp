# syscall.gp - the syscall suite, a bar per benchmark, one per run.
# Drawn by lib/bars.gp on a log scale: the calls span three decades.
#
# From smapbench (analysis/plot_bars.c): the .dat and its layout;
# unit, ns when every run can convert its values, else the suite's.

title = "Syscall suite: paths with STAC/CLAC inside (center, 95% CI)"
ylabel = unit." per call (log scale)"
logy = 1
load plotsdir."/lib/bars.gp"
