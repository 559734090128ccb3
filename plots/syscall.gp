# syscall.gp - the syscall suite, a bar per benchmark, one per run.
# Drawn by lib/bars.gp on a log scale: the calls span three decades.
#
# From smapbench (analysis/plot_bars.c): the .dat and its layout, the
# baselines' labels ending in "(base)"; unit, ns when every run can
# convert its values, else the suite's.

title = "Syscall suite: the cost of each call; the (base) rows open no STAC/CLAC window\n(getppid: kernel entry and exit; adds: known work; vDSO: no kernel entry) · center, 95% CI"
ylabel = unit." per call (log scale)"
logy = 1
rotate = 1
load plotsdir."/lib/bars.gp"
