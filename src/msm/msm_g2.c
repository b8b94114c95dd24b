/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* MSM and bitmap batch addition in G2 (over Fp2): src/msm/pippenger_impl.h instantiated. */
#include "cuzk/msm.h"

#define M_(name) cuzk_g2_##name
#define F_T cuzk_fp2_t
#define F_ONE cuzk_fp2_set_one
#define F_IS_ZERO msm_fp2_is_zero
#define F_EQ msm_fp2_eq
#define F_ADD msm_fp2_add
#define F_SUB msm_fp2_sub
#define F_DBL msm_fp2_dbl
#define F_NEG msm_fp2_neg
#define F_MUL msm_fp2_mul
#define F_SQR msm_fp2_sqr
#define F_INV cuzk_fp2_inv_vartime
#define AFF_T cuzk_g2_affine_t
#define JAC_T cuzk_g2_jac_t
#define XYZZ_T cuzk_g2_xyzz_t
/* cuzk_fp2_inv_vartime / cuzk_fp2_mul measured on the development machine: ~15 us / ~250 ns. */
#define MSM_INV_COST 60.0
#include "msm/pippenger_impl.h"
