// SPDX-License-Identifier: GPL-2.0
/* sha256.c - SHA-256 as FIPS 180-4 section 6.2 describes it. */
#include "measure/sha256.h"

#include <errno.h>
#include <string.h>

static const uint32_t round_constants[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t rotr(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

static void compress(uint32_t state[8], const uint8_t block[64])
{
	uint32_t w[64], v[8];

	for (unsigned t = 0; t < 16; t++)
		w[t] = (uint32_t)block[4 * t] << 24 | (uint32_t)block[4 * t + 1] << 16 |
		       (uint32_t)block[4 * t + 2] << 8 | block[4 * t + 3];
	for (unsigned t = 16; t < 64; t++) {
		uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
		uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);

		w[t] = w[t - 16] + s0 + w[t - 7] + s1;
	}
	memcpy(v, state, sizeof(v));
	for (unsigned t = 0; t < 64; t++) {
		uint32_t e = v[4], a = v[0];
		uint32_t t1 = v[7] + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) +
			      ((e & v[5]) ^ (~e & v[6])) + round_constants[t] + w[t];
		uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) +
			      ((a & v[1]) ^ (a & v[2]) ^ (v[1] & v[2]));

		memmove(v + 1, v, 7 * sizeof(*v));
		v[4] += t1;
		v[0] = t1 + t2;
	}
	for (unsigned i = 0; i < 8; i++)
		state[i] += v[i];
}

void sha256_init(struct sha256 *s)
{
	static const uint32_t initial[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(s->state, initial, sizeof(initial));
	s->length = 0;
	s->used = 0;
}

void sha256_update(struct sha256 *s, const void *data, size_t len)
{
	const uint8_t *p = data;

	s->length += len;
	if (s->used) {
		size_t take = 64 - s->used < len ? 64 - s->used : len;

		memcpy(s->block + s->used, p, take);
		s->used += take;
		p += take;
		len -= take;
		if (s->used < 64)
			return;
		compress(s->state, s->block);
		s->used = 0;
	}
	for (; len >= 64; p += 64, len -= 64)
		compress(s->state, p);
	memcpy(s->block, p, len);
	s->used = len;
}

void sha256_final(struct sha256 *s, uint8_t digest[SHA256_DIGEST_SIZE])
{
	uint64_t bits = s->length * 8;

	/* 0x80, zeros up to 56 mod 64, the message length in bits. */
	s->block[s->used++] = 0x80;
	if (s->used > 56) {
		memset(s->block + s->used, 0, 64 - s->used);
		compress(s->state, s->block);
		s->used = 0;
	}
	memset(s->block + s->used, 0, 56 - s->used);
	for (unsigned i = 0; i < 8; i++)
		s->block[56 + i] = (uint8_t)(bits >> (56 - 8 * i));
	compress(s->state, s->block);
	for (unsigned i = 0; i < 8; i++) {
		digest[4 * i] = (uint8_t)(s->state[i] >> 24);
		digest[4 * i + 1] = (uint8_t)(s->state[i] >> 16);
		digest[4 * i + 2] = (uint8_t)(s->state[i] >> 8);
		digest[4 * i + 3] = (uint8_t)s->state[i];
	}
	memset(s, 0, sizeof(*s));
}

void sha256_to_hex(const uint8_t digest[SHA256_DIGEST_SIZE],
		   char hex[SHA256_HEX_SIZE])
{
	static const char digits[] = "0123456789abcdef";

	for (unsigned i = 0; i < SHA256_DIGEST_SIZE; i++) {
		hex[2 * i] = digits[digest[i] >> 4];
		hex[2 * i + 1] = digits[digest[i] & 15];
	}
	hex[2 * SHA256_DIGEST_SIZE] = '\0';
}

void sha256_hex(const void *data, size_t len, char hex[SHA256_HEX_SIZE])
{
	struct sha256 s;
	uint8_t digest[SHA256_DIGEST_SIZE];

	sha256_init(&s);
	sha256_update(&s, data, len);
	sha256_final(&s, digest);
	sha256_to_hex(digest, hex);
}

void sha256_hmac(const void *key, size_t key_len, const void *msg,
		 size_t msg_len, uint8_t digest[SHA256_DIGEST_SIZE])
{
	uint8_t block[64] = { 0 }, inner[SHA256_DIGEST_SIZE];
	struct sha256 s;

	/* a key longer than a block is hashed first */
	if (key_len > sizeof(block)) {
		sha256_init(&s);
		sha256_update(&s, key, key_len);
		sha256_final(&s, block);
	} else {
		memcpy(block, key, key_len);
	}
	for (size_t i = 0; i < sizeof(block); i++)
		block[i] ^= 0x36;
	sha256_init(&s);
	sha256_update(&s, block, sizeof(block));
	sha256_update(&s, msg, msg_len);
	sha256_final(&s, inner);
	/* 0x36 ^ 0x5c: the outer pad from the inner one */
	for (size_t i = 0; i < sizeof(block); i++)
		block[i] ^= 0x36 ^ 0x5c;
	sha256_init(&s);
	sha256_update(&s, block, sizeof(block));
	sha256_update(&s, inner, sizeof(inner));
	sha256_final(&s, digest);
	memset(block, 0, sizeof(block));
}

int sha256_file(const char *path, char hex[SHA256_HEX_SIZE],
		unsigned long long *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t buf[65536], digest[SHA256_DIGEST_SIZE];
	struct sha256 s;
	size_t n;
	int failed;

	if (!f)
		return -1;
	sha256_init(&s);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sha256_update(&s, buf, n);
	failed = ferror(f);
	fclose(f);
	if (failed) {
		errno = EIO;
		return -1;
	}
	if (size)
		*size = s.length;
	sha256_final(&s, digest);
	sha256_to_hex(digest, hex);
	return 0;
}
