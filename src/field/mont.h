/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_FIELD_MONT_H
#define CUZK_FIELD_MONT_H

/*
 * Montgomery arithmetic on n 64-bit limbs, written once for every modulus. The modulus and
 * limb count are arguments so the same code serves Fp (6 limbs), Fr (4 limbs) and toy moduli
 * in tests; callers pass compile-time constants and the always-inline bodies unroll.
 *
 * Precondition for mul: the top limb of m is below 2^63 - 1, which lets the CIOS loop drop the
 * extra carry word (the "no-carry" variant, gnark-crypto's note on Montgomery multiplication).
 * Both BLS12-381 moduli satisfy it (top limbs 0x1a01... and 0x73ed...). add also relies on
 * 2m < 2^(64n).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MONT_INLINE static inline __attribute__((always_inline))
#define MONT_MAX_LIMBS 6

typedef unsigned __int128 mont_u128;

/* r = a - b over n limbs; returns the borrow (0 or 1). */
MONT_INLINE uint64_t mont_sub_raw(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n)
{
    uint64_t borrow = 0;
    for (size_t i = 0; i < n; i++) {
        mont_u128 d = (mont_u128)a[i] - b[i] - borrow;
        r[i] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    return borrow;
}

/* r = a + b over n limbs; returns the carry. */
MONT_INLINE uint64_t mont_add_raw(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n)
{
    uint64_t carry = 0;
    for (size_t i = 0; i < n; i++) {
        mont_u128 s = (mont_u128)a[i] + b[i] + carry;
        r[i] = (uint64_t)s;
        carry = (uint64_t)(s >> 64);
    }
    return carry;
}

/* r = t < m ? t : t - m, branch-free. t < 2m. */
MONT_INLINE void mont_reduce_once(uint64_t *r, const uint64_t *t, const uint64_t *m, size_t n)
{
    uint64_t d[MONT_MAX_LIMBS];
    uint64_t borrow = mont_sub_raw(d, t, m, n);
    uint64_t keep = 0 - borrow; /* all ones when t < m */
    for (size_t i = 0; i < n; i++)
        r[i] = (t[i] & keep) | (d[i] & ~keep);
}

MONT_INLINE void mont_add(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                          size_t n)
{
    uint64_t t[MONT_MAX_LIMBS];
    mont_add_raw(t, a, b, n);
    mont_reduce_once(r, t, m, n);
}

MONT_INLINE void mont_sub(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                          size_t n)
{
    uint64_t t[MONT_MAX_LIMBS];
    uint64_t mask = 0 - mont_sub_raw(t, a, b, n);
    uint64_t carry = 0;
    for (size_t i = 0; i < n; i++) {
        mont_u128 s = (mont_u128)t[i] + (m[i] & mask) + carry;
        r[i] = (uint64_t)s;
        carry = (uint64_t)(s >> 64);
    }
}

MONT_INLINE bool mont_is_zero(const uint64_t *a, size_t n)
{
    uint64_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= a[i];
    return acc == 0;
}

MONT_INLINE void mont_neg(uint64_t *r, const uint64_t *a, const uint64_t *m, size_t n)
{
    /* m - a, then force 0 for a = 0 so the result stays canonical. */
    uint64_t mask = mont_is_zero(a, n) ? 0 : ~(uint64_t)0;
    uint64_t t[MONT_MAX_LIMBS];
    mont_sub_raw(t, m, a, n);
    for (size_t i = 0; i < n; i++)
        r[i] = t[i] & mask;
}

/* r = a * b * 2^(-64n) mod m: CIOS without the extra carry word (see header comment). */
MONT_INLINE void mont_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                          uint64_t n0, size_t n)
{
    uint64_t t[MONT_MAX_LIMBS] = {0};
    for (size_t i = 0; i < n; i++) {
        mont_u128 uv = (mont_u128)a[0] * b[i] + t[0];
        uint64_t A = (uint64_t)(uv >> 64);
        t[0] = (uint64_t)uv;
        uint64_t q = t[0] * n0;
        uv = (mont_u128)q * m[0] + t[0];
        uint64_t C = (uint64_t)(uv >> 64);
        for (size_t j = 1; j < n; j++) {
            uv = (mont_u128)a[j] * b[i] + t[j] + A;
            A = (uint64_t)(uv >> 64);
            t[j] = (uint64_t)uv;
            uv = (mont_u128)q * m[j] + t[j] + C;
            C = (uint64_t)(uv >> 64);
            t[j - 1] = (uint64_t)uv;
        }
        t[n - 1] = C + A;
    }
    mont_reduce_once(r, t, m, n);
}

/* a >= m (variable time in a; used only on public, just-parsed values). */
MONT_INLINE bool mont_geq_vartime(const uint64_t *a, const uint64_t *m, size_t n)
{
    for (size_t i = n; i-- > 0;) {
        if (a[i] != m[i])
            return a[i] > m[i];
    }
    return true;
}

MONT_INLINE bool mont_eq(const uint64_t *a, const uint64_t *b, size_t n)
{
    uint64_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= a[i] ^ b[i];
    return acc == 0;
}

MONT_INLINE void mont_cmov(uint64_t *r, const uint64_t *a, bool flag, size_t n)
{
    uint64_t mask = 0 - (uint64_t)flag;
    for (size_t i = 0; i < n; i++)
        r[i] = (r[i] & ~mask) | (a[i] & mask);
}

/* r = a^e by left-to-right square and multiply over the public exponent |e| (ne limbs). The
 * sequence of operations depends only on |e|, so it is constant time in |a|. */
MONT_INLINE void mont_pow(uint64_t *r, const uint64_t *a, const uint64_t *e, size_t ne,
                          const uint64_t *one, const uint64_t *m, uint64_t n0, size_t n)
{
    uint64_t acc[MONT_MAX_LIMBS], base[MONT_MAX_LIMBS];
    for (size_t i = 0; i < n; i++) {
        acc[i] = one[i];
        base[i] = a[i];
    }
    for (size_t w = ne; w-- > 0;) {
        for (int bit = 63; bit >= 0; bit--) {
            mont_mul(acc, acc, acc, m, n0, n);
            if ((e[w] >> bit) & 1)
                mont_mul(acc, acc, base, m, n0, n);
        }
    }
    for (size_t i = 0; i < n; i++)
        r[i] = acc[i];
}

/*
 * r = a^-1 * 2^(128n) mod m for a != 0 given in Montgomery form (a = x*R): binary extended
 * Euclid (Guide to Elliptic Curve Cryptography, Alg. 2.22) yields (xR)^-1, and one Montgomery
 * multiplication by R^3 turns it into x^-1 * R. Variable time. a = 0 gives 0.
 */
MONT_INLINE void mont_inv_vartime(uint64_t *r, const uint64_t *a, const uint64_t *m,
                                  const uint64_t *r3, uint64_t n0, size_t n)
{
    if (mont_is_zero(a, n)) {
        for (size_t i = 0; i < n; i++)
            r[i] = 0;
        return;
    }
    uint64_t u[MONT_MAX_LIMBS], v[MONT_MAX_LIMBS], x1[MONT_MAX_LIMBS] = {0},
                                                   x2[MONT_MAX_LIMBS] = {0};
    for (size_t i = 0; i < n; i++) {
        u[i] = a[i];
        v[i] = m[i];
    }
    x1[0] = 1;
    uint64_t one[MONT_MAX_LIMBS] = {0};
    one[0] = 1;
    /* Halve x modulo m: x even -> x/2, else (x + m)/2 (with the carry bit shifted back in). */
#define MONT_HALVE_(x)                                                                             \
    do {                                                                                           \
        uint64_t c_ = 0;                                                                           \
        if ((x)[0] & 1)                                                                            \
            c_ = mont_add_raw((x), (x), m, n);                                                     \
        for (size_t k_ = 0; k_ + 1 < n; k_++)                                                      \
            (x)[k_] = ((x)[k_] >> 1) | ((x)[k_ + 1] << 63);                                        \
        (x)[n - 1] = ((x)[n - 1] >> 1) | (c_ << 63);                                               \
    } while (0)
#define MONT_SHR1_(x)                                                                              \
    do {                                                                                           \
        for (size_t k_ = 0; k_ + 1 < n; k_++)                                                      \
            (x)[k_] = ((x)[k_] >> 1) | ((x)[k_ + 1] << 63);                                        \
        (x)[n - 1] >>= 1;                                                                          \
    } while (0)
    while (!mont_eq(u, one, n) && !mont_eq(v, one, n)) {
        while ((u[0] & 1) == 0) {
            MONT_SHR1_(u);
            MONT_HALVE_(x1);
        }
        while ((v[0] & 1) == 0) {
            MONT_SHR1_(v);
            MONT_HALVE_(x2);
        }
        if (mont_geq_vartime(u, v, n)) {
            mont_sub_raw(u, u, v, n);
            mont_sub(x1, x1, x2, m, n);
        } else {
            mont_sub_raw(v, v, u, n);
            mont_sub(x2, x2, x1, m, n);
        }
    }
#undef MONT_HALVE_
#undef MONT_SHR1_
    mont_mul(r, mont_eq(u, one, n) ? x1 : x2, r3, m, n0, n);
}

/* Batch inversion by Montgomery's trick: 3(n-1) multiplications and one inversion. Zeros are
 * skipped in the products and map to zero: the backward pass copies the (all-zero) input into
 * the slot, which the forward pass had filled with a prefix product. |out| and |in| must not
 * overlap. |inv| inverts one element. */
#define MONT_BATCH_INV(T, mul, inv, is_zero, set_one, out, in, count)                              \
    do {                                                                                           \
        T acc_;                                                                                    \
        set_one(&acc_);                                                                            \
        for (size_t i_ = 0; i_ < (count); i_++) {                                                  \
            (out)[i_] = acc_;                                                                      \
            if (!is_zero(&(in)[i_]))                                                               \
                mul(&acc_, &acc_, &(in)[i_]);                                                      \
        }                                                                                          \
        inv(&acc_, &acc_);                                                                         \
        for (size_t i_ = (count); i_-- > 0;) {                                                     \
            if (is_zero(&(in)[i_])) {                                                              \
                (out)[i_] = (in)[i_];                                                              \
                continue;                                                                          \
            }                                                                                      \
            mul(&(out)[i_], &(out)[i_], &acc_);                                                    \
            mul(&acc_, &acc_, &(in)[i_]);                                                          \
        }                                                                                          \
    } while (0)

#endif
