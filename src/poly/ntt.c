/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Radix-2 NTT kernels, the four-step row and column passes, the bit-reversal permutation and the
 * public transforms. The layout and the folding of scalings are described in poly_internal.h. */
#include "poly/poly_internal.h"
#include "common/verify.h"
#include "cuzk/alloc.h"

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

/* A block of at most this many elements (32 KiB) finishes all its remaining stages before the
 * next block starts (depth-first order), so those stages run from L1. */
#define POLY_L1_ELEMS 1024
/* Bit-reversal tiles: 2^4 x 2^4 elements (8 KiB), swapped with their mirror tile. */
#define POLY_BR_TILE_LOG 4

/* ---- radix-2 kernels ------------------------------------------------------------------------
 * Both work on m = 2^lm "rows" of |vw| adjacent elements, row i at x + i * |stride|: vw = 1 and
 * stride = 1 for a plain vector, vw = stride = cols for a copied column group, stride = B for a
 * column group worked in place. Every element of a row uses the same twiddle. */

/* Gentleman-Sande (DIF) butterflies of one block: row j pairs with row j + h,
 * (u, v) -> (u + v, (u - v) * w_2h^j); |w| = tw + h. */
MONT_INLINE void dif_block(cuzk_fr_t *x, size_t h, size_t vw, size_t stride, const cuzk_fr_t *w)
{
    cuzk_fr_t *y = x + h * stride;
    for (size_t i = 0; i < vw; i++) {
        cuzk_fr_t t;
        fri_sub(&t, &x[i], &y[i]);
        fri_add(&x[i], &x[i], &y[i]);
        y[i] = t;
    }
    for (size_t j = 1; j < h; j++) {
        cuzk_fr_t *xj = x + j * stride, *yj = y + j * stride;
        const cuzk_fr_t wj = w[j];
        for (size_t i = 0; i < vw; i++) {
            cuzk_fr_t t;
            fri_sub(&t, &xj[i], &yj[i]);
            fri_add(&xj[i], &xj[i], &yj[i]);
            fri_mul(&yj[i], &t, &wj);
        }
    }
}

/* Cooley-Tukey (DIT) butterflies of one block: (u, v) -> (u + v w_2h^j, u - v w_2h^j). */
MONT_INLINE void dit_block(cuzk_fr_t *x, size_t h, size_t vw, size_t stride, const cuzk_fr_t *w)
{
    cuzk_fr_t *y = x + h * stride;
    for (size_t i = 0; i < vw; i++) {
        cuzk_fr_t t = y[i];
        fri_sub(&y[i], &x[i], &t);
        fri_add(&x[i], &x[i], &t);
    }
    for (size_t j = 1; j < h; j++) {
        cuzk_fr_t *xj = x + j * stride, *yj = y + j * stride;
        const cuzk_fr_t wj = w[j];
        for (size_t i = 0; i < vw; i++) {
            cuzk_fr_t t;
            fri_mul(&t, &yj[i], &wj);
            fri_sub(&yj[i], &xj[i], &t);
            fri_add(&xj[i], &xj[i], &t);
        }
    }
}

/* The stage loops, specialised for plain vectors (the common case: every row pass). */
static void dif_stages(cuzk_fr_t *x, size_t m, size_t h_hi, size_t h_lo, size_t vw, size_t stride,
                       const cuzk_fr_t *tw)
{
    for (size_t h = h_hi; h >= h_lo; h >>= 1)
        for (size_t blk = 0; blk < m; blk += 2 * h) {
            if (vw == 1 && stride == 1)
                dif_block(x + blk, h, 1, 1, tw + h);
            else
                dif_block(x + blk * stride, h, vw, stride, tw + h);
        }
}

static void dit_stages(cuzk_fr_t *x, size_t m, size_t h_lo, size_t h_hi, size_t vw, size_t stride,
                       const cuzk_fr_t *tw)
{
    for (size_t h = h_lo; h <= h_hi; h <<= 1)
        for (size_t blk = 0; blk < m; blk += 2 * h) {
            if (vw == 1 && stride == 1)
                dit_block(x + blk, h, 1, 1, tw + h);
            else
                dit_block(x + blk * stride, h, vw, stride, tw + h);
        }
}

/* Natural -> bit-reversed (rows) DFT of length 2^lm; tw[h + j] = w_2h^j. Above L1 size: one stage
 * over the block, then each half depth-first. */
static void dif_rec(cuzk_fr_t *x, unsigned lm, size_t vw, size_t stride, const cuzk_fr_t *tw)
{
    if (lm == 0)
        return;
    size_t m = (size_t)1 << lm, h = m >> 1;
    if (m * vw <= POLY_L1_ELEMS || lm == 1) {
        dif_stages(x, m, h, 1, vw, stride, tw);
        return;
    }
    dif_stages(x, m, h, h, vw, stride, tw);
    dif_rec(x, lm - 1, vw, stride, tw);
    dif_rec(x + h * stride, lm - 1, vw, stride, tw);
}

/* Bit-reversed -> natural DFT of length 2^lm: the halves depth-first, then the top stage. */
static void dit_rec(cuzk_fr_t *x, unsigned lm, size_t vw, size_t stride, const cuzk_fr_t *tw)
{
    if (lm == 0)
        return;
    size_t m = (size_t)1 << lm, h = m >> 1;
    if (m * vw <= POLY_L1_ELEMS || lm == 1) {
        dit_stages(x, m, 1, h, vw, stride, tw);
        return;
    }
    dit_rec(x, lm - 1, vw, stride, tw);
    dit_rec(x + h * stride, lm - 1, vw, stride, tw);
    dit_stages(x, m, h, h, vw, stride, tw);
}

/* ---- scalings ------------------------------------------------------------------------------ */

/* x[c] *= k * r^c for c < n (n a power of two). Two interleaved chains of powers keep the
 * multiplier busy while each chain waits for its previous product. */
static void scale_geometric(cuzk_fr_t *x, size_t n, const cuzk_fr_t *k, const cuzk_fr_t *r)
{
    if (n == 1) {
        fri_mul(&x[0], &x[0], k);
        return;
    }
    cuzk_fr_t r2, p0 = *k, p1;
    fri_mul(&r2, r, r);
    fri_mul(&p1, k, r);
    for (size_t c = 0; c < n; c += 2) {
        fri_mul(&x[c], &x[c], &p0);
        fri_mul(&x[c + 1], &x[c + 1], &p1);
        fri_mul(&p0, &p0, &r2);
        fri_mul(&p1, &p1, &r2);
    }
}

static void scale_const(cuzk_fr_t *x, size_t n, const cuzk_fr_t *k)
{
    for (size_t c = 0; c < n; c++)
        fri_mul(&x[c], &x[c], k);
}

/* The diagonal of row t fused with a natural scaling: x[c] *= K * (w^bitrev(t) * s)^c, with
 * K = sc.k * extra (each factor optional). */
static void row_diag(const cuzk_domain *d, cuzk_fr_t *row, size_t t, int dir, const poly_scale *sc,
                     const cuzk_fr_t *extra)
{
    size_t b = (size_t)1 << d->l_in;
    cuzk_fr_t r = d->diag[dir][t], k;
    cuzk_fr_set_one(&k);
    if (sc && sc->on) {
        fri_mul(&r, &r, &sc->s);
        k = sc->k;
    }
    if (extra)
        fri_mul(&k, &k, extra);
    if (!cuzk_fr_is_one(&r))
        scale_geometric(row, b, &k, &r);
    else if (!cuzk_fr_is_one(&k))
        scale_const(row, b, &k);
}

/* ---- row pass -------------------------------------------------------------------------------
 * Per row t: [diagonal + pre scaling, DIF]  [mid: (1/n) s^bitrev(p)]  [DIT, diagonal + post
 * scaling]. Each bracket is optional; the mid factor's row constant (1/n) s^bitrev(t) rides
 * along with the post diagonal. */
typedef struct {
    const cuzk_domain *d;
    cuzk_fr_t *x;
    int dif_dir; /* -1: no DIF */
    int dit_dir; /* -1: no DIT */
    bool mid;
    const poly_scale *pre, *post;
} row_ctx;

static void row_task(void *p, size_t t)
{
    const row_ctx *c = p;
    const cuzk_domain *d = c->d;
    size_t b = (size_t)1 << d->l_in;
    cuzk_fr_t *row = c->x + b * t;
    if (c->dif_dir >= 0) {
        row_diag(d, row, t, c->dif_dir, c->pre, NULL);
        dif_rec(row, d->l_in, 1, 1, d->tw[c->dif_dir]);
    }
    cuzk_fr_t kmid;
    CUZK_VERIFY_CHECK(!c->mid || c->dit_dir >= 0); /* the mid constant rides on the DIT diagonal */
    if (c->mid) {
        for (size_t i = 0; i < b; i++)
            fri_mul(&row[i], &row[i], &d->col_s[i]);
        fri_mul(&kmid, &d->n_inv, &d->row_s[t]);
    }
    if (c->dit_dir >= 0) {
        dit_rec(row, d->l_in, 1, 1, d->tw[c->dit_dir]);
        row_diag(d, row, t, c->dit_dir, c->post, c->mid ? &kmid : NULL);
    }
}

#if CUZK_FR_HAVE_IFMA
static bool row_pass_x8(row_ctx *c, cuzk_pool *pool);
#endif

static void row_pass(row_ctx *c, cuzk_pool *pool)
{
#if CUZK_FR_HAVE_IFMA
    if (row_pass_x8(c, pool))
        return;
#endif
    cuzk_pool_run(pool, (size_t)1 << c->d->l_out, row_task, c);
}

/* ---- column pass ----------------------------------------------------------------------------
 * Column groups of d->cols adjacent columns, copied into a per-task scratch (n1 rows of cols
 * elements, so each DFT stage reads contiguous memory instead of one element per 2^l_in * 32 B
 * stride, which would also collide in the cache sets), transformed, copied back. Column row t is
 * scaled by sB^t (the s^(B t) part of a natural scaling): after the copy for a DIF, before the
 * copy back for a DIT. Tasks take groups from a shared counter. */
typedef struct {
    const cuzk_domain *d;
    cuzk_fr_t *x;
    int dir;
    bool dit;
    bool scale;
    cuzk_fr_t sB;
    cuzk_fr_t *scratch; /* NULL: work in place (allocation failed) */
    size_t per_task;
    size_t groups;
    _Atomic size_t next;
} col_ctx;

static void col_scale(cuzk_fr_t *buf, size_t n1, size_t w, size_t stride, const cuzk_fr_t *sB)
{
    cuzk_fr_t f = *sB;
    for (size_t t = 1; t < n1; t++) {
        cuzk_fr_t *r = buf + t * stride;
        for (size_t i = 0; i < w; i++)
            fri_mul(&r[i], &r[i], &f);
        fri_mul(&f, &f, sB);
    }
}

static void col_task(void *p, size_t task)
{
    col_ctx *c = p;
    const cuzk_domain *d = c->d;
    size_t b = (size_t)1 << d->l_in, n1 = (size_t)1 << d->l_out, w = d->cols;
    cuzk_fr_t *s = c->scratch ? c->scratch + task * c->per_task : NULL;
    const cuzk_fr_t *tw = d->tw[c->dir];
    for (;;) {
        size_t g = atomic_fetch_add_explicit(&c->next, 1, memory_order_relaxed);
        if (g >= c->groups)
            break;
        cuzk_fr_t *col = c->x + g * w;
        cuzk_fr_t *buf = s ? s : col;
        size_t stride = s ? w : b;
        if (s)
            for (size_t t = 0; t < n1; t++)
                memcpy(s + t * w, col + t * b, w * sizeof *s);
        if (c->dit) {
            dit_rec(buf, d->l_out, w, stride, tw);
            if (c->scale)
                col_scale(buf, n1, w, stride, &c->sB);
        } else {
            if (c->scale)
                col_scale(buf, n1, w, stride, &c->sB);
            dif_rec(buf, d->l_out, w, stride, tw);
        }
        if (s)
            for (size_t t = 0; t < n1; t++)
                memcpy(col + t * b, s + t * w, w * sizeof *s);
    }
}

/* ---- 8-lane IFMA passes (field/fr_ifma.h) ----------------------------------------------------
 * The same passes on 8 independent transforms at once: the row pass takes 8 rows (lane k = row
 * t0 + k, same position), the column pass 8 adjacent columns of its group (lane k = column
 * 8 v + k). Each buffer is converted once to the vertical radix-2^52 layout, runs every stage
 * there with lazy values (below 4r, see below), and is stored back canonical, so the results are
 * the scalar passes' bit for bit (one canonical representative per value). Factors (twiddles,
 * diagonals, scalings) are multiplied with fr52x8_mul_p, so they enter as 16 w (poly_x16).
 *
 * Ranges (fr52x8_mul_p returns < 2r for operands up to 4r): DIF stages take and give [0, 2r)
 * (sum corrected, difference lazy in [0, 4r) into the multiplication); DIT stages take [0, 4r)
 * and give [0, 4r) (one correction of u per butterfly, sum and difference lazy); the stores
 * reduce from [0, 4r). Loads are canonical and every factor product is < 2r, so a DIF always
 * starts in [0, 2r). */
#if CUZK_FR_HAVE_IFMA

/* A block of at most this many vectors (40 KiB) finishes its remaining stages depth-first. */
#define POLY_L1_VECS 128

MONT_INLINE void dif_block_x8(fr52x8 *x, size_t h, size_t vw, size_t stride, const uint64_t *tw52)
{
    fr52x8 *y = x + h * stride;
    for (size_t i = 0; i < vw; i++) {
        fr52x8 t;
        fr52x8_sub(&t, &x[i], &y[i]);
        fr52x8_add(&x[i], &x[i], &y[i]);
        y[i] = t;
    }
    for (size_t j = 1; j < h; j++) {
        fr52x8 *xj = x + j * stride, *yj = y + j * stride, w;
        fr52x8_bcast(&w, tw52 + 5 * (h + j));
        for (size_t i = 0; i < vw; i++) {
            fr52x8 t;
            fr52x8_sub_lazy_(&t, &xj[i], &yj[i]); /* [0, 4r) */
            fr52x8_add(&xj[i], &xj[i], &yj[i]);
            fr52x8_mul_p(&yj[i], &t, &w);
        }
    }
}

MONT_INLINE void dit_block_x8(fr52x8 *x, size_t h, size_t vw, size_t stride, const uint64_t *tw52)
{
    fr52x8 *y = x + h * stride;
    for (size_t i = 0; i < vw; i++) {
        fr52x8 u, t;
        fr52x8_csub2r_(&u, &x[i]); /* [0, 2r) */
        fr52x8_csub2r_(&t, &y[i]);
        fr52x8_sub_lazy_(&y[i], &u, &t); /* [0, 4r) */
        fr52x8_add_lazy_(&x[i], &u, &t);
    }
    for (size_t j = 1; j < h; j++) {
        fr52x8 *xj = x + j * stride, *yj = y + j * stride, w;
        fr52x8_bcast(&w, tw52 + 5 * (h + j));
        for (size_t i = 0; i < vw; i++) {
            fr52x8 u, t;
            fr52x8_mul_p(&t, &yj[i], &w); /* [0, 2r) */
            fr52x8_csub2r_(&u, &xj[i]);
            fr52x8_sub_lazy_(&yj[i], &u, &t);
            fr52x8_add_lazy_(&xj[i], &u, &t);
        }
    }
}

static void dif_stages_x8(fr52x8 *x, size_t m, size_t h_hi, size_t h_lo, size_t vw, size_t stride,
                          const uint64_t *tw52)
{
    for (size_t h = h_hi; h >= h_lo; h >>= 1)
        for (size_t blk = 0; blk < m; blk += 2 * h) {
            if (vw == 1 && stride == 1)
                dif_block_x8(x + blk, h, 1, 1, tw52);
            else
                dif_block_x8(x + blk * stride, h, vw, stride, tw52);
        }
}

static void dit_stages_x8(fr52x8 *x, size_t m, size_t h_lo, size_t h_hi, size_t vw, size_t stride,
                          const uint64_t *tw52)
{
    for (size_t h = h_lo; h <= h_hi; h <<= 1)
        for (size_t blk = 0; blk < m; blk += 2 * h) {
            if (vw == 1 && stride == 1)
                dit_block_x8(x + blk, h, 1, 1, tw52);
            else
                dit_block_x8(x + blk * stride, h, vw, stride, tw52);
        }
}

/* dif_rec / dit_rec on vectors. */
static void dif_rec_x8(fr52x8 *x, unsigned lm, size_t vw, size_t stride, const uint64_t *tw52)
{
    if (lm == 0)
        return;
    size_t m = (size_t)1 << lm, h = m >> 1;
    if (m * vw <= POLY_L1_VECS || lm == 1) {
        dif_stages_x8(x, m, h, 1, vw, stride, tw52);
        return;
    }
    dif_stages_x8(x, m, h, h, vw, stride, tw52);
    dif_rec_x8(x, lm - 1, vw, stride, tw52);
    dif_rec_x8(x + h * stride, lm - 1, vw, stride, tw52);
}

static void dit_rec_x8(fr52x8 *x, unsigned lm, size_t vw, size_t stride, const uint64_t *tw52)
{
    if (lm == 0)
        return;
    size_t m = (size_t)1 << lm, h = m >> 1;
    if (m * vw <= POLY_L1_VECS || lm == 1) {
        dit_stages_x8(x, m, 1, h, vw, stride, tw52);
        return;
    }
    dit_rec_x8(x, lm - 1, vw, stride, tw52);
    dit_rec_x8(x + h * stride, lm - 1, vw, stride, tw52);
    dit_stages_x8(x, m, h, h, vw, stride, tw52);
}

/* row_diag for rows t0 .. t0 + 7 (lane k = row t0 + k): x[c] *= K_k * (w^bitrev(t0 + k) s)^c.
 * The per-lane ratio and constant are computed in scalar code and loaded as factors (16 x);
 * the powers run as two interleaved chains, every product < 2r (x < 4r). Lanes whose factors
 * are one are multiplied by one when another lane needs scaling (same value, same canonical
 * result). */
static void row_diag_x8(const cuzk_domain *d, fr52x8 *row, size_t t0, int dir, const poly_scale *sc,
                        const cuzk_fr_t *extra)
{
    size_t b = (size_t)1 << d->l_in;
    cuzk_fr_t rr[8], kk[8];
    bool any = false;
    for (int k = 0; k < 8; k++) {
        rr[k] = d->diag[dir][t0 + k];
        cuzk_fr_set_one(&kk[k]);
        if (sc && sc->on) {
            fri_mul(&rr[k], &rr[k], &sc->s);
            kk[k] = sc->k;
        }
        if (extra)
            fri_mul(&kk[k], &kk[k], &extra[k]);
        any |= !cuzk_fr_is_one(&rr[k]) || !cuzk_fr_is_one(&kk[k]);
    }
    if (!any)
        return;
    for (int k = 0; k < 8; k++) {
        poly_x16(&rr[k], &rr[k]);
        poly_x16(&kk[k], &kk[k]);
    }
    fr52x8 r, p0, p1, r2;
    fr52x8_load(&r, rr);
    fr52x8_load(&p0, kk);
    if (b == 1) {
        fr52x8_mul_p(&row[0], &row[0], &p0);
        return;
    }
    fr52x8_mul_p(&r2, &r, &r); /* 16 r^2 R mod r, < 2r: still a factor */
    fr52x8_mul_p(&p1, &p0, &r);
    for (size_t c = 0; c < b; c += 2) {
        fr52x8_mul_p(&row[c], &row[c], &p0);
        fr52x8_mul_p(&row[c + 1], &row[c + 1], &p1);
        fr52x8_mul_p(&p0, &p0, &r2);
        fr52x8_mul_p(&p1, &p1, &r2);
    }
}

typedef struct {
    const row_ctx *c;
    fr52x8 *scratch; /* per task: 2^l_in vectors */
    size_t groups;
    _Atomic size_t next;
} row_x8_ctx;

static void row_task_x8(void *p, size_t task)
{
    row_x8_ctx *rx = p;
    const row_ctx *c = rx->c;
    const cuzk_domain *d = c->d;
    size_t b = (size_t)1 << d->l_in;
    fr52x8 *buf = rx->scratch + task * b;
    for (;;) {
        size_t g = atomic_fetch_add_explicit(&rx->next, 1, memory_order_relaxed);
        if (g >= rx->groups)
            break;
        size_t t0 = 8 * g;
        cuzk_fr_t *rows = c->x + b * t0;
        for (size_t i = 0; i < b; i++)
            fr52x8_load_strided(&buf[i], rows + i, b);
        if (c->dif_dir >= 0) {
            row_diag_x8(d, buf, t0, c->dif_dir, c->pre, NULL);
            dif_rec_x8(buf, d->l_in, 1, 1, d->tw52[c->dif_dir]);
        }
        cuzk_fr_t kmid[8];
        CUZK_VERIFY_CHECK(!c->mid || c->dit_dir >= 0);
        if (c->mid) {
            for (size_t i = 0; i < b; i++) {
                fr52x8 w;
                fr52x8_bcast(&w, d->col_s52 + 5 * i);
                fr52x8_mul_p(&buf[i], &buf[i], &w);
            }
            for (int k = 0; k < 8; k++)
                fri_mul(&kmid[k], &d->n_inv, &d->row_s[t0 + k]);
        }
        if (c->dit_dir >= 0) {
            dit_rec_x8(buf, d->l_in, 1, 1, d->tw52[c->dit_dir]);
            row_diag_x8(d, buf, t0, c->dit_dir, c->post, c->mid ? kmid : NULL);
        }
        for (size_t i = 0; i < b; i++)
            fr52x8_store_strided(rows + i, b, &buf[i]);
    }
}

/* The row pass 8 rows at a time; false (nothing done) when it does not apply or its scratch
 * cannot be allocated, and the scalar pass runs instead. */
static bool row_pass_x8(row_ctx *c, cuzk_pool *pool)
{
    const cuzk_domain *d = c->d;
    if (d->scalar_only || !d->tw52[0] || d->l_out < 3)
        return false;
    row_x8_ctx rx;
    rx.c = c;
    rx.groups = ((size_t)1 << d->l_out) / 8;
    size_t tasks = cuzk_pool_threads(pool);
    if (tasks > rx.groups)
        tasks = rx.groups;
    size_t b = (size_t)1 << d->l_in;
    void *mem = cuzk_alloc(tasks * b * sizeof(fr52x8) + 64);
    if (!mem)
        return false;
    rx.scratch = (fr52x8 *)(((uintptr_t)mem + 63) & ~(uintptr_t)63);
    atomic_init(&rx.next, 0);
    cuzk_pool_run(pool, tasks, row_task_x8, &rx);
    cuzk_free(mem);
    return true;
}

/* col_scale on vectors: column row t times sB^t, the factor shared by every lane. */
static void col_scale_x8(fr52x8 *buf, size_t n1, size_t vw, const cuzk_fr_t *sB)
{
    cuzk_fr_t f = *sB;
    for (size_t t = 1; t < n1; t++) {
        uint64_t f52[5];
        cuzk_fr_t f16;
        fr52x8 w;
        poly_x16(&f16, &f);
        fr52_from_fr(f52, &f16);
        fr52x8_bcast(&w, f52);
        for (size_t i = 0; i < vw; i++)
            fr52x8_mul_p(&buf[t * vw + i], &buf[t * vw + i], &w);
        fri_mul(&f, &f, sB);
    }
}

static void col_task_x8(void *p, size_t task)
{
    col_ctx *c = p;
    const cuzk_domain *d = c->d;
    size_t b = (size_t)1 << d->l_in, n1 = (size_t)1 << d->l_out, w = d->cols, vw = w / 8;
    fr52x8 *buf = (fr52x8 *)(void *)c->scratch + task * n1 * vw;
    const uint64_t *tw52 = d->tw52[c->dir];
    for (;;) {
        size_t g = atomic_fetch_add_explicit(&c->next, 1, memory_order_relaxed);
        if (g >= c->groups)
            break;
        cuzk_fr_t *col = c->x + g * w;
        for (size_t t = 0; t < n1; t++)
            for (size_t i = 0; i < vw; i++)
                fr52x8_load(&buf[t * vw + i], col + t * b + 8 * i);
        if (c->dit) {
            dit_rec_x8(buf, d->l_out, vw, vw, tw52);
            if (c->scale)
                col_scale_x8(buf, n1, vw, &c->sB);
        } else {
            if (c->scale)
                col_scale_x8(buf, n1, vw, &c->sB);
            dif_rec_x8(buf, d->l_out, vw, vw, tw52);
        }
        for (size_t t = 0; t < n1; t++)
            for (size_t i = 0; i < vw; i++)
                fr52x8_store(col + t * b + 8 * i, &buf[t * vw + i]);
    }
}

/* The column pass on groups of 8k columns; false when it does not apply or has no memory. */
static bool col_pass_x8(col_ctx *c, cuzk_pool *pool)
{
    const cuzk_domain *d = c->d;
    if (d->scalar_only || !d->tw52[0] || d->cols % 8 != 0)
        return false;
    size_t tasks = cuzk_pool_threads(pool);
    if (tasks > c->groups)
        tasks = c->groups;
    size_t per_task = ((size_t)1 << d->l_out) * (d->cols / 8);
    void *mem = cuzk_alloc(tasks * per_task * sizeof(fr52x8) + 64);
    if (!mem)
        return false;
    c->scratch = (cuzk_fr_t *)(((uintptr_t)mem + 63) & ~(uintptr_t)63);
    atomic_init(&c->next, 0);
    cuzk_pool_run(pool, tasks, col_task_x8, c);
    cuzk_free(mem);
    return true;
}

#endif /* CUZK_FR_HAVE_IFMA */

static void col_pass(const cuzk_domain *d, cuzk_fr_t *x, int dir, bool dit, const poly_scale *sc,
                     cuzk_pool *pool)
{
    if (d->l_out == 0)
        return;
    col_ctx c;
    memset(&c, 0, sizeof c);
    c.d = d;
    c.x = x;
    c.dir = dir;
    c.dit = dit;
    if (sc && sc->on) {
        c.sB = sc->s;
        for (unsigned i = 0; i < d->l_in; i++)
            fri_mul(&c.sB, &c.sB, &c.sB);
        c.scale = !cuzk_fr_is_one(&c.sB);
    }
    c.groups = ((size_t)1 << d->l_in) / d->cols;
    CUZK_VERIFY_CHECK(c.groups * d->cols == (size_t)1 << d->l_in);
#if CUZK_FR_HAVE_IFMA
    if (col_pass_x8(&c, pool))
        return;
#endif
    size_t tasks = cuzk_pool_threads(pool);
    if (tasks > c.groups)
        tasks = c.groups;
    /* Each task's block is padded to a multiple of 64 bytes and the base aligned to 64. */
    c.per_task = (((size_t)1 << d->l_out) * d->cols + 1) & ~(size_t)1;
    void *mem =
        d->col_in_place ? NULL : cuzk_alloc_array(tasks * c.per_task + 2, sizeof(cuzk_fr_t));
    if (mem)
        c.scratch = (cuzk_fr_t *)(((uintptr_t)mem + 63) & ~(uintptr_t)63);
    atomic_init(&c.next, 0);
    cuzk_pool_run(pool, tasks, col_task, &c);
    cuzk_free(mem);
}

/* ---- transforms ---------------------------------------------------------------------------- */

void cuzk__ntt_dif(const cuzk_domain *d, cuzk_fr_t *x, int dir, const poly_scale *in,
                   cuzk_pool *pool)
{
    col_pass(d, x, dir, false, in, pool);
    row_ctx c = {d, x, dir, -1, false, in, NULL};
    row_pass(&c, pool);
}

void cuzk__ntt_dit(const cuzk_domain *d, cuzk_fr_t *x, int dir, const poly_scale *out,
                   cuzk_pool *pool)
{
    row_ctx c = {d, x, -1, dir, false, NULL, out};
    row_pass(&c, pool);
    col_pass(d, x, dir, true, out, pool);
}

void cuzk__ntt_to_coset(const cuzk_domain *d, cuzk_fr_t *x, cuzk_pool *pool)
{
    col_pass(d, x, POLY_INV, false, NULL, pool);
    row_ctx c = {d, x, POLY_INV, POLY_FWD, true, NULL, NULL};
    row_pass(&c, pool);
    col_pass(d, x, POLY_FWD, true, NULL, pool);
}

/* ---- bit reversal -------------------------------------------------------------------------
 * Index p = (hi, mid, lo) with 4-bit hi and lo; bitrev(p) = (rev lo, rev mid, rev hi). The tile
 * of a mid value (16 runs of 16 elements) swaps with the tile of rev(mid) (or within itself), so
 * each swap pair touches two 8 KiB tiles instead of two random cache lines. */
typedef struct {
    cuzk_fr_t *x;
    unsigned l;
    size_t mids, chunk;
} br_ctx;

static void br_task(void *p, size_t i)
{
    const br_ctx *c = p;
    const unsigned tb = POLY_BR_TILE_LOG, lm = c->l - 2 * tb, hs = c->l - tb;
    const size_t ts = (size_t)1 << tb;
    size_t end = (i + 1) * c->chunk < c->mids ? (i + 1) * c->chunk : c->mids;
    for (size_t m = i * c->chunk; m < end; m++) {
        size_t rm = poly_bitrev(m, lm);
        if (rm < m)
            continue;
        for (size_t hi = 0; hi < ts; hi++) {
            size_t rhi = poly_bitrev(hi, tb);
            for (size_t lo = 0; lo < ts; lo++) {
                size_t a = (hi << hs) | (m << tb) | lo;
                size_t b = (poly_bitrev(lo, tb) << hs) | (rm << tb) | rhi;
                if (m == rm && b <= a)
                    continue;
                cuzk_fr_t t = c->x[a];
                c->x[a] = c->x[b];
                c->x[b] = t;
            }
        }
    }
}

void cuzk__bitrev_permute(const cuzk_domain *d, cuzk_fr_t *x, cuzk_pool *pool)
{
    unsigned l = d->log_n;
    if (l < 2 * POLY_BR_TILE_LOG + 2) {
        for (size_t i = 0; i < d->n; i++) {
            size_t j = poly_bitrev(i, l);
            if (i < j) {
                cuzk_fr_t t = x[i];
                x[i] = x[j];
                x[j] = t;
            }
        }
        return;
    }
    br_ctx c = {x, l, (size_t)1 << (l - 2 * POLY_BR_TILE_LOG), 32};
    cuzk_pool_run(pool, (c.mids + c.chunk - 1) / c.chunk, br_task, &c);
}

/* ---- public API ---------------------------------------------------------------------------- */

void cuzk_ntt(const cuzk_domain *d, cuzk_fr_t *a, cuzk_pool *pool)
{
    cuzk__bitrev_permute(d, a, pool);
    cuzk__ntt_dit(d, a, POLY_FWD, NULL, pool);
}

void cuzk_intt(const cuzk_domain *d, cuzk_fr_t *a, cuzk_pool *pool)
{
    poly_scale sc = {true, d->n_inv, {{0}}};
    cuzk_fr_set_one(&sc.s);
    cuzk__bitrev_permute(d, a, pool);
    cuzk__ntt_dit(d, a, POLY_INV, &sc, pool);
}

void cuzk_coset_ntt(const cuzk_domain *d, cuzk_fr_t *a, cuzk_pool *pool)
{
    poly_scale sc = {true, {{0}}, d->g};
    cuzk_fr_set_one(&sc.k);
    cuzk__ntt_dif(d, a, POLY_FWD, &sc, pool);
    cuzk__bitrev_permute(d, a, pool);
}

void cuzk_coset_intt(const cuzk_domain *d, cuzk_fr_t *a, cuzk_pool *pool)
{
    poly_scale sc = {true, d->n_inv, d->g_inv};
    cuzk__bitrev_permute(d, a, pool);
    cuzk__ntt_dit(d, a, POLY_INV, &sc, pool);
}
