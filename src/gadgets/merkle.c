/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Merkle inclusion: native trees and the rust-fil-proofs gadgets (storage-proofs-core
 * src/gadgets/insertion.rs, src/gadgets/por.rs; filecoin-hashers hash_multi_leaf_circuit).
 * Written from those sources; no code copied.
 */
#include "gadgets/merkle.h"
#include "gadgets/circuit_rand.h"
#include "gadgets/multipack.h"
#include "gadgets/poseidon_circuit.h"
#include "gadgets/sha256.h"
#include "cuzk/alloc.h"

#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

static unsigned log2_arity(size_t arity)
{
    return arity == 2 ? 1 : arity == 4 ? 2 : arity == 8 ? 3 : 0;
}

static size_t path_bits(const size_t *arities, size_t depth)
{
    size_t n = 0;
    for (size_t l = 0; l < depth; l++)
        n += log2_arity(arities[l]);
    return n;
}

static cuzk_status check_shape(cuzk_merkle_hash hash, const size_t *arities, size_t depth)
{
    if (depth == 0 || depth > CUZK_MERKLE_MAX_DEPTH)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "Merkle depth %zu is out of range (1 .. %d)", depth,
                         CUZK_MERKLE_MAX_DEPTH);
    for (size_t l = 0; l < depth; l++) {
        if (!log2_arity(arities[l]))
            return cuzk_fail(CUZK_ERR_INVALID_ARG, "Merkle level %zu: arity %zu (2, 4 or 8)", l,
                             arities[l]);
        if (hash == CUZK_MERKLE_SHA256 && arities[l] != 2)
            return cuzk_fail(CUZK_ERR_INVALID_ARG, "SHA-256 Merkle trees are binary (level %zu)",
                             l);
    }
    return CUZK_OK;
}

/* ---- native -------------------------------------------------------------------------------- */

static cuzk_status sha256_node(cuzk_fr_t *out, const cuzk_fr_t *children)
{
    uint8_t buf[64], md[EVP_MAX_MD_SIZE];
    unsigned int mdlen = 0;
    cuzk_fr_to_bytes_le(buf, &children[0]);
    cuzk_fr_to_bytes_le(buf + 32, &children[1]);
    if (!EVP_Digest(buf, sizeof buf, md, &mdlen, EVP_sha256(), NULL) || mdlen != 32)
        return cuzk_fail(CUZK_ERR_INTERNAL, "SHA-256 failed");
    md[31] &= 0x3f; /* trim_to_fr32: the value is then below 2^254 < r */
    return cuzk_fr_from_bytes_le(out, md);
}

cuzk_status cuzk_merkle_hash_node(cuzk_fr_t *out, cuzk_merkle_hash hash, size_t arity,
                                  const cuzk_fr_t *children)
{
    if (hash == CUZK_MERKLE_SHA256) {
        if (arity != 2)
            return cuzk_fail(CUZK_ERR_INVALID_ARG, "SHA-256 Merkle nodes have 2 children");
        return sha256_node(out, children);
    }
    const cuzk_poseidon_constants *c =
        cuzk_poseidon_constants_get(arity, CUZK_POSEIDON_MERKLE_TREE);
    if (!c)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "%s", cuzk_last_error());
    cuzk_poseidon_hash(out, c, children);
    return CUZK_OK;
}

size_t cuzk_merkle_path_len(const size_t *arities, size_t depth)
{
    size_t n = 0;
    for (size_t l = 0; l < depth; l++)
        n += arities[l] - 1;
    return n;
}

cuzk_status cuzk_merkle_tree_build(cuzk_merkle_tree **out, cuzk_merkle_hash hash,
                                   const size_t *arities, size_t depth, const cuzk_fr_t *leaves)
{
    *out = NULL;
    CUZK_TRY(check_shape(hash, arities, depth));
    size_t n = 1, total = 0;
    for (size_t l = 0; l < depth; l++) {
        n *= arities[l];
        if (n > ((size_t)1 << 32))
            return cuzk_fail(CUZK_ERR_INVALID_ARG, "Merkle tree over 2^32 leaves");
    }
    for (size_t l = 0, m = n; l <= depth; l++) {
        total += m;
        if (l < depth)
            m /= arities[l];
    }
    cuzk_merkle_tree *t = cuzk_alloc(sizeof *t);
    cuzk_fr_t *nodes = cuzk_alloc_array(total, sizeof *nodes);
    if (!t || !nodes) {
        cuzk_free(t);
        cuzk_free(nodes);
        return cuzk_fail(CUZK_ERR_NOMEM, "cannot allocate a Merkle tree of %zu nodes", total);
    }
    memset(t, 0, sizeof *t);
    t->hash = hash;
    t->depth = depth;
    t->n_leaves = n;
    memcpy(t->arity, arities, depth * sizeof *arities);
    memcpy(nodes, leaves, n * sizeof *nodes);
    t->level[0] = nodes;
    size_t m = n;
    for (size_t l = 0; l < depth; l++) {
        size_t a = arities[l], up = m / a;
        t->level[l + 1] = t->level[l] + m;
        for (size_t i = 0; i < up; i++) {
            cuzk_status s =
                cuzk_merkle_hash_node(&t->level[l + 1][i], hash, a, &t->level[l][i * a]);
            if (s != CUZK_OK) {
                cuzk_free(nodes);
                cuzk_free(t);
                return s;
            }
        }
        m = up;
    }
    *out = t;
    return CUZK_OK;
}

void cuzk_merkle_tree_destroy(cuzk_merkle_tree *t)
{
    if (!t)
        return;
    cuzk_free(t->level[0]);
    cuzk_free(t);
}

const cuzk_fr_t *cuzk_merkle_tree_root(const cuzk_merkle_tree *t)
{
    return &t->level[t->depth][0];
}

void cuzk_merkle_tree_path(const cuzk_merkle_tree *t, uint64_t index, cuzk_fr_t *siblings)
{
    size_t k = 0;
    uint64_t i = index % t->n_leaves;
    for (size_t l = 0; l < t->depth; l++) {
        size_t a = t->arity[l];
        uint64_t first = i - i % a;
        for (size_t j = 0; j < a; j++)
            if (first + j != i)
                siblings[k++] = t->level[l][first + j];
        i /= a;
    }
}

/* ---- sparse trees -------------------------------------------------------------------------- */

typedef struct {
    uint64_t index;
    cuzk_fr_t value;
} sparse_node;

static int sparse_cmp(const void *a, const void *b)
{
    uint64_t x = ((const sparse_node *)a)->index, y = ((const sparse_node *)b)->index;
    return x < y ? -1 : x > y;
}

/* The value of node |index| of a level: its entry in the sorted |nodes|, else the fill. */
static const cuzk_fr_t *sparse_get(const sparse_node *nodes, size_t n, uint64_t index,
                                   const cuzk_fr_t *fill)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (nodes[mid].index < index)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && nodes[lo].index == index ? &nodes[lo].value : fill;
}

cuzk_status cuzk_merkle_sparse_paths(cuzk_fr_t *root, cuzk_fr_t *siblings, cuzk_merkle_hash hash,
                                     const size_t *arities, size_t depth, const cuzk_fr_t *fill,
                                     size_t n, const uint64_t *indices, const cuzk_fr_t *leaves)
{
    CUZK_TRY(check_shape(hash, arities, depth));
    if (n == 0)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "sparse Merkle tree: no leaves given");
    size_t bits = path_bits(arities, depth);
    for (size_t i = 0; i < n; i++)
        if (bits < 64 && indices[i] >> bits)
            return cuzk_fail(CUZK_ERR_INVALID_ARG, "sparse Merkle tree: leaf %llu of %zu bits",
                             (unsigned long long)indices[i], bits);
    sparse_node *cur = cuzk_alloc_array(n, sizeof *cur), *next = cuzk_alloc_array(n, sizeof *next);
    if (!cur || !next) {
        cuzk_free(cur);
        cuzk_free(next);
        return cuzk_fail(CUZK_ERR_NOMEM, "sparse Merkle tree of %zu leaves", n);
    }
    cuzk_status s = CUZK_OK;
    for (size_t i = 0; i < n; i++)
        cur[i] = (sparse_node){indices[i], leaves[i]};
    qsort(cur, n, sizeof *cur, sparse_cmp);
    size_t m = 0; /* distinct nodes of the level */
    for (size_t i = 0; i < n; i++) {
        if (m && cur[m - 1].index == cur[i].index) {
            if (!cuzk_fr_eq(&cur[m - 1].value, &cur[i].value)) {
                s = cuzk_fail(CUZK_ERR_INVALID_ARG,
                              "sparse Merkle tree: leaf %llu given twice "
                              "with different values",
                              (unsigned long long)cur[i].index);
                goto out;
            }
            continue;
        }
        cur[m++] = cur[i];
    }
    size_t len = cuzk_merkle_path_len(arities, depth), off = 0;
    cuzk_fr_t d = *fill, kids[8];
    for (size_t l = 0, shift = 0; l < depth; l++) {
        size_t a = arities[l];
        /* Each requested leaf's siblings at this level. */
        for (size_t i = 0; i < n; i++) {
            uint64_t node = indices[i] >> shift, first = node - node % a;
            cuzk_fr_t *out = siblings + i * len + off;
            for (size_t j = 0; j < a; j++)
                if (first + j != node)
                    *out++ = *sparse_get(cur, m, first + j, &d);
        }
        /* The touched parents, in order (the level is sorted, so equal parents are adjacent). */
        size_t pm = 0;
        for (size_t i = 0; i < m; i++) {
            uint64_t parent = cur[i].index / a;
            if (pm && next[pm - 1].index == parent)
                continue;
            for (size_t j = 0; j < a; j++)
                kids[j] = *sparse_get(cur, m, parent * a + j, &d);
            next[pm].index = parent;
            if ((s = cuzk_merkle_hash_node(&next[pm].value, hash, a, kids)) != CUZK_OK)
                goto out;
            pm++;
        }
        for (size_t j = 0; j < a; j++)
            kids[j] = d;
        if ((s = cuzk_merkle_hash_node(&d, hash, a, kids)) != CUZK_OK)
            goto out;
        sparse_node *t = cur;
        cur = next;
        next = t;
        m = pm;
        off += a - 1;
        shift += log2_arity(a);
    }
    *root = cur[0].value;
out:
    cuzk_free(cur);
    cuzk_free(next);
    return s;
}

cuzk_status cuzk_merkle_root_from_path(cuzk_fr_t *root, cuzk_merkle_hash hash,
                                       const size_t *arities, size_t depth, const cuzk_fr_t *leaf,
                                       uint64_t index, const cuzk_fr_t *siblings)
{
    CUZK_TRY(check_shape(hash, arities, depth));
    cuzk_fr_t cur = *leaf, kids[8];
    size_t k = 0;
    for (size_t l = 0; l < depth; l++) {
        size_t a = arities[l];
        size_t pos = (size_t)(index & (a - 1));
        index >>= log2_arity(a);
        for (size_t j = 0, s = 0; j < a; j++)
            kids[j] = (j == pos) ? cur : siblings[k + s++];
        k += a - 1;
        CUZK_TRY(cuzk_merkle_hash_node(&cur, hash, a, kids));
    }
    *root = cur;
    return CUZK_OK;
}

/* ---- gadgets -------------------------------------------------------------------------------- */

cuzk_status cuzk_merkle_pick(cuzk_cs *cs, cuzk_num *out, cuzk_bool cond, const cuzk_num *a,
                             const cuzk_num *b)
{
    cuzk_var av = a->var, bv = b->var;
    cuzk_fr_t v = cond.value ? a->value : b->value;
    CUZK_TRY(cuzk_num_alloc(cs, out, &v));
    /* (b - a) * condition = b - c */
    cuzk_lc *la, *lb, *lc;
    cuzk_cs_lcs(cs, &la, &lb, &lc);
    cuzk_lc_add_var(la, bv);
    cuzk_lc_sub_var(la, av);
    cuzk_bool_lc_add(lb, cond, NULL);
    cuzk_lc_add_var(lc, bv);
    cuzk_lc_sub_var(lc, out->var);
    return cuzk_cs_enforce(cs, la, lb, lc);
}

#define PICK(dst, cond, x, y) CUZK_TRY(cuzk_merkle_pick(cs, &(dst), (cond), (x), (y)))

/* insert_4: A into [b, c, d] at position n = b0 + 2 b1. */
static cuzk_status insert_4(cuzk_cs *cs, cuzk_num *out, const cuzk_num *a, const cuzk_bool *bits,
                            const cuzk_num *e)
{
    cuzk_bool b0 = bits[0], b1 = bits[1];
    const cuzk_num *b = &e[0], *c = &e[1], *d = &e[2];
    cuzk_num p0_x0, p1_x0, p2_x1, p3_x1;
    PICK(p0_x0, b0, b, a);
    PICK(out[0], b1, b, &p0_x0);
    PICK(p1_x0, b0, a, b);
    PICK(out[1], b1, c, &p1_x0);
    PICK(p2_x1, b0, d, a);
    PICK(out[2], b1, &p2_x1, c);
    PICK(p3_x1, b0, a, d);
    PICK(out[3], b1, &p3_x1, d);
    return CUZK_OK;
}

/* insert_8: A into [b .. h] at position n = b0 + 2 b1 + 4 b2; the two-bit conditions
 * "n mod 4 == 0" (b0 nor b1) and "n mod 4 == 3" (b0 and b1) are allocated once. */
static cuzk_status insert_8(cuzk_cs *cs, cuzk_num *out, const cuzk_num *a, const cuzk_bool *bits,
                            const cuzk_num *el)
{
    cuzk_bool b0 = bits[0], b1 = bits[1], b2 = bits[2], nor, and;
    if (b0.kind != CUZK_BOOL_IS || b1.kind != CUZK_BOOL_IS)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "insert_8: bits must be allocated and unnegated");
    const cuzk_num *b = &el[0], *c = &el[1], *d = &el[2], *e = &el[3], *f = &el[4], *g = &el[5],
                   *h = &el[6];
    CUZK_TRY(cuzk_bit_nor(cs, &nor, b0, b1));
    CUZK_TRY(cuzk_bit_and(cs, &and, b0, b1));
    cuzk_num t0, t1;

    PICK(t0, nor, a, b); /* p0_xx0 */
    PICK(out[0], b2, b, &t0);

    PICK(t0, b0, a, b);   /* p1_x00 */
    PICK(t1, b1, c, &t0); /* p1_xx0 */
    PICK(out[1], b2, c, &t1);

    PICK(t0, b0, d, a);   /* p2_x10 */
    PICK(t1, b1, &t0, c); /* p2_xx0 */
    PICK(out[2], b2, d, &t1);

    PICK(t0, and, a, d); /* p3_xx0 */
    PICK(out[3], b2, e, &t0);

    PICK(t0, nor, a, f); /* p4_xx1 */
    PICK(out[4], b2, &t0, e);

    PICK(t0, b0, a, f);   /* p5_x01 */
    PICK(t1, b1, g, &t0); /* p5_xx1 */
    PICK(out[5], b2, &t1, f);

    PICK(t0, b0, h, a);   /* p6_x11 */
    PICK(t1, b1, &t0, g); /* p6_xx1 */
    PICK(out[6], b2, &t1, g);

    PICK(t0, and, a, h); /* p7_xx1 */
    PICK(out[7], b2, &t0, h);
    return CUZK_OK;
}

cuzk_status cuzk_merkle_insert(cuzk_cs *cs, cuzk_num *out, size_t arity, const cuzk_num *element,
                               const cuzk_bool *bits, const cuzk_num *elements)
{
    switch (arity) {
    case 2:
        PICK(out[0], bits[0], &elements[0], element);
        PICK(out[1], bits[0], element, &elements[0]);
        return CUZK_OK;
    case 4:
        return insert_4(cs, out, element, bits, elements);
    case 8:
        return insert_8(cs, out, element, bits, elements);
    default:
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "insert: arity %zu (2, 4 or 8)", arity);
    }
}

static cuzk_status sha256_level(cuzk_cs *cs, cuzk_num *out, const cuzk_num *in);

cuzk_status cuzk_merkle_hash_circuit(cuzk_cs *cs, cuzk_num *out, cuzk_merkle_hash hash,
                                     size_t arity, const cuzk_num *in)
{
    if (hash == CUZK_MERKLE_SHA256) {
        if (arity != 2)
            return cuzk_fail(CUZK_ERR_INVALID_ARG, "SHA-256 Merkle nodes have 2 children");
        return sha256_level(cs, out, in);
    }
    const cuzk_poseidon_constants *c =
        cuzk_poseidon_constants_get(arity, CUZK_POSEIDON_MERKLE_TREE);
    if (!c)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "%s", cuzk_last_error());
    return cuzk_poseidon_circuit_hash(cs, out, c, in);
}

/* One level: insert |cur| among |siblings| at |bits|, hash; cur = the parent. */
static cuzk_status level(cuzk_cs *cs, cuzk_num *cur, cuzk_merkle_hash hash, size_t arity,
                         const cuzk_bool *bits, const cuzk_num *siblings)
{
    cuzk_num pre[8];
    CUZK_TRY(cuzk_merkle_insert(cs, pre, arity, cur, bits, siblings));
    return cuzk_merkle_hash_circuit(cs, cur, hash, arity, pre);
}

/* PoRCircuit::synthesize with the root either a value to allocate (Root::Val) or an allocated
 * number (Root::Var, |root_var|), which allocates nothing. */
static cuzk_status por_(cuzk_cs *cs, cuzk_merkle_hash hash, const size_t *arities, size_t depth,
                        const cuzk_fr_t *leaf, uint64_t index, const cuzk_fr_t *siblings,
                        const cuzk_fr_t *root, const cuzk_num *root_var, bool private_root)
{
    CUZK_TRY(check_shape(hash, arities, depth));
    size_t nbits = path_bits(arities, depth);
    if (nbits > 64)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "PoR path of %zu index bits (at most 64)", nbits);
    bool values = cuzk_cs_has_values(cs);
    if (values && (!leaf || !siblings || (!root && !root_var)))
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "PoR circuit: leaf, path and root are required");

    cuzk_bool bits[64];
    cuzk_num cur, sib[7];
    cuzk_cs_push_ns(cs, "por");
    CUZK_TRY(cuzk_num_alloc(cs, &cur, values ? leaf : NULL));
    size_t k = 0, off = 0;
    for (size_t l = 0; l < depth; l++) {
        size_t a = arities[l];
        unsigned lb = log2_arity(a);
        cuzk_cs_push_nsf(cs, "merkle tree hash %zu", l);
        for (unsigned i = 0; i < lb; i++, k++)
            CUZK_TRY(cuzk_bit_alloc(cs, &bits[k], values && ((index >> k) & 1)));
        for (size_t j = 0; j < a - 1; j++)
            CUZK_TRY(cuzk_num_alloc(cs, &sib[j], values ? &siblings[off + j] : NULL));
        off += a - 1;
        CUZK_TRY(level(cs, &cur, hash, a, &bits[k - lb], sib));
        cuzk_cs_pop_ns(cs);
    }
    CUZK_TRY(cuzk_multipack_pack_into_inputs(cs, bits, nbits));
    cuzk_num rt;
    if (root_var)
        rt = *root_var;
    else
        CUZK_TRY(cuzk_num_alloc(cs, &rt, values ? root : NULL));
    CUZK_TRY(cuzk_num_enforce_equal(cs, &cur, &rt));
    if (!private_root)
        CUZK_TRY(cuzk_num_inputize(cs, &rt));
    cuzk_cs_pop_ns(cs);
    return CUZK_OK;
}

cuzk_status cuzk_merkle_por_circuit(cuzk_cs *cs, cuzk_merkle_hash hash, const size_t *arities,
                                    size_t depth, const cuzk_fr_t *leaf, uint64_t index,
                                    const cuzk_fr_t *siblings, const cuzk_fr_t *root,
                                    bool private_root)
{
    return por_(cs, hash, arities, depth, leaf, index, siblings, root, NULL, private_root);
}

cuzk_status cuzk_merkle_por_circuit_var_root(cuzk_cs *cs, cuzk_merkle_hash hash,
                                             const size_t *arities, size_t depth,
                                             const cuzk_fr_t *leaf, uint64_t index,
                                             const cuzk_fr_t *siblings, const cuzk_num *root)
{
    if (!root)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "PoR circuit: the allocated root is required");
    return por_(cs, hash, arities, depth, leaf, index, siblings, NULL, root, true);
}

cuzk_status cuzk_merkle_por_no_challenge_input(cuzk_cs *cs, cuzk_merkle_hash hash,
                                               const size_t *arities, size_t depth,
                                               const cuzk_bool *challenge_bits,
                                               const cuzk_num *leaf, const cuzk_num *siblings,
                                               const cuzk_num *root)
{
    CUZK_TRY(check_shape(hash, arities, depth));
    cuzk_num cur = *leaf;
    size_t k = 0, off = 0;
    for (size_t l = 0; l < depth; l++) {
        size_t a = arities[l];
        CUZK_TRY(level(cs, &cur, hash, a, &challenge_bits[k], &siblings[off]));
        k += log2_arity(a);
        off += a - 1;
    }
    return cuzk_num_enforce_equal(cs, &cur, root);
}

/*
 * Sha256Function::hash_multi_leaf_circuit for two nodes: to_bits_le of each (255 bits, padded
 * with a constant 0 to 256), each byte's bits reversed (SHA-256 reads bytes MSB first), SHA-256
 * of the 512 bits with padding, the digest's bytes read back least significant bit first, and
 * the first 254 bits (Fr::CAPACITY: the trimmed top two bits drop out) packed into a number.
 */
static cuzk_status sha256_level(cuzk_cs *cs, cuzk_num *out, const cuzk_num *in)
{
    cuzk_bool le[CUZK_FR_NUM_BITS], msg[512], digest[256], packed[CUZK_FR_CAPACITY];
    for (size_t n = 0; n < 2; n++) {
        cuzk_cs_push_nsf(cs, "%zu_num_into_bits", n);
        cuzk_status s = cuzk_num_to_bits_le(cs, le, &in[n]);
        cuzk_cs_pop_ns(cs);
        CUZK_TRY(s);
        for (size_t j = 0; j < 256; j++) {
            size_t src = (j & ~(size_t)7) + (7 - (j & 7));
            msg[256 * n + j] = src < CUZK_FR_NUM_BITS ? le[src] : cuzk_bool_const(false);
        }
    }
    cuzk_cs_push_ns(cs, "hash");
    cuzk_status s = cuzk_sha256(cs, digest, msg, 512);
    cuzk_cs_pop_ns(cs);
    CUZK_TRY(s);
    for (size_t j = 0; j < CUZK_FR_CAPACITY; j++)
        packed[j] = digest[(j & ~(size_t)7) + (7 - (j & 7))];
    return cuzk_multipack_pack_bits(cs, out, packed, CUZK_FR_CAPACITY);
}

/* ---- built-in circuit "poseidon-merkle:DEPTH" ---------------------------------------------- */

cuzk_status cuzk_circuit_poseidon_merkle(cuzk_cs *cs, const void *p)
{
    const cuzk_circuit_params *params = p;
    size_t depth = (size_t)params->arg;
    if (depth < 1 || depth > CUZK_POSEIDON_MERKLE_MAX_DEPTH)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "poseidon-merkle: depth %zu outside [1, %d]", depth,
                         CUZK_POSEIDON_MERKLE_MAX_DEPTH);
    size_t arities[CUZK_POSEIDON_MERKLE_MAX_DEPTH];
    for (size_t l = 0; l < depth; l++)
        arities[l] = 8;
    if (!cuzk_cs_has_values(cs))
        return cuzk_merkle_por_circuit(cs, CUZK_MERKLE_POSEIDON, arities, depth, NULL, 0, NULL,
                                       NULL, false);

    /* Private inputs from the seed: a leaf, its index and a path; the root follows. */
    cuzk_fr_t leaf, root, siblings[7 * CUZK_POSEIDON_MERKLE_MAX_DEPTH];
    uint64_t seed = params->seed ^ 0x706f736d65726b6cULL; /* "posmerkl" */
    cuzk__rand_fr_254(&leaf, &seed);
    uint64_t index = cuzk__splitmix64(&seed);
    if (3 * depth < 64)
        index &= ((uint64_t)1 << (3 * depth)) - 1;
    for (size_t i = 0; i < 7 * depth; i++)
        cuzk__rand_fr_254(&siblings[i], &seed);
    CUZK_TRY(cuzk_merkle_root_from_path(&root, CUZK_MERKLE_POSEIDON, arities, depth, &leaf, index,
                                        siblings));
    return cuzk_merkle_por_circuit(cs, CUZK_MERKLE_POSEIDON, arities, depth, &leaf, index, siblings,
                                   &root, false);
}
