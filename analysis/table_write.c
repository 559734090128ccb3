// SPDX-License-Identifier: GPL-2.0
/*
 * table_write.c - the cross-machine table as files: table.csv (one line
 * per row and figure, for programs), left-out.csv, table.md (for
 * readers) and the plot's data (docs/schema.md, "The table directory").
 */
#include "analysis/table.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/gnuplot.h"
#include "analysis/run_select.h"
#include "analysis/text_table.h"
#include "rundata/catalogue.h"
#include "rundata/csv.h"

/* ---------------------------------------------------------------- CSV */

/*
 * The text of a row comes from the runs, contributed ones among them: it
 * is written with csv_field_text(), so that a spreadsheet opening
 * table.csv runs none of it as a formula.
 */

/* The row's machine: the context keys table.csv's first columns show. */
static void put_identity(struct csv_writer *w, const struct table_row *r)
{
	for (size_t i = 0; i < file_table.count; i++)
		if (file_table.columns[i].context_key)
			csv_field_text(w, rundir_context_or(&r->cells_from->run,
				       file_table.columns[i].context_key, ""));
}

static void put_value(struct csv_writer *w, const struct table_value *v)
{
	csv_field_double(w, v->value);
	csv_field_double(w, v->low);
	csv_field_double(w, v->high);
	csv_field(w, isfinite(v->value) ? v->unit : "");
	if (v->reps)
		csv_field_uint(w, v->reps);
	else
		csv_field(w, "");
}

static void put_runs(struct csv_writer *w, const struct table_row *r)
{
	csv_field_text(w, r->smap ? r->smap->path : "");
	csv_field_text(w, r->off ? r->off->path : "");
	csv_field_text(w, r->calibration);
}

int table_write_csv(const struct table *t, FILE *f)
{
	struct csv_writer w;

	csv_writer_init(&w, f);
	/* the catalogue's columns, in its order: the fields below follow it */
	file_header_write(&w, &file_table);
	for (size_t k = 0; k < t->row_count; k++) {
		const struct table_row *r = &t->rows[k];

		for (size_t i = 0; i < table_cell_count(); i++) {
			const struct table_cell_def *c = &table_cells()[i];
			char bench[160], size[32] = "";

			if (!isfinite(r->cells[i].value))
				continue;
			if (c->size)
				snprintf(size, sizeof(size), "/%lu", c->size);
			snprintf(bench, sizeof(bench), "%s/%s/%s%s%s", c->suite,
				 c->op, c->variant, size,
				 c->kind == TABLE_PAIR ? " - nopad" : "");
			put_identity(&w, r);
			csv_field(&w, c->id);
			csv_field(&w, bench);
			put_value(&w, &r->cells[i]);
			csv_field(&w, "");
			csv_field(&w, "");
			put_runs(&w, r);
			csv_end_row(&w);
		}
		for (size_t i = 0; i < r->delta_count; i++) {
			const struct table_delta *d = &r->deltas[i];

			put_identity(&w, r);
			csv_field(&w, "smap_delta");
			csv_field_text(&w, d->name);
			put_value(&w, &d->delta);
			csv_field_double(&w, d->relative);
			csv_field_double(&w, d->pairs_per_op);
			put_runs(&w, r);
			csv_end_row(&w);
			if (!isfinite(d->per_pair.value))
				continue;
			put_identity(&w, r);
			csv_field(&w, "per_pair");
			csv_field_text(&w, d->name);
			put_value(&w, &d->per_pair);
			csv_field(&w, "");
			csv_field_double(&w, d->pairs_per_op);
			put_runs(&w, r);
			csv_end_row(&w);
		}
	}
	return csv_writer_error(&w) || fflush(f) ? -1 : 0;
}

int table_write_left_out(const struct table *t, FILE *f)
{
	struct csv_writer w;
	static const char *const header[] = { "path", "reason" };

	csv_writer_init(&w, f);
	csv_row(&w, header, 2);
	for (size_t i = 0; i < t->left_out_count; i++) {
		csv_field_text(&w, t->left_out[i].path);
		csv_field_text(&w, t->left_out[i].reason);
		csv_end_row(&w);
	}
	return csv_writer_error(&w) || fflush(f) ? -1 : 0;
}

/* ----------------------------------------------------------- Markdown */

/* "12.3 [11.9, 12.8] cycles", "12.3 cycles" without an interval, "—". */
static void md_value(FILE *f, const struct table_value *v)
{
	if (!isfinite(v->value)) {
		fputs("—", f);
		return;
	}
	fprintf(f, "%.1f", v->value);
	if (isfinite(v->low) && isfinite(v->high))
		fprintf(f, " [%.1f, %.1f]", v->low, v->high);
	fprintf(f, " %s", v->unit);
}

static void md_machine(FILE *f, const struct table_row *r)
{
	fputs("| ", f);
	md_text(f, r->host);
	fputs(" | ", f);
	md_text(f, r->cpu_model);
	fputs(" (", f);
	md_text(f, r->family);
	fputc('/', f);
	md_text(f, r->model);
	fputc('/', f);
	md_text(f, r->stepping);
	fputs(", ", f);
	md_text(f, r->microcode);
	fputs(") | ", f);
	md_text(f, r->kernel);
	fputs(" | ", f);
	md_text(f, r->virt);
	fputs(", ", f);
	md_text(f, r->counter);
	fputs(" |", f);
}

static size_t paired_rows(const struct table *t)
{
	size_t n = 0;

	for (size_t k = 0; k < t->row_count; k++)
		n += t->rows[k].smap && t->rows[k].off;
	return n;
}

/* One boot: the pair per access of every row. */
static void md_one_boot(const struct table *t, FILE *f)
{
	fprintf(f, "## One boot: the pair per access\n\n"
		   "`inline − nopad` per user access (one STAC/CLAC pair each), and the "
		   "bpf `probe_read_user` overhead over a kernel copy at 8 B, an upper "
		   "bound of the pair: it also holds access_ok, pagefault_disable, "
		   "hardened usercopy checks and return thunks (docs/bpf.md). Each "
		   "figure: the mean over the repetitions of inline − nopad, the two "
		   "rows side by side in each, with its 95%% paired t interval (the "
		   "overhead row: its own center and t interval), in core cycles where the "
		   "run's two calibration chains (`add r,r`, `imul r,r`) agree within "
		   "2%%, else in ns, the column *cycles from* saying which and why; — "
		   "where the run has no such rows. From the row's SMAP boot when it "
		   "has one.\n\n");
	fputs("| machine | CPU (family/model/stepping, microcode) | kernel | virt, counter | cycles from |", f);
	for (size_t i = 0; i < table_cell_count(); i++)
		fprintf(f, " %s |", table_cells()[i].title);
	fputs("\n| --- | --- | --- | --- | --- |", f);
	for (size_t i = 0; i < table_cell_count(); i++)
		fputs(" ---: |", f);
	fputc('\n', f);
	for (size_t k = 0; k < t->row_count; k++) {
		const struct table_row *r = &t->rows[k];

		md_machine(f, r);
		fputc(' ', f);
		md_text(f, r->calibration);
		fputs(" |", f);
		for (size_t i = 0; i < table_cell_count(); i++) {
			fputc(' ', f);
			md_value(f, &r->cells[i]);
			fputs(" |", f);
		}
		fputc('\n', f);
	}
	if (!t->row_count)
		fputs("\nNo run could be used: see below.\n", f);
}

/* Two boots: SMAP on - SMAP off of the rows that have both. */
static void md_two_boots(const struct table *t, FILE *f)
{
	fprintf(f, "\n## Two boots: SMAP on − SMAP off\n\n"
		   "For a machine and kernel with a SMAP run and a SMAP-off run, each "
		   "headline kapi and syscall benchmark's difference (SMAP − off) with "
		   "its 95%% interval over the repetitions and the two boots (sigma_u assumed 2%%), relative to the SMAP-off boot; divided by the "
		   "STAC/CLAC pairs the census counted per operation on that kernel "
		   "(docs/census.md), where a census of it is among the inputs and "
		   "the operation opens at least half a pair.\n\n");
	if (!paired_rows(t)) {
		fputs("No machine and kernel has both boots among the inputs yet.\n", f);
	} else {
		fputs("| machine | CPU (family/model/stepping, microcode) | kernel | virt, counter | benchmark | SMAP − off | relative | pairs per op | per pair |\n"
		      "| --- | --- | --- | --- | --- | ---: | ---: | ---: | ---: |\n", f);
		for (size_t k = 0; k < t->row_count; k++) {
			const struct table_row *r = &t->rows[k];

			for (size_t i = 0; i < r->delta_count; i++) {
				const struct table_delta *d = &r->deltas[i];

				md_machine(f, r);
				fprintf(f, " %s | ", d->name);
				md_value(f, &d->delta);
				if (isfinite(d->relative))
					fprintf(f, " | %+.1f%% | ", 100 * d->relative);
				else
					fputs(" | — | ", f);
				if (isfinite(d->pairs_per_op))
					fprintf(f, "%.3g", d->pairs_per_op);
				else
					fputs(r->census ? "not counted" : "no census", f);
				fputs(" | ", f);
				md_value(f, &d->per_pair);
				fputs(" |\n", f);
			}
		}
	}
}

/* The runs and censuses each row comes from. */
static void md_runs(const struct table *t, FILE *f)
{
	fputs("\n## Runs\n\n| run | SMAP state | date | row |\n| --- | --- | --- | --- |\n", f);
	for (size_t k = 0; k < t->row_count; k++) {
		const struct table_row *r = &t->rows[k];
		const struct table_input *runs[] = { r->smap, r->off };

		for (int i = 0; i < 2; i++) {
			if (!runs[i])
				continue;
			fputs("| ", f);
			md_text(f, runs[i]->path);
			/* context text, as every other cell: a stranger's */
			fputs(" | ", f);
			md_text(f, rundir_context_or(&runs[i]->run, "smap_state", ""));
			if (i) {
				fputs(" (", f);
				md_text(f, rundir_context_or(&runs[i]->run,
							     "smap_off_method", "?"));
				fputc(')', f);
			}
			fputs(" | ", f);
			md_text(f, rundir_context_or(&runs[i]->run, "date", ""));
			fputs(" | ", f);
			md_text(f, r->host);
			fputs(", ", f);
			md_text(f, r->kernel);
			fputs(" |\n", f);
		}
	}
	for (size_t i = 0; i < t->census_count; i++) {
		int rows = 0;

		for (size_t k = 0; k < t->row_count; k++)
			rows += t->rows[k].census == &t->census[i];
		fputs("| ", f);
		md_text(f, t->census[i].path);
		fputs(" | census of ", f);
		md_text(f, t->census[i].kernel);
		fputs(rows ? " | | its kernel's rows |\n" :
		      " | | none: no row of this kernel |\n", f);
	}
}

/* The inputs left out, and why. */
static void md_left_out(const struct table *t, FILE *f)
{
	fputs("\n## Left out\n\n", f);
	if (!t->left_out_count) {
		fputs("Nothing: every input is in the table.\n", f);
	} else {
		fputs("| input | why |\n| --- | --- |\n", f);
		for (size_t i = 0; i < t->left_out_count; i++) {
			fputs("| ", f);
			md_text(f, t->left_out[i].path);
			fputs(" | ", f);
			md_text(f, t->left_out[i].reason);
			fputs(" |\n", f);
		}
	}
}

int table_write_md(const struct table *t, FILE *f, const char *plot)
{
	size_t used = 0;

	for (size_t i = 0; i < t->input_count; i++)
		used += t->inputs[i].used;
	/* no version here: the published table must not change with it */
	fprintf(f, "# What a STAC/CLAC pair costs, per machine and kernel\n\n"
		   "Written by `smapbench table`: %zu row%s from %zu run%s, %zu "
		   "with a SMAP and a SMAP-off boot; %zu input%s left out (listed "
		   "below). How each figure is made: docs/interpreting.md, \"The "
		   "cross-machine table\"; the same figures for programs: "
		   "table.csv.\n\n",
		   t->row_count, t->row_count == 1 ? "" : "s", used,
		   used == 1 ? "" : "s", paired_rows(t), t->left_out_count,
		   t->left_out_count == 1 ? "" : "s");
	md_one_boot(t, f);
	md_two_boots(t, f);
	fputs("\nWhich run a row uses: " RUN_PREFERENCE_RULE "; of SMAP-off "
	      "runs, first the one switched off as users do (clearcpuid, then "
	      "nosmap, then a CPU model without SMAP).\n", f);
	if (plot)
		fprintf(f, "\n![pair cost per access, per machine and kernel](%s)\n", plot);
	md_runs(t, f);
	md_left_out(t, f);
	return ferror(f) || fflush(f) ? -1 : 0;
}

/* ---------------------------------------------------------------- plot */

int table_write_plot_data(const struct table *t, FILE *f, size_t *rows)
{
	*rows = 0;
	fputs("row", f);
	for (size_t i = 0; i < table_cell_count(); i++)
		fprintf(f, ",%s,low,high", table_cells()[i].title);
	fputc('\n', f);
	for (size_t k = 0; k < t->row_count; k++) {
		const struct table_row *r = &t->rows[k];
		int any = 0;

		for (size_t i = 0; i < table_cell_count(); i++)
			any |= isfinite(r->cells[i].value) &&
			       !strcmp(r->cells[i].unit, "cycles");
		if (!any)
			continue;
		fputc('"', f);
		gnuplot_data_text(f, r->host, 60);
		fputs("\\n", f);
		gnuplot_data_text(f, r->cpu_model, 40);
		fputs("\\n", f);
		gnuplot_data_text(f, r->kernel, 60);
		fputc('"', f);
		for (size_t i = 0; i < table_cell_count(); i++) {
			const struct table_value *v = &r->cells[i];
			int cycles = isfinite(v->value) && !strcmp(v->unit, "cycles");

			if (cycles)
				fprintf(f, ",%.6g,%.6g,%.6g", v->value,
					isfinite(v->low) ? v->low : v->value,
					isfinite(v->high) ? v->high : v->value);
			else
				fputs(",NaN,NaN,NaN", f);
		}
		fputc('\n', f);
		(*rows)++;
	}
	return ferror(f) || fflush(f) ? -1 : 0;
}
