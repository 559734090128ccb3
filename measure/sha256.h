/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sha256.h - SHA-256 (FIPS 180-4), for the sums of a packed run's files,
 * and HMAC-SHA256 (RFC 2104) for the machine ID a run records.
 *
 * Small and dependency-free so that `make` still needs only a C
 * compiler. Incremental: init, update any number of times with any
 * lengths, final.
 */
#ifndef SMAPBENCH_SHA256_H
#define SMAPBENCH_SHA256_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SHA256_DIGEST_SIZE	32
/* Lowercase hex of a digest, with its terminating NUL. */
#define SHA256_HEX_SIZE		(2 * SHA256_DIGEST_SIZE + 1)

struct sha256 {
	uint32_t state[8];
	uint64_t length;	/* bytes hashed so far */
	uint8_t block[64];	/* a partial block */
	size_t used;		/* bytes of it filled */
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
void sha256_final(struct sha256 *s, uint8_t digest[SHA256_DIGEST_SIZE]);
/* One call: digest of data as lowercase hex. */
void sha256_hex(const void *data, size_t len, char hex[SHA256_HEX_SIZE]);
void sha256_to_hex(const uint8_t digest[SHA256_DIGEST_SIZE],
		   char hex[SHA256_HEX_SIZE]);
/* HMAC-SHA256 (RFC 2104) of msg under key. */
void sha256_hmac(const void *key, size_t key_len, const void *msg,
		 size_t msg_len, uint8_t digest[SHA256_DIGEST_SIZE]);
/*
 * Digest of a whole file as hex; its size to *size when not NULL.
 * 0, or -1 with errno (a read error).
 */
int sha256_file(const char *path, char hex[SHA256_HEX_SIZE],
		unsigned long long *size);

#endif /* SMAPBENCH_SHA256_H */
