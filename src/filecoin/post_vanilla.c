/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * PoSt vanilla proofs in bincode (FallbackPoStSectorProof over tree R; filecoin-circuits.md 7.2,
 * written from that layout) to the circuit's partition, with every check a prover can make
 * before it spends a proof on them, and the inverse for synthetic partitions.
 */
#include "filecoin/post_circuit.h"

#include "cuzk/alloc.h"
#include "filecoin/bincode.h"
#include "gadgets/merkle.h"

#include <stdio.h>
#include <string.h>

/* Tree R as rust-fil-proofs splits it: base levels of 8, then an optional sub and top level. The
 * MerkleProof variant is 0 (Single), 1 (Sub) or 2 (Top). */
typedef struct {
    size_t base, depth, path_len;
    unsigned variant;
} tree_parts;

static tree_parts parts_of(const cuzk_fil_post_shape *sh, uint64_t sector_size)
{
    tree_parts t = {.depth = sh->depth,
                    .path_len = cuzk_merkle_path_len(sh->arities, sh->depth),
                    .variant = sector_size == (64ULL << 30) ? 2 : sector_size == (32ULL << 30)};
    t.base = sh->depth - t.variant;
    return t;
}

/* ---- reading ------------------------------------------------------------------------------- */

typedef cuzk__bin_reader reader; /* where: "PoSt vanilla proof <i>" */

/* InclusionPath of |nlev| levels starting at level |lev|: per level the arity - 1 siblings and
 * the node's position, folded into the leaf index |*index|. */
static cuzk_status rd_path(reader *r, const cuzk_fil_post_shape *sh, size_t lev, size_t nlev,
                           cuzk_fr_t **sib, uint64_t *index, unsigned *shift)
{
    CUZK_TRY(cuzk__bin_len(r, nlev, "path levels"));
    for (size_t l = lev; l < lev + nlev; l++) {
        size_t a = sh->arities[l];
        CUZK_TRY(cuzk__bin_len(r, a - 1, "siblings in a path level"));
        for (size_t j = 0; j + 1 < a; j++)
            CUZK_TRY(cuzk__bin_fr(r, (*sib)++, NULL, "a path sibling"));
        uint64_t pos = 0;
        CUZK_TRY(cuzk__bin_u64(r, &pos, "a path index"));
        if (pos >= a)
            return cuzk__bin_fail(r, CUZK_ERR_FORMAT, "path index %llu at a level of arity %zu",
                                  (unsigned long long)pos, a);
        *index |= pos << *shift;
        *shift += (a == 8 ? 3 : a == 4 ? 2 : 1);
    }
    return CUZK_OK;
}

/* One MerkleProof of tree R into challenge |k| of the partition's storage. */
static cuzk_status rd_merkle(reader *r, cuzk_fil_post_partition *p, const tree_parts *t, size_t k,
                             cuzk_fr_t *root)
{
    uint32_t variant = 0;
    CUZK_TRY(cuzk__bin_u32(r, &variant, "a Merkle proof's variant"));
    if (variant != t->variant)
        return cuzk__bin_fail(r, CUZK_ERR_FORMAT,
                              "Merkle proof variant %u, the sector size takes %u", variant,
                              t->variant);
    cuzk_fr_t *sib = &p->siblings[k * t->path_len];
    uint64_t index = 0;
    unsigned shift = 0;
    if (variant == 0) {
        CUZK_TRY(cuzk__bin_fr(r, root, NULL, "a Merkle root"));
        CUZK_TRY(cuzk__bin_fr(r, &p->leaves[k], NULL, "a Merkle leaf"));
        CUZK_TRY(rd_path(r, &p->shape, 0, t->base, &sib, &index, &shift));
    } else {
        CUZK_TRY(rd_path(r, &p->shape, 0, t->base, &sib, &index, &shift));
        CUZK_TRY(rd_path(r, &p->shape, t->base, 1, &sib, &index, &shift));
        if (variant == 2)
            CUZK_TRY(rd_path(r, &p->shape, t->base + 1, 1, &sib, &index, &shift));
        CUZK_TRY(cuzk__bin_fr(r, root, NULL, "a Merkle root"));
        CUZK_TRY(cuzk__bin_fr(r, &p->leaves[k], NULL, "a Merkle leaf"));
    }
    p->challenges[k] = index;
    return CUZK_OK;
}

/* Real sector |rs| (the vanilla proof |r| reads): its circuit sectors are |first| .. |first| +
 * |count| - 1, challenge_count each (WinningPoSt: 66 of one). */
static cuzk_status rd_sector(reader *r, cuzk_fil_post_partition *p, const tree_parts *t, size_t rs,
                             size_t first, size_t count)
{
    const cuzk_fil_post_shape *sh = &p->shape;
    size_t per = sh->challenge_count, nproofs = count * per;
    cuzk_fr_t comm_r, comm_c, comm_r_last, pre[2], h;
    CUZK_TRY(cuzk__bin_u64(r, &p->sector_ids[rs], "sector_id"));
    CUZK_TRY(cuzk__bin_fr(r, &comm_r, p->comm_rs[rs], "comm_r"));
    CUZK_TRY(cuzk__bin_len(r, 1, "sector proofs"));
    CUZK_TRY(cuzk__bin_len(r, nproofs, "inclusion proofs"));
    cuzk_fr_t *roots = cuzk_alloc_array(nproofs, sizeof *roots);
    if (!roots)
        return cuzk_fail(CUZK_ERR_NOMEM, "%s", r->where);
    cuzk_status s = CUZK_OK;
    for (size_t k = 0; k < nproofs && s == CUZK_OK; k++)
        s = rd_merkle(r, p, t, first * per + k, &roots[k]);
    if (s == CUZK_OK)
        s = cuzk__bin_fr(r, &comm_c, NULL, "comm_c");
    if (s == CUZK_OK)
        s = cuzk__bin_fr(r, &comm_r_last, NULL, "comm_r_last");
    if (s == CUZK_OK) {
        pre[0] = comm_c;
        pre[1] = comm_r_last;
        s = cuzk_merkle_hash_node(&h, CUZK_MERKLE_POSEIDON, 2, pre);
    }
    if (s == CUZK_OK && !cuzk_fr_eq(&h, &comm_r))
        s = cuzk_fail(CUZK_ERR_FORMAT,
                      "%s (sector %llu): Poseidon(comm_c, "
                      "comm_r_last) is not comm_r",
                      r->where, (unsigned long long)p->sector_ids[rs]);
    for (size_t i = first; i < first + count && s == CUZK_OK; i++) {
        cuzk_fil_post_sector *sec = &p->sectors[i];
        sec->comm_r = comm_r;
        sec->comm_c = comm_c;
        sec->comm_r_last = comm_r_last;
        sec->leaves = &p->leaves[i * per];
        sec->challenges = &p->challenges[i * per];
        sec->siblings = &p->siblings[i * per * t->path_len];
        for (size_t n = 0; n < per && s == CUZK_OK; n++) {
            size_t k = i * per + n;
            uint64_t want = cuzk__fil_post_challenge(p, i, n);
            if (p->challenges[k] != want)
                s = cuzk_fail(CUZK_ERR_FORMAT,
                              "%s (sector %llu): challenge "
                              "%zu opens leaf %llu, the randomness asks for leaf %llu",
                              r->where, (unsigned long long)p->sector_ids[rs], k - first * per,
                              (unsigned long long)p->challenges[k], (unsigned long long)want);
            else if (!cuzk_fr_eq(&roots[k - first * per], &comm_r_last))
                s = cuzk_fail(CUZK_ERR_FORMAT,
                              "%s (sector %llu): challenge "
                              "%zu: the Merkle root is not comm_r_last",
                              r->where, (unsigned long long)p->sector_ids[rs], k - first * per);
        }
    }
    cuzk_free(roots);
    return s;
}

/* Every path of real sector |r| hashed up to its comm_r_last: the costly check (one Poseidon per
 * level and challenge: 235 k hashes for a 32 GiB WindowPoSt partition), so run per sector on the
 * caller's threads. */
typedef struct {
    const cuzk_fil_post_partition *p;
    bool winning;
} path_check;

static cuzk_status check_paths(void *ctx, size_t r)
{
    const path_check *pc = ctx;
    const cuzk_fil_post_partition *p = pc->p;
    const cuzk_fil_post_shape *sh = &p->shape;
    size_t path_len = cuzk_merkle_path_len(sh->arities, sh->depth);
    size_t first = pc->winning ? 0 : r, count = pc->winning ? sh->sector_count : 1;
    for (size_t i = first; i < first + count; i++) {
        const cuzk_fil_post_sector *sec = &p->sectors[i];
        for (size_t n = 0; n < sh->challenge_count; n++) {
            cuzk_fr_t got;
            CUZK_TRY(cuzk_merkle_root_from_path(&got, CUZK_MERKLE_POSEIDON, sh->arities, sh->depth,
                                                &sec->leaves[n], sec->challenges[n],
                                                sec->siblings + n * path_len));
            if (!cuzk_fr_eq(&got, &sec->comm_r_last))
                return cuzk_fail(CUZK_ERR_FORMAT,
                                 "PoSt vanilla proof %zu (sector %llu): "
                                 "challenge %zu: the path does not hash to comm_r_last",
                                 r, (unsigned long long)p->sector_ids[r],
                                 (i - first) * sh->challenge_count + n);
        }
    }
    return CUZK_OK;
}

cuzk_status cuzk_fil_post_partition_from_vanilla(cuzk_fil_post_partition **out,
                                                 uint64_t post_proof_type,
                                                 const uint8_t randomness[32], uint32_t partition,
                                                 const uint8_t *const *proofs, const size_t *lens,
                                                 size_t n, unsigned threads)
{
    *out = NULL;
    cuzk_fil_post_info info;
    CUZK_TRY(cuzk_fil_post_info_get(&info, post_proof_type));
    bool winning = info.kind == CUZK_FIL_POST_WINNING;
    size_t most = winning ? 1 : (size_t)info.sector_count;
    if (n == 0 || n > most)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "%s takes 1 .. %zu vanilla proofs, not %zu",
                         info.name, most, n);
    if (winning && partition != 0)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "WinningPoSt has one partition (index 0, not %u)",
                         partition);
    cuzk_fr_t check;
    if (cuzk_fr_from_bytes_le(&check, randomness) != CUZK_OK)
        return cuzk_fail(CUZK_ERR_NOT_CANONICAL, "PoSt randomness is not a canonical field "
                                                 "element");
    cuzk_fil_post_partition *p;
    CUZK_TRY(cuzk__fil_post_partition_alloc(&p, post_proof_type, n));
    memcpy(p->randomness, randomness, 32);
    p->partition = partition;
    tree_parts t = parts_of(&p->shape, info.sector_size);
    cuzk_status s = CUZK_OK;
    for (size_t i = 0; i < n && s == CUZK_OK; i++) {
        reader r = {.p = proofs[i], .left = proofs[i] ? lens[i] : 0};
        snprintf(r.where, sizeof r.where, "PoSt vanilla proof %zu", i);
        s = winning ? rd_sector(&r, p, &t, 0, 0, p->shape.sector_count)
                    : rd_sector(&r, p, &t, i, i, 1);
        if (s == CUZK_OK && r.left)
            s = cuzk_fail(CUZK_ERR_FORMAT, "PoSt vanilla proof %zu: %zu bytes after its end", i,
                          r.left);
    }
    if (s == CUZK_OK) {
        path_check pc = {.p = p, .winning = winning};
        s = cuzk__fil_par_for(n, threads, check_paths, &pc);
    }
    /* compound.rs: a short WindowPoSt partition repeats its last sector. */
    for (size_t i = n; s == CUZK_OK && !winning && i < p->shape.sector_count; i++)
        p->sectors[i] = p->sectors[n - 1];
    if (s != CUZK_OK) {
        cuzk_fil_post_partition_destroy(p);
        return s;
    }
    *out = p;
    return CUZK_OK;
}

/* ---- writing ------------------------------------------------------------------------------- */

static void put_path(cuzk__bin_writer *w, const cuzk_fil_post_shape *sh, size_t lev, size_t nlev,
                     const cuzk_fr_t **sib, uint64_t *index)
{
    cuzk__bin_put_u64(w, nlev);
    for (size_t l = lev; l < lev + nlev; l++) {
        size_t a = sh->arities[l];
        cuzk__bin_put_u64(w, a - 1);
        for (size_t j = 0; j + 1 < a; j++)
            cuzk__bin_put_fr(w, (*sib)++);
        cuzk__bin_put_u64(w, *index % a);
        *index /= a;
    }
}

cuzk_status cuzk_fil_post_vanilla_encode(const cuzk_fil_post_partition *p, size_t r, uint8_t **out,
                                         size_t *len)
{
    *out = NULL;
    *len = 0;
    cuzk_fil_post_info info;
    CUZK_TRY(cuzk_fil_post_info_get(&info, p->post_proof_type));
    if (r >= p->nreal)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "sector %zu of a partition of %zu", r, p->nreal);
    bool winning = info.kind == CUZK_FIL_POST_WINNING;
    const cuzk_fil_post_shape *sh = &p->shape;
    tree_parts t = parts_of(sh, info.sector_size);
    size_t first = winning ? 0 : r, count = winning ? sh->sector_count : 1;
    const cuzk_fil_post_sector *s0 = &p->sectors[first];
    cuzk__bin_writer w = {0};
    cuzk__bin_put_u64(&w, p->sector_ids[r]);
    cuzk__bin_put(&w, p->comm_rs[r], 32);
    cuzk__bin_put_u64(&w, 1);
    cuzk__bin_put_u64(&w, count * sh->challenge_count);
    for (size_t i = first; i < first + count; i++)
        for (size_t n = 0; n < sh->challenge_count; n++) {
            const cuzk_fil_post_sector *s = &p->sectors[i];
            const cuzk_fr_t *sib = s->siblings + n * t.path_len;
            uint64_t index = s->challenges[n];
            cuzk__bin_put_u32(&w, t.variant);
            if (t.variant == 0) {
                cuzk__bin_put_fr(&w, &s->comm_r_last);
                cuzk__bin_put_fr(&w, &s->leaves[n]);
            }
            put_path(&w, sh, 0, t.base, &sib, &index);
            if (t.variant >= 1)
                put_path(&w, sh, t.base, 1, &sib, &index);
            if (t.variant == 2)
                put_path(&w, sh, t.base + 1, 1, &sib, &index);
            if (t.variant != 0) {
                cuzk__bin_put_fr(&w, &s->comm_r_last);
                cuzk__bin_put_fr(&w, &s->leaves[n]);
            }
        }
    cuzk__bin_put_fr(&w, &s0->comm_c);
    cuzk__bin_put_fr(&w, &s0->comm_r_last);
    if (w.nomem) {
        cuzk_free(w.p);
        return cuzk_fail(CUZK_ERR_NOMEM, "PoSt vanilla proof of sector %zu", r);
    }
    *out = w.p;
    *len = w.len;
    return CUZK_OK;
}
