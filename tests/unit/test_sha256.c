// SPDX-License-Identifier: GPL-2.0
/*
 * test_sha256.c - SHA-256 against the FIPS 180-2 examples, HMAC-SHA256
 * against RFC 4231's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure/sha256.h"
#include "unit.h"

/* FIPS 180-2, appendix B.1, B.2 and B.3. */
#define ABC_DIGEST \
	"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
#define TWO_BLOCK_MESSAGE \
	"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
#define TWO_BLOCK_DIGEST \
	"248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
#define MILLION_A_DIGEST \
	"cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
/* The empty message (FIPS 180-2 gives none; the well-known value). */
#define EMPTY_DIGEST \
	"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

static void one_block(void **unused)
{
	char hex[SHA256_HEX_SIZE];

	(void)unused;
	sha256_hex("abc", 3, hex);
	assert_str(hex, ABC_DIGEST, "SHA-256(\"abc\")");
	sha256_hex("", 0, hex);
	assert_str(hex, EMPTY_DIGEST, "SHA-256 of nothing");
}

static void two_blocks(void **unused)
{
	char hex[SHA256_HEX_SIZE];

	(void)unused;
	assert_int(strlen(TWO_BLOCK_MESSAGE), 56, "the 448-bit message");
	sha256_hex(TWO_BLOCK_MESSAGE, strlen(TWO_BLOCK_MESSAGE), hex);
	assert_str(hex, TWO_BLOCK_DIGEST, "SHA-256 of the 448-bit message");
}

static void million_a(void **unused)
{
	char *message = malloc(1000000), hex[SHA256_HEX_SIZE];

	(void)unused;
	assert_non_null(message);
	memset(message, 'a', 1000000);
	sha256_hex(message, 1000000, hex);
	free(message);
	assert_str(hex, MILLION_A_DIGEST, "SHA-256 of one million 'a'");
}

/*
 * Fed in pieces of every length from 1 to 130 bytes (across block and
 * padding boundaries), the digest is the one-call digest.
 */
static void pieces_equal_whole(void **unused)
{
	uint8_t message[1000], digest[SHA256_DIGEST_SIZE];
	char whole[SHA256_HEX_SIZE], pieces[SHA256_HEX_SIZE], what[64];

	(void)unused;
	for (size_t i = 0; i < sizeof(message); i++)
		message[i] = (uint8_t)(i * 131 + 7);
	for (size_t len = 0; len <= sizeof(message); len += len < 140 ? 1 : 97) {
		sha256_hex(message, len, whole);
		for (size_t piece = 1; piece <= 130; piece += piece < 10 ? 1 : 11) {
			struct sha256 s;

			sha256_init(&s);
			for (size_t off = 0; off < len; off += piece)
				sha256_update(&s, message + off,
					      len - off < piece ? len - off : piece);
			sha256_final(&s, digest);
			sha256_to_hex(digest, pieces);
			snprintf(what, sizeof(what), "%zu bytes in pieces of %zu",
				 len, piece);
			assert_str(pieces, whole, what);
		}
	}
	/* The million 'a' one byte, then 999 bytes, at a time. */
	{
		struct sha256 s;
		char a[999];

		memset(a, 'a', sizeof(a));
		sha256_init(&s);
		for (int i = 0; i < 1000; i++) {
			sha256_update(&s, a, 1);
			sha256_update(&s, a, sizeof(a));
		}
		sha256_final(&s, digest);
		sha256_to_hex(digest, pieces);
		assert_str(pieces, MILLION_A_DIGEST, "one million 'a' in pieces");
	}
}

static void whole_file(void **unused)
{
	char path[] = "/tmp/test_sha256.XXXXXX", hex[SHA256_HEX_SIZE];
	unsigned long long size = 0;
	int fd = mkstemp(path);

	(void)unused;
	assert_true(fd >= 0);
	assert_int(write(fd, TWO_BLOCK_MESSAGE, strlen(TWO_BLOCK_MESSAGE)),
		   strlen(TWO_BLOCK_MESSAGE), "written");
	close(fd);
	assert_int(sha256_file(path, hex, &size), 0, "sha256_file");
	unlink(path);
	assert_str(hex, TWO_BLOCK_DIGEST, "file digest");
	assert_int(size, 56, "file size");
	assert_int(sha256_file(path, hex, NULL), -1, "a missing file");
}

/* RFC 4231, test cases 1, 2 and 6 (a key longer than a block). */
static void hmac_rfc4231(void **unused)
{
	uint8_t key[131], digest[SHA256_DIGEST_SIZE];
	char hex[SHA256_HEX_SIZE];
	static const char large[] =
		"Test Using Larger Than Block-Size Key - Hash Key First";

	(void)unused;
	memset(key, 0x0b, 20);
	sha256_hmac(key, 20, "Hi There", 8, digest);
	sha256_to_hex(digest, hex);
	assert_str(hex, "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
		   "RFC 4231 case 1");
	sha256_hmac("Jefe", 4, "what do ya want for nothing?", 28, digest);
	sha256_to_hex(digest, hex);
	assert_str(hex, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
		   "RFC 4231 case 2");
	memset(key, 0xaa, sizeof(key));
	sha256_hmac(key, sizeof(key), large, strlen(large), digest);
	sha256_to_hex(digest, hex);
	assert_str(hex, "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
		   "RFC 4231 case 6");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_block),
		cmocka_unit_test(two_blocks),
		cmocka_unit_test(million_a),
		cmocka_unit_test(pieces_equal_whole),
		cmocka_unit_test(whole_file),
		cmocka_unit_test(hmac_rfc4231),
	};

	return cmocka_run_group_tests_name("sha256", tests, NULL, NULL);
}
