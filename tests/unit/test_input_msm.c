/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The verifier's input sum against the plain definition (one multiplication per input). */
#include "test.h"
#include "cuzk/curve.h"
#include "groth16/input_msm.h"

static void random_scalar(cuzk_fr_t *k, unsigned kind)
{
    uint64_t l[4] = {0, 0, 0, 0};
    switch (kind % 5) {
    case 0: /* zero */
        break;
    case 1: /* one */
        l[0] = 1;
        break;
    case 2: /* small */
        l[0] = test_rand_u64() % 100;
        break;
    case 3: /* 130-bit */
        l[0] = test_rand_u64();
        l[1] = test_rand_u64();
        l[2] = test_rand_u64() & 3;
        break;
    default: /* full width */
        for (int i = 0; i < 4; i++)
            l[i] = test_rand_u64();
        l[3] &= 0x3fffffffffffffffULL;
    }
    CHECK(cuzk_fr_from_canonical(k, l));
}

CUZK_TEST(groth16_input_msm_matches_naive)
{
    enum { MAXN = 300 };
    static cuzk_g1_affine_t ic[MAXN + 1];
    static cuzk_fr_t x[MAXN];
    cuzk_g1_affine_t g;
    cuzk_g1_generator(&g);
    cuzk_g1_jac_t gj, p;
    cuzk_g1_from_affine(&gj, &g);
    static const size_t sizes[] = {0, 1, 2, 7, 8, 9, 40, 132, 300};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si];
        for (size_t i = 0; i <= n; i++) {
            cuzk_fr_t k;
            random_scalar(&k, 4);
            cuzk_g1_mul_vartime(&p, &gj, &k);
            cuzk_g1_to_affine(&ic[i], &p);
        }
        if (n > 3)
            cuzk_g1_affine_set_infinity(&ic[2]); /* an IC point at infinity */
        unsigned mode = (unsigned)(test_rand_u64() % 3);
        for (size_t i = 0; i < n; i++) {
            random_scalar(&x[i], (unsigned)test_rand_u64());
            if (mode == 1 && i % 2 == 0 && i > 0)
                x[i] = x[0]; /* many repeats, as in PoSt inputs */
        }
        cuzk_g1_jac_t want, got;
        cuzk_g1_from_affine(&want, &ic[0]);
        for (size_t i = 0; i < n; i++) {
            cuzk_g1_from_affine(&p, &ic[i + 1]);
            cuzk_g1_mul(&p, &p, &x[i]);
            cuzk_g1_add(&want, &want, &p);
        }
        cuzk_groth16_input_msm(&got, ic, x, n);
        CHECK_MSG(cuzk_g1_eq(&want, &got), "n=%zu mode=%u", n, mode);
    }
}
