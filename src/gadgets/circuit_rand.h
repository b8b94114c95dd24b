/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GADGETS_CIRCUIT_RAND_H
#define CUZK_GADGETS_CIRCUIT_RAND_H

/* The deterministic private inputs built-in circuits invent from their seed (tests and
 * benchmarks only): splitmix64, and field elements below 2^254 (< r) from it. */

#include "cuzk/field.h"

#include <stdint.h>

static inline uint64_t cuzk__splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline void cuzk__rand_fr_254(cuzk_fr_t *out, uint64_t *s)
{
    uint64_t l[CUZK_FR_LIMBS];
    for (int i = 0; i < CUZK_FR_LIMBS; i++)
        l[i] = cuzk__splitmix64(s);
    l[3] &= 0x3fffffffffffffffULL;
    (void)cuzk_fr_from_canonical(out, l);
}

#endif
