/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_MSM_SUBGROUP_H
#define CUZK_MSM_SUBGROUP_H

/*
 * Subgroup checks of many points at once: 8 lanes with AVX-512 IFMA (src/msm/subgroup_x8.h),
 * where the library is built with it and cuzk__msm_use_ifma is set; one by one otherwise. Every
 * lane the vector test does not pass (and every lane whose chain met a special case) is decided
 * by the scalar test of src/curve, so the answer is the scalar test's. The points must be on
 * the curve (the callers check that first): the vector test does not look at the curve
 * equation. Internal.
 */
#include "cuzk/curve.h"

#include <stddef.h>

/* The index of the first of p[0 .. n) outside the prime-order subgroup, or n. */
size_t cuzk__g1_first_outside_subgroup(const cuzk_g1_affine_t *p, size_t n);
size_t cuzk__g2_first_outside_subgroup(const cuzk_g2_affine_t *p, size_t n);
/* Points these functions handed to the scalar test so far in this process (tests: that the
 * vector test itself passes points of the subgroup). */
size_t cuzk__subgroup_scalar_count(void);

#endif
