/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* G1 group law, scalar multiplication, subgroup checks. */
#include "test_curve_util.h"
#include "curve/curve_internal.h"

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
    static const uint64_t d[] = {3,
                                 11,
                                 121,
                                 10177,
                                 10177ULL * 10177,
                                 859267,
                                 859267ULL * 859267,
                                 52437899,
                                 52437899ULL * 52437899};
    tc_g1_check_torsion(TC_H1, 2, d, sizeof d / sizeof d[0], NULL, 0);
}

/* phi(x, y) = (beta x, y) acts on G1 as [-x^2] = [r - x^2] (the eigenvalue GLV and the subgroup
 * check rely on), is an automorphism of order 3 of the whole curve. */
CUZK_TEST(curve_g1_endomorphism)
{
    static const uint64_t z[2] = {0x0000000100000000ULL, 0xac45a4010001a402ULL}; /* x^2 */
    uint64_t rz[4];
    unsigned __int128 borrow = 0;
    for (size_t i = 0; i < 4; i++) {
        unsigned __int128 d = (unsigned __int128)TC_R[i] - (i < 2 ? z[i] : 0) - borrow;
        rz[i] = (uint64_t)d;
        borrow = (d >> 64) & 1;
    }
    cuzk_g1_affine_t g;
    cuzk_g1_jac_t gj, t, u;
    cuzk_g1_generator(&g);
    cuzk_g1_from_affine(&gj, &g);
    cuzk__g1_phi(&t, &gj);
    cuzk_g1_mul_raw_vartime(&u, &gj, rz, 4);
    CHECK(cuzk_g1_eq(&t, &u));
    for (unsigned long it = 0; it < test_iters(8); it++) {
        cuzk_g1_affine_t a;
        tc_g1_rand_curve(&a);
        cuzk_g1_from_affine(&u, &a);
        cuzk__g1_phi(&t, &u);
        CHECK(cuzk_g1_is_on_curve(&t));
        CHECK(!cuzk_g1_eq(&t, &u));
        cuzk__g1_phi(&t, &t);
        cuzk__g1_phi(&t, &t);
        CHECK(cuzk_g1_eq(&t, &u));
    }
}
