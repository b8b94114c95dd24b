/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * A small sector replicated for real (every label of every layer, full trees D, C and R_last)
 * and the C1 of chosen challenges: the test and benchmark source of PoRep vanilla proofs until
 * a sealed sector's C1 is at hand. The graph is the caller's (a cuzk_fil_porep_parents_fn).
 */
#include "filecoin/porep_vanilla.h"

#include "filecoin/porep_graph.h"

#include <string.h>

#include "cuzk/alloc.h"
#include "cuzk/r1cs.h"
#include "gadgets/circuit_rand.h"
#include "gadgets/merkle.h"

#define MAX_NODES (1ULL << 18)

typedef struct {
    const cuzk_fil_porep_c1_shape *sh;
    cuzk_fr_t *data, *labels; /* labels: layer-major, nodes each */
    uint64_t *parents;        /* nodes * 14 */
    cuzk_merkle_tree *d, *c, *r;
} sector;

static void sector_free(sector *s)
{
    cuzk_free(s->data);
    cuzk_free(s->labels);
    cuzk_free(s->parents);
    cuzk_merkle_tree_destroy(s->d);
    cuzk_merkle_tree_destroy(s->c);
    cuzk_merkle_tree_destroy(s->r);
}

/* Random data and tree D over it (comm_d is needed before the labels: replica_id hashes it). */
static cuzk_status data_and_tree_d(sector *s, uint64_t *rng)
{
    const cuzk_fil_porep_c1_shape *sh = s->sh;
    s->data = cuzk_alloc_array(sh->nodes, sizeof *s->data);
    if (!s->data)
        return cuzk_fail(CUZK_ERR_NOMEM, "a synthetic sector of %llu nodes",
                         (unsigned long long)sh->nodes);
    for (uint64_t v = 0; v < sh->nodes; v++)
        cuzk__rand_fr_254(&s->data[v], rng);
    size_t twos[64];
    for (size_t i = 0; i < 64; i++)
        twos[i] = 2;
    return cuzk_merkle_tree_build(&s->d, CUZK_MERKLE_SHA256, twos, sh->depth_d, s->data);
}

/* Every label of every layer from the parents, then trees C and R_last. */
static cuzk_status replicate(sector *s, const cuzk_fr_t *replica_id, const cuzk_fil_porep_shape *ps,
                             cuzk_fil_porep_parents_fn parents_fn, void *ctx)
{
    const cuzk_fil_porep_c1_shape *sh = s->sh;
    uint64_t n = sh->nodes;
    size_t L = sh->layers;
    s->labels = cuzk_alloc_array(n * L, sizeof *s->labels);
    s->parents = cuzk_alloc_array(n * CUZK_FIL_POREP_PARENTS, sizeof *s->parents);
    cuzk_fr_t *col = cuzk_alloc_array(n, sizeof *col);
    cuzk_fr_t *rep = cuzk_alloc_array(n, sizeof *rep);
    cuzk_status st = CUZK_OK;
    if (!s->labels || !s->parents || !col || !rep)
        st = cuzk_fail(CUZK_ERR_NOMEM, "a synthetic sector of %llu nodes", (unsigned long long)n);
    for (uint64_t v = 0; st == CUZK_OK && v < n; v++) {
        uint64_t *p = &s->parents[v * CUZK_FIL_POREP_PARENTS];
        if ((st = parents_fn(ctx, p, ps, v)) != CUZK_OK)
            break;
        for (int j = 0; j < CUZK_FIL_POREP_PARENTS; j++) {
            bool ok = j < CUZK_FIL_POREP_DRG_PARENTS ? (v == 0 ? p[j] == 0 : p[j] < v) : p[j] < n;
            if (!ok)
                st = cuzk_fail(CUZK_ERR_INVALID_ARG, "node %llu's parent %d (%llu) is out of range",
                               (unsigned long long)v, j, (unsigned long long)p[j]);
        }
    }
    cuzk_fr_t par[CUZK_FIL_POREP_PARENTS];
    for (size_t l = 0; st == CUZK_OK && l < L; l++) {
        cuzk_fr_t *cur = &s->labels[l * n], *prev = l ? &s->labels[(l - 1) * n] : NULL;
        size_t np = l ? CUZK_FIL_POREP_PARENTS : CUZK_FIL_POREP_DRG_PARENTS;
        for (uint64_t v = 0; v < n; v++) {
            const uint64_t *p = &s->parents[v * CUZK_FIL_POREP_PARENTS];
            for (size_t j = 0; j < np; j++)
                par[j] = j < CUZK_FIL_POREP_DRG_PARENTS ? cur[p[j]] : prev[p[j]];
            cuzk_fil_porep_create_label(&cur[v], replica_id, (uint32_t)(l + 1), v, par);
        }
    }
    const cuzk_poseidon_constants *k = cuzk_poseidon_constants_get(L, CUZK_POSEIDON_MERKLE_TREE);
    if (st == CUZK_OK && !k)
        st = cuzk_fail(CUZK_ERR_NOMEM, "Poseidon constants of arity %zu", L);
    for (uint64_t v = 0; st == CUZK_OK && v < n; v++) {
        cuzk_fr_t rows[CUZK_FIL_POREP_MAX_LAYERS];
        for (size_t l = 0; l < L; l++)
            rows[l] = s->labels[l * n + v];
        cuzk_poseidon_hash(&col[v], k, rows);
        cuzk_fr_add(&rep[v], &s->labels[(L - 1) * n + v], &s->data[v]);
    }
    if (st == CUZK_OK)
        st = cuzk_merkle_tree_build(&s->c, CUZK_MERKLE_POSEIDON, sh->arities, sh->depth, col);
    if (st == CUZK_OK)
        st = cuzk_merkle_tree_build(&s->r, CUZK_MERKLE_POSEIDON, sh->arities, sh->depth, rep);
    cuzk_free(col);
    cuzk_free(rep);
    return st;
}

static void open_at(cuzk_fil_porep_opening *o, const cuzk_merkle_tree *t, uint64_t index)
{
    o->index = index;
    o->leaf = t->level[0][index];
    o->root = *cuzk_merkle_tree_root(t);
    cuzk_merkle_tree_path(t, index, o->siblings);
}

static void column_at(cuzk_fil_porep_column *c, const sector *s, uint64_t v)
{
    c->index = (uint32_t)v;
    for (size_t l = 0; l < s->sh->layers; l++)
        c->rows[l] = s->labels[l * s->sh->nodes + v];
    open_at(&c->proof, s->c, v);
}

static void prove(cuzk_fil_porep_challenge_proof *cp, const sector *s, uint64_t x)
{
    const uint64_t *p = &s->parents[x * CUZK_FIL_POREP_PARENTS];
    size_t L = s->sh->layers;
    open_at(&cp->comm_d, s->d, x);
    open_at(&cp->comm_r_last, s->r, x);
    column_at(&cp->c_x, s, x);
    for (size_t j = 0; j < CUZK_FIL_POREP_DRG_PARENTS; j++)
        column_at(&cp->drg[j], s, p[j]);
    for (size_t j = 0; j < CUZK_FIL_POREP_EXP_PARENTS; j++)
        column_at(&cp->exp[j], s, p[CUZK_FIL_POREP_DRG_PARENTS + j]);
    for (size_t l = 0; l < L; l++) {
        cuzk_fr_t *par = &cp->label_parents[l * CUZK_FIL_POREP_PARENTS];
        for (size_t j = 0; j < (l ? CUZK_FIL_POREP_PARENTS : CUZK_FIL_POREP_DRG_PARENTS); j++)
            par[j] = j < CUZK_FIL_POREP_DRG_PARENTS
                         ? cp->drg[j].rows[l]
                         : cp->exp[j - CUZK_FIL_POREP_DRG_PARENTS].rows[l - 1];
        cp->label_layer[l] = (uint32_t)(l + 1);
        cp->label_node[l] = x;
    }
    memcpy(cp->enc_parents, &cp->label_parents[(L - 1) * CUZK_FIL_POREP_PARENTS],
           CUZK_FIL_POREP_PARENTS * sizeof *cp->enc_parents);
    cp->enc_layer = (uint32_t)L;
    cp->enc_node = x;
}

/* The PoRep graph as a parents hook (a hasher of its own: the hook runs on one thread). */
typedef struct {
    cuzk_fil_porep_graph g;
    cuzk_fil_porep_hasher h;
} real_graph;

static cuzk_status graph_parents(void *ctx, uint64_t out[CUZK_FIL_POREP_PARENTS],
                                 const cuzk_fil_porep_shape *shape, uint64_t node)
{
    (void)shape;
    real_graph *x = ctx;
    uint32_t p[CUZK_FIL_PARENTS];
    CUZK_TRY(cuzk_fil_porep_parents(&x->g, &x->h, p, node));
    for (int j = 0; j < CUZK_FIL_PARENTS; j++)
        out[j] = p[j];
    return CUZK_OK;
}

static void rand_bytes(uint8_t out[32], uint64_t *rng)
{
    for (int i = 0; i < 4; i++) {
        uint64_t w = cuzk__splitmix64(rng);
        memcpy(out + 8 * i, &w, 8);
    }
    out[31] &= 0x3f; /* Fr-safe, as replica_id is */
}

cuzk_status cuzk_fil_porep_c1_synthetic(cuzk_fil_porep_c1 **out, uint64_t seal_proof_type,
                                        uint64_t seed, size_t npartitions,
                                        const uint64_t *challenges,
                                        cuzk_fil_porep_parents_fn parents, void *ctx)
{
    *out = NULL;
    cuzk_fil_porep_c1_shape sh;
    cuzk_fil_porep_shape ps;
    cuzk_fil_porep_info info;
    CUZK_TRY(cuzk_fil_porep_c1_shape_get(&sh, seal_proof_type));
    CUZK_TRY(cuzk_fil_porep_shape_get(&ps, seal_proof_type));
    CUZK_TRY(cuzk_fil_porep_info_get(&info, seal_proof_type));
    if (sh.nodes > MAX_NODES)
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "a synthetic PoRep sector has at most %llu nodes; %s has %llu",
                         (unsigned long long)MAX_NODES, cuzk_fil_seal_proof_name(seal_proof_type),
                         (unsigned long long)sh.nodes);
    size_t nch = npartitions * sh.challenges;
    for (size_t i = 0; challenges && i < nch; i++)
        if (challenges[i] == 0 || challenges[i] >= sh.nodes)
            return cuzk_fail(CUZK_ERR_INVALID_ARG, "challenge %zu is node %llu, outside 1 .. %llu",
                             i, (unsigned long long)challenges[i],
                             (unsigned long long)sh.nodes - 1);
    uint64_t rng = seed;
    cuzk_fil_porep_c1 *c1;
    CUZK_TRY(cuzk_fil_porep_c1_alloc(&c1, &sh, npartitions));
    rand_bytes(c1->seed, &rng);
    rand_bytes(c1->ticket, &rng);
    sector s = {&sh, NULL, NULL, NULL, NULL, NULL, NULL};
    real_graph rg;
    bool graph = !parents;
    cuzk_status st = data_and_tree_d(&s, &rng);
    if (st == CUZK_OK)
        cuzk_fr_to_bytes_le(c1->comm_d, cuzk_merkle_tree_root(s.d));
    /* replica_id of miner CUZK_FIL_POREP_SYNTH_MINER's sector (seed mod 2^32) */
    uint8_t prover[32];
    cuzk_fil_prover_id(prover, CUZK_FIL_POREP_SYNTH_MINER);
    if (st == CUZK_OK)
        st = cuzk_fil_replica_id(c1->replica_id, prover, seed & 0xffffffffu, c1->ticket, c1->comm_d,
                                 info.porep_id);
    if (graph) {
        memset(&rg, 0, sizeof rg);
        if (st == CUZK_OK)
            st = cuzk_fil_porep_graph_init(&rg.g, sh.nodes, info.porep_id, info.api_minor);
        if (st == CUZK_OK)
            st = cuzk_fil_porep_hasher_init(&rg.h);
        parents = graph_parents;
        ctx = &rg;
    }
    cuzk_fr_t rid;
    if (st == CUZK_OK)
        st = cuzk_fr_from_bytes_le(&rid, c1->replica_id);
    if (st == CUZK_OK)
        st = replicate(&s, &rid, &ps, parents, ctx);
    if (st == CUZK_OK) {
        cuzk_fr_t pre[2] = {*cuzk_merkle_tree_root(s.c), *cuzk_merkle_tree_root(s.r)}, comm_r;
        st = cuzk_merkle_hash_node(&comm_r, CUZK_MERKLE_POSEIDON, 2, pre);
        cuzk_fr_to_bytes_le(c1->comm_r, &comm_r);
    }
    uint64_t derived[64];
    for (size_t k = 0; st == CUZK_OK && k < npartitions; k++) {
        const uint64_t *ch = challenges ? &challenges[k * sh.challenges] : derived;
        if (!challenges && sh.challenges > 64)
            st = cuzk_fail(CUZK_ERR_INVALID_ARG, "%zu challenges a partition", sh.challenges);
        else if (!challenges && info.kind == CUZK_FIL_POREP_INTERACTIVE)
            st = cuzk_fil_porep_challenges_interactive(derived, sh.challenges, sh.nodes,
                                                       c1->replica_id, c1->seed, (unsigned)k);
        else if (!challenges && info.kind == CUZK_FIL_POREP_NI)
            st = cuzk_fil_porep_challenges_ni(derived, sh.challenges, sh.nodes, c1->replica_id,
                                              c1->comm_r, (unsigned)k);
        else if (!challenges) {
            size_t n = 0;
            st = cuzk_fil_porep_challenges(derived, 64, &n, seal_proof_type, c1->replica_id,
                                           c1->comm_r, c1->seed, (unsigned)k);
        }
        for (size_t i = 0; st == CUZK_OK && i < sh.challenges; i++)
            prove(&c1->proofs[k * sh.challenges + i], &s, ch[i]);
    }
    if (st == CUZK_OK)
        st = cuzk_fil_porep_c1_check(c1);
    if (graph) {
        cuzk_fil_porep_hasher_clear(&rg.h);
        cuzk_fil_porep_graph_clear(&rg.g);
    }
    sector_free(&s);
    if (st != CUZK_OK) {
        cuzk_fil_porep_c1_destroy(c1);
        return st;
    }
    *out = c1;
    return CUZK_OK;
}
