/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * A PoRep C2 request at submit: the C1 output read (Curio's wrapper, serde JSON or bincode raw
 * C1), every check made (openings, labels, the graph's challenges and parents, replica_id against
 * the miner and sector when given), and each partition turned into the circuit's witness. A
 * request that fails any of it is refused before anything is queued; the C1 is not kept.
 */
#include "engine_internal.h"

#include <string.h>

#include "cuzk/alloc.h"
#include "filecoin/porep_vanilla.h"

void cuzk__porep_parts_free(cuzk_fil_porep_partition **v, size_t n)
{
    for (size_t i = 0; v && i < n; i++)
        cuzk_fil_porep_partition_destroy(v[i]);
    cuzk_free(v);
}

static bool all_zero(const uint8_t b[32])
{
    for (int i = 0; i < 32; i++)
        if (b[i])
            return false;
    return true;
}

/* The C1 in whichever form it came: JSON (Curio's wrapper has a Phase1Out key, which serde's
 * C1 never has) or bincode. */
static cuzk_status read_c1(cuzk_fil_porep_c1 **out, const cuzk_job_request *req)
{
    const uint8_t *b = req->vanilla_proofs[0];
    size_t n = req->vanilla_lens[0], i = 0;
    while (i < n && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n'))
        i++;
    if (i < n && b[i] == '{') {
        static const char key[] = "\"Phase1Out\"";
        if (memmem(b, n, key, sizeof key - 1))
            return cuzk_fil_porep_c1_from_curio(out, NULL, (const char *)b, n);
        return cuzk_fil_porep_c1_from_json(out, (const char *)b, n);
    }
    return cuzk_fil_porep_c1_from_bincode(out, req->registered_proof, b, n);
}

typedef struct {
    const cuzk_fil_porep_c1 *c1;
    cuzk_fil_porep_partition **v;
} parts_ctx;

static cuzk_status part_one(void *ctx, size_t k)
{
    const parts_ctx *x = ctx;
    return cuzk_fil_porep_partition_from_c1(&x->v[k], x->c1, k);
}

cuzk_status cuzk__porep_decode(const cuzk_job_request *req, unsigned threads,
                               cuzk_fil_porep_partition ***out, uint32_t *nparts,
                               uint64_t *seal_proof_type)
{
    *out = NULL;
    if (req->n_vanilla != 1 || !req->vanilla_proofs || !req->vanilla_lens ||
        !req->vanilla_proofs[0] || !req->vanilla_lens[0])
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "PoRep needs its C1 output as the one vanilla proof (got %zu)",
                         req->vanilla_proofs ? req->n_vanilla : 0);
    cuzk_fil_porep_c1 *c1 = NULL;
    cuzk_status s = read_c1(&c1, req);
    if (s == CUZK_OK && (all_zero(c1->comm_d) || all_zero(c1->comm_r) || all_zero(c1->seed)))
        s = cuzk_fail(CUZK_ERR_FORMAT, "PoRep C1: comm_d, comm_r and seed must not be zero");
    if (s == CUZK_OK && req->partitions && req->partitions != c1->npartitions)
        s = cuzk_fail(CUZK_ERR_INVALID_ARG, "a PoRep proof of %s has %zu partitions (got %u)",
                      cuzk_fil_seal_proof_name(c1->shape.seal_proof_type), c1->npartitions,
                      req->partitions);
    if (s == CUZK_OK)
        s = cuzk_fil_porep_c1_check_graph(c1, threads);
    if (s == CUZK_OK && req->miner_id)
        s = cuzk_fil_porep_c1_check_replica(c1, req->miner_id, req->sector_number);
    parts_ctx x = {c1, NULL};
    size_t n = c1 ? c1->npartitions : 0;
    if (s == CUZK_OK && !(x.v = cuzk_calloc_array(n, sizeof *x.v)))
        s = cuzk_fail(CUZK_ERR_NOMEM, "out of memory");
    if (s == CUZK_OK)
        s = cuzk__fil_par_for(n, threads, part_one, &x);
    if (s != CUZK_OK) {
        cuzk__porep_parts_free(x.v, n);
        cuzk_fil_porep_c1_destroy(c1);
        return cuzk_fail(s == CUZK_ERR_NOMEM || s == CUZK_ERR_UNSUPPORTED ? s
                                                                          : CUZK_ERR_INVALID_ARG,
                         "C1 output: %s", cuzk_last_error());
    }
    *seal_proof_type = c1->shape.seal_proof_type;
    *nparts = (uint32_t)n;
    *out = x.v;
    cuzk_fil_porep_c1_destroy(c1);
    return CUZK_OK;
}
