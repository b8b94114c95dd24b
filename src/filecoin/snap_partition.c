/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Synthetic SnapDeals partitions (src/filecoin/snap_circuit.h) and the built-in circuit
 * "fil-snap:ID". Derivations as in storage-proofs-update src/{vanilla.rs,challenges.rs}
 * (filecoin-circuits.md 3.3; facts only, no code copied).
 */
#include "filecoin/snap_circuit.h"
#include "gadgets/circuit_rand.h"

#include "cuzk/alloc.h"
#include "gadgets/merkle.h"

#include <string.h>

/* Nodes of S, the nodes with new data: every node of sectors up to this many nodes, else
 * SPARSE_SET random nodes in each partition (S does not depend on k: the partitions made from one
 * seed share their trees and comms, as one sector's partitions do). */
#define DENSE_NODES 512
#define SPARSE_SET 16

void cuzk_fil_snap_partition_destroy(cuzk_fil_snap_partition *p)
{
    if (!p)
        return;
    cuzk_free(p->challenges);
    cuzk_free(p->storage);
    cuzk_free(p);
}

void cuzk_fil_snap_public_inputs(cuzk_fr_t out[4], const cuzk_fil_snap_partition *p)
{
    const cuzk_fil_snap_shape *sh = &p->shape;
    unsigned idx = 0;
    while (idx + 1 < CUZK_FIL_SNAP_NUM_HS && sh->hs[idx] != p->w.h)
        idx++;
    cuzk_fr_set_u64(&out[0], p->k | ((uint64_t)1 << idx) << sh->partition_bits);
    out[1] = p->w.comm_r_old;
    out[2] = p->w.comm_d_new;
    out[3] = p->w.comm_r_new;
}

/* Everything random that is not derived: S with its data and old replica values. */
typedef struct {
    size_t ns, n;         /* |S|; |S| + challenges */
    uint64_t *idx;        /* S, then the challenges */
    cuzk_fr_t *d, *r_old; /* values at idx (the challenges' filled in once known) */
    cuzk_fr_t *r_new;
    cuzk_fr_t *sib; /* n paths, scratch */
} snap_nodes;

static void nodes_free(snap_nodes *s)
{
    cuzk_free(s->idx);
    cuzk_free(s->d);
    cuzk_free(s->r_old);
    cuzk_free(s->r_new);
    cuzk_free(s->sib);
}

/* Values of challenge entries: those of S when the challenge is in S, else the fill values
 * (data 0, replica |fill|). */
static void fill_challenge_values(snap_nodes *s, const cuzk_fr_t *fill)
{
    for (size_t i = s->ns; i < s->n; i++) {
        cuzk_fr_set_zero(&s->d[i]);
        s->r_old[i] = *fill;
        s->r_new[i] = *fill;
        for (size_t j = 0; j < s->ns; j++)
            if (s->idx[j] == s->idx[i]) {
                s->d[i] = s->d[j];
                s->r_old[i] = s->r_old[j];
                s->r_new[i] = s->r_new[j];
                break;
            }
    }
}

static cuzk_status synth(cuzk_fil_snap_partition *p, const cuzk__fil_snap_arrays *o, snap_nodes *s,
                         uint64_t seed)
{
    const cuzk_fil_snap_shape *sh = &p->shape;
    cuzk_fil_snap_witness *w = &p->w;
    unsigned cb = sh->challenge_bits, rb = cb - sh->partition_bits;
    size_t nc = sh->challenge_count, lr = cuzk_fil_snap_path_len_r(sh),
           ld = cuzk_fil_snap_path_len_d(sh), len_d = cb, lmax = lr > len_d ? lr : len_d;
    uint64_t nodes = (uint64_t)1 << cb;
    size_t twos[64];
    for (size_t l = 0; l < cb; l++)
        twos[l] = 2;

    s->ns = nodes <= DENSE_NODES ? (size_t)nodes : SPARSE_SET * sh->partitions;
    s->n = s->ns + nc;
    s->idx = cuzk_alloc_array(s->n, sizeof *s->idx);
    s->d = cuzk_alloc_array(s->n, sizeof *s->d);
    s->r_old = cuzk_alloc_array(s->n, sizeof *s->r_old);
    s->r_new = cuzk_alloc_array(s->n, sizeof *s->r_new);
    s->sib = cuzk_alloc_array(s->n, lmax * sizeof *s->sib);
    if (!s->idx || !s->d || !s->r_old || !s->r_new || !s->sib)
        return cuzk_fail(CUZK_ERR_NOMEM, "SnapDeals partition: %zu nodes", s->n);

    uint64_t st = seed ^ 0x736e6170ULL; /* "snap" */
    cuzk_fr_t fill, zero;
    cuzk_fr_set_zero(&zero);
    cuzk__rand_fr_254(&fill, &st);
    cuzk__rand_fr_254(&w->comm_c, &st);
    for (size_t i = 0; i < s->ns; i++) {
        s->idx[i] = s->ns == nodes ? i
                                   : ((uint64_t)(i % sh->partitions) << rb) |
                                         (cuzk__splitmix64(&st) >> (64 - rb));
        cuzk__rand_fr_254(&s->d[i], &st); /* below 2^254: a Sha256Domain value */
        cuzk__rand_fr_254(&s->r_old[i], &st);
    }
    /* Sparse random nodes may repeat: one value per index. */
    for (size_t i = 0; i < s->ns; i++)
        for (size_t j = 0; j < i; j++)
            if (s->idx[j] == s->idx[i]) {
                s->d[i] = s->d[j];
                s->r_old[i] = s->r_old[j];
            }

    /* Old replica and new data, then phi, rho and the new replica on S. */
    CUZK_TRY(cuzk_merkle_sparse_paths(&w->comm_d_new, s->sib, CUZK_MERKLE_SHA256, twos, cb, &zero,
                                      s->ns, s->idx, s->d));
    CUZK_TRY(cuzk_merkle_sparse_paths(&w->root_r_old, s->sib, CUZK_MERKLE_POSEIDON, sh->arities,
                                      sh->depth, &fill, s->ns, s->idx, s->r_old));
    cuzk_fr_t pre[2] = {w->comm_c, w->root_r_old}, phi;
    CUZK_TRY(cuzk_merkle_hash_node(&w->comm_r_old, CUZK_MERKLE_POSEIDON, 2, pre));
    const cuzk_poseidon_constants *c1 = cuzk_poseidon_constants_get(2, CUZK_POSEIDON_CUSTOM_1);
    if (!c1)
        return cuzk_fail(CUZK_ERR_NOMEM, "Poseidon-2 Custom(1): %s", cuzk_last_error());
    pre[0] = w->comm_d_new;
    pre[1] = w->comm_r_old;
    cuzk_poseidon_hash(&phi, c1, pre);
    for (size_t i = 0; i < s->ns; i++) {
        cuzk_fr_t rho;
        cuzk_fil_snap_rho(&rho, sh, &phi, w->h, s->idx[i]);
        cuzk_fr_mul(&rho, &rho, &s->d[i]);
        cuzk_fr_add(&s->r_new[i], &s->r_old[i], &rho);
    }
    CUZK_TRY(cuzk_merkle_sparse_paths(&w->root_r_new, s->sib, CUZK_MERKLE_POSEIDON, sh->arities,
                                      sh->depth, &fill, s->ns, s->idx, s->r_new));
    pre[0] = w->comm_c;
    pre[1] = w->root_r_new;
    CUZK_TRY(cuzk_merkle_hash_node(&w->comm_r_new, CUZK_MERKLE_POSEIDON, 2, pre));

    /* The challenges the circuit will derive, and the three trees' paths to them. */
    cuzk_fil_snap_challenges(p->challenges, sh, &w->comm_r_new, p->k);
    memcpy(&s->idx[s->ns], p->challenges, nc * sizeof *p->challenges);
    fill_challenge_values(s, &fill);
    memcpy(o->leaves_r_old, &s->r_old[s->ns], nc * sizeof *s->r_old);
    memcpy(o->leaves_d, &s->d[s->ns], nc * sizeof *s->d);

    cuzk_fr_t root;
    CUZK_TRY(cuzk_merkle_sparse_paths(&root, s->sib, CUZK_MERKLE_POSEIDON, sh->arities, sh->depth,
                                      &fill, s->n, s->idx, s->r_old));
    memcpy(o->paths_r_old, &s->sib[s->ns * lr], nc * lr * sizeof *s->sib);
    CUZK_TRY(cuzk_merkle_sparse_paths(&root, s->sib, CUZK_MERKLE_POSEIDON, sh->arities, sh->depth,
                                      &fill, s->n, s->idx, s->r_new));
    memcpy(o->paths_r_new, &s->sib[s->ns * lr], nc * lr * sizeof *s->sib);
    CUZK_TRY(cuzk_merkle_sparse_paths(&root, s->sib, CUZK_MERKLE_SHA256, twos, cb, &zero, s->n,
                                      s->idx, s->d));
    for (size_t i = 0; i < nc; i++)
        memcpy(&o->paths_d[i * ld], &s->sib[(s->ns + i) * len_d], ld * sizeof *s->sib);
    /* Every challenge of partition k shares the partition path: the top partition_bits
     * siblings. */
    memcpy(o->ppath, &s->sib[s->ns * len_d + ld + sh->apex_bits],
           sh->partition_bits * sizeof *s->sib);

    /* Apex leaves: the level-ld nodes of partition k; one under a known node comes from that
     * node's path, any other is the root of an all-zero subtree. */
    cuzk_fr_t zero_root = zero;
    for (size_t l = 0; l < ld; l++) {
        cuzk_fr_t two[2] = {zero_root, zero_root};
        CUZK_TRY(cuzk_merkle_hash_node(&zero_root, CUZK_MERKLE_SHA256, 2, two));
    }
    cuzk_fr_t *apex = o->apex;
    for (size_t a = 0; a < sh->apex_leaves; a++) {
        uint64_t node = p->k * sh->apex_leaves + a;
        apex[a] = zero_root;
        for (size_t e = 0; e < s->n; e++) {
            if ((s->idx[e] >> ld) != node)
                continue;
            if (ld > 0)
                CUZK_TRY(cuzk_merkle_root_from_path(&apex[a], CUZK_MERKLE_SHA256, twos, ld,
                                                    &s->d[e], s->idx[e] & ((1ull << ld) - 1),
                                                    &s->sib[e * len_d]));
            else
                apex[a] = s->d[e];
            break;
        }
    }
    return CUZK_OK;
}

cuzk_status cuzk_fil_snap_partition_synthetic(cuzk_fil_snap_partition **out,
                                              uint64_t update_proof_type, uint64_t k, uint64_t seed,
                                              unsigned threads)
{
    (void)threads; /* a few hundred hashes: the caller's thread */
    *out = NULL;
    cuzk_fil_snap_shape shape;
    CUZK_TRY(cuzk_fil_snap_shape_get(&shape, update_proof_type));
    return cuzk__fil_snap_partition_synthetic_shape(out, &shape, k, seed);
}

cuzk_status cuzk__fil_snap_partition_alloc(cuzk_fil_snap_partition **out,
                                           const cuzk_fil_snap_shape *shape, uint64_t k,
                                           cuzk__fil_snap_arrays *o)
{
    *out = NULL;
    if (!shape || !cuzk__fil_snap_shape_valid(shape))
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "SnapDeals partition: bad shape");
    cuzk_fil_snap_partition *p = cuzk_alloc(sizeof *p);
    if (!p)
        return cuzk_fail(CUZK_ERR_NOMEM, "SnapDeals partition");
    memset(p, 0, sizeof *p);
    p->shape = *shape;
    const cuzk_fil_snap_shape *sh = &p->shape;
    p->k = k % sh->partitions;
    p->w.h = sh->h_default;
    size_t nc = sh->challenge_count, lr = cuzk_fil_snap_path_len_r(sh),
           ld = cuzk_fil_snap_path_len_d(sh);
    size_t total = sh->apex_leaves + sh->partition_bits + 2 * nc + nc * (2 * lr + ld);
    p->challenges = cuzk_alloc_array(nc, sizeof *p->challenges);
    p->storage = cuzk_alloc_array(total, sizeof *p->storage);
    if (!p->challenges || !p->storage) {
        cuzk_fil_snap_partition_destroy(p);
        return cuzk_fail(CUZK_ERR_NOMEM, "SnapDeals partition of %zu values", total);
    }
    memset(p->storage, 0, total * sizeof *p->storage);
    o->apex = p->storage;
    o->ppath = o->apex + sh->apex_leaves;
    o->leaves_r_old = o->ppath + sh->partition_bits;
    o->leaves_d = o->leaves_r_old + nc;
    o->paths_r_old = o->leaves_d + nc;
    o->paths_r_new = o->paths_r_old + nc * lr;
    o->paths_d = o->paths_r_new + nc * lr;
    p->w.apex_leaves = o->apex;
    p->w.partition_path = o->ppath;
    p->w.leaves_r_old = o->leaves_r_old;
    p->w.leaves_d_new = o->leaves_d;
    p->w.paths_r_old = o->paths_r_old;
    p->w.paths_r_new = o->paths_r_new;
    p->w.paths_d = o->paths_d;
    *out = p;
    return CUZK_OK;
}

cuzk_status cuzk__fil_snap_partition_synthetic_shape(cuzk_fil_snap_partition **out,
                                                     const cuzk_fil_snap_shape *shape, uint64_t k,
                                                     uint64_t seed)
{
    *out = NULL;
    cuzk_fil_snap_partition *p;
    cuzk__fil_snap_arrays o;
    CUZK_TRY(cuzk__fil_snap_partition_alloc(&p, shape, k, &o));
    snap_nodes nodes = {0};
    cuzk_status s = synth(p, &o, &nodes, seed);
    nodes_free(&nodes);
    if (s != CUZK_OK) {
        cuzk_fil_snap_partition_destroy(p);
        return s;
    }
    *out = p;
    return CUZK_OK;
}

cuzk_status cuzk_circuit_fil_snap(cuzk_cs *cs, const void *params_)
{
    const cuzk_circuit_params *params = params_;
    cuzk_fil_snap_shape shape;
    CUZK_TRY(cuzk_fil_snap_shape_get(&shape, params->arg));
    if (!cuzk_cs_has_values(cs))
        return cuzk_fil_snap_circuit(cs, &shape, 0, NULL);
    if (params->data) {
        /* A partition decoded from vanilla proofs (the engine's SnapDeals jobs). */
        const cuzk_fil_snap_partition *given = params->data;
        if (given->shape.update_proof_type != params->arg)
            return cuzk_fail(CUZK_ERR_INVALID_ARG,
                             "fil-snap:%llu given a partition of RegisteredUpdateProof %llu",
                             (unsigned long long)params->arg,
                             (unsigned long long)given->shape.update_proof_type);
        return cuzk_fil_snap_circuit_mt(cs, &given->shape, given->k, &given->w, params->threads);
    }
    cuzk_fil_snap_partition *p;
    CUZK_TRY(cuzk_fil_snap_partition_synthetic(&p, params->arg, params->seed, params->seed,
                                               params->threads));
    cuzk_status s = cuzk_fil_snap_circuit_mt(cs, &p->shape, p->k, &p->w, params->threads);
    cuzk_fil_snap_partition_destroy(p);
    return s;
}
