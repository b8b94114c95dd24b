/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Groth16 verification (bellperson verify_proof; formats.md section 3.3). */
#include "cuzk/groth16.h"
#include "cuzk/alloc.h"
#include "cuzk/pairing.h"
#include "groth16/input_msm.h"
#include "groth16/verify_split.h"
#include "common/verify.h"

#include <sys/random.h>

cuzk_status cuzk_groth16_verify(const cuzk_groth16_vk *vk, const cuzk_groth16_proof *proof,
                                const cuzk_fr_t *inputs, size_t n_inputs)
{
    if (n_inputs + 1 != vk->ic_len)
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "verifying key expects %zu public inputs, %zu were given",
                         vk->ic_len - 1, n_inputs);
    cuzk_g1_jac_t acc;
    cuzk_groth16_input_msm(&acc, vk->ic, inputs, n_inputs);
    /* e(A, B) * e(acc, -gamma) * e(C, -delta) == e(alpha, beta): three Miller loops, one final
     * exponentiation, compared with the e(alpha, beta) prepared at key load. */
    cuzk_g1_affine_t p[3];
    cuzk_g2_affine_t q[3];
    p[0] = proof->a;
    q[0] = proof->b;
    cuzk_g1_to_affine(&p[1], &acc);
    CUZK_VERIFY_CHECK(cuzk_g1_affine_is_on_curve(&p[1]));
    q[1] = vk->neg_gamma_g2;
    p[2] = proof->c;
    q[2] = vk->neg_delta_g2;
    cuzk_fp12_t f;
    cuzk_miller_loop_multi(&f, p, q, 3);
    cuzk_final_exp(&f, &f);
    if (!cuzk_fp12_eq(&f, &vk->alpha_beta))
        return cuzk_fail(CUZK_ERR_VERIFY_FAILED, "pairing check failed: the proof is not valid "
                                                 "for this verifying key and these inputs");
    return CUZK_OK;
}

cuzk_status cuzk__groth16_verify_inputs(cuzk_fp12_t *f, const cuzk_groth16_vk *vk,
                                        const cuzk_fr_t *inputs, size_t n_inputs)
{
    if (n_inputs + 1 != vk->ic_len)
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "verifying key expects %zu public inputs, %zu were given", vk->ic_len - 1,
                         n_inputs);
    cuzk_g1_jac_t acc;
    cuzk_g1_affine_t p;
    cuzk_groth16_input_msm(&acc, vk->ic, inputs, n_inputs);
    cuzk_g1_to_affine(&p, &acc);
    CUZK_VERIFY_CHECK(cuzk_g1_affine_is_on_curve(&p));
    cuzk_miller_loop(f, &p, &vk->neg_gamma_g2);
    return CUZK_OK;
}

/* Miller loop i of the rest: (A, B) or (C, -delta). */
typedef struct {
    const cuzk_groth16_vk *vk;
    const cuzk_groth16_proof *proof;
    cuzk_fp12_t f[2];
} rest_job;

static void rest_run(void *ctx, size_t i)
{
    rest_job *j = ctx;
    if (i == 0)
        cuzk_miller_loop(&j->f[0], &j->proof->a, &j->proof->b);
    else
        cuzk_miller_loop(&j->f[1], &j->proof->c, &j->vk->neg_delta_g2);
}

cuzk_status cuzk__groth16_verify_rest(const cuzk_groth16_vk *vk, const cuzk_groth16_proof *proof,
                                      const cuzk_fp12_t *f_inputs, cuzk_pool *pool)
{
    rest_job j = {.vk = vk, .proof = proof};
    cuzk_pool_run(pool, 2, rest_run, &j);
    cuzk_fp12_t f;
    cuzk_fp12_mul(&f, &j.f[0], &j.f[1]);
    cuzk_fp12_mul(&f, &f, f_inputs);
    cuzk_final_exp(&f, &f);
    if (!cuzk_fp12_eq(&f, &vk->alpha_beta))
        return cuzk_fail(CUZK_ERR_VERIFY_FAILED, "pairing check failed: the proof is not valid "
                                                 "for this verifying key and these inputs");
    return CUZK_OK;
}

static cuzk_status random_weight(cuzk_fr_t *w)
{
    /* 128-bit weights: a forged batch passes with probability about 2^-128. */
    uint64_t l[4] = {0, 0, 0, 0};
    if (getrandom(l, 16, 0) != 16)
        return cuzk_fail(CUZK_ERR_INTERNAL, "getrandom failed");
    if (l[0] == 0 && l[1] == 0)
        l[0] = 1;
    if (!cuzk_fr_from_canonical(w, l))
        return cuzk_fail(CUZK_ERR_INTERNAL, "random weight out of range");
    return CUZK_OK;
}

cuzk_status cuzk_groth16_verify_batch(const cuzk_groth16_vk *vk, const cuzk_groth16_proof *proofs,
                                      size_t n_proofs, const cuzk_fr_t *inputs, size_t n_inputs)
{
    if (n_inputs + 1 != vk->ic_len)
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "verifying key expects %zu public inputs, %zu were given",
                         vk->ic_len - 1, n_inputs);
    if (n_proofs == 0)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "no proofs to verify");
    if (n_proofs == 1)
        return cuzk_groth16_verify(vk, proofs, inputs, n_inputs);
    /*
     * With random w_i: prod e(w_i A_i, B_i) * e(sum w_i acc_i, -gamma) * e(sum w_i C_i, -delta)
     *                  * e(-(sum w_i) alpha, beta) == 1.
     */
    size_t npairs = n_proofs + 3;
    cuzk_g1_affine_t *p = cuzk_alloc_array(npairs, sizeof *p);
    cuzk_g2_affine_t *q = cuzk_alloc_array(npairs, sizeof *q);
    cuzk_g1_jac_t *jp = cuzk_alloc_array(npairs, sizeof *jp);
    cuzk_status s = CUZK_OK;
    if (!p || !q || !jp) {
        s = cuzk_fail(CUZK_ERR_NOMEM, "cannot allocate batch verification state");
        goto done;
    }
    cuzk_g1_jac_t sum_acc, sum_c, t;
    cuzk_fr_t wsum;
    cuzk_g1_jac_set_infinity(&sum_acc);
    cuzk_g1_jac_set_infinity(&sum_c);
    cuzk_fr_set_zero(&wsum);
    for (size_t i = 0; i < n_proofs; i++) {
        cuzk_fr_t w;
        if ((s = random_weight(&w)) != CUZK_OK)
            goto done;
        cuzk_fr_add(&wsum, &wsum, &w);
        cuzk_g1_from_affine(&t, &proofs[i].a);
        cuzk_g1_mul_vartime(&jp[i], &t, &w);
        q[i] = proofs[i].b;
        cuzk_g1_jac_t acc;
        cuzk_groth16_input_msm(&acc, vk->ic, inputs + i * n_inputs, n_inputs);
        cuzk_g1_mul_vartime(&acc, &acc, &w);
        cuzk_g1_add(&sum_acc, &sum_acc, &acc);
        cuzk_g1_from_affine(&t, &proofs[i].c);
        cuzk_g1_mul_vartime(&t, &t, &w);
        cuzk_g1_add(&sum_c, &sum_c, &t);
    }
    jp[n_proofs] = sum_acc;
    q[n_proofs] = vk->neg_gamma_g2;
    jp[n_proofs + 1] = sum_c;
    q[n_proofs + 1] = vk->neg_delta_g2;
    cuzk_fr_neg(&wsum, &wsum);
    cuzk_g1_from_affine(&t, &vk->alpha_g1);
    cuzk_g1_mul_vartime(&jp[n_proofs + 2], &t, &wsum);
    q[n_proofs + 2] = vk->beta_g2;
    cuzk_g1_batch_to_affine(p, jp, npairs);
    if (!cuzk_pairing_product_is_one(p, q, npairs))
        s = cuzk_fail(CUZK_ERR_VERIFY_FAILED, "batch pairing check failed: at least one of the "
                                              "%zu proofs is not valid",
                      n_proofs);
done:
    cuzk_free(p);
    cuzk_free(q);
    cuzk_free(jp);
    return s;
}
