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
 *
 * The multiplications are calls (cuzk__fp52x8_* / cuzk__fp2x8_*, src/field/fp_ifma.c says
 * why: code size); the additions and subtractions between them are the lazy forms of
 * src/field/fp_ifma.h (one carry pass, no correction), with each result's range noted where it
 * is computed, and x3 and y3 are reduced to canonical once, for their stores. G1's backward
 * pass takes two blocks at a time (two independent products per call).
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
#define F8_CALL(op) cuzk__fp52x8_##op /* out of line: src/field/fp_ifma.c */
#define F8_NORM fp52x8_norm_
#define F8_INV_FROM_NORM fp52x8_inv_from_norm_
#define F8_SET_ONE fp52x8_set_one_
#define F8_KEEP_NORM 0 /* the norm is den itself */
#elif MSM_BATCH_X8 == 2
#define F8_T fp2x8
#define F8_(op) fp2x8_##op
#define F8_CALL(op) cuzk__fp2x8_##op
#define F8_NORM cuzk__fp2x8_norm
#define F8_INV_FROM_NORM cuzk__fp2x8_inv_from_norm
#define F8_SET_ONE fp2x8_set_one
#define F8_KEEP_NORM 1
#else
#error "MSM_BATCH_X8 must be 1 (Fp) or 2 (Fp2)"
#endif

/* The dst/src pointers of block entries k0 .. k0 + 7 as vectors (padding lanes repeat entry
 * k0, whose loads are harmless and whose lanes store nothing), the lanes with neg set, and
 * each entry's kind in the high half of |nk|. Three strided gathers over the 24-byte entries
 * instead of a scalar loop: its ~80 scalar operations per block shared ports 0 and 5 with the
 * vector arithmetic. */
static inline void M_(x8_ptrs_)(const MSM_ENTRY_T *ent, size_t k0, unsigned nreal, __m512i *dp,
                                __m512i *sp, __mmask8 *neg, __m512i *nk)
{
    _Static_assert(sizeof(MSM_ENTRY_T) == 24 && offsetof(MSM_ENTRY_T, src) == 8 &&
                       offsetof(MSM_ENTRY_T, neg) == 16 && offsetof(MSM_ENTRY_T, kind) == 20,
                   "entry layout: dst, src, neg, kind");
    const __mmask8 real = (__mmask8)((1u << nreal) - 1);
    /* 64-bit word index of each entry; padding lanes read entry k0 */
    const __m512i idx = _mm512_maskz_mov_epi64(real, _mm512_setr_epi64(0, 3, 6, 9, 12, 15, 18, 21));
    const long long *w = (const long long *)(const void *)&ent[k0];
    *dp = _mm512_i64gather_epi64(idx, (const void *)w, 8);
    *sp = _mm512_i64gather_epi64(idx, (const void *)(w + 1), 8);
    *nk = _mm512_i64gather_epi64(idx, (const void *)(w + 2), 8);
    *neg = _mm512_mask_test_epi64_mask(real, *nk, _mm512_set1_epi64(0xffffffffLL));
}

/* One block of the backward pass: its pointers and live lanes, the operands of lambda, the
 * norm and the prefix product. */
typedef struct {
    __m512i dp;
    __mmask8 live;
    F8_T x1, x2, y1, num, den;
    fp52x8 nrm, p;
} M_(x8_blk_);

/* Loads and prepares block b of the backward pass (layout of |pre| as in batch_apply_x8_). */
static inline void M_(x8_bwd_prep_)(M_(x8_blk_) *k, const MSM_ENTRY_T *ent, size_t m, size_t b,
                                    B_T *pre, const F8_T *one)
{
    const __m512i off_y = _mm512_set1_epi64((long long)offsetof(AFF_T, y));
    const size_t nblk = (m + 7) / 8, k0 = 8 * b;
    unsigned char *pref = (unsigned char *)pre;
    unsigned char *xs = pref + (1 + F8_KEEP_NORM) * nblk * sizeof(fp52x8);
    unsigned nreal = m - k0 < 8 ? (unsigned)(m - k0) : 8;
    __mmask8 real = (__mmask8)((1u << nreal) - 1), neg;
    __m512i sp, nk;
    F8_T y2, t;
    M_(x8_ptrs_)(ent, k0, nreal, &k->dp, &sp, &neg, &nk);
    __m512i kind = _mm512_srli_epi64(nk, 32);
    __mmask8 cancel = _mm512_mask_cmpeq_epi64_mask(real, kind, _mm512_set1_epi64(MSM_KIND_CANCEL));
    __mmask8 dbl = _mm512_mask_cmpeq_epi64_mask(real, kind, _mm512_set1_epi64(MSM_KIND_DBL));
    k->live = real & (__mmask8)~cancel;
    memcpy(&k->x1, xs + b * 2 * sizeof(F8_T), sizeof k->x1);
    F8_(load_ptrs)(&k->y1, _mm512_add_epi64(k->dp, off_y));
    memcpy(&k->x2, xs + b * 2 * sizeof(F8_T) + sizeof(F8_T), sizeof k->x2);
    F8_(load_ptrs)(&y2, _mm512_add_epi64(sp, off_y));
    /* Bounds (components, Fp or Fp2): x1, x2, y1, y2 canonical; num and den in [0, 2p]; every
     * multiplication's operands in [0, 2p], so its result is under 2p (4p^2 at most per Fp
     * product, 8p^2 per Karatsuba sum, src/field/fp_ifma_fp2.h). */
    F8_(neg_sub_lazy_)(&k->num, neg, &y2, &k->y1); /* +-y2 - y1 + p */
    F8_(sub_lazy_)(&k->den, &k->x2, &k->x1, fp52_p);
    if (dbl) {
        F8_(add_wide_)(&t, &k->y1, &k->y1);
        F8_(blend)(&k->den, dbl, &k->den, &t);
        F8_T x1sq;
        F8_CALL(sqr)(&x1sq, &k->x1);
        F8_(add)(&t, &x1sq, &x1sq);
        F8_(add)(&t, &t, &x1sq);
        F8_(blend)(&k->num, dbl, &k->num, &t);
    }
    /* ~live is the forward pass's |special|, so the norm is the one kept there: a block with no
     * live lane multiplies the chain by one and stores nothing */
    F8_(blend)(&k->den, (__mmask8)~k->live, &k->den, one);
#if F8_KEEP_NORM
    memcpy(&k->nrm, pref + (nblk + b) * sizeof(fp52x8), sizeof k->nrm);
#else
    F8_NORM(&k->nrm, &k->den);
#endif
    memcpy(&k->p, pref + b * sizeof(fp52x8), sizeof k->p);
}

/* y3 = t - y1 (t = lambda (x1 - x3), raw) and the stores of x3 (canonical) and y3. */
static inline void M_(x8_bwd_store_)(const M_(x8_blk_) *k, const F8_T *x3, F8_T *t)
{
    const __m512i off_y = _mm512_set1_epi64((long long)offsetof(AFF_T, y));
    F8_(sub_lazy_)(t, t, &k->y1, fp52_p); /* y3 + p in (0, 3p) */
    F8_(reduce_4p_)(t, t);
    F8_(store_ptrs_canon_)(k->dp, k->live, x3);
    F8_(store_ptrs_canon_)(_mm512_add_epi64(k->dp, off_y), k->live, t);
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
    F8_T one, x1, y1, x2, den, t;
    F8_SET_ONE(&one);
    fp52x8_set_one(&one_b);
    acc = one_b;
    /* Forward: classify, denominators, prefix products of their norms per lane. */
    for (size_t b = 0; b < nblk; b++) {
        size_t k0 = 8 * b;
        unsigned nreal = m - k0 < 8 ? (unsigned)(m - k0) : 8;
        __mmask8 real = (__mmask8)((1u << nreal) - 1), neg, special, dbl = 0;
        __m512i dp, sp, nk;
        M_(x8_ptrs_)(ent, k0, nreal, &dp, &sp, &neg, &nk);
        F8_(load_ptrs)(&x1, dp);
        F8_(load_ptrs)(&x2, sp);
        memcpy(xs + b * 2 * sizeof(F8_T), &x1, sizeof x1);
        memcpy(xs + b * 2 * sizeof(F8_T) + sizeof(F8_T), &x2, sizeof x2);
        __mmask8 eq = F8_(eq_mask)(&x1, &x2) & real;
        special = (__mmask8)~real;
        /* Entries are placed as MSM_KIND_ADD (aff_place_): only equal x need a look. */
        for (unsigned m = eq; m; m &= m - 1) {
            unsigned i = (unsigned)__builtin_ctz(m);
            MSM_ENTRY_T *e = &ent[k0 + i];
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
        F8_(sub_lazy_)(&den, &x2, &x1, fp52_p); /* (0, 2p): an operand of the norm */
        if (dbl) {
            F8_(load_ptrs)(&y1, _mm512_add_epi64(dp, off_y));
            F8_(add_wide_)(&t, &y1, &y1); /* 2 y1 < 2p */
            F8_(blend)(&den, dbl, &den, &t);
        }
        F8_(blend)(&den, special, &den, &one);
        F8_NORM(&nrm, &den);
        memcpy(pref + b * sizeof(fp52x8), &acc, sizeof acc);
#if F8_KEEP_NORM
        memcpy(norms + b * sizeof(fp52x8), &nrm, sizeof nrm);
#endif
        cuzk__fp52x8_mul(&acc, &acc, &nrm);
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
    size_t b = nblk;
#if MSM_BATCH_X8 == 1
    /* G1: two blocks at a time, so that lambda, its square and y3 are pairs of independent
     * products whose reductions interleave (cuzk__fp52x8_mul2 and friends: G1 2^12 12.6 ->
     * 11.9 ms, docs/PERFORMANCE.md). Same steps as the loop below; a block with no live lane
     * multiplies the chain by one and stores nothing, so it needs no skip here. In G1 the norm
     * is den itself and 1 / N(den) its inverse. */
    while (b >= 2) {
        M_(x8_blk_) k0, k1;
        fp52x8 ninv0, ninv1, lam0, lam1, x3_0, x3_1, t0, t1;
        M_(x8_bwd_prep_)(&k0, ent, m, b - 1, pre, &one);
        M_(x8_bwd_prep_)(&k1, ent, m, b - 2, pre, &one);
        b -= 2;
        cuzk__fp52x8_mul2(&ninv0, &acc, &k0.p, &acc, &acc, &k0.nrm);
        cuzk__fp52x8_mul2(&ninv1, &acc, &k1.p, &acc, &acc, &k1.nrm);
        cuzk__fp52x8_mul2(&lam0, &k0.num, &ninv0, &lam1, &k1.num, &ninv1);
        cuzk__fp52x8_sqr2_raw(&x3_0, &lam0, &x3_1, &lam1);
        fp52x8_sub2_lazy_(&x3_0, &x3_0, &k0.x1, &k0.x2, fp52_2p);
        fp52x8_sub2_lazy_(&x3_1, &x3_1, &k1.x1, &k1.x2, fp52_2p);
        fp52x8_reduce_4p_(&x3_0, &x3_0);
        fp52x8_reduce_4p_(&x3_1, &x3_1);
        fp52x8_sub_lazy_(&t0, &k0.x1, &x3_0, fp52_p);
        fp52x8_sub_lazy_(&t1, &k1.x1, &x3_1, fp52_p);
        cuzk__fp52x8_mul2_raw(&t0, &t0, &lam0, &t1, &t1, &lam1);
        M_(x8_bwd_store_)(&k0, &x3_0, &t0);
        M_(x8_bwd_store_)(&k1, &x3_1, &t1);
    }
#endif
    while (b-- > 0) {
        M_(x8_blk_) k;
        fp52x8 ninv;
        F8_T inv8, lam, x3;
        M_(x8_bwd_prep_)(&k, ent, m, b, pre, &one);
        if (!k.live)
            continue; /* the chain factors were all one */
        /* 1 / N(den), and 1 / (chain product before this block) */
        cuzk__fp52x8_mul2(&ninv, &acc, &k.p, &acc, &acc, &k.nrm);
        F8_INV_FROM_NORM(&inv8, &k.den, &ninv);
        F8_CALL(mul)(&lam, &k.num, &inv8);
        /* x3 = lam^2 - x1 - x2 + 2p in (0, 4p), reduced once for both its store and y3; the
         * carry passes of the raw results are the lazy subtractions' own. */
        F8_CALL(sqr_raw)(&x3, &lam);
        F8_(sub2_lazy_)(&x3, &x3, &k.x1, &k.x2, fp52_2p);
        F8_(reduce_4p_)(&x3, &x3);
        F8_(sub_lazy_)(&t, &k.x1, &x3, fp52_p); /* (0, 2p) */
        F8_CALL(mul_raw)(&t, &t, &lam);
        M_(x8_bwd_store_)(&k, &x3, &t);
    }
}

/* F8_* stay defined for src/msm/reduce_x8.h, which #undefs them. */
