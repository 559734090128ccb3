// SPDX-License-Identifier: GPL-2.0
/*
 * table_build.c - from many run directories to the rows of the
 * cross-machine table (table.h): which runs are left out and why, which
 * runs are one machine and kernel, which boot of it is SMAP and which
 * SMAP-off, and every cell's figure with its interval.
 */
#include "analysis/table.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/compare_stats.h"
#include "analysis/headline.h"
#include "analysis/run_select.h"
#include "rundata/atomic_dir.h"
#include "rundata/catalogue.h"
#include "rundata/census_csv.h"
#include "suites/kmod/catalogue.h"

/*
 * The cells: one pair cell per op the catalogue gives one (sweep.h's
 * table_cell), in catalogue order, then the bpf overhead row. Built once,
 * on first use, from the catalogue, so that a new op never needs a line
 * here.
 */
static struct table_cell_def cells[SMAPBENCH_OP_COUNT + 1];
static size_t cell_count;
static pthread_once_t cells_once = PTHREAD_ONCE_INIT;

static void cells_build(void)
{
	for (unsigned op = 0; op < SMAPBENCH_OP_COUNT; op++) {
		const struct kmod_op *o = &kmod_ops[op];
		struct table_cell_def *c = &cells[cell_count];
		const char *per = o->table_cell;

		if (!per)
			continue;
		snprintf(c->id, sizeof(c->id), "pair_%s_%s", o->name, per);
		/* a size in bytes, or what one access of a fixed unit is */
		if (strspn(per, "0123456789") == strlen(per)) {
			c->size = strtoul(per, NULL, 10);
			snprintf(c->title, sizeof(c->title), "%s %s B", o->name, per);
		} else {
			snprintf(c->title, sizeof(c->title), "%s per %s", o->name, per);
		}
		c->kind = TABLE_PAIR;
		c->suite = "kmod";
		c->op = o->name;
		c->variant = kmod_variant_name(SMAPBENCH_VARIANT_INLINE);
		cell_count++;
	}
	cells[cell_count++] = (struct table_cell_def){
		"bpf_overhead_8", "bpf overhead 8 B (upper bound)", TABLE_ROW, "bpf",
		"overhead", "raw_tp", 8,
	};
}

const struct table_cell_def *table_cells(void)
{
	pthread_once(&cells_once, cells_build);
	return cells;
}

size_t table_cell_count(void)
{
	pthread_once(&cells_once, cells_build);
	return cell_count;
}


static int left_out(struct table *t, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int left_out(struct table *t, const char *path, const char *fmt, ...)
{
	struct table_left_out *n;
	char reason[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	n = realloc(t->left_out, (t->left_out_count + 1) * sizeof(*n));
	if (!n)
		return -1;
	t->left_out = n;
	n[t->left_out_count].path = strdup(path);
	n[t->left_out_count].reason = strdup(reason);
	if (!n[t->left_out_count].path || !n[t->left_out_count].reason) {
		free(n[t->left_out_count].path);
		free(n[t->left_out_count].reason);
		return -1;
	}
	t->left_out_count++;
	return 0;
}

/* ------------------------------------------------------------- census */

/* The table_census of kernel, added when new; NULL on no memory. */
static struct table_census *census_for(struct table *t, const char *dir,
				       const char *kernel)
{
	struct table_census *c;

	for (size_t k = 0; k < t->census_count; k++)
		if (!strcmp(t->census[k].kernel, kernel))
			return &t->census[k];
	c = realloc(t->census, (t->census_count + 1) * sizeof(*c));
	if (!c)
		return NULL;
	t->census = c;
	c = &c[t->census_count];
	memset(c, 0, sizeof(*c));
	c->path = strdup(dir);
	c->kernel = strdup(kernel);
	if (!c->path || !c->kernel) {
		free(c->path);
		free(c->kernel);
		return NULL;
	}
	t->census_count++;
	return c;
}

/*
 * The SMAP boots' measured rows of a census directory's census.csv, one
 * table_census per kernel. 0, or -1 with a reason in why ("out of
 * memory" when that was it); a file the reader refuses adds nothing.
 */
static int load_census(struct table *t, const char *dir, char *why,
		       size_t len)
{
	char path[PATH_MAX + 16];
	struct census_csv csv;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/census.csv", dir);
	if (census_csv_load(path, &csv, why, len))
		return -1;
	for (size_t i = 0; i < csv.count; i++) {
		const struct census_csv_row *row = &csv.rows[i];
		struct table_census *c;
		char **names;
		double *stac;

		if (!census_csv_smap_row(row))
			continue;
		c = census_for(t, dir, row->kernel);
		names = c ? realloc(c->names, (c->count + 1) * sizeof(*names)) : NULL;
		if (names)
			c->names = names;
		stac = names ? realloc(c->stac_per_op, (c->count + 1) * sizeof(*stac)) : NULL;
		if (stac)
			c->stac_per_op = stac;
		if (!stac || !(names[c->count] = strdup(row->name))) {
			snprintf(why, len, "out of memory");
			rc = -1;
			break;
		}
		stac[c->count++] = row->stac_per_op;
	}
	census_csv_free(&csv);
	return rc;
}

static const struct table_census *census_of(const struct table *t,
					    const char *kernel)
{
	for (size_t i = 0; i < t->census_count; i++)
		if (!strcmp(t->census[i].kernel, kernel))
			return &t->census[i];
	return NULL;
}

static double census_pairs(const struct table_census *c, const char *name)
{
	if (c)
		for (size_t i = 0; i < c->count; i++)
			if (!strcmp(c->names[i], name))
				return c->stac_per_op[i];
	return NAN;
}

/* ------------------------------------------------------------- inputs */

static const char *ctx(const struct table_input *in, const char *key)
{
	return rundir_context_or(&in->run, key, "");
}

static int same_path(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/*
 * Sort one path into the inputs, the census or the left-out list.
 * 0, or -1 on no memory.
 */
static int add_path(struct table *t, const char *given,
		    const struct table_options *o)
{
	char kind[64], err[PATH_MAX + 1024], path[PATH_MAX];
	size_t len = strlen(given);

	/* data/run/ (a shell glob's) is data/run in every list */
	while (len > 1 && given[len - 1] == '/')
		len--;
	if (len >= sizeof(path))
		return left_out(t, given, "path too long");
	memcpy(path, given, len);
	path[len] = '\0';
	struct table_input *in, *n;
	struct stat st;

	if (o->skip && same_path(path, o->skip))
		return 0;
	if (stat(path, &st))
		return left_out(t, path, "cannot be read: %s", strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return left_out(t, path, "not a directory");
	atomic_dir_marker(path, kind, sizeof(kind));
	if (!strcmp(kind, "census")) {
		if (load_census(t, path, err, sizeof(err)))
			return !strcmp(err, "out of memory") ? -1 :
			       left_out(t, path, "census directory that cannot be read: %s", err);
		return 0;
	}
	if (*kind && strcmp(kind, "run"))
		return left_out(t, path, "a smapbench %s directory, not a run", kind);
	n = realloc(t->inputs, (t->input_count + 1) * sizeof(*n));
	if (!n)
		return -1;
	t->inputs = n;
	in = &n[t->input_count];
	memset(in, 0, sizeof(*in));
	if (rundir_load(path, &in->run, err, sizeof(err)))
		return left_out(t, path, "not a run that can be read: %s", err);
	in->path = strdup(path);
	if (!in->path) {
		rundir_free(&in->run);
		return -1;
	}
	t->input_count++;
	return 0;
}

/* Why a loaded run cannot be in the table, or NULL. */
static const char *unusable(const struct table_input *in,
			    const struct table_options *o, char *buf,
			    size_t len)
{
	if (in->run.from_json || !in->run.has_context_file)
		return "no context.csv: the machine is unknown";
	/* what a run must have, and what a row of table.csv shows */
	for (size_t k = 0; k < context_key_count; k++)
		if ((context_keys[k].roles & KEY_REQUIRED) &&
		    !*ctx(in, context_keys[k].name)) {
			snprintf(buf, len, "context.csv does not record %s",
				 context_keys[k].name);
			return buf;
		}
	for (size_t k = 0; k < file_table.count; k++)
		if (file_table.columns[k].context_key &&
		    !*ctx(in, file_table.columns[k].context_key)) {
			snprintf(buf, len, "context.csv does not record %s",
				 file_table.columns[k].context_key);
			return buf;
		}
	if (rundir_incomplete(&in->run)) {
		snprintf(buf, len, "not a complete run (context.csv: status %s): not every benchmark ran all its repetitions",
			 rundir_incomplete(&in->run));
		return buf;
	}
	if (!o->include_tcg && !strcmp(ctx(in, "virt"), "tcg"))
		return "QEMU TCG: emulated timings, not a CPU's (--include-tcg keeps it)";
	return NULL;
}

/* One row: every key a comparison needs equal is (absent is ""). */
static int same_machine(const struct table_input *a,
			const struct table_input *b)
{
	for (size_t k = 0; k < context_key_count; k++)
		if ((context_keys[k].roles & KEY_COMPARISON) &&
		    strcmp(ctx(a, context_keys[k].name), ctx(b, context_keys[k].name)))
			return 0;
	return 1;
}

static int is_smap(const struct table_input *in)
{
	return !strcmp(ctx(in, "smap_state"), "smap");
}

/*
 * Which of two SMAP-off runs pairs: the one switched off as users do
 * (clearcpuid, then nosmap on old kernels, then a CPU model without
 * SMAP), then the newer. > 0 when a is the better one.
 */
static int off_rank(const struct table_input *in)
{
	static const char *const order[] = { "clearcpuid", "nosmap", "cpu-model" };
	const char *m = ctx(in, "smap_off_method");

	for (int i = 0; i < 3; i++)
		if (!strcmp(m, order[i]))
			return 3 - i;
	return 0;
}

/*
 * > 0 when a is the better run of its boot kind (SMAP-off: first the one
 * switched off as users do), then by RUN_PREFERENCE_RULE; why (if not
 * NULL) says what decided.
 */
static int preference(const struct table_input *a, const struct table_input *b,
		      char *why, size_t len)
{
	int ra = is_smap(a) ? 0 : off_rank(a), rb = is_smap(b) ? 0 : off_rank(b);
	struct run_weight wa, wb;

	if (ra != rb) {
		if (why)
			snprintf(why, len, "a SMAP-off run switched off as users "
				 "do (%s), not %s", ctx(ra > rb ? a : b, "smap_off_method"),
				 ctx(ra > rb ? b : a, "smap_off_method"));
		return ra > rb ? 1 : -1;
	}
	run_weight_of(&a->run, &wa);
	run_weight_of(&b->run, &wb);
	return run_weight_compare(&wa, &wb, why, len);
}

static int better(const struct table_input *a, const struct table_input *b)
{
	return preference(a, b, NULL, 0) > 0;
}

/* ------------------------------------------------------------ figures */

/*
 * Core cycles per unit of b's values, or NAN when the run gives none: 1
 * for a cycle counter (the PMU); else ns per unit times the core frequency
 * the run's two calibration chains agreed on (calib_ghz, measure/calib.h).
 * A run whose chains disagreed, or one from before the check (its chain,
 * an immediate add, is folded at rename on recent Intel cores), gives
 * none: times only. Nor does a run under QEMU's emulator: its chains
 * time the translator, and agree, but no CPU runs at that clock.
 */
double table_cycles_per_unit(const struct run_dir *run,
			     const struct run_bench *b)
{
	const char *consistent = rundir_context(run, "calib_consistent");
	const char *ghz = rundir_context(run, "calib_ghz");
	double ns = rundir_ns_per_unit(run, b), v;

	if (!strcmp(rundir_context_or(run, "virt", ""), "tcg"))
		return NAN;
	if (!strcmp(b->unit, "cycles"))
		return 1;
	if (consistent && !strcmp(consistent, "1") && ghz &&
	    (v = strtod(ghz, NULL)) > 0 && isfinite(ns))
		return ns * v;
	return NAN;
}

/* What the row's cycles come from, or why it has none (table.md, .csv). */
static void describe_calibration(struct table_row *r)
{
	const struct run_dir *run = &r->cells_from->run;
	const char *consistent = rundir_context(run, "calib_consistent");
	const char *note = rundir_context(run, "calib_note");
	const char *add = rundir_context(run, "calib_user_add_ghz");
	const char *imul = rundir_context(run, "calib_user_imul_ghz");
	const char *kmod = rundir_context(run, "calib_kmod_vs_user");
	char extra[64] = "";

	if (kmod && *kmod)
		snprintf(extra, sizeof(extra), "; module %.1f%% off",
			 100 * fabs(strtod(kmod, NULL) - 1));
	if (!strcmp(rundir_context_or(run, "virt", ""), "tcg"))
		snprintf(r->calibration, sizeof(r->calibration),
			 "ns only: QEMU TCG, whose clock is the emulator's");
	else if (!consistent)
		snprintf(r->calibration, sizeof(r->calibration),
			 "ns only: the run predates the two-chain calibration");
	else if (!strcmp(consistent, "1"))
		snprintf(r->calibration, sizeof(r->calibration),
			 "add r,r %.3f GHz, imul r,r %.3f GHz (%.1f%% apart%s)",
			 strtod(add ? add : "0", NULL),
			 strtod(imul ? imul : "0", NULL),
			 100 * strtod(rundir_context_or(run, "calib_user_disagreement", "0"), NULL),
			 extra);
	else
		snprintf(r->calibration, sizeof(r->calibration),
			 "ns only: %s", note && *note ? note : "the calibration chains disagree");
	if (!strcmp(rundir_context_or(run, "counter_unit", ""), "cycles"))
		snprintf(r->calibration + strlen(r->calibration),
			 sizeof(r->calibration) - strlen(r->calibration),
			 "; cycle counter primary");
}

/* Express v (in b's unit) in cycles, else ns, else b's unit. */
static void convert(struct table_value *v, const struct run_dir *run,
		    const struct run_bench *b)
{
	double scale = table_cycles_per_unit(run, b);

	v->unit = "cycles";
	if (!isfinite(scale)) {
		scale = rundir_ns_per_unit(run, b);
		v->unit = "ns";
	}
	if (!isfinite(scale)) {
		scale = 1;
		v->unit = b->unit;
	}
	v->value *= scale;
	v->low *= scale;
	v->high *= scale;
}

static void no_value(struct table_value *v)
{
	*v = (struct table_value){ NAN, NAN, NAN, "", 0 };
}

/* center(b) - center(a) with its interval, in a's unit; -1 on no memory. */
static int difference(const struct run_bench *a, const struct run_bench *b,
		      struct table_value *v, double *center_a)
{
	struct compare_settings set = compare_default_settings();
	struct compare_row row;

	no_value(v);
	if (!a->count || !b->count)
		return 0;
	if (compare_values(a->values, a->repetition, a->count, b->values,
			   b->repetition, b->count, &set, &row))
		return -1;
	v->value = row.delta;
	v->low = row.ci_low;
	v->high = row.ci_high;
	v->unit = b->unit;
	v->reps = row.reps_a < row.reps_b ? row.reps_a : row.reps_b;
	if (center_a)
		*center_a = row.center_a;
	return 0;
}

static int cell_value(const struct table_cell_def *def,
		      const struct run_dir *run, struct table_value *v)
{
	const struct bench_key key = { def->suite, def->op, def->variant,
				       def->size, 0 };
	const struct run_bench *b = bench_match(run, &key), *nopad;
	struct stats_interval iv;
	double per;

	no_value(v);
	if (!b || !b->count)
		return 0;
	if (def->kind == TABLE_ROW) {
		/* the row's center and interval, as every reader of a run sees */
		v->value = b->center;
		v->reps = b->repetitions;
		if (b->repetitions >= COMPARE_MIN_REPETITIONS) {
			v->low = b->ci_low;
			v->high = b->ci_high;
		}
		v->unit = b->unit;
		convert(v, run, b);
		return 0;
	}
	/* the pair cost per access, as derived.c defines it: paired */
	nopad = bench_sibling(run, b, "nopad", 0);
	per = (double)kmod_row_accesses(b->op, b->variant, b->batch);
	if (!nopad || !(per > 0) || !nopad->count)
		return 0;
	if (compare_within_run(nopad, 1 / per, b, 1 / per, &iv))
		return 0;
	v->value = iv.estimate;
	v->low = iv.low;
	v->high = iv.high;
	v->reps = iv.n;
	v->unit = b->unit;
	convert(v, run, b);
	return 0;
}

/* The headline kapi and syscall rows both boots have. */
static int add_deltas(struct table_row *r)
{
	const struct bench_key *k = headline_benchmarks();

	for (; k->suite; k++) {
		const struct run_bench *on = bench_match(&r->smap->run, k), *off;
		struct table_delta *d, *n;
		double center_off = NAN;

		if (!on || !(!strcmp(k->suite, "syscall") ||
			     (!strcmp(k->suite, "kmod") && !strcmp(k->variant, "kapi"))))
			continue;
		off = bench_match(&r->off->run, k);
		if (!off || strcmp(on->unit, off->unit))
			continue;
		n = realloc(r->deltas, (r->delta_count + 1) * sizeof(*n));
		if (!n)
			return -1;
		r->deltas = n;
		d = &n[r->delta_count++];
		d->name = on->name;
		if (difference(off, on, &d->delta, &center_off))
			return -1;
		d->relative = d->delta.value / center_off;
		convert(&d->delta, &r->smap->run, on);
		d->pairs_per_op = census_pairs(r->census, on->name);
		d->per_pair = d->delta;
		/* under half a pair per op the delta is not the pairs' */
		if (!(d->pairs_per_op >= 0.5)) {
			no_value(&d->per_pair);
			continue;
		}
		d->per_pair.value /= d->pairs_per_op;
		d->per_pair.low /= d->pairs_per_op;
		d->per_pair.high /= d->pairs_per_op;
	}
	return 0;
}

static int fill_row(const struct table *t, struct table_row *r)
{
	struct table_input *in = r->cells_from;

	r->host = ctx(in, "host");
	r->cpu_model = ctx(in, "cpu_model");
	r->family = ctx(in, "cpu_family");
	r->model = ctx(in, "cpu_model_number");
	r->stepping = ctx(in, "cpu_stepping");
	r->microcode = ctx(in, "microcode");
	r->kernel = ctx(in, "kernel_release");
	r->virt = ctx(in, "virt");
	r->counter = ctx(in, "counter");
	r->census = census_of(t, r->kernel);
	describe_calibration(r);
	r->cells = calloc(table_cell_count(), sizeof(*r->cells));
	if (!r->cells)
		return -1;
	for (size_t i = 0; i < table_cell_count(); i++)
		if (cell_value(&table_cells()[i], &in->run, &r->cells[i]))
			return -1;
	return r->smap && r->off ? add_deltas(r) : 0;
}

static int by_identity(const void *x, const void *y)
{
	const struct table_row *a = x, *b = y;
	const char *fa[] = { a->cpu_model, a->kernel, a->host, a->virt, a->counter };
	const char *fb[] = { b->cpu_model, b->kernel, b->host, b->virt, b->counter };

	for (int i = 0; i < 5; i++) {
		int c = strcmp(fa[i], fb[i]);

		if (c)
			return c;
	}
	return 0;
}

int table_build(char **paths, size_t count, const struct table_options *o,
		struct table *t)
{
	char buf[256];

	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < count; i++)
		if (add_path(t, paths[i], o))
			goto fail;
	for (size_t i = 0; i < t->input_count; i++) {
		struct table_input *in = &t->inputs[i];
		const char *why = unusable(in, o, buf, sizeof(buf));
		struct table_row *r = NULL, *n;

		if (why) {
			if (left_out(t, in->path, "%s", why))
				goto fail;
			continue;
		}
		for (size_t k = 0; k < t->row_count; k++)
			if (same_machine(t->rows[k].cells_from, in))
				r = &t->rows[k];
		if (!r) {
			n = realloc(t->rows, (t->row_count + 1) * sizeof(*n));
			if (!n)
				goto fail;
			t->rows = n;
			r = &n[t->row_count++];
			memset(r, 0, sizeof(*r));
			r->cells_from = in;
		}
		if (is_smap(in)) {
			if (!r->smap || better(in, r->smap))
				r->smap = in;
		} else if (!r->off || better(in, r->off)) {
			r->off = in;
		}
		r->cells_from = r->smap ? r->smap : r->off;
	}
	for (size_t k = 0; k < t->row_count; k++) {
		if (t->rows[k].smap)
			t->rows[k].smap->used = 1;
		if (t->rows[k].off)
			t->rows[k].off->used = 1;
	}
	/* the runs a newer or better one of the same boot kind replaced */
	for (size_t i = 0; i < t->input_count; i++) {
		struct table_input *in = &t->inputs[i];

		if (in->used || unusable(in, o, buf, sizeof(buf)))
			continue;
		for (size_t k = 0; k < t->row_count; k++) {
			struct table_row *r = &t->rows[k];
			struct table_input *kept = is_smap(in) ? r->smap : r->off;

			if (!kept || !same_machine(kept, in))
				continue;
			preference(kept, in, buf, sizeof(buf));
			if (left_out(t, in->path, "older/shorter run of the same "
				     "machine and kernel: the row uses %s, %s",
				     kept->path, buf))
				goto fail;
		}
	}
	for (size_t k = 0; k < t->row_count; k++)
		if (fill_row(t, &t->rows[k]))
			goto fail;
	qsort(t->rows, t->row_count, sizeof(*t->rows), by_identity);
	return 0;
fail:
	table_free(t);
	return -1;
}

void table_free(struct table *t)
{
	for (size_t k = 0; k < t->row_count; k++) {
		free(t->rows[k].cells);
		free(t->rows[k].deltas);
	}
	free(t->rows);
	for (size_t i = 0; i < t->input_count; i++) {
		free(t->inputs[i].path);
		rundir_free(&t->inputs[i].run);
	}
	free(t->inputs);
	for (size_t i = 0; i < t->census_count; i++) {
		for (size_t j = 0; j < t->census[i].count; j++)
			free(t->census[i].names[j]);
		free(t->census[i].names);
		free(t->census[i].stac_per_op);
		free(t->census[i].path);
		free(t->census[i].kernel);
	}
	free(t->census);
	for (size_t i = 0; i < t->left_out_count; i++) {
		free(t->left_out[i].path);
		free(t->left_out[i].reason);
	}
	free(t->left_out);
	memset(t, 0, sizeof(*t));
}
