/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_R1CS_CS_INTERNAL_H
#define CUZK_R1CS_CS_INTERNAL_H

/* Internals of the constraint system shared by the files of src/r1cs. */

#include "cuzk/r1cs.h"
#include "r1cs/pce_internal.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * LC storage layout (DESIGN.md: the layout decides synthesis speed; measured in
 * docs/PERFORMANCE.md, "Synthesis (issue 3)"):
 *   0 = AoS, naive (measurement only): every term a {var, coefficient} pair, +-1 included, and
 *       one field multiplication per term when evaluating (bellperson's representation);
 *   1 = AoS: one array of {var, kind, coefficient} terms (40 bytes each), +-1 terms flagged
 *       and added without multiplication;
 *   2 = SoA: separate lists of +1 variables, -1 variables and (variable, coefficient) pairs,
 *       so unit terms cost 4 bytes and never touch a field element.
 */
#ifndef CUZK_LC_LAYOUT
#define CUZK_LC_LAYOUT 2
#endif

enum { LC_POS = 0, LC_NEG = 1, LC_GEN = 2 };

typedef struct {
    uint32_t id;   /* cuzk_var.id */
    uint32_t kind; /* LC_POS, LC_NEG, LC_GEN */
    cuzk_fr_t coeff;
} lc_term;

/* A read-only view of one term, whatever the layout (coeff NULL for unit terms). */
typedef struct {
    uint32_t id;
    uint32_t kind;
    const cuzk_fr_t *coeff;
} lc_view;

struct cuzk_lc {
    cuzk_cs *cs;
    bool off;    /* drop every term (WITNESS mode, or the out-of-memory dummy) */
    bool in_use; /* persistent LC handed out by cuzk_cs_lc_new */
    cuzk_lc *next_free;
#if CUZK_LC_LAYOUT <= 1
    lc_term *t;
    uint32_t len, cap;
#else
    uint32_t *pos, *neg, *gid;
    cuzk_fr_t *gco;
    uint32_t npos, nneg, ngen;
    uint32_t cap_pos, cap_neg, cap_gen;
#endif
};

typedef struct {
    cuzk_fr_t *v;
    size_t len, cap;
    bool placed; /* |v| lies in another system's vector (cuzk_cs_place_forked): not ours to free */
} frvec;

typedef struct {
    uint64_t *w;
    size_t words; /* allocated words (bits beyond the variable count are zero) */
    size_t pop;
} bitvec;

/* One matrix being recorded in KEYGEN mode: terms of row r at row_ptr[r] .. row_ptr[r+1]-1,
 * ids are cuzk_var ids (turned into columns when the matrices are taken). */
typedef struct {
    uint64_t *row_ptr;
    size_t rows_cap;
    uint32_t *id;
    cuzk_fr_t *coeff; /* NULL when compact */
    uint32_t *cidx;   /* compact: cs->kg_coeffs index or CUZK__COEFF_ONE / _MINUS_ONE */
    size_t nnz, nnz_cap;
} kg_matrix;

struct cuzk_cs {
    cuzk_cs_mode mode;
    bool values;      /* assignments kept (PROVE, PROVE_AB, CHECK, WITNESS) */
    bool constraints; /* LCs built (PROVE, PROVE_AB, CHECK, KEYGEN) */
    bool evaluate;    /* a, b (and c) computed (PROVE, PROVE_AB, CHECK) */
    bool no_c;        /* PROVE_AB: c neither computed nor allocated */
    bool finalized, taken;
    cuzk_status sticky;

    size_t n_inputs, n_aux, n_constraints;
    size_t rows_hint; /* a, b, c reserved at creation */
    frvec input, aux;
    frvec a, b, c;         /* in abc_va's memory */
    cuzk_vec_alloc abc_va; /* zeroed: cuzk_alloc (cuzk_cs_set_vec_alloc) */
    bitvec a_aux, b_in, b_aux;
    kg_matrix m[3];
    /* KEYGEN for a PCE (cuzk_pce_extract): coefficients recorded as indices into kg_coeffs
     * (8 bytes a non-zero with the id instead of 36); kg_tmp holds one row's merged values. */
    bool kg_compact;
    const int *kg_cancel; /* non-zero (read atomically): stop at the next 4096th row */
    cuzk__coeff_table kg_coeffs;
    cuzk_fr_t *kg_tmp;
    size_t kg_tmp_cap;

    cuzk_lc scratch[3];
    cuzk_lc dummy;
    cuzk_lc *free_list;
    cuzk_lc **pool;
    size_t pool_len, pool_cap;

    lc_view *views; /* scratch for density / keygen merging */
    size_t views_cap;

    /* Namespaces: depth always; names only in CHECK mode ("a/b/c" with marks for pop). */
    size_t ns_depth;
    char *ns_buf;
    size_t ns_len, ns_cap;
    size_t *ns_marks;
    size_t ns_marks_cap;

    bool bad;
    size_t first_bad;
    char *bad_where;

    /* A system continuing a fork (cuzk_cs_create_forked): inputs below fork_inputs and aux
     * below fork_aux are the fork's, their values read from fork->input / fork->aux; the
     * system's own variable of index i sits at input.v[i - fork_inputs] / aux.v[i - fork_aux].
     * NULL, 0, 0 for any other system. */
    const cuzk_cs_fork *fork;
    size_t fork_inputs, fork_aux;
};

struct cuzk_cs_fork {
    cuzk_cs_mode mode;
    size_t n_inputs, n_aux;
    cuzk_fr_t *input, *aux; /* values at the fork; NULL in WITNESS mode (nothing reads them) */
};

/* Where the values of a forked system's variables are (cuzk__lc_eval_forked). */
typedef struct {
    const cuzk_fr_t *in_fork, *aux_fork; /* ids below the bases */
    const cuzk_fr_t *in_own, *aux_own;   /* index - base */
    size_t in_base, aux_base;
} cs_vals;

/* Grows |*p| (elements of |elem| bytes, capacity |*cap|) to hold at least |need|; new memory is
 * not initialised unless |zero|. When |wipe| the old block is wiped before it is freed.
 * Returns false on overflow or allocation failure (|*p| unchanged). */
bool cuzk__grow(void **p, size_t *cap, size_t need, size_t elem, bool zero, bool wipe);
/* The same in |va|'s memory (NULL: cuzk_alloc). */
bool cuzk__grow_va(const cuzk_vec_alloc *va, void **p, size_t *cap, size_t need, size_t elem,
                   bool zero, bool wipe);
/* Grows a, b and c to at least |rows| entries. */
bool cuzk__cs_reserve_rows(cuzk_cs *cs, size_t rows);

/* Records |s| as the sticky status (the first one wins) and returns the sticky status. */
cuzk_status cuzk__cs_fail(cuzk_cs *cs, cuzk_status s);

/* LC internals (lc.c). */
void cuzk__lc_init(cuzk_lc *lc, cuzk_cs *cs, bool off);
void cuzk__lc_release(cuzk_lc *lc);
size_t cuzk__lc_terms(const cuzk_lc *lc);
/* Fills |out| (cuzk__lc_terms entries) with views of the terms. */
void cuzk__lc_gather(const cuzk_lc *lc, lc_view *out);
/* Writes to |out| (room for cuzk__lc_terms entries) the terms whose variable is not yet marked
 * in its bitmap: inputs in |in_bits| (skipped when NULL), aux in |aux_bits|. Returns how many. */
size_t cuzk__lc_unmarked(const cuzk_lc *lc, const bitvec *in_bits, const bitvec *aux_bits,
                         lc_view *out);
/* out = value of |lc| at the given assignments. */
void cuzk__lc_eval(const cuzk_lc *lc, const cuzk_fr_t *input, const cuzk_fr_t *aux, cuzk_fr_t *out);
/* The same for a system continuing a fork: values split between the fork's and its own. */
void cuzk__lc_eval_forked(const cuzk_lc *lc, const cs_vals *v, cuzk_fr_t *out);
/* The value locations of forked |cs| (valid until its next allocation). */
static inline void cuzk__cs_vals(const cuzk_cs *cs, cs_vals *v)
{
    v->in_fork = cs->fork->input;
    v->aux_fork = cs->fork->aux;
    v->in_own = cs->input.v;
    v->aux_own = cs->aux.v;
    v->in_base = cs->fork_inputs;
    v->aux_base = cs->fork_aux;
}

/* Density and merging (merge.c). */
/* Views of |lc| in cs->views (grown as needed); NULL on allocation failure. */
lc_view *cuzk__cs_views(cuzk_cs *cs, const cuzk_lc *lc, size_t *n);
/* Sorts |v| by id and merges duplicates; writes merged (id, coeff) pairs with non-zero
 * coefficient to |ids|/|coeffs| (each with room for |n|); returns how many. */
size_t cuzk__merge_terms(lc_view *v, size_t n, uint32_t *ids, cuzk_fr_t *coeffs);
/* Marks the variables of |lc| whose merged coefficient is non-zero: inputs in |in_bits| (when
 * not NULL), aux in |aux_bits|. */
cuzk_status cuzk__mark_density(cuzk_cs *cs, const cuzk_lc *lc, bitvec *in_bits, bitvec *aux_bits);

/* Keygen recording (keygen.c). */
cuzk_status cuzk__keygen_row(cuzk_cs *cs, unsigned matrix, const cuzk_lc *lc);
/* Row of one term (input constraints). */
cuzk_status cuzk__keygen_row_single(cuzk_cs *cs, unsigned matrix, uint32_t id);
/* Input constraint row: A = {input}, B = C = empty. */
cuzk_status cuzk__keygen_input_row(cuzk_cs *cs, uint32_t input);
void cuzk__keygen_free(cuzk_cs *cs);

/* Wipes witness-derived memory before release: explicit_bzero (glibc) runs at memset speed,
 * where a volatile byte loop costs more than the synthesis that filled the buffer. */
static inline void cuzk__wipe(void *p, size_t n)
{
    if (p && n)
        explicit_bzero(p, n);
}

/* Bit helpers. */
static inline bool cuzk__bit_get(const bitvec *b, size_t i)
{
    return (b->w[i >> 6] >> (i & 63)) & 1;
}
static inline void cuzk__bit_set(bitvec *b, size_t i)
{
    uint64_t m = (uint64_t)1 << (i & 63);
    if (!(b->w[i >> 6] & m)) {
        b->w[i >> 6] |= m;
        b->pop++;
    }
}

/* Internal hook for PCE: runs a circuit's synthesis in KEYGEN mode into matrices. */
cuzk_status cuzk__pce_extract_matrices(const cuzk_circuit *circuit, cuzk_r1cs_matrices *m);

#endif
