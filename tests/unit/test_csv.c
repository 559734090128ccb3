// SPDX-License-Identifier: GPL-2.0
/* test_csv.c - RFC 4180 writing and reading back. */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive/run_archive.h"
#include "rundata/csv.h"
#include "rundata/report.h"
#include "rundata/rundir.h"
#include "unit.h"

/*
 * Every allocation of this program is counted, to know the most bytes
 * held at once: what a memory limit refuses is the peak, temporaries
 * (a sort's buffer, a copy of the samples) included. glibc's own entry
 * points do the work. A realloc counts as its change of size: glibc
 * moves a large (mmapped) block with mremap, never holding both copies,
 * and copies only blocks below its mmap threshold (at most 32 MiB).
 */
void *__libc_malloc(size_t size);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t size);
void __libc_free(void *p);

static long long held_now, held_peak;

static void held_add(long long bytes)
{
	held_now += bytes;
	if (held_now > held_peak)
		held_peak = held_now;
}

static long long usable(void *p)
{
	return p ? (long long)malloc_usable_size(p) : 0;
}

void *malloc(size_t size)
{
	void *p = __libc_malloc(size);

	held_add(usable(p));
	return p;
}

void *calloc(size_t n, size_t size)
{
	void *p = __libc_calloc(n, size);

	held_add(usable(p));
	return p;
}

void *realloc(void *p, size_t size)
{
	long long before = usable(p);
	void *q = __libc_realloc(p, size);

	if (q || !size)
		held_add(usable(q) - before);
	return q;
}

void free(void *p)
{
	held_add(-usable(p));
	__libc_free(p);
}

static const char *const tricky[] = {
	"plain", "with,comma", "with \"quotes\"", "multi\nline", "",
	"crlf\r\ninside", "trailing space ", "\"", "ünïcødé",
};
#define NTRICKY (sizeof(tricky) / sizeof(tricky[0]))

static FILE *write_rows(void)
{
	FILE *f = tmpfile();
	struct csv_writer w;

	assert_non_null(f);
	csv_writer_init(&w, f);
	csv_row(&w, tricky, NTRICKY);
	csv_field_int(&w, -42);
	csv_field_uint(&w, 18446744073709551615ULL);
	csv_field_double(&w, 0.1234567891);
	csv_field_double(&w, NAN);
	csv_field_double(&w, 1e-30);
	csv_end_row(&w);
	assert_int(csv_writer_error(&w), 0, "writer error");
	rewind(f);
	return f;
}

static void round_trip(void **unused)
{
	FILE *f = write_rows();
	struct csv_row row = { 0 };
	unsigned long line = 0;

	(void)unused;
	assert_int(csv_read_row(f, &row, &line), 1, "first record");
	assert_int(row.count, NTRICKY, "field count");
	for (unsigned i = 0; i < NTRICKY; i++)
		assert_str(row.fields[i], tricky[i], "field read back");
	assert_int(csv_read_row(f, &row, &line), 1, "second record");
	assert_int(row.count, 5, "numeric field count");
	assert_str(row.fields[0], "-42", "int");
	assert_str(row.fields[1], "18446744073709551615", "uint64 max");
	assert_str(row.fields[2], "0.123457", "%.6g");
	assert_str(row.fields[3], "", "NaN is empty");
	assert_str(row.fields[4], "1e-30", "tiny number");
	assert_int(csv_read_row(f, &row, &line), 0, "end of file");
	csv_row_free(&row);
	fclose(f);
}

static void quoting_is_minimal(void **unused)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct csv_writer w;
	const char *fields[] = { "a", "b,c", "d\"e" };

	(void)unused;
	csv_writer_init(&w, f);
	csv_row(&w, fields, 3);
	fclose(f);
	assert_str(buf, "a,\"b,c\",\"d\"\"e\"\n", "written row");
	free(buf);
}

/*
 * Text from outside input that a spreadsheet would run as a formula gets
 * a single quote before it, inside the quotes when the field has them;
 * other text, and numbers written as numbers, are left as they are.
 */
static void outside_text_is_not_a_formula(void **unused)
{
	static const char *const text[] = {
		"=HYPERLINK(\"http://e\")", "+1", "-2", "@SUM(A1)", "\tx",
		"Intel(R) Xeon(R)", "", "a=b", "'quoted",
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct csv_writer w;

	(void)unused;
	csv_writer_init(&w, f);
	for (size_t i = 0; i < sizeof(text) / sizeof(*text); i++)
		csv_field_text(&w, text[i]);
	csv_field_double(&w, -2.5);
	csv_end_row(&w);
	fclose(f);
	assert_str(buf, "\"'=HYPERLINK(\"\"http://e\"\")\",'+1,'-2,'@SUM(A1),'\tx,"
		   "Intel(R) Xeon(R),,a=b,'quoted,-2.5\n", "written row");
	free(buf);
}

static FILE *from_text(const char *text)
{
	FILE *f = tmpfile();

	fputs(text, f);
	rewind(f);
	return f;
}

static void reads_crlf_and_rejects_garbage(void **unused)
{
	struct csv_row row = { 0 };
	FILE *f = from_text("a,b\r\n\"x\"\"y\",\r\n");

	(void)unused;
	assert_int(csv_read_row(f, &row, NULL), 1, "CRLF record");
	assert_str(row.fields[1], "b", "no CR in field");
	assert_int(csv_read_row(f, &row, NULL), 1, "second CRLF record");
	assert_str(row.fields[0], "x\"y", "doubled quote");
	assert_str(row.fields[1], "", "empty last field");
	fclose(f);
	f = from_text("a,b\"c\n");
	assert_int(csv_read_row(f, &row, NULL), -1, "quote inside a bare field");
	fclose(f);
	f = from_text("\"unterminated\n");
	assert_int(csv_read_row(f, &row, NULL), -1, "unterminated quote");
	fclose(f);
	f = from_text("\"a\"b\n");
	assert_int(csv_read_row(f, &row, NULL), -1, "text after closing quote");
	fclose(f);
	csv_row_free(&row);
}

static void table_by_column_name(void **unused)
{
	char path[] = "/tmp/smapbench-csv-XXXXXX", err[256];
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	struct csv_table t;

	(void)unused;
	fputs("name,median\nsyscall/getppid,123.5\n\"a,b\",7\n", f);
	fclose(f);
	assert_int(csv_table_load(path, &t, err, sizeof(err)), 0, err);
	assert_int(t.count, 2, "rows");
	assert_int(csv_table_column(&t, "median"), 1, "column index");
	assert_int(csv_table_column(&t, "nope"), -1, "missing column");
	assert_str(csv_table_get(&t, 1, "name"), "a,b", "quoted name");
	assert_str(csv_table_get(&t, 0, "median"), "123.5", "value");
	assert_null(csv_table_get(&t, 5, "median"));
	csv_table_free(&t);

	f = fopen(path, "w");
	fputs("a,b\n1,2,3\n", f);
	fclose(f);
	assert_int(csv_table_load(path, &t, err, sizeof(err)), -1, "ragged row");
	if (!strstr(err, ":2:"))
		fail_msg("error should name line 2: %s", err);
	unlink(path);
	assert_int(csv_table_load(path, &t, err, sizeof(err)), -1, "missing file");
	if (!strstr(err, "cannot open"))
		fail_msg("error should say it cannot open: %s", err);
}

static void a_cell_as_a_number(void **unused)
{
	(void)unused;
	assert_near(csv_number("123.5"), 123.5, 0, "123.5");
	assert_near(csv_number("-2e3"), -2000, 0, "-2e3");
	assert_true(isnan(csv_number(NULL)));
	assert_true(isnan(csv_number("")));
	assert_true(isnan(csv_number("12 ns")));
	assert_true(isnan(csv_number("x")));
	/* out of range: rounded, as strtod() does, never unknown */
	assert_true(isinf(csv_number("1e999")) && csv_number("1e999") > 0);
	assert_true(isinf(csv_number("-1e999")) && csv_number("-1e999") < 0);
	assert_near(csv_number("1e-400"), 0, 0, "1e-400");
	assert_true(csv_number("5e-324") > 0);
}

static void write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(text, 1, len, f) != len || fclose(f))
		fail_msg("cannot write %s", path);
}

/* The table and the record-at-a-time reader read every input alike. */
static void table_agrees_with_row_reader(void **unused)
{
	static const char *const texts[] = {
		"a,b\n1,2\n",
		"a,b\r\n1,2\r\n3,4",
		"name,v\n\"x,y\",\"say \"\"hi\"\"\"\n,\n\"\",\"\"\n",
		"h1,\"h\n2\"\n\"line\none\",2\n3,\"two\r\nlines\"\nlast,5",
		"solo\nx\n\"\"\ny",
	};
	char path[] = "/tmp/smapbench-csv-XXXXXX", err[256];
	int fd = mkstemp(path);

	(void)unused;
	close(fd);
	for (size_t k = 0; k < sizeof(texts) / sizeof(texts[0]); k++) {
		struct csv_table t;
		struct csv_row row = { 0 };
		unsigned long line = 0, start;
		size_t r = 0;
		FILE *f;

		write_file(path, texts[k], strlen(texts[k]));
		assert_int(csv_table_load(path, &t, err, sizeof(err)), 0, err);
		f = fopen(path, "rb");
		assert_int(csv_read_row(f, &row, &line), 1, "header");
		assert_int(t.columns, row.count, "columns");
		for (unsigned c = 0; c < row.count; c++)
			assert_str(csv_table_name(&t, c), row.fields[c], "name");
		assert_null(csv_table_name(&t, row.count));
		for (;;) {
			start = line + 1;
			if (csv_read_row(f, &row, &line) != 1)
				break;
			assert_true(r < t.count);
			for (unsigned c = 0; c < row.count; c++)
				assert_str(csv_table_cell(&t, r, c), row.fields[c],
					   "cell");
			assert_null(csv_table_cell(&t, r, row.count));
			assert_int(csv_table_line(&t, r), start, "line");
			r++;
		}
		assert_int(r, t.count, "records");
		/* out of order too: the cursor starts again */
		if (t.count > 1)
			assert_int(csv_table_line(&t, 0) + 1 <= csv_table_line(&t, 1),
				   1, "lines grow");
		fclose(f);
		csv_row_free(&row);
		csv_table_free(&t);
	}
	unlink(path);
}

/* What no table may hold is refused, naming the line. */
static void table_refuses_malformed(void **unused)
{
	static const struct {
		const char *text;
		size_t len;
		const char *where;
	} bad[] = {
		{ "a,b\n1,2\n\n3,4\n", 13, ":3: empty line" },
		{ "a\nx\n\n", 5, ":3: empty line" },
		{ "a,b\n1,\"2\n", 9, ":2: malformed" },
		{ "a,b\n1,2\r3,4\n", 12, ":2: malformed" },
		{ "a,b\n1,x\"y\"\n", 11, ":2: malformed" },
		{ "a,b\n\"1\"x,2\n", 11, ":2: malformed" },
		{ "a,b\n1,2\n3,\0\n", 12, ":3: malformed" },
		{ "a,b\n\"x\ny\",2\n1\n", 14, ":4: wrong number" },
		{ "", 0, "empty file" },
		{ "\"a\n", 3, "malformed header" },
	};
	char path[] = "/tmp/smapbench-csv-XXXXXX", err[256];
	int fd = mkstemp(path);
	struct csv_table t;

	(void)unused;
	close(fd);
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		write_file(path, bad[k].text, bad[k].len);
		assert_int(csv_table_load(path, &t, err, sizeof(err)), -1,
			   bad[k].where);
		if (!strstr(err, bad[k].where))
			fail_msg("case %zu: '%s' does not say '%s'", k, err,
				 bad[k].where);
		assert_null(t.text);
	}
	unlink(path);
	assert_int(csv_table_load("/dev/null", &t, err, sizeof(err)), -1,
		   "not a regular file");
	if (!strstr(err, "not a regular file"))
		fail_msg("/dev/null: %s", err);
}

/*
 * The input that cost the most per byte before (1 MiB of ",\n" records
 * under a two-column header): the loaded table holds at most 4 bytes per
 * byte of the file, as docs/bad-input.md promises.
 */
static void table_memory_is_bounded(void **unused)
{
	const size_t records = 512 * 1024, size = 4 + 2 * records;
	char path[] = "/tmp/smapbench-csv-XXXXXX", err[256];
	int fd = mkstemp(path);
	char *text = malloc(size);
	struct mallinfo2 before, after;
	struct csv_table t;

	(void)unused;
	close(fd);
	assert_non_null(text);
	memcpy(text, "a,b\n", 4);
	for (size_t i = 0; i < records; i++)
		memcpy(text + 4 + 2 * i, ",\n", 2);
	write_file(path, text, size);
	free(text);
	before = mallinfo2();
	assert_int(csv_table_load(path, &t, err, sizeof(err)), 0, err);
	after = mallinfo2();
	assert_int(t.count, records, "records");
	assert_str(csv_table_cell(&t, records - 1, 1), "", "last cell");
	assert_int(csv_table_line(&t, records - 1), records + 1, "last line");
	{
		size_t held = (after.uordblks + after.hblkhd) -
			      (before.uordblks + before.hblkhd);

		print_message("# %zu bytes of CSV held in %zu bytes (%.2fx)\n",
			      size, held, (double)held / size);
		if (held > 4 * size + 65536)
			fail_msg("%zu bytes held for %zu of input", held, size);
	}
	csv_table_free(&t);
	unlink(path);
}

/*
 * samples.csv is streamed, and what a run keeps of it, and import's
 * check of its medians, hold at most 4 bytes per byte of the file at
 * any moment (docs/contributing-runs.md). The rows that cost the most
 * per byte: "a,1" without a repetition column (4 bytes a sample, all of
 * one repetition); "a,V,R" with ten repetitions interleaved (6 bytes,
 * and the medians check sorts a copy); a repetition per sample (a
 * median each). A sample once cost 40 to 66 bytes (doubled arrays of
 * 16, a copy of 16 and qsort's buffer of as much): 256 MiB of
 * samples.csv, as an archive may hold, some 4 GB.
 */
static void samples_memory_is_bounded(void **unused)
{
	static const struct {
		const char *what, *header, *results;
		int repetitions;	/* 0: none, else how many */
	} kinds[] = {
		{ "one repetition", "name,value\n",
		  "name,median,min,samples\na,1,1,5242880\n", 0 },
		{ "ten repetitions", "name,value,repetition\n",
		  "name,median,min,samples\na,5.5,1,5242880\n", 10 },
		{ "a repetition per sample", "name,value,repetition\n",
		  "name,median,min,samples\na,1,1,5242880\n",
		  RUNDIR_MAX_REPETITION + 1 },
	};
	const size_t samples = 5 << 20;

	(void)unused;
	for (size_t k = 0; k < sizeof(kinds) / sizeof(*kinds); k++) {
		char dir[] = "/tmp/smapbench-samples-XXXXXX", results[64];
		char samples_csv[64], err[256];
		size_t reps = kinds[k].repetitions, size;
		long long start, peak, held;
		struct run_dir run;
		FILE *f;

		assert_non_null(mkdtemp(dir));
		snprintf(results, sizeof(results), "%s/results.csv", dir);
		write_file(results, kinds[k].results, strlen(kinds[k].results));
		snprintf(samples_csv, sizeof(samples_csv), "%s/samples.csv", dir);
		f = fopen(samples_csv, "w");
		assert_non_null(f);
		fputs(kinds[k].header, f);
		for (size_t i = 0; i < samples; i++)
			if (reps == 10)	/* descending by repetition: not sorted */
				fprintf(f, "a,%zu,%zu\n", 10 - i % 10, i % 10);
			else if (reps)
				fprintf(f, "a,1,%zu\n", i % reps);
			else
				fputs("a,1\n", f);
		size = (size_t)ftell(f);
		assert_int(fclose(f), 0, "writing samples.csv");
		start = held_peak = held_now;
		if (rundir_load(dir, &run, err, sizeof(err)))
			fail_msg("%s: %s", kinds[k].what, err);
		if (run_check_results(&run, results, err, sizeof(err)))
			fail_msg("%s: %s", kinds[k].what, err);
		peak = held_peak - start;
		held = held_now - start;
		assert_int(run.bench[0].count, samples, "samples loaded");
		assert_int(run.bench[0].repetitions, reps ? reps : 1, "repetitions");
		assert_near(run.bench[0].center, reps == 10 ? 5.5 : 1, 1e-12, "center");
		print_message("# %s: %zu bytes of samples.csv, %lld held (%.2fx), "
			      "%lld at the peak (%.2fx)\n", kinds[k].what, size,
			      held, (double)held / size, peak, (double)peak / size);
		if (peak > 4 * (long long)size + (16 << 20))
			fail_msg("%s: %lld bytes at the peak for %zu of samples.csv",
				 kinds[k].what, peak, size);
		rundir_free(&run);
		unlink(samples_csv);
		unlink(results);
		rmdir(dir);
	}
}

/*
 * Counts in results.csv are converted from doubles, and a conversion out
 * of unsigned long's range is undefined: an imported run may say 1e300.
 */
static void counts_out_of_range_read_as_none(void **unused)
{
	static const char text[] =
		"suite,op,variant,size,batch,name,median,min,samples,iterations\n"
		"syscall,read,plain,1e300,-1,syscall/read/1,5,4,1e30,1e19\n";
	char dir[] = "/tmp/smapbench-test_csv.XXXXXX", results[64];
	char err[256];
	struct run_dir run;

	(void)unused;
	assert_non_null(mkdtemp(dir));
	snprintf(results, sizeof(results), "%s/results.csv", dir);
	write_file(results, text, strlen(text));
	if (rundir_load(dir, &run, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int(run.count, 1, "rows");
	assert_int(run.bench[0].size, 0, "size 1e300");
	assert_int(run.bench[0].batch, 0, "batch -1");
	assert_int(run.bench[0].samples, 0, "samples 1e30");
	assert_int(run.bench[0].iterations, 10000000000000000000UL,
		   "iterations 1e19, in range");
	rundir_free(&run);
	unlink(results);
	rmdir(dir);
}

/*
 * One line of commas cost the row reader 64 bytes per byte, a field per
 * comma: a samples.csv of 256 MiB, as an archive may hold, some 16 GiB.
 * A record now costs at most CSV_ROW_MAX_BYTES and 16 bytes per field,
 * and a longer one is refused as such.
 */
static void row_memory_is_bounded(void **unused)
{
	const size_t size = 4 * CSV_ROW_MAX_BYTES;
	char *text = malloc(size + 1);
	struct csv_row row = { 0 };
	struct mallinfo2 before, after;
	unsigned long line = 0;
	size_t held;
	FILE *f;

	(void)unused;
	assert_non_null(text);
	memset(text, ',', size);
	text[size] = '\n';
	f = fmemopen(text, size + 1, "r");
	assert_non_null(f);
	before = mallinfo2();
	assert_int(csv_read_row(f, &row, &line), -2, "a record over the limit");
	after = mallinfo2();
	held = (after.uordblks + after.hblkhd) - (before.uordblks + before.hblkhd);
	print_message("# %zu bytes of commas: refused holding %zu bytes\n",
		      size, held);
	if (held > 17 * (size_t)CSV_ROW_MAX_BYTES + 65536)
		fail_msg("%zu bytes held for one record", held);
	csv_row_free(&row);
	fclose(f);
	/* a field just under the limit is read, and the record after it */
	memset(text, 'x', CSV_ROW_MAX_BYTES - 1);
	memcpy(text + CSV_ROW_MAX_BYTES - 1, "\na,b\n", 5);
	f = fmemopen(text, CSV_ROW_MAX_BYTES + 4, "r");
	assert_non_null(f);
	assert_int(csv_read_row(f, &row, &line), 1, "a record at the limit");
	assert_int(strlen(row.fields[0]), CSV_ROW_MAX_BYTES - 1, "its field");
	assert_int(csv_read_row(f, &row, &line), 1, "the next record");
	assert_str(row.fields[1], "b", "its second field");
	csv_row_free(&row);
	fclose(f);
	free(text);
}

static void row_flags_join_in_order(void **unused)
{
	static const struct benchmark b = { .name = "x" };
	struct result res = { .bench = &b };
	struct report rep = { .run_flags = "tcg;unpinned" };
	char buf[128];

	(void)unused;
	report_row_flags(&rep, &res, buf, sizeof(buf));
	assert_str(buf, "tcg;unpinned", "run flags only");
	res.flags = RESULT_CLAMPED | RESULT_NOISY | RESULT_PREEMPTED;
	report_row_flags(&rep, &res, buf, sizeof(buf));
	assert_str(buf, "clamped;tcg;unpinned;noisy;preempted", "all flags");
	rep.run_flags = "";
	res.flags = RESULT_NOISY;
	report_row_flags(&rep, &res, buf, sizeof(buf));
	assert_str(buf, "noisy", "one flag, no separator");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(quoting_is_minimal),
		cmocka_unit_test(outside_text_is_not_a_formula),
		cmocka_unit_test(reads_crlf_and_rejects_garbage),
		cmocka_unit_test(table_by_column_name),
		cmocka_unit_test(a_cell_as_a_number),
		cmocka_unit_test(table_agrees_with_row_reader),
		cmocka_unit_test(table_refuses_malformed),
		cmocka_unit_test(table_memory_is_bounded),
		cmocka_unit_test(row_memory_is_bounded),
		cmocka_unit_test(samples_memory_is_bounded),
		cmocka_unit_test(row_flags_join_in_order),
		cmocka_unit_test(counts_out_of_range_read_as_none),
	};

	return cmocka_run_group_tests_name("csv", tests, NULL, NULL);
}
