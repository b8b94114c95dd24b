/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The SnapDeals (EmptySectorUpdate) circuit. Written from rust-fil-proofs storage-proofs-update
 * src/{circuit.rs,gadgets.rs,challenges.rs,constants.rs} and storage-proofs-core
 * src/gadgets/insertion.rs (facts only; no code copied).
 */
#include "filecoin/snap_circuit.h"
#include "filecoin/post_circuit.h"

#include "cuzk/alloc.h"
#include "gadgets/merkle.h"
#include "gadgets/multipack.h"
#include "gadgets/poseidon_circuit.h"

#include <string.h>

/* Constraints of the gadgets the model adds up (filecoin-circuits.md 4.7). */
#define SNAP_SHA_HASH2 45379u       /* SHA-256 hash2 of two Fr */
#define SNAP_SHA_LEVEL_NOBIT 45381u /* insert_2 + hash2 */
#define SNAP_DIGEST 568u            /* gen_challenge_bits per digest */
#define SNAP_MAX_APEX 128
#define SNAP_MAX_PARTITION_BITS 4

const cuzk_fil_snap_shape *cuzk__fil_snap_test_shape;

cuzk_status cuzk_fil_snap_shape_get(cuzk_fil_snap_shape *out, uint64_t update_proof_type)
{
    if (update_proof_type == 0 && cuzk__fil_snap_test_shape) {
        *out = *cuzk__fil_snap_test_shape;
        return CUZK_OK;
    }
    /* RegisteredUpdateProof StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}V1 (filecoin-circuits.md
     * 1.2). */
    static const uint64_t sizes[] = {2048, 8ull << 20, 512ull << 20, 32ull << 30, 64ull << 30};
    memset(out, 0, sizeof *out);
    if (update_proof_type >= sizeof sizes / sizeof sizes[0])
        return cuzk_fail(CUZK_ERR_UNSUPPORTED, "RegisteredUpdateProof %llu is not known (0 .. 4)",
                         (unsigned long long)update_proof_type);
    uint64_t size = sizes[update_proof_type], nodes = size / 32;
    out->update_proof_type = update_proof_type;
    out->sector_size = size;
    /* storage-proofs-update constants.rs (filecoin-circuits.md 1.4); thresholds in nodes. */
    out->partitions = nodes <= (1u << 8)    ? 1
                      : nodes <= (1u << 10) ? 2
                      : nodes <= (1u << 19) ? 4
                                            : 16;
    out->challenge_count = nodes <= (1u << 19) ? 10 : 86;
    out->apex_leaves = nodes <= (1u << 8) ? 8 : 128;
    for (unsigned i = 0; i < CUZK_FIL_SNAP_NUM_HS; i++)
        out->hs[i] = nodes <= (1u << 10) ? 1 : 7 + i;
    out->h_default = out->hs[3];
    out->challenge_bits = (unsigned)__builtin_ctzll(nodes);
    out->partition_bits = (unsigned)__builtin_ctzll(out->partitions);
    out->apex_bits = (unsigned)__builtin_ctzll(out->apex_leaves);
    return cuzk_fil_tree_r_shape(out->arities, &out->depth, size);
}

size_t cuzk_fil_snap_path_len_r(const cuzk_fil_snap_shape *shape)
{
    return cuzk_merkle_path_len(shape->arities, shape->depth);
}

size_t cuzk_fil_snap_path_len_d(const cuzk_fil_snap_shape *shape)
{
    return shape->challenge_bits - shape->partition_bits - shape->apex_bits;
}

/* Random bits per challenge and challenges per digest (Fr::CAPACITY / bits). */
static unsigned rand_bits(const cuzk_fil_snap_shape *sh)
{
    return sh->challenge_bits - sh->partition_bits;
}

static size_t per_digest(const cuzk_fil_snap_shape *sh)
{
    return CUZK_FR_CAPACITY / rand_bits(sh);
}

size_t cuzk_fil_snap_digests(const cuzk_fil_snap_shape *sh)
{
    return (sh->challenge_count + per_digest(sh) - 1) / per_digest(sh);
}

size_t cuzk_fil_snap_model_constraints(const cuzk_fil_snap_shape *sh)
{
    size_t pb = sh->partition_bits, rpath = 1;
    for (size_t l = 0; l < sh->depth; l++) {
        size_t a = sh->arities[l];
        rpath += a == 8 ? 22 + 505 : a == 4 ? 8 + 377 : 2 + 311;
    }
    size_t fixed = (1 + (pb + CUZK_FIL_SNAP_NUM_HS) + 1) + 1 + 3 + 311 + 312 + 312 +
                   (sh->apex_leaves - 1) * SNAP_SHA_HASH2 + (pb * SNAP_SHA_LEVEL_NOBIT + 1) +
                   cuzk_fil_snap_digests(sh) * SNAP_DIGEST;
    size_t per = 13 + 311 + 2 + 2 * rpath + (sh->apex_leaves - 1) +
                 (cuzk_fil_snap_path_len_d(sh) * SNAP_SHA_LEVEL_NOBIT + 1);
    return fixed + sh->challenge_count * per;
}

bool cuzk__fil_snap_shape_valid(const cuzk_fil_snap_shape *sh)
{
    if (sh->depth == 0 || sh->depth > CUZK_FIL_TREE_MAX_DEPTH || sh->challenge_count == 0 ||
        sh->partition_bits > SNAP_MAX_PARTITION_BITS || sh->apex_bits > 7 ||
        sh->partitions != (size_t)1 << sh->partition_bits ||
        sh->apex_leaves != (size_t)1 << sh->apex_bits || sh->challenge_bits > 40 ||
        sh->challenge_bits <= sh->partition_bits + sh->apex_bits)
        return false;
    unsigned bits = 0;
    for (size_t l = 0; l < sh->depth; l++) {
        size_t a = sh->arities[l];
        if (a != 2 && a != 4 && a != 8)
            return false;
        bits += (unsigned)__builtin_ctzll(a);
    }
    bool h_ok = false;
    for (size_t i = 0; i < CUZK_FIL_SNAP_NUM_HS; i++) {
        if (sh->hs[i] == 0 || sh->hs[i] > sh->challenge_bits)
            return false;
        h_ok |= sh->hs[i] == sh->h_default;
    }
    return bits == sh->challenge_bits && h_ok;
}

/* ---- native -------------------------------------------------------------------------------- */

static void poseidon2(cuzk_fr_t *out, cuzk_poseidon_hash_type t, const cuzk_fr_t *a,
                      const cuzk_fr_t *b)
{
    /* Arity 2 is always supported: the lookup fails only for memory at first use, and every
     * caller has fetched the Custom(1) constants before (phi), which stay built; zero here is
     * unreachable, not a value a proof could use. */
    const cuzk_poseidon_constants *c = cuzk_poseidon_constants_get(2, t);
    cuzk_fr_t pre[2] = {*a, *b};
    if (c)
        cuzk_poseidon_hash(out, c, pre);
    else
        cuzk_fr_set_zero(out);
}

void cuzk_fil_snap_challenges(uint64_t *out, const cuzk_fil_snap_shape *sh,
                              const cuzk_fr_t *comm_r_new, uint64_t k)
{
    unsigned rb = rand_bits(sh);
    size_t cpd = per_digest(sh), dpp = cuzk_fil_snap_digests(sh);
    for (size_t i = 0; i < sh->challenge_count; i++) {
        size_t j = i / cpd, chunk = i % cpd;
        cuzk_fr_t idx, digest;
        uint8_t bytes[32];
        cuzk_fr_set_u64(&idx, k * dpp + j);
        poseidon2(&digest, CUZK_POSEIDON_CUSTOM_1, comm_r_new, &idx);
        cuzk_fr_to_bytes_le(bytes, &digest);
        uint64_t c = 0;
        for (unsigned t = 0; t < rb; t++) {
            size_t bit = chunk * rb + t;
            c |= (uint64_t)((bytes[bit / 8] >> (bit % 8)) & 1) << t;
        }
        out[i] = c | (k << rb);
    }
}

void cuzk_fil_snap_rho(cuzk_fr_t *out, const cuzk_fil_snap_shape *sh, const cuzk_fr_t *phi,
                       unsigned h, uint64_t c)
{
    cuzk_fr_t high;
    cuzk_fr_set_u64(&high, c >> (sh->challenge_bits - h));
    poseidon2(out, CUZK_POSEIDON_CUSTOM_1, phi, &high);
}

/* ---- gadgets -------------------------------------------------------------------------------- */

static cuzk_status hash2_circuit(cuzk_cs *cs, cuzk_num *out, cuzk_poseidon_hash_type t,
                                 const cuzk_num *a, const cuzk_num *b)
{
    const cuzk_poseidon_constants *c = cuzk_poseidon_constants_get(2, t);
    if (!c)
        return cuzk_fail(CUZK_ERR_NOMEM, "Poseidon-2 constants: %s", cuzk_last_error());
    cuzk_num pre[2] = {*a, *b};
    return cuzk_poseidon_circuit_hash(cs, out, c, pre);
}

/* gadgets.rs le_bits: 255 allocated bits of the canonical value, then the decomposition
 * (sum) * ONE = n (256 constraints; not to_bits_le's form). */
static cuzk_status le_bits(cuzk_cs *cs, cuzk_bool *bits, const cuzk_num *n)
{
    uint8_t bytes[32];
    cuzk_fr_to_bytes_le(bytes, &n->value);
    for (size_t i = 0; i < CUZK_FR_NUM_BITS; i++)
        CUZK_TRY(cuzk_bit_alloc(cs, &bits[i], (bytes[i / 8] >> (i % 8)) & 1));
    return cuzk_multipack_enforce_sum(cs, bits, CUZK_FR_NUM_BITS, n->var);
}

/* Allocates |n| numbers (values from |v| when it is not NULL). */
static cuzk_status alloc_nums(cuzk_cs *cs, cuzk_num *out, size_t n, const cuzk_fr_t *v)
{
    for (size_t i = 0; i < n; i++)
        CUZK_TRY(cuzk_num_alloc(cs, &out[i], v ? &v[i] : NULL));
    return CUZK_OK;
}

/* por_no_challenge_input over a binary SHA-256 tree of |depth| levels (0: root equality). */
static cuzk_status por_d(cuzk_cs *cs, size_t depth, const cuzk_bool *bits, const cuzk_num *leaf,
                         const cuzk_num *siblings, const cuzk_num *root)
{
    if (depth == 0)
        return cuzk_num_enforce_equal(cs, leaf, root);
    size_t twos[64];
    for (size_t l = 0; l < depth; l++)
        twos[l] = 2;
    return cuzk_merkle_por_no_challenge_input(cs, CUZK_MERKLE_SHA256, twos, depth, bits, leaf,
                                              siblings, root);
}

/* gadgets.rs get_challenge_high_bits: per h in hs, c_high = pack(top h bits of c), c_high *
 * h_select_bit = c_high_or_zero; then (sum) * ONE = selected (13 constraints). */
static cuzk_status challenge_high_bits(cuzk_cs *cs, cuzk_num *out, const cuzk_fil_snap_shape *sh,
                                       const cuzk_bool *c_bits, const cuzk_bool *h_select)
{
    cuzk_num or_zero[CUZK_FIL_SNAP_NUM_HS];
    cuzk_fr_t sum;
    cuzk_fr_set_zero(&sum);
    for (size_t i = 0; i < CUZK_FIL_SNAP_NUM_HS; i++) {
        unsigned h = sh->hs[i];
        cuzk_num high;
        CUZK_TRY(cuzk_multipack_pack_bits(cs, &high, &c_bits[sh->challenge_bits - h], h));
        cuzk_fr_t v;
        cuzk_fr_set_zero(&v);
        if (h_select[i].value)
            v = high.value;
        CUZK_TRY(cuzk_num_alloc(cs, &or_zero[i], &v));
        cuzk_fr_add(&sum, &sum, &v);
        cuzk_lc *a, *b, *c;
        cuzk_cs_lcs(cs, &a, &b, &c);
        cuzk_lc_add_var(a, high.var);
        cuzk_bool_lc_add(b, h_select[i], NULL);
        cuzk_lc_add_var(c, or_zero[i].var);
        CUZK_TRY(cuzk_cs_enforce(cs, a, b, c));
    }
    CUZK_TRY(cuzk_num_alloc(cs, out, &sum));
    cuzk_lc *a, *b, *c;
    cuzk_cs_lcs(cs, &a, &b, &c);
    for (size_t i = 0; i < CUZK_FIL_SNAP_NUM_HS; i++)
        cuzk_lc_add_var(a, or_zero[i].var);
    cuzk_lc_add_one(b);
    cuzk_lc_add_var(c, out->var);
    return cuzk_cs_enforce(cs, a, b, c);
}

/* insertion.rs select: halve the candidates per bit, most significant bit first, with pick(bit,
 * upper half, lower half) (n - 1 constraints). |state| (n elements) is overwritten. */
static cuzk_status select_leaf(cuzk_cs *cs, cuzk_num *out, cuzk_num *state, size_t n,
                               const cuzk_bool *bits, unsigned n_bits)
{
    for (unsigned i = n_bits; i-- > 0;) {
        size_t half = n / 2;
        for (size_t j = 0; j < half; j++) {
            cuzk_num picked;
            CUZK_TRY(cuzk_merkle_pick(cs, &picked, bits[i], &state[half + j], &state[j]));
            state[j] = picked;
        }
        n = half;
    }
    *out = state[0];
    return CUZK_OK;
}

/* label_r_new (gadgets.rs): d * rho = p; new = old + p as (old + p) * ONE = new. */
static cuzk_status label_r_new(cuzk_cs *cs, cuzk_num *out, const cuzk_num *old, const cuzk_num *d,
                               const cuzk_num *rho)
{
    cuzk_num p;
    CUZK_TRY(cuzk_num_mul(cs, &p, d, rho));
    cuzk_fr_t v;
    cuzk_fr_add(&v, &old->value, &p.value);
    CUZK_TRY(cuzk_num_alloc(cs, out, &v));
    cuzk_lc *a, *b, *c;
    cuzk_cs_lcs(cs, &a, &b, &c);
    cuzk_lc_add_var(a, old->var);
    cuzk_lc_add_var(a, p.var);
    cuzk_lc_add_one(b);
    cuzk_lc_add_var(c, out->var);
    return cuzk_cs_enforce(cs, a, b, c);
}

/* ---- the circuit ---------------------------------------------------------------------------- */

typedef struct {
    cuzk_cs *cs;
    const cuzk_fil_snap_shape *sh;
    const cuzk_fil_snap_witness *w; /* NULL: no values */
    cuzk_bool kbits[SNAP_MAX_PARTITION_BITS + CUZK_FIL_SNAP_NUM_HS];
    cuzk_num phi, comm_r_new, root_r_old, root_r_new;
    cuzk_num apex[SNAP_MAX_APEX];
    cuzk_bool *gen;   /* digests * 255 generated bits */
    unsigned threads; /* 0, 1: this thread only */
} snap_ctx;

#define WV(field) (x->w ? x->w->field : NULL)

/* Challenge |i|'s path in tree R old or new: its siblings allocated (values from |paths| when
 * given), then the PoR of |leaf| to |root| under |c_bits|. */
static cuzk_status por_r(snap_ctx *x, size_t i, const char *which, const cuzk_bool *c_bits,
                         const cuzk_num *leaf, const cuzk_fr_t *paths, const cuzk_num *root)
{
    const cuzk_fil_snap_shape *sh = x->sh;
    size_t lr = cuzk_fil_snap_path_len_r(sh);
    cuzk_num sib[7 * CUZK_FIL_TREE_MAX_DEPTH];
    CUZK_TRY(alloc_nums(x->cs, sib, lr, paths ? &paths[i * lr] : NULL));
    cuzk_cs_push_nsf(x->cs, "por tree_r_%s (c_index=%zu)", which, i);
    cuzk_status s = cuzk_merkle_por_no_challenge_input(x->cs, CUZK_MERKLE_POSEIDON, sh->arities,
                                                       sh->depth, c_bits, leaf, sib, root);
    cuzk_cs_pop_ns(x->cs);
    return s;
}

/* One challenge, |i|: circuit.rs's loop body. */
static cuzk_status snap_challenge(snap_ctx *x, size_t i)
{
    cuzk_cs *cs = x->cs;
    const cuzk_fil_snap_shape *sh = x->sh;
    unsigned cb = sh->challenge_bits, pb = sh->partition_bits, rb = rand_bits(sh);
    size_t cpd = per_digest(sh), ld = cuzk_fil_snap_path_len_d(sh);
    cuzk_bool c_bits[64];
    for (unsigned t = 0; t < rb; t++)
        c_bits[t] = x->gen[(i / cpd) * CUZK_FR_NUM_BITS + (i % cpd) * rb + t];
    for (unsigned t = 0; t < pb; t++)
        c_bits[rb + t] = x->kbits[t];

    cuzk_num high, rho, leaf_r_old, leaf_d_new, leaf_r_new, sib[7 * CUZK_FIL_TREE_MAX_DEPTH],
        apex_leaf;
    cuzk_cs_push_nsf(cs, "get_challenge_high_bits (c_index=%zu)", i);
    cuzk_status s = challenge_high_bits(cs, &high, sh, c_bits, &x->kbits[pb]);
    cuzk_cs_pop_ns(cs);
    CUZK_TRY(s);
    CUZK_TRY(hash2_circuit(cs, &rho, CUZK_POSEIDON_CUSTOM_1, &x->phi, &high));
    CUZK_TRY(cuzk_num_alloc(cs, &leaf_r_old, x->w ? &x->w->leaves_r_old[i] : NULL));
    CUZK_TRY(cuzk_num_alloc(cs, &leaf_d_new, x->w ? &x->w->leaves_d_new[i] : NULL));
    CUZK_TRY(label_r_new(cs, &leaf_r_new, &leaf_r_old, &leaf_d_new, &rho));

    CUZK_TRY(por_r(x, i, "old", c_bits, &leaf_r_old, WV(paths_r_old), &x->root_r_old));
    CUZK_TRY(por_r(x, i, "new", c_bits, &leaf_r_new, WV(paths_r_new), &x->root_r_new));

    cuzk_num state[SNAP_MAX_APEX];
    memcpy(state, x->apex, sh->apex_leaves * sizeof *state);
    CUZK_TRY(select_leaf(cs, &apex_leaf, state, sh->apex_leaves, &c_bits[cb - pb - sh->apex_bits],
                         sh->apex_bits));
    CUZK_TRY(alloc_nums(cs, sib, ld, x->w ? &x->w->paths_d[i * ld] : NULL));
    cuzk_cs_push_nsf(cs, "por to_apex_leaf (c_index=%zu)", i);
    s = por_d(cs, ld, c_bits, &leaf_d_new, sib, &apex_leaf);
    cuzk_cs_pop_ns(cs);
    return s;
}

/* ---- the apex tree on several threads ------------------------------------------------------ */

/* Whether a row of |hashes| apex hashes runs on threads: only the first (apex_leaves / 2 hashes,
 * 29 % of 8 MiB's constraints, 3.6 % of 32 GiB's), whose fork holds ~1,000 variables. A later
 * row's fork copies, in the modes that evaluate, every value so far (93 MB before the second
 * row at 128 leaves, 0.16 GB before the fourth): measured on the development VM (2 vCPUs,
 * fil-snap:1), splitting the rows of 8 or more hashes too cost 10-30 % more CPU time than it
 * saved. */
static bool apex_level_parallel(const snap_ctx *x, size_t hashes)
{
    return x->threads > 1 && hashes > 1 && hashes == x->sh->apex_leaves / 2 &&
           cuzk_cs_get_mode(x->cs) != CUZK_CS_KEYGEN;
}

typedef struct {
    const cuzk_cs_fork *fork;
    size_t fork_aux;
    const cuzk_num *in; /* the row: 2 * hashes */
    cuzk_num *out;      /* hashes; vars numbered in their range's system */
    size_t *own_aux;    /* aux each range allocated */
    /* The last hash's aux and rows (every hash has the same), reserved by the next ones. */
    size_t hint_aux, hint_rows;
} apex_par;

/* Hash |first| (one a range) into a system continuing the fork, under the namespace the
 * sequential row has. */
static cuzk_status apex_range(void *ctx, cuzk_cs **out, size_t first, size_t count)
{
    apex_par *p = ctx;
    (void)count;
    CUZK_TRY(cuzk__fil_forked_system(out, p->fork, __atomic_load_n(&p->hint_aux, __ATOMIC_RELAXED),
                                     __atomic_load_n(&p->hint_rows, __ATOMIC_RELAXED)));
    cuzk_cs_push_ns(*out, "apex_gadget");
    cuzk_num pre[2] = {p->in[2 * first], p->in[2 * first + 1]};
    cuzk_status s = cuzk_merkle_hash_circuit(*out, &p->out[first], CUZK_MERKLE_SHA256, 2, pre);
    cuzk_cs_pop_ns(*out);
    p->own_aux[first] = cuzk_cs_num_aux(*out) - p->fork_aux;
    __atomic_store_n(&p->hint_aux, p->own_aux[first], __ATOMIC_RELAXED);
    __atomic_store_n(&p->hint_rows, cuzk_cs_num_constraints(*out), __ATOMIC_RELAXED);
    return s;
}

/* One row of the apex tree, |hashes| hash2 of row[2j], row[2j + 1] into row[j], each in a
 * system of its own appended in order; the outputs renumbered as the merge placed them. */
static cuzk_status apex_level_mt(snap_ctx *x, cuzk_num *row, size_t hashes)
{
    cuzk_num in[SNAP_MAX_APEX], out[SNAP_MAX_APEX / 2];
    size_t own_aux[SNAP_MAX_APEX / 2];
    memcpy(in, row, 2 * hashes * sizeof *in);
    cuzk_cs_fork *fork;
    CUZK_TRY(cuzk_cs_fork_create(&fork, x->cs));
    apex_par p = {
        .fork = fork, .fork_aux = cuzk_cs_num_aux(x->cs), .in = in, .out = out, .own_aux = own_aux};
    cuzk_status s = cuzk__fil_synth_ranges(x->cs, hashes, 1, x->threads, (size_t)x->threads + 1,
                                           apex_range, &p, "SnapDeals apex tree");
    cuzk_cs_fork_destroy(fork);
    CUZK_TRY(s);
    /* Range j's own aux a (a >= fork_aux) landed at a - fork_aux + fork_aux + (the aux of the
     * ranges before it). */
    size_t at = p.fork_aux;
    for (size_t j = 0; j < hashes; j++) {
        uint32_t i = cuzk_var_index(out[j].var);
        if (!cuzk_var_is_aux(out[j].var))
            return cuzk_fail(CUZK_ERR_INTERNAL, "SnapDeals apex tree: a hash output is an input");
        if (i >= p.fork_aux)
            out[j].var = cuzk_var_aux((uint32_t)(i - p.fork_aux + at));
        row[j] = out[j];
        at += own_aux[j];
    }
    return at == cuzk_cs_num_aux(x->cs)
               ? CUZK_OK
               : cuzk_fail(CUZK_ERR_INTERNAL, "SnapDeals apex tree: %zu aux merged, %zu counted",
                           cuzk_cs_num_aux(x->cs), at);
}

/* Everything before circuit.rs's per-challenge loop: public inputs, phi, comm_r checks, apex
 * tree and partition path, gen_challenge_bits. */
static cuzk_status snap_prefix(snap_ctx *x, uint64_t k)
{
    cuzk_cs *cs = x->cs;
    const cuzk_fil_snap_shape *sh = x->sh;
    const cuzk_fil_snap_witness *w = x->w;
    unsigned pb = sh->partition_bits, nb = pb + CUZK_FIL_SNAP_NUM_HS;

    /* k_and_h_select = k | h_select << partition_bits, h_select = 1 << (first index of h). */
    uint64_t khs = 0;
    if (w) {
        unsigned idx = 0;
        while (sh->hs[idx] != w->h)
            idx++;
        khs = k | ((uint64_t)1 << idx) << pb;
    }
    cuzk_fr_t v;
    cuzk_fr_set_u64(&v, khs);
    cuzk_num khs_num, partition, comm_r_old, comm_d_new, comm_c, ppath[SNAP_MAX_PARTITION_BITS];
    CUZK_TRY(cuzk_num_alloc(cs, &khs_num, w ? &v : NULL));
    CUZK_TRY(cuzk_num_inputize(cs, &khs_num));
    for (unsigned i = 0; i < nb; i++)
        CUZK_TRY(cuzk_bit_alloc(cs, &x->kbits[i], (khs >> i) & 1));
    /* circuit.rs decomposes k_and_h_select as (sum) * ONE = k_and_h_select. */
    CUZK_TRY(cuzk_multipack_enforce_sum(cs, x->kbits, nb, khs_num.var));
    CUZK_TRY(cuzk_multipack_pack_bits(cs, &partition, x->kbits, pb));

    CUZK_TRY(cuzk_num_alloc(cs, &comm_r_old, w ? &w->comm_r_old : NULL));
    CUZK_TRY(cuzk_num_inputize(cs, &comm_r_old));
    CUZK_TRY(cuzk_num_alloc(cs, &comm_d_new, w ? &w->comm_d_new : NULL));
    CUZK_TRY(cuzk_num_inputize(cs, &comm_d_new));
    CUZK_TRY(cuzk_num_alloc(cs, &x->comm_r_new, w ? &w->comm_r_new : NULL));
    CUZK_TRY(cuzk_num_inputize(cs, &x->comm_r_new));
    CUZK_TRY(hash2_circuit(cs, &x->phi, CUZK_POSEIDON_CUSTOM_1, &comm_d_new, &comm_r_old));

    CUZK_TRY(cuzk_num_alloc(cs, &comm_c, w ? &w->comm_c : NULL));
    CUZK_TRY(cuzk_num_alloc(cs, &x->root_r_old, w ? &w->root_r_old : NULL));
    CUZK_TRY(cuzk_num_alloc(cs, &x->root_r_new, w ? &w->root_r_new : NULL));
    CUZK_TRY(alloc_nums(cs, x->apex, sh->apex_leaves, WV(apex_leaves)));
    CUZK_TRY(alloc_nums(cs, ppath, pb, WV(partition_path)));

    cuzk_num calc;
    CUZK_TRY(hash2_circuit(cs, &calc, CUZK_POSEIDON_MERKLE_TREE, &comm_c, &x->root_r_old));
    CUZK_TRY(cuzk_num_enforce_equal(cs, &calc, &comm_r_old));
    CUZK_TRY(hash2_circuit(cs, &calc, CUZK_POSEIDON_MERKLE_TREE, &comm_c, &x->root_r_new));
    CUZK_TRY(cuzk_num_enforce_equal(cs, &calc, &x->comm_r_new));

    /* apex_por: the apex tree row by row (left to right), then the partition path to comm_d. */
    cuzk_num row[SNAP_MAX_APEX];
    memcpy(row, x->apex, sh->apex_leaves * sizeof *row);
    cuzk_cs_push_ns(cs, "apex_gadget");
    cuzk_status s = CUZK_OK;
    for (size_t n = sh->apex_leaves; n > 1 && s == CUZK_OK; n /= 2) {
        if (apex_level_parallel(x, n / 2)) {
            s = apex_level_mt(x, row, n / 2);
            continue;
        }
        for (size_t j = 0; j < n / 2 && s == CUZK_OK; j++) {
            cuzk_num pre[2] = {row[2 * j], row[2 * j + 1]};
            s = cuzk_merkle_hash_circuit(cs, &row[j], CUZK_MERKLE_SHA256, 2, pre);
        }
    }
    if (s == CUZK_OK)
        s = por_d(cs, pb, x->kbits, &row[0], ppath, &comm_d_new);
    cuzk_cs_pop_ns(cs);
    CUZK_TRY(s);

    /* gen_challenge_bits. */
    size_t dpp = cuzk_fil_snap_digests(sh);
    for (size_t j = 0; j < dpp; j++) {
        cuzk_num idx, digest;
        cuzk_fr_t dv, jv;
        cuzk_fr_set_u64(&dv, dpp);
        cuzk_fr_set_u64(&jv, j);
        cuzk_fr_t iv;
        cuzk_fr_mul(&iv, &partition.value, &dv);
        cuzk_fr_add(&iv, &iv, &jv);
        CUZK_TRY(cuzk_num_alloc(cs, &idx, &iv));
        cuzk_lc *a, *b, *c;
        cuzk_cs_lcs(cs, &a, &b, &c);
        cuzk_lc_add(a, partition.var, &dv);
        if (j > 0)
            cuzk_lc_add_const(a, &jv);
        cuzk_lc_add_one(b);
        cuzk_lc_add_var(c, idx.var);
        CUZK_TRY(cuzk_cs_enforce(cs, a, b, c));
        CUZK_TRY(hash2_circuit(cs, &digest, CUZK_POSEIDON_CUSTOM_1, &x->comm_r_new, &idx));
        CUZK_TRY(le_bits(cs, &x->gen[j * CUZK_FR_NUM_BITS], &digest));
    }
    return CUZK_OK;
}

/* ---- several threads ------------------------------------------------------------------------ */

/* Challenges [first, first + count) into |cs|: the partition's system, or one continuing the
 * prefix's fork, where the prefix's variables (phi, the k and h_select bits, the generated bits,
 * roots, apex leaves) keep their indices. One challenge is 0.9 M constraints at 32 GiB. */
static cuzk_status snap_items(void *ctx, cuzk_cs *cs, size_t first, size_t count)
{
    snap_ctx x = *(const snap_ctx *)ctx;
    x.cs = cs;
    for (size_t i = first; i < first + count; i++)
        CUZK_TRY(snap_challenge(&x, i));
    return CUZK_OK;
}

static cuzk_status snap_check(const cuzk_cs *cs, const cuzk_fil_snap_shape *shape, uint64_t k,
                              const cuzk_fil_snap_witness **w)
{
    if (!cs || !shape || !w || !cuzk__fil_snap_shape_valid(shape))
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "SnapDeals circuit: bad shape");
    if (k >= shape->partitions)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "SnapDeals circuit: partition %llu of %zu",
                         (unsigned long long)k, shape->partitions);
    bool values = cuzk_cs_has_values(cs);
    if (values && !*w)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "SnapDeals circuit: the witness is required");
    if (!values)
        *w = NULL;
    if (*w) {
        bool ok = false;
        for (size_t i = 0; i < CUZK_FIL_SNAP_NUM_HS; i++)
            ok |= shape->hs[i] == (*w)->h;
        if (!ok)
            return cuzk_fail(CUZK_ERR_INVALID_ARG, "SnapDeals circuit: h = %u is not allowed",
                             (*w)->h);
    }
    return CUZK_OK;
}

cuzk_status cuzk_fil_snap_circuit_mt(cuzk_cs *cs, const cuzk_fil_snap_shape *shape, uint64_t k,
                                     const cuzk_fil_snap_witness *w, unsigned threads)
{
    CUZK_TRY(snap_check(cs, shape, k, &w));
    snap_ctx x = {.cs = cs, .sh = shape, .w = w, .threads = threads > 256 ? 256 : threads};
    x.gen = cuzk_alloc_array(cuzk_fil_snap_digests(shape) * CUZK_FR_NUM_BITS, sizeof *x.gen);
    if (!x.gen)
        return cuzk_fail(CUZK_ERR_NOMEM, "SnapDeals circuit: challenge bits");
    cuzk_status s = snap_prefix(&x, k);
    if (s == CUZK_OK)
        s = cuzk__fil_forked_items(cs, shape->challenge_count, x.threads, snap_items, &x,
                                   "SnapDeals");
    cuzk_free(x.gen);
    return s;
}

cuzk_status cuzk_fil_snap_circuit(cuzk_cs *cs, const cuzk_fil_snap_shape *shape, uint64_t k,
                                  const cuzk_fil_snap_witness *w)
{
    return cuzk_fil_snap_circuit_mt(cs, shape, k, w, 1);
}
