/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * SnapDeals vanilla proofs in bincode (PartitionProof, filecoin-circuits.md 7.2; the checks of
 * storage-proofs-update vanilla.rs' verifier and the assertions circuit.rs makes on its private
 * inputs, facts only, no code copied) to the circuit's witness, and the inverse for synthetic
 * partitions.
 */
#include "filecoin/snap_circuit.h"

#include "cuzk/alloc.h"
#include "filecoin/bincode.h"
#include "gadgets/merkle.h"

#include <stdio.h>
#include <string.h>

#define NO_CHALLENGE ((size_t)-1)

/* Tree R's MerkleProof variant: 0 Single (base levels only), 1 Sub (32 GiB: base + one sub
 * level), 2 Top (64 GiB: base, sub, top); the last |variant| levels are one-level paths. */
static unsigned tree_r_variant(const cuzk_fil_snap_shape *sh)
{
    return sh->sector_size == (64ULL << 30) ? 2 : sh->sector_size == (32ULL << 30) ? 1 : 0;
}

/* ---- reading ------------------------------------------------------------------------------- */

typedef cuzk__bin_reader reader;

/* The messages' prefix: the partition, and the challenge proof being read (NO_CHALLENGE:
 * outside them). */
static void set_where(reader *r, uint64_t k, size_t challenge)
{
    if (challenge == NO_CHALLENGE)
        snprintf(r->where, sizeof r->where, "SnapDeals partition %llu", (unsigned long long)k);
    else
        snprintf(r->where, sizeof r->where, "SnapDeals partition %llu, challenge %zu",
                 (unsigned long long)k, challenge);
}

/* What the checks need beyond the witness. */
typedef struct {
    cuzk_fil_snap_partition *p;
    cuzk__fil_snap_arrays o;
    cuzk_fr_t phi;
    cuzk_fr_t *apex_tree; /* apex_leaves - 1 nodes: row 1 first, the apex root last */
    cuzk_fr_t *dpath;     /* one full tree D path (challenge_bits siblings) */
    size_t twos[64];
} decode_ctx;

/* The apex tree over the partition's apex leaves (rows left to right, row 1 first). */
static cuzk_status apex_tree(decode_ctx *x)
{
    const cuzk_fr_t *row = x->o.apex;
    cuzk_fr_t *next = x->apex_tree;
    for (size_t n = x->p->shape.apex_leaves; n > 1; n /= 2) {
        for (size_t j = 0; j < n / 2; j++)
            CUZK_TRY(cuzk_merkle_hash_node(&next[j], CUZK_MERKLE_SHA256, 2, &row[2 * j]));
        row = next;
        next += n / 2;
    }
    return CUZK_OK;
}

/* The apex root (the tree's last node) hashed over the partition path (partition k's position)
 * to comm_d_new: what the circuit's apex_por enforces. */
static cuzk_status apex_check(reader *r, decode_ctx *x)
{
    const cuzk_fil_snap_shape *sh = &x->p->shape;
    const cuzk_fr_t *apex_root =
        sh->apex_leaves > 1 ? &x->apex_tree[sh->apex_leaves - 2] : &x->o.apex[0];
    cuzk_fr_t root = *apex_root;
    if (sh->partition_bits > 0)
        CUZK_TRY(cuzk_merkle_root_from_path(&root, CUZK_MERKLE_SHA256, x->twos, sh->partition_bits,
                                            apex_root, x->p->k, x->o.ppath));
    if (!cuzk_fr_eq(&root, &x->p->w.comm_d_new))
        return cuzk__bin_fail(r, CUZK_ERR_FORMAT,
                              "the apex leaves do not hash to comm_d_new over the partition path");
    return CUZK_OK;
}

/* The apex-tree sibling of apex leaf |a|'s ancestor at apex level |l| (0 = the leaves' row). */
static const cuzk_fr_t *apex_sibling(const decode_ctx *x, size_t a, size_t l)
{
    size_t n = x->p->shape.apex_leaves, off = 0;
    const cuzk_fr_t *row = x->o.apex;
    for (size_t i = 0; i < l; i++) {
        row = x->apex_tree + off;
        off += n / 2;
        n /= 2;
    }
    return &row[(a >> l) ^ 1];
}

/* Challenge |i|: its three Merkle proofs read, their indices, roots, paths and the encoding
 * checked. */
static cuzk_status rd_challenge(reader *r, decode_ctx *x, size_t i)
{
    cuzk_fil_snap_partition *p = x->p;
    const cuzk_fil_snap_shape *sh = &p->shape;
    cuzk_fil_snap_witness *w = &p->w;
    size_t lr = cuzk_fil_snap_path_len_r(sh), ld = cuzk_fil_snap_path_len_d(sh);
    unsigned variant = tree_r_variant(sh), cb = sh->challenge_bits;
    uint64_t c = p->challenges[i], idx_old, idx_d, idx_new;
    cuzk_fr_t root_old, root_d, root_new, leaf_new, got;
    cuzk_fr_t *sib_old = &x->o.paths_r_old[i * lr], *sib_new = &x->o.paths_r_new[i * lr];
    set_where(r, p->k, i);

    CUZK_TRY(cuzk__bin_merkle(r, sh->arities, sh->depth, variant, sib_old, &root_old,
                              &x->o.leaves_r_old[i], &idx_old, "tree R old"));
    CUZK_TRY(cuzk__bin_merkle(r, x->twos, cb, 0, x->dpath, &root_d, &x->o.leaves_d[i], &idx_d,
                              "tree D new"));
    CUZK_TRY(cuzk__bin_merkle(r, sh->arities, sh->depth, variant, sib_new, &root_new, &leaf_new,
                              &idx_new, "tree R new"));

    /* Leaf indices: the challenge the circuit derives from comm_r_new and k. */
    const char *tree = idx_old != c ? "tree R old" : idx_d != c ? "tree D new" : "tree R new";
    uint64_t idx = idx_old != c ? idx_old : idx_d != c ? idx_d : idx_new;
    if (idx != c)
        return cuzk__bin_fail(r, CUZK_ERR_FORMAT,
                              "the %s proof opens leaf %llu, the challenge is leaf %llu", tree,
                              (unsigned long long)idx, (unsigned long long)c);

    /* Tree R roots: challenge 0's are the circuit's root_r_old / root_r_new. */
    if (i == 0) {
        cuzk_fr_t pre[2] = {w->comm_c, root_old};
        CUZK_TRY(cuzk_merkle_hash_node(&got, CUZK_MERKLE_POSEIDON, 2, pre));
        if (!cuzk_fr_eq(&got, &w->comm_r_old))
            return cuzk__bin_fail(r, CUZK_ERR_FORMAT,
                                  "Poseidon(comm_c, root of tree R old) is not "
                                  "comm_r_old");
        pre[1] = root_new;
        CUZK_TRY(cuzk_merkle_hash_node(&got, CUZK_MERKLE_POSEIDON, 2, pre));
        if (!cuzk_fr_eq(&got, &w->comm_r_new))
            return cuzk__bin_fail(r, CUZK_ERR_FORMAT,
                                  "Poseidon(comm_c, root of tree R new) is not "
                                  "comm_r_new");
        w->root_r_old = root_old;
        w->root_r_new = root_new;
    } else if (!cuzk_fr_eq(&root_old, &w->root_r_old) || !cuzk_fr_eq(&root_new, &w->root_r_new)) {
        return cuzk__bin_fail(r, CUZK_ERR_FORMAT, "the tree R %s root differs from challenge 0's",
                              cuzk_fr_eq(&root_old, &w->root_r_old) ? "new" : "old");
    }
    if (!cuzk_fr_eq(&root_d, &w->comm_d_new))
        return cuzk__bin_fail(r, CUZK_ERR_FORMAT, "the tree D root is not comm_d_new");

    /* Tree D: the lower levels are the circuit's path to the apex leaf; the apex levels must be
     * the apex tree's, the top ones the partition path (challenge 0's, the same for all). */
    memcpy(&x->o.paths_d[i * ld], x->dpath, ld * sizeof *x->dpath);
    const cuzk_fr_t *top = x->dpath + ld + sh->apex_bits;
    if (i == 0)
        memcpy(x->o.ppath, top, sh->partition_bits * sizeof *top);
    else
        for (size_t l = 0; l < sh->partition_bits; l++)
            if (!cuzk_fr_eq(&top[l], &x->o.ppath[l]))
                return cuzk__bin_fail(
                    r, CUZK_ERR_FORMAT,
                    "tree D sibling %zu differs from challenge 0's partition path",
                    ld + sh->apex_bits + l);

    /* The paths hashed: tree R old and new to their roots, tree D to the apex leaf. */
    CUZK_TRY(cuzk_merkle_root_from_path(&got, CUZK_MERKLE_POSEIDON, sh->arities, sh->depth,
                                        &x->o.leaves_r_old[i], c, sib_old));
    if (!cuzk_fr_eq(&got, &w->root_r_old))
        return cuzk__bin_fail(r, CUZK_ERR_FORMAT, "the tree R old path does not hash to its root");
    CUZK_TRY(cuzk_merkle_root_from_path(&got, CUZK_MERKLE_POSEIDON, sh->arities, sh->depth,
                                        &leaf_new, c, sib_new));
    if (!cuzk_fr_eq(&got, &w->root_r_new))
        return cuzk__bin_fail(r, CUZK_ERR_FORMAT, "the tree R new path does not hash to its root");
    if (ld > 0)
        CUZK_TRY(cuzk_merkle_root_from_path(&got, CUZK_MERKLE_SHA256, x->twos, ld,
                                            &x->o.leaves_d[i], c & ((1ULL << ld) - 1), x->dpath));
    else
        got = x->o.leaves_d[i];
    size_t a = (size_t)(c >> ld) & (sh->apex_leaves - 1);
    if (!cuzk_fr_eq(&got, &x->o.apex[a]))
        return cuzk__bin_fail(r, CUZK_ERR_FORMAT, "the tree D path does not hash to apex leaf %zu",
                              a);
    for (size_t l = 0; l < sh->apex_bits; l++)
        if (!cuzk_fr_eq(&x->dpath[ld + l], apex_sibling(x, a, l)))
            return cuzk__bin_fail(r, CUZK_ERR_FORMAT, "tree D sibling %zu is not the apex tree's",
                                  ld + l);

    /* Encoding: label_r_new = label_r_old + label_d_new * rho(c). */
    cuzk_fr_t rho, want;
    cuzk_fil_snap_rho(&rho, sh, &x->phi, w->h, c);
    cuzk_fr_mul(&want, &x->o.leaves_d[i], &rho);
    cuzk_fr_add(&want, &want, &x->o.leaves_r_old[i]);
    if (!cuzk_fr_eq(&want, &leaf_new))
        return cuzk__bin_fail(r, CUZK_ERR_FORMAT,
                              "label_r_new is not label_r_old + label_d_new * rho (h = %u)", w->h);
    return CUZK_OK;
}

static cuzk_status decode(reader *r, decode_ctx *x)
{
    cuzk_fil_snap_partition *p = x->p;
    const cuzk_fil_snap_shape *sh = &p->shape;
    cuzk_fil_snap_witness *w = &p->w;
    CUZK_TRY(cuzk__bin_fr(r, &w->comm_c, NULL, "comm_c"));
    CUZK_TRY(cuzk__bin_len(r, sh->apex_leaves, "apex leaves"));
    for (size_t a = 0; a < sh->apex_leaves; a++)
        CUZK_TRY(cuzk__bin_fr(r, &x->o.apex[a], NULL, "an apex leaf"));
    CUZK_TRY(apex_tree(x));
    CUZK_TRY(cuzk__bin_len(r, sh->challenge_count, "challenge proofs"));
    for (size_t i = 0; i < sh->challenge_count; i++)
        CUZK_TRY(rd_challenge(r, x, i));
    set_where(r, x->p->k, NO_CHALLENGE);
    if (r->left)
        return cuzk__bin_fail(r, CUZK_ERR_FORMAT, "%zu bytes after its end", r->left);
    return apex_check(r, x);
}

/* phi = Poseidon2_Custom(1)(comm_d_new, comm_r_old) (vanilla.rs phi). */
static cuzk_status phi_of(cuzk_fr_t *out, const cuzk_fr_t *comm_d_new, const cuzk_fr_t *comm_r_old)
{
    const cuzk_poseidon_constants *c1 = cuzk_poseidon_constants_get(2, CUZK_POSEIDON_CUSTOM_1);
    if (!c1)
        return cuzk_fail(CUZK_ERR_NOMEM, "Poseidon-2 Custom(1): %s", cuzk_last_error());
    cuzk_fr_t pre[2] = {*comm_d_new, *comm_r_old};
    cuzk_poseidon_hash(out, c1, pre);
    return CUZK_OK;
}

static cuzk_status public_comm(cuzk_fr_t *out, const uint8_t *b, uint64_t k, const char *name)
{
    if (!b)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "SnapDeals partition %llu: %s is required",
                         (unsigned long long)k, name);
    if (cuzk_fr_from_bytes_le(out, b) != CUZK_OK)
        return cuzk_fail(CUZK_ERR_NOT_CANONICAL,
                         "SnapDeals partition %llu: %s is not a canonical field element",
                         (unsigned long long)k, name);
    return CUZK_OK;
}

cuzk_status cuzk__fil_snap_partition_from_vanilla_shape(cuzk_fil_snap_partition **out,
                                                        const cuzk_fil_snap_shape *shape,
                                                        uint64_t k, const uint8_t comm_r_old[32],
                                                        const uint8_t comm_d_new[32],
                                                        const uint8_t comm_r_new[32], unsigned h,
                                                        const uint8_t *proof, size_t len)
{
    *out = NULL;
    if (!shape || !cuzk__fil_snap_shape_valid(shape))
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "SnapDeals vanilla proof: bad shape");
    if (k >= shape->partitions)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "SnapDeals partition %llu of %zu",
                         (unsigned long long)k, shape->partitions);
    if (h == 0)
        h = shape->h_default;
    bool h_ok = false;
    for (size_t i = 0; i < CUZK_FIL_SNAP_NUM_HS; i++)
        h_ok |= shape->hs[i] == h;
    if (!h_ok)
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "SnapDeals: h = %u is not allowed for the sector "
                         "size",
                         h);
    cuzk_fr_t cro, cdn, crn;
    CUZK_TRY(public_comm(&cro, comm_r_old, k, "comm_r_old"));
    CUZK_TRY(public_comm(&cdn, comm_d_new, k, "comm_d_new"));
    CUZK_TRY(public_comm(&crn, comm_r_new, k, "comm_r_new"));

    decode_ctx x = {0};
    CUZK_TRY(cuzk__fil_snap_partition_alloc(&x.p, shape, k, &x.o));
    cuzk_fil_snap_partition *p = x.p;
    const cuzk_fil_snap_shape *sh = &p->shape;
    p->w.h = h;
    p->w.comm_r_old = cro;
    p->w.comm_d_new = cdn;
    p->w.comm_r_new = crn;
    for (size_t l = 0; l < 64; l++)
        x.twos[l] = 2;
    /* phi first: it builds the Custom(1) constants the challenges use, or reports NOMEM. */
    cuzk_status s = phi_of(&x.phi, &cdn, &cro);
    if (s == CUZK_OK) {
        cuzk_fil_snap_challenges(p->challenges, sh, &crn, p->k);
        x.apex_tree = cuzk_alloc_array(sh->apex_leaves, sizeof *x.apex_tree);
        x.dpath = cuzk_alloc_array(sh->challenge_bits, sizeof *x.dpath);
        if (!x.apex_tree || !x.dpath)
            s = cuzk_fail(CUZK_ERR_NOMEM, "SnapDeals vanilla proof");
    }
    if (s == CUZK_OK) {
        reader r = {.p = proof, .left = proof ? len : 0};
        set_where(&r, p->k, NO_CHALLENGE);
        s = decode(&r, &x);
    }
    cuzk_free(x.apex_tree);
    cuzk_free(x.dpath);
    if (s != CUZK_OK) {
        cuzk_fil_snap_partition_destroy(p);
        return s;
    }
    *out = p;
    return CUZK_OK;
}

cuzk_status cuzk_fil_snap_partition_from_vanilla(cuzk_fil_snap_partition **out,
                                                 uint64_t update_proof_type, uint64_t k,
                                                 const uint8_t comm_r_old[32],
                                                 const uint8_t comm_d_new[32],
                                                 const uint8_t comm_r_new[32], unsigned h,
                                                 const uint8_t *proof, size_t len)
{
    *out = NULL;
    cuzk_fil_snap_shape shape;
    CUZK_TRY(cuzk_fil_snap_shape_get(&shape, update_proof_type));
    return cuzk__fil_snap_partition_from_vanilla_shape(out, &shape, k, comm_r_old, comm_d_new,
                                                       comm_r_new, h, proof, len);
}

/* ---- writing ------------------------------------------------------------------------------- */

cuzk_status cuzk_fil_snap_vanilla_encode(const cuzk_fil_snap_partition *p, uint8_t **out,
                                         size_t *len)
{
    *out = NULL;
    *len = 0;
    const cuzk_fil_snap_shape *sh = &p->shape;
    const cuzk_fil_snap_witness *wt = &p->w;
    size_t lr = cuzk_fil_snap_path_len_r(sh), ld = cuzk_fil_snap_path_len_d(sh);
    unsigned variant = tree_r_variant(sh), cb = sh->challenge_bits;
    size_t twos[64];
    for (size_t l = 0; l < 64; l++)
        twos[l] = 2;
    /* The apex tree, rows bottom-up (row 0 = the leaves). */
    cuzk_fr_t *tree = cuzk_alloc_array(2 * sh->apex_leaves, sizeof *tree);
    cuzk_fr_t *dpath = cuzk_alloc_array(cb, sizeof *dpath);
    cuzk__bin_writer w = {0};
    cuzk_fr_t phi;
    cuzk_status s = tree && dpath ? phi_of(&phi, &wt->comm_d_new, &wt->comm_r_old) : CUZK_ERR_NOMEM;
    if (s == CUZK_OK) {
        memcpy(tree, wt->apex_leaves, sh->apex_leaves * sizeof *tree);
        size_t off = 0;
        for (size_t n = sh->apex_leaves; n > 1 && s == CUZK_OK; n /= 2) {
            for (size_t j = 0; j < n / 2 && s == CUZK_OK; j++)
                s = cuzk_merkle_hash_node(&tree[off + n + j], CUZK_MERKLE_SHA256, 2,
                                          &tree[off + 2 * j]);
            off += n;
        }
    }
    cuzk__bin_put_fr(&w, &wt->comm_c);
    cuzk__bin_put_u64(&w, sh->apex_leaves);
    for (size_t a = 0; a < sh->apex_leaves; a++)
        cuzk__bin_put_fr(&w, &wt->apex_leaves[a]);
    cuzk__bin_put_u64(&w, sh->challenge_count);
    for (size_t i = 0; i < sh->challenge_count && s == CUZK_OK; i++) {
        uint64_t c = p->challenges[i];
        cuzk_fr_t rho, leaf_new;
        cuzk_fil_snap_rho(&rho, sh, &phi, wt->h, c);
        cuzk_fr_mul(&leaf_new, &wt->leaves_d_new[i], &rho);
        cuzk_fr_add(&leaf_new, &leaf_new, &wt->leaves_r_old[i]);
        memcpy(dpath, &wt->paths_d[i * ld], ld * sizeof *dpath);
        size_t a = (size_t)(c >> ld) & (sh->apex_leaves - 1), off = 0;
        for (size_t l = 0, n = sh->apex_leaves; l < sh->apex_bits; l++) {
            dpath[ld + l] = tree[off + ((a >> l) ^ 1)];
            off += n;
            n /= 2;
        }
        memcpy(&dpath[ld + sh->apex_bits], wt->partition_path, sh->partition_bits * sizeof *dpath);
        cuzk__bin_put_merkle(&w, sh->arities, sh->depth, variant, &wt->paths_r_old[i * lr],
                             &wt->root_r_old, &wt->leaves_r_old[i], c);
        cuzk__bin_put_merkle(&w, twos, cb, 0, dpath, &wt->comm_d_new, &wt->leaves_d_new[i], c);
        cuzk__bin_put_merkle(&w, sh->arities, sh->depth, variant, &wt->paths_r_new[i * lr],
                             &wt->root_r_new, &leaf_new, c);
    }
    cuzk_free(tree);
    cuzk_free(dpath);
    if (s == CUZK_OK && w.nomem)
        s = CUZK_ERR_NOMEM;
    if (s != CUZK_OK) {
        cuzk_free(w.p);
        return s == CUZK_ERR_NOMEM ? cuzk_fail(s, "SnapDeals vanilla proof of partition %llu",
                                               (unsigned long long)p->k)
                                   : s;
    }
    *out = w.p;
    *len = w.len;
    return CUZK_OK;
}
