/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* G2 group law, scalar multiplication, subgroup checks. */
#include "test_curve_util.h"

#define P_(name) cuzk_g2_##name
#define T_(name) tc_g2_##name
#define AFF_T cuzk_g2_affine_t
#define JAC_T cuzk_g2_jac_t
#define XYZZ_T cuzk_g2_xyzz_t
#include "test_curve_group_impl.h"

CUZK_TEST(curve_g2_generator)
{
    tc_g2_check_generator();
}

CUZK_TEST(curve_g2_group_law)
{
    tc_g2_check_group_law();
}

CUZK_TEST(curve_g2_xyzz)
{
    tc_g2_check_xyzz();
}

CUZK_TEST(curve_g2_scalar_mul)
{
    tc_g2_check_scalar();
}

CUZK_TEST(curve_g2_mul_full_curve)
{
    tc_g2_check_mul_full_curve();
}

CUZK_TEST(curve_g2_batch_to_affine)
{
    tc_g2_check_batch_to_affine();
}

CUZK_TEST(curve_g2_subgroup_and_cofactor)
{
    tc_g2_check_subgroup(TC_H2, 8);
}

CUZK_TEST(curve_g2_subgroup_torsion)
{
    /* h2 = 13^2 * 23^2 * 2713 * 11953 * 262069 * q (q a 443-bit prime); the multiplier
     * 13^2 23^2 2713 11953 262069 gives points of order q. */
    static const uint64_t d[] = {13, 169, 23, 529, 2713, 11953, 262069};
    static const uint64_t m[] = {169ULL * 529 * 2713 * 11953 * 262069};
    tc_g2_check_torsion(TC_H2, 8, d, sizeof d / sizeof d[0], m, 1);
}
