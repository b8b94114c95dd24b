/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_MSM_MSM_SLICES_H
#define CUZK_MSM_MSM_SLICES_H
/* Internal: how many slices a one-thread MSM makes its endomorphism images in (msm_plan_slice in
 * src/msm/msm_common.h; 1 when it makes them all at once or does not split), with the bases as
 * affine points or |packed| (src/msm/msm_packed.h), for tests. */
#include <stdbool.h>

#include "cuzk/msm.h"

unsigned cuzk__g1_msm_slices(size_t n, const cuzk_pool *pool, const cuzk_msm_opts *opts,
                             bool packed);
unsigned cuzk__g2_msm_slices(size_t n, const cuzk_pool *pool, const cuzk_msm_opts *opts,
                             bool packed);

#endif
