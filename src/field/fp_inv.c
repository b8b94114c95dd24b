/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Variable-time Fp inversion by a binary GCD that works on 64-bit approximations (the
 * "optimized binary GCD" of T. Pornin, eprint 2020/972, Algorithm 2, run until a = 0 instead of
 * a fixed number of rounds). It replaces the bit-at-a-time binary Euclid of mont.h (~25 us) for
 * the batch inversions of the MSM, where one inversion per batch had become ~6 % of a 2^12 proof.
 *
 * State: a, b >= 0 with a = x u / c and b = x v / c (mod p), starting from a = x, u = c, b = p,
 * v = 0. A round takes 31 binary-GCD steps (a odd: if a < b swap; a = (a - b) / 2; a even:
 * a = a / 2) on 64-bit stand-ins for a and b: their low 31 bits exactly and the 33 bits below the
 * top of the longer one. The steps only need the low bit (exact) and the order of a and b (right
 * unless the top bits agree; then a may come out negative, which the round repairs by negation,
 * the paper's argument). The steps are recorded as a matrix of integers f0 g0 f1 g1 with
 * |f0| + |g0| <= 2^31 and |f1| + |g1| <= 2^31, then applied to the full values:
 *   a <- (a f0 + b g0) / 2^31, b <- (a f1 + b g1) / 2^31 (exact divisions),
 *   u <- (u f0 + v g0) / 2^31 mod p, v likewise (division by one 31-bit Montgomery step),
 * which keeps the invariants. When a reaches 0, b = gcd(x, p) = 1 and v = c / x. With the
 * input in Montgomery form (x R) and c = R^2 mod p, v = R / x: the Montgomery form of 1 / x,
 * without a final conversion.
 */
#include "cuzk/field.h"
#include "field/fp_internal.h"
#include "field/mont.h"

#include <stdbool.h>
#include <stdint.h>

#define N 6
#define STEPS 31
/* Rounds needed are at most ceil((2 * 381 - 1) / 31) = 25 by the paper's bound; more means a
 * bug, and the bit-at-a-time Euclid takes over. */
#define MAX_ROUNDS 40

typedef unsigned __int128 u128;

/* -1/p mod 2^64, as in fp.c; R^2 mod p is fp.c's cuzk_fp_r2. */
#define N0 0x89f3fffcfffcfffdULL
#define P cuzk_fp_modulus

static inline unsigned bitlen_(const uint64_t *a)
{
    for (int i = N - 1; i >= 0; i--)
        if (a[i])
            return 64 * (unsigned)i + 64 - (unsigned)__builtin_clzll(a[i]);
    return 0;
}

/* Bits [s, s + 64) of a (s <= 64 * N - 64). */
static inline uint64_t bits64_(const uint64_t *a, unsigned s)
{
    unsigned w = s / 64, o = s % 64;
    if (!o)
        return a[w];
    uint64_t hi = w + 1 < N ? a[w + 1] : 0;
    return (a[w] >> o) | (hi << (64 - o));
}

/* r (7 words, two's complement) = a * f for a < 2^384 and |f| <= 2^31. */
static inline void mul_s_(uint64_t r[N + 1], const uint64_t a[N], int64_t f)
{
    uint64_t m = f < 0 ? (uint64_t)0 - (uint64_t)f : (uint64_t)f;
    uint64_t c = 0;
    for (int i = 0; i < N; i++) {
        u128 t = (u128)a[i] * m + c;
        r[i] = (uint64_t)t;
        c = (uint64_t)(t >> 64);
    }
    r[N] = c;
    if (f < 0) {
        unsigned char cy = 1;
        for (int i = 0; i <= N; i++) {
            u128 t = (u128)(uint64_t)~r[i] + cy;
            r[i] = (uint64_t)t;
            cy = (unsigned char)(t >> 64);
        }
    }
}

/* r = |(a f + b g) / 2^31| (the division is exact by construction); returns whether the value
 * was negative. */
static inline bool comb_ab_(uint64_t r[N], const uint64_t a[N], int64_t f, const uint64_t b[N],
                            int64_t g)
{
    uint64_t x[N + 1], y[N + 1];
    mul_s_(x, a, f);
    mul_s_(y, b, g);
    unsigned char cy = 0;
    for (int i = 0; i <= N; i++) {
        u128 t = (u128)x[i] + y[i] + cy;
        x[i] = (uint64_t)t;
        cy = (unsigned char)(t >> 64);
    }
    bool neg = (int64_t)x[N] < 0;
    if (neg) {
        cy = 1;
        for (int i = 0; i <= N; i++) {
            u128 t = (u128)(uint64_t)~x[i] + cy;
            x[i] = (uint64_t)t;
            cy = (unsigned char)(t >> 64);
        }
    }
    for (int i = 0; i < N; i++)
        r[i] = (x[i] >> STEPS) | (x[i + 1] << (64 - STEPS));
    return neg;
}

/* r = (u f + v g) / 2^31 mod p for u, v in [0, p), |f| + |g| <= 2^31; r in [0, p). A negative
 * factor is applied to p - u instead (the same residue up to sign). */
static inline void comb_uv_(uint64_t r[N], const uint64_t u[N], int64_t f, const uint64_t v[N],
                            int64_t g)
{
    uint64_t un[N], vn[N];
    const uint64_t *uu = u, *vv = v;
    if (f < 0) {
        mont_sub_raw(un, P, u, N);
        uu = un;
        f = -f;
    }
    if (g < 0) {
        mont_sub_raw(vn, P, v, N);
        vv = vn;
        g = -g;
    }
    /* t = uu f + vv g <= 2^31 p; then t += q p with q < 2^31 making t = 0 mod 2^31. */
    uint64_t t[N + 1];
    uint64_t cf = 0, cg = 0;
    unsigned char cy = 0;
    for (int i = 0; i < N; i++) {
        u128 x = (u128)uu[i] * (uint64_t)f + cf;
        u128 y = (u128)vv[i] * (uint64_t)g + cg;
        cf = (uint64_t)(x >> 64);
        cg = (uint64_t)(y >> 64);
        u128 s = (u128)(uint64_t)x + (uint64_t)y + cy;
        t[i] = (uint64_t)s;
        cy = (unsigned char)(s >> 64);
    }
    t[N] = cf + cg + cy;
    uint64_t q = (t[0] * N0) & ((1ULL << STEPS) - 1);
    uint64_t c = 0;
    cy = 0;
    for (int i = 0; i < N; i++) {
        u128 x = (u128)P[i] * q + c;
        c = (uint64_t)(x >> 64);
        u128 s = (u128)t[i] + (uint64_t)x + cy;
        t[i] = (uint64_t)s;
        cy = (unsigned char)(s >> 64);
    }
    t[N] += c + cy;
    /* (t / 2^31) < 2p < 2^382: one conditional subtraction. */
    for (int i = 0; i < N; i++)
        r[i] = (t[i] >> STEPS) | (t[i + 1] << (64 - STEPS));
    if (mont_geq_vartime(r, P, N))
        mont_sub_raw(r, r, P, N);
}

/* out = x^-1 R for in = x R (Montgomery form, canonical); in = 0 gives 0. Variable time. */
void cuzk__fp_inv_bingcd(uint64_t out[N], const uint64_t in[N])
{
    if (mont_is_zero(in, N)) {
        for (int i = 0; i < N; i++)
            out[i] = 0;
        return;
    }
    uint64_t a[N], b[N], u[N], v[N] = {0};
    for (int i = 0; i < N; i++) {
        a[i] = in[i];
        b[i] = P[i];
        u[i] = cuzk_fp_r2[i];
    }
    for (int round = 0; round < MAX_ROUNDS; round++) {
        unsigned la = bitlen_(a);
        if (!la)
            break;
        unsigned lb = bitlen_(b), n = la > lb ? la : lb;
        uint64_t xa, xb;
        if (n <= 64) {
            xa = a[0];
            xb = b[0];
        } else {
            const uint64_t lo = (1ULL << STEPS) - 1;
            xa = (a[0] & lo) | ((bits64_(a, n - 64) >> STEPS) << STEPS);
            xb = (b[0] & lo) | ((bits64_(b, n - 64) >> STEPS) << STEPS);
        }
        /* 31 steps without data-dependent branches (masks), so their outcome, which is random,
         * costs no mispredictions. */
        int64_t f0 = 1, g0 = 0, f1 = 0, g1 = 1;
        for (int j = 0; j < STEPS; j++) {
            uint64_t odd = 0 - (xa & 1);
            uint64_t sw = odd & (0 - (uint64_t)(xa < xb));
            uint64_t t = (xa ^ xb) & sw;
            xa ^= t;
            xb ^= t;
            int64_t tf = (f0 ^ f1) & (int64_t)sw, tg = (g0 ^ g1) & (int64_t)sw;
            f0 ^= tf;
            f1 ^= tf;
            g0 ^= tg;
            g1 ^= tg;
            xa = (xa - (xb & odd)) >> 1;
            f0 -= f1 & (int64_t)odd;
            g0 -= g1 & (int64_t)odd;
            f1 *= 2;
            g1 *= 2;
        }
        uint64_t na[N], nb[N];
        if (comb_ab_(na, a, f0, b, g0)) {
            f0 = -f0;
            g0 = -g0;
        }
        if (comb_ab_(nb, a, f1, b, g1)) {
            f1 = -f1;
            g1 = -g1;
        }
        uint64_t nu[N], nv[N];
        comb_uv_(nu, u, f0, v, g0);
        comb_uv_(nv, u, f1, v, g1);
        for (int i = 0; i < N; i++) {
            a[i] = na[i];
            b[i] = nb[i];
            u[i] = nu[i];
            v[i] = nv[i];
        }
    }
    uint64_t one[N] = {1};
    if (!mont_is_zero(a, N) || !mont_eq(b, one, N)) {
        /* Not reached for a canonical nonzero input (p is prime); kept as a safety net. */
        cuzk__fp_inv_euclid(out, in);
        return;
    }
    for (int i = 0; i < N; i++)
        out[i] = v[i];
}
