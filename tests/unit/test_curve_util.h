/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_TESTS_TEST_CURVE_UTIL_H
#define CUZK_TESTS_TEST_CURVE_UTIL_H

/* Shared helpers of the curve tests: random field elements, scalars and curve points. */

#include "test.h"
#include "cuzk/curve.h"

/* The group order r and the cofactors, little-endian limbs. h1 = (x - 1)^2 / 3 and
 * h2 = (x^8 - 4x^7 + 5x^6 - 4x^4 + 6x^3 - 4x^2 - 4x + 13) / 9 (both recomputed by
 * scripts/gen_curve_vectors.py --constants; h2 also matches the value in the task brief). */
static const uint64_t TC_R[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                 0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};
static const uint64_t TC_H1[2] = {0x8c00aaab0000aaabULL, 0x396c8c005555e156ULL};
static const uint64_t TC_H2[8] = {
    0xcf1c38e31c7238e5ULL, 0x1616ec6e786f0c70ULL, 0x21537e293a6691aeULL, 0xa628f1cb4d9e82efULL,
    0xa68a205b2e5a7ddfULL, 0xcd91de4547085abaULL, 0x091d50792876a202ULL, 0x05d543a95414e7f1ULL};

static inline void tc_rand_fp(cuzk_fp_t *out)
{
    uint64_t l[6];
    do {
        test_rand_bytes(l, sizeof l);
        l[5] &= 0x1fffffffffffffffULL;
    } while (!cuzk_fp_from_canonical(out, l));
}

static inline void tc_rand_fp2(cuzk_fp2_t *out)
{
    tc_rand_fp(&out->c0);
    tc_rand_fp(&out->c1);
}

static inline void tc_rand_fr(cuzk_fr_t *out)
{
    uint64_t l[4];
    do {
        test_rand_bytes(l, sizeof l);
        l[3] &= 0x7fffffffffffffffULL;
    } while (!cuzk_fr_from_canonical(out, l));
}

/* A random point of E(Fp), NOT multiplied by the cofactor (almost never in G1). */
static inline void tc_g1_rand_curve(cuzk_g1_affine_t *out)
{
    cuzk_fp_t rhs, four;
    cuzk_fp_set_u64(&four, 4);
    for (;;) {
        tc_rand_fp(&out->x);
        cuzk_fp_sqr(&rhs, &out->x);
        cuzk_fp_mul(&rhs, &rhs, &out->x);
        cuzk_fp_add(&rhs, &rhs, &four);
        if (cuzk_fp_sqrt(&out->y, &rhs))
            break;
    }
    if (test_rand_u64() & 1)
        cuzk_fp_neg(&out->y, &out->y);
    out->infinity = false;
}

static inline void tc_g2_rand_curve(cuzk_g2_affine_t *out)
{
    cuzk_fp2_t rhs, b;
    cuzk_fp_set_u64(&b.c0, 4);
    b.c1 = b.c0;
    for (;;) {
        tc_rand_fp2(&out->x);
        cuzk_fp2_sqr(&rhs, &out->x);
        cuzk_fp2_mul(&rhs, &rhs, &out->x);
        cuzk_fp2_add(&rhs, &rhs, &b);
        if (cuzk_fp2_sqrt(&out->y, &rhs))
            break;
    }
    if (test_rand_u64() & 1)
        cuzk_fp2_neg(&out->y, &out->y);
    out->infinity = false;
}

/* A random point of G1 / G2: a random multiple of the generator. */
static inline void tc_g1_rand(cuzk_g1_jac_t *out)
{
    cuzk_g1_affine_t g;
    cuzk_fr_t k;
    cuzk_g1_generator(&g);
    cuzk_g1_from_affine(out, &g);
    tc_rand_fr(&k);
    cuzk_g1_mul(out, out, &k);
}

static inline void tc_g2_rand(cuzk_g2_jac_t *out)
{
    cuzk_g2_affine_t g;
    cuzk_fr_t k;
    cuzk_g2_generator(&g);
    cuzk_g2_from_affine(out, &g);
    tc_rand_fr(&k);
    cuzk_g2_mul(out, out, &k);
}

/* Re-randomises the Jacobian representation: (l^2 X, l^3 Y, l Z) for a random l != 0. */
static inline void tc_g1_rerand(cuzk_g1_jac_t *p)
{
    cuzk_fp_t l, l2;
    tc_rand_fp(&l);
    cuzk_fp_sqr(&l2, &l);
    cuzk_fp_mul(&p->x, &p->x, &l2);
    cuzk_fp_mul(&l2, &l2, &l);
    cuzk_fp_mul(&p->y, &p->y, &l2);
    cuzk_fp_mul(&p->z, &p->z, &l);
}

static inline void tc_g2_rerand(cuzk_g2_jac_t *p)
{
    cuzk_fp2_t l, l2;
    tc_rand_fp2(&l);
    cuzk_fp2_sqr(&l2, &l);
    cuzk_fp2_mul(&p->x, &p->x, &l2);
    cuzk_fp2_mul(&l2, &l2, &l);
    cuzk_fp2_mul(&p->y, &p->y, &l2);
    cuzk_fp2_mul(&p->z, &p->z, &l);
}

#endif
