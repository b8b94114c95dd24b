/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GPU_MONT_KA_CUH
#define CUZK_GPU_MONT_KA_CUH

/*
 * Karatsuba products for src/gpu/mont.cuh (mont_dev<F>::ka; used by mul and mul_diff under
 * CUZK_GPU_MONT_KARA, and by the field micro-kernels and host tests). The 2N-word product
 * W = a b comes from three (N/2)-word even/odd products (subtractive Karatsuba: a0 b1 + a1 b0 =
 * a0 b0 + a1 b1 - (a0 - a1)(b0 - b1)) and is reduced as sqr_eo reduces its square
 * (mont_dev::redc_wide). Fp: 3 * 36 + 144 = 252 word products against mul_eo's 288. Same contract
 * and results as mul_eo: every REDC of the same W gives the same value. Measured slower than
 * mul_eo on the H200 (docs/PERFORMANCE.md "Karatsuba products"): ptxas turns the saved products
 * into as many IMAD.MOV register moves on the same pipe, and the instruction count grows.
 */

#include "gpu/mont.cuh"

template <class F> struct mont_ka {
    typedef mont_dev<F> M;
    static constexpr int N = M::N;

    /* w[0..2K) = x y for K-word x, y (K even). Row i adds x_j y_i at word i + j in two chains
     * split by the parity of j, so each product's lo and hi halves are adjacent (one IMAD.WIDE).
     * Before row i, w = x (y mod 2^(32i)) < 2^(32(K+i)), so w[i + K] is still zero when the even
     * chain (top hi word i + K - 1) carries into it, and the odd chain (top hi word i + K) cannot
     * carry out: after the row w = x (y mod 2^(32(i+1))) < 2^(32(K+i+1)). */
    template <int K>
    static CUZK_MONT_FN void prod_eo(uint32_t *w, const uint32_t *x, const uint32_t *y)
    {
        static_assert(K % 2 == 0 && K >= 4, "prod_eo: K even");
#pragma unroll
        for (int k = 0; k < 2 * K; k++)
            w[k] = 0;
#pragma unroll
        for (int i = 0; i < K; i++) {
            CZ_CC;
            const uint32_t yi = y[i];
            CZ_MADLO_CC(w[i], x[0], yi, w[i]);
            CZ_MADCHI_CC(w[i + 1], x[0], yi, w[i + 1]);
#pragma unroll
            for (int j = 2; j < K; j += 2) {
                CZ_MADCLO_CC(w[i + j], x[j], yi, w[i + j]);
                CZ_MADCHI_CC(w[i + j + 1], x[j], yi, w[i + j + 1]);
            }
            CZ_ADDC(w[i + K], w[i + K], 0u);
            CZ_MADLO_CC(w[i + 1], x[1], yi, w[i + 1]);
            CZ_MADCHI_CC(w[i + 2], x[1], yi, w[i + 2]);
#pragma unroll
            for (int j = 3; j < K - 1; j += 2) {
                CZ_MADCLO_CC(w[i + j], x[j], yi, w[i + j]);
                CZ_MADCHI_CC(w[i + j + 1], x[j], yi, w[i + j + 1]);
            }
            CZ_MADCLO_CC(w[i + K - 1], x[K - 1], yi, w[i + K - 1]);
            CZ_MADCHI(w[i + K], x[K - 1], yi, w[i + K]);
        }
    }

    /* d = |x - y| for K-word x, y; returns 1 when x < y. */
    template <int K>
    static CUZK_MONT_FN uint32_t abs_diff(uint32_t *d, const uint32_t *x, const uint32_t *y)
    {
        CZ_CC;
        uint32_t mask;
        CZ_SUB_CC(d[0], x[0], y[0]);
#pragma unroll
        for (int i = 1; i < K; i++)
            CZ_SUBC_CC(d[i], x[i], y[i]);
        CZ_SUBC(mask, 0u, 0u); /* all ones when it borrowed: then d = ~d + 1 */
#pragma unroll
        for (int i = 0; i < K; i++)
            d[i] ^= mask;
        CZ_SUB_CC(d[0], d[0], mask);
#pragma unroll
        for (int i = 1; i < K - 1; i++)
            CZ_SUBC_CC(d[i], d[i], mask);
        CZ_SUBC(d[K - 1], d[K - 1], mask);
        return mask & 1u;
    }

    /* r = x + y (r = x - y with SUB) over K words, no carry out (borrow) by the caller's bounds;
     * r may be x or y. */
    template <int K, bool SUB = false>
    static CUZK_MONT_FN void chain(uint32_t *r, const uint32_t *x, const uint32_t *y)
    {
        CZ_CC;
        if constexpr (SUB)
            CZ_SUB_CC(r[0], x[0], y[0]);
        else
            CZ_ADD_CC(r[0], x[0], y[0]);
#pragma unroll
        for (int j = 1; j < K - 1; j++) {
            if constexpr (SUB)
                CZ_SUBC_CC(r[j], x[j], y[j]);
            else
                CZ_ADDC_CC(r[j], x[j], y[j]);
        }
        if constexpr (SUB)
            CZ_SUBC(r[K - 1], x[K - 1], y[K - 1]);
        else
            CZ_ADDC(r[K - 1], x[K - 1], y[K - 1]);
    }
    /* w[0..2N) = a b (a, b < 2^(32N)), Karatsuba on halves of H = N/2 words. The middle term
     * a0 b1 + a1 b0 < 2^(32N + 1) fits N + 1 words and is formed mod 2^(32(N+1)) as
     * z0 + z2 -+ |a0 - a1| |b0 - b1| (minus when the two differences have the same sign). */
    static CUZK_MONT_FN void prod_ka(uint32_t *w, const uint32_t *a, const uint32_t *b)
    {
        constexpr int H = N / 2;
        static_assert(H % 2 == 0, "prod_ka: N a multiple of 4");
        uint32_t da[H], db[H], zm[N], mid[N + 1];
        const uint32_t sa = abs_diff<H>(da, a, a + H), sb = abs_diff<H>(db, b, b + H);
        prod_eo<H>(w, a, b);             /* z0 = a0 b0 at words 0..N-1 */
        prod_eo<H>(w + N, a + H, b + H); /* z2 = a1 b1 at words N..2N-1 */
        prod_eo<H>(zm, da, db);
        CZ_CC;
        CZ_ADD_CC(mid[0], w[0], w[N]);
#pragma unroll
        for (int j = 1; j < N; j++)
            CZ_ADDC_CC(mid[j], w[j], w[N + j]);
        CZ_ADDC(mid[N], 0u, 0u);
        /* mid += zm ^ mask + (mask & 1): mask all ones subtracts zm (two's complement); the
         * first add only sets the carry flag to mask & 1 (mask + 1 carries out iff mask != 0). */
        const uint32_t mask = 0u - (1u ^ sa ^ sb);
        uint32_t cf;
        CZ_ADD_CC(cf, mask, mask & 1u);
        (void)cf;
#pragma unroll
        for (int j = 0; j < N; j++)
            CZ_ADDC_CC(mid[j], mid[j], zm[j] ^ mask);
        CZ_ADDC(mid[N], mid[N], mask);
        /* w += mid 2^(32 H); no carry out of w[2N - 1] (w = a b < 2^(64N)) */
        CZ_ADD_CC(w[H], w[H], mid[0]);
#pragma unroll
        for (int j = 1; j <= N; j++)
            CZ_ADDC_CC(w[H + j], w[H + j], mid[j]);
#pragma unroll
        for (int j = H + N + 1; j < 2 * N - 1; j++)
            CZ_ADDC_CC(w[j], w[j], 0u);
        CZ_ADDC(w[2 * N - 1], w[2 * N - 1], 0u);
    }

    /* r = a b R^-1, mul_eo's contract (a, b < 2m, 4m < R, or a, b < m): W_hi < 4m^2 / R
     * (< 0.41 m for Fp; Fr: a, b < m, W_hi < 0.46 m), so redc_wide's bound holds. */
    template <bool RED = true>
    static CUZK_MONT_FN void mul_ka(uint32_t *r, const uint32_t *a, const uint32_t *b)
    {
        uint32_t w[2 * N];
        prod_ka(w, a, b);
        M::template redc_wide<RED>(r, w);
    }

    /* r = (a b + c d) R^-1 as mul_sum's contract (a, c < 2m, b, d <= 2m, Fp): W < 8m^2 < R^2
     * and W_hi < 8m^2 / R < 0.82 m, so t + W_hi < 1.82 m. */
    template <bool RED = true>
    static CUZK_MONT_FN void mul_sum_ka(uint32_t *r, const uint32_t *a, const uint32_t *b,
                                        const uint32_t *c, const uint32_t *d)
    {
        static_assert(N == 12, "mul_sum_ka needs 5m < 2^(32N): Fp only");
        uint32_t w[2 * N], v[2 * N];
        prod_ka(w, a, b);
        prod_ka(v, c, d);
        chain<2 * N>(w, w, v);
        M::template redc_wide<RED>(r, w);
    }

    /*
     * The Fp2 product (a0 + a1 u)(b0 + b1 u), u^2 = -1, as three wide products and two
     * reductions (src/gpu/fp2.cuh's CUZK_GPU_FP2_KA): r0 = REDC(a0 b0 + 4m^2 - a1 b1),
     * r1 = REDC((a0 + a1)(b0 + b1) - a0 b0 - a1 b1), against three whole products (three
     * reductions) for Karatsuba over Montgomery products. F provides mm4(i), word i of 4m^2.
     * Bounds: inputs below 2m (the lazy form; 4m < R), so each product is below 4m^2; the plain
     * sums a0 + a1, b0 + b1 stay below 4m < R and their product below 16m^2 < R^2; both wide
     * values lie in [0, 8m^2) (4m^2 = 0 mod m exceeds a1 b1), so W_hi < 8m^2 / R < 0.82m for Fp
     * and redc_wide's bound holds: results below 1.82m (below m with RED), as mul_sum's. The
     * outputs are written last: they may alias the inputs.
     */
    template <bool RED = true>
    static CUZK_MONT_FN void fp2_mul_wide(uint32_t *r0, uint32_t *r1, const uint32_t *a0,
                                          const uint32_t *a1, const uint32_t *b0,
                                          const uint32_t *b1)
    {
        static_assert(N == 12, "fp2_mul_wide needs m / R < 0.102: Fp only");
        uint32_t s[N], t[N], u[2 * N], v[2 * N], d[2 * N], k[2 * N];
        chain<N>(s, a0, a1);
        chain<N>(t, b0, b1);
        prod_eo<N>(u, a0, b0);
        prod_eo<N>(v, a1, b1);
#pragma unroll
        for (int j = 0; j < 2 * N; j++)
            k[j] = F::mm4(j);
        /* d = u + 4m^2 - v, then u = u + v, v = s t - u: no carry out, no borrow (bounds above) */
        chain<2 * N>(d, u, k);
        chain<2 * N, true>(d, d, v);
        chain<2 * N>(u, u, v);
        prod_eo<N>(v, s, t);
        chain<2 * N, true>(v, v, u);
        M::template redc_wide<RED>(r0, d);
        M::template redc_wide<RED>(r1, v);
    }

    /* mul_diff with the Karatsuba products whatever CUZK_GPU_MONT_KARA says (tests). */
    template <bool RED = true>
    static CUZK_MONT_FN void mul_diff_ka(uint32_t *r, const uint32_t *a, const uint32_t *b,
                                         const uint32_t *c, const uint32_t *d)
    {
        uint32_t nd[N];
        M::two_m_minus(nd, d);
        mul_sum_ka<RED>(r, a, b, c, nd);
    }
};

#endif
