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
