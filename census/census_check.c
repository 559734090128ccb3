// SPDX-License-Identifier: GPL-2.0
/*
 * census_check.c - the census as an oracle (docs/census.md): per kernel
 * and SMAP state, every kmod loop executes the STAC/CLAC the catalogue
 * says, and a SMAP-off boot executes none anywhere. Also the published
 * views of the census: the table of the syscall rows and the plot's data.
 *
 * kmod rows are judged on their loop's scope: what ran while the CPU was
 * in the op x variant function of smapbench.ko, the kernel functions it
 * called included, interrupt-entry CLACs excluded. In that scope, with I
 * iterations (loop-head executions), C calls of the function and A user
 * accesses per iteration (the catalogue's accesses, times the batch for
 * blocks):
 *
 *   inline              STAC = CLAC = A * I + C    (one pair per access,
 *                                                   and nopad's outer one)
 *   nopad               STAC = CLAC = C            (one outer pair per call)
 *   batched, masked     STAC = CLAC = I on a SMAP boot (one per block),
 *                       0 and no STAC/CLAC at all on a SMAP-off boot
 *   kapi                STAC = CLAC = A * I on a SMAP boot (one per call),
 *                       no STAC/CLAC at all on a SMAP-off boot
 *   none (pair, ...)    k * I <= count <= k * I + C for STAC, CLAC and POPF,
 *                       k from the catalogue's brackets column
 *
 * and every syscall and bpf row of a SMAP-off boot executes no STAC and
 * no CLAC at all, entry CLACs included.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "census/census.h"
#include "kmod/uapi/smapbench.h"
#include "suites/kmod/catalogue.h"

enum rule {
	RULE_RAN,
	RULE_INLINE,
	RULE_NOPAD,
	RULE_BLOCK,
	RULE_KAPI,
	RULE_NONE,
	RULE_OFF,
	RULE_COUNT
};

struct tally {
	size_t rows, bad;
	uint64_t iterations, stac, clac, entry_clac, popf;
	char bad_rows[768];
	char skip_why[256];
};

static void note_bad(struct tally *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void note_bad(struct tally *t, const char *fmt, ...)
{
	size_t len = strlen(t->bad_rows);
	va_list ap;

	t->bad++;
	if (t->bad > 3 || len + 8 >= sizeof(t->bad_rows))
		return;
	if (len)
		len += (size_t)snprintf(t->bad_rows + len, sizeof(t->bad_rows) - len, "; ");
	va_start(ap, fmt);
	vsnprintf(t->bad_rows + len, sizeof(t->bad_rows) - len, fmt, ap);
	va_end(ap);
}

static void add_loop(struct tally *t, const struct census_row *r)
{
	t->rows++;
	t->iterations += r->ops;
	t->stac += r->loop.stac;
	t->clac += r->loop.clac - r->loop.entry_clac;
	t->entry_clac += r->loop.entry_clac;
	t->popf += r->loop.popf;
}

static int smap_on(const char *state)
{
	return !strcmp(state, "smap");
}

/* Raw STAC/CLAC run where CPUID has SMAP: every state but cpu-off. */
static int raw_runs(const char *state)
{
	return strcmp(state, "cpu-off") != 0;
}

static void judge_kmod(const struct census_row *r, struct tally *tally)
{
	int op = kmod_op_find(r->op), v = kmod_variant_find(r->variant);
	uint64_t i = r->ops, calls = r->loop_calls, a;
	uint64_t stac = r->loop.stac, clac = r->loop.clac - r->loop.entry_clac;
	uint64_t popf = r->loop.popf;
	struct tally *t;

	if (op < 0 || v < 0) {
		note_bad(&tally[RULE_RAN], "%s: op or variant not in the catalogue",
			 r->name);
		return;
	}
	a = kmod_accesses((unsigned)op, (unsigned)v, r->batch);
	if (!i || !r->has_loop) {
		note_bad(&tally[RULE_RAN], "%s: no iteration counted at its loop head",
			 r->name);
		return;
	}
	switch (v) {
	case SMAPBENCH_VARIANT_INLINE:
		t = &tally[RULE_INLINE];
		add_loop(t, r);
		if (stac != a * i + calls || clac != a * i + calls)
			note_bad(t, "%s: %" PRIu64 " STAC and %" PRIu64
				 " CLAC in %" PRIu64 " iterations of %" PRIu64 " calls (the catalogue says %" PRIu64 " per iteration, and one pair per call)",
				 r->name, stac, clac, i, calls, a);
		break;
	case SMAPBENCH_VARIANT_NOPAD:
		t = &tally[RULE_NOPAD];
		add_loop(t, r);
		if (stac != calls || clac != calls)
			note_bad(t, "%s: %" PRIu64 " STAC and %" PRIu64
				 " CLAC for %" PRIu64 " calls of %" PRIu64
				 " iterations (one pair per call expected)",
				 r->name, stac, clac, calls, i);
		break;
	case SMAPBENCH_VARIANT_BATCHED:
	case SMAPBENCH_VARIANT_MASKED:
		t = &tally[RULE_BLOCK];
		add_loop(t, r);
		if (smap_on(r->state) ? stac != i || clac != i :
		    stac || clac || r->total.stac || r->total.clac)
			note_bad(t, "%s: %" PRIu64 " STAC and %" PRIu64
				 " CLAC in %" PRIu64 " blocks of %lu (whole interval %" PRIu64
				 " and %" PRIu64 ")", r->name, stac, clac, i,
				 r->batch, r->total.stac, r->total.clac);
		break;
	case SMAPBENCH_VARIANT_KAPI:
		t = &tally[RULE_KAPI];
		add_loop(t, r);
		if (smap_on(r->state) ? stac != a * i || clac != a * i :
		    r->total.stac || r->total.clac)
			note_bad(t, "%s: %" PRIu64 " STAC and %" PRIu64
				 " CLAC in %" PRIu64 " iterations of %" PRIu64
				 " accesses (whole interval %" PRIu64 " and %" PRIu64 ")",
				 r->name, stac, clac, i, a, r->total.stac,
				 r->total.clac);
		break;
	default: {
		const struct kmod_brackets *k = &kmod_ops[op].brackets;

		t = &tally[RULE_NONE];
		add_loop(t, r);
		if (stac < k->stac * i || stac > k->stac * i + calls ||
		    clac < k->clac * i || clac > k->clac * i + calls ||
		    popf < k->popf * i || popf > k->popf * i + calls)
			note_bad(t, "%s: %" PRIu64 " STAC, %" PRIu64 " CLAC, %"
				 PRIu64 " POPF in %" PRIu64 " iterations, %"
				 PRIu64 " calls (the catalogue says %u, %u, %u per iteration)",
				 r->name, stac, clac, popf, i, calls, k->stac,
				 k->clac, k->popf);
		break;
	}
	}
}

static const char *const rule_text[RULE_COUNT] = {
	[RULE_RAN] = "every benchmark ran, or was refused for a stated reason",
	[RULE_INLINE] = "kmod inline: one STAC and one CLAC per access, and one pair per loop call",
	[RULE_NOPAD] = "kmod nopad: no STAC/CLAC per iteration, one pair per loop call",
	[RULE_BLOCK] = "kmod batched and masked: one STAC and one CLAC per block",
	[RULE_KAPI] = "kmod kapi: one STAC and one CLAC per call",
	[RULE_NONE] = "kmod bare-instruction loops: the STAC, CLAC and POPF of the catalogue's brackets",
	[RULE_OFF] = "syscall and bpf benchmarks: no STAC and no CLAC at all",
};

/* The text a rule's ok line carries about what it covered. */
static void summary(char *buf, size_t len, enum rule rule, const struct tally *t,
		    const char *state)
{
	if (rule == RULE_RAN) {
		snprintf(buf, len, "%zu ran", t->rows);
		return;
	}
	if (rule == RULE_OFF) {
		snprintf(buf, len, "%zu rows, %" PRIu64 " operations, %" PRIu64
			 " STAC, %" PRIu64 " CLAC", t->rows, t->iterations,
			 t->stac, t->clac);
		return;
	}
	snprintf(buf, len, "%zu rows, %" PRIu64 " iterations; in the loops %"
		 PRIu64 " STAC, %" PRIu64 " CLAC, %" PRIu64 " POPF (+%" PRIu64
		 " interrupt-entry CLAC)%s", t->rows, t->iterations, t->stac,
		 t->clac, t->popf, t->entry_clac,
		 (rule == RULE_BLOCK || rule == RULE_KAPI) && !smap_on(state) ?
		 "; none anywhere in the interval" : "");
}

static int check_boot(const struct census *c, const char *kernel,
		      const char *state, FILE *out)
{
	struct tally tally[RULE_COUNT];
	size_t refused = 0;
	int failures = 0;

	memset(tally, 0, sizeof(tally));
	for (size_t i = 0; i < c->count; i++) {
		const struct census_row *r = &c->rows[i];

		if (strcmp(r->kernel, kernel) || strcmp(r->state, state))
			continue;
		if (!strncmp(r->status, "skipped", 7)) {
			refused++;
			continue;
		}
		if (strcmp(r->status, "ok")) {
			note_bad(&tally[RULE_RAN], "%s: %s", r->name, r->status);
			continue;
		}
		tally[RULE_RAN].rows++;
		if (!strcmp(r->suite, "kmod")) {
			judge_kmod(r, tally);
		} else if (!smap_on(state)) {
			struct tally *t = &tally[RULE_OFF];

			t->rows++;
			t->iterations += r->ops;
			t->stac += r->total.stac;
			t->clac += r->total.clac;
			if (r->total.stac || r->total.clac)
				note_bad(t, "%s: %" PRIu64 " STAC, %" PRIu64
					 " CLAC (%" PRIu64 " at entry) in %"
					 PRIu64 " operations", r->name,
					 r->total.stac, r->total.clac,
					 r->total.entry_clac, r->ops);
		}
	}

	snprintf(tally[RULE_INLINE].skip_why, sizeof(tally[0].skip_why),
		 raw_runs(state) ? "no inline row ran" :
		 "raw STAC/CLAC need SMAP in CPUID (they would raise #UD)");
	snprintf(tally[RULE_NOPAD].skip_why, sizeof(tally[0].skip_why), "%s",
		 tally[RULE_INLINE].skip_why);
	snprintf(tally[RULE_BLOCK].skip_why, sizeof(tally[0].skip_why), "no batched or masked row ran");
	snprintf(tally[RULE_KAPI].skip_why, sizeof(tally[0].skip_why), "no kapi row ran");
	snprintf(tally[RULE_NONE].skip_why, sizeof(tally[0].skip_why), "no bare-instruction row ran");
	snprintf(tally[RULE_OFF].skip_why, sizeof(tally[0].skip_why),
		 smap_on(state) ? "a SMAP boot: STAC/CLAC expected" :
		 "no syscall or bpf row ran");

	for (int rule = 0; rule < RULE_COUNT; rule++) {
		const struct tally *t = &tally[rule];
		char text[512];

		if (rule == RULE_OFF && smap_on(state))
			continue;
		if (t->bad) {
			fprintf(out, "not ok - census %s %s: %s: %zu of %zu rows wrong: %s%s\n",
				kernel, state, rule_text[rule], t->bad,
				t->rows + (rule == RULE_RAN ? t->bad : 0),
				t->bad_rows, t->bad > 3 ? "; ..." : "");
			failures++;
			continue;
		}
		if (!t->rows && rule != RULE_RAN) {
			/* Raw loops cannot run without SMAP in CPUID: expected. */
			fprintf(out, "ok - census %s %s: %s # SKIP %s\n", kernel,
				state, rule_text[rule], t->skip_why);
			continue;
		}
		summary(text, sizeof(text), (enum rule)rule, t, state);
		if (rule == RULE_RAN)
			fprintf(out, "ok - census %s %s: %s: %s, %zu refused\n",
				kernel, state, rule_text[rule], text, refused);
		else
			fprintf(out, "ok - census %s %s: %s: %s\n", kernel, state,
				rule_text[rule], text);
	}
	return failures;
}

/* Each (kernel, state) once, in the order of the rows. */
static int seen_before(const struct census *c, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (!strcmp(c->rows[j].kernel, c->rows[i].kernel) &&
		    !strcmp(c->rows[j].state, c->rows[i].state))
			return 1;
	return 0;
}

int census_check(const struct census *c, FILE *out)
{
	int failures = 0;

	for (size_t i = 0; i < c->count; i++)
		if (!seen_before(c, i))
			failures += check_boot(c, c->rows[i].kernel,
					       c->rows[i].state, out);
	return failures;
}

/* ------------------------------------------------------------ views */

/* The kernels with a SMAP boot, in order of the rows; at most max. */
static size_t smap_kernels(const struct census *c, const char **kernel,
			   size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < c->count; i++) {
		size_t k;

		if (!smap_on(c->rows[i].state))
			continue;
		for (k = 0; k < n && strcmp(kernel[k], c->rows[i].kernel); k++)
			;
		if (k == n && n < max)
			kernel[n++] = c->rows[i].kernel;
	}
	return n;
}

/* Syscall rows of the first SMAP boot that has them, in its order. */
static int first_of_name(const struct census *c, size_t i)
{
	const struct census_row *r = &c->rows[i];

	if (strcmp(r->suite, "syscall") || !smap_on(r->state))
		return 0;
	for (size_t j = 0; j < i; j++)
		if (!strcmp(c->rows[j].name, r->name) &&
		    smap_on(c->rows[j].state))
			return 0;
	return 1;
}

static double per_op(uint64_t count, uint64_t ops)
{
	return ops ? (double)count / (double)ops : 0;
}

void census_table(const struct census *c, FILE *out)
{
	const char *kernel[8];
	size_t nk = smap_kernels(c, kernel, 8);

	fprintf(out, "| benchmark |");
	for (size_t k = 0; k < nk; k++)
		fprintf(out, " %s STAC | CLAC | entry CLAC | kernel insns |", kernel[k]);
	fprintf(out, "\n| --- |");
	for (size_t k = 0; k < nk; k++)
		fprintf(out, " ---: | ---: | ---: | ---: |");
	fputc('\n', out);
	for (size_t i = 0; i < c->count; i++) {
		if (!first_of_name(c, i))
			continue;
		fprintf(out, "| `%s` |", c->rows[i].name);
		for (size_t k = 0; k < nk; k++) {
			const struct census_row *r =
				census_find_row(c, kernel[k], "smap",
						c->rows[i].name);

			if (!r || !r->ops) {
				fprintf(out, " - | - | - | - |");
				continue;
			}
			fprintf(out, " %.4f | %.4f | %.4f | %.0f |",
				per_op(r->total.stac, r->ops),
				per_op(r->total.clac - r->total.entry_clac, r->ops),
				per_op(r->total.entry_clac, r->ops),
				per_op(r->kinsn, r->ops));
		}
		fputc('\n', out);
	}
}

int census_write_plot_data(const struct census *c, FILE *f)
{
	const char *kernel[8];
	size_t nk = smap_kernels(c, kernel, 8), rows = 0;

	fprintf(f, "benchmark");
	for (size_t k = 0; k < nk; k++)
		fprintf(f, ",%s", kernel[k]);
	fputc('\n', f);
	for (size_t i = 0; i < c->count; i++) {
		if (!first_of_name(c, i))
			continue;
		/* gnuplot's tic labels: the name without its suite */
		fprintf(f, "%s", c->rows[i].name + strlen("syscall/"));
		for (size_t k = 0; k < nk; k++) {
			const struct census_row *r =
				census_find_row(c, kernel[k], "smap",
						c->rows[i].name);

			if (r && r->ops)
				fprintf(f, ",%.6g", per_op(r->total.stac, r->ops));
			else
				fprintf(f, ",NaN");
		}
		fputc('\n', f);
		rows++;
	}
	return ferror(f) || !rows || !nk ? -1 : 0;
}
