// SPDX-License-Identifier: GPL-2.0
/* compare_json.c - compare.json; see compare_json.h. */
#include "analysis/compare_json.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "analysis/compare_write.h"
#include "rundata/json.h"

static void write_settings(struct json_writer *w,
			   const struct compare_settings *set, int calibrated)
{
	json_key(w, "settings");
	json_begin_object(w);
	json_kv_double(w, "alpha", set->alpha);
	json_kv_double(w, "ci_level", 1 - set->alpha);
	json_kv_double(w, "margin", set->margin);
	json_kv_double(w, "boot_sd", set->boot_sd);
	/* an assumed sigma_u has no degrees of freedom: null */
	json_kv_double(w, "boot_df", set->boot_df);
	json_kv_string(w, "boot_sd_source", compare_boot_source_name(set));
	json_kv_bool(w, "calibrated", calibrated);
	json_key(w, "calibration");
	if (set->calibration)
		json_string(w, set->calibration);
	else
		json_double(w, NAN);	/* null */
	json_kv_int(w, "boots_a", set->boots_a);
	json_kv_int(w, "boots_b", set->boots_b);
	json_kv_bool(w, "same_boot", set->same_boot);
	json_key(w, "withheld");
	if (set->withheld)
		json_string(w, set->withheld);
	else
		json_double(w, NAN);	/* null */
	json_kv_int(w, "boots_needed", set->boots_needed);
	json_kv_int(w, "min_repetitions", COMPARE_MIN_REPETITIONS);
	json_kv_int(w, "min_repetitions_same", COMPARE_MIN_SAME_REPETITIONS);
	json_end_object(w);
}

static void write_side(struct json_writer *w, const char *key,
		       const struct run_dir *const *runs, size_t n,
		       const char *state)
{
	json_key(w, key);
	json_begin_object(w);
	json_kv_string(w, "smap_state", state);
	json_key(w, "runs");
	json_begin_array(w);
	for (size_t i = 0; i < n; i++) {
		json_begin_object(w);
		json_kv_string(w, "path", runs[i]->path);
		json_kv_string(w, "label", runs[i]->label);
		json_kv_string(w, "smap_state",
			       rundir_context_or(runs[i], "smap_state", ""));
		json_end_object(w);
	}
	json_end_array(w);
	json_end_object(w);
}

static void write_row(struct json_writer *w, const struct compare_row *r,
		      const struct compare_settings *set,
		      const struct compare_words *words, const char *basis)
{
	json_begin_object(w);
	json_kv_string(w, "name", r->a->name);
	json_kv_string(w, "suite", r->a->suite);
	json_kv_string(w, "op", r->a->op);
	json_kv_string(w, "variant", r->a->variant);
	json_kv_int(w, "size", (long long)r->a->size);
	json_kv_int(w, "batch", (long long)r->a->batch);
	json_kv_string(w, "unit", r->unit);
	json_kv_int(w, "n_a", (long long)r->na);
	json_kv_int(w, "n_b", (long long)r->nb);
	json_kv_int(w, "reps_a", (long long)r->reps_a);
	json_kv_int(w, "reps_b", (long long)r->reps_b);
	json_kv_double(w, "median_a", r->median_a);
	json_kv_double(w, "median_b", r->median_b);
	json_kv_double(w, "center_a", r->center_a);
	json_kv_double(w, "center_b", r->center_b);
	json_kv_double(w, "delta", r->delta);
	json_kv_double(w, "delta_ns", r->delta_ns);
	json_kv_double(w, "relative", r->relative);
	json_kv_double(w, "ci_low", r->ci_low);
	json_kv_double(w, "ci_high", r->ci_high);
	json_kv_double(w, "relative_low", r->relative_low);
	json_kv_double(w, "relative_high", r->relative_high);
	json_kv_double(w, "se", r->se);
	json_kv_double(w, "boot_sd", r->boot_assumed ? set->boot_sd : r->boot_sd);
	json_kv_string(w, "boot_sd_source", r->boot_assumed && r->boot_scale > 0 ?
		       "assumed" : compare_boot_source_name(set));
	json_kv_double(w, "df", r->df);
	json_kv_double(w, "p_value", r->p);
	json_kv_double(w, "q_value", r->q);
	json_kv_string(w, "basis", basis);
	json_kv_double(w, "relative_net", r->net ? expm1(r->log_ratio) : NAN);
	json_kv_string(w, "verdict", words->verdict[r->verdict]);
	json_kv_string(w, "method", r->method);
	json_end_object(w);
}

static void write_names(struct json_writer *w, const char *key,
			const char *const *names, size_t n)
{
	json_key(w, key);
	json_begin_array(w);
	for (size_t i = 0; i < n; i++)
		json_string(w, names[i]);
	json_end_array(w);
}

int compare_json_print(FILE *f, const struct compare_result *res,
		       const struct compare_settings *set,
		       const struct compare_words *words,
		       const struct compare_sides *sides)
{
	size_t tally[COMPARE_VERDICTS] = { 0 };
	struct json_writer w;

	json_writer_init(&w, f);
	json_begin_object(&w);
	json_kv_string(&w, "format", COMPARE_JSON_FORMAT);
	write_settings(&w, set, words->calibrated);
	json_key(&w, "sides");
	json_begin_object(&w);
	write_side(&w, "A", sides->a, sides->na, sides->state_a);
	write_side(&w, "B", sides->b, sides->nb, sides->state_b);
	json_end_object(&w);
	json_key(&w, "pairing");
	json_begin_object(&w);
	json_kv_string(&w, "order", sides->order);
	json_kv_string(&w, "sentence", sides->sentence);
	json_end_object(&w);
	for (size_t i = 0; i < res->count; i++)
		tally[res->rows[i].verdict]++;
	json_key(&w, "verdicts");
	json_begin_object(&w);
	for (int v = 0; v < COMPARE_VERDICTS; v++)
		json_kv_int(&w, words->verdict[v], (long long)tally[v]);
	json_end_object(&w);
	json_key(&w, "rows");
	json_begin_array(&w);
	for (size_t i = 0; i < res->count; i++)
		write_row(&w, &res->rows[i], set, words, words->basis[i]);
	json_end_array(&w);
	write_names(&w, "only_a", res->only_a, res->only_a_count);
	write_names(&w, "only_b", res->only_b, res->only_b_count);
	json_end_object(&w);
	return json_writer_finish(&w);
}

int compare_json_write(const char *dir, const struct compare_result *res,
		       const struct compare_settings *set,
		       const struct compare_words *words,
		       const struct compare_sides *sides)
{
	char path[PATH_MAX + 64];
	FILE *f;
	int err;

	if ((size_t)snprintf(path, sizeof(path), "%s/compare.json", dir) >=
	    sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	f = fopen(path, "w");
	if (!f)
		return -1;
	err = compare_json_print(f, res, set, words, sides);
	if (fclose(f) && !err)
		err = errno;
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}
