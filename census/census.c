// SPDX-License-Identifier: GPL-2.0
/*
 * census.c - the census's rows: read from the plugin's output, written to
 * and read from census.csv, and checked against the catalogue (the
 * oracle). See census.h and docs/census.md.
 */
#include "census/census.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "census/census_protocol.h"
#include "kmod/uapi/smapbench.h"
#include "rundata/csv.h"
#include "suites/kmod/catalogue.h"

const char *const census_states[] = { "smap", "clearcpuid", "cpu-off", NULL };

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static struct census_row *new_row(struct census *c)
{
	if (c->count == c->capacity) {
		size_t cap = c->capacity ? c->capacity * 2 : 256;
		struct census_row *p = realloc(c->rows, cap * sizeof(*p));

		if (!p)
			return NULL;
		c->rows = p;
		c->capacity = cap;
	}
	memset(&c->rows[c->count], 0, sizeof(c->rows[0]));
	return &c->rows[c->count++];
}

static int set_status(struct census_row *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int set_status(struct census_row *r, const char *fmt, ...)
{
	char text[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	free(r->status);
	r->status = strdup(text);
	return r->status ? 0 : -1;
}

/*
 * The loop function and loop head of a kmod row, named as the module does:
 * smapbench_<op>_<variant> and smapbench_loop_<op>_<variant>[_<width>].
 * The raw counts of earlier census runs hold older names, which are read
 * too: functions without the prefix (<op>_<variant>, <op>_loop for the
 * ops without a variant: old_func), and, before the heads had names,
 * heads numbered smapbench_loop_<op>_<variant>_<width> by enum value
 * (old_head).
 */
static int kmod_symbols(const struct census_row *r, char *func, size_t flen,
			char *old_func, size_t oflen, char *head, size_t hlen,
			char *old_head, size_t olen)
{
	int op = kmod_op_find(r->op), v = kmod_variant_find(r->variant);
	const char *variant = kmod_variant_name((unsigned)v);
	unsigned long width;

	if (op < 0 || v < 0)
		return -1;
	width = kmod_ops[op].kind & KMOD_OP_PER_WIDTH ? r->size : 0;
	if (width)
		snprintf(head, hlen, "smapbench_loop_%s_%s_%lu",
			 kmod_ops[op].name, variant, width);
	else
		snprintf(head, hlen, "smapbench_loop_%s_%s", kmod_ops[op].name,
			 variant);
	snprintf(old_head, olen, "smapbench_loop_%d_%d_%lu", op, v, width);
	snprintf(func, flen, "smapbench_%s_%s", kmod_ops[op].name, variant);
	if (v == SMAPBENCH_VARIANT_NONE)
		snprintf(old_func, oflen, "%s_loop", kmod_ops[op].name);
	else
		snprintf(old_func, oflen, "%s_%s", kmod_ops[op].name, variant);
	return 0;
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!s || !*s)
		return -1;
	*v = strtoull(s, &end, 10);
	return *end ? -1 : 0;
}

/* "c/s/c/e/p" of an f: field. */
static int parse_scope(const char *s, uint64_t *calls, struct census_counts *n)
{
	return sscanf(s, "%" SCNu64 "/%" SCNu64 "/%" SCNu64 "/%" SCNu64
		      "/%" SCNu64, calls, &n->stac, &n->clac, &n->entry_clac,
		      &n->popf) == 5 ? 0 : -1;
}

/* Split s in place at sep; at most max fields. */
static size_t split(char *s, char sep, char **field, size_t max)
{
	size_t n = 0;

	while (n < max) {
		char *next = strchr(s, sep);

		field[n++] = s;
		if (!next)
			break;
		*next = '\0';
		s = next + 1;
	}
	return n;
}

static int add_site(struct census_row *r, const char *where, size_t len,
		    uint64_t stac)
{
	struct census_site *s = realloc(r->sites, (r->nsites + 1) * sizeof(*s));

	if (!s)
		return -1;
	r->sites = s;
	s += r->nsites;
	s->where = strndup(where, len);
	s->stac = stac;
	r->nsites++;
	return s->where ? 0 : -1;
}

static int add_syscall(struct census_row *r, const char *name, size_t len,
		       uint64_t calls)
{
	struct census_syscall *s = realloc(r->syscalls,
					   (r->nsyscalls + 1) * sizeof(*s));

	if (!s)
		return -1;
	r->syscalls = s;
	s += r->nsyscalls;
	s->name = strndup(name, len);
	s->calls = calls;
	r->nsyscalls++;
	return s->name ? 0 : -1;
}

/*
 * The s:, u:, y: and x: fields of a row record (others are left to the
 * caller). 0, -1 when malformed, -2 on no memory.
 */
static int take_count_field(struct census_row *r, const char *field)
{
	const char *eq = strchr(field, '=');
	uint64_t value;

	if (!eq || field[1] != ':' || !strchr("suyx", field[0]))
		return 0;
	if (parse_u64(eq + 1, &value))
		return -1;
	switch (field[0]) {
	case 's':
		return add_site(r, field + 2, (size_t)(eq - field - 2), value) ?
		       -2 : 0;
	case 'u':
		if (strncmp(field, "u:syscall=", 10))
			return 0;
		r->has_syscalls = 1;
		r->user_syscalls = value;
		return 0;
	case 'y':
		return add_syscall(r, field + 2, (size_t)(eq - field - 2),
				   value) ? -2 : 0;
	default: {
		/* x:<site>@<syscall>: a site's name has no '@' */
		const char *at = memchr(field + 2, '@', (size_t)(eq - field - 2));
		struct census_via *v;

		if (!at)
			return -1;
		v = realloc(r->vias, (r->nvias + 1) * sizeof(*v));
		if (!v)
			return -2;
		r->vias = v;
		v += r->nvias;
		v->where = strndup(field + 2, (size_t)(at - field - 2));
		v->syscall = strndup(at + 1, (size_t)(eq - at - 1));
		v->stac = value;
		r->nvias++;
		return v->where && v->syscall ? 0 : -2;
	}
	}
}

/* A "row" record: label fields, counts, then f:, p:, s:, u:, y:, x: fields. */
static int take_row(struct census *c, const char *kernel, const char *state,
		    char *line, char *err, size_t errlen)
{
	size_t tabs = 1, n, nl;
	char **field, *label[8];
	char func[128] = "", old_func[128] = "", head[128] = "";
	char old_head[128] = "";
	struct census_row *r;
	uint64_t head_runs = 0;
	int found_func = 0, found_head = 0, rc = -1;

	for (const char *p = line; *p; p++)
		tabs += *p == '\t';
	field = malloc(tabs * sizeof(*field));
	if (!field)
		goto nomem;
	n = split(line, '\t', field, tabs);
	if (n < 7) {
		snprintf(err, errlen, "a row record has %zu fields after its kind, not at least 7", n);
		goto out;
	}
	nl = split(field[0], ' ', label, 8);
	if (nl != 6) {
		snprintf(err, errlen, "row label '%s' is not 'name suite op variant size batch'",
			 field[0]);
		goto out;
	}
	r = new_row(c);
	if (!r)
		goto nomem;
	r->kernel = strdup(kernel);
	r->state = strdup(state);
	r->name = strdup(label[0]);
	r->suite = strdup(label[1]);
	r->op = strdup(label[2]);
	r->variant = strdup(label[3]);
	r->size = strtoul(label[4], NULL, 10);
	r->batch = strtoul(label[5], NULL, 10);
	if (!r->kernel || !r->state || !r->name || !r->suite || !r->op ||
	    !r->variant || set_status(r, "ok"))
		goto nomem;
	if (parse_u64(field[1], &r->ops) || parse_u64(field[2], &r->total.stac) ||
	    parse_u64(field[3], &r->total.clac) ||
	    parse_u64(field[4], &r->total.entry_clac) ||
	    parse_u64(field[5], &r->total.popf) || parse_u64(field[6], &r->kinsn)) {
		snprintf(err, errlen, "row %s: a count is not a number", r->name);
		goto out;
	}
	for (size_t i = 7; i < n; i++) {
		int taken = take_count_field(r, field[i]);

		if (taken == -2)
			goto nomem;
		if (taken)
			goto bad;
	}
	if (strcmp(r->suite, "kmod") ||
	    kmod_symbols(r, func, sizeof(func), old_func, sizeof(old_func), head,
			 sizeof(head), old_head, sizeof(old_head))) {
		rc = 0;
		goto out;
	}
	for (size_t i = 7; i < n; i++) {
		char *eq = strchr(field[i], '=');

		if (!eq)
			continue;
		*eq = '\0';
		if (!strncmp(field[i], "f:", 2) &&
		    (!strcmp(field[i] + 2, func) ||
		     !strcmp(field[i] + 2, old_func))) {
			if (parse_scope(eq + 1, &r->loop_calls, &r->loop))
				goto bad;
			found_func = 1;
		} else if (!strncmp(field[i], "p:", 2) &&
			   (!strcmp(field[i] + 2, head) ||
			    !strcmp(field[i] + 2, old_head))) {
			if (parse_u64(eq + 1, &head_runs))
				goto bad;
			found_head = 1;
		}
	}
	r->has_loop = 1;
	r->ops = head_runs;
	rc = 0;
	if (!found_func || !found_head)
		rc = set_status(r, "failed: %s%s%s was not counted (not declared before its code ran, or not in smapbench.ko)",
				found_func ? "" : func,
				!found_func && !found_head ? " and " : "",
				found_head ? "" : head) ? -1 : 0;
	goto out;
bad:
	snprintf(err, errlen, "row %s: malformed f:, p:, s:, u:, y: or x: counts",
		 r->name);
	goto out;
nomem:
	snprintf(err, errlen, "out of memory");
out:
	free(field);
	return rc;
}

/* The row a skip record refers to: the last one of that name, or a new one. */
static int take_skip(struct census *c, size_t first, const char *kernel,
		     const char *state, char *text, char *err, size_t errlen)
{
	char *tab = strchr(text, '\t');
	const char *why = tab ? tab + 1 : "no reason given";
	struct census_row *r = NULL;

	if (tab)
		*tab = '\0';
	for (size_t i = c->count; i > first; i--)
		if (!strcmp(c->rows[i - 1].name, text)) {
			r = &c->rows[i - 1];
			break;
		}
	if (!r) {
		char copy[512], *slash[8];
		size_t n;

		r = new_row(c);
		if (!r)
			goto nomem;
		snprintf(copy, sizeof(copy), "%s", text);
		n = split(copy, '/', slash, 8);
		r->kernel = strdup(kernel);
		r->state = strdup(state);
		r->name = strdup(text);
		r->suite = strdup(slash[0]);
		r->op = strdup(n > 1 ? slash[1] : "");
		r->variant = strdup("");
		if (!r->kernel || !r->state || !r->name || !r->suite || !r->op ||
		    !r->variant)
			goto nomem;
	}
	if (!strncmp(why, "failed: ", 8) ? set_status(r, "%s", why) :
	    set_status(r, "skipped: %s", why))
		goto nomem;
	return 0;
nomem:
	snprintf(err, errlen, "out of memory");
	return -1;
}

/* What the guest said about SMAP must be what the boot was meant to be. */
static int state_agrees(const char *state, int cpuinfo, int cpuid, int cr4,
			char *why, size_t whylen)
{
	int want_cpuinfo = !strcmp(state, "smap");
	int want_cpuid = strcmp(state, "cpu-off") != 0;

	if (cpuinfo != want_cpuinfo || cpuid != want_cpuid ||
	    (cr4 >= 0 && cr4 != want_cpuinfo)) {
		snprintf(why, whylen,
			 "the guest reports smap in cpuinfo=%d, CPUID=%d, CR4=%d; a %s boot has %d, %d, %d",
			 cpuinfo, cpuid, cr4, state, want_cpuinfo, want_cpuid,
			 want_cpuinfo);
		return 0;
	}
	return 1;
}

int census_load_plugin_output(struct census *c, const char *state,
			      const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, kernel[256] = "", cmdline[1024] = "", why[512];
	size_t cap = 0, first = c->count, nrows = 0;
	int cpuinfo = -1, cpuid = -1, cr4 = -1, finished = 0, exited = 0;
	int header = 0, rc = -1;
	unsigned long lineno = 0;
	ssize_t len;

	if (!f) {
		snprintf(err, errlen, "cannot read %s: %m", path);
		return -1;
	}
	while ((len = getline(&line, &cap, f)) > 0) {
		char *tab, *text;

		lineno++;
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		tab = strchr(line, '\t');
		text = tab ? tab + 1 : line + len;
		if (tab)
			*tab = '\0';
		if (!strcmp(line, "census")) {
			if (atoi(text) < CENSUS_PROTOCOL_OLDEST ||
			    atoi(text) > CENSUS_PROTOCOL_VERSION) {
				snprintf(err, errlen, "%s: census protocol %s, this smapbench reads %d to %d",
					 path, text, CENSUS_PROTOCOL_OLDEST,
					 CENSUS_PROTOCOL_VERSION);
				goto out;
			}
			header = 1;
		} else if (!header) {
			snprintf(err, errlen, "%s is not the output of the census plugin", path);
			goto out;
		} else if (!strcmp(line, "error")) {
			snprintf(err, errlen, "%s:%lu: the plugin reports: %s", path,
				 lineno, text);
			goto out;
		} else if (!strcmp(line, "note")) {
			if (sscanf(text, "kernel_release %255s", kernel) == 1)
				continue;
			if (!strncmp(text, "cmdline ", 8))
				snprintf(cmdline, sizeof(cmdline), "%s", text + 8);
			sscanf(text, "smap_cpuinfo %d", &cpuinfo);
			sscanf(text, "smap_cpuid %d", &cpuid);
			sscanf(text, "kmod_smap cpuid=%*d feature=%*d cr4=%d", &cr4);
			if (!strncmp(text, "finished", 8))
				finished = 1;
			if (!strncmp(text, "error ", 6)) {
				snprintf(err, errlen, "%s: the guest reports: %s", path,
					 text + 6);
				goto out;
			}
		} else if (!strcmp(line, "row")) {
			char where[128];

			if (!kernel[0]) {
				snprintf(err, errlen, "%s: rows before the kernel release note", path);
				goto out;
			}
			if (take_row(c, kernel, state, text, why, sizeof(why))) {
				snprintf(where, sizeof(where), "%s:%lu", path, lineno);
				snprintf(err, errlen, "%.128s: %.380s", where, why);
				goto out;
			}
			nrows++;
		} else if (!strcmp(line, "skip")) {
			if (take_skip(c, first, kernel, state, text, why, sizeof(why))) {
				snprintf(err, errlen, "%s: %s", path, why);
				goto out;
			}
		} else if (!strcmp(line, "exit")) {
			exited = 1;
		}
	}
	if (!header) {
		snprintf(err, errlen, "%s is empty: QEMU did not load the census plugin", path);
		goto out;
	}
	if (!finished || !exited) {
		snprintf(err, errlen, "%s: the guest %s (see the boot's console log)",
			 path, !finished ? "did not finish the census" :
			 "did not power off cleanly");
		goto out;
	}
	if (!state_agrees(state, cpuinfo, cpuid, cr4, why, sizeof(why))) {
		snprintf(err, errlen, "%s: %s", path, why);
		goto out;
	}
	{
		char boot[2048], **p = realloc(c->boots, (c->nboots + 1) * sizeof(*p));

		if (!p)
			goto nomem;
		c->boots = p;
		snprintf(boot, sizeof(boot), "%s %s rows=%zu cmdline=%s", kernel,
			 state, nrows, cmdline);
		c->boots[c->nboots] = strdup(boot);
		if (!c->boots[c->nboots])
			goto nomem;
		c->nboots++;
	}
	rc = 0;
	goto out;
nomem:
	snprintf(err, errlen, "out of memory");
out:
	free(line);
	fclose(f);
	return rc;
}

/* ------------------------------------------------------------ CSV */

static const char *const columns[] = {
	"kernel", "smap_state", "name", "suite", "op", "variant", "size",
	"batch", "ops", "stac", "clac", "entry_clac", "popf", "kinsn",
	"stac_per_op", "clac_per_op", "entry_clac_per_op", "popf_per_op",
	"kinsn_per_op", "loop_calls", "loop_stac", "loop_clac",
	"loop_entry_clac", "loop_popf", "status",
};
#define NCOLUMNS (sizeof(columns) / sizeof(columns[0]))

static void field_rate(struct csv_writer *w, uint64_t count, uint64_t ops)
{
	if (ops)
		csv_field_double(w, (double)count / (double)ops);
	else
		csv_field(w, "");
}

static void field_count(struct csv_writer *w, uint64_t count, int present)
{
	if (present)
		csv_field_uint(w, count);
	else
		csv_field(w, "");
}

int census_write_csv(const struct census *c, FILE *f)
{
	struct csv_writer w;

	csv_writer_init(&w, f);
	csv_row(&w, columns, NCOLUMNS);
	for (size_t i = 0; i < c->count; i++) {
		const struct census_row *r = &c->rows[i];
		int counted = !strcmp(r->status, "ok") ||
			      !strncmp(r->status, "failed", 6) || r->ops;

		csv_field(&w, r->kernel);
		csv_field(&w, r->state);
		csv_field(&w, r->name);
		csv_field(&w, r->suite);
		csv_field(&w, r->op);
		csv_field(&w, r->variant);
		csv_field_uint(&w, r->size);
		csv_field_uint(&w, r->batch);
		field_count(&w, r->ops, counted);
		field_count(&w, r->total.stac, counted);
		field_count(&w, r->total.clac, counted);
		field_count(&w, r->total.entry_clac, counted);
		field_count(&w, r->total.popf, counted);
		field_count(&w, r->kinsn, counted);
		field_rate(&w, r->total.stac, r->ops);
		field_rate(&w, r->total.clac, r->ops);
		field_rate(&w, r->total.entry_clac, r->ops);
		field_rate(&w, r->total.popf, r->ops);
		field_rate(&w, r->kinsn, r->ops);
		field_count(&w, r->loop_calls, r->has_loop);
		field_count(&w, r->loop.stac, r->has_loop);
		field_count(&w, r->loop.clac, r->has_loop);
		field_count(&w, r->loop.entry_clac, r->has_loop);
		field_count(&w, r->loop.popf, r->has_loop);
		csv_field(&w, r->status);
		csv_end_row(&w);
	}
	return csv_writer_error(&w) ? -1 : 0;
}

int census_load_csv(struct census *c, const char *path, char *err,
		    size_t errlen)
{
	struct csv_table t;
	int rc = -1;

	if (csv_table_load(path, &t, err, errlen))
		return -1;
	for (size_t i = 0; i < NCOLUMNS; i++)
		if (csv_table_column(&t, columns[i]) < 0) {
			snprintf(err, errlen, "%s has no column %s (docs/schema.md)",
				 path, columns[i]);
			goto out;
		}
	for (size_t i = 0; i < t.count; i++) {
		struct census_row *r = new_row(c);
		const char *loop = csv_table_get(&t, i, "loop_calls");

		if (!r) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
		r->kernel = dup_or_null(csv_table_get(&t, i, "kernel"));
		r->state = dup_or_null(csv_table_get(&t, i, "smap_state"));
		r->name = dup_or_null(csv_table_get(&t, i, "name"));
		r->suite = dup_or_null(csv_table_get(&t, i, "suite"));
		r->op = dup_or_null(csv_table_get(&t, i, "op"));
		r->variant = dup_or_null(csv_table_get(&t, i, "variant"));
		r->status = dup_or_null(csv_table_get(&t, i, "status"));
		if (!r->kernel || !r->state || !r->name || !r->suite || !r->op ||
		    !r->variant || !r->status) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
		r->size = strtoul(csv_table_get(&t, i, "size"), NULL, 10);
		r->batch = strtoul(csv_table_get(&t, i, "batch"), NULL, 10);
		r->has_loop = loop && *loop;
		/* Empty counts (skipped rows) stay 0. */
		struct {
			const char *column;
			uint64_t *value;
		} counts[] = {
			{ "ops", &r->ops }, { "stac", &r->total.stac },
			{ "clac", &r->total.clac },
			{ "entry_clac", &r->total.entry_clac },
			{ "popf", &r->total.popf }, { "kinsn", &r->kinsn },
			{ "loop_calls", &r->loop_calls },
			{ "loop_stac", &r->loop.stac },
			{ "loop_clac", &r->loop.clac },
			{ "loop_entry_clac", &r->loop.entry_clac },
			{ "loop_popf", &r->loop.popf },
		};
		for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
			const char *v = csv_table_get(&t, i, counts[k].column);

			if (*v && parse_u64(v, counts[k].value)) {
				snprintf(err, errlen, "%s: row %zu: %s '%s' is not a count",
					 path, i + 2, counts[k].column, v);
				goto out;
			}
		}
	}
	rc = 0;
out:
	csv_table_free(&t);
	return rc;
}

const struct census_row *census_find_row(const struct census *c,
					 const char *kernel, const char *state,
					 const char *name)
{
	for (size_t i = 0; i < c->count; i++)
		if (!strcmp(c->rows[i].kernel, kernel) &&
		    !strcmp(c->rows[i].state, state) &&
		    !strcmp(c->rows[i].name, name))
			return &c->rows[i];
	return NULL;
}

void census_free(struct census *c)
{
	for (size_t i = 0; i < c->count; i++) {
		struct census_row *r = &c->rows[i];

		free(r->kernel);
		free(r->state);
		free(r->name);
		free(r->suite);
		free(r->op);
		free(r->variant);
		free(r->status);
		for (size_t k = 0; k < r->nsites; k++)
			free(r->sites[k].where);
		free(r->sites);
		for (size_t k = 0; k < r->nsyscalls; k++)
			free(r->syscalls[k].name);
		free(r->syscalls);
		for (size_t k = 0; k < r->nvias; k++) {
			free(r->vias[k].where);
			free(r->vias[k].syscall);
		}
		free(r->vias);
	}
	free(c->rows);
	for (size_t i = 0; i < c->nboots; i++)
		free(c->boots[i]);
	free(c->boots);
	memset(c, 0, sizeof(*c));
}

/* ------------------------------------------------------------ STAC sites */

int census_write_sites_csv(const struct census *c, FILE *f)
{
	static const char *const header[] = {
		"kernel", "smap_state", "name", "site", "stac", "stac_per_op",
	};
	struct csv_writer w;

	csv_writer_init(&w, f);
	csv_row(&w, header, sizeof(header) / sizeof(header[0]));
	for (size_t i = 0; i < c->count; i++) {
		const struct census_row *r = &c->rows[i];

		for (size_t k = 0; k < r->nsites; k++) {
			csv_field(&w, r->kernel);
			csv_field(&w, r->state);
			csv_field(&w, r->name);
			csv_field(&w, r->sites[k].where);
			csv_field_uint(&w, r->sites[k].stac);
			field_rate(&w, r->sites[k].stac, r->ops);
			csv_end_row(&w);
		}
	}
	return csv_writer_error(&w) ? -1 : 0;
}

void census_site_function(const char *where, char *out, size_t len)
{
	const char *plus = strrchr(where, '+');

	snprintf(out, len, "%.*s",
		 (int)(plus ? (size_t)(plus - where) : strlen(where)), where);
}
