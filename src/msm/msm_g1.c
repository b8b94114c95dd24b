/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* MSM and bitmap batch addition in G1 (over Fp): src/msm/pippenger_impl.h instantiated. */
#include "cuzk/msm.h"

#define M_(name) cuzk_g1_##name
#define F_T cuzk_fp_t
#define F_ONE cuzk_fp_set_one
#define F_IS_ZERO msm_fp_is_zero
#define F_EQ msm_fp_eq
#define F_ADD msm_fp_add
#define F_SUB msm_fp_sub
#define F_DBL msm_fp_dbl
#define F_NEG msm_fp_neg
#define F_MUL msm_fp_mul
#define F_SQR msm_fp_sqr
#define F_INV cuzk_fp_inv_vartime
#define AFF_T cuzk_g1_affine_t
#define JAC_T cuzk_g1_jac_t
#define XYZZ_T cuzk_g1_xyzz_t
/* cuzk_fp_inv_vartime / cuzk_fp_mul measured on the development machine: ~21 us / ~45 ns. */
#define MSM_INV_COST 450.0
#include "msm/pippenger_impl.h"
