# t-quantile.awk: functions the rerun checks share (awk -f t-quantile.awk
# -f rerun-coverage.awk ...).
# t(df): the 97.5% point of Student's t, from the Cornish-Fisher series
# (within 3% of t down to 2 df).
function t(df,   z) {
	z = 1.959964
	return z + (z^3 + z) / (4 * df) + (5 * z^5 + 16 * z^3 + 3 * z) / (96 * df^2) + \
		(3 * z^7 + 19 * z^5 + 17 * z^3 - 15 * z) / (384 * df^3)
}
# Satterthwaite's df of a sum of variance parts a (df da), b (db), ...
function sdf(a, da, b, db, c, dc, d, dd,   v, q) {
	v = a + b + c + d
	q = (da ? a * a / da : 0) + (db ? b * b / db : 0) + (dc ? c * c / dc : 0) + (dd ? d * d / dd : 0)
	return q > 0 ? v * v / q : 1e9
}
