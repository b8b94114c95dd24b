/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* A checked PoRep C1 output's partition as the circuit's witness (porep_circuit.h's layout). */
#include "filecoin/porep_vanilla.h"

#include <string.h>

#include "cuzk/alloc.h"
#include "cuzk/r1cs.h"

#define P CUZK_FIL_POREP_PARENTS

cuzk_status cuzk_fil_porep_partition_from_c1(cuzk_fil_porep_partition **out,
                                             const cuzk_fil_porep_c1 *c1, size_t k)
{
    *out = NULL;
    if (k >= c1->npartitions)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "PoRep C1 has %zu partitions, not %zu",
                         c1->npartitions, k + 1);
    cuzk_fil_porep_shape ps;
    CUZK_TRY(cuzk_fil_porep_shape_get(&ps, c1->shape.seal_proof_type));
    if (ps.challenges != c1->shape.challenges || ps.layers != c1->shape.layers)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "PoRep C1 of another shape than its proof's");
    cuzk_fil_porep_partition *p;
    CUZK_TRY(cuzk__fil_porep_partition_alloc(&p, &ps, k));
    cuzk_fil_porep_witness *w = &p->w;
    cuzk_status s = cuzk_fr_from_bytes_le(&w->replica_id, c1->replica_id);
    if (s == CUZK_OK)
        s = cuzk_fr_from_bytes_le(&w->comm_d, c1->comm_d);
    if (s == CUZK_OK)
        s = cuzk_fr_from_bytes_le(&w->comm_r, c1->comm_r);
    if (s != CUZK_OK) {
        cuzk_fil_porep_partition_destroy(p);
        return cuzk_fail(CUZK_ERR_NOT_CANONICAL, "PoRep C1: a public value is not canonical");
    }
    w->comm_r_last = c1->comm_r_last;
    w->comm_c = c1->comm_c;
    size_t nc = ps.challenges, L = ps.layers, lp = cuzk_fil_porep_path_len(&ps), d = ps.node_bits;
    uint64_t *chal = (uint64_t *)w->challenges, *par = (uint64_t *)w->parents;
    cuzk_fr_t *data = (cuzk_fr_t *)w->data_leaves, *pd = (cuzk_fr_t *)w->paths_d,
              *rows = (cuzk_fr_t *)w->parent_rows, *pp = (cuzk_fr_t *)w->parent_paths,
              *pc = (cuzk_fr_t *)w->paths_c, *pr = (cuzk_fr_t *)w->paths_r;
    for (size_t i = 0; i < nc; i++) {
        const cuzk_fil_porep_challenge_proof *cp = &c1->proofs[k * nc + i];
        chal[i] = cp->c_x.index;
        data[i] = cp->comm_d.leaf;
        memcpy(&pd[i * d], cp->comm_d.siblings, d * sizeof *pd);
        memcpy(&pc[i * lp], cp->c_x.proof.siblings, lp * sizeof *pc);
        memcpy(&pr[i * lp], cp->comm_r_last.siblings, lp * sizeof *pr);
        memcpy(&p->labels[i * L], cp->c_x.rows, L * sizeof *p->labels);
        for (size_t j = 0; j < P; j++) {
            const cuzk_fil_porep_column *col = j < CUZK_FIL_POREP_DRG_PARENTS
                                                   ? &cp->drg[j]
                                                   : &cp->exp[j - CUZK_FIL_POREP_DRG_PARENTS];
            par[i * P + j] = col->index;
            memcpy(&rows[(i * P + j) * L], col->rows, L * sizeof *rows);
            memcpy(&pp[(i * P + j) * lp], col->proof.siblings, lp * sizeof *pp);
        }
    }
    *out = p;
    return CUZK_OK;
}
