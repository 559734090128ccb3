# lib/delta.gp - two runs: (B - A) / A in percent per benchmark, with the
# 95% CI of the difference (compare.csv's, Welch), as bars of both signs around a line
# at zero (lib/bars.gp), for delta-kmod.gp, delta-syscall.gp and
# delta-bpf.gp.
#
# Variables: what, the rows shown (in the title); from smapbench
# (analysis/plot_bars.c) the .dat and its layout (nseries, rotate,
# margins, width) and runs, the two runs' short names.

title = word(runs, 2)." against ".word(runs, 1).": difference of centers, ".what." (95% CI)"
ylabel = "(".word(runs, 2)." - ".word(runs, 1).") / ".word(runs, 1).", percent"
signed = 1
load plotsdir."/lib/bars.gp"
