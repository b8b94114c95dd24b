/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* gpu_mul_eo_host.cu with the multiplications' row loop rolled, as the MSM compiles them. */
#define CUZK_GPU_MONT_ROLL 1
#define CZ_EO_HOST_FN cuzk__test_mul_eo_host_roll
#include "gpu_mul_eo_host.cu"
