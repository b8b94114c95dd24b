/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Synthetic PoRep partitions (src/filecoin/porep_circuit.h) and the built-in circuit
 * "fil-porep:ID". Labels, encoding and commitments as storage-proofs-porep src/stacked/vanilla
 * derives them (filecoin-circuits.md 3.5; facts only, no code copied); parent indices from a
 * hook until the real graph is wired in.
 */
#include "filecoin/porep_circuit.h"
#include "gadgets/circuit_rand.h"

#include "cuzk/alloc.h"
#include "gadgets/merkle.h"

#include <string.h>

#define P CUZK_FIL_POREP_PARENTS

void cuzk_fil_porep_partition_destroy(cuzk_fil_porep_partition *p)
{
    if (!p)
        return;
    cuzk_free(p->indices);
    cuzk_free(p->storage);
    cuzk_free(p);
}

cuzk_status cuzk__fil_porep_parents_synthetic(void *ctx, uint64_t parents[P],
                                              const cuzk_fil_porep_shape *shape, uint64_t node)
{
    uint64_t st = *(const uint64_t *)ctx ^ (node * 0x9e3779b97f4a7c15ULL) ^ 0x70617265ULL;
    for (size_t j = 0; j < P; j++) {
        uint64_t r = cuzk__splitmix64(&st);
        if (j < CUZK_FIL_POREP_DRG_PARENTS)
            parents[j] = node == 0 ? 0 : r % node;
        else
            parents[j] = r % shape->nodes;
    }
    return CUZK_OK;
}

/* Every node the partition touches: the challenged ones and their parents, each once. */
typedef struct {
    size_t n;
    uint64_t *idx;
    long *chal;      /* challenge number, or -1 */
    cuzk_fr_t *cols; /* n * layers */
    cuzk_fr_t *vals; /* n: leaf values of the tree being built */
    cuzk_fr_t *sib;  /* n paths, scratch */
} node_set;

static void set_free(node_set *s)
{
    cuzk_free(s->idx);
    cuzk_free(s->chal);
    cuzk_free(s->cols);
    cuzk_free(s->vals);
    cuzk_free(s->sib);
}

static size_t find(const node_set *s, uint64_t node)
{
    for (size_t e = 0; e < s->n; e++)
        if (s->idx[e] == node)
            return e;
    return s->n;
}

static size_t add(node_set *s, uint64_t node)
{
    size_t e = find(s, node);
    if (e == s->n) {
        s->idx[e] = node;
        s->chal[e] = -1;
        s->n++;
    }
    return e;
}

static cuzk_status synth(cuzk_fil_porep_partition *p, node_set *s, uint64_t seed,
                         cuzk_fil_porep_parents_fn parents_fn, void *ctx)
{
    const cuzk_fil_porep_shape *sh = &p->shape;
    cuzk_fil_porep_witness *w = &p->w;
    size_t nc = sh->challenges, L = sh->layers, lp = cuzk_fil_porep_path_len(sh);
    size_t nb = sh->node_bits, cap = nc * (1 + P), lmax = lp > nb ? lp : nb;
    uint64_t *chal = p->indices, *par = p->indices + nc;
    s->idx = cuzk_alloc_array(cap, sizeof *s->idx);
    s->chal = cuzk_alloc_array(cap, sizeof *s->chal);
    s->cols = cuzk_alloc_array(cap * L, sizeof *s->cols);
    s->vals = cuzk_alloc_array(cap, sizeof *s->vals);
    s->sib = cuzk_alloc_array(cap, lmax * sizeof *s->sib);
    if (!s->idx || !s->chal || !s->cols || !s->vals || !s->sib)
        return cuzk_fail(CUZK_ERR_NOMEM, "PoRep partition: %zu nodes", cap);
    if (sh->nodes - 1 < nc)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "PoRep partition: %zu challenges of %llu nodes", nc,
                         (unsigned long long)sh->nodes);

    uint64_t st = seed ^ 0x706f726570ULL ^ (p->k * 0xbf58476d1ce4e5b9ULL); /* "porep" */
    cuzk__rand_fr_254(&w->replica_id, &st);
    /* Distinct challenged nodes in [1, nodes) (node 0 is never challenged, 3.4). */
    for (size_t i = 0; i < nc; i++) {
        bool again;
        do {
            chal[i] = 1 + cuzk__splitmix64(&st) % (sh->nodes - 1);
            again = false;
            for (size_t j = 0; j < i; j++)
                again |= chal[j] == chal[i];
        } while (again);
        s->idx[s->n] = chal[i];
        s->chal[s->n++] = (long)i;
    }
    uint64_t pseed = seed;
    for (size_t i = 0; i < nc; i++) {
        CUZK_TRY(parents_fn ? parents_fn(ctx, &par[i * P], sh, chal[i])
                            : cuzk__fil_porep_parents_synthetic(&pseed, &par[i * P], sh, chal[i]));
        for (size_t j = 0; j < P; j++) {
            uint64_t q = par[i * P + j];
            if (q >= sh->nodes || (j < CUZK_FIL_POREP_DRG_PARENTS && q >= chal[i]))
                return cuzk_fail(CUZK_ERR_INVALID_ARG,
                                 "PoRep partition: node %llu parent %zu = %llu",
                                 (unsigned long long)chal[i], j, (unsigned long long)q);
            add(s, q);
        }
    }
    /* Random columns for the parents nobody labels here. */
    for (size_t e = 0; e < s->n; e++)
        if (s->chal[e] < 0)
            for (size_t l = 0; l < L; l++)
                cuzk__rand_fr_254(&s->cols[e * L + l], &st);

    /* Labels layer by layer; within a layer by increasing node, so that a challenged DRG parent
     * (below its child) already has this layer's label and an expander parent the last one. */
    for (size_t layer = 1; layer <= L; layer++) {
        uint64_t last = 0;
        for (size_t round = 0; round < nc; round++) {
            size_t e = s->n, best = s->n;
            for (e = 0; e < nc; e++) /* the challenged nodes are the set's first nc */
                if (s->idx[e] > last && (best == s->n || s->idx[e] < s->idx[best]))
                    best = e;
            e = best;
            last = s->idx[e];
            size_t i = (size_t)s->chal[e];
            cuzk_fr_t pv[P];
            for (size_t j = 0; j < P; j++) {
                size_t q = find(s, par[i * P + j]);
                size_t row = j < CUZK_FIL_POREP_DRG_PARENTS ? layer - 1 : layer - 2;
                if (j >= CUZK_FIL_POREP_DRG_PARENTS && layer == 1)
                    cuzk_fr_set_zero(&pv[j]);
                else
                    pv[j] = s->cols[q * L + row];
            }
            cuzk_fil_porep_create_label(&s->cols[e * L + layer - 1], &w->replica_id,
                                        (uint32_t)layer, s->idx[e], pv);
        }
    }

    /* Data, then the three trees. */
    cuzk_fr_t fill, zero;
    cuzk_fr_set_zero(&zero);
    cuzk_fr_t *data = (cuzk_fr_t *)w->data_leaves;
    for (size_t i = 0; i < nc; i++) {
        cuzk__rand_fr_254(&data[i], &st); /* below 2^254: a Sha256Domain value */
        memcpy(&p->labels[i * L], &s->cols[i * L], L * sizeof *p->labels);
    }
    size_t twos[64];
    for (size_t l = 0; l < nb; l++)
        twos[l] = 2;
    CUZK_TRY(cuzk_merkle_sparse_paths(&w->comm_d, s->sib, CUZK_MERKLE_SHA256, twos, nb, &zero, nc,
                                      s->idx, data));
    memcpy((cuzk_fr_t *)w->paths_d, s->sib, nc * nb * sizeof *s->sib);

    /* Tree C: column hashes (Poseidon arity L) of every touched node. */
    const cuzk_poseidon_constants *colh = cuzk_poseidon_constants_get(L, CUZK_POSEIDON_MERKLE_TREE);
    if (!colh)
        return cuzk_fail(CUZK_ERR_NOMEM, "Poseidon-%zu constants: %s", L, cuzk_last_error());
    for (size_t e = 0; e < s->n; e++)
        cuzk_poseidon_hash(&s->vals[e], colh, &s->cols[e * L]);
    cuzk__rand_fr_254(&fill, &st);
    CUZK_TRY(cuzk_merkle_sparse_paths(&w->comm_c, s->sib, CUZK_MERKLE_POSEIDON, sh->arities,
                                      sh->depth, &fill, s->n, s->idx, s->vals));
    cuzk_fr_t *rows = (cuzk_fr_t *)w->parent_rows, *ppaths = (cuzk_fr_t *)w->parent_paths;
    for (size_t i = 0; i < nc; i++) {
        memcpy((cuzk_fr_t *)&w->paths_c[i * lp], &s->sib[i * lp], lp * sizeof *s->sib);
        for (size_t j = 0; j < P; j++) {
            size_t q = find(s, par[i * P + j]);
            memcpy(&rows[(i * P + j) * L], &s->cols[q * L], L * sizeof *rows);
            memcpy(&ppaths[(i * P + j) * lp], &s->sib[q * lp], lp * sizeof *ppaths);
        }
    }

    /* Tree R_last: replica node = last label + data at the challenged nodes. */
    for (size_t i = 0; i < nc; i++)
        cuzk_fr_add(&s->vals[i], &s->cols[i * L + L - 1], &data[i]);
    cuzk__rand_fr_254(&fill, &st);
    CUZK_TRY(cuzk_merkle_sparse_paths(&w->comm_r_last, s->sib, CUZK_MERKLE_POSEIDON, sh->arities,
                                      sh->depth, &fill, nc, s->idx, s->vals));
    memcpy((cuzk_fr_t *)w->paths_r, s->sib, nc * lp * sizeof *s->sib);
    cuzk_fr_t pre[2] = {w->comm_c, w->comm_r_last};
    return cuzk_merkle_hash_node(&w->comm_r, CUZK_MERKLE_POSEIDON, 2, pre);
}

cuzk_status cuzk__fil_porep_partition_alloc(cuzk_fil_porep_partition **out,
                                            const cuzk_fil_porep_shape *shape, uint64_t k)
{
    *out = NULL;
    if (!shape || !cuzk__fil_porep_shape_valid(shape))
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "PoRep partition: bad shape");
    cuzk_fil_porep_partition *p = cuzk_alloc(sizeof *p);
    if (!p)
        return cuzk_fail(CUZK_ERR_NOMEM, "PoRep partition");
    memset(p, 0, sizeof *p);
    p->shape = *shape;
    const cuzk_fil_porep_shape *sh = &p->shape;
    p->k = k % (sh->partitions ? sh->partitions : 1);
    size_t nc = sh->challenges, L = sh->layers, lp = cuzk_fil_porep_path_len(sh);
    size_t total = nc * (1 + sh->node_bits + P * L + P * lp + 2 * lp + L);
    p->indices = cuzk_alloc_array(nc * (1 + P), sizeof *p->indices);
    p->storage = cuzk_alloc_array(total, sizeof *p->storage);
    if (!p->indices || !p->storage) {
        cuzk_fil_porep_partition_destroy(p);
        return cuzk_fail(CUZK_ERR_NOMEM, "PoRep partition of %zu values", total);
    }
    memset(p->storage, 0, total * sizeof *p->storage);
    cuzk_fil_porep_witness *w = &p->w;
    w->challenges = p->indices;
    w->parents = p->indices + nc;
    cuzk_fr_t *o = p->storage;
    w->data_leaves = o;
    o += nc;
    w->paths_d = o;
    o += nc * sh->node_bits;
    w->parent_rows = o;
    o += nc * P * L;
    w->parent_paths = o;
    o += nc * P * lp;
    w->paths_c = o;
    o += nc * lp;
    w->paths_r = o;
    o += nc * lp;
    p->labels = o;
    *out = p;
    return CUZK_OK;
}

cuzk_status cuzk__fil_porep_partition_synthetic_shape(cuzk_fil_porep_partition **out,
                                                      const cuzk_fil_porep_shape *shape, uint64_t k,
                                                      uint64_t seed,
                                                      cuzk_fil_porep_parents_fn parents, void *ctx)
{
    *out = NULL;
    cuzk_fil_porep_partition *p;
    CUZK_TRY(cuzk__fil_porep_partition_alloc(&p, shape, k));
    node_set s = {0};
    cuzk_status st = synth(p, &s, seed, parents, ctx);
    set_free(&s);
    if (st != CUZK_OK) {
        cuzk_fil_porep_partition_destroy(p);
        return st;
    }
    *out = p;
    return CUZK_OK;
}

cuzk_status cuzk_fil_porep_partition_synthetic(cuzk_fil_porep_partition **out,
                                               uint64_t seal_proof_type, uint64_t k, uint64_t seed)
{
    *out = NULL;
    cuzk_fil_porep_shape shape;
    CUZK_TRY(cuzk_fil_porep_shape_get(&shape, seal_proof_type));
    return cuzk__fil_porep_partition_synthetic_shape(out, &shape, k, seed, NULL, NULL);
}

cuzk_status cuzk_circuit_fil_porep(cuzk_cs *cs, const void *params_)
{
    const cuzk_circuit_params *params = params_;
    cuzk_fil_porep_shape shape;
    CUZK_TRY(cuzk_fil_porep_shape_get(&shape, params->arg));
    if (!cuzk_cs_has_values(cs))
        return cuzk_fil_porep_circuit(cs, &shape, NULL);
    if (params->data) {
        /* A partition of a C1 output (the engine's PoRep jobs). */
        const cuzk_fil_porep_partition *given = params->data;
        if (given->shape.sector_size != shape.sector_size)
            return cuzk_fail(CUZK_ERR_INVALID_ARG,
                             "fil-porep:%llu given a partition of RegisteredSealProof %llu",
                             (unsigned long long)params->arg,
                             (unsigned long long)given->shape.seal_proof_type);
        return cuzk_fil_porep_circuit_mt(cs, &given->shape, &given->w, params->threads);
    }
    cuzk_fil_porep_partition *p;
    CUZK_TRY(cuzk__fil_porep_partition_synthetic_shape(&p, &shape, params->seed, params->seed, NULL,
                                                       NULL));
    cuzk_status s = cuzk_fil_porep_circuit_mt(cs, &p->shape, &p->w, params->threads);
    cuzk_fil_porep_partition_destroy(p);
    return s;
}
