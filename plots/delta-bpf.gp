# delta-bpf.gp - two runs: (B - A) / A of the bpf suite's derived
# user - kernel overhead rows, the part SMAP can change (lib/delta.gp).

what = "bpf suite, user - kernel overhead"
load plotsdir."/lib/delta.gp"
