// SPDX-License-Identifier: GPL-2.0
/* test_csv.c - RFC 4180 writing and reading back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rundata/csv.h"
#include "rundata/report.h"
#include "unit.h"

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
		cmocka_unit_test(reads_crlf_and_rejects_garbage),
		cmocka_unit_test(table_by_column_name),
		cmocka_unit_test(row_flags_join_in_order),
	};

	return cmocka_run_group_tests_name("csv", tests, NULL, NULL);
}
