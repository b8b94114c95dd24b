/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_R1CS_H
#define CUZK_R1CS_H

/*
 * Rank-1 constraint systems, bellperson-compatible.
 *
 * Variables. Inputs and aux variables are numbered separately, in allocation order. Input 0 is
 * ONE (value 1), allocated by cuzk_cs_create before synthesis. A cuzk_var is a 32-bit handle:
 * bit 31 set = aux, clear = input; bits 0..30 = the index.
 *
 * Linear combinations (cuzk_lc) live in storage owned by the constraint system and recycled
 * between constraints: building an LC never calls the heap once the storage has grown to the
 * largest LC seen. Two kinds:
 *   - scratch LCs: cuzk_cs_lcs() hands out three cleared LCs for the next constraint;
 *     they stay valid until the next cuzk_cs_lcs() call;
 *   - persistent LCs (gadgets that keep an LC across constraints, e.g. num, MultiEq):
 *     cuzk_cs_lc_new() / cuzk_cs_lc_free(), taken from a pool of recycled LC objects.
 * Adding terms never fails visibly: an allocation failure is recorded in the constraint system
 * ("sticky" status) and returned by the next cuzk_cs_enforce / cuzk_cs_alloc_* / cuzk_cs_finalize.
 * In WITNESS mode the LC functions return at once (nothing is stored).
 *
 * A typical constraint in gadget code:
 *
 *     cuzk_lc *a, *b, *c;
 *     cuzk_cs_lcs(cs, &a, &b, &c);
 *     cuzk_lc_add_var(a, x);              // +1 x   (no multiplication)
 *     cuzk_lc_add_var(b, y);
 *     cuzk_lc_add_var(c, z);
 *     CUZK_TRY(cuzk_cs_enforce(cs, a, b, c));   // x * y = z
 *
 * Modes:
 *   PROVE   values required; every constraint's A, B, C are evaluated at the witness into the
 *           vectors a, b, c (Fr, Montgomery) and the density bitmaps are recorded: aux
 *           variables used in A, inputs used in B, aux used in B. A variable counts as used in a
 *           row when its coefficient there (duplicates within one LC summed) is non-zero, as in
 *           bellperson's eval_with_trackers.
 *   CHECK   PROVE plus a test of a*b = c at every constraint; the first failing row and the
 *           namespace path active at that moment are kept (cuzk_cs_is_satisfied).
 *   PROVE_AB PROVE without C: a and b and the bitmaps as PROVE, no c (NULL in the prover data).
 *           A satisfied system has c = a*b row by row, which the Groth16 prover forms where it
 *           needs it (the CUDA H step on the device, the CPU one from a and b), so the C
 *           evaluations (40 % of the terms of a SHA-256 circuit) and one vector of rows are
 *           saved; an unsatisfied witness still gives a proof that fails verification.
 *   WITNESS values required; assignments only, constraints are counted and nothing else.
 *   KEYGEN  values absent (pass NULL); the matrices A, B, C are recorded (cuzk_cs_take_matrices).
 *
 * Finalisation (cuzk_cs_finalize) appends, like bellperson, one constraint per input (ONE
 * included): A = {input_i}, B = C = empty. Rows = constraints + inputs.
 *
 * A constraint system is used by one thread at a time.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/alloc.h"
#include "cuzk/field.h"
#include "cuzk/status.h"
#include "cuzk/threadpool.h"

/* Propagates a non-OK status to the caller (gadget code). */
#ifndef CUZK_TRY
#define CUZK_TRY(expr)                                                                             \
    do {                                                                                           \
        cuzk_status cuzk_try_s_ = (expr);                                                          \
        if (cuzk_try_s_ != CUZK_OK)                                                                \
            return cuzk_try_s_;                                                                    \
    } while (0)
#endif

/* ---- variables ---------------------------------------------------------------------------- */

typedef struct {
    uint32_t id; /* bit 31: aux; bits 0..30: index */
} cuzk_var;

#define CUZK_VAR_AUX_BIT 0x80000000u
#define CUZK_VAR_MAX_INDEX 0x7fffffffu

static inline cuzk_var cuzk_var_input(uint32_t index)
{
    cuzk_var v = {index};
    return v;
}
static inline cuzk_var cuzk_var_aux(uint32_t index)
{
    cuzk_var v = {index | CUZK_VAR_AUX_BIT};
    return v;
}
/* The constant ONE: input 0. */
static inline cuzk_var cuzk_var_one(void)
{
    return cuzk_var_input(0);
}
static inline bool cuzk_var_is_aux(cuzk_var v)
{
    return (v.id & CUZK_VAR_AUX_BIT) != 0;
}
static inline uint32_t cuzk_var_index(cuzk_var v)
{
    return v.id & CUZK_VAR_MAX_INDEX;
}
static inline bool cuzk_var_eq(cuzk_var a, cuzk_var b)
{
    return a.id == b.id;
}

/* ---- the constraint system ---------------------------------------------------------------- */

typedef enum {
    CUZK_CS_PROVE = 0,
    CUZK_CS_CHECK = 1,
    CUZK_CS_WITNESS = 2,
    CUZK_CS_KEYGEN = 3,
    CUZK_CS_PROVE_AB = 4,
} cuzk_cs_mode;

typedef struct cuzk_cs cuzk_cs;
typedef struct cuzk_lc cuzk_lc;

/* Creates an empty constraint system in |mode| with ONE allocated as input 0. The size hints
 * (0 = none) pre-size the assignment and a/b/c vectors to avoid regrowth (an aux hint above 64
 * exactly, as cuzk_cs_reserved then reports it).
 * Returns: CUZK_OK; CUZK_ERR_INVALID_ARG (bad mode); CUZK_ERR_NOMEM. *out is NULL on failure. */
cuzk_status cuzk_cs_create(cuzk_cs **out, cuzk_cs_mode mode, size_t hint_aux,
                           size_t hint_constraints) CUZK_WARN_UNUSED_RESULT;
/* Frees everything the system still owns (assignments are wiped first). NULL is a no-op. */
void cuzk_cs_destroy(cuzk_cs *cs);
/* PROVE / PROVE_AB / CHECK: a, b and c (and the prover data taken from |cs|) live in |va|'s memory
 * (NULL: cuzk_alloc; |va| is copied, its context must outlive the vectors). The reservation of
 * cuzk_cs_create's hint moves there. Only before the first constraint.
 * Returns: CUZK_OK; CUZK_ERR_INVALID_ARG (other mode, constraints exist, alloc without free);
 * CUZK_ERR_NOMEM (the reservation failed; the system is then failed). */
cuzk_status cuzk_cs_set_vec_alloc(cuzk_cs *cs, const cuzk_vec_alloc *va) CUZK_WARN_UNUSED_RESULT;

cuzk_cs_mode cuzk_cs_get_mode(const cuzk_cs *cs);
/* True in PROVE, PROVE_AB, CHECK and WITNESS modes: gadgets must compute and pass values. */
bool cuzk_cs_has_values(const cuzk_cs *cs);
/* True in PROVE, PROVE_AB, CHECK and KEYGEN modes: gadgets may skip building LCs when false. */
bool cuzk_cs_has_constraints(const cuzk_cs *cs);
size_t cuzk_cs_num_inputs(const cuzk_cs *cs); /* ONE included */
size_t cuzk_cs_num_aux(const cuzk_cs *cs);
/* Constraints enforced so far (after finalisation: rows, input constraints included). */
size_t cuzk_cs_num_constraints(const cuzk_cs *cs);
/* How far the system can go without growing its vectors: *|aux| aux variables, counted as
 * cuzk_cs_num_aux counts them (0 in KEYGEN), and *|rows| constraints, counted as
 * cuzk_cs_num_constraints (0 unless a, b, c are evaluated). Either pointer may be NULL. */
void cuzk_cs_reserved(const cuzk_cs *cs, size_t *aux, size_t *rows);
/* The sticky status: CUZK_OK unless something failed since creation. */
cuzk_status cuzk_cs_status(const cuzk_cs *cs) CUZK_WARN_UNUSED_RESULT;

/* Allocates a variable. |value| (Montgomery) is required when cuzk_cs_has_values(), ignored
 * (may be NULL) in KEYGEN. The _bit forms take a 0/1 value.
 * Returns: CUZK_OK; CUZK_ERR_INVALID_ARG (value missing, or more than 2^31 - 1 variables);
 * CUZK_ERR_NOMEM; or the sticky status. */
cuzk_status cuzk_cs_alloc_aux(cuzk_cs *cs, cuzk_var *out,
                              const cuzk_fr_t *value) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_cs_alloc_input(cuzk_cs *cs, cuzk_var *out,
                                const cuzk_fr_t *value) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_cs_alloc_aux_bit(cuzk_cs *cs, cuzk_var *out, bool bit) CUZK_WARN_UNUSED_RESULT;

/* The value of |v| (zero in KEYGEN mode). */
void cuzk_cs_value(const cuzk_cs *cs, cuzk_fr_t *out, cuzk_var v);

/* Namespaces, for messages only (bellperson's cs.namespace): a stack of names. They cost a
 * pointer push in every mode except CHECK, where the formatted name is copied. */
void cuzk_cs_push_ns(cuzk_cs *cs, const char *name);
void cuzk_cs_push_nsf(cuzk_cs *cs, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cuzk_cs_pop_ns(cuzk_cs *cs);

/* ---- linear combinations ------------------------------------------------------------------ */

/* Three cleared scratch LCs for the next constraint; valid until the next call. */
void cuzk_cs_lcs(cuzk_cs *cs, cuzk_lc **a, cuzk_lc **b, cuzk_lc **c);
/* A cleared persistent LC (never NULL: on allocation failure a shared dummy LC that ignores
 * terms is returned and the sticky status is set). Free with cuzk_cs_lc_free. */
cuzk_lc *cuzk_cs_lc_new(cuzk_cs *cs);
/* Returns |lc| to the pool (its storage is kept for reuse). NULL is a no-op. */
void cuzk_cs_lc_free(cuzk_cs *cs, cuzk_lc *lc);

void cuzk_lc_clear(cuzk_lc *lc);
/* lc += coeff * v */
void cuzk_lc_add(cuzk_lc *lc, cuzk_var v, const cuzk_fr_t *coeff);
/* lc += v;  lc -= v  (coefficient +1 / -1, stored without a field element) */
void cuzk_lc_add_var(cuzk_lc *lc, cuzk_var v);
void cuzk_lc_sub_var(cuzk_lc *lc, cuzk_var v);
/* lc += 2^k * v for k < 256 (bit packing); k = 0 is the +1 fast path. */
void cuzk_lc_add_pow2(cuzk_lc *lc, cuzk_var v, unsigned k);
/* lc += coeff * ONE;  lc += ONE */
void cuzk_lc_add_const(cuzk_lc *lc, const cuzk_fr_t *coeff);
void cuzk_lc_add_one(cuzk_lc *lc);
/* dst += src;  dst -= src;  dst += coeff * src.  |dst| and |src| must differ. */
void cuzk_lc_add_lc(cuzk_lc *dst, const cuzk_lc *src);
void cuzk_lc_sub_lc(cuzk_lc *dst, const cuzk_lc *src);
void cuzk_lc_add_lc_scaled(cuzk_lc *dst, const cuzk_lc *src, const cuzk_fr_t *coeff);
/* Terms stored (duplicates not merged). */
size_t cuzk_lc_len(const cuzk_lc *lc);
/* The value of |lc| at the current assignment (zero in KEYGEN and WITNESS modes, where LCs
 * are not stored: gadgets keep their own values). */
void cuzk_lc_eval(const cuzk_lc *lc, cuzk_fr_t *out);

/* Adds the constraint A * B = C. The LCs are read, not consumed (scratch or persistent).
 * Returns: CUZK_OK; CUZK_ERR_NOMEM; or the sticky status. An unsatisfied constraint is not an
 * error here (see CHECK mode / cuzk_cs_is_satisfied). */
cuzk_status cuzk_cs_enforce(cuzk_cs *cs, const cuzk_lc *a, const cuzk_lc *b,
                            const cuzk_lc *c) CUZK_WARN_UNUSED_RESULT;
/* Counts one constraint without LCs, for a mode that keeps none (cuzk_cs_has_constraints false:
 * WITNESS), where cuzk_cs_enforce would ignore them: a hot gadget then skips building three LCs.
 * Returns: as cuzk_cs_enforce; CUZK_ERR_INVALID_ARG in a mode with constraints. */
cuzk_status cuzk_cs_enforce_none(cuzk_cs *cs) CUZK_WARN_UNUSED_RESULT;

/* 2^k in Montgomery form, k < 256 (a shared read-only table). */
const cuzk_fr_t *cuzk_r1cs_pow2(unsigned k);

/*
 * bellperson's extend: appends |src|, synthesised on its own (its input 0 a temporary ONE), to
 * |dst| as if its allocations and constraints had been made in |dst|: src's aux after dst's,
 * src's inputs but its ONE after dst's, src's rows after dst's (a, b, c values and density bits
 * moved to the new indices; ONE's B bit joins dst's). Both in one of the modes with values and
 * no matrices (PROVE, PROVE_AB, CHECK, WITNESS), the same one, neither finalised; |src| is left
 * as it was (destroy it). CHECK: dst's first unsatisfied row may come from src. Lets independent
 * parts of a circuit be synthesised on several threads and merged in order.
 * A forked |src| (cuzk_cs_create_forked) generalises the shared ONE: the fork's variables are
 * dst's own variables of the same indices (dst must be the system the fork was taken from, or
 * one continuing it: the caller's promise; only the counts are checked), they are not copied,
 * and src's density marks on them join dst's; src's own variables follow dst's as above.
 * Returns: CUZK_OK; CUZK_ERR_INVALID_ARG (modes, finalised, dst forked or with fewer variables
 * than src's fork); CUZK_ERR_NOMEM; src's sticky status.
 */
cuzk_status cuzk_cs_extend(cuzk_cs *dst, const cuzk_cs *src) CUZK_WARN_UNUSED_RESULT;

/*
 * Forks: parts of a circuit that use variables allocated before them (a shared prefix) but are
 * otherwise independent, synthesised on several threads. cuzk_cs_fork_create records |parent|'s
 * variable counts and, in the modes that evaluate LCs (PROVE, PROVE_AB, CHECK), a copy of its
 * values (inputs and aux: 32 bytes a variable; WITNESS mode needs and copies none). A system
 * made with cuzk_cs_create_forked continues the fork: same mode, no ONE of its own, its first
 * own variables numbered right after the fork's, and any variable of the fork (ONE included)
 * usable in its LCs under its parent index, its value read from the copy; cuzk_cs_value gives
 * the fork's values (zero in WITNESS mode). Such a system only collects constraints to be
 * appended to the parent with cuzk_cs_extend, which keeps the fork's indices and renumbers the
 * system's own variables, so that the merged parent is bit for bit the system a sequential
 * synthesis gives; it cannot be finalised, forked or extended into. The fork is read-only and
 * may serve many systems on many threads at once; it must outlive them. The parent may change
 * after the fork is taken (ranges are merged into it while others are still synthesised).
 * Returns: CUZK_OK; CUZK_ERR_INVALID_ARG (KEYGEN, finalised, forked parent); CUZK_ERR_NOMEM;
 * the parent's sticky status.
 */
typedef struct cuzk_cs_fork cuzk_cs_fork;
cuzk_status cuzk_cs_fork_create(cuzk_cs_fork **out, const cuzk_cs *parent) CUZK_WARN_UNUSED_RESULT;
/* Wipes the copied values and frees. NULL is a no-op. */
void cuzk_cs_fork_destroy(cuzk_cs_fork *fork);
/* Hints as cuzk_cs_create's (own variables and constraints). */
cuzk_status cuzk_cs_create_forked(cuzk_cs **out, const cuzk_cs_fork *fork, size_t hint_aux,
                                  size_t hint_constraints) CUZK_WARN_UNUSED_RESULT;
/* Writes zeros over the reserved, unused parts of |cs|'s assignment vectors (and of a, b, c
 * unless they come from a cuzk_cs_set_vec_alloc allocator) on |threads| threads, so that the
 * merges that fill them later (cuzk_cs_extend, in order, on one thread) do not stop on page
 * faults. Values and counts are unchanged. */
void cuzk_cs_prefault(cuzk_cs *cs, unsigned threads);

/* Empties a forked system (once cuzk_cs_extend has taken it) for the next part of the same fork:
 * no variables or constraints of its own, no marks, the capacity of its vectors kept, so that a
 * thread synthesising part after part faults its memory in once (a placed system's aux vector is
 * let go instead: see below). The old values stay in the vectors until overwritten
 * (cuzk_cs_destroy wipes them). Returns: CUZK_OK; CUZK_ERR_INVALID_ARG (not forked); the sticky
 * status (a failed system is not reused). */
cuzk_status cuzk_cs_reset_forked(cuzk_cs *cs) CUZK_WARN_UNUSED_RESULT;

/*
 * Places: a forked system |cs| without variables of its own writes its aux values straight into
 * |parent|'s reserved aux vector, at indices at .. at + count - 1 (its place; at >= the fork's
 * aux count, at + count within the reservation, cuzk_cs_reserved). cuzk_cs_extend then finds
 * them where the merge puts them (the place begins at the parent's aux count: no copy) or moves
 * them down (a system before used less than its place). A system that outgrows its place moves
 * its values into memory of its own (cuzk_cs_is_placed turns false) and is merged by a copy. The
 * caller promises that, while |cs| is placed, nothing else writes the place and the parent's
 * vector does not move: merges into |parent| stay within its reservation and below the places of
 * systems still being written (cuzk_cs_unplace those first). |parent| must outlive |cs|'s
 * placement; cuzk_cs_reset_forked and cuzk_cs_destroy let the place go (not freed nor wiped:
 * the parent's). Returns: CUZK_OK; CUZK_ERR_INVALID_ARG (not forked, parent forked, other mode,
 * no values, variables already allocated, place outside the reservation); the sticky status.
 */
cuzk_status cuzk_cs_place_forked(cuzk_cs *cs, cuzk_cs *parent, size_t at,
                                 size_t count) CUZK_WARN_UNUSED_RESULT;
/* True while |cs|'s aux values lie in its place. */
bool cuzk_cs_is_placed(const cuzk_cs *cs);
/* Moves a placed system's values into memory of its own (no-op when not placed). Returns:
 * CUZK_OK; CUZK_ERR_NOMEM (the system is then failed). */
cuzk_status cuzk_cs_unplace(cuzk_cs *cs) CUZK_WARN_UNUSED_RESULT;

/* Appends the input constraints (input_i * 0 = 0 for every input, ONE first). After this no
 * allocation or constraint is accepted. Returns: CUZK_OK; CUZK_ERR_NOMEM; the sticky status;
 * CUZK_ERR_INVALID_ARG when called twice. */
cuzk_status cuzk_cs_finalize(cuzk_cs *cs) CUZK_WARN_UNUSED_RESULT;

/* Satisfaction test, PROVE or CHECK mode (in PROVE mode it walks a, b, c; before or after
 * finalisation; false in the other modes, PROVE_AB included, which keep no c). Returns true when
 * every row has a*b = c; otherwise false, *first_row = the first
 * failing row and *where = "ns/ns/..." of that constraint in CHECK mode (NULL in PROVE mode or
 * when no namespace was active; owned by |cs|). |first_row| and |where| may be NULL. */
bool cuzk_cs_is_satisfied(const cuzk_cs *cs, size_t *first_row, const char **where);

/* ---- outputs ------------------------------------------------------------------------------- */

/*
 * What the Groth16 prover needs. The arrays are owned by this struct after
 * cuzk_cs_take_prover_data / cuzk_pce_eval: a, b and c in |abc_alloc|'s memory (zeroed: cuzk_alloc;
 * see cuzk_cs_set_vec_alloc), the others from cuzk_alloc. A consumer may free a/b/c early
 * (cuzk_prover_data_release_abc, e.g. after the NTT) or another array with cuzk_free, setting it
 * to NULL. Bitmaps: bit i of word i/64.
 */
typedef struct {
    size_t n_inputs; /* ONE included */
    size_t n_aux;
    size_t n_constraints;      /* without the input constraints */
    size_t n_rows;             /* n_constraints + n_inputs */
    cuzk_fr_t *input;          /* n_inputs values, input[0] = 1 */
    cuzk_fr_t *aux;            /* n_aux values */
    cuzk_fr_t *a, *b, *c;      /* n_rows each; NULL in WITNESS mode (c: also PROVE_AB) */
    uint64_t *a_aux_density;   /* n_aux bits: aux used in A */
    uint64_t *b_input_density; /* n_inputs bits: input used in B */
    uint64_t *b_aux_density;   /* n_aux bits: aux used in B */
    size_t a_aux_popcount, b_input_popcount, b_aux_popcount;
    cuzk_vec_alloc abc_alloc; /* where a, b, c live; must outlive them */
    size_t abc_cap;           /* entries allocated in each of a, b, c (>= n_rows) */
} cuzk_prover_data;

/* Moves the outputs of a finalised PROVE/PROVE_AB/CHECK/WITNESS system into |out| (WITNESS:
 * assignments only, other arrays NULL; PROVE_AB: c NULL). The system keeps its counts but no longer
 * owns the arrays. Returns: CUZK_OK; CUZK_ERR_INVALID_ARG (wrong mode, not finalised, already
 * taken). */
cuzk_status cuzk_cs_take_prover_data(cuzk_cs *cs, cuzk_prover_data *out) CUZK_WARN_UNUSED_RESULT;
/* Wipes the assignments and frees every non-NULL array; zeroes the struct. NULL is a no-op. */
void cuzk_prover_data_free(cuzk_prover_data *pd);
/* The same with the large wipes on |pool| (NULL: this thread): a PoRep partition's aux vector is
 * 4 GiB (0.6-0.75 s of one thread's memset on the development VM), which a prover worker should
 * not spend alone between proofs. */
void cuzk_prover_data_free_on(cuzk_prover_data *pd, cuzk_pool *pool);
/* Frees a, b and c (consumed: not wiped) through pd->abc_alloc and sets them to NULL. */
void cuzk_prover_data_release_abc(cuzk_prover_data *pd);

/* One sparse matrix in CSR form: row r holds entries row_ptr[r] .. row_ptr[r+1]-1, columns
 * ascending, no duplicates, no zero coefficients. Column = input index for inputs, then
 * n_inputs + aux index for aux. */
typedef struct {
    uint64_t *row_ptr; /* n_rows + 1 */
    uint32_t *col;     /* nnz */
    cuzk_fr_t *coeff;  /* nnz, Montgomery */
    uint64_t nnz;
} cuzk_csr;

typedef struct {
    size_t n_inputs, n_aux, n_constraints, n_rows;
    cuzk_csr a, b, c;
} cuzk_r1cs_matrices;

/* Moves the matrices of a finalised KEYGEN system into |out| (arrays from cuzk_alloc).
 * Returns: CUZK_OK; CUZK_ERR_INVALID_ARG (wrong mode, not finalised, already taken);
 * CUZK_ERR_NOMEM. */
cuzk_status cuzk_cs_take_matrices(cuzk_cs *cs, cuzk_r1cs_matrices *out) CUZK_WARN_UNUSED_RESULT;
void cuzk_r1cs_matrices_free(cuzk_r1cs_matrices *m);

/* ---- circuits ------------------------------------------------------------------------------ */

/* Parsed parameters of a built-in circuit: "name" or "name:ARG". |seed| selects the (random,
 * deterministic) private inputs a circuit invents for benchmarks and tests. */
typedef struct {
    uint64_t arg;
    uint64_t seed;
    /* A circuit's own witness source, NULL = invent one from |seed|; "fil-post" takes a
     * cuzk_fil_post_partition (src/filecoin/post_circuit.h) of RegisteredPoStProof |arg|. */
    const void *data;
    /* Threads a circuit may synthesise on (independent parts merged with cuzk_cs_extend);
     * 0 or 1 = the caller's thread only. "fil-post" and "fil-snap" use more. */
    unsigned threads;
} cuzk_circuit_params;

/* Synthesises into |cs| (any mode); |params| points at a cuzk_circuit_params. */
typedef cuzk_status (*cuzk_circuit_fn)(cuzk_cs *cs, const void *params);

typedef struct {
    const char *name;        /* registry name, e.g. "sha256-chain" */
    const char *description; /* one line about the family and what ARG means */
    cuzk_circuit_fn synth;
    cuzk_circuit_params params;
} cuzk_circuit;

/* Looks up |spec| = "NAME" or "NAME:ARG" (decimal) in the built-in registry; params.seed = 0.
 * Returns: CUZK_OK; CUZK_ERR_INVALID_ARG for an unknown name, a malformed ARG or one outside the
 * circuit's range (message via cuzk_last_error). */
cuzk_status cuzk_circuit_find(const char *spec, cuzk_circuit *out) CUZK_WARN_UNUSED_RESULT;
/* Registry enumeration (for --help / --list): the |i|-th entry, NULL past the end. */
const char *cuzk_circuit_registry_name(size_t i);
const char *cuzk_circuit_registry_description(size_t i);

/* Runs |circuit| in |cs|, then cuzk_cs_finalize. */
cuzk_status cuzk_circuit_synthesize(cuzk_cs *cs,
                                    const cuzk_circuit *circuit) CUZK_WARN_UNUSED_RESULT;

/* ---- PCE: pre-compiled constraint evaluation ---------------------------------------------- */

/*
 * The matrices of a circuit extracted once (KEYGEN synthesis), kept in CSR with u32 columns;
 * coefficients +1 and -1 are stored apart from general ones (no field element, no
 * multiplication), general coefficients as u32 indices into one table of distinct values,
 * together with the densities (which depend on the structure only). Proving then needs only a
 * WITNESS synthesis plus cuzk_pce_eval, which gives a, b, c and densities bit-identical to the
 * PROVE path. Immutable after creation: cuzk_pce_eval may run concurrently on one PCE.
 */
typedef struct cuzk_pce cuzk_pce;

/* Runs |circuit| in KEYGEN mode and compiles the matrices. Returns: CUZK_OK; CUZK_ERR_NOMEM;
 * any status of the synthesis. */
cuzk_status cuzk_pce_extract(cuzk_pce **out, const cuzk_circuit *circuit) CUZK_WARN_UNUSED_RESULT;
/* The same, giving up with CUZK_ERR_CANCELLED within 4096 constraints of *cancel (read
 * atomically) turning non-zero; |cancel| NULL: cuzk_pce_extract. */
cuzk_status cuzk_pce_extract_cancellable(cuzk_pce **out, const cuzk_circuit *circuit,
                                         const int *cancel) CUZK_WARN_UNUSED_RESULT;
/* Compiles matrices already recorded (borrowed). */
cuzk_status cuzk_pce_from_matrices(cuzk_pce **out,
                                   const cuzk_r1cs_matrices *m) CUZK_WARN_UNUSED_RESULT;
void cuzk_pce_destroy(cuzk_pce *pce);

size_t cuzk_pce_num_inputs(const cuzk_pce *pce);
size_t cuzk_pce_num_aux(const cuzk_pce *pce);
size_t cuzk_pce_num_constraints(const cuzk_pce *pce); /* without input constraints */
size_t cuzk_pce_num_rows(const cuzk_pce *pce);
/* Non-zeros of matrix 0 = A, 1 = B, 2 = C (all coefficient kinds). */
uint64_t cuzk_pce_nnz(const cuzk_pce *pce, unsigned matrix);
/* Bytes the PCE holds in memory. */
uint64_t cuzk_pce_memory_bytes(const cuzk_pce *pce);

/* Disk format "CUZKPCE1" (little-endian, versioned, checksummed; see src/r1cs/pce_io.c).
 * Returns: CUZK_OK; CUZK_ERR_IO (open/read/write failure); CUZK_ERR_FORMAT (bad magic, version,
 * sizes, truncated file, checksum mismatch, column out of range); CUZK_ERR_NOMEM. */
cuzk_status cuzk_pce_save(const cuzk_pce *pce, const char *path) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_pce_load(cuzk_pce **out, const char *path) CUZK_WARN_UNUSED_RESULT;

/* a, b, c = A·z, B·z, C·z with z = (input, aux), by a sparse matrix-vector product over |pool|
 * (NULL: serial). Fills |out| completely: copies of the assignments, a/b/c, densities.
 * |input|, |n_inputs|, |aux|, |n_aux| must match the PCE (e.g. from a WITNESS synthesis).
 * Returns: CUZK_OK; CUZK_ERR_INVALID_ARG (size mismatch); CUZK_ERR_NOMEM. */
cuzk_status cuzk_pce_eval(const cuzk_pce *pce, cuzk_pool *pool, const cuzk_fr_t *input,
                          size_t n_inputs, const cuzk_fr_t *aux, size_t n_aux,
                          cuzk_prover_data *out) CUZK_WARN_UNUSED_RESULT;

/* Same, taking ownership of the assignments in |witness| (from cuzk_cs_take_prover_data in
 * WITNESS mode) and filling a, b, c (in witness->abc_alloc's memory, which the caller may set
 * first) and the densities in place. A witness->abc_cap set above the row count first reserves
 * that many entries in each vector (a prover then pads them to its domain in place). */
cuzk_status cuzk_pce_eval_into(const cuzk_pce *pce, cuzk_pool *pool,
                               cuzk_prover_data *witness) CUZK_WARN_UNUSED_RESULT;
/* cuzk_pce_eval_into without C: a, b and the densities, witness->c left NULL (what PROVE_AB
 * synthesis gives; for a prover that forms c = a * b, such as a CUDA backend's). */
cuzk_status cuzk_pce_eval_ab_into(const cuzk_pce *pce, cuzk_pool *pool,
                                  cuzk_prover_data *witness) CUZK_WARN_UNUSED_RESULT;

#endif
