/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* G1 group law, scalar multiplication, subgroup checks. */
#include "test_curve_util.h"

#define P_(name) cuzk_g1_##name
#define T_(name) tc_g1_##name
#define AFF_T cuzk_g1_affine_t
#define JAC_T cuzk_g1_jac_t
#define XYZZ_T cuzk_g1_xyzz_t
#include "test_curve_group_impl.h"

CUZK_TEST(curve_g1_generator)
{
    tc_g1_check_generator();
}

CUZK_TEST(curve_g1_group_law)
{
    tc_g1_check_group_law();
}

CUZK_TEST(curve_g1_xyzz)
{
    tc_g1_check_xyzz();
}

CUZK_TEST(curve_g1_scalar_mul)
{
    tc_g1_check_scalar();
}

CUZK_TEST(curve_g1_mul_full_curve)
{
    tc_g1_check_mul_full_curve();
}

CUZK_TEST(curve_g1_batch_to_affine)
{
    tc_g1_check_batch_to_affine();
}

CUZK_TEST(curve_g1_subgroup_and_cofactor)
{
    tc_g1_check_subgroup(TC_H1, 2);
}

CUZK_TEST(curve_g1_subgroup_torsion)
{
    /* h1 = 3 * 11^2 * 10177^2 * 859267^2 * 52437899^2 */
    static const uint64_t d[] = {3,      11,           121,    10177,
                                 10177ULL * 10177, 859267, 859267ULL * 859267, 52437899,
                                 52437899ULL * 52437899};
    tc_g1_check_torsion(TC_H1, 2, d, sizeof d / sizeof d[0], NULL, 0);
}
