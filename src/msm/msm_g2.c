/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* MSM and bitmap batch addition in G2 (over Fp2): src/msm/pippenger_impl.h instantiated. */
#include <pthread.h>
#include <stdatomic.h>

#include "cuzk/msm.h"
#include "curve/curve_internal.h"
#include "msm/msm_common.h"
#include "msm/msm_packed.h"
#include "msm/msm_slices.h"
#include "msm/msm_ifma.h"
#include "field/fp_ifma_fp2.h"
#include "msm/subgroup.h"

#if CUZK_FP_HAVE_IFMA
/* The batch-affine additions run 8 at a time (src/msm/batch_affine_x8.h), coordinates in Fp2. */
#define MSM_BATCH_X8 2
#endif

#define M_(name) cuzk_g2_##name
#define MSM_INTERNAL_(name) cuzk__g2_##name /* src/msm/msm_slices.h, msm_packed.h */
#define MSM_PACKED_BYTES CUZK__G2_PACKED_BYTES
#define F_T cuzk_fp2_t
#define F_ONE cuzk_fp2_set_one
#define F_IS_ZERO msm_fp2_is_zero
#define F_EQ msm_fp2_eq
#define F_ADD msm_fp2_add
#define F_SUB msm_fp2_sub
#define F_DBL msm_fp2_dbl
#define F_NEG msm_fp2_neg
#define F_MUL msm_fp2_mul
#define F_SQR msm_fp2_sqr
#define B_T cuzk_fp_t
#define B_ONE cuzk_fp_set_one
#define B_MUL msm_fp_mul
#define B_INV cuzk_fp_inv_vartime
#define F_NORM msm_fp2_norm
#define F_INV_FROM_NORM msm_fp2_inv_from_norm
#define AFF_T cuzk_g2_affine_t
#define JAC_T cuzk_g2_jac_t
#define XYZZ_T cuzk_g2_xyzz_t
/* cuzk_fp_inv_vartime / cuzk_fp2_mul (docs/PERFORMANCE.md, "Field arithmetic"): ~3.6 us
 * (src/field/fp_inv.c; ~17-21 us before) / ~170 ns. */
#define MSM_INV_COST 21.0
/* N(a) = a0^2 + a1^2 (u^2 = -1), and 1/a = conj(a) / N(a). */
static inline void msm_fp2_norm(cuzk_fp_t *n, const cuzk_fp2_t *a)
{
    cuzk_fp_t t;
    msm_fp_sqr(n, &a->c0);
    msm_fp_sqr(&t, &a->c1);
    msm_fp_add(n, n, &t);
}

static inline void msm_fp2_inv_from_norm(cuzk_fp2_t *inv, const cuzk_fp2_t *a,
                                         const cuzk_fp_t *ninv)
{
    cuzk_fp_t t;
    msm_fp_mul(&inv->c0, &a->c0, ninv);
    msm_fp_mul(&t, &a->c1, ninv);
    msm_fp_neg(&inv->c1, &t);
}

/*
 * GLS split (as cuzk_g2_mul_vartime): psi acts on G2 as [x], x = -c, c = 0xd201000000010000,
 * and r < c^4, so k has four base-c digits d_m and k P = sum_m d_m ((-1)^m psi^m(P)).
 */
#define MSM_ENDO_M 4
#define MSM_ENDO_LIMBS 1
#define MSM_ENDO_BITS 64
/* Automatic up to 2^17 points (three images: 75 MiB at 2^17): faster than the plain MSM there
 * (5-17 %), about even at 2^18 and 5-15 % slower at 2^20, on the development VM's one or two
 * threads and the H200 host's 16 (docs/PERFORMANCE.md, "The endomorphism split above 2^16"). */
#define MSM_ENDO_MAX_N ((size_t)1 << 17)
static void msm_endo_split(uint64_t out[4], const uint64_t k[4])
{
    uint64_t t[4] = {k[0], k[1], k[2], k[3]};
    for (size_t m = 0; m < 4; m++) {
        uint64_t rem = 0;
        for (size_t j = 4; j-- > 0;) /* rem < c: each step's quotient fits */
            t[j] = msm_div128(rem, t[j], CUZK_BLS_X_ABS, &rem);
        out[m] = rem;
    }
}

/* psi(x, y) = (conj(x) cx, conj(y) cy): the constants are psi's image of the Jacobian
 * (1, 1, 1), taken once from the curve code. */
static cuzk_fp2_t msm_psi_c[2];
static pthread_once_t msm_psi_once = PTHREAD_ONCE_INIT;

static void msm_psi_init(void)
{
    cuzk_g2_jac_t one;
    cuzk_fp2_set_one(&one.x);
    cuzk_fp2_set_one(&one.y);
    cuzk_fp2_set_one(&one.z);
    cuzk__g2_psi(&one, &one);
    msm_psi_c[0] = one.x;
    msm_psi_c[1] = one.y;
}

static inline void msm_psi_coord(cuzk_fp2_t *out, const cuzk_fp2_t *a, const cuzk_fp2_t *c)
{
    cuzk_fp2_t t;
    t.c0 = a->c0;
    msm_fp_neg(&t.c1, &a->c1);
    msm_fp2_mul(out, &t, c);
}

static void cuzk_g2_endo_images_(cuzk_g2_affine_t out[3], const cuzk_g2_affine_t *p)
{
    if (p->infinity) {
        for (int m = 0; m < 3; m++)
            cuzk_g2_affine_set_infinity(&out[m]);
        return;
    }
    pthread_once(&msm_psi_once, msm_psi_init);
    cuzk_fp2_t x = p->x, y = p->y;
    for (int m = 0; m < 3; m++) {
        msm_psi_coord(&x, &x, &msm_psi_c[0]);
        msm_psi_coord(&y, &y, &msm_psi_c[1]);
        out[m].x = x;
        out[m].y = y;
        if (!(m & 1)) /* psi^(m+1) with sign (-1)^(m+1) */
            msm_fp2_neg(&out[m].y, &out[m].y);
        out[m].infinity = false;
    }
}

#if CUZK_FP_HAVE_IFMA
/*
 * The same images for 8 points at once (split_chunk_ in src/msm/pippenger_impl.h): six 8-lane
 * Fp2 multiplications per 8 points instead of six scalar ones per point, which were ~2 % of a
 * 2^12 proof. Writes ext[m * n + i + k] for image m < 3 of point p[k], k < 8.
 */
#define MSM_ENDO_IMAGES_X8 1

/* psi's constants (msm_psi_c) in every lane. */
static void msm_psi8_load(fp2x8 *cx, fp2x8 *cy)
{
    pthread_once(&msm_psi_once, msm_psi_init);
    cuzk_fp_t c[4][8];
    for (int k = 0; k < 8; k++) {
        c[0][k] = msm_psi_c[0].c0;
        c[1][k] = msm_psi_c[0].c1;
        c[2][k] = msm_psi_c[1].c0;
        c[3][k] = msm_psi_c[1].c1;
    }
    fp52x8_load(&cx->c0, c[0]);
    fp52x8_load(&cx->c1, c[1]);
    fp52x8_load(&cy->c0, c[2]);
    fp52x8_load(&cy->c1, c[3]);
}

static void cuzk_g2_endo_images_x8_(cuzk_g2_affine_t *ext, size_t n, const cuzk_g2_affine_t *p,
                                    size_t i)
{
    uint64_t src[8], dst[8];
    for (int k = 0; k < 8; k++)
        src[k] = (uint64_t)(uintptr_t)&p[k];
    __m512i sp = _mm512_loadu_si512((const void *)src);
    const __m512i off_y = _mm512_set1_epi64((long long)offsetof(cuzk_g2_affine_t, y));
    fp2x8 x, y, cx, cy, t;
    fp52x8 zero;
    memset(&zero, 0, sizeof zero);
    fp2x8_load_ptrs(&x, sp);
    fp2x8_load_ptrs(&y, _mm512_add_epi64(sp, off_y));
    msm_psi8_load(&cx, &cy);
    __mmask8 live = 0;
    for (int k = 0; k < 8; k++)
        live |= (__mmask8)((unsigned)!p[k].infinity << k);
    for (size_t m = 0; m < 3; m++) {
        fp52x8_sub(&x.c1, &zero, &x.c1); /* conj */
        fp2x8_mul(&x, &x, &cx);
        fp52x8_sub(&y.c1, &zero, &y.c1);
        fp2x8_mul(&y, &y, &cy);
        t = y;
        if (!(m & 1)) { /* psi^(m+1) with sign (-1)^(m+1) */
            fp52x8_sub(&t.c0, &zero, &y.c0);
            fp52x8_sub(&t.c1, &zero, &y.c1);
        }
        cuzk_g2_affine_t *out = ext + m * n + i;
        for (int k = 0; k < 8; k++)
            dst[k] = (uint64_t)(uintptr_t)&out[k];
        __m512i dp = _mm512_loadu_si512((const void *)dst);
        fp2x8_store_ptrs(dp, live, &x);
        fp2x8_store_ptrs(_mm512_add_epi64(dp, off_y), live, &t);
        for (int k = 0; k < 8; k++) {
            if (live >> k & 1)
                out[k].infinity = false;
            else
                cuzk_g2_affine_set_infinity(&out[k]);
        }
    }
}
#endif

#include "msm/pippenger_impl.h"

/* ---- subgroup checks of many points (src/msm/subgroup.h) ---------------------------------- */

extern _Atomic size_t cuzk__subgroup_scalar_; /* defined in msm_g1.c */

size_t cuzk__g2_first_outside_subgroup(const cuzk_g2_affine_t *p, size_t n)
{
    size_t i = 0;
#if CUZK_FP_HAVE_IFMA
    if (cuzk__msm_use_ifma) {
        fp2x8 cx, cy;
        fp52x8 zero;
        memset(&zero, 0, sizeof zero);
        msm_psi8_load(&cx, &cy);
        const __m512i off_y = _mm512_set1_epi64((long long)offsetof(cuzk_g2_affine_t, y));
        for (; i + 8 <= n; i += 8) {
            __m512i sp;
            __mmask8 live =
                msm_x8_live_ptrs(&p[i], sizeof *p, offsetof(cuzk_g2_affine_t, infinity), &sp);
            if (!live)
                continue;
            fp2x8 x, y, ex, ey;
            fp2x8_load_ptrs(&x, sp);
            fp2x8_load_ptrs(&y, _mm512_add_epi64(sp, off_y));
            /* psi(P) = (conj(x) cx, conj(y) cy) */
            ex.c0 = x.c0;
            fp52x8_sub(&ex.c1, &zero, &x.c1);
            fp2x8_mul(&ex, &ex, &cx);
            ey.c0 = y.c0;
            fp52x8_sub(&ey.c1, &zero, &y.c1);
            fp2x8_mul(&ey, &ey, &cy);
            /* psi(P) = [x] P = -[|x|] P (x < 0) */
            __mmask8 unsure,
                ok = cuzk_g2_x8_neg_mul_eq_(&x, &y, 0, CUZK_BLS_X_ABS, &ex, &ey, &unsure);
            __mmask8 check = live & (unsure | (__mmask8)~ok);
            if (check)
                atomic_fetch_add(&cuzk__subgroup_scalar_, (size_t)__builtin_popcount(check));
            for (int k = 0; k < 8; k++)
                if (check >> k & 1 && !cuzk_g2_affine_in_subgroup(&p[i + k]))
                    return i + (size_t)k;
        }
    }
#endif
    atomic_fetch_add(&cuzk__subgroup_scalar_, n - i);
    for (; i < n; i++)
        if (!cuzk_g2_affine_in_subgroup(&p[i]))
            return i;
    return n;
}
