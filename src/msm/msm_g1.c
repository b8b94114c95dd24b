/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* MSM and bitmap batch addition in G1 (over Fp): src/msm/pippenger_impl.h instantiated. */
#include "cuzk/msm.h"
#include "curve/curve_internal.h"
#include "msm/msm_common.h"
#include "msm/msm_packed.h"
#include "msm/msm_slices.h"
#include "msm/msm_ifma.h"
#include "msm/msm_job.h"
#include "msm/subgroup.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

bool cuzk__msm_use_ifma = true;
#if CUZK_FP_HAVE_IFMA
/* The batch-affine additions run 8 at a time (src/msm/batch_affine_x8.h), coordinates in Fp. */
#define MSM_BATCH_X8 1
#endif

#define M_(name) cuzk_g1_##name
#define MSM_INTERNAL_(name) cuzk__g1_##name /* src/msm/msm_slices.h, msm_packed.h */
#define MSM_PACKED_BYTES CUZK__G1_PACKED_BYTES
#define F_T cuzk_fp_t
#define F_ONE cuzk_fp_set_one
#define F_IS_ZERO msm_fp_is_zero
#define F_EQ msm_fp_eq
#define F_ADD msm_fp_add
#define F_SUB msm_fp_sub
#define F_DBL msm_fp_dbl
#define F_NEG msm_fp_neg
#define F_MUL msm_fp_mul
#define F_SQR msm_fp_sqr
#define B_T cuzk_fp_t
#define B_ONE cuzk_fp_set_one
#define B_MUL msm_fp_mul
#define B_INV cuzk_fp_inv_vartime
#define F_NORM(n, a) (*(n) = *(a))
#define F_INV_FROM_NORM(inv, a, ninv) (*(inv) = *(ninv))
#define AFF_T cuzk_g1_affine_t
#define JAC_T cuzk_g1_jac_t
#define XYZZ_T cuzk_g1_xyzz_t
/* cuzk_fp_inv_vartime / cuzk_fp_mul measured on the development machine: ~3.6 us (binary GCD on
 * 64-bit approximations, src/field/fp_inv.c; ~21 us before) / ~45 ns. */
#define MSM_INV_COST 80.0
/*
 * GLV split (as cuzk_g1_mul_vartime): phi(x, y) = (beta x, y) acts on G1 as [-z], z = x^2
 * (128 bits), and r = z^2 - z + 1, so k = q z + s with q, s < z and k P = s P + q (-phi(P)).
 */
#define MSM_ENDO_M 2
#define MSM_ENDO_LIMBS 2
#define MSM_ENDO_BITS 128
/* Automatic up to 2^22 points, whose image takes 2^22 affine points (416 MiB) of working
 * memory: faster than the plain MSM at every size measured from 2^17 to 2^22, by 2-28 % on one
 * and two threads of the development VM and 3-21 % on the H200 host's 16 (docs/PERFORMANCE.md,
 * "The endomorphism split above 2^16"). */
#define MSM_ENDO_MAX_N ((size_t)1 << 22)
static void msm_endo_split(uint64_t out[4], const uint64_t k[4])
{
    typedef unsigned __int128 u128;
    /* k / z by schoolbook division in base 2^64 (Knuth's algorithm D): z's top limb has its
     * top bit set, so each quotient limb is estimated from the top limb and corrected at
     * most twice; k < r < 2^255 and z > 2^127 leave two quotient limbs. */
    const uint64_t v1 = 0xac45a4010001a402ULL, v0 = 0x0000000100000000ULL;
    uint64_t u[5] = {k[0], k[1], k[2], k[3], 0}, q[2];
    for (int j = 1; j >= 0; j--) {
        u128 qh, rh;
        if (u[j + 2] >= v1) { /* the estimate would not fit: start from 2^64 - 1 */
            qh = UINT64_MAX;
            rh = (((u128)u[j + 2] << 64) | u[j + 1]) - qh * v1;
        } else {
            uint64_t r;
            qh = msm_div128(u[j + 2], u[j + 1], v1, &r);
            rh = r;
        }
        while (!(rh >> 64) && qh * v0 > ((rh << 64) | u[j])) {
            qh--;
            rh += v1;
        }
        /* u[j..j+2] -= qh * (v1, v0) */
        u128 p0 = qh * v0, p1 = qh * v1 + (uint64_t)(p0 >> 64);
        u128 d0 = (u128)u[j] - (uint64_t)p0;
        u128 d1 = (u128)u[j + 1] - (uint64_t)p1 - (uint64_t)((d0 >> 64) & 1);
        u128 d2 = (u128)u[j + 2] - (uint64_t)(p1 >> 64) - (uint64_t)((d1 >> 64) & 1);
        u[j] = (uint64_t)d0;
        u[j + 1] = (uint64_t)d1;
        u[j + 2] = (uint64_t)d2;
        if ((d2 >> 64) & 1) { /* one too many: add z back */
            qh--;
            u128 a0 = (u128)u[j] + v0;
            u128 a1 = (u128)u[j + 1] + v1 + (uint64_t)(a0 >> 64);
            u[j] = (uint64_t)a0;
            u[j + 1] = (uint64_t)a1;
            u[j + 2] += (uint64_t)(a1 >> 64);
        }
        q[j] = (uint64_t)qh;
    }
    out[0] = u[0];
    out[1] = u[1];
    out[2] = q[0];
    out[3] = q[1];
}

static void cuzk_g1_endo_images_(cuzk_g1_affine_t out[1], const cuzk_g1_affine_t *p)
{
    if (p->infinity) {
        cuzk_g1_affine_set_infinity(&out[0]);
        return;
    }
    cuzk_g1_jac_t j = {p->x, p->y, p->x}, t; /* z is not read by phi's x, y */
    cuzk__g1_phi(&t, &j);
    out[0].x = t.x;
    cuzk_fp_neg(&out[0].y, &p->y); /* -phi(P) */
    out[0].infinity = false;
}

#if CUZK_FP_HAVE_IFMA
static fp52x8 msm_beta8; /* beta (Montgomery form) in every lane */
static pthread_once_t msm_beta_once = PTHREAD_ONCE_INIT;

static void msm_beta_init(void)
{
    cuzk_g1_jac_t one, t;
    cuzk_fp_set_one(&one.x);
    one.y = one.z = one.x;
    cuzk__g1_phi(&t, &one); /* phi scales x by beta */
    cuzk_fp_t b[8];
    for (int k = 0; k < 8; k++)
        b[k] = t.x;
    fp52x8_load(&msm_beta8, b);
}

/*
 * The images -phi(P) = (beta x, -y) of 8 points at once (split_chunk_ in
 * src/msm/pippenger_impl.h): one 8-lane product instead of 8 scalar ones (~9 ms of the four G1
 * MSMs of a 2^16 snarkjs proof). Writes ext[i + k], k < 8 (one image per point: ext holds
 * MSM_ENDO_M - 1 = 1 array of n).
 */
#define MSM_ENDO_IMAGES_X8 1
static void cuzk_g1_endo_images_x8_(cuzk_g1_affine_t *ext, size_t n, const cuzk_g1_affine_t *p,
                                    size_t i)
{
    (void)n;
    pthread_once(&msm_beta_once, msm_beta_init);
    uint64_t src[8], dst[8];
    __mmask8 live = 0;
    for (int k = 0; k < 8; k++) {
        src[k] = (uint64_t)(uintptr_t)&p[k];
        dst[k] = (uint64_t)(uintptr_t)&ext[i + k];
        live |= (__mmask8)((unsigned)!p[k].infinity << k);
    }
    const __m512i off_y = _mm512_set1_epi64((long long)offsetof(cuzk_g1_affine_t, y));
    __m512i sp = _mm512_loadu_si512((const void *)src), dp = _mm512_loadu_si512((const void *)dst);
    fp52x8 x, y, zero;
    memset(&zero, 0, sizeof zero);
    fp52x8_load_ptrs(&x, sp);
    fp52x8_load_ptrs(&y, _mm512_add_epi64(sp, off_y));
    fp52x8_mul(&x, &x, &msm_beta8);
    fp52x8_sub(&y, &zero, &y); /* 2p - y, or 0: stored canonical */
    fp52x8_store_ptrs(dp, live, &x);
    fp52x8_store_ptrs(_mm512_add_epi64(dp, off_y), live, &y);
    for (int k = 0; k < 8; k++) {
        if (live >> k & 1)
            ext[i + k].infinity = false;
        else
            cuzk_g1_affine_set_infinity(&ext[i + k]);
    }
}
#endif

#define MSM_JOB_(name) cuzk__g1_msm_job_##name /* src/msm/msm_job.h */
#include "msm/pippenger_impl.h"

/* ---- subgroup checks of many points (src/msm/subgroup.h) ---------------------------------- */

_Atomic size_t cuzk__subgroup_scalar_; /* cuzk__subgroup_scalar_count; also counted by msm_g2.c */

size_t cuzk__subgroup_scalar_count(void)
{
    return atomic_load(&cuzk__subgroup_scalar_);
}

size_t cuzk__g1_first_outside_subgroup(const cuzk_g1_affine_t *p, size_t n)
{
    size_t i = 0;
#if CUZK_FP_HAVE_IFMA
    if (cuzk__msm_use_ifma) {
        pthread_once(&msm_beta_once, msm_beta_init);
        const unsigned __int128 z = (unsigned __int128)CUZK_BLS_X_ABS * CUZK_BLS_X_ABS;
        const __m512i off_y = _mm512_set1_epi64((long long)offsetof(cuzk_g1_affine_t, y));
        for (; i + 8 <= n; i += 8) {
            __m512i sp;
            __mmask8 live =
                msm_x8_live_ptrs(&p[i], sizeof *p, offsetof(cuzk_g1_affine_t, infinity), &sp);
            if (!live)
                continue;
            fp52x8 x, y, ex;
            fp52x8_load_ptrs(&x, sp);
            fp52x8_load_ptrs(&y, _mm512_add_epi64(sp, off_y));
            fp52x8_mul(&ex, &x, &msm_beta8); /* phi(P) = (beta x, y) */
            __mmask8 unsure, ok = cuzk_g1_x8_neg_mul_eq_(&x, &y, (uint64_t)(z >> 64), (uint64_t)z,
                                                         &ex, &y, &unsure);
            __mmask8 check = live & (unsure | (__mmask8)~ok);
            if (check)
                atomic_fetch_add(&cuzk__subgroup_scalar_, (size_t)__builtin_popcount(check));
            for (int k = 0; k < 8; k++)
                if (check >> k & 1 && !cuzk_g1_affine_in_subgroup(&p[i + k]))
                    return i + (size_t)k;
        }
    }
#endif
    atomic_fetch_add(&cuzk__subgroup_scalar_, n - i);
    for (; i < n; i++)
        if (!cuzk_g1_affine_in_subgroup(&p[i]))
            return i;
    return n;
}
