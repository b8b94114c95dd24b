/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The variable-time Fp inversion (src/field/fp_inv.c, binary GCD on 64-bit approximations)
 * against GMP's mpz_invert and against the bit-at-a-time Euclid it replaced. For an input a
 * (raw Montgomery limbs, any canonical value) the output must be R^2 / a mod p (= x^-1 R for
 * a = x R). Inputs stress where the approximations can mislead: values whose top bits agree with
 * p's or with each other's (p - small, p / k, 2^j and 2^j - 1 for every j, p - 2^j), tiny values
 * (the exact 64-bit path from the first round), and uniform random ones.
 */
#include "test.h"
#include "cuzk/field.h"
#include "field/fp_internal.h"
#include "field/mont.h"

#include <gmp.h>
#include <string.h>

#define P_HEX                                                                                      \
    "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffff" \
    "aaab"

typedef struct {
    mpz_t p, r2;
    unsigned long checked;
} inv_ctx;

static void ctx_init(inv_ctx *c)
{
    mpz_init_set_str(c->p, P_HEX, 16);
    mpz_init(c->r2);
    mpz_setbit(c->r2, 768);
    mpz_mod(c->r2, c->r2, c->p);
    c->checked = 0;
}

static void ctx_clear(inv_ctx *c)
{
    mpz_clear(c->p);
    mpz_clear(c->r2);
}

/* Checks one canonical raw input against GMP and the old Euclid. */
static void check_one(inv_ctx *c, const uint64_t a[6])
{
    uint64_t got[6], old[6], want[6] = {0};
    cuzk_fp_t in, out;
    memcpy(in.l, a, sizeof in.l);
    cuzk_fp_inv_vartime(&out, &in);
    memcpy(got, out.l, sizeof got);
    cuzk__fp_inv_euclid(old, a);
    mpz_t x;
    mpz_init(x);
    mpz_import(x, 6, -1, 8, 0, 0, a);
    CHECK(mpz_cmp(x, c->p) < 0);
    if (mpz_sgn(x) != 0) {
        CHECK(mpz_invert(x, x, c->p) != 0);
        mpz_mul(x, x, c->r2);
        mpz_mod(x, x, c->p);
        mpz_export(want, NULL, -1, 8, 0, 0, x);
    }
    mpz_clear(x);
    CHECK_MSG(memcmp(got, want, sizeof got) == 0,
              "inv_vartime of %016llx..%016llx: got %016llx..%016llx, want %016llx..%016llx",
              (unsigned long long)a[5], (unsigned long long)a[0], (unsigned long long)got[5],
              (unsigned long long)got[0], (unsigned long long)want[5],
              (unsigned long long)want[0]);
    CHECK(memcmp(old, want, sizeof old) == 0);
    c->checked++;
}

/* a = p - k (k < p, k != 0) or the reduction of v mod p. */
static void set_mpz(uint64_t a[6], const mpz_t v, const mpz_t p)
{
    mpz_t t;
    mpz_init(t);
    mpz_mod(t, v, p);
    memset(a, 0, 6 * sizeof a[0]);
    mpz_export(a, NULL, -1, 8, 0, 0, t);
    mpz_clear(t);
}

CUZK_TEST(field_inv_bingcd_edges)
{
    inv_ctx c;
    ctx_init(&c);
    uint64_t a[6];
    mpz_t v, k;
    mpz_init(v);
    mpz_init(k);
    /* 0, small values, p - small */
    for (unsigned long s = 0; s < 300; s++) {
        mpz_set_ui(v, s);
        set_mpz(a, v, c.p);
        check_one(&c, a);
        mpz_sub_ui(v, c.p, s + 1);
        set_mpz(a, v, c.p);
        check_one(&c, a);
    }
    /* 2^j, 2^j - 1, 2^j + 1, p - 2^j for every j below 381 */
    for (unsigned j = 0; j < 381; j++) {
        mpz_set_ui(v, 0);
        mpz_setbit(v, j);
        set_mpz(a, v, c.p);
        check_one(&c, a);
        mpz_sub_ui(k, v, 1);
        set_mpz(a, k, c.p);
        check_one(&c, a);
        mpz_add_ui(k, v, 1);
        set_mpz(a, k, c.p);
        check_one(&c, a);
        mpz_sub(k, c.p, v);
        set_mpz(a, k, c.p);
        check_one(&c, a);
    }
    /* p / d and p / d +- 1: a and b with equal leading bits after the first steps */
    for (unsigned long d = 2; d < 200; d++) {
        mpz_fdiv_q_ui(v, c.p, d);
        for (int e = -1; e <= 1; e++) {
            if (e < 0)
                mpz_sub_ui(k, v, 1);
            else
                mpz_add_ui(k, v, (unsigned long)e);
            set_mpz(a, k, c.p);
            check_one(&c, a);
        }
    }
    /* the Montgomery forms of small integers (what the MSM's norms look like least) */
    for (uint64_t s = 1; s < 200; s++) {
        cuzk_fp_t m;
        cuzk_fp_set_u64(&m, s);
        check_one(&c, m.l);
    }
    printf("# %lu edge inputs\n", c.checked);
    mpz_clear(v);
    mpz_clear(k);
    ctx_clear(&c);
}

CUZK_TEST(field_inv_bingcd_random)
{
    inv_ctx c;
    ctx_init(&c);
    unsigned long n = test_iters(20000);
    uint64_t a[6];
    mpz_t v;
    mpz_init(v);
    for (unsigned long i = 0; i < n; i++) {
        for (int w = 0; w < 6; w++)
            a[w] = test_rand_u64();
        switch (i % 4) {
        case 0: /* uniform below 2^381, reduced */
            a[5] &= (1ULL << 61) - 1;
            break;
        case 1: /* random bit length */
        {
            unsigned bits = 1 + (unsigned)(test_rand_u64() % 381);
            for (unsigned w = 0; w < 6; w++) {
                if (64 * w >= bits)
                    a[w] = 0;
                else if (64 * w + 64 > bits)
                    a[w] &= (1ULL << (bits - 64 * w)) - 1;
            }
            break;
        }
        case 2: /* p minus a random value of random length (top bits equal to p's) */
        {
            unsigned bits = 1 + (unsigned)(test_rand_u64() % 380);
            for (unsigned w = 0; w < 6; w++) {
                if (64 * w >= bits)
                    a[w] = 0;
                else if (64 * w + 64 > bits)
                    a[w] &= (1ULL << (bits - 64 * w)) - 1;
            }
            mpz_import(v, 6, -1, 8, 0, 0, a);
            mpz_sub(v, c.p, v);
            set_mpz(a, v, c.p);
            check_one(&c, a);
            continue;
        }
        default: /* limbs of runs: all ones / zero / random */
            for (int w = 0; w < 6; w++) {
                uint64_t r = test_rand_u64() % 3;
                a[w] = r == 0 ? 0 : r == 1 ? ~0ULL : a[w];
            }
            a[5] &= (1ULL << 61) - 1;
            break;
        }
        mpz_import(v, 6, -1, 8, 0, 0, a);
        set_mpz(a, v, c.p);
        check_one(&c, a);
    }
    printf("# %lu random inputs\n", c.checked);
    mpz_clear(v);
    ctx_clear(&c);
}
