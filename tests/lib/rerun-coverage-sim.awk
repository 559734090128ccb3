# rerun-coverage-sim.awk: stage 16's rerun check in a world where its
# model holds, so that the check's own error rates are known.
# awk -v runs=6 -v cal_runs=3 -v shared=0.04 -v own=0.01 -v rep=0.05 \
#     -v reps=5 -v rows=29 -v check=net|full|ci -v scale=1 -v trials=1000 \
#     -v seed=N -f t-quantile.awk -f rerun-coverage-sim.awk
# Each trial draws `runs` invocations: a shift every row shares (sd
# `shared`), each row's own (sd `own`), `reps` repetitions (sd `rep`), all
# on the log scale. The first `cal_runs` are the calibration (the shared
# part from the runs' mean deviations on cal_runs - 1 df, the rows' own
# from what is left, net of the repetitions), the rest are tested pair by
# pair as tests/lib/rerun-coverage.awk does. `scale` multiplies the
# interval's half-width (0.5: a broken interval, for the check's power).
# Prints the mean coverage and how many trials fell below 80%.
function gauss(   u, v) {
	u = rand(); v = rand()
	if (u < 1e-300)
		u = 1e-300
	return sqrt(-2 * log(u)) * cos(6.283185307179586 * v)
}
function trial(   i, w, p, x, s, ss, m, C, O, res, rv, mw, shift, k, n, a, b, d, e, bound, center, var, rm, sm, tested, cdf, rdf, j) {
	for (i = 1; i <= runs; i++) {
		shift = shared * gauss()
		for (w = 1; w <= rows; w++) {
			m = shift + own * gauss(); s = ss = 0
			for (p = 1; p <= reps; p++) {
				x[p] = m + rep * gauss(); s += x[p]
			}
			center[i, w] = s / reps
			for (p = 1; p <= reps; p++)
				ss += (x[p] - center[i, w])^2
			var[i, w] = ss / (reps - 1) / reps
		}
	}
	sm = 0
	for (i = 1; i <= cal_runs; i++) {
		rm[i] = 0
		for (w = 1; w <= rows; w++)
			rm[i] += center[i, w] / rows
		sm += rm[i] / cal_runs
	}
	C = 0
	for (i = 1; i <= cal_runs; i++)
		C += (rm[i] - sm)^2 / (cal_runs - 1)
	res = rv = 0
	for (w = 1; w <= rows; w++) {
		mw = 0
		for (i = 1; i <= cal_runs; i++)
			mw += (center[i, w] - rm[i]) / cal_runs
		for (i = 1; i <= cal_runs; i++) {
			res += (center[i, w] - rm[i] - mw)^2
			rv += var[i, w]
		}
	}
	O = res / ((rows - 1) * (cal_runs - 1)) - rv / (rows * cal_runs)
	if (O < 0)
		O = 0
	cdf = cal_runs - 1; rdf = (rows - 1) * (cal_runs - 1)
	tested = runs - cal_runs
	for (i = cal_runs + 1; i <= runs; i++) {
		rm[i] = 0
		for (w = 1; w <= rows; w++) {
			m = 0
			for (j = cal_runs + 1; j <= runs; j++)
				m += center[j, w] / tested
			rm[i] += (center[i, w] - m) / rows
		}
	}
	k = n = 0
	for (i = cal_runs + 1; i <= runs; i++)
		for (j = cal_runs + 1; j <= runs; j++) {
			if (i == j)
				continue
			for (w = 1; w <= rows; w++) {
				a = var[i, w]; b = var[j, w]; d = center[j, w] - center[i, w]
				if (check == "net") {
					e = d - (rm[j] - rm[i])
					bound = t(sdf(a, reps - 1, b, reps - 1, 2 * O, rdf)) * sqrt(a + b + 2 * O)
				} else if (check == "full") {
					e = d
					bound = t(sdf(a, reps - 1, b, reps - 1, 2 * C, cdf, 2 * O, rdf)) * sqrt(a + b + 2 * C + 2 * O)
				} else {
					e = d
					bound = t(sdf(a, reps - 1, C, cdf, O, rdf)) * sqrt(a + C + O)
				}
				bound *= scale
				n++
				k += e * e <= bound * bound
			}
		}
	return k / n
}
BEGIN {
	srand(seed)
	if (scale == "")
		scale = 1
	below = total = 0
	for (r = 0; r < trials; r++) {
		c = trial()
		total += c
		below += c < 0.8
	}
	printf "%.4f %d %d\n", total / trials, below, trials
}
