/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The batch-affine additions of src/msm/pippenger_impl.h, eight at a time with the IFMA Fp
 * arithmetic of src/field/fp_ifma.h. Included by pippenger_impl.h after its entry type when the
 * group defines MSM_BATCH_X8 (1: coordinates in Fp, G1; 2: in Fp2, G2); no include guard for
 * the per-group part, like its includer.
 *
 * Same algorithm and results as M_(batch_apply_): entry k goes to lane k mod 8 of block k / 8,
 * so Montgomery's trick runs as 8 interleaved prefix-product chains over the norms (one 8-lane
 * Fp multiplication per block), the 8 chain totals share one scalar inversion, and the backward
 * pass computes lambda, x3, y3 for 8 additions per vector operation. Points are gathered from
 * and scattered to their buckets through pointers (6 x 64 <-> 8 x 52 re-cut at the edges,
 * nothing else). Equal x (doubling or cancellation) is rare and classified in scalar code; a
 * cancelled or padding lane multiplies its chain by one and stores nothing. |pre| (MSM_PRE_BYTES
 * x (m + 7) bytes) keeps per block, in radix 2^52: the prefix products; for G2 the norms (the
 * backward pass would otherwise recompute each, two 8-lane squarings per block, ~10 % of the G2
 * work); and the two x coordinates as loaded, so that the backward pass gathers only the y's
 * (measured 1-2 % faster MSMs at 2^12, G1 and G2).
 */
#include <stddef.h>

#include "field/fp_ifma_fp2.h"

#ifndef CUZK_MSM_BATCH_AFFINE_X8_ONCE
#define CUZK_MSM_BATCH_AFFINE_X8_ONCE
#define MSM_X8_MIN 16

/* The Fp versions of the same operations, for G1 (norm and inverse from it are trivial). */
FP52_INLINE void fp52x8_norm_(fp52x8 *n, const fp52x8 *a)
{
    *n = *a;
}

FP52_INLINE void fp52x8_inv_from_norm_(fp52x8 *inv, const fp52x8 *a, const fp52x8 *ninv)
{
    (void)a;
    *inv = *ninv;
}

FP52_INLINE void fp52x8_set_one_(fp52x8 *r)
{
    fp52x8_set_one(r);
}

/* Lanes whose value is 0 mod p (a lazy value may be 0 or p). */
FP52_INLINE __mmask8 fp52x8_is_zero_mask(const fp52x8 *a)
{
    fp52x8 c;
    fp52x8_reduce(&c, a);
    __mmask8 m = 0xff;
    for (int j = 0; j < 8; j++)
        m &= _mm512_cmpeq_epi64_mask(c.l[j], _mm512_setzero_si512());
    return m;
}

FP52_INLINE __mmask8 fp2x8_is_zero_mask(const fp2x8 *a)
{
    return fp52x8_is_zero_mask(&a->c0) & fp52x8_is_zero_mask(&a->c1);
}

/* Eight pointers base + i * stride + off as a vector. */
FP52_INLINE __m512i msm_x8_ptrs(const void *base, size_t stride, size_t off)
{
    uint64_t p[8];
    for (int i = 0; i < 8; i++)
        p[i] = (uint64_t)(uintptr_t)base + (uint64_t)i * stride + off;
    return _mm512_loadu_si512((const void *)p);
}
#endif

/* The coordinate field of this group, eight elements. */
#if MSM_BATCH_X8 == 1
#define F8_T fp52x8
#define F8_(op) fp52x8_##op
#define F8_NORM fp52x8_norm_
#define F8_INV_FROM_NORM fp52x8_inv_from_norm_
#define F8_SET_ONE fp52x8_set_one_
#define F8_KEEP_NORM 0 /* the norm is den itself */
#elif MSM_BATCH_X8 == 2
#define F8_T fp2x8
#define F8_(op) fp2x8_##op
#define F8_NORM fp2x8_norm
#define F8_INV_FROM_NORM fp2x8_inv_from_norm
#define F8_SET_ONE fp2x8_set_one
#define F8_KEEP_NORM 1
#else
#error "MSM_BATCH_X8 must be 1 (Fp) or 2 (Fp2)"
#endif

/* The dst/src pointers of block entries k0 .. k0 + 7 as vectors (padding lanes repeat entry
 * k0, whose loads are harmless and whose lanes store nothing), and the lanes with neg set. */
static inline void M_(x8_ptrs_)(const MSM_ENTRY_T *ent, size_t k0, unsigned nreal, __m512i *dp,
                                __m512i *sp, __mmask8 *neg)
{
    uint64_t d[8], s[8];
    __mmask8 ng = 0;
    for (unsigned i = 0; i < 8; i++) {
        const MSM_ENTRY_T *e = &ent[k0 + (i < nreal ? i : 0)];
        d[i] = (uint64_t)(uintptr_t)e->dst;
        s[i] = (uint64_t)(uintptr_t)e->src;
        if (i < nreal && e->neg)
            ng |= (__mmask8)(1u << i);
    }
    *dp = _mm512_loadu_si512((const void *)d);
    *sp = _mm512_loadu_si512((const void *)s);
    *neg = ng;
}

static void M_(batch_apply_x8_)(MSM_ENTRY_T *ent, size_t m, B_T *pre)
{
    const __m512i off_y = _mm512_set1_epi64((long long)offsetof(AFF_T, y));
    const size_t nblk = (m + 7) / 8;
    unsigned char *pref = (unsigned char *)pre;
#if F8_KEEP_NORM
    unsigned char *norms = pref + nblk * sizeof(fp52x8);
#endif
    unsigned char *xs = pref + (1 + F8_KEEP_NORM) * nblk * sizeof(fp52x8); /* x1, x2 per block */
    fp52x8 acc, nrm, one_b;
    F8_T one, x1, y1, x2, y2, den, num, t;
    F8_SET_ONE(&one);
    fp52x8_set_one(&one_b);
    acc = one_b;
    /* Forward: classify, denominators, prefix products of their norms per lane. */
    for (size_t b = 0; b < nblk; b++) {
        size_t k0 = 8 * b;
        unsigned nreal = m - k0 < 8 ? (unsigned)(m - k0) : 8;
        __mmask8 real = (__mmask8)((1u << nreal) - 1), neg, special, dbl = 0;
        __m512i dp, sp;
        M_(x8_ptrs_)(ent, k0, nreal, &dp, &sp, &neg);
        F8_(load_ptrs)(&x1, dp);
        F8_(load_ptrs)(&x2, sp);
        memcpy(xs + b * 2 * sizeof(F8_T), &x1, sizeof x1);
        memcpy(xs + b * 2 * sizeof(F8_T) + sizeof(F8_T), &x2, sizeof x2);
        __mmask8 eq = F8_(eq_mask)(&x1, &x2) & real;
        special = (__mmask8)~real;
        for (unsigned i = 0; i < nreal; i++) {
            MSM_ENTRY_T *e = &ent[k0 + i];
            e->kind = MSM_KIND_ADD;
            if (!((eq >> i) & 1))
                continue;
            F_T py;
            if (e->neg)
                F_NEG(&py, &e->src->y);
            else
                py = e->src->y;
            if (F_EQ(&e->dst->y, &py) && !F_IS_ZERO(&py)) {
                e->kind = MSM_KIND_DBL; /* lambda = 3x^2 / 2y */
                dbl |= (__mmask8)(1u << i);
            } else {
                e->kind = MSM_KIND_CANCEL; /* a = -p, or a point of order 2 doubled */
                e->dst->infinity = true;
                special |= (__mmask8)(1u << i);
            }
        }
        F8_(sub)(&den, &x2, &x1);
        if (dbl) {
            F8_(load_ptrs)(&y1, _mm512_add_epi64(dp, off_y));
            F8_(add)(&t, &y1, &y1);
            F8_(blend)(&den, dbl, &den, &t);
        }
        F8_(blend)(&den, special, &den, &one);
        F8_NORM(&nrm, &den);
        memcpy(pref + b * sizeof(fp52x8), &acc, sizeof acc);
#if F8_KEEP_NORM
        memcpy(norms + b * sizeof(fp52x8), &nrm, sizeof nrm);
#endif
        fp52x8_mul(&acc, &acc, &nrm);
    }
    /* The 8 chain totals (never zero: every factor is the norm of a nonzero difference, of 2y
     * or of one) share one inversion. */
    cuzk_fp_t c[8], run[8], inv[8];
    fp52x8_store(c, &acc);
    run[0] = c[0];
    for (int i = 1; i < 8; i++)
        B_MUL(&run[i], &run[i - 1], &c[i]);
    B_T all;
    B_INV(&all, &run[7]);
    for (int i = 7; i > 0; i--) {
        B_MUL(&inv[i], &all, &run[i - 1]);
        B_MUL(&all, &all, &c[i]);
    }
    inv[0] = all;
    fp52x8_load(&acc, inv); /* lane i: 1 / (product of its chain) */
    /* Backward: per block, 1/N(den) = acc * prefix; acc *= N(den); then lambda, x3, y3. */
    for (size_t b = nblk; b-- > 0;) {
        size_t k0 = 8 * b;
        unsigned nreal = m - k0 < 8 ? (unsigned)(m - k0) : 8;
        __mmask8 real = (__mmask8)((1u << nreal) - 1), neg, cancel = 0, dbl = 0;
        for (unsigned i = 0; i < nreal; i++) {
            uint32_t kind = ent[k0 + i].kind;
            if (kind == MSM_KIND_CANCEL)
                cancel |= (__mmask8)(1u << i);
            else if (kind == MSM_KIND_DBL)
                dbl |= (__mmask8)(1u << i);
        }
        __mmask8 live = real & (__mmask8)~cancel;
        if (!live)
            continue; /* the chain factors were all one */
        __m512i dp, sp;
        M_(x8_ptrs_)(ent, k0, nreal, &dp, &sp, &neg);
        memcpy(&x1, xs + b * 2 * sizeof(F8_T), sizeof x1);
        F8_(load_ptrs)(&y1, _mm512_add_epi64(dp, off_y));
        memcpy(&x2, xs + b * 2 * sizeof(F8_T) + sizeof(F8_T), sizeof x2);
        F8_(load_ptrs)(&y2, _mm512_add_epi64(sp, off_y));
        if (neg) {
            F8_T zero;
            memset(&zero, 0, sizeof zero);
            F8_(sub)(&t, &zero, &y2);
            F8_(blend)(&y2, neg, &y2, &t);
        }
        F8_(sub)(&den, &x2, &x1);
        F8_(sub)(&num, &y2, &y1);
        if (dbl) {
            F8_(add)(&t, &y1, &y1);
            F8_(blend)(&den, dbl, &den, &t);
            F8_T x1sq;
            F8_(sqr)(&x1sq, &x1);
            F8_(add)(&t, &x1sq, &x1sq);
            F8_(add)(&t, &t, &x1sq);
            F8_(blend)(&num, dbl, &num, &t);
        }
        /* ~live is the forward pass's |special|, so the norm is the one kept there */
        F8_(blend)(&den, (__mmask8)~live, &den, &one);
#if F8_KEEP_NORM
        memcpy(&nrm, norms + b * sizeof(fp52x8), sizeof nrm);
#else
        F8_NORM(&nrm, &den);
#endif
        fp52x8 p, ninv;
        F8_T inv8, lam, x3;
        memcpy(&p, pref + b * sizeof(fp52x8), sizeof p);
        fp52x8_mul(&ninv, &acc, &p);  /* 1 / N(den) */
        fp52x8_mul(&acc, &acc, &nrm); /* 1 / (chain product before this block) */
        F8_INV_FROM_NORM(&inv8, &den, &ninv);
        F8_(mul)(&lam, &num, &inv8);
        F8_(sqr)(&x3, &lam);
        F8_(sub)(&x3, &x3, &x1);
        F8_(sub)(&x3, &x3, &x2);
        F8_(sub)(&t, &x1, &x3);
        F8_(mul)(&t, &t, &lam);
        F8_(sub)(&t, &t, &y1);
        F8_(store_ptrs)(dp, live, &x3);
        F8_(store_ptrs)(_mm512_add_epi64(dp, off_y), live, &t);
    }
}

/* F8_* stay defined for src/msm/reduce_x8.h, which #undefs them. */
