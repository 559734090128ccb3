# bpf.gp - the bpf suite: ns per access against size, a panel per mode
# (syscall, raw_tp, raw_tp_ipi). One run: every read, and the derived
# user - kernel overhead dashed in black. Two runs: overhead and
# user_read of each run, user_read dashed. Drawn by lib/sweep.gp.
#
# From smapbench (analysis/plot_sweeps.c): the .dat and its layout
# (ops: the modes; bpfops: the ops shown, each a series per run;
# nseries); runs.

title = "bpf suite: user against kernel reads in ring 0, per access (center, 95% CI)"
xlabel = "bytes per access"
ylabel = "ns per access (log scale)"
height = 620
# one run: an op's colour in the palette of lib/common.gp
opcolour(op) = op eq "user_read" ? 1 : op eq "kernel_memmove" ? 2 : \
	op eq "kernel_read" ? 3 : op eq "user_read_str" ? 4 : \
	op eq "kernel_read_str" ? 5 : op eq "copy_from_user" ? 6 : 8
titles = ""
styles = ""
colourof = ""
do for [o = 1:words(bpfops)] {
	op = word(bpfops, o)
	do for [r = 1:nruns] {
		sep = strlen(titles) > 0 ? " " : ""
		titles = titles.sep.(nruns == 1 ? op : word(runs, r).":".op)
		styles = styles.sep.(((op eq "overhead") == (nruns == 1)) ? "d" : "l")
		colourof = colourof.sep.sprintf("%d", nruns == 1 ? opcolour(op) : r)
	}
}
load plotsdir."/lib/sweep.gp"
