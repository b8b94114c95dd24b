/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* G2 group law, scalar multiplication, subgroup checks. */
#include "test_curve_util.h"
#include "curve/curve_internal.h"

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

/* psi acts on G2 as [x] = [r - |x|] (the eigenvalue of the GLS split and the subgroup check) and
 * maps the twist to itself. */
CUZK_TEST(curve_g2_endomorphism)
{
    uint64_t rx[4] = {TC_R[0], TC_R[1], TC_R[2], TC_R[3]};
    unsigned __int128 d = (unsigned __int128)rx[0] - CUZK_BLS_X_ABS;
    rx[0] = (uint64_t)d;
    if ((d >> 64) & 1)
        rx[1] -= 1; /* r[1] != 0: no further borrow */
    cuzk_g2_affine_t g;
    cuzk_g2_jac_t gj, t, u;
    cuzk_g2_generator(&g);
    cuzk_g2_from_affine(&gj, &g);
    cuzk__g2_psi(&t, &gj);
    cuzk_g2_mul_raw_vartime(&u, &gj, rx, 4);
    CHECK(cuzk_g2_eq(&t, &u));
    for (unsigned long it = 0; it < test_iters(8); it++) {
        cuzk_g2_affine_t a;
        tc_g2_rand_curve(&a);
        cuzk_g2_from_affine(&u, &a);
        tc_g2_rerand(&u);
        cuzk__g2_psi(&t, &u);
        CHECK(cuzk_g2_is_on_curve(&t));
        CHECK(!cuzk_g2_eq(&t, &u));
    }
}
