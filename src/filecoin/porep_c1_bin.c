/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * PoRep C1 in bincode, the storage-proofs level "raw C1" (filecoin-circuits.md 7.2): u64
 * partitions; per partition u64 n and n stacked Proofs; comm_r, comm_d, replica_id, seed,
 * ticket; nothing after. A stacked Proof is comm_d_proofs, comm_r_last_proof,
 * replica_column_proofs (c_x, u64 n + DRG ColumnProofs, u64 n + expander ColumnProofs), u64 n +
 * LabelingProofs, encoding_proof.
 */
#include "filecoin/porep_vanilla.h"

#include <stdio.h>
#include <string.h>

#include "cuzk/alloc.h"
#include "filecoin/bincode.h"
#include "cuzk/r1cs.h"

typedef cuzk__bin_reader reader;

static void set_where(reader *r, size_t part, size_t chal)
{
    snprintf(r->where, sizeof r->where, "PoRep C1 partition %zu, challenge %zu", part, chal);
}

static size_t twos[64] = {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
                          2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
                          2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2};

static cuzk_status rd_column(reader *r, const cuzk_fil_porep_c1_shape *sh, cuzk_fil_porep_column *c,
                             const char *name)
{
    char what[64];
    snprintf(what, sizeof what, "the %s column's index", name);
    CUZK_TRY(cuzk__bin_u32(r, &c->index, what));
    snprintf(what, sizeof what, "rows of the %s column", name);
    CUZK_TRY(cuzk__bin_len(r, sh->layers, what));
    snprintf(what, sizeof what, "a row of the %s column", name);
    for (size_t l = 0; l < sh->layers; l++)
        CUZK_TRY(cuzk__bin_fr(r, &c->rows[l], NULL, what));
    snprintf(what, sizeof what, "tree C (%s)", name);
    return cuzk__bin_merkle(r, sh->arities, sh->depth, sh->variant, c->proof.siblings,
                            &c->proof.root, &c->proof.leaf, &c->proof.index, what);
}

/* A LabelingProof or EncodingProof with |np| parents. */
static cuzk_status rd_labeling(reader *r, cuzk_fr_t *parents, size_t np, uint32_t *layer,
                               uint64_t *node, const char *what)
{
    char w[64];
    snprintf(w, sizeof w, "parents of a %s", what);
    CUZK_TRY(cuzk__bin_len(r, np, w));
    for (size_t j = 0; j < np; j++)
        CUZK_TRY(cuzk__bin_fr(r, &parents[j], NULL, w));
    snprintf(w, sizeof w, "the layer of a %s", what);
    CUZK_TRY(cuzk__bin_u32(r, layer, w));
    snprintf(w, sizeof w, "the node of a %s", what);
    return cuzk__bin_u64(r, node, w);
}

static cuzk_status rd_proof(reader *r, const cuzk_fil_porep_c1_shape *sh,
                            cuzk_fil_porep_challenge_proof *cp)
{
    CUZK_TRY(cuzk__bin_merkle(r, twos, sh->depth_d, 0, cp->comm_d.siblings, &cp->comm_d.root,
                              &cp->comm_d.leaf, &cp->comm_d.index, "tree D"));
    CUZK_TRY(cuzk__bin_merkle(r, sh->arities, sh->depth, sh->variant, cp->comm_r_last.siblings,
                              &cp->comm_r_last.root, &cp->comm_r_last.leaf, &cp->comm_r_last.index,
                              "tree R_last"));
    CUZK_TRY(rd_column(r, sh, &cp->c_x, "c_x"));
    CUZK_TRY(cuzk__bin_len(r, CUZK_FIL_POREP_DRG_PARENTS, "DRG parent columns"));
    for (size_t j = 0; j < CUZK_FIL_POREP_DRG_PARENTS; j++)
        CUZK_TRY(rd_column(r, sh, &cp->drg[j], "DRG parent"));
    CUZK_TRY(cuzk__bin_len(r, CUZK_FIL_POREP_EXP_PARENTS, "expander parent columns"));
    for (size_t j = 0; j < CUZK_FIL_POREP_EXP_PARENTS; j++)
        CUZK_TRY(rd_column(r, sh, &cp->exp[j], "expander parent"));
    CUZK_TRY(cuzk__bin_len(r, sh->layers, "labeling proofs"));
    for (size_t l = 0; l < sh->layers; l++)
        CUZK_TRY(rd_labeling(r, &cp->label_parents[l * CUZK_FIL_POREP_PARENTS],
                             l ? CUZK_FIL_POREP_PARENTS : CUZK_FIL_POREP_DRG_PARENTS,
                             &cp->label_layer[l], &cp->label_node[l], "labeling proof"));
    return rd_labeling(r, cp->enc_parents,
                       sh->layers > 1 ? CUZK_FIL_POREP_PARENTS : CUZK_FIL_POREP_DRG_PARENTS,
                       &cp->enc_layer, &cp->enc_node, "encoding proof");
}

static cuzk_status rd_raw(uint8_t out[32], reader *r, const char *what)
{
    if (r->left < 32)
        return cuzk__bin_fail(r, CUZK_ERR_FORMAT, "truncated in %s", what);
    memcpy(out, r->p, 32);
    r->p += 32;
    r->left -= 32;
    return CUZK_OK;
}

static cuzk_status decode(reader *r, const cuzk_fil_porep_c1_shape *sh, cuzk_fil_porep_c1 *c1)
{
    for (size_t k = 0; k < c1->npartitions; k++) {
        snprintf(r->where, sizeof r->where, "PoRep C1 partition %zu", k);
        CUZK_TRY(cuzk__bin_len(r, sh->challenges, "challenge proofs"));
        for (size_t i = 0; i < sh->challenges; i++) {
            set_where(r, k, i);
            CUZK_TRY(rd_proof(r, sh, &c1->proofs[k * sh->challenges + i]));
        }
    }
    snprintf(r->where, sizeof r->where, "PoRep C1");
    CUZK_TRY(rd_raw(c1->comm_r, r, "comm_r"));
    CUZK_TRY(rd_raw(c1->comm_d, r, "comm_d"));
    CUZK_TRY(rd_raw(c1->replica_id, r, "replica_id"));
    CUZK_TRY(rd_raw(c1->seed, r, "seed"));
    CUZK_TRY(rd_raw(c1->ticket, r, "ticket"));
    if (r->left)
        return cuzk__bin_fail(r, CUZK_ERR_FORMAT, "%zu bytes after the ticket", r->left);
    return CUZK_OK;
}

cuzk_status cuzk_fil_porep_c1_from_bincode(cuzk_fil_porep_c1 **out, uint64_t seal_proof_type,
                                           const uint8_t *bytes, size_t len)
{
    return cuzk__fil_porep_c1_decode_bincode(out, seal_proof_type, bytes, len, true);
}

cuzk_status cuzk__fil_porep_c1_decode_bincode(cuzk_fil_porep_c1 **out, uint64_t seal_proof_type,
                                              const uint8_t *bytes, size_t len, bool check)
{
    *out = NULL;
    cuzk_fil_porep_c1_shape sh;
    CUZK_TRY(cuzk_fil_porep_c1_shape_get(&sh, seal_proof_type));
    reader r = {bytes, len, "PoRep C1"};
    uint64_t parts = 0;
    CUZK_TRY(cuzk__bin_u64(&r, &parts, "the partition count"));
    if (check ? parts != sh.partitions : parts == 0 || parts > sh.partitions)
        return cuzk__bin_fail(&r, CUZK_ERR_FORMAT, "%llu partitions, %s has %zu",
                              (unsigned long long)parts, cuzk_fil_seal_proof_name(seal_proof_type),
                              sh.partitions);
    cuzk_fil_porep_c1 *c1;
    CUZK_TRY(cuzk_fil_porep_c1_alloc(&c1, &sh, (size_t)parts));
    cuzk_status s = decode(&r, &sh, c1);
    if (s == CUZK_OK && check)
        s = cuzk_fil_porep_c1_check(c1);
    if (s != CUZK_OK) {
        cuzk_fil_porep_c1_destroy(c1);
        return s;
    }
    *out = c1;
    return CUZK_OK;
}

/* ---- writing ------------------------------------------------------------------------------- */

static void put_column(cuzk__bin_writer *w, const cuzk_fil_porep_c1_shape *sh,
                       const cuzk_fil_porep_column *c)
{
    cuzk__bin_put_u32(w, c->index);
    cuzk__bin_put_u64(w, sh->layers);
    for (size_t l = 0; l < sh->layers; l++)
        cuzk__bin_put_fr(w, &c->rows[l]);
    cuzk__bin_put_merkle(w, sh->arities, sh->depth, sh->variant, c->proof.siblings, &c->proof.root,
                         &c->proof.leaf, c->proof.index);
}

static void put_labeling(cuzk__bin_writer *w, const cuzk_fr_t *parents, size_t np, uint32_t layer,
                         uint64_t node)
{
    cuzk__bin_put_u64(w, np);
    for (size_t j = 0; j < np; j++)
        cuzk__bin_put_fr(w, &parents[j]);
    cuzk__bin_put_u32(w, layer);
    cuzk__bin_put_u64(w, node);
}

cuzk_status cuzk_fil_porep_c1_to_bincode(const cuzk_fil_porep_c1 *c1, uint8_t **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    const cuzk_fil_porep_c1_shape *sh = &c1->shape;
    cuzk__bin_writer w = {0};
    cuzk__bin_put_u64(&w, c1->npartitions);
    for (size_t k = 0; k < c1->npartitions; k++) {
        cuzk__bin_put_u64(&w, sh->challenges);
        for (size_t i = 0; i < sh->challenges; i++) {
            const cuzk_fil_porep_challenge_proof *cp = &c1->proofs[k * sh->challenges + i];
            cuzk__bin_put_merkle(&w, twos, sh->depth_d, 0, cp->comm_d.siblings, &cp->comm_d.root,
                                 &cp->comm_d.leaf, cp->comm_d.index);
            cuzk__bin_put_merkle(&w, sh->arities, sh->depth, sh->variant, cp->comm_r_last.siblings,
                                 &cp->comm_r_last.root, &cp->comm_r_last.leaf,
                                 cp->comm_r_last.index);
            put_column(&w, sh, &cp->c_x);
            cuzk__bin_put_u64(&w, CUZK_FIL_POREP_DRG_PARENTS);
            for (size_t j = 0; j < CUZK_FIL_POREP_DRG_PARENTS; j++)
                put_column(&w, sh, &cp->drg[j]);
            cuzk__bin_put_u64(&w, CUZK_FIL_POREP_EXP_PARENTS);
            for (size_t j = 0; j < CUZK_FIL_POREP_EXP_PARENTS; j++)
                put_column(&w, sh, &cp->exp[j]);
            cuzk__bin_put_u64(&w, sh->layers);
            for (size_t l = 0; l < sh->layers; l++)
                put_labeling(&w, &cp->label_parents[l * CUZK_FIL_POREP_PARENTS],
                             l ? CUZK_FIL_POREP_PARENTS : CUZK_FIL_POREP_DRG_PARENTS,
                             cp->label_layer[l], cp->label_node[l]);
            put_labeling(&w, cp->enc_parents,
                         sh->layers > 1 ? CUZK_FIL_POREP_PARENTS : CUZK_FIL_POREP_DRG_PARENTS,
                         cp->enc_layer, cp->enc_node);
        }
    }
    cuzk__bin_put(&w, c1->comm_r, 32);
    cuzk__bin_put(&w, c1->comm_d, 32);
    cuzk__bin_put(&w, c1->replica_id, 32);
    cuzk__bin_put(&w, c1->seed, 32);
    cuzk__bin_put(&w, c1->ticket, 32);
    if (w.nomem) {
        cuzk_free(w.p);
        return cuzk_fail(CUZK_ERR_NOMEM, "writing a PoRep C1");
    }
    *out = w.p;
    *len = w.len;
    return CUZK_OK;
}
