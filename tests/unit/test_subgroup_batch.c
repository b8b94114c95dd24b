/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The subgroup checks of many points (src/msm/subgroup.h), 8 lanes at a time where IFMA is
 * built in, against the one-point test of src/curve: arrays of subgroup points and points at
 * infinity with points outside the subgroup at random places (random curve points, torsion
 * points [r] Q, subgroup points plus torsion, and in G1 the order-3 point (0, 2) with and
 * without a subgroup part), with the vector path on and off. All-good arrays must pass the
 * vector test without the scalar one. */
#include "test_curve_util.h"
#include "msm/msm_ifma.h"
#include "msm/subgroup.h"

#define NPTS 61 /* 7 groups of 8 and a tail of 5 */

/* A point outside G1 of kind |kind| (0..4), or false when the draw hit infinity. */
static bool g1_bad(cuzk_g1_affine_t *out, int kind)
{
    cuzk_g1_jac_t q, t, g;
    cuzk_g1_affine_t a;
    if (kind == 0) {
        tc_g1_rand_curve(out);
        return true;
    }
    if (kind >= 3) { /* (0, 2): x^3 + 4 = 4, of order 3 */
        cuzk_fp_t two;
        cuzk_fp_set_u64(&two, 2);
        a.infinity = false;
        memset(&a.x, 0, sizeof a.x);
        a.y = two;
        cuzk_g1_from_affine(&t, &a);
    } else {
        tc_g1_rand_curve(&a);
        cuzk_g1_from_affine(&q, &a);
        cuzk_g1_mul_raw_vartime(&t, &q, TC_R, 4); /* its torsion part */
    }
    if (kind == 2 || kind == 4) {
        tc_g1_rand(&g);
        cuzk_g1_add(&t, &t, &g);
    }
    if (cuzk_g1_jac_is_infinity(&t))
        return false;
    cuzk_g1_to_affine(out, &t);
    return true;
}

static bool g2_bad(cuzk_g2_affine_t *out, int kind)
{
    cuzk_g2_jac_t q, t, g;
    cuzk_g2_affine_t a;
    tc_g2_rand_curve(&a);
    if (kind % 3 == 0) {
        *out = a;
        return true;
    }
    cuzk_g2_from_affine(&q, &a);
    cuzk_g2_mul_raw_vartime(&t, &q, TC_R, 4);
    if (kind % 3 == 2) {
        tc_g2_rand(&g);
        cuzk_g2_add(&t, &t, &g);
    }
    if (cuzk_g2_jac_is_infinity(&t))
        return false;
    cuzk_g2_to_affine(out, &t);
    return true;
}

/* The first index the one-point test rejects, or n. */
#define REF_FIRST(G, p, n)                                                                         \
    ({                                                                                             \
        size_t r_ = (n);                                                                           \
        for (size_t i_ = 0; i_ < (n); i_++)                                                        \
            if (!cuzk_##G##_affine_in_subgroup(&(p)[i_])) {                                        \
                r_ = i_;                                                                           \
                break;                                                                             \
            }                                                                                      \
        r_;                                                                                        \
    })

#define SUBGROUP_BATCH_TEST(G, JAC_T, AFF_T, BAD)                                                  \
    {                                                                                              \
        AFF_T pts[NPTS], keep;                                                                     \
        for (size_t i = 0; i < NPTS; i++) {                                                        \
            if (test_rand_u64() % 9 == 0) {                                                        \
                cuzk_##G##_affine_set_infinity(&pts[i]);                                           \
                continue;                                                                          \
            }                                                                                      \
            JAC_T j;                                                                               \
            tc_##G##_rand(&j);                                                                     \
            cuzk_##G##_to_affine(&pts[i], &j);                                                     \
        }                                                                                          \
        /* All in the subgroup: the vector test passes every point itself. */                      \
        size_t sc0 = cuzk__subgroup_scalar_count();                                                \
        CHECK(cuzk__##G##_first_outside_subgroup(pts, NPTS) == NPTS);                              \
        if (CUZK_FP_HAVE_IFMA_ON)                                                                  \
            CHECK_MSG(cuzk__subgroup_scalar_count() - sc0 == NPTS % 8,                             \
                      "%zu points went to the scalar test", cuzk__subgroup_scalar_count() - sc0);  \
        cuzk__msm_use_ifma = false;                                                                \
        CHECK(cuzk__##G##_first_outside_subgroup(pts, NPTS) == NPTS);                              \
        cuzk__msm_use_ifma = true;                                                                 \
        CHECK(cuzk__##G##_first_outside_subgroup(pts, 0) == 0);                                    \
        /* One bad point of each kind at each place, then two at random places. */                 \
        for (int kind = 0; kind < 5; kind++) {                                                     \
            for (size_t at = 0; at < NPTS; at += (at < 16 ? 1 : 7)) {                              \
                AFF_T b;                                                                           \
                if (!BAD(&b, kind))                                                                \
                    continue;                                                                      \
                CHECK(cuzk_##G##_affine_is_on_curve(&b) && !cuzk_##G##_affine_in_subgroup(&b));    \
                keep = pts[at];                                                                    \
                pts[at] = b;                                                                       \
                size_t a2 = at + 1 + (size_t)(test_rand_u64() % NPTS);                             \
                AFF_T keep2 = pts[a2 % NPTS];                                                      \
                bool two = a2 < NPTS && BAD(&pts[a2], (kind + 1) % 5);                             \
                size_t want = REF_FIRST(G, pts, NPTS);                                             \
                CHECK_MSG(want == at, "the reference found %zu, not %zu", want, at);               \
                size_t got = cuzk__##G##_first_outside_subgroup(pts, NPTS);                        \
                CHECK_MSG(got == want, #G " kind %d at %zu: %zu, want %zu", kind, at, got, want);  \
                cuzk__msm_use_ifma = false;                                                        \
                got = cuzk__##G##_first_outside_subgroup(pts, NPTS);                               \
                cuzk__msm_use_ifma = true;                                                         \
                CHECK_MSG(got == want, #G " scalar kind %d at %zu: %zu", kind, at, got);           \
                /* From past the first bad point: the second one, or none. */                      \
                got = cuzk__##G##_first_outside_subgroup(pts + at + 1, NPTS - at - 1);             \
                want = REF_FIRST(G, pts + at + 1, NPTS - at - 1);                                  \
                CHECK_MSG(got == want, #G " after %zu: %zu, want %zu", at, got, want);             \
                if (two)                                                                           \
                    pts[a2] = keep2;                                                               \
                pts[at] = keep;                                                                    \
            }                                                                                      \
        }                                                                                          \
        CHECK(cuzk__##G##_first_outside_subgroup(pts, NPTS) == NPTS);                              \
    }

#if CUZK_FP_HAVE_IFMA
#define CUZK_FP_HAVE_IFMA_ON 1
#else
#define CUZK_FP_HAVE_IFMA_ON 0
#endif

CUZK_TEST(subgroup_batch_g1)
{
    SUBGROUP_BATCH_TEST(g1, cuzk_g1_jac_t, cuzk_g1_affine_t, g1_bad);
}

CUZK_TEST(subgroup_batch_g2)
{
    SUBGROUP_BATCH_TEST(g2, cuzk_g2_jac_t, cuzk_g2_affine_t, g2_bad);
}
