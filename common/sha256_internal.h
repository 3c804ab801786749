/* sha256_internal.h - SHA-256 (FIPS 180-4), for the keys of wgtune's cache
 * and of the driver's model cache (sha256.c; libwgperf_common, linked by
 * driver/ and tune/ only). */
#ifndef WGPERF_COMMON_SHA256_INTERNAL_H
#define WGPERF_COMMON_SHA256_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct sha256 {
  uint32_t h[8];
  uint64_t bytes;
  unsigned char block[64];
  size_t used;
} sha256;

void sha256_init(sha256 *c);
void sha256_update(sha256 *c, const void *data, size_t n);
/* A string and its terminating NUL, so that ("ab", "c") and ("a", "bc") differ. */
void sha256_string(sha256 *c, const char *s);
/* FILE's contents; false when it cannot be opened or read (what was read is in C). */
bool sha256_file(sha256 *c, const char *file);
/* The digest as 64 lowercase hex digits and a NUL. */
void sha256_hex(sha256 *c, char out[65]);

#endif
