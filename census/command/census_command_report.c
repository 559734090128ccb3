// SPDX-License-Identifier: GPL-2.0
/*
 * census_command_report.c - what a reader is told of a command's census:
 * report.md, and the summary on the terminal.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/text_table.h"
#include "census/command/census_command_data.h"

static const char *state_text(const char *state)
{
	return !strcmp(state, "smap") ? "SMAP on" :
	       !strcmp(state, "clearcpuid") ? "`clearcpuid=smap`" :
	       !strcmp(state, "cpu-off") ? "CPU without SMAP" : state;
}

static void md_code(FILE *f, const char *s)
{
	/* a code span that no backtick in s can end */
	fputs("<code>", f);
	md_text(f, s);
	fputs("</code>", f);
}

/* A ratio in at most 3 digits ("7.9", "0", "1.01"); "-" for none. */
static const char *ratio_text(char *buf, size_t len, double v)
{
	snprintf(buf, len, isnan(v) ? "-" : "%.3g", v);
	return buf;
}

/* A count, or a median of counts ("260", "12.5"); "-" for none. */
static const char *count_text(char *buf, size_t len, double v)
{
	snprintf(buf, len, isnan(v) ? "-" : v == round(v) ? "%.0f" : "%.1f", v);
	return buf;
}

static void report_counts(FILE *f, const struct command_census *cc,
			  const struct census_command_inputs *in)
{
	char a[64], b[64], d[64];
	double per_update = NAN;

	fprintf(f, "## Windows opened\n\n"
		"COMMAND's counts minus those of `true` run the same way in the same boot.\n\n"
		"| kernel | SMAP | pairs (STAC) | of which rseq | pairs, rseq as natively | CLAC | POPF | system calls | pairs per system call | pairs per second of native time | estimate: share of native time [interval] | census boot |\n"
		"| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
	for (size_t i = 0; i < cc->nboots; i++) {
		const struct command_boot *x = &cc->boots[i];

		fprintf(f, "| ");
		md_text(f, x->command->kernel);
		fprintf(f, " | %s | %" PRId64 " | %" PRId64 " | %.0f | %" PRId64 " | %" PRId64 " | %" PRId64 " | %s | %s | ",
			state_text(x->command->state), x->pairs, x->rseq_pairs,
			x->model_pairs, x->clac, x->popf, x->system_calls,
			ratio_text(a, sizeof(a), x->system_calls > 0 ?
				   (double)x->pairs / (double)x->system_calls : NAN),
			count_text(b, sizeof(b), in->native->median > 0 ?
				   round(x->model_pairs / in->native->median) : NAN));
		if (isnan(x->fraction) && isfinite(x->fraction_high))
			fprintf(f, "range [%.3g%%, %.3g%%] |", 100 * x->fraction_low,
				100 * x->fraction_high);
		else if (isnan(x->fraction))
			fprintf(f, "- |");
		else
			fprintf(f, "%.3g%% [%.3g%%, %.3g%%] |", 100 * x->fraction,
				100 * x->fraction_low, 100 * x->fraction_high);
		fprintf(f, " %.0f s |\n", x->boot_seconds);
	}
	for (size_t i = 0; i < cc->nboots; i++)
		if (cc->boots[i].rseq_pairs_per_update > 0) {
			per_update = cc->boots[i].rseq_pairs_per_update;
			break;
		}
	fprintf(f, "\n**rseq.** After every context switch of a task, rseq's update writes its\n"
		"CPU number to user memory on the way back to user space: %s windows per\n"
		"update here with SMAP. How often COMMAND switches is not the same in the\n"
		"guest, one quiet vCPU where 9p makes every open and close wait for the host,\n"
		"as on this machine, where other work preempts it: in the guest",
		ratio_text(d, sizeof(d), per_update));
	for (size_t i = 0, n = 0; i < cc->nboots; i++) {
		const struct command_boot *x = &cc->boots[i];

		if (strcmp(x->command->state, "smap"))
			continue;
		fprintf(f, "%s %s times on ", n++ ? "," : "",
			count_text(d, sizeof(d), x->context_switches));
		md_text(f, x->command->kernel);
	}
	if (isnan(in->native->context_switches))
		fprintf(f, "; natively not measured (`--native-seconds`), so the estimate takes the\n"
			"pairs as counted.\n\n");
	else
		fprintf(f, "; natively %s times (the median of the timed runs). So \"pairs, rseq as\n"
			"natively\" replaces the counted rseq windows by the windows of one update times\n"
			"the native context switches, and the pairs per second and the estimate take\n"
			"that figure.\n\n",
			count_text(d, sizeof(d), in->native->context_switches));
}

static void report_model(FILE *f, const struct census_command_inputs *in)
{
	const struct census_pair_cost *cost = in->cost;
	const struct census_native *n = in->native;

	fprintf(f, "## What it would cost: a model\n\n");
	if (n->given)
		fprintf(f, "Native wall time: %.4g s, given (`--native-seconds`).\n\n",
			n->median);
	else
		fprintf(f, "Native wall time on this machine, outside the guest: median %.4g s of %zu runs after one warm-up (%.4g to %.4g s).\n\n",
			n->median, n->runs, n->min, n->max);
	if (!cost->known && *cost->source) {
		fprintf(f, "No estimate: ");
		md_text(f, cost->source);
		fprintf(f, ".\n\n");
		return;
	}
	if (!cost->known) {
		fprintf(f, "No pair cost was given (`--cpu-row` or `--pair-cycles`): no estimate.\n\n");
		return;
	}
	fprintf(f, "**This is a model, not a measurement.** The estimate is pairs × the cost of one\n"
		"STAC/CLAC pair measured in isolation ÷ the native time: it ignores what the\n"
		"pairs do to the pipeline around them (serialisation of the flags, lost\n"
		"overlap with the copies they bracket), and it assumes the native time of this\n"
		"machine. Check it with two boots of the real machine, SMAP on and\n"
		"`clearcpuid=smap` (docs/census.md, \"Checking the model\").\n\n");
	fprintf(f, "- pair cost: ");
	md_text(f, cost->source);
	fprintf(f, "\n- core frequency: ");
	md_text(f, cost->ghz_source);
	if (isnan(cost->value))
		fprintf(f, "\n- **no measured figure for this machine**: the estimate is a range only, the\n"
			"  pair cost's low end over the longest native run to its high end over the\n"
			"  shortest\n\n");
	else
		fprintf(f, "\n- interval: the pair cost's interval over the native time's range\n\n");
}

static void report_sites(FILE *f, const struct command_census *cc,
			 unsigned top)
{
	for (size_t i = 0; i < cc->nboots; i++) {
		const struct command_boot *b = &cc->boots[i];
		int64_t all = total_pairs(b);

		if (strcmp(b->command->state, "smap"))
			continue;
		fprintf(f, "## Where, ");
		md_text(f, b->command->kernel);
		fprintf(f, " (SMAP on)\n\n");
		if (!b->nfunctions || all <= 0) {
			fprintf(f, "No window above the baseline.\n\n");
			continue;
		}
		fprintf(f, "| # | kernel function | pairs | share | reached from (system call: pairs) |\n"
			"| ---: | --- | ---: | ---: | --- |\n");
		for (size_t k = 0; k < b->nfunctions && k < top; k++) {
			const struct function_count *fn = &b->functions[k];

			if (function_pairs(fn) <= 0)
				break;
			fprintf(f, "| %zu | ", k + 1);
			md_code(f, fn->name);
			fprintf(f, " | %" PRId64 " | %.1f%% | ", function_pairs(fn),
				100.0 * (double)function_pairs(fn) / (double)all);
			for (size_t v = 0; v < fn->nvia && v < VIA_SHOWN &&
			     fn->via[v].pairs > 0; v++) {
				fprintf(f, "%s", v ? ", " : "");
				md_text(f, !strcmp(fn->via[v].syscall, NO_SYSCALL) ?
					"(none)" : fn->via[v].syscall);
				fprintf(f, ": %" PRId64, fn->via[v].pairs);
			}
			fprintf(f, " |\n");
		}
		fprintf(f, "\nSystem calls by the windows they opened (COMMAND minus the baseline):\n\n"
			"| system call | calls | pairs | pairs per call |\n"
			"| --- | ---: | ---: | ---: |\n");
		for (size_t k = 0; k < b->nsyscalls && k < top; k++) {
			const struct syscall_count *s = &b->syscalls[k];
			int64_t calls = difference(s->calls, s->baseline_calls);
			char per[32];

			if (syscall_pairs(s) <= 0)
				break;
			fprintf(f, "| ");
			md_text(f, !strcmp(s->name, NO_SYSCALL) ? "(none: faults, interrupts)" :
				s->name);
			fprintf(f, " | %" PRId64 " | %" PRId64 " | %s |\n", calls,
				syscall_pairs(s),
				ratio_text(per, sizeof(per), calls > 0 ?
					   (double)syscall_pairs(s) / (double)calls : NAN));
		}
		fputc('\n', f);
	}
}

int census_command_write_report(FILE *f, const void *arg)
{
	const struct outputs *o = arg;
	const struct command_census *cc = o->cc;
	const struct census_command_inputs *in = o->in;

	fprintf(f, "# User-access windows of ");
	md_code(f, o->command);
	fprintf(f, "\n\nWritten by `smapbench census`: COMMAND ran from this machine's userland in a\n"
		"QEMU TCG guest (`-cpu max`, one vCPU) under the census plugin, once per kernel\n"
		"and SMAP state; the plugin counted the STAC, CLAC and POPF the guest kernel\n"
		"executed and the SYSCALL instructions run in user mode (docs/census.md, \"A\n"
		"census of any command\"). Working directory: ");
	md_code(f, in->cwd);
	fprintf(f, ".\n\n");
	report_counts(f, cc, in);
	report_model(f, in);
	if (o->has_plot)
		fprintf(f, "![pairs per kernel function, SMAP boots](plots/census-sites.png)\n\n");
	report_sites(f, cc, in->top);
	fprintf(f, "## Limits\n\n"
		"- The guest's root is this machine's, over 9p under an overlay: file system\n"
		"  paths (9p, overlayfs) differ from a native ext4 or xfs, so the windows of\n"
		"  file I/O are those of that stack.\n"
		"- One vCPU, no devices beyond 9p: what other CPUs and real devices would do is\n"
		"  not in the counts. Interrupts and kernel threads that ran meanwhile are, in\n"
		"  both intervals, and mostly cancel.\n"
		"- A window is attributed to the system call whose function ran last while no\n"
		"  user code ran since; \"(none)\" is a page fault or interrupt from user mode.\n");
	return ferror(f) ? -1 : 0;
}


/* What a reader of the terminal needs: the counts, the estimate, the warning. */
void census_command_print_summary(const struct outputs *o, FILE *f)
{
	const struct command_census *cc = o->cc;
	char per[32];

	fprintf(f, "census: %s\n", o->command);
	for (size_t i = 0; i < cc->nboots; i++) {
		const struct command_boot *b = &cc->boots[i];

		fprintf(f, "  %-24s %-10s %10" PRId64 " pairs above the baseline (%" PRId64 " of rseq; %.0f with rseq as natively), %" PRId64 " system calls, %s pairs per native second",
			b->command->kernel, b->command->state, b->pairs,
			b->rseq_pairs, b->model_pairs, b->system_calls,
			count_text(per, sizeof(per), o->in->native->median > 0 ?
				   round(b->model_pairs / o->in->native->median) : NAN));
		if (!isnan(b->fraction))
			fprintf(f, "; estimate %.3g%% of the native time [%.3g%%, %.3g%%]",
				100 * b->fraction, 100 * b->fraction_low,
				100 * b->fraction_high);
		else if (isfinite(b->fraction_high))
			fprintf(f, "; not measured, a range: %.3g%% to %.3g%% of the native time",
				100 * b->fraction_low, 100 * b->fraction_high);
		fputc('\n', f);
		if (!strcmp(b->command->state, "smap"))
			for (size_t k = 0; k < b->nfunctions && k < 3; k++)
				if (function_pairs(&b->functions[k]) > 0)
					fprintf(f, "      %-40s %10" PRId64 "\n",
						b->functions[k].name,
						function_pairs(&b->functions[k]));
	}
	if (o->in->cost->known)
		fprintf(f, "census: THE ESTIMATE IS A MODEL: pairs x the isolated cost of one pair / the native time.\n"
			"        It ignores what the pairs do to the pipeline around them; check it with a\n"
			"        SMAP and a clearcpuid=smap boot of the real machine (docs/census.md).\n");
}

