/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_BENCH_GEN_VANILLA_H
#define CUZK_BENCH_GEN_VANILLA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/field.h"

#define GEN_VANILLA_ERROR 2

/* gen-vanilla --seal-proof ID (cmd_gen_vanilla_porep.c): 0 written, GEN_VANILLA_ERROR. */
int gen_vanilla_porep(uint64_t id, uint64_t seed, const char *out, const char *inputs, bool bincode,
                      bool json);

/* Writes |len| bytes to |path| (a message on stderr when it cannot). */
bool gen_vanilla_write(const char *path, const void *buf, size_t len);
/* |n| inputs as 32-byte LE hex, one a line, at |o| (room for 65 n + 1); returns the end (NUL). */
char *gen_vanilla_hex_lines(char *o, const cuzk_fr_t *in, size_t n);

#endif
