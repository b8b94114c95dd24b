/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Out-of-line entry points of the 8-lane IFMA Fp arithmetic (src/field/fp_ifma.h): eight
 * independent products of canonical Montgomery elements, converted to radix 2^52 and back per
 * call. Callers that chain several operations keep the fp52x8 form instead.
 */
#include "field/fp_ifma_fp2.h"

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

/*
 * The multiplications of fp52x8 and fp2x8 as ordinary functions: one copy each, called from
 * the long vector loops of the MSM (src/msm/batch_affine_x8.h, reduce_x8.h). Inlined there, every
 * call site unrolled its 256 IFMAs and reduction again: the G2 batch addition's function was
 * 92 KB of code and a G2 running-sum step 140 KB, against a 32 KB L1 instruction cache and a
 * few thousand micro-ops of decoded-instruction cache, so the loops ran at the legacy decoders'
 * pace (16 bytes a cycle; EVEX instructions are 6 to 11 bytes). Out of line, the hot code is a
 * few of these functions and a short loop body: the G2 MSM at 2^12 went from 36.6 to 28.9 ms
 * (docs/PERFORMANCE.md). The call passes its operands through memory: loads and stores on
 * their own ports, while the arithmetic is bound by the two vector ports.
 */
void cuzk__fp52x8_mul(fp52x8 *r, const fp52x8 *a, const fp52x8 *b)
{
    fp52x8_mul(r, a, b);
}

void cuzk__fp52x8_mul2(fp52x8 *r, const fp52x8 *a, const fp52x8 *b, fp52x8 *r2, const fp52x8 *a2,
                       const fp52x8 *b2)
{
    fp52x8_mul2_(r, a, b, r2, a2, b2);
}

void cuzk__fp52x8_mul2_raw(fp52x8 *r, const fp52x8 *a, const fp52x8 *b, fp52x8 *r2,
                           const fp52x8 *a2, const fp52x8 *b2)
{
    fp52x8_mul2_raw_(r, a, b, r2, a2, b2);
}

void cuzk__fp52x8_sqr2_raw(fp52x8 *r, const fp52x8 *a, fp52x8 *r2, const fp52x8 *a2)
{
    fp52x8_sqr2_raw_(r, a, r2, a2);
}

void cuzk__fp52x8_sqr(fp52x8 *r, const fp52x8 *a)
{
    fp52x8_sqr(r, a);
}

void cuzk__fp52x8_mul_raw(fp52x8 *r, const fp52x8 *a, const fp52x8 *b)
{
    fp52x8_mul_raw_(r, a, b);
}

void cuzk__fp52x8_sqr_raw(fp52x8 *r, const fp52x8 *a)
{
    fp52x8_sqr_raw_(r, a);
}

void cuzk__fp2x8_mul(fp2x8 *r, const fp2x8 *a, const fp2x8 *b)
{
    fp2x8_mul(r, a, b);
}

void cuzk__fp2x8_sqr(fp2x8 *r, const fp2x8 *a)
{
    fp2x8_sqr(r, a);
}

void cuzk__fp2x8_mul_raw(fp2x8 *r, const fp2x8 *a, const fp2x8 *b)
{
    fp2x8_mul_raw_(r, a, b);
}

void cuzk__fp2x8_sqr_raw(fp2x8 *r, const fp2x8 *a)
{
    fp2x8_sqr_raw_(r, a);
}

void cuzk__fp2x8_norm(fp52x8 *n, const fp2x8 *a)
{
    fp2x8_norm(n, a);
}

void cuzk__fp2x8_inv_from_norm(fp2x8 *inv, const fp2x8 *a, const fp52x8 *ninv)
{
    fp2x8_inv_from_norm(inv, a, ninv);
}

#else
/* ISO C forbids an empty translation unit. */
typedef int cuzk_fp_ifma_unused;
#endif
