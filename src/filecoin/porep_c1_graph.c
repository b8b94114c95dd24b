/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The checks of a PoRep C1 output that need the graph (porep_graph.h): the challenges each
 * partition opens are those Filecoin derives, in order, and each challenged node's parent
 * columns are the graph's parents of that node, in order; replica_id is the one derived from the
 * prover and sector. A C1 that passes these and cuzk_fil_porep_c1_check is what the chain's
 * verifier will check the proof against.
 */
#include "filecoin/porep_graph.h"

#include <string.h>

#include "cuzk/alloc.h"
#include "cuzk/r1cs.h"
#include "filecoin/porep_vanilla.h"
#include "filecoin/post_circuit.h"

typedef struct {
    const cuzk_fil_porep_c1 *c1;
    const cuzk_fil_porep_graph *g;
    cuzk_fil_porep_info info;
} graph_ctx;

/* The derived challenges of partition |k|: interactive and NI from their hashes over the C1's
 * node count and challenge count (so a test shape is checked by the same rule), synthetic
 * through the registry. */
static cuzk_status derived(uint64_t *out, const graph_ctx *x, size_t k)
{
    const cuzk_fil_porep_c1 *c1 = x->c1;
    const cuzk_fil_porep_c1_shape *sh = &c1->shape;
    switch (x->info.kind) {
    case CUZK_FIL_POREP_INTERACTIVE:
        return cuzk_fil_porep_challenges_interactive(out, sh->challenges, sh->nodes, c1->replica_id,
                                                     c1->seed, (unsigned)k);
    case CUZK_FIL_POREP_NI:
        return cuzk_fil_porep_challenges_ni(out, sh->challenges, sh->nodes, c1->replica_id,
                                            c1->comm_r, (unsigned)k);
    default: {
        size_t n = 0;
        CUZK_TRY(cuzk_fil_porep_challenges(out, sh->challenges, &n, sh->seal_proof_type,
                                           c1->replica_id, c1->comm_r, c1->seed, (unsigned)k));
        if (n != sh->challenges)
            return cuzk_fail(CUZK_ERR_INVALID_ARG, "PoRep C1: %zu challenges derived, %zu held", n,
                             sh->challenges);
        return CUZK_OK;
    }
    }
}

static cuzk_status check_partition(void *ctx, size_t k)
{
    const graph_ctx *x = ctx;
    const cuzk_fil_porep_c1_shape *sh = &x->c1->shape;
    uint64_t want[64];
    if (sh->challenges > 64)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "PoRep C1: %zu challenges a partition",
                         sh->challenges);
    CUZK_TRY(derived(want, x, k));
    cuzk_fil_porep_hasher h;
    CUZK_TRY(cuzk_fil_porep_hasher_init(&h));
    cuzk_status s = CUZK_OK;
    for (size_t i = 0; i < sh->challenges && s == CUZK_OK; i++) {
        const cuzk_fil_porep_challenge_proof *cp = &x->c1->proofs[k * sh->challenges + i];
        if (cp->c_x.index != want[i]) {
            s = cuzk_fail(CUZK_ERR_FORMAT,
                          "PoRep C1 partition %zu, challenge %zu: node %u, the derived "
                          "challenge is %llu",
                          k, i, cp->c_x.index, (unsigned long long)want[i]);
            break;
        }
        uint32_t par[CUZK_FIL_PARENTS];
        if ((s = cuzk_fil_porep_parents(x->g, &h, par, want[i])) != CUZK_OK)
            break;
        for (size_t j = 0; j < CUZK_FIL_PARENTS; j++) {
            const cuzk_fil_porep_column *col =
                j < CUZK_FIL_DRG_DEGREE ? &cp->drg[j] : &cp->exp[j - CUZK_FIL_DRG_DEGREE];
            if (col->index != par[j]) {
                s = cuzk_fail(CUZK_ERR_FORMAT,
                              "PoRep C1 partition %zu, challenge %zu: %s parent %zu is node %u, "
                              "the graph's is %u",
                              k, i, j < CUZK_FIL_DRG_DEGREE ? "DRG" : "expander",
                              j < CUZK_FIL_DRG_DEGREE ? j : j - CUZK_FIL_DRG_DEGREE, col->index,
                              par[j]);
                break;
            }
        }
    }
    cuzk_fil_porep_hasher_clear(&h);
    return s;
}

cuzk_status cuzk_fil_porep_c1_check_graph(const cuzk_fil_porep_c1 *c1, unsigned threads)
{
    graph_ctx x = {.c1 = c1};
    CUZK_TRY(cuzk_fil_porep_info_get(&x.info, c1->shape.seal_proof_type));
    cuzk_fil_porep_graph g;
    cuzk_status s =
        cuzk_fil_porep_graph_init(&g, c1->shape.nodes, x.info.porep_id, x.info.api_minor);
    x.g = &g;
    if (s == CUZK_OK)
        s = cuzk__fil_par_for(c1->npartitions, threads, check_partition, &x);
    cuzk_fil_porep_graph_clear(&g);
    return s;
}

void cuzk_fil_prover_id(uint8_t out[32], uint64_t miner_id)
{
    memset(out, 0, 32);
    for (int i = 0; i < 32; i++) {
        out[i] = (uint8_t)(miner_id & 0x7f);
        miner_id >>= 7;
        if (!miner_id)
            break;
        out[i] |= 0x80;
    }
}

cuzk_status cuzk_fil_porep_c1_check_replica(const cuzk_fil_porep_c1 *c1, uint64_t miner_id,
                                            uint64_t sector_id)
{
    uint8_t prover[32], porep_id[32], rid[32];
    cuzk_fil_prover_id(prover, miner_id);
    CUZK_TRY(cuzk_fil_porep_id(porep_id, c1->shape.seal_proof_type));
    CUZK_TRY(cuzk_fil_replica_id(rid, prover, sector_id, c1->ticket, c1->comm_d, porep_id));
    if (memcmp(rid, c1->replica_id, 32) != 0)
        return cuzk_fail(CUZK_ERR_FORMAT,
                         "PoRep C1: replica_id is not the one of miner %llu, sector %llu (with "
                         "the C1's ticket and comm_d)",
                         (unsigned long long)miner_id, (unsigned long long)sector_id);
    return CUZK_OK;
}
