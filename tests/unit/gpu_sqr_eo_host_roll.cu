/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* gpu_sqr_eo_host.cu with the row loops rolled by 3 rows, as the G1 MSM compiles them. */
#define CUZK_GPU_MONT_ROLL 3
#define CZ_SQ_HOST_FN cuzk__test_sqr_eo_host_roll
#include "gpu_sqr_eo_host.cu"
