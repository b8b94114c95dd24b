/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Poseidon constants as neptune 11 derives them: Grain-LFSR round constants
 * (round_constants.rs, after create_rcs_grain.sage), the Cauchy MDS matrix and its derived
 * matrices (mds.rs), compressed round constants (preprocessing.rs) and the pre-sparse / sparse
 * factorisation of the partial-round mixing layers (mds.rs factor_to_sparse_matrices).
 * Written from neptune's spec/poseidon_spec.md and source; no code copied.
 *
 * Objects are built once per (arity, hash type) on first use and never freed.
 */
#include "cuzk/poseidon.h"
#include "cuzk/alloc.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

/* Strength::Standard round numbers (neptune round_numbers.rs, R_F = 8 for every width). */
static const struct {
    size_t arity;
    size_t partial_rounds;
} ROUNDS[] = {{2, 55}, {4, 56}, {8, 57}, {11, 57}, {16, 59}, {24, 59}, {36, 60}};
#define NUM_ARITIES (sizeof ROUNDS / sizeof ROUNDS[0])
#define NUM_HASH_TYPES 2
#define FULL_ROUNDS 8

static int arity_index(size_t arity)
{
    for (size_t i = 0; i < NUM_ARITIES; i++)
        if (ROUNDS[i].arity == arity)
            return (int)i;
    return -1;
}

size_t cuzk_poseidon_partial_rounds(size_t arity)
{
    int i = arity_index(arity);
    return i < 0 ? 0 : ROUNDS[i].partial_rounds;
}

void cuzk_poseidon_domain_tag(cuzk_fr_t *out, size_t arity, cuzk_poseidon_hash_type hash_type)
{
    if (hash_type == CUZK_POSEIDON_CUSTOM_1) {
        cuzk_fr_set_u64(out, (uint64_t)1 << 40); /* identifier * 2^40 */
        return;
    }
    /* 2^arity - 1; arity <= 36 fits a u64. */
    cuzk_fr_set_u64(out, arity >= 64 ? UINT64_MAX : ((uint64_t)1 << arity) - 1);
}

/* ---- Grain LFSR ---------------------------------------------------------------------------- */

/* 80-bit shift register kept as a ring: bit k of the sequence view is s[(p + k) % 80]. */
typedef struct {
    uint8_t s[80];
    unsigned p;
} grain_t;

/* b_{i+80} = b_{i+62} ^ b_{i+51} ^ b_{i+38} ^ b_{i+23} ^ b_{i+13} ^ b_i. */
static unsigned grain_step(grain_t *g)
{
    unsigned p = g->p;
    uint8_t b = g->s[(p + 62) % 80] ^ g->s[(p + 51) % 80] ^ g->s[(p + 38) % 80] ^
                g->s[(p + 23) % 80] ^ g->s[(p + 13) % 80] ^ g->s[p];
    g->s[p] = b;
    g->p = (p + 1) % 80;
    return b;
}

/* Self-shrinking output: take bits in pairs, emit the second when the first is 1. */
static unsigned grain_bit(grain_t *g)
{
    for (;;) {
        unsigned a = grain_step(g);
        unsigned b = grain_step(g);
        if (a)
            return b;
    }
}

static void grain_append(grain_t *g, unsigned *pos, unsigned nbits, uint64_t v)
{
    for (unsigned i = nbits; i-- > 0;)
        g->s[(*pos)++] = (uint8_t)((v >> i) & 1);
}

void cuzk_poseidon_grain_constants(cuzk_fr_t *out, size_t n, unsigned t, unsigned r_f, unsigned r_p)
{
    grain_t g;
    unsigned pos = 0;
    g.p = 0;
    grain_append(&g, &pos, 2, 1);    /* field: prime field */
    grain_append(&g, &pos, 4, 1);    /* sbox: neptune passes 1 */
    grain_append(&g, &pos, 12, 255); /* field size in bits */
    grain_append(&g, &pos, 12, t);
    grain_append(&g, &pos, 10, r_f);
    grain_append(&g, &pos, 10, r_p);
    grain_append(&g, &pos, 30, 0x3fffffff);
    for (unsigned i = 0; i < 160; i++)
        (void)grain_step(&g);

    for (size_t k = 0; k < n;) {
        /* 255 bits, most significant first (the first byte holds 7 bits); values >= r are
         * rejected and the next 255 bits are tried. */
        uint64_t limbs[CUZK_FR_LIMBS] = {0};
        for (unsigned i = 0; i < 255; i++) {
            unsigned bit = 254 - i;
            limbs[bit / 64] |= (uint64_t)grain_bit(&g) << (bit % 64);
        }
        if (cuzk_fr_from_canonical(&out[k], limbs))
            k++;
    }
}

/* ---- small dense matrices (row-major n x n) ------------------------------------------------ */

#define AT(m, n, i, j) ((m)[(size_t)(i) * (n) + (j)])

/* out = a x b. |out| must not alias |a| or |b|. */
static void mat_mul(cuzk_fr_t *out, const cuzk_fr_t *a, const cuzk_fr_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            cuzk_fr_t acc, tmp;
            cuzk_fr_set_zero(&acc);
            for (size_t l = 0; l < n; l++) {
                cuzk_fr_mul(&tmp, &AT(a, n, i, l), &AT(b, n, l, j));
                cuzk_fr_add(&acc, &acc, &tmp);
            }
            AT(out, n, i, j) = acc;
        }
}

/* out = m x v (v a column vector); neptune left_apply_matrix. */
static void mat_left_apply(cuzk_fr_t *out, const cuzk_fr_t *m, const cuzk_fr_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        cuzk_fr_t acc, tmp;
        cuzk_fr_set_zero(&acc);
        for (size_t j = 0; j < n; j++) {
            cuzk_fr_mul(&tmp, &AT(m, n, i, j), &v[j]);
            cuzk_fr_add(&acc, &acc, &tmp);
        }
        out[i] = acc;
    }
}

/* out = v x m (v a row vector); neptune apply_matrix. */
static void mat_right_apply(cuzk_fr_t *out, const cuzk_fr_t *m, const cuzk_fr_t *v, size_t n)
{
    for (size_t j = 0; j < n; j++) {
        cuzk_fr_t acc, tmp;
        cuzk_fr_set_zero(&acc);
        for (size_t i = 0; i < n; i++) {
            cuzk_fr_mul(&tmp, &AT(m, n, i, j), &v[i]);
            cuzk_fr_add(&acc, &acc, &tmp);
        }
        out[j] = acc;
    }
}

/*
 * out = m^-1 by Gauss-Jordan elimination on [m | I] held in |work| (2 n^2 elements). The inverse
 * is unique, so the method need not match neptune's. Returns false for a singular |m|. The data
 * are public constants, so variable-time inversion is fine.
 */
static bool mat_inv(cuzk_fr_t *out, const cuzk_fr_t *m, size_t n, cuzk_fr_t *work)
{
    size_t w = 2 * n;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            AT(work, w, i, j) = AT(m, n, i, j);
            if (i == j)
                cuzk_fr_set_one(&AT(work, w, i, n + j));
            else
                cuzk_fr_set_zero(&AT(work, w, i, n + j));
        }
    for (size_t c = 0; c < n; c++) {
        size_t piv = c;
        while (piv < n && cuzk_fr_is_zero(&AT(work, w, piv, c)))
            piv++;
        if (piv == n)
            return false;
        if (piv != c)
            for (size_t j = 0; j < w; j++) {
                cuzk_fr_t tmp = AT(work, w, c, j);
                AT(work, w, c, j) = AT(work, w, piv, j);
                AT(work, w, piv, j) = tmp;
            }
        cuzk_fr_t inv;
        cuzk_fr_inv_vartime(&inv, &AT(work, w, c, c));
        for (size_t j = 0; j < w; j++)
            cuzk_fr_mul(&AT(work, w, c, j), &AT(work, w, c, j), &inv);
        for (size_t i = 0; i < n; i++) {
            if (i == c || cuzk_fr_is_zero(&AT(work, w, i, c)))
                continue;
            cuzk_fr_t f = AT(work, w, i, c), tmp;
            for (size_t j = 0; j < w; j++) {
                cuzk_fr_mul(&tmp, &f, &AT(work, w, c, j));
                cuzk_fr_sub(&AT(work, w, i, j), &AT(work, w, i, j), &tmp);
            }
        }
    }
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            AT(out, n, i, j) = AT(work, w, i, n + j);
    return true;
}

/*
 * neptune derive_mds_matrices for one matrix |m| (t x t): M' = [[1, 0], [0, M^]] and the sparse
 * M'' whose first row is m's first row, first column below it w_hat = w x M^^-1 (w = m's first
 * column below row 0), identity elsewhere; M' x M'' = m.
 * Writes the first column of M'' (t) to |w_hat_full| and its first row without [0][0] (t - 1)
 * to |v_rest|; |prime| / |double_prime| (t x t, may be NULL) receive the full matrices.
 * |work| holds 4 (t - 1)^2 elements.
 */
static bool derive_sparse(cuzk_fr_t *w_hat_full, cuzk_fr_t *v_rest, cuzk_fr_t *prime,
                          cuzk_fr_t *double_prime, const cuzk_fr_t *m, size_t t, cuzk_fr_t *work)
{
    size_t h = t - 1;
    cuzk_fr_t *hat = work;                 /* h x h */
    cuzk_fr_t *hat_inv = work + h * h;     /* h x h */
    cuzk_fr_t *scratch = work + 2 * h * h; /* 2 h^2 */
    for (size_t i = 0; i < h; i++)
        for (size_t j = 0; j < h; j++)
            AT(hat, h, i, j) = AT(m, t, i + 1, j + 1);
    if (!mat_inv(hat_inv, hat, h, scratch))
        return false;
    cuzk_fr_t w[CUZK_POSEIDON_MAX_WIDTH];
    for (size_t i = 0; i < h; i++)
        w[i] = AT(m, t, i + 1, 0);
    w_hat_full[0] = AT(m, t, 0, 0);
    mat_right_apply(w_hat_full + 1, hat_inv, w, h);
    for (size_t j = 0; j < h; j++)
        v_rest[j] = AT(m, t, 0, j + 1);
    if (prime) {
        for (size_t i = 0; i < t; i++)
            for (size_t j = 0; j < t; j++) {
                if (i == 0 || j == 0) {
                    if (i == j)
                        cuzk_fr_set_one(&AT(prime, t, i, j));
                    else
                        cuzk_fr_set_zero(&AT(prime, t, i, j));
                } else {
                    AT(prime, t, i, j) = AT(m, t, i, j);
                }
            }
    }
    if (double_prime) {
        for (size_t i = 0; i < t; i++)
            for (size_t j = 0; j < t; j++) {
                if (i == 0 && j > 0)
                    AT(double_prime, t, i, j) = v_rest[j - 1];
                else if (j == 0)
                    AT(double_prime, t, i, j) = w_hat_full[i];
                else if (i == j)
                    cuzk_fr_set_one(&AT(double_prime, t, i, j));
                else
                    cuzk_fr_set_zero(&AT(double_prime, t, i, j));
            }
    }
    return true;
}

/* ---- building one constants object --------------------------------------------------------- */

/*
 * neptune compress_round_constants with every partial round preprocessed: push each round's
 * constants backwards through M^-1 so that only post-S-box additions remain; partial rounds keep
 * a single constant (on the S-box lane) and hand the rest of the vector back to the round before.
 */
static void compress_round_constants(cuzk_fr_t *res, const cuzk_fr_t *rc, const cuzk_fr_t *m_inv,
                                     size_t t, size_t half, size_t rp, cuzk_fr_t *partial_keys)
{
    size_t k = 0;
    cuzk_fr_t acc[CUZK_POSEIDON_MAX_WIDTH], inv[CUZK_POSEIDON_MAX_WIDTH];

    for (size_t i = 0; i < t; i++)
        res[k++] = rc[i];
    for (size_t r = 1; r < half; r++) {
        mat_left_apply(&res[k], m_inv, &rc[r * t], t);
        k += t;
    }
    size_t final_round = half + rp;
    memcpy(acc, &rc[final_round * t], t * sizeof acc[0]);
    for (size_t i = 0; i < rp; i++) {
        const cuzk_fr_t *prev = &rc[(final_round - i - 1) * t];
        mat_left_apply(inv, m_inv, acc, t);
        partial_keys[i] = inv[0];
        cuzk_fr_set_zero(&inv[0]);
        for (size_t j = 0; j < t; j++)
            cuzk_fr_add(&acc[j], &prev[j], &inv[j]);
    }
    mat_left_apply(&res[k], m_inv, acc, t);
    k += t;
    for (size_t i = rp; i-- > 0;)
        res[k++] = partial_keys[i];
    for (size_t r = 1; r < half; r++) {
        mat_left_apply(&res[k], m_inv, &rc[(final_round + r) * t], t);
        k += t;
    }
}

static cuzk_poseidon_constants *build(size_t arity, size_t rp, cuzk_poseidon_hash_type ht)
{
    size_t t = arity + 1, rf = FULL_ROUNDS, half = rf / 2;
    size_t n_rc = (rf + rp) * t, n_crc = rf * t + rp;
    size_t n_elems = n_rc + 5 * t * t + n_crc + rp * t + rp * (t - 1);
    size_t bytes = sizeof(cuzk_poseidon_constants) + n_elems * sizeof(cuzk_fr_t);
    /* Scratch: curr, next (t^2 each), derive_sparse / mat_inv work (4 t^2), partial keys. */
    size_t n_scratch = 6 * t * t + rp;

    unsigned char *mem = cuzk_alloc(bytes);
    cuzk_fr_t *scratch = cuzk_alloc_array(n_scratch, sizeof(cuzk_fr_t));
    if (!mem || !scratch) {
        cuzk_free(mem);
        cuzk_free(scratch);
        (void)cuzk_fail(CUZK_ERR_NOMEM, "cannot allocate Poseidon constants (arity %zu)", arity);
        return NULL;
    }
    cuzk_poseidon_constants *c = (cuzk_poseidon_constants *)mem;
    cuzk_fr_t *p = (cuzk_fr_t *)(mem + sizeof *c);
    cuzk_fr_t *rc = p, *mds = rc + n_rc, *mds_inv = mds + t * t, *mds_p = mds_inv + t * t;
    cuzk_fr_t *mds_pp = mds_p + t * t, *pre = mds_pp + t * t, *crc = pre + t * t;
    cuzk_fr_t *w_hat = crc + n_crc, *v_rest = w_hat + rp * t;
    cuzk_fr_t *curr = scratch, *next = curr + t * t, *work = next + t * t;
    cuzk_fr_t *partial_keys = work + 4 * t * t;
    bool ok = true;

    c->arity = arity;
    c->width = t;
    c->full_rounds = rf;
    c->half_full_rounds = half;
    c->partial_rounds = rp;
    c->hash_type = ht;
    cuzk_poseidon_domain_tag(&c->domain_tag, arity, ht);

    cuzk_poseidon_grain_constants(rc, n_rc, (unsigned)t, (unsigned)rf, (unsigned)rp);

    /* Cauchy matrix with x_i = i, y_j = t + j: M[i][j] = 1 / (i + j + t). */
    for (size_t i = 0; i < t; i++)
        for (size_t j = 0; j < t; j++) {
            cuzk_fr_t d;
            cuzk_fr_set_u64(&d, (uint64_t)(i + j + t));
            cuzk_fr_inv_vartime(&AT(mds, t, i, j), &d);
        }
    ok = ok && mat_inv(mds_inv, mds, t, work);

    /* M' and M'' of M itself (the first factorisation step below repeats this on M). */
    cuzk_fr_t col[CUZK_POSEIDON_MAX_WIDTH], row[CUZK_POSEIDON_MAX_WIDTH];
    ok = ok && derive_sparse(col, row, mds_p, mds_pp, mds, t, work);

    compress_round_constants(crc, rc, mds_inv, t, half, rp, partial_keys);

    /*
     * Factorisation (neptune factor_to_sparse_matrices): starting from the last partial round,
     * write the current matrix C_k as M' x M''; M'' serves that round, M' = [[1, 0], [0, C_k^]]
     * commutes with the single-lane S-box and is folded into the previous round's matrix as
     * C_{k+1} = M x M'. What is left after all partial rounds is the pre-sparse matrix of the
     * last first-half full round. With C_0 = M this gives in closed form (H = M^, the minor):
     *   C_k = [[M00, v0 H^k], [w, H^(k+1)]],  v0 = M[0][1..], w = M[1..][0],
     * so M'' of C_k has first column [M00, w H^-(k+1)] and first row [M00, v0 H^k]. Field
     * arithmetic is exact, so this equals neptune's step-by-step derivation bit for bit (and the
     * factorisation is unique); the tests check the optimised permutation against the plain one.
     */
    if (ok) {
        size_t h = t - 1;
        cuzk_fr_t *hm = curr, *hinv = next, *pw = work, *tmp = work + t * t;
        cuzk_fr_t u[CUZK_POSEIDON_MAX_WIDTH], v[CUZK_POSEIDON_MAX_WIDTH];
        cuzk_fr_t u2[CUZK_POSEIDON_MAX_WIDTH], v2[CUZK_POSEIDON_MAX_WIDTH];
        for (size_t i = 0; i < h; i++)
            for (size_t j = 0; j < h; j++)
                AT(hm, h, i, j) = AT(mds, t, i + 1, j + 1);
        ok = mat_inv(hinv, hm, h, work);
        for (size_t i = 0; ok && i < h; i++) {
            u[i] = AT(mds, t, i + 1, 0);
            v[i] = AT(mds, t, 0, i + 1);
        }
        for (size_t k = 0; ok && k < rp; k++) {
            size_t idx = rp - 1 - k;         /* collected from the last partial round backwards */
            mat_right_apply(u2, hinv, u, h); /* u = w H^-(k+1) */
            memcpy(u, u2, h * sizeof *u);
            w_hat[idx * t] = AT(mds, t, 0, 0);
            memcpy(&w_hat[idx * t + 1], u, h * sizeof *u);
            memcpy(&v_rest[idx * (t - 1)], v, h * sizeof *v); /* v = v0 H^k */
            mat_right_apply(v2, hm, v, h);
            memcpy(v, v2, h * sizeof *v);
        }
        if (ok) {
            /* pre-sparse = C_rp: v (now v0 H^rp), w, and H^(rp+1) by square-and-multiply. */
            size_t e = rp + 1;
            int top = 63;
            while (!((e >> top) & 1))
                top--;
            memcpy(pw, hm, h * h * sizeof *pw);
            for (int bit = top - 1; bit >= 0; bit--) {
                mat_mul(tmp, pw, pw, h);
                memcpy(pw, tmp, h * h * sizeof *pw);
                if ((e >> bit) & 1) {
                    mat_mul(tmp, pw, hm, h);
                    memcpy(pw, tmp, h * h * sizeof *pw);
                }
            }
            AT(pre, t, 0, 0) = AT(mds, t, 0, 0);
            for (size_t i = 0; i < h; i++) {
                AT(pre, t, 0, i + 1) = v[i];
                AT(pre, t, i + 1, 0) = AT(mds, t, i + 1, 0);
                for (size_t j = 0; j < h; j++)
                    AT(pre, t, i + 1, j + 1) = AT(pw, h, i, j);
            }
        }
    }

    cuzk_free(scratch);
    if (!ok) {
        cuzk_free(mem);
        (void)cuzk_fail(CUZK_ERR_INTERNAL, "Poseidon MDS derivation hit a singular matrix");
        return NULL;
    }

    c->round_constants = rc;
    c->round_constants_len = n_rc;
    c->mds = mds;
    c->mds_inv = mds_inv;
    c->mds_prime = mds_p;
    c->mds_double_prime = mds_pp;
    c->compressed_round_constants = crc;
    c->compressed_round_constants_len = n_crc;
    c->pre_sparse = pre;
    c->sparse_w_hat = w_hat;
    c->sparse_v_rest = v_rest;
    return c;
}

/* ---- shared objects ------------------------------------------------------------------------- */

static _Atomic(cuzk_poseidon_constants *) slots[NUM_ARITIES][NUM_HASH_TYPES];
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;

const cuzk_poseidon_constants *cuzk_poseidon_constants_get(size_t arity,
                                                           cuzk_poseidon_hash_type hash_type)
{
    int ai = arity_index(arity);
    if (ai < 0) {
        (void)cuzk_fail(CUZK_ERR_UNSUPPORTED,
                        "Poseidon arity %zu is not supported (2, 4, 8, 11, 16, 24, 36)", arity);
        return NULL;
    }
    if ((unsigned)hash_type >= NUM_HASH_TYPES) {
        (void)cuzk_fail(CUZK_ERR_INVALID_ARG, "unknown Poseidon hash type %d", (int)hash_type);
        return NULL;
    }
    _Atomic(cuzk_poseidon_constants *) *slot = &slots[ai][hash_type];
    cuzk_poseidon_constants *c = atomic_load_explicit(slot, memory_order_acquire);
    if (c)
        return c;
    pthread_mutex_lock(&slots_lock);
    c = atomic_load_explicit(slot, memory_order_relaxed);
    if (!c) {
        c = build(arity, ROUNDS[ai].partial_rounds, hash_type);
        if (c)
            atomic_store_explicit(slot, c, memory_order_release);
    }
    pthread_mutex_unlock(&slots_lock);
    return c;
}
