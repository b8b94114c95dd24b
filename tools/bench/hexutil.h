/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_BENCH_HEXUTIL_H
#define CUZK_BENCH_HEXUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Decodes the hex string |s| (even length, optional 0x prefix) into |out| (room for |max|);
 * false on a bad character, odd length or overflow. */
bool hex_decode(uint8_t *out, size_t max, size_t *len, const char *s);
/* Writes 2n hex digits and a NUL into |out|. */
void hex_encode(char *out, const uint8_t *in, size_t n);

#endif
