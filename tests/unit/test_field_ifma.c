/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The 8-lane AVX-512 IFMA Fp arithmetic (src/field/fp_ifma.h) against the scalar library
 * (cuzk_fp_mul & co., themselves checked against GMP) and against GMP directly: every lane
 * differs, lanes mix uniform values with the edge shapes (0, 1, p - 1, p - k, 2^j, limbs of all
 * ones), and long chains of fp52x8 operations check that the lazy [0, 2p) range never leaks
 * into a wrong canonical result. Skipped when the library was built without IFMA.
 */
#include "test.h"
#include "cuzk/field.h"
#include "field/fp_ifma.h"
#include "field/fp_internal.h"
#include "field/mont.h"

#include <gmp.h>

#define P_HEX                                                                                      \
    "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffff" \
    "aaab"

#if CUZK_FP_HAVE_IFMA
/* A canonical raw limb vector (any value below p is a valid Montgomery element). */
static void rand_elem(cuzk_fp_t *out)
{
    const uint64_t *p = cuzk_fp_modulus;
    for (;;) {
        uint64_t *o = out->l;
        memset(o, 0, 6 * sizeof o[0]);
        switch (test_rand_u64() % 10) {
        case 0: /* 0, 1, p - 1 */
            switch (test_rand_u64() % 3) {
            case 0:
                break;
            case 1:
                o[0] = 1;
                break;
            default: {
                uint64_t one[6] = {1};
                mont_sub_raw(o, p, one, 6);
            }
            }
            break;
        case 1: { /* p - k for small k */
            uint64_t k[6] = {1 + test_rand_u64() % 65536};
            mont_sub_raw(o, p, k, 6);
            break;
        }
        case 2: /* 2^j, j up to 380 (the top bits of p's range) */
            o[(test_rand_u64() % 381) / 64] |= 1ULL << (test_rand_u64() % 64);
            break;
        case 3: /* just below 2^381 (rejected above p, so: just below p's top limb pattern) */
            for (int i = 0; i < 5; i++)
                o[i] = ~0ULL - test_rand_u64() % 4;
            o[5] = p[5] - 1;
            break;
        case 4: /* limbs drawn from {0, 1, all ones, 2^63, random} */
            for (int i = 0; i < 6; i++) {
                static const uint64_t pat[] = {0, 1, ~0ULL, 1ULL << 63};
                uint64_t r = test_rand_u64();
                o[i] = r % 5 < 4 ? pat[r % 5] : test_rand_u64();
            }
            o[5] &= 0x1fffffffffffffffULL;
            break;
        default: /* uniform below 2^381, rejected at or above p */
            test_rand_bytes(o, 6 * sizeof o[0]);
            o[5] &= 0x1fffffffffffffffULL;
            break;
        }
        if (!mont_geq_vartime(o, p, 6))
            return;
    }
}

static void rand_lanes(cuzk_fp_t v[8])
{
    for (int k = 0; k < 8; k++)
        rand_elem(&v[k]);
}

static void check_lanes(const cuzk_fp_t got[8], const cuzk_fp_t want[8], const char *what,
                        unsigned long it)
{
    for (int k = 0; k < 8; k++) {
        CHECK(!mont_geq_vartime(got[k].l, cuzk_fp_modulus, 6));
        CHECK_MSG(memcmp(&got[k], &want[k], sizeof got[k]) == 0,
                  "%s, iteration %lu, lane %d: got[0] %016llx want[0] %016llx", what, it, k,
                  (unsigned long long)got[k].l[0], (unsigned long long)want[k].l[0]);
    }
}
#endif

CUZK_TEST(field_fp_ifma_mul_vs_scalar)
{
#if !CUZK_FP_HAVE_IFMA
    test_skip("the AVX-512 IFMA back end is not built (needs -mavx512f -mavx512ifma)");
#else
    cuzk_fp_t a[8], b[8], r[8], want[8];
    for (unsigned long it = 0; it < test_iters(10000) * 4; it++) {
        rand_lanes(a);
        rand_lanes(b);
        if (it % 7 == 0)
            b[it % 8] = a[it % 8]; /* a lane with a == b */
        for (int k = 0; k < 8; k++)
            cuzk_fp_mul(&want[k], &a[k], &b[k]);
        cuzk__fp_mul_x8(r, a, b);
        check_lanes(r, want, "mul_x8", it);
        memcpy(r, a, sizeof r); /* out aliases a */
        cuzk__fp_mul_x8(r, r, b);
        check_lanes(r, want, "mul_x8 (out = a)", it);
        for (int k = 0; k < 8; k++)
            cuzk_fp_sqr(&want[k], &a[k]);
        cuzk__fp_sqr_x8(r, a);
        check_lanes(r, want, "sqr_x8", it);
    }
#endif
}

/* Chains of fp52x8 operations on values kept in radix 2^52 (lazy range [0, 2p)) between
 * operations, compared with the same chain in the scalar library after every step. */
CUZK_TEST(field_fp_ifma_chain_vs_scalar)
{
#if !CUZK_FP_HAVE_IFMA
    test_skip("the AVX-512 IFMA back end is not built (needs -mavx512f -mavx512ifma)");
#else
    for (unsigned long it = 0; it < test_iters(10000) / 10 + 1; it++) {
        cuzk_fp_t sx[8], sy[8], got[8];
        rand_lanes(sx);
        rand_lanes(sy);
        fp52x8 x, y;
        fp52x8_load(&x, sx);
        fp52x8_load(&y, sy);
        for (int step = 0; step < 64; step++) {
            unsigned op = (unsigned)(test_rand_u64() % 6);
            for (int k = 0; k < 8; k++) {
                switch (op) {
                case 0:
                    cuzk_fp_mul(&sx[k], &sx[k], &sy[k]);
                    break;
                case 1:
                    cuzk_fp_sqr(&sx[k], &sx[k]);
                    break;
                case 2:
                    cuzk_fp_add(&sx[k], &sx[k], &sy[k]);
                    break;
                case 3:
                    cuzk_fp_sub(&sx[k], &sx[k], &sy[k]);
                    break;
                case 4:
                    cuzk_fp_sub(&sx[k], &sy[k], &sx[k]);
                    break;
                default:
                    cuzk_fp_add(&sy[k], &sy[k], &sx[k]);
                }
            }
            switch (op) {
            case 0:
                fp52x8_mul(&x, &x, &y);
                break;
            case 1:
                fp52x8_sqr(&x, &x);
                break;
            case 2:
                fp52x8_add(&x, &x, &y);
                break;
            case 3:
                fp52x8_sub(&x, &x, &y);
                break;
            case 4:
                fp52x8_sub(&x, &y, &x);
                break;
            default:
                fp52x8_add(&y, &y, &x);
            }
            fp52x8_store(got, &x);
            check_lanes(got, sx, "chain x", it * 64 + (unsigned long)step);
            fp52x8_store(got, &y);
            check_lanes(got, sy, "chain y", it * 64 + (unsigned long)step);
        }
        /* Gathers and scatters through pointers, lanes in a shuffled order. */
        cuzk_fp_t buf[16];
        const cuzk_fp_t *src[8];
        int perm[8] = {5, 0, 7, 2, 6, 1, 3, 4};
        memset(buf, 0xa5, sizeof buf);
        for (int k = 0; k < 8; k++) {
            buf[2 * perm[k]] = sx[k];
            src[k] = &buf[2 * perm[k]];
        }
        __m512i ptrs = _mm512_loadu_si512((const void *)src);
        fp52x8_load_ptrs(&x, ptrs);
        fp52x8_sqr(&x, &x);
        fp52x8_store_ptrs(_mm512_add_epi64(ptrs, _mm512_set1_epi64((long long)sizeof(cuzk_fp_t))),
                          0x5b, &x);
        for (int k = 0; k < 8; k++) {
            cuzk_fp_t want;
            if ((0x5b >> k) & 1)
                cuzk_fp_sqr(&want, &sx[k]);
            else
                memset(&want, 0xa5, sizeof want); /* masked lane: untouched */
            CHECK_MSG(memcmp(&buf[2 * perm[k] + 1], &want, sizeof want) == 0, "store_ptrs lane %d",
                      k);
            CHECK(memcmp(&buf[2 * perm[k]], &sx[k], sizeof want) == 0);
        }
    }
#endif
}

/* Raw limbs against GMP: out = a * b * 2^-384 mod p, lane by lane. */
CUZK_TEST(field_fp_ifma_vs_gmp)
{
#if !CUZK_FP_HAVE_IFMA
    test_skip("the AVX-512 IFMA back end is not built (needs -mavx512f -mavx512ifma)");
#else
    mpz_t p, rinv, za, zb, want, got;
    mpz_inits(p, rinv, za, zb, want, got, NULL);
    CHECK(mpz_set_str(p, P_HEX, 16) == 0);
    mpz_ui_pow_ui(rinv, 2, 384);
    CHECK(mpz_invert(rinv, rinv, p));
    for (unsigned long it = 0; it < test_iters(10000) / 8 + 1; it++) {
        cuzk_fp_t a[8], b[8], r[8], s[8];
        rand_lanes(a);
        rand_lanes(b);
        cuzk__fp_mul_x8(r, a, b);
        cuzk__fp_sqr_x8(s, a);
        for (int k = 0; k < 8; k++) {
            mpz_import(za, 6, -1, 8, 0, 0, a[k].l);
            mpz_import(zb, 6, -1, 8, 0, 0, b[k].l);
            for (int sq = 0; sq < 2; sq++) {
                mpz_import(got, 6, -1, 8, 0, 0, sq ? s[k].l : r[k].l);
                mpz_mul(want, za, sq ? za : zb);
                mpz_mul(want, want, rinv);
                mpz_mod(want, want, p);
                if (mpz_cmp(want, got) != 0) {
                    char *m = NULL;
                    gmp_asprintf(&m, "%s iteration %lu lane %d: a=%#Zx b=%#Zx want %#Zx got %#Zx",
                                 sq ? "sqr_x8" : "mul_x8", it, k, za, zb, want, got);
                    test_fail_at(__FILE__, __LINE__, "%s", m);
                }
            }
        }
    }
    mpz_clears(p, rinv, za, zb, want, got, NULL);
#endif
}

#if CUZK_FP_HAVE_IFMA
/* Lane k of a (limbs read as signed 64-bit, so raw results too) as an integer. */
static void lane_to_mpz(mpz_t out, const fp52x8 *a, int k)
{
    mpz_t t;
    mpz_init(t);
    mpz_set_ui(out, 0);
    for (int j = 7; j >= 0; j--) {
        int64_t v[8];
        _mm512_storeu_si512((void *)v, a->l[j]);
        mpz_mul_2exp(out, out, 52);
        mpz_set_si(t, (long)v[k]);
        mpz_add(out, out, t);
    }
    mpz_clear(t);
}

/* a = the 8 integers v (each below 2^416) in normalised radix-2^52 limbs. */
static void mpz_to_lanes(fp52x8 *a, mpz_t v[8])
{
    uint64_t l[8][8];
    mpz_t t;
    mpz_init(t);
    for (int k = 0; k < 8; k++) {
        mpz_set(t, v[k]);
        for (int j = 0; j < 8; j++) {
            l[j][k] = mpz_getlimbn(t, 0) & FP52_MASK;
            mpz_fdiv_q_2exp(t, t, 52);
        }
    }
    mpz_clear(t);
    for (int j = 0; j < 8; j++)
        a->l[j] = _mm512_loadu_si512((const void *)l[j]);
}

/* A value in [0, bound_p p] (bound_p 2 or 4; the top end itself only when |incl|): the edges 0,
 * 1, p - 1, p, p + 1, 2p - 1, 2p, the top end minus a little, or uniform. */
static void rand_below(mpz_t out, const mpz_t p, unsigned bound_p, bool incl)
{
    mpz_t top;
    mpz_init(top);
    mpz_mul_ui(top, p, bound_p);
    if (!incl)
        mpz_sub_ui(top, top, 1);
    for (;;) {
        unsigned pick = (unsigned)(test_rand_u64() % 12);
        switch (pick) {
        case 0:
            mpz_set_ui(out, test_rand_u64() % 2);
            break;
        case 1:
        case 2:
            mpz_add_ui(out, p, test_rand_u64() % 3);
            mpz_sub_ui(out, out, 1); /* p - 1, p, p + 1 */
            break;
        case 3:
            mpz_mul_ui(out, p, 2);
            mpz_sub_ui(out, out, test_rand_u64() % 2); /* 2p - 1, 2p */
            break;
        case 4:
            mpz_sub_ui(out, top, test_rand_u64() % 1000);
            break;
        case 5:
            mpz_mul_ui(out, p, 3);
            mpz_sub_ui(out, out, test_rand_u64() % 2);
            break;
        default: {
            uint64_t w[7];
            test_rand_bytes(w, sizeof w);
            mpz_import(out, 7, -1, 8, 0, 0, w);
            mpz_mod(out, out, top);
            mpz_add_ui(out, out, test_rand_u64() % 2);
        }
        }
        if (mpz_sgn(out) >= 0 && mpz_cmp(out, top) <= 0)
            break;
    }
    mpz_clear(top);
}

static void check_normalised(const fp52x8 *a, const char *what, unsigned long it)
{
    for (int j = 0; j < 8; j++) {
        uint64_t v[8];
        _mm512_storeu_si512((void *)v, a->l[j]);
        for (int k = 0; k < 8; k++)
            CHECK_MSG(v[k] <= FP52_MASK, "%s, iteration %lu: lane %d limb %d = %#llx", what, it, k,
                      j, (unsigned long long)v[k]);
    }
}

static void check_lane_eq(const mpz_t got, const mpz_t want, const char *what, unsigned long it,
                          int k)
{
    if (mpz_cmp(got, want) != 0) {
        char *m = NULL;
        gmp_asprintf(&m, "%s, iteration %lu, lane %d: got %#Zx want %#Zx", what, it, k, got, want);
        test_fail_at(__FILE__, __LINE__, "%s", m);
        free(m);
    }
}
#endif

/*
 * The operations behind the lazy batch additions (src/field/fp_ifma.h) at the ends of their
 * ranges, against GMP: multiplication and squaring of operands in [0, 2p] (2p included) give
 * a b / R mod p below 1.41p; the raw results hold the same integer as the normalised ones; the
 * lazy subtractions give exactly a - b (- c) + kp with normalised limbs, also from a raw a;
 * reduce_4p takes [0, 4p) to canonical.
 */
CUZK_TEST(field_fp_ifma_lazy_vs_gmp)
{
#if !CUZK_FP_HAVE_IFMA
    test_skip("the AVX-512 IFMA back end is not built (needs -mavx512f -mavx512ifma)");
#else
    mpz_t p, rinv, lim, got, want, t, va[8], vb[8], vc[8];
    mpz_inits(p, rinv, lim, got, want, t, NULL);
    for (int k = 0; k < 8; k++)
        mpz_inits(va[k], vb[k], vc[k], NULL);
    CHECK(mpz_set_str(p, P_HEX, 16) == 0);
    mpz_ui_pow_ui(rinv, 2, 384);
    CHECK(mpz_invert(rinv, rinv, p));
    /* 1.41p: the bound of a product of two operands at most 2p */
    mpz_mul_ui(lim, p, 141);
    mpz_fdiv_q_ui(lim, lim, 100);
    static const uint64_t *const kps[3] = {fp52_p, fp52_2p, fp52_4p};
    for (unsigned long it = 0; it < test_iters(10000) / 4 + 1; it++) {
        fp52x8 a, b, c, r, raw;
        for (int k = 0; k < 8; k++) {
            rand_below(va[k], p, 2, true);
            rand_below(vb[k], p, 2, true);
            rand_below(vc[k], p, 1, false);
        }
        mpz_to_lanes(&a, va);
        mpz_to_lanes(&b, vb);
        mpz_to_lanes(&c, vc);
        for (int op = 0; op < 2; op++) {
            if (op) {
                fp52x8_sqr(&r, &a);
                fp52x8_sqr_raw_(&raw, &a);
            } else {
                fp52x8_mul(&r, &a, &b);
                fp52x8_mul_raw_(&raw, &a, &b);
            }
            check_normalised(&r, op ? "sqr" : "mul", it);
            for (int k = 0; k < 8; k++) {
                lane_to_mpz(got, &r, k);
                mpz_mul(want, va[k], op ? va[k] : vb[k]);
                mpz_mul(want, want, rinv);
                mpz_mod(want, want, p);
                mpz_mod(t, got, p);
                check_lane_eq(t, want, op ? "sqr mod p" : "mul mod p", it, k);
                CHECK_MSG(mpz_cmp(got, lim) < 0, "%s result above 1.41p, iteration %lu lane %d",
                          op ? "sqr" : "mul", it, k);
                lane_to_mpz(want, &raw, k);
                check_lane_eq(want, got, op ? "sqr_raw" : "mul_raw", it, k);
            }
        }
        /* two products with their reductions interleaved, one result aliasing an operand */
        fp52x8 r1, r2 = b;
        fp52x8_mul(&r1, &a, &b);
        fp52x8_mul2_(&r, &a, &b, &r2, &r2, &c);
        check_normalised(&r2, "mul2", it);
        for (int k = 0; k < 8; k++) {
            lane_to_mpz(got, &r, k);
            lane_to_mpz(want, &r1, k);
            check_lane_eq(got, want, "mul2 (first)", it, k);
            lane_to_mpz(got, &r2, k);
            mpz_mul(want, vb[k], vc[k]);
            mpz_mul(want, want, rinv);
            mpz_mod(want, want, p);
            mpz_mod(t, got, p);
            check_lane_eq(t, want, "mul2 (second)", it, k);
            CHECK_MSG(mpz_cmp(got, lim) < 0, "mul2 result above 1.41p");
        }
        /* the raw paired forms hold the same integers as the single ones */
        {
            fp52x8 m1, m2, s1, s2, w1, w2;
            fp52x8_mul2_raw_(&m1, &a, &b, &m2, &b, &c);
            fp52x8_sqr2_raw_(&s1, &a, &s2, &b);
            for (int q = 0; q < 4; q++) {
                const fp52x8 *got2 = q == 0 ? &m1 : q == 1 ? &m2 : q == 2 ? &s1 : &s2;
                if (q == 0)
                    fp52x8_mul(&w1, &a, &b);
                else if (q == 1)
                    fp52x8_mul(&w1, &b, &c);
                else
                    fp52x8_sqr(&w1, q == 2 ? &a : &b);
                w2 = *got2;
                for (int k = 0; k < 8; k++) {
                    lane_to_mpz(got, &w2, k);
                    lane_to_mpz(want, &w1, k);
                    check_lane_eq(got, want, "mul2_raw / sqr2_raw", it, k);
                }
            }
        }
        /* r = raw - c + kp, from a raw a; then b - c + kp, b - c - c + 2p, +-c - c + p. */
        unsigned ki = (unsigned)(test_rand_u64() % 3);
        fp52x8_sub_lazy_(&r, &raw, &c, kps[ki]);
        check_normalised(&r, "sub_lazy (raw a)", it);
        for (int k = 0; k < 8; k++) {
            lane_to_mpz(got, &r, k);
            lane_to_mpz(want, &raw, k);
            mpz_sub(want, want, vc[k]);
            mpz_addmul_ui(want, p, 1u << ki);
            check_lane_eq(got, want, "sub_lazy (raw a)", it, k);
        }
        fp52x8_sub2_lazy_(&r, &b, &c, &c, fp52_2p);
        check_normalised(&r, "sub2_lazy", it);
        for (int k = 0; k < 8; k++) {
            lane_to_mpz(got, &r, k);
            mpz_sub(want, vb[k], vc[k]);
            mpz_sub(want, want, vc[k]);
            mpz_addmul_ui(want, p, 2);
            check_lane_eq(got, want, "sub2_lazy", it, k);
        }
        __mmask8 neg = (__mmask8)test_rand_u64();
        fp52x8 a1;
        fp52x8_reduce_4p_(&a1, &a); /* canonical a, for neg_sub_lazy_ */
        fp52x8_neg_sub_lazy_(&r, neg, &a1, &c);
        check_normalised(&r, "neg_sub_lazy", it);
        for (int k = 0; k < 8; k++) {
            lane_to_mpz(got, &a1, k);
            mpz_mod(want, va[k], p);
            check_lane_eq(got, want, "reduce_4p (a)", it, k);
            if ((neg >> k) & 1)
                mpz_sub(want, p, want);
            mpz_sub(want, want, vc[k]);
            mpz_add(want, want, p);
            lane_to_mpz(got, &r, k);
            check_lane_eq(got, want, "neg_sub_lazy", it, k);
        }
        /* reduce_4p on [0, 4p) */
        for (int k = 0; k < 8; k++)
            rand_below(va[k], p, 4, false);
        mpz_to_lanes(&a, va);
        fp52x8_reduce_4p_(&r, &a);
        check_normalised(&r, "reduce_4p", it);
        for (int k = 0; k < 8; k++) {
            lane_to_mpz(got, &r, k);
            mpz_mod(want, va[k], p);
            check_lane_eq(got, want, "reduce_4p", it, k);
        }
    }
    for (int k = 0; k < 8; k++)
        mpz_clears(va[k], vb[k], vc[k], NULL);
    mpz_clears(p, rinv, lim, got, want, t, NULL);
#endif
}
