/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * tests/unit/gpu_pt_fused_host.cu built again with the Fp2 products of CUZK_GPU_FP2_KA (three
 * wide products and two reductions, src/gpu/mont_ka.cuh fp2_mul_wide), exported under its own
 * name for tests/unit/test_gpu_pt_fused_host.c: the G2 formulas over those products against
 * the host's.
 */
#define CUZK_GPU_FP2_KA 1
#define cuzk__test_pt_fused_host cuzk__test_pt_fp2_ka_host
#include "gpu_pt_fused_host.cu"
