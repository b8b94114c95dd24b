/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Out-of-line entry points of the 8-lane IFMA Fp arithmetic (src/field/fp_ifma.h): eight
 * independent products of canonical Montgomery elements, converted to radix 2^52 and back per
 * call. Callers that chain several operations keep the fp52x8 form instead.
 */
#include "field/fp_ifma.h"

#if CUZK_FP_HAVE_IFMA

void cuzk__fp_mul_x8(cuzk_fp_t out[8], const cuzk_fp_t a[8], const cuzk_fp_t b[8])
{
    fp52x8 x, y;
    fp52x8_load(&x, a);
    fp52x8_load(&y, b);
    fp52x8_mul(&x, &x, &y);
    fp52x8_store(out, &x);
}

void cuzk__fp_sqr_x8(cuzk_fp_t out[8], const cuzk_fp_t a[8])
{
    fp52x8 x;
    fp52x8_load(&x, a);
    fp52x8_sqr(&x, &x);
    fp52x8_store(out, &x);
}

#else
/* ISO C forbids an empty translation unit. */
typedef int cuzk_fp_ifma_unused;
#endif
