/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GPU_FR_SHOUP_CUH
#define CUZK_GPU_FR_SHOUP_CUH

/*
 * Fr multiplication by a constant with a precomputed quotient (Shoup's method), for the NTT's
 * butterflies, whose second factor is always a root of unity from a small table.
 *
 * With beta = 2^256, a constant w < r (plain, not Montgomery) is stored with its companion
 * wq = ceil(w beta / r). For any a < beta, q = floor(a wq / beta) estimates a w / r, and
 * a w - q r is a w mod r up to one r either way. When a is the Montgomery form x beta mod r,
 * a w mod r is the Montgomery form of x w: the result equals fr_mul_r_eo(a, w beta mod r) limb for
 * limb, with about 3/4 of its products (a w and q r only below beta, a wq only above it):
 *
 *   1. q: the words 8..15 of T = the sum of the partial products a_i wq_j 2^(32(i+j)) with
 *      i + j >= 6. The left-out ones sum to less than 7 * 2^224 + 6 * 2^224 + ... < 2^228, so
 *      q = floor(a wq / beta) or one less (when the fraction of a wq / beta is below 2^-28).
 *   2. d = a w - q r mod beta (the low halves only; r's words 0 and 1 are 1 and 2^32 - 1, so their
 *      rows are additions).
 *   3. Bounds: wq = w beta / r + th with 0 <= th < 1, so a wq / beta = a w / r + a th / beta, the
 *      second term in [0, 1). With q = floor(a wq / beta), D = a w - q r = r (frac - a th / beta)
 *      lies in (-r, r); in the rare q - 1 case frac < 2^-28 and D / r lies in (0, 1 + 2^-28).
 *      So D is in (-r, r (1 + 2^-28)), and since r < beta / 2 (r / beta = 0.4528) d = D mod beta
 *      has its top bit set exactly when D < 0: then the result is d + r, otherwise d, or d - r
 *      when d >= r. The result is canonical.
 *
 * fr_shoup_companion computes wq and the plain w from the Montgomery form m = w beta mod r:
 * w beta - m is a multiple of r, and (w beta - m) / r = floor(w beta / r) < beta, so the quotient
 * is -m r^-1 mod beta (an exact division as a product by r^-1 mod beta), plus 1 unless w = 0.
 */

#include "gpu/fr_mul_r.cuh"

/* t += v m 2^(32 off) mod 2^256 for the words v[idx] with idx = par (mod 2), off + idx <= 7: one
 * carry chain in which each product's low and high halves are adjacent (words off + idx and
 * off + idx + 1), which ptxas fuses into one IMAD.WIDE (mont.cuh's even/odd form). The chain
 * reaches word 7 (with a low-only product or a high half there) and its carry out is dropped. */
template <int OFF, int PAR>
CUZK_MONT_FN void shoup_chain_lo_(uint32_t *t, const uint32_t *v, uint32_t m)
{
    CZ_CC;
#pragma unroll
    for (int idx = PAR; OFF + idx <= 7; idx += 2) {
        const int k = OFF + idx;
        const bool first = idx == PAR;
        if (k == 7) {
            if (first)
                t[7] += v[idx] * m;
            else
                CZ_MADCLO(t[7], v[idx], m, t[7]);
        } else {
            if (first)
                CZ_MADLO_CC(t[k], v[idx], m, t[k]);
            else
                CZ_MADCLO_CC(t[k], v[idx], m, t[k]);
            if (k + 1 == 7)
                CZ_MADCHI(t[7], v[idx], m, t[7]);
            else
                CZ_MADCHI_CC(t[k + 1], v[idx], m, t[k + 1]);
        }
    }
}

/* t += v m 2^(32 off) mod 2^256 (both parities). */
template <int OFF> CUZK_MONT_FN void shoup_row_lo_(uint32_t *t, const uint32_t *v, uint32_t m)
{
    shoup_chain_lo_<OFF, 0>(t, v, m);
    shoup_chain_lo_<OFF, 1>(t, v, m);
}

/* t = x y mod 2^256: row i adds y x_i at word i. */
CUZK_MONT_FN void shoup_mul_lo_(uint32_t *t, const uint32_t *x, const uint32_t *y)
{
#pragma unroll
    for (int k = 0; k < 8; k++)
        t[k] = 0;
    shoup_row_lo_<0>(t, y, x[0]);
    shoup_row_lo_<1>(t, y, x[1]);
    shoup_row_lo_<2>(t, y, x[2]);
    shoup_row_lo_<3>(t, y, x[3]);
    shoup_row_lo_<4>(t, y, x[4]);
    shoup_row_lo_<5>(t, y, x[5]);
    shoup_row_lo_<6>(t, y, x[6]);
    shoup_row_lo_<7>(t, y, x[7]);
}

/* One row of step 1 (q): e += x_j y for even j >= J0, o += x_j y for odd j >= J0 (mont.cuh's
 * row_prod_eo without the products below word J0), then e = (e + 2^32 o) / 2^32. Over the rows,
 * e ends as floor(T / 2^256): floors of successive divisions compose exactly. Bound: after row i,
 * e <= floor(A_i wq / 2^(32(i+1))) < 2^256 with A_i = a mod 2^(32(i+1)), so the row value
 * V = e + a_i wq < 2^288: e fits 9 words and o 8 (o's chain carries out nothing). */
template <int J0> CUZK_MONT_FN void shoup_row_hi_(uint32_t *e, const uint32_t *x, uint32_t y)
{
    CZ_CC;
    uint32_t o[8];
#pragma unroll
    for (int j = 0; j < 8; j++)
        o[j] = 0;
    constexpr int E0 = (J0 + 1) & ~1, O0 = J0 | 1;
#pragma unroll
    for (int j = E0; j < 8; j += 2) {
        if (j == E0)
            CZ_MADLO_CC(e[j], x[j], y, e[j]);
        else
            CZ_MADCLO_CC(e[j], x[j], y, e[j]);
        CZ_MADCHI_CC(e[j + 1], x[j], y, e[j + 1]);
    }
    CZ_ADDC(e[8], e[8], 0u);
#pragma unroll
    for (int j = O0; j < 8; j += 2) { /* o[k] is word k + 1: x_j y at words j, j + 1 */
        if (j == O0)
            CZ_MADLO_CC(o[j - 1], x[j], y, o[j - 1]);
        else
            CZ_MADCLO_CC(o[j - 1], x[j], y, o[j - 1]);
        if (j == 7)
            CZ_MADCHI(o[7], x[j], y, o[7]);
        else
            CZ_MADCHI_CC(o[j], x[j], y, o[j]);
    }
    fr_mont::row_shift_(e, o);
}

/* r = a w mod r, canonical, for any a < 2^256, w < r plain and wq = ceil(w 2^256 / r) (see the
 * file comment). Outputs may alias inputs. */
CUZK_MONT_FN void fr_mul_shoup(uint32_t *res, const uint32_t *a, const uint32_t *w,
                               const uint32_t *wq)
{
    CZ_CC;
    /* 1. q = floor(T / 2^256), T the partial products a_i wq_j with i + j >= 6 */
    uint32_t q[9];
#pragma unroll
    for (int k = 0; k < 9; k++)
        q[k] = 0;
    shoup_row_hi_<6>(q, wq, a[0]);
    shoup_row_hi_<5>(q, wq, a[1]);
    shoup_row_hi_<4>(q, wq, a[2]);
    shoup_row_hi_<3>(q, wq, a[3]);
    shoup_row_hi_<2>(q, wq, a[4]);
    shoup_row_hi_<1>(q, wq, a[5]);
    shoup_row_hi_<0>(q, wq, a[6]);
    shoup_row_hi_<0>(q, wq, a[7]);

    /* 2. d = a w - q r mod 2^256 */
    uint32_t d[8], v[8];
    shoup_mul_lo_(d, a, w);
    /* v = q r mod 2^256: q (r_0 = 1), q (2^64 - 2^32) (r_1 = 2^32 - 1 at word 1), rows 2..7 */
#pragma unroll
    for (int k = 0; k < 8; k++)
        v[k] = q[k];
    CZ_SUB_CC(v[1], v[1], q[0]);
#pragma unroll
    for (int k = 2; k < 8; k++)
        CZ_SUBC_CC(v[k], v[k], q[k - 1]);
    CZ_ADD_CC(v[2], v[2], q[0]);
#pragma unroll
    for (int k = 3; k < 8; k++)
        CZ_ADDC_CC(v[k], v[k], q[k - 2]);
    shoup_row_lo_<2>(v, q, fr_params::m(2));
    shoup_row_lo_<3>(v, q, fr_params::m(3));
    shoup_row_lo_<4>(v, q, fr_params::m(4));
    shoup_row_lo_<5>(v, q, fr_params::m(5));
    shoup_row_lo_<6>(v, q, fr_params::m(6));
    shoup_row_lo_<7>(v, q, fr_params::m(7));
    CZ_SUB_CC(d[0], d[0], v[0]);
#pragma unroll
    for (int k = 1; k < 8; k++)
        CZ_SUBC_CC(d[k], d[k], v[k]);

    /* 3. d + r when d's top bit is set (D < 0), else d - r unless that borrows */
    uint32_t p[8], m[8], borrow;
    CZ_ADD_CC(p[0], d[0], fr_params::m(0));
#pragma unroll
    for (int k = 1; k < 8; k++)
        CZ_ADDC_CC(p[k], d[k], fr_params::m(k));
    CZ_SUB_CC(m[0], d[0], fr_params::m(0));
#pragma unroll
    for (int k = 1; k < 8; k++)
        CZ_SUBC_CC(m[k], d[k], fr_params::m(k));
    CZ_SUBC(borrow, 0u, 0u); /* all ones when d < r */
    const uint32_t neg = 0u - (d[7] >> 31);
#pragma unroll
    for (int k = 0; k < 8; k++) {
        const uint32_t pos = (d[k] & borrow) | (m[k] & ~borrow);
        res[k] = (p[k] & neg) | (pos & ~neg);
    }
}

/* From m = w 2^256 mod r (a Montgomery form): w itself and wq = ceil(w 2^256 / r). */
CUZK_MONT_FN void fr_shoup_companion(uint32_t *w, uint32_t *wq, const uint32_t *m)
{
    CZ_CC;
    /* r^-1 mod 2^256 (a wrong word fails gpu_fr_shoup_host's known companions) */
    constexpr uint32_t RINV[8] = {0x00000001u, 0x00000001u, 0x0001a402u, 0xac45a400u,
                                  0xfffb13f9u, 0xe7e4d3e8u, 0x2840d7c6u, 0xc2bbc54fu};
    uint32_t t[8], one[8] = {1, 0, 0, 0, 0, 0, 0, 0}, nz = 0;
    fr_mul_r_eo(w, m, one); /* m 1 / 2^256 = w */
    shoup_mul_lo_(t, m, RINV);
    /* wq = -t + (m != 0) = ~t + 1 + (m != 0) */
#pragma unroll
    for (int k = 0; k < 8; k++)
        nz |= m[k];
    const uint32_t inc = 1u + (nz != 0);
    CZ_ADD_CC(wq[0], ~t[0], inc);
#pragma unroll
    for (int k = 1; k < 8; k++)
        CZ_ADDC_CC(wq[k], ~t[k], 0u);
}

#endif
