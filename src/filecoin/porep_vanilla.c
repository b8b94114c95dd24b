/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* PoRep C1 output: shapes, storage, create_label natively, and the checks every reader runs. */
#include "filecoin/porep_vanilla.h"

#include <openssl/evp.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "cuzk/alloc.h"
#include "cuzk/r1cs.h"
#include "gadgets/merkle.h"

static const char *const SIZE_NAMES[5] = {"2KiB", "8MiB", "512MiB", "32GiB", "64GiB"};
static const char *const API_SUFFIX[4] = {"V1", "V1_1", "V1_1_Feat_SyntheticPoRep",
                                          "V1_2_Feat_NonInteractivePoRep"};
static char seal_names[20][48];
static pthread_once_t names_once = PTHREAD_ONCE_INIT;

static void names_init(void)
{
    for (unsigned i = 0; i < 20; i++)
        snprintf(seal_names[i], sizeof seal_names[i], "StackedDrg%s%s", SIZE_NAMES[i % 5],
                 API_SUFFIX[i / 5]);
}

const char *cuzk_fil_seal_proof_name(uint64_t seal_proof_type)
{
    if (seal_proof_type >= 20)
        return NULL;
    pthread_once(&names_once, names_init);
    return seal_names[seal_proof_type];
}

cuzk_status cuzk_fil_seal_proof_from_name(uint64_t *out, const char *name)
{
    pthread_once(&names_once, names_init);
    for (uint64_t i = 0; i < 20; i++) {
        if (strcmp(name, seal_names[i]) == 0) {
            *out = i;
            return CUZK_OK;
        }
    }
    return cuzk_fail(CUZK_ERR_UNSUPPORTED, "unknown RegisteredSealProof \"%.64s\"", name);
}

cuzk_status cuzk_fil_porep_c1_shape_get(cuzk_fil_porep_c1_shape *out, uint64_t seal_proof_type)
{
    memset(out, 0, sizeof *out);
    cuzk_fil_porep_shape ps;
    CUZK_TRY(cuzk_fil_porep_shape_get(&ps, seal_proof_type));
    out->seal_proof_type = seal_proof_type;
    out->sector_size = ps.sector_size;
    out->nodes = ps.nodes;
    out->layers = ps.layers;
    out->challenges = ps.challenges;
    out->partitions = ps.partitions;
    out->depth_d = ps.node_bits;
    out->depth = ps.depth;
    memcpy(out->arities, ps.arities, sizeof out->arities);
    /* MerkleProof variants: Sub at 32 GiB (base + one sub level), Top at 64 GiB. */
    out->variant = ps.sector_size == (64ULL << 30) ? 2 : ps.sector_size == (32ULL << 30) ? 1 : 0;
    out->path_len = cuzk_fil_porep_path_len(&ps);
    return CUZK_OK;
}

/* Field elements per challenge: tree D and R_last siblings, 15 columns with their paths, the
 * labeling and encoding parents. */
static size_t per_challenge(const cuzk_fil_porep_c1_shape *sh)
{
    size_t col = sh->layers + sh->path_len;
    return sh->depth_d + sh->path_len + (1 + CUZK_FIL_POREP_PARENTS) * col +
           (sh->layers + 1) * CUZK_FIL_POREP_PARENTS;
}

static void column_at(cuzk_fil_porep_column *c, cuzk_fr_t **p, const cuzk_fil_porep_c1_shape *sh)
{
    c->rows = *p;
    *p += sh->layers;
    c->proof.siblings = *p;
    *p += sh->path_len;
}

cuzk_status cuzk_fil_porep_c1_alloc(cuzk_fil_porep_c1 **out, const cuzk_fil_porep_c1_shape *shape,
                                    size_t npartitions)
{
    *out = NULL;
    size_t n = npartitions * shape->challenges;
    if (npartitions == 0 || n / npartitions != shape->challenges)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "PoRep C1: %zu partitions", npartitions);
    cuzk_fil_porep_c1 *c1 = cuzk_calloc_array(1, sizeof *c1);
    if (!c1)
        return cuzk_fail(CUZK_ERR_NOMEM, "PoRep C1");
    c1->shape = *shape;
    c1->npartitions = npartitions;
    size_t per = per_challenge(shape);
    c1->proofs = cuzk_calloc_array(n, sizeof *c1->proofs);
    c1->storage = n * per / per == n ? cuzk_calloc_array(n * per, sizeof *c1->storage) : NULL;
    if (!c1->proofs || !c1->storage) {
        cuzk_fil_porep_c1_destroy(c1);
        return cuzk_fail(CUZK_ERR_NOMEM, "PoRep C1 of %zu challenges", n);
    }
    cuzk_fr_t *p = c1->storage;
    for (size_t i = 0; i < n; i++) {
        cuzk_fil_porep_challenge_proof *cp = &c1->proofs[i];
        cp->comm_d.siblings = p;
        p += shape->depth_d;
        cp->comm_r_last.siblings = p;
        p += shape->path_len;
        column_at(&cp->c_x, &p, shape);
        for (size_t j = 0; j < CUZK_FIL_POREP_DRG_PARENTS; j++)
            column_at(&cp->drg[j], &p, shape);
        for (size_t j = 0; j < CUZK_FIL_POREP_EXP_PARENTS; j++)
            column_at(&cp->exp[j], &p, shape);
        cp->label_parents = p;
        p += shape->layers * CUZK_FIL_POREP_PARENTS;
        cp->enc_parents = p;
        p += CUZK_FIL_POREP_PARENTS;
    }
    *out = c1;
    return CUZK_OK;
}

void cuzk_fil_porep_c1_destroy(cuzk_fil_porep_c1 *c1)
{
    if (!c1)
        return;
    cuzk_free(c1->proofs);
    cuzk_free(c1->storage);
    cuzk_free(c1);
}

/* ---- checks -------------------------------------------------------------------------------- */

typedef struct {
    const cuzk_fil_porep_c1 *c1;
    size_t part, chal;
    cuzk_fr_t replica_id;
} where;

static cuzk_status bad(const where *w, const char *fmt, const char *a)
{
    return cuzk_fail(CUZK_ERR_FORMAT, "PoRep C1 partition %zu, challenge %zu: %s%s", w->part,
                     w->chal, fmt, a ? a : "");
}

static cuzk_status opening(const where *w, const cuzk_fil_porep_opening *o, cuzk_merkle_hash h,
                           const size_t *arities, size_t depth, const char *tree)
{
    cuzk_fr_t root;
    CUZK_TRY(cuzk_merkle_root_from_path(&root, h, arities, depth, &o->leaf, o->index, o->siblings));
    if (!cuzk_fr_eq(&root, &o->root))
        return bad(w, "the path does not hash to its root in ", tree);
    return CUZK_OK;
}

/* A column: its leaf is the hash of its rows, the opening is in tree C (root = comm_c). */
static cuzk_status column(const where *w, const cuzk_fil_porep_column *c, const char *name)
{
    const cuzk_fil_porep_c1_shape *sh = &w->c1->shape;
    const cuzk_poseidon_constants *k =
        cuzk_poseidon_constants_get(sh->layers, CUZK_POSEIDON_MERKLE_TREE);
    if (!k)
        return cuzk_fail(CUZK_ERR_NOMEM, "Poseidon constants of arity %zu", sh->layers);
    if (c->index != c->proof.index)
        return bad(w, "a column's index is not its opening's: ", name);
    cuzk_fr_t h;
    cuzk_poseidon_hash(&h, k, c->rows);
    if (!cuzk_fr_eq(&h, &c->proof.leaf))
        return bad(w, "a column's leaf is not the hash of its rows: ", name);
    if (!cuzk_fr_eq(&c->proof.root, &w->c1->comm_c))
        return bad(w, "tree C root differs from the first challenge's: ", name);
    return opening(w, &c->proof, CUZK_MERKLE_POSEIDON, sh->arities, sh->depth, name);
}

static cuzk_status labels(const where *w, const cuzk_fil_porep_challenge_proof *cp, uint64_t x)
{
    const cuzk_fil_porep_c1 *c1 = w->c1;
    size_t L = c1->shape.layers;
    char what[64];
    for (size_t l = 0; l < L; l++) {
        snprintf(what, sizeof what, "%zu", l + 1);
        if (cp->label_layer[l] != l + 1 || cp->label_node[l] != x)
            return bad(w, "a labeling proof names another layer or node: layer ", what);
        const cuzk_fr_t *par = &cp->label_parents[l * CUZK_FIL_POREP_PARENTS];
        size_t np = l == 0 ? CUZK_FIL_POREP_DRG_PARENTS : CUZK_FIL_POREP_PARENTS;
        for (size_t j = 0; j < np; j++) {
            const cuzk_fr_t *want = j < CUZK_FIL_POREP_DRG_PARENTS
                                        ? &cp->drg[j].rows[l]
                                        : &cp->exp[j - CUZK_FIL_POREP_DRG_PARENTS].rows[l - 1];
            if (!cuzk_fr_eq(&par[j], want))
                return bad(w, "a labeling proof's parent is not the parent column's row: layer ",
                           what);
        }
        cuzk_fr_t label;
        cuzk_fil_porep_create_label(&label, &w->replica_id, (uint32_t)(l + 1), x, par);
        if (!cuzk_fr_eq(&label, &cp->c_x.rows[l]))
            return bad(w, "create_label of the parents is not the challenged column's row: layer ",
                       what);
    }
    size_t np = L == 1 ? CUZK_FIL_POREP_DRG_PARENTS : CUZK_FIL_POREP_PARENTS;
    if (cp->enc_layer != L || cp->enc_node != x ||
        memcmp(cp->enc_parents, &cp->label_parents[(L - 1) * CUZK_FIL_POREP_PARENTS],
               np * sizeof *cp->enc_parents) != 0)
        return bad(w, "the encoding proof is not the last layer's labeling", NULL);
    cuzk_fr_t replica;
    cuzk_fr_add(&replica, &cp->c_x.rows[L - 1], &cp->comm_d.leaf);
    if (!cuzk_fr_eq(&replica, &cp->comm_r_last.leaf))
        return bad(w, "the replica leaf is not the last label plus the data leaf", NULL);
    return CUZK_OK;
}

static cuzk_status challenge(const where *w, const cuzk_fil_porep_challenge_proof *cp,
                             const cuzk_fr_t *comm_d)
{
    const cuzk_fil_porep_c1_shape *sh = &w->c1->shape;
    uint64_t x = cp->comm_d.index;
    if (x == 0 || x >= sh->nodes)
        return bad(w, "the challenge is node 0 or outside the sector", NULL);
    if (cp->comm_r_last.index != x || cp->c_x.index != x)
        return bad(w, "tree D, tree R_last and c_x open different nodes", NULL);
    if (!cuzk_fr_eq(&cp->comm_d.root, comm_d))
        return bad(w, "tree D root is not comm_d", NULL);
    size_t twos[64];
    for (size_t i = 0; i < sh->depth_d; i++)
        twos[i] = 2;
    CUZK_TRY(opening(w, &cp->comm_d, CUZK_MERKLE_SHA256, twos, sh->depth_d, "tree D"));
    if (!cuzk_fr_eq(&cp->comm_r_last.root, &w->c1->comm_r_last))
        return bad(w, "tree R_last root differs from the first challenge's", NULL);
    CUZK_TRY(
        opening(w, &cp->comm_r_last, CUZK_MERKLE_POSEIDON, sh->arities, sh->depth, "tree R_last"));
    CUZK_TRY(column(w, &cp->c_x, "c_x"));
    char name[32];
    for (size_t j = 0; j < CUZK_FIL_POREP_DRG_PARENTS; j++) {
        snprintf(name, sizeof name, "DRG parent %zu", j);
        /* x >= 1 here, and every node's DRG parents lie below it (node 1's are all 0). */
        if (cp->drg[j].index >= x)
            return bad(w, "a DRG parent is not below the challenge: ", name);
        CUZK_TRY(column(w, &cp->drg[j], name));
    }
    for (size_t j = 0; j < CUZK_FIL_POREP_EXP_PARENTS; j++) {
        snprintf(name, sizeof name, "expander parent %zu", j);
        if (cp->exp[j].index >= sh->nodes)
            return bad(w, "an expander parent is outside the sector: ", name);
        CUZK_TRY(column(w, &cp->exp[j], name));
    }
    return labels(w, cp, x);
}

static cuzk_status public_fr(cuzk_fr_t *out, const uint8_t b[32], const char *name)
{
    if (cuzk_fr_from_bytes_le(out, b) != CUZK_OK)
        return cuzk_fail(CUZK_ERR_NOT_CANONICAL, "PoRep C1: %s is not a canonical field element",
                         name);
    return CUZK_OK;
}

cuzk_status cuzk_fil_porep_c1_check(cuzk_fil_porep_c1 *c1)
{
    cuzk_fr_t comm_r, comm_d, rid, h, pre[2];
    CUZK_TRY(public_fr(&comm_r, c1->comm_r, "comm_r"));
    CUZK_TRY(public_fr(&comm_d, c1->comm_d, "comm_d"));
    CUZK_TRY(public_fr(&rid, c1->replica_id, "replica_id"));
    size_t n = c1->npartitions * c1->shape.challenges;
    if (n == 0)
        return cuzk_fail(CUZK_ERR_FORMAT, "PoRep C1 without proofs");
    c1->comm_c = c1->proofs[0].c_x.proof.root;
    c1->comm_r_last = c1->proofs[0].comm_r_last.root;
    pre[0] = c1->comm_c;
    pre[1] = c1->comm_r_last;
    CUZK_TRY(cuzk_merkle_hash_node(&h, CUZK_MERKLE_POSEIDON, 2, pre));
    if (!cuzk_fr_eq(&h, &comm_r))
        return cuzk_fail(CUZK_ERR_FORMAT,
                         "PoRep C1: Poseidon(comm_c, comm_r_last) of the openings is not comm_r");
    for (size_t i = 0; i < n; i++) {
        where w = {c1, i / c1->shape.challenges, i % c1->shape.challenges, rid};
        CUZK_TRY(challenge(&w, &c1->proofs[i], &comm_d));
    }
    return CUZK_OK;
}
