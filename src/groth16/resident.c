/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Device residency of a whole parameter set: the five point arrays the prover's MSMs and batch
 * additions read (cuzk_backend_keep_resident does the work). */
#include "cuzk/backend.h"
#include "cuzk/groth16.h"
#include "groth16/prover_internal.h"

#include <stdio.h>

cuzk_status cuzk__groth16_params_keep_arrays(cuzk_backend *be, const cuzk_groth16_params *p)
{
    const void *arr[5] = {p->h, p->l, p->a, p->b_g1, p->b_g2};
    size_t n[5] = {p->n_h, p->n_l, p->n_a, p->n_b_g1, p->n_b_g2};
    /* The H query (i = 0) last, with the backend's precomputed rows if any: how many fit
     * depends on what the other four arrays leave. */
    for (int k = 1; k <= 5; k++) {
        int i = k % 5;
        if (!arr[i] || !n[i])
            continue;
        cuzk_status s = cuzk_backend_keep_resident_rows(be, arr[i], n[i], i == 4,
                                                        i == 0 ? cuzk_backend_h_rows(be) : 0);
        if (s != CUZK_OK) {
            /* All or nothing: a half-resident set would still pay the largest uploads. */
            cuzk_groth16_params_drop_resident(be, p);
            return s;
        }
    }
    return CUZK_OK;
}

cuzk_status cuzk_groth16_params_keep_resident(cuzk_backend *be, const cuzk_groth16_params *p)
{
    cuzk_status s = cuzk__groth16_params_keep_arrays(be, p);
    if (s != CUZK_OK)
        return s;
    /* The prover's pinned scratch too, now rather than in the first proof. Short of host
     * memory the proofs will say so themselves. */
    if (cuzk_backend_device(be) >= 0 && cuzk__prover_reserve(be, p) != CUZK_OK)
        fprintf(stderr, "cuzk: prover scratch not reserved yet: %s\n", cuzk_last_error());
    return CUZK_OK;
}

void cuzk_groth16_params_drop_resident(cuzk_backend *be, const cuzk_groth16_params *p)
{
    const void *arr[5] = {p->h, p->l, p->a, p->b_g1, p->b_g2};
    for (int i = 0; i < 5; i++)
        cuzk_backend_drop_resident(be, arr[i]);
}
