/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#include "test.h"
#include "cuzk/field.h"

CUZK_TEST(field_fp_inverse_roundtrip)
{
    for (unsigned long i = 0; i < test_iters(200); i++) {
        cuzk_fp_t a, b, c, d;
        uint64_t l[6];
        test_rand_bytes(l, sizeof l);
        l[5] &= 0x0fffffffffffffffULL;
        CHECK(cuzk_fp_from_canonical(&a, l));
        cuzk_fp_inv(&b, &a);
        cuzk_fp_inv_vartime(&c, &a);
        CHECK(cuzk_fp_eq(&b, &c));
        cuzk_fp_mul(&d, &a, &b);
        CHECK(cuzk_fp_is_one(&d) || cuzk_fp_is_zero(&a));
    }
}
