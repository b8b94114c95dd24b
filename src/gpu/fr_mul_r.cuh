/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GPU_FR_MUL_R_CUH
#define CUZK_GPU_FR_MUL_R_CUH

/*
 * Fr multiplications specialised to BLS12-381's r, in two forms (docs/PERFORMANCE.md, "Fr
 * multiplication specialised to r", H200, 10^9 products/s):
 *   fr_mul_r     the NTT's variant 4, field op 6: mont.cuh's variant 1 (64-bit limbs, CIOS on
 *                unsigned __int128) with the reduction's low limb worked out by hand; 47.5
 *                against 40.1 for variant 1;
 *   fr_mul_r_eo  the NTT's variant 5, field op 9: the same on 32-bit words in mont.cuh's even/odd
 *                form (variant 7, 51.1); 53.5, NTT 2^27 46.0 ms against 58.4 ms for variant 1.
 * Every intermediate value, and the result, is the one of the generic algorithm, so both are
 * bit-identical to cuzk_fr_mul (tests/unit/test_gpu_fr_mul_host.c, on the host).
 *
 * fr_mul_r:
 *
 * r0 = r mod 2^64 = 2^64 - 2^32 + 1, so -r^-1 mod 2^64 = 2^64 - 2^32 - 1 = -(2^32 + 1): in each of
 * the 4 rows
 *   q = t0 * (-r^-1) mod 2^64 = -(t0 + (t0 << 32)) mod 2^64           (adds, no multiplication)
 *   C = (t0 + q r0) >> 64, the carry out of the cleared limb, without the product q * r0:
 *     q r0 = q 2^64 - q 2^32 + q; with q = qh 2^32 + ql, q 2^32 = qh 2^64 + ql 2^32, so
 *     t0 + q r0 = (q - qh) 2^64 + X with X = t0 + q - ql 2^32. X = 0 mod 2^64 (q clears the limb)
 *     and 0 <= X < 2^65, so X is 0 or 2^64, and X / 2^64 is the carry out of the 64-bit t0 + q
 *     (whose low 64 bits must be ql 2^32 < 2^64): C = q - (q >> 32) + carry(t0 + q).
 * That saves the q multiplication and one of the four 64 x 64 products of q * r per row (the other
 * limbs of r are not special): 4 + 3 products per row instead of 4 + 4 + 1.
 *
 * Bounds (the "no-carry" CIOS): r < 2^255 (r / 2^255 = 0.906). Let a, b < r and let t < 2r hold
 * at the start of a row (t = 0 at the first). The row computes S = t + a b_i + q r exactly, with
 * b_i, q < 2^64: S < 2r + (2^64 - 1)(r - 1) + (2^64 - 1) r < 2^65 r < 2^320, so S fits five limbs,
 * and S / 2^64 < 2r < 2^256 fits four. Each step of the two chains, x y + t_j + carry with x, y,
 * t_j, carry < 2^64, is at most (2^64 - 1)^2 + 2 (2^64 - 1) = 2^128 - 1, so no __int128 overflows;
 * the fifth limb of S is exactly A + C (the two chains' final carries; t has no fifth limb), and
 * it is a limb of S < 2^320, so A + C < 2^64: no carry is lost. After the last row
 * t = a b 2^-256 mod r, t < 2r, and one conditional subtraction of r makes it canonical.
 * q is computed through mont.cuh's carry primitives: written in plain C, nvcc turns
 * -(t0 + (t0 << 32)) back into a multiplication by -(2^32 + 1) and folds it into the q * r
 * products (sm_90 SASS: 362 IMAD slots per product instead of 308).
 */

#include "gpu/fr.cuh"

/* r = a b / 2^256 mod r on 8 32-bit words (w[2i] = low half of limb i), a, b < r; RED = false
 * skips the final subtraction (result in [0, 2r); Fr has no room for lazy inputs: 4r > 2^256).
 * Outputs may alias inputs. */
template <bool RED = true>
CUZK_MONT_FN void fr_mul_r(uint32_t *r, const uint32_t *a32, const uint32_t *b32)
{
    CZ_CC;
    typedef unsigned __int128 u128;
    uint64_t a[4], b[4], m[4], t[4];
#pragma unroll
    for (int i = 0; i < 4; i++) {
        m[i] = fr_params::m(2 * i) | ((uint64_t)fr_params::m(2 * i + 1) << 32);
        a[i] = a32[2 * i] | ((uint64_t)a32[2 * i + 1] << 32);
        b[i] = b32[2 * i] | ((uint64_t)b32[2 * i + 1] << 32);
        t[i] = 0;
    }
#pragma unroll
    for (int i = 0; i < 4; i++) {
        const uint64_t bi = b[i];
        u128 uv = (u128)a[0] * bi + t[0];
        uint64_t A = (uint64_t)(uv >> 64);
        /* q and C on 32-bit halves (carry primitives: see the comment above) */
        const uint32_t tl = (uint32_t)uv, th = (uint32_t)((uint64_t)uv >> 32);
        uint32_t ql, qh, x, c;
        CZ_SUB_CC(ql, 0u, tl); /* q = -(t0 + (tl << 32)): low word -tl, high -th - tl - borrow */
        CZ_SUBC(qh, 0u, th);
        qh -= tl;
        CZ_ADD_CC(x, tl, ql); /* c = carry out of t0 + q */
        CZ_ADDC_CC(x, th, qh);
        CZ_ADDC(c, 0u, 0u);
        (void)x;
        const uint64_t q = ql | ((uint64_t)qh << 32);
        uint64_t C = q - qh + c;
#pragma unroll
        for (int j = 1; j < 4; j++) {
            uv = (u128)a[j] * bi + t[j] + A;
            A = (uint64_t)(uv >> 64);
            t[j] = (uint64_t)uv;
            uv = (u128)q * m[j] + t[j] + C;
            C = (uint64_t)(uv >> 64);
            t[j - 1] = (uint64_t)uv;
        }
        t[3] = C + A;
    }
    uint32_t t32[8];
#pragma unroll
    for (int i = 0; i < 4; i++) {
        t32[2 * i] = (uint32_t)t[i];
        t32[2 * i + 1] = (uint32_t)(t[i] >> 32);
    }
    fr_mont::finish<RED>(r, t32);
}

/*
 * The same specialisation on 32-bit words, in the even/odd form of mont.cuh's mul_eo (variant 7:
 * see its comment for the two accumulators and why no chain loses a carry). Words 0 and 1 of r
 * are 1 and 2^32 - 1, and -r^-1 mod 2^32 = 2^32 - 1, so per row:
 *   q = -t0 mod 2^32                                       (no multiplication)
 *   q * r_0 = q: word 0 of e becomes t0 + q = 0 mod 2^32, carrying (t0 != 0); its high word is 0;
 *   q * r_1 = q 2^32 - q = (q - 1) 2^32 + (2^32 - q) for q != 0 (0 for q = 0): low word t0,
 *     high word q - (t0 != 0), the borrow of 0 - t0;
 * so the row has 6 products of q * r instead of 8, and no q multiplication. Every word added is the
 * one mul_eo adds, so its bounds hold unchanged and the result is bit-identical. In short: e holds
 * words 0..8 of the row value V and o words 1..8 (o[j] is word j + 1); all terms are non-negative,
 * so e <= V and 2^32 o <= V at every step, and V = t + a b_i + q r < 2^288 (t < 2r, r < 2^255, as
 * above), so e fits 9 words and o 8, no chain loses a carry, and V / 2^32 = e[1..8] + o < 2r fits
 * 8 words.
 */
template <bool RED = true>
CUZK_MONT_FN void fr_mul_r_eo(uint32_t *r, const uint32_t *a, const uint32_t *b0)
{
    constexpr int N = CUZK_GPU_FR_WORDS;
    CZ_CC;
    uint32_t e[N + 1], o[N], b[N];
#pragma unroll
    for (int j = 0; j < N; j++)
        b[j] = b0[j];
#pragma unroll
    for (int j = 0; j < N + 1; j++)
        e[j] = 0;
#pragma unroll
    for (int i = 0; i < N; i++) {
        const uint32_t bi = b[i];
#pragma unroll
        for (int j = 0; j < N; j++)
            o[j] = 0;
        fr_mont::row_prod_eo(e, o, a, bi); /* e += a_even bi, o += a_odd bi */
        /* q = -t0 and qh = q - (t0 != 0), the high word of q r_1 */
        const uint32_t t0 = e[0];
        uint32_t q, qh;
        CZ_SUB_CC(q, 0u, t0);
        CZ_SUBC(qh, q, 0u);
        /* e += r_even q (clears e[0]; word 0 of r is 1) */
        CZ_ADD_CC(e[0], e[0], q);
        CZ_ADDC_CC(e[1], e[1], 0u);
#pragma unroll
        for (int j = 2; j < N; j += 2) {
            CZ_MADCLO_CC(e[j], fr_params::m(j), q, e[j]);
            CZ_MADCHI_CC(e[j + 1], fr_params::m(j), q, e[j + 1]);
        }
        CZ_ADDC(e[N], e[N], 0u);
        /* o += r_odd q (word 1 of r is 2^32 - 1: q r_1 = qh 2^32 + t0) */
        CZ_ADD_CC(o[0], o[0], t0);
        CZ_ADDC_CC(o[1], o[1], qh);
#pragma unroll
        for (int j = 2; j < N - 2; j += 2) {
            CZ_MADCLO_CC(o[j], fr_params::m(j + 1), q, o[j]);
            CZ_MADCHI_CC(o[j + 1], fr_params::m(j + 1), q, o[j + 1]);
        }
        CZ_MADCLO_CC(o[N - 2], fr_params::m(N - 1), q, o[N - 2]);
        CZ_MADCHI(o[N - 1], fr_params::m(N - 1), q, o[N - 1]);
        fr_mont::row_shift_(e, o); /* t = V / 2^32 = e[1..N] + o */
    }
    fr_mont::finish<RED>(r, e);
}

#endif
