/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_FIELD_FP_IFMA_FP2_H
#define CUZK_FIELD_FP_IFMA_FP2_H

/*
 * Eight Fp2 = Fp[u] / (u^2 + 1) operations at once on the 8-lane IFMA Fp arithmetic of
 * src/field/fp_ifma.h (same layout, same [0, 2p) range per coordinate). Used by the G2 MSM's
 * batch-affine additions and running sums (src/msm/batch_affine_x8.h, reduce_x8.h).
 */

#include "field/fp_ifma.h"

#if CUZK_FP_HAVE_IFMA
#include <string.h>

/* Fp2 = Fp[u] / (u^2 + 1), eight elements: c0 and c1 vectors. */
typedef struct {
    fp52x8 c0, c1;
} fp2x8;

FP52_INLINE void fp2x8_add(fp2x8 *r, const fp2x8 *a, const fp2x8 *b)
{
    fp52x8_add(&r->c0, &a->c0, &b->c0);
    fp52x8_add(&r->c1, &a->c1, &b->c1);
}

FP52_INLINE void fp2x8_sub(fp2x8 *r, const fp2x8 *a, const fp2x8 *b)
{
    fp52x8_sub(&r->c0, &a->c0, &b->c0);
    fp52x8_sub(&r->c1, &a->c1, &b->c1);
}

/*
 * Karatsuba with one reduction per output coordinate: 3 products, 2 reductions (a product is
 * half the IFMAs of a multiplication, its reduction the other half; the batch additions are
 * bound by them, docs/PERFORMANCE.md). t0 = a0 b0, t1 = a1 b1, t2 = (a0 + a1)(b0 + b1) with the
 * sums unreduced (< 4p), so that t2 - t0 - t1 = a0 b1 + a1 b0 exactly: in [0, 8p^2). The real
 * part t0 - t1 + 4p^2 is in [0, 8p^2) too; both are within the reduction's bound.
 */
FP52_INLINE void fp2x8_mul(fp2x8 *r, const fp2x8 *a, const fp2x8 *b)
{
    __m512i t0[16], t1[16], t2[16];
    fp52x8 sa, sb;
    fp52x8_add_wide_(&sa, &a->c0, &a->c1);
    fp52x8_add_wide_(&sb, &b->c0, &b->c1);
    fp52x8_mul_wide_(t0, &a->c0, &b->c0);
    fp52x8_mul_wide_(t1, &a->c1, &b->c1);
    fp52x8_mul_wide_(t2, &sa, &sb);
#pragma GCC unroll 16
    for (int k = 0; k < 16; k++) {
        t2[k] = _mm512_sub_epi64(t2[k], _mm512_add_epi64(t0[k], t1[k]));
        t0[k] = _mm512_add_epi64(_mm512_sub_epi64(t0[k], t1[k]), FP52_SET1(fp52_4p2[k]));
    }
    fp52x8_redc_(&r->c0, t0);
    fp52x8_redc_(&r->c1, t2);
}

/* (a0 + a1)(a0 - a1) + 2 a0 a1 u: 2 multiplications. */
FP52_INLINE void fp2x8_sqr(fp2x8 *r, const fp2x8 *a)
{
    fp52x8 s, d, t;
    fp52x8_add(&s, &a->c0, &a->c1);
    fp52x8_sub(&d, &a->c0, &a->c1);
    fp52x8_mul(&t, &a->c0, &a->c1);
    fp52x8_mul(&r->c0, &s, &d);
    fp52x8_add(&r->c1, &t, &t);
}

FP52_INLINE void fp2x8_blend(fp2x8 *r, __mmask8 m, const fp2x8 *a, const fp2x8 *b)
{
    fp52x8_blend(&r->c0, m, &a->c0, &b->c0);
    fp52x8_blend(&r->c1, m, &a->c1, &b->c1);
}

FP52_INLINE __mmask8 fp2x8_eq_mask(const fp2x8 *a, const fp2x8 *b)
{
    return fp52x8_eq_mask(&a->c0, &b->c0) & fp52x8_eq_mask(&a->c1, &b->c1);
}

/* Elements c0 at ptr, c1 at ptr + 48 (cuzk_fp2_t). */
FP52_INLINE void fp2x8_load_ptrs(fp2x8 *r, __m512i ptrs)
{
    fp52x8_load_ptrs(&r->c0, ptrs);
    fp52x8_load_ptrs(&r->c1, _mm512_add_epi64(ptrs, _mm512_set1_epi64(sizeof(cuzk_fp_t))));
}

FP52_INLINE void fp2x8_store_ptrs(__m512i ptrs, __mmask8 m, const fp2x8 *a)
{
    fp52x8_store_ptrs(ptrs, m, &a->c0);
    fp52x8_store_ptrs(_mm512_add_epi64(ptrs, _mm512_set1_epi64(sizeof(cuzk_fp_t))), m, &a->c1);
}

FP52_INLINE void fp2x8_set_one(fp2x8 *r)
{
    fp52x8_set_one(&r->c0);
    memset(&r->c1, 0, sizeof r->c1);
}

/* N(a) = a0^2 + a1^2 (< 8p^2: one reduction); 1/a = conj(a) / N(a). */
FP52_INLINE void fp2x8_norm(fp52x8 *n, const fp2x8 *a)
{
    __m512i t0[16], t1[16];
    fp52x8_sqr_wide_(t0, &a->c0);
    fp52x8_sqr_wide_(t1, &a->c1);
#pragma GCC unroll 16
    for (int k = 0; k < 16; k++)
        t0[k] = _mm512_add_epi64(t0[k], t1[k]);
    fp52x8_redc_(n, t0);
}

FP52_INLINE void fp2x8_inv_from_norm(fp2x8 *inv, const fp2x8 *a, const fp52x8 *ninv)
{
    fp52x8 zero, t;
    memset(&zero, 0, sizeof zero);
    fp52x8_mul(&inv->c0, &a->c0, ninv);
    fp52x8_mul(&t, &a->c1, ninv);
    fp52x8_sub(&inv->c1, &zero, &t);
}

#endif
#endif
