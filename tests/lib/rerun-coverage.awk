# rerun-coverage.awk: how often a rerun's center falls inside a run's interval.
# awk -F, -v cal=CALIBRATION.csv -f t-quantile.awk -f calibration.awk \
#     -f rerun-coverage.awk CALIBRATION.csv RUN/results.csv...
# (tests/stages/16-statistics.sh). Every ordered pair of the runs, every
# row all of them have: se from the row's 95% interval (t on r - 1 df, log
# scale), C and O the calibration's invocation level (calibration.awk: the
# shift every row shares, each row's own), t on Satterthwaite's df. Prints
#   NET FULL CI PAIRS SHIFT_SD C_SD C_DF
# NET: the rerun interval, t * sqrt(se_A^2 + se_B^2 + 2 O), holding the
#   rerun's center, each run net of its shared shift (its mean deviation
#   over the rows);
# FULL: the rerun interval with the shared part, + 2 C, on the raw centers;
# CI: the run's own 95% interval with the invocation level in it,
#   t * sqrt(se_A^2 + C + O): a rerun's center falls inside it about 83%
#   of the time when it is right.
# SHIFT_SD: the sd of the runs' shared shifts; C_SD, C_DF: the calibration's.
FNR == 1 {
	run++
	for (k = 1; k <= NF; k++) {
		if ($k == "center") ic = k
		if ($k == "ci_low") il = k
		if ($k == "ci_high") ih = k
		if ($k == "repetitions") ir = k
	}
	next
}
$ic > 0 && $ir > 1 {
	lc[run, $1] = log($ic)
	se[run, $1] = ($ih - $il) / 2 / t($ir - 1) / $ic
	rd[run, $1] = $ir - 1
	seen[$1]++
}
END {
	# each run's shared shift: its mean deviation over the rows every run has
	for (w in seen) if (seen[w] == run) {
		rows++; m = 0
		for (i = 1; i <= run; i++) m += lc[i, w] / run
		for (i = 1; i <= run; i++) shift[i] += lc[i, w] - m
	}
	for (i = 1; i <= run; i++) shift[i] /= rows
	# C and its df, and the df of O, as named above (calibration.awk)
	C = cal_common; cdf = cal_common_df; rdf = cal_row_df
	for (w in seen) if (seen[w] == run) {
		o = w in cal_own ? cal_own[w] : cal_row_prior
		for (i = 1; i <= run; i++) for (j = 1; j <= run; j++) {
			if (i == j) continue
			a = se[i, w]^2; b = se[j, w]^2; d = lc[j, w] - lc[i, w]
			n++
			# the run's interval with the invocation level in it
			ci += d * d <= t(sdf(a, rd[i, w], C, cdf, o, rdf))^2 * (a + C + o)
			# where a rerun's center falls: both runs' parts
			full += d * d <= t(sdf(a, rd[i, w], b, rd[j, w], 2 * C, cdf, 2 * o, rdf))^2 * (a + b + 2 * C + 2 * o)
			# the same, each run net of its shared shift
			e = d - (shift[j] - shift[i])
			net += e * e <= t(sdf(a, rd[i, w], b, rd[j, w], 2 * o, rdf))^2 * (a + b + 2 * o)
		}
	}
	sd = 0
	for (i = 1; i <= run; i++) sd += shift[i]^2 / (run - 1)
	printf "%d %d %d %d %.4f %.4f %d\n", net, full, ci, n, sqrt(sd), sqrt(C), cdf
}
