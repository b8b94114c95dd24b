/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * PoSt vanilla proofs in bincode (FallbackPoStSectorProof over tree R; filecoin-circuits.md 7.2,
 * written from that layout) to the circuit's partition, with every check a prover can make
 * before it spends a proof on them, and the inverse for synthetic partitions.
 */
#include "filecoin/post_circuit.h"

#include "cuzk/alloc.h"
#include "gadgets/merkle.h"

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

typedef struct {
    const uint8_t *p;
    size_t left;
    size_t proof; /* which vanilla proof, for messages */
} reader;

static cuzk_status truncated(const reader *r, const char *what)
{
    return cuzk_fail(CUZK_ERR_FORMAT, "PoSt vanilla proof %zu: truncated in %s", r->proof, what);
}

static cuzk_status rd_u64(reader *r, uint64_t *v, const char *what)
{
    if (r->left < 8)
        return truncated(r, what);
    *v = 0;
    for (int i = 7; i >= 0; i--)
        *v = (*v << 8) | r->p[i];
    r->p += 8;
    r->left -= 8;
    return CUZK_OK;
}

static cuzk_status rd_u32(reader *r, uint32_t *v, const char *what)
{
    if (r->left < 4)
        return truncated(r, what);
    *v = (uint32_t)r->p[0] | (uint32_t)r->p[1] << 8 | (uint32_t)r->p[2] << 16 |
         (uint32_t)r->p[3] << 24;
    r->p += 4;
    r->left -= 4;
    return CUZK_OK;
}

/* A 32-byte domain that must be a canonical Fr repr (PoseidonDomain). */
static cuzk_status rd_fr(reader *r, cuzk_fr_t *v, uint8_t raw[32], const char *what)
{
    if (r->left < 32)
        return truncated(r, what);
    if (raw)
        memcpy(raw, r->p, 32);
    if (cuzk_fr_from_bytes_le(v, r->p) != CUZK_OK)
        return cuzk_fail(CUZK_ERR_NOT_CANONICAL,
                         "PoSt vanilla proof %zu: %s is not a canonical field element", r->proof,
                         what);
    r->p += 32;
    r->left -= 32;
    return CUZK_OK;
}

/* A length prefix that must equal |want|. */
static cuzk_status rd_len(reader *r, uint64_t want, const char *what)
{
    uint64_t n = 0;
    CUZK_TRY(rd_u64(r, &n, what));
    if (n != want)
        return cuzk_fail(CUZK_ERR_FORMAT, "PoSt vanilla proof %zu: %llu %s, the shape has %llu",
                         r->proof, (unsigned long long)n, what, (unsigned long long)want);
    return CUZK_OK;
}

/* InclusionPath of |nlev| levels starting at level |lev|: per level the arity - 1 siblings and
 * the node's position, folded into the leaf index |*index|. */
static cuzk_status rd_path(reader *r, const cuzk_fil_post_shape *sh, size_t lev, size_t nlev,
                           cuzk_fr_t **sib, uint64_t *index, unsigned *shift)
{
    CUZK_TRY(rd_len(r, nlev, "path levels"));
    for (size_t l = lev; l < lev + nlev; l++) {
        size_t a = sh->arities[l];
        CUZK_TRY(rd_len(r, a - 1, "siblings in a path level"));
        for (size_t j = 0; j + 1 < a; j++)
            CUZK_TRY(rd_fr(r, (*sib)++, NULL, "a path sibling"));
        uint64_t pos = 0;
        CUZK_TRY(rd_u64(r, &pos, "a path index"));
        if (pos >= a)
            return cuzk_fail(CUZK_ERR_FORMAT,
                             "PoSt vanilla proof %zu: path index %llu at a level "
                             "of arity %zu",
                             r->proof, (unsigned long long)pos, a);
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
    CUZK_TRY(rd_u32(r, &variant, "a Merkle proof's variant"));
    if (variant != t->variant)
        return cuzk_fail(CUZK_ERR_FORMAT,
                         "PoSt vanilla proof %zu: Merkle proof variant %u, the "
                         "sector size takes %u",
                         r->proof, variant, t->variant);
    cuzk_fr_t *sib = &p->siblings[k * t->path_len];
    uint64_t index = 0;
    unsigned shift = 0;
    if (variant == 0) {
        CUZK_TRY(rd_fr(r, root, NULL, "a Merkle root"));
        CUZK_TRY(rd_fr(r, &p->leaves[k], NULL, "a Merkle leaf"));
        CUZK_TRY(rd_path(r, &p->shape, 0, t->base, &sib, &index, &shift));
    } else {
        CUZK_TRY(rd_path(r, &p->shape, 0, t->base, &sib, &index, &shift));
        CUZK_TRY(rd_path(r, &p->shape, t->base, 1, &sib, &index, &shift));
        if (variant == 2)
            CUZK_TRY(rd_path(r, &p->shape, t->base + 1, 1, &sib, &index, &shift));
        CUZK_TRY(rd_fr(r, root, NULL, "a Merkle root"));
        CUZK_TRY(rd_fr(r, &p->leaves[k], NULL, "a Merkle leaf"));
    }
    p->challenges[k] = index;
    return CUZK_OK;
}

/* Real sector |rs| (vanilla proof |r->proof|): its circuit sectors are |first| .. |first| +
 * |count| - 1, challenge_count each (WinningPoSt: 66 of one). */
static cuzk_status rd_sector(reader *r, cuzk_fil_post_partition *p, const tree_parts *t, size_t rs,
                             size_t first, size_t count)
{
    const cuzk_fil_post_shape *sh = &p->shape;
    size_t per = sh->challenge_count, nproofs = count * per;
    cuzk_fr_t comm_r, comm_c, comm_r_last, pre[2], h;
    CUZK_TRY(rd_u64(r, &p->sector_ids[rs], "sector_id"));
    CUZK_TRY(rd_fr(r, &comm_r, p->comm_rs[rs], "comm_r"));
    CUZK_TRY(rd_len(r, 1, "sector proofs"));
    CUZK_TRY(rd_len(r, nproofs, "inclusion proofs"));
    cuzk_fr_t *roots = cuzk_alloc_array(nproofs, sizeof *roots);
    if (!roots)
        return cuzk_fail(CUZK_ERR_NOMEM, "PoSt vanilla proof %zu", r->proof);
    cuzk_status s = CUZK_OK;
    for (size_t k = 0; k < nproofs && s == CUZK_OK; k++)
        s = rd_merkle(r, p, t, first * per + k, &roots[k]);
    if (s == CUZK_OK)
        s = rd_fr(r, &comm_c, NULL, "comm_c");
    if (s == CUZK_OK)
        s = rd_fr(r, &comm_r_last, NULL, "comm_r_last");
    pre[0] = comm_c;
    pre[1] = comm_r_last;
    if (s == CUZK_OK)
        s = cuzk_merkle_hash_node(&h, CUZK_MERKLE_POSEIDON, 2, pre);
    if (s == CUZK_OK && !cuzk_fr_eq(&h, &comm_r))
        s = cuzk_fail(CUZK_ERR_FORMAT,
                      "PoSt vanilla proof %zu (sector %llu): Poseidon(comm_c, "
                      "comm_r_last) is not comm_r",
                      r->proof, (unsigned long long)p->sector_ids[rs]);
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
                              "PoSt vanilla proof %zu (sector %llu): challenge "
                              "%zu opens leaf %llu, the randomness asks for leaf %llu",
                              r->proof, (unsigned long long)p->sector_ids[rs], k - first * per,
                              (unsigned long long)p->challenges[k], (unsigned long long)want);
            else if (!cuzk_fr_eq(&roots[k - first * per], &comm_r_last))
                s = cuzk_fail(CUZK_ERR_FORMAT,
                              "PoSt vanilla proof %zu (sector %llu): challenge "
                              "%zu: the Merkle root is not comm_r_last",
                              r->proof, (unsigned long long)p->sector_ids[rs], k - first * per);
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
        reader r = {.p = proofs[i], .left = proofs[i] ? lens[i] : 0, .proof = i};
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

typedef struct {
    uint8_t *p;
    size_t len, cap;
    bool nomem;
} writer;

static void put(writer *w, const void *src, size_t n)
{
    if (w->nomem)
        return;
    if (w->len + n > w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 4096;
        while (cap < w->len + n)
            cap *= 2;
        uint8_t *q = cuzk_realloc(w->p, cap);
        if (!q) {
            w->nomem = true;
            return;
        }
        w->p = q;
        w->cap = cap;
    }
    memcpy(w->p + w->len, src, n);
    w->len += n;
}

static void put_u64(writer *w, uint64_t v)
{
    uint8_t b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    put(w, b, 8);
}

static void put_fr(writer *w, const cuzk_fr_t *v)
{
    uint8_t b[32];
    cuzk_fr_to_bytes_le(b, v);
    put(w, b, 32);
}

static void put_path(writer *w, const cuzk_fil_post_shape *sh, size_t lev, size_t nlev,
                     const cuzk_fr_t **sib, uint64_t *index)
{
    put_u64(w, nlev);
    for (size_t l = lev; l < lev + nlev; l++) {
        size_t a = sh->arities[l];
        put_u64(w, a - 1);
        for (size_t j = 0; j + 1 < a; j++)
            put_fr(w, (*sib)++);
        put_u64(w, *index % a);
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
    writer w = {0};
    put_u64(&w, p->sector_ids[r]);
    put(&w, p->comm_rs[r], 32);
    put_u64(&w, 1);
    put_u64(&w, count * sh->challenge_count);
    for (size_t i = first; i < first + count; i++)
        for (size_t n = 0; n < sh->challenge_count; n++) {
            const cuzk_fil_post_sector *s = &p->sectors[i];
            const cuzk_fr_t *sib = s->siblings + n * t.path_len;
            uint64_t index = s->challenges[n];
            uint8_t v[4] = {(uint8_t)t.variant, 0, 0, 0};
            put(&w, v, 4);
            if (t.variant == 0) {
                put_fr(&w, &s->comm_r_last);
                put_fr(&w, &s->leaves[n]);
            }
            put_path(&w, sh, 0, t.base, &sib, &index);
            if (t.variant >= 1)
                put_path(&w, sh, t.base, 1, &sib, &index);
            if (t.variant == 2)
                put_path(&w, sh, t.base + 1, 1, &sib, &index);
            if (t.variant != 0) {
                put_fr(&w, &s->comm_r_last);
                put_fr(&w, &s->leaves[n]);
            }
        }
    put_fr(&w, &s0->comm_c);
    put_fr(&w, &s0->comm_r_last);
    if (w.nomem) {
        cuzk_free(w.p);
        return cuzk_fail(CUZK_ERR_NOMEM, "PoSt vanilla proof of sector %zu", r);
    }
    *out = w.p;
    *len = w.len;
    return CUZK_OK;
}
