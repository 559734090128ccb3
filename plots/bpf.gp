# bpf.gp - the bpf suite: ns per access against size, a panel per mode
# (syscall, raw_tp, raw_tp_ipi). One run: the derived user - kernel
# overhead, thick in black, its two terms, and the other reads thin, as
# context. Two runs: overhead and user_read of each run, user_read
# dashed. Drawn by lib/sweep.gp.
#
# The overhead is an upper bound of what STAC/CLAC cost, not their cost:
# user_read also runs access_ok, pagefault_disable, hardened usercopy
# and the returns of its extra calls (docs/bpf.md); the title says so.
#
# From smapbench (analysis/plot_sweeps.c): the .dat and its layout
# (ops: the modes; bpfops: the ops shown, each a series per run;
# present: which series each panel has; nseries); runs.

title = "bpf suite: an upper bound of the STAC/CLAC cost, overhead = user_read − kernel_memmove, per access (center, 95% CI)\nthe overhead also holds access_ok, pagefault_disable, hardened usercopy and return thunks (docs/bpf.md)"
xlabel = "bytes per access"
ylabel = "ns per access (log scale)"
height = 640
xticfactor = 8
# one run: an op's colour in the palette of lib/common.gp
opcolour(op) = op eq "user_read" ? 1 : op eq "kernel_memmove" ? 2 : \
	op eq "kernel_read" ? 3 : op eq "user_read_str" ? 4 : \
	op eq "kernel_read_str" ? 5 : op eq "copy_from_user" ? 6 : 8
# one run: the overhead is the figure, user_read and kernel_memmove its
# terms, the other reads context
opstyle(op) = op eq "overhead" ? "f" : \
	(op eq "user_read" || op eq "kernel_memmove") ? "l" : "t"
titles = ""
styles = ""
colourof = ""
do for [o = 1:words(bpfops)] {
	op = word(bpfops, o)
	do for [r = 1:nruns] {
		sep = strlen(titles) > 0 ? " " : ""
		titles = titles.sep.(nruns == 1 ? op : word(runs, r).":".op)
		styles = styles.sep.(nruns == 1 ? opstyle(op) : \
			op eq "overhead" ? "f" : "d")
		colourof = colourof.sep.sprintf("%d", nruns == 1 ? opcolour(op) : r)
	}
}
load plotsdir."/lib/sweep.gp"
