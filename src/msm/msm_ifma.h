/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_MSM_MSM_IFMA_H
#define CUZK_MSM_MSM_IFMA_H

#include <stdbool.h>

#include "field/fp_ifma.h"

/*
 * Whether the G1 and G2 batch-affine additions and running sums use the 8-lane IFMA paths
 * (src/msm/batch_affine_x8.h, src/msm/reduce_x8.h) when the library was built with them
 * (CUZK_FP_HAVE_IFMA). On by default; tests and cuzk-bench
 * clear it to run the scalar reference path in the same process. Set it only while no MSM runs.
 */
extern bool cuzk__msm_use_ifma; /* defined in src/msm/msm_g1.c */

#endif
