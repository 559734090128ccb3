// SPDX-License-Identifier: GPL-2.0
/* test_repeat.c - rundir_find_repeat(): a key twice, found by sorting. */
#include <stdio.h>
#include <stdlib.h>

#include "rundata/rundir.h"
#include "unit.h"

static void none_and_one(void **unused)
{
	const char *keys[] = { "a", "b", "c" };
	size_t first = 7, again = 7;

	(void)unused;
	assert_int(rundir_find_repeat(keys, 3, &first, &again), -1, "all differ");
	assert_int(rundir_find_repeat(keys, 1, &first, &again), -1, "one key");
	assert_int(rundir_find_repeat(keys, 0, &first, &again), -1, "none");
	assert_int((int)first, 7, "first untouched");
}

static void earliest_second_appearance(void **unused)
{
	/* b is seen again at 3, a only at 4: b is the one reported */
	const char *keys[] = { "a", "b", "c", "b", "a", "b" };
	size_t first = 0, again = 0;

	(void)unused;
	assert_int(rundir_find_repeat(keys, 6, &first, &again), 0, "a repeat");
	assert_int((int)first, 1, "b first at 1");
	assert_int((int)again, 3, "b again at 3");
}

static void many(void **unused)
{
	enum { N = 100000 };
	const char **keys = malloc(N * sizeof(*keys));
	char (*text)[16] = malloc(N * sizeof(*text));
	size_t first = 0, again = 0;

	(void)unused;
	for (int i = 0; i < N; i++) {
		snprintf(text[i], sizeof(text[i]), "k%d", i);
		keys[i] = text[i];
	}
	assert_int(rundir_find_repeat(keys, N, &first, &again), -1,
		   "100 000 distinct keys");
	keys[N - 1] = keys[12345];
	assert_int(rundir_find_repeat(keys, N, &first, &again), 0,
		   "the last one repeats one");
	assert_int((int)first, 12345, "its first appearance");
	assert_int((int)again, N - 1, "and its second");
	free(keys);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(none_and_one),
		cmocka_unit_test(earliest_second_appearance),
		cmocka_unit_test(many),
	};

	return cmocka_run_group_tests_name("repeat", tests, NULL, NULL);
}
