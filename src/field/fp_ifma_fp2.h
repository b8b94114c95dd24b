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
 * sums unreduced (<= 4p), so that t2 - t0 - t1 = a0 b1 + a1 b0 exactly: in [0, 8p^2]. The real
 * part t0 - t1 + 4p^2 is in [0, 8p^2] too; both are within the reduction's bound (under 2p for
 * t < 9.8p^2). Components of a and b in [0, 2p] (2p itself allowed: the lazy operations'
 * results).
 */
FP52_INLINE void fp2x8_mul_wide_(__m512i t0[16], __m512i t2[16], const fp2x8 *a, const fp2x8 *b)
{
    __m512i t1[16];
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
}

FP52_INLINE void fp2x8_mul(fp2x8 *r, const fp2x8 *a, const fp2x8 *b)
{
    __m512i t0[16], t2[16];
    fp2x8_mul_wide_(t0, t2, a, b);
    fp52x8_redc_steps2_(t0, t2);
    fp52x8_redc_finish_(&r->c0, t0);
    fp52x8_redc_finish_(&r->c1, t2);
}

/* fp2x8_mul with raw result limbs (fp52x8_redc_raw_), for a *_lazy_ operation. */
FP52_INLINE void fp2x8_mul_raw_(fp2x8 *r, const fp2x8 *a, const fp2x8 *b)
{
    __m512i t0[16], t2[16];
    fp2x8_mul_wide_(t0, t2, a, b);
    fp52x8_redc_steps2_(t0, t2);
    fp52x8_redc_finish_raw_(&r->c0, t0);
    fp52x8_redc_finish_raw_(&r->c1, t2);
}

/*
 * a^2 = (a0^2 - a1^2) + 2 a0 a1 u as sums of products reduced once each: two squarings and one
 * product (72 + 72 + 128 IFMAs, two reductions), against two full multiplications plus an add,
 * a sub and a double for (a0 + a1)(a0 - a1) + 2 a0 a1 u. For a0, a1 in [0, 2p]: a0^2 - a1^2
 * + 4p^2 and 2 a0 a1 are in [0, 8p^2], within the reduction's bound.
 */
FP52_INLINE void fp2x8_sqr_wide_(__m512i t0[16], __m512i t2[16], const fp2x8 *a)
{
    __m512i t1[16];
    fp52x8_sqr_wide_(t0, &a->c0);
    fp52x8_sqr_wide_(t1, &a->c1);
    fp52x8_mul_wide_(t2, &a->c0, &a->c1);
#pragma GCC unroll 16
    for (int k = 0; k < 16; k++) {
        t0[k] = _mm512_add_epi64(_mm512_sub_epi64(t0[k], t1[k]), FP52_SET1(fp52_4p2[k]));
        t2[k] = _mm512_add_epi64(t2[k], t2[k]);
    }
}

FP52_INLINE void fp2x8_sqr(fp2x8 *r, const fp2x8 *a)
{
    __m512i t0[16], t2[16];
    fp2x8_sqr_wide_(t0, t2, a);
    fp52x8_redc_steps2_(t0, t2);
    fp52x8_redc_finish_(&r->c0, t0);
    fp52x8_redc_finish_(&r->c1, t2);
}

FP52_INLINE void fp2x8_sqr_raw_(fp2x8 *r, const fp2x8 *a)
{
    __m512i t0[16], t2[16];
    fp2x8_sqr_wide_(t0, t2, a);
    fp52x8_redc_steps2_(t0, t2);
    fp52x8_redc_finish_raw_(&r->c0, t0);
    fp52x8_redc_finish_raw_(&r->c1, t2);
}

/* The lazy operations of src/field/fp_ifma.h, per component (same bounds). */
FP52_INLINE void fp2x8_sub_lazy_(fp2x8 *r, const fp2x8 *a, const fp2x8 *b, const uint64_t kp[8])
{
    fp52x8_sub_lazy_(&r->c0, &a->c0, &b->c0, kp);
    fp52x8_sub_lazy_(&r->c1, &a->c1, &b->c1, kp);
}

FP52_INLINE void fp2x8_sub2_lazy_(fp2x8 *r, const fp2x8 *a, const fp2x8 *b, const fp2x8 *c,
                                  const uint64_t kp[8])
{
    fp52x8_sub2_lazy_(&r->c0, &a->c0, &b->c0, &c->c0, kp);
    fp52x8_sub2_lazy_(&r->c1, &a->c1, &b->c1, &c->c1, kp);
}

FP52_INLINE void fp2x8_neg_sub_lazy_(fp2x8 *r, __mmask8 neg, const fp2x8 *a, const fp2x8 *b)
{
    fp52x8_neg_sub_lazy_(&r->c0, neg, &a->c0, &b->c0);
    fp52x8_neg_sub_lazy_(&r->c1, neg, &a->c1, &b->c1);
}

FP52_INLINE void fp2x8_add_wide_(fp2x8 *r, const fp2x8 *a, const fp2x8 *b)
{
    fp52x8_add_wide_(&r->c0, &a->c0, &b->c0);
    fp52x8_add_wide_(&r->c1, &a->c1, &b->c1);
}

FP52_INLINE void fp2x8_reduce_4p_(fp2x8 *r, const fp2x8 *a)
{
    fp52x8_reduce_4p_(&r->c0, &a->c0);
    fp52x8_reduce_4p_(&r->c1, &a->c1);
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

FP52_INLINE void fp2x8_store_ptrs_canon_(__m512i ptrs, __mmask8 m, const fp2x8 *a)
{
    fp52x8_store_ptrs_canon_(ptrs, m, &a->c0);
    fp52x8_store_ptrs_canon_(_mm512_add_epi64(ptrs, _mm512_set1_epi64(sizeof(cuzk_fp_t))), m,
                             &a->c1);
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

/* inv = conj(a) ninv; a's components in [0, 2p], ninv in [0, 2p): inv's components in
 * [0, 2p] (-a1 ninv as 2p - a1 ninv, a1 ninv < 1.41p). */
FP52_INLINE void fp2x8_inv_from_norm(fp2x8 *inv, const fp2x8 *a, const fp52x8 *ninv)
{
    fp52x8 zero, t;
    memset(&zero, 0, sizeof zero);
    fp52x8_mul2_(&inv->c0, &a->c0, ninv, &t, &a->c1, ninv);
    fp52x8_sub_lazy_(&inv->c1, &zero, &t, fp52_2p);
}

/* fp2x8_mul, fp2x8_sqr, their raw forms, fp2x8_norm and fp2x8_inv_from_norm out of line
 * (src/field/fp_ifma.c); r may alias a or b. */
void cuzk__fp2x8_mul(fp2x8 *r, const fp2x8 *a, const fp2x8 *b);
void cuzk__fp2x8_sqr(fp2x8 *r, const fp2x8 *a);
void cuzk__fp2x8_mul_raw(fp2x8 *r, const fp2x8 *a, const fp2x8 *b);
void cuzk__fp2x8_sqr_raw(fp2x8 *r, const fp2x8 *a);
void cuzk__fp2x8_norm(fp52x8 *n, const fp2x8 *a);
void cuzk__fp2x8_inv_from_norm(fp2x8 *inv, const fp2x8 *a, const fp52x8 *ninv);

#endif
#endif
