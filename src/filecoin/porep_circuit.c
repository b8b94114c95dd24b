/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The PoRep C2 (StackedDrg) circuit. Written from rust-fil-proofs storage-proofs-porep
 * src/stacked/circuit/{proof.rs,params.rs,column.rs,column_proof.rs,hash.rs} and
 * storage-proofs-core src/gadgets/{por.rs,uint64.rs,encode.rs,constraint.rs} (facts only; no code
 * copied).
 */
#include "filecoin/porep_circuit.h"

#include "filecoin/post_circuit.h"

#include "cuzk/alloc.h"
#include "gadgets/merkle.h"
#include "gadgets/multipack.h"
#include "gadgets/poseidon_circuit.h"

#include <string.h>

/* Constraints of the gadgets the model adds up (filecoin-circuits.md 4.7). */
#define POREP_SHA_LEVEL 45382u /* tree D level: index bit, insert_2, hash2 */
#define POREP_LABEL 522269u    /* create_label: 20 SHA-256 blocks + pack */

const cuzk_fil_porep_shape *cuzk__fil_porep_test_shape;

cuzk_status cuzk_fil_porep_shape_get(cuzk_fil_porep_shape *out, uint64_t seal_proof_type)
{
    if (seal_proof_type == 0 && cuzk__fil_porep_test_shape) {
        *out = *cuzk__fil_porep_test_shape;
        return CUZK_OK;
    }
    memset(out, 0, sizeof *out);
    uint64_t size;
    CUZK_TRY(cuzk_fil_seal_sector_size(&size, seal_proof_type));
    bool big = size >= (32ull << 30);
    out->seal_proof_type = seal_proof_type;
    out->sector_size = size;
    out->nodes = size / 32;
    out->node_bits = (unsigned)__builtin_ctzll(out->nodes);
    /* filecoin-proofs constants.rs (filecoin-circuits.md 1.1): 11 layers, 10 partitions of 18
     * challenges at 32/64 GiB; 2 layers, 1 partition of 2 challenges below. Non-interactive
     * PoRep (ids 15-19) keeps the challenges per partition and has 13 / 126 partitions. */
    out->layers = big ? 11 : 2;
    out->challenges = big ? 18 : 2;
    out->partitions = seal_proof_type >= 15 ? (big ? 126 : 13) : (big ? 10 : 1);
    return cuzk_fil_tree_r_shape(out->arities, &out->depth, size);
}

static unsigned log2_arity(size_t a)
{
    return a == 2 ? 1 : a == 4 ? 2 : a == 8 ? 3 : 0;
}

bool cuzk__fil_porep_shape_valid(const cuzk_fil_porep_shape *sh)
{
    if (sh->layers != 2 && sh->layers != 11)
        return false;
    if (sh->challenges == 0 || sh->node_bits == 0 || sh->node_bits > 62 ||
        sh->nodes != (uint64_t)1 << sh->node_bits)
        return false;
    if (sh->depth == 0 || sh->depth > CUZK_FIL_TREE_MAX_DEPTH)
        return false;
    unsigned bits = 0;
    for (size_t l = 0; l < sh->depth; l++) {
        if (!log2_arity(sh->arities[l]))
            return false;
        bits += log2_arity(sh->arities[l]);
    }
    return bits == sh->node_bits;
}

size_t cuzk_fil_porep_path_len(const cuzk_fil_porep_shape *sh)
{
    return cuzk_merkle_path_len(sh->arities, sh->depth);
}

size_t cuzk_fil_porep_num_inputs(const cuzk_fil_porep_shape *sh)
{
    return 3 + 18 * sh->challenges;
}

static size_t poseidon_cost(size_t arity)
{
    /* neptune legacy circuit: 3 (t R_F + R_P - 1) + (t R_F + R_P - arity), R_F = 8 (4.7). */
    size_t t = arity + 1, rp = arity <= 2 ? 55 : arity <= 6 ? 56 : arity <= 14 ? 57 : 59;
    return 3 * (t * 8 + rp - 1) + (t * 8 + rp - arity);
}

size_t cuzk_fil_porep_model_constraints(const cuzk_fil_porep_shape *sh)
{
    size_t pc = 2;
    for (size_t l = 0; l < sh->depth; l++) {
        size_t a = sh->arities[l];
        pc += log2_arity(a) + (a == 8 ? 22 : a == 4 ? 8 : 2) + poseidon_cost(a);
    }
    size_t colh = poseidon_cost(sh->layers), L = sh->layers;
    size_t per = (sh->node_bits * POREP_SHA_LEVEL + 2) + CUZK_FIL_POREP_PARENTS * (colh + pc) + 65 +
                 (CUZK_FIL_POREP_DRG_PARENTS + (L - 1) * CUZK_FIL_POREP_PARENTS) * 256 +
                 L * POREP_LABEL + 1 + pc + colh + pc;
    return 571 + sh->challenges * per;
}

void cuzk_fil_porep_public_inputs(cuzk_fr_t *out, const cuzk_fil_porep_shape *sh,
                                  const cuzk_fil_porep_witness *w)
{
    /* proof.rs generate_public_inputs: every PoR input is Fr::from(leaf index). */
    out[0] = w->replica_id;
    out[1] = w->comm_d;
    out[2] = w->comm_r;
    size_t o = 3;
    for (size_t i = 0; i < sh->challenges; i++) {
        uint64_t c = w->challenges[i];
        cuzk_fr_set_u64(&out[o++], c);
        for (size_t j = 0; j < CUZK_FIL_POREP_PARENTS; j++)
            cuzk_fr_set_u64(&out[o++], w->parents[i * CUZK_FIL_POREP_PARENTS + j]);
        cuzk_fr_set_u64(&out[o++], c);
        cuzk_fr_set_u64(&out[o++], c);
        cuzk_fr_set_u64(&out[o++], c);
    }
}

/* ---- gadgets -------------------------------------------------------------------------------- */

/* reverse_bit_numbering(to_bits_le(n)): 255 allocated bits (256 constraints), padded with a
 * constant 0 to 256, each byte's bits reversed. */
static cuzk_status bits_be_bytes(cuzk_cs *cs, cuzk_bool out[256], const cuzk_num *n)
{
    cuzk_bool le[CUZK_FR_NUM_BITS];
    CUZK_TRY(cuzk_num_to_bits_le(cs, le, n));
    for (size_t j = 0; j < 256; j++) {
        size_t src = (j & ~(size_t)7) + (7 - (j & 7));
        out[j] = src < CUZK_FR_NUM_BITS ? le[src] : cuzk_bool_const(false);
    }
    return CUZK_OK;
}

/* PoRCircuit::synthesize with Root::Var leaf and root, private (params.rs enforce_inclusion): per
 * level allocate log2(arity) index bits of |index| and arity - 1 siblings, insert, hash; then
 * pack_into_inputs(path bits) and computed * 1 = root. */
static cuzk_status por_var(cuzk_cs *cs, cuzk_merkle_hash hash, const size_t *arities, size_t depth,
                           const cuzk_num *leaf, uint64_t index, const cuzk_fr_t *siblings,
                           const cuzk_num *root)
{
    cuzk_bool bits[64];
    cuzk_num cur = *leaf, sib[7], pre[8];
    size_t k = 0, off = 0;
    for (size_t l = 0; l < depth; l++) {
        size_t a = arities[l];
        unsigned lb = log2_arity(a);
        for (unsigned i = 0; i < lb; i++, k++)
            CUZK_TRY(cuzk_bit_alloc(cs, &bits[k], (index >> k) & 1));
        for (size_t j = 0; j < a - 1; j++)
            CUZK_TRY(cuzk_num_alloc(cs, &sib[j], siblings ? &siblings[off + j] : NULL));
        off += a - 1;
        CUZK_TRY(cuzk_merkle_insert(cs, pre, a, &cur, &bits[k - lb], sib));
        CUZK_TRY(cuzk_merkle_hash_circuit(cs, &cur, hash, a, pre));
    }
    CUZK_TRY(cuzk_multipack_pack_into_inputs(cs, bits, k));
    return cuzk_num_enforce_equal(cs, &cur, root);
}

/* ---- the circuit ---------------------------------------------------------------------------- */

typedef struct {
    cuzk_cs *cs;
    const cuzk_fil_porep_shape *sh;
    const cuzk_fil_porep_witness *w; /* NULL: no values */
    const cuzk_poseidon_constants *colh;
    cuzk_bool replica_id_bits[256];
    cuzk_num comm_d, comm_c, comm_r_last;
    size_t twos[64];
    cuzk_num *cols;         /* 14 * layers parent rows */
    cuzk_bool *parent_bits; /* 14 * 256 */
    cuzk_bool *msg;         /* CUZK_FIL_POREP_LABEL_BITS */
} porep_ctx;

static cuzk_status alloc_column(porep_ctx *x, cuzk_num *rows, const cuzk_fr_t *values)
{
    for (size_t l = 0; l < x->sh->layers; l++)
        CUZK_TRY(cuzk_num_alloc(x->cs, &rows[l], values ? &values[l] : NULL));
    return CUZK_OK;
}

/* One challenge, |i|: params.rs Proof::synthesize. */
static cuzk_status porep_challenge(porep_ctx *x, size_t i)
{
    cuzk_cs *cs = x->cs;
    const cuzk_fil_porep_shape *sh = x->sh;
    const cuzk_fil_porep_witness *w = x->w;
    size_t L = sh->layers, lp = cuzk_fil_porep_path_len(sh), P = CUZK_FIL_POREP_PARENTS;
    uint64_t c = w ? w->challenges[i] : 0;

    /* Tree D: the data leaf under comm_d. */
    cuzk_num data;
    CUZK_TRY(cuzk_num_alloc(cs, &data, w ? &w->data_leaves[i] : NULL));
    cuzk_cs_push_nsf(cs, "comm_d_inclusion (challenge %zu)", i);
    cuzk_status s = por_var(cs, CUZK_MERKLE_SHA256, x->twos, sh->node_bits, &data, c,
                            w ? &w->paths_d[i * sh->node_bits] : NULL, &x->comm_d);
    cuzk_cs_pop_ns(cs);
    CUZK_TRY(s);

    /* Parent columns: rows, column hash, inclusion in tree C (DRG, then expander). */
    for (size_t j = 0; j < P; j++) {
        cuzk_num *rows = &x->cols[j * L], h;
        CUZK_TRY(alloc_column(x, rows, w ? &w->parent_rows[(i * P + j) * L] : NULL));
        CUZK_TRY(cuzk_poseidon_circuit_hash(cs, &h, x->colh, rows));
        cuzk_cs_push_nsf(cs, "parent_%zu_inclusion (challenge %zu)", j, i);
        s = por_var(cs, CUZK_MERKLE_POSEIDON, sh->arities, sh->depth, &h,
                    w ? w->parents[i * P + j] : 0, w ? &w->parent_paths[(i * P + j) * lp] : NULL,
                    &x->comm_c);
        cuzk_cs_pop_ns(cs);
        CUZK_TRY(s);
    }

    /* The challenge as UInt64: 64 allocated bits, packed into one input. */
    cuzk_bool node_bits[64];
    for (size_t b = 0; b < 64; b++)
        CUZK_TRY(cuzk_bit_alloc(cs, &node_bits[b], (c >> b) & 1));
    CUZK_TRY(cuzk_multipack_pack_into_inputs(cs, node_bits, 64));

    /* Labels, layer by layer. */
    cuzk_num labels[CUZK_FIL_POREP_MAX_LAYERS];
    for (size_t layer = 1; layer <= L; layer++) {
        size_t np = layer == 1 ? CUZK_FIL_POREP_DRG_PARENTS : P;
        cuzk_cs_push_nsf(cs, "labeling_%zu (challenge %zu)", layer, i);
        for (size_t j = 0; j < np && s == CUZK_OK; j++) {
            /* DRG parents at this layer, expander parents at the one before. */
            size_t row = j < CUZK_FIL_POREP_DRG_PARENTS ? layer - 1 : layer - 2;
            s = bits_be_bytes(cs, &x->parent_bits[j * 256], &x->cols[j * L + row]);
        }
        const cuzk_bool *exp[CUZK_FIL_POREP_TOTAL_PARENTS];
        for (size_t j = 0; j < CUZK_FIL_POREP_TOTAL_PARENTS; j++) {
            size_t e = layer == 1 ? (j < 36 ? j % CUZK_FIL_POREP_DRG_PARENTS : 0) : j % P;
            exp[j] = &x->parent_bits[e * 256];
        }
        if (s == CUZK_OK)
            s = cuzk__fil_porep_create_label_circuit(cs, &labels[layer - 1], x->replica_id_bits,
                                                     exp, (uint32_t)layer, node_bits, x->msg);
        cuzk_cs_pop_ns(cs);
        CUZK_TRY(s);
    }

    /* Encoding: key (last label) + data, (key + data) * 1 = encoded; inclusion in tree R_last. */
    cuzk_num enc;
    cuzk_fr_t ev;
    cuzk_fr_add(&ev, &labels[L - 1].value, &data.value);
    CUZK_TRY(cuzk_num_alloc(cs, &enc, &ev));
    cuzk_lc *a, *b, *cc;
    cuzk_cs_lcs(cs, &a, &b, &cc);
    cuzk_lc_add_var(a, labels[L - 1].var);
    cuzk_lc_add_var(a, data.var);
    cuzk_lc_add_one(b);
    cuzk_lc_add_var(cc, enc.var);
    CUZK_TRY(cuzk_cs_enforce(cs, a, b, cc));
    cuzk_cs_push_nsf(cs, "comm_r_last_data_inclusion (challenge %zu)", i);
    s = por_var(cs, CUZK_MERKLE_POSEIDON, sh->arities, sh->depth, &enc, c,
                w ? &w->paths_r[i * lp] : NULL, &x->comm_r_last);
    cuzk_cs_pop_ns(cs);
    CUZK_TRY(s);

    /* The challenged node's column hash in tree C. */
    cuzk_num h;
    CUZK_TRY(cuzk_poseidon_circuit_hash(cs, &h, x->colh, labels));
    cuzk_cs_push_nsf(cs, "c_x_inclusion (challenge %zu)", i);
    s = por_var(cs, CUZK_MERKLE_POSEIDON, sh->arities, sh->depth, &h, c,
                w ? &w->paths_c[i * lp] : NULL, &x->comm_c);
    cuzk_cs_pop_ns(cs);
    return s;
}

/* Scratch of one run of challenges: its columns, parent bits and label message. */
static cuzk_status scratch_alloc(porep_ctx *x)
{
    x->cols = cuzk_alloc_array(CUZK_FIL_POREP_PARENTS * x->sh->layers, sizeof *x->cols);
    x->parent_bits = cuzk_alloc_array(CUZK_FIL_POREP_PARENTS * 256, sizeof *x->parent_bits);
    x->msg = cuzk_alloc_array(CUZK_FIL_POREP_LABEL_BITS, sizeof *x->msg);
    if (x->cols && x->parent_bits && x->msg)
        return CUZK_OK;
    return cuzk_fail(CUZK_ERR_NOMEM, "PoRep circuit: scratch");
}

static void scratch_free(porep_ctx *x)
{
    cuzk_free(x->cols);
    cuzk_free(x->parent_bits);
    cuzk_free(x->msg);
    x->cols = NULL;
    x->parent_bits = NULL;
    x->msg = NULL;
}

/* Challenges [first, first + count) into |cs|: the partition's system, or one continuing the
 * prefix's fork, where replica_id's bits, comm_d, comm_c and comm_r_last keep their indices;
 * scratch of its own (7.2 M constraints a challenge at 32 GiB after a 571-constraint prefix). */
static cuzk_status porep_items(void *ctx, cuzk_cs *cs, size_t first, size_t count)
{
    porep_ctx x = *(const porep_ctx *)ctx;
    x.cs = cs;
    cuzk_status s = scratch_alloc(&x);
    for (size_t i = first; s == CUZK_OK && i < first + count; i++)
        s = porep_challenge(&x, i);
    scratch_free(&x);
    return s;
}

static cuzk_status porep_body(porep_ctx *x, unsigned threads)
{
    cuzk_cs *cs = x->cs;
    const cuzk_fil_porep_witness *w = x->w;
    cuzk_num replica_id, comm_r, calc;

    CUZK_TRY(cuzk_num_alloc(cs, &replica_id, w ? &w->replica_id : NULL));
    CUZK_TRY(cuzk_num_inputize(cs, &replica_id));
    CUZK_TRY(bits_be_bytes(cs, x->replica_id_bits, &replica_id));
    CUZK_TRY(cuzk_num_alloc(cs, &x->comm_d, w ? &w->comm_d : NULL));
    CUZK_TRY(cuzk_num_inputize(cs, &x->comm_d));
    CUZK_TRY(cuzk_num_alloc(cs, &comm_r, w ? &w->comm_r : NULL));
    CUZK_TRY(cuzk_num_inputize(cs, &comm_r));
    CUZK_TRY(cuzk_num_alloc(cs, &x->comm_r_last, w ? &w->comm_r_last : NULL));
    CUZK_TRY(cuzk_num_alloc(cs, &x->comm_c, w ? &w->comm_c : NULL));

    /* comm_r = H(comm_c, comm_r_last), enforced as comm_r * 1 = hash. */
    const cuzk_poseidon_constants *p2 = cuzk_poseidon_constants_get(2, CUZK_POSEIDON_MERKLE_TREE);
    if (!p2)
        return cuzk_fail(CUZK_ERR_NOMEM, "Poseidon-2 constants: %s", cuzk_last_error());
    cuzk_num pre[2] = {x->comm_c, x->comm_r_last};
    CUZK_TRY(cuzk_poseidon_circuit_hash(cs, &calc, p2, pre));
    CUZK_TRY(cuzk_num_enforce_equal(cs, &comm_r, &calc));

    return cuzk__fil_forked_items(cs, x->sh->challenges, threads, porep_items, x, "PoRep");
}

cuzk_status cuzk_fil_porep_circuit_mt(cuzk_cs *cs, const cuzk_fil_porep_shape *shape,
                                      const cuzk_fil_porep_witness *w, unsigned threads)
{
    if (!cs || !shape || !cuzk__fil_porep_shape_valid(shape))
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "PoRep circuit: bad shape");
    bool values = cuzk_cs_has_values(cs);
    if (values && !w)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "PoRep circuit: the witness is required");
    if (!values)
        w = NULL;
    porep_ctx x = {.cs = cs, .sh = shape, .w = w};
    x.colh = cuzk_poseidon_constants_get(shape->layers, CUZK_POSEIDON_MERKLE_TREE);
    if (!x.colh)
        return cuzk_fail(CUZK_ERR_NOMEM, "Poseidon-%zu constants: %s", shape->layers,
                         cuzk_last_error());
    for (size_t l = 0; l < 64; l++)
        x.twos[l] = 2;
    return porep_body(&x, threads > 256 ? 256 : threads);
}

cuzk_status cuzk_fil_porep_circuit(cuzk_cs *cs, const cuzk_fil_porep_shape *shape,
                                   const cuzk_fil_porep_witness *w)
{
    return cuzk_fil_porep_circuit_mt(cs, shape, w, 1);
}
