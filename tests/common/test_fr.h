/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_TEST_FR_H
#define CUZK_TEST_FR_H

#include "test.h"
#include "cuzk/field.h"

/* A uniform element of Fr from the test's random stream (rejection of 255-bit draws). */
static inline void test_rand_fr(cuzk_fr_t *out)
{
    for (;;) {
        uint64_t l[4];
        for (int i = 0; i < 4; i++)
            l[i] = test_rand_u64();
        l[3] &= 0x7fffffffffffffffULL;
        if (cuzk_fr_from_canonical(out, l))
            return;
    }
}

#endif
