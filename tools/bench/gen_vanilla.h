/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_BENCH_GEN_VANILLA_H
#define CUZK_BENCH_GEN_VANILLA_H

#include <stdbool.h>
#include <stdint.h>

#define GEN_VANILLA_ERROR 2

/* gen-vanilla --seal-proof ID (cmd_gen_vanilla_porep.c): 0 written, GEN_VANILLA_ERROR. */
int gen_vanilla_porep(uint64_t id, uint64_t seed, const char *out, const char *inputs, bool bincode,
                      bool json);

#endif
