/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* ZCash encodings of G1 and G2: round trips and every rejection path (formats.md 2.1). */
#include "test_curve_util.h"

static void tc_g1_bump_y(cuzk_g1_affine_t *a)
{
    cuzk_fp_t one;
    cuzk_fp_set_one(&one);
    cuzk_fp_add(&a->y, &a->y, &one);
}

static void tc_g2_bump_y(cuzk_g2_affine_t *a)
{
    cuzk_fp_t one;
    cuzk_fp_set_one(&one);
    cuzk_fp_add(&a->y.c1, &a->y.c1, &one);
}

static void tc_g1_rand_x_no_root(cuzk_g1_affine_t *a)
{
    cuzk_fp_t rhs, four, y;
    cuzk_fp_set_u64(&four, 4);
    do {
        tc_rand_fp(&a->x);
        cuzk_fp_sqr(&rhs, &a->x);
        cuzk_fp_mul(&rhs, &rhs, &a->x);
        cuzk_fp_add(&rhs, &rhs, &four);
    } while (cuzk_fp_sqrt(&y, &rhs));
    cuzk_fp_set_zero(&a->y);
    a->infinity = false;
}

static void tc_g2_rand_x_no_root(cuzk_g2_affine_t *a)
{
    cuzk_fp2_t rhs, b, y;
    cuzk_fp_set_u64(&b.c0, 4);
    b.c1 = b.c0;
    do {
        tc_rand_fp2(&a->x);
        cuzk_fp2_sqr(&rhs, &a->x);
        cuzk_fp2_mul(&rhs, &rhs, &a->x);
        cuzk_fp2_add(&rhs, &rhs, &b);
    } while (cuzk_fp2_sqrt(&y, &rhs));
    cuzk_fp2_set_zero(&a->y);
    a->infinity = false;
}

#define P_(name) cuzk_g1_##name
#define T_(name) tc_g1_##name
#define AFF_T cuzk_g1_affine_t
#define JAC_T cuzk_g1_jac_t
#define CB 48
#define UB 96
#include "test_curve_encoding_impl.h"
#undef P_
#undef T_
#undef AFF_T
#undef JAC_T
#undef CB
#undef UB

#define P_(name) cuzk_g2_##name
#define T_(name) tc_g2_##name
#define AFF_T cuzk_g2_affine_t
#define JAC_T cuzk_g2_jac_t
#define CB 96
#define UB 192
#include "test_curve_encoding_impl.h"

CUZK_TEST(curve_g1_encoding_roundtrip)
{
    tc_g1_check_roundtrip();
}

CUZK_TEST(curve_g1_encoding_rejects)
{
    tc_g1_check_rejections();
}

CUZK_TEST(curve_g2_encoding_roundtrip)
{
    tc_g2_check_roundtrip();
}

CUZK_TEST(curve_g2_encoding_rejects)
{
    tc_g2_check_rejections();
}
