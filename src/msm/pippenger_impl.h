/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * CPU multi-scalar multiplication and bitmap batch addition, written once and instantiated per
 * group (the habit of src/curve/point_impl.h): a .c file defines the parameter macros below and
 * includes this file, which defines the functions of include/cuzk/msm.h for that group.
 * No include guard on purpose (the group-independent half below has its own).
 *
 * Parameters (all required):
 *   M_(name)        public name for the group, e.g. cuzk_g1_##name
 *   F_T             field element type of the coordinates
 *   F_ONE F_IS_ZERO F_EQ F_ADD F_SUB F_DBL F_NEG F_MUL F_SQR
 *                   field operations with the cuzk_fp_* signatures
 *   F_INV           a (variable-time) inversion
 *   AFF_T JAC_T XYZZ_T  point types
 *   MSM_INV_COST    cost of F_INV in field multiplications (measured, see the .c file)
 *
 * ---- Algorithm -------------------------------------------------------------------------------
 *
 * Pippenger's bucket method with signed c-bit digits. Window w of scalar k covers bits
 * [wc, wc + c); its digit is
 *     d_w = bits[wc, wc + c) + bit(wc - 1) - 2^c * bit(wc + c - 1),
 * i.e. the usual "subtract 2^c and carry one into the next window when the window value has
 * its top bit set", with the carry into window w being bit wc - 1 of the scalar (Booth
 * recoding, as in sppark's booth_encode and blst's booth digits). The sum telescopes to k when
 * k < 2^(c * nwin - 1), hence nwin = ceil((bits + 1) / c) windows for scalars of |bits| bits.
 * Digits lie in [-2^(c-1), 2^(c-1)], so a window needs 2^(c-1) buckets (|d| - 1) and a point
 * with a negative digit is added negated. Because the carry is a bit of the scalar, every
 * window's digit is computed from c + 1 scalar bits alone, which is what lets the (window,
 * chunk of points) tasks below run independently and in any order.
 *
 * Each task accumulates one chunk of points into the buckets of one window, then reduces them
 * with the running sum  sum_b (b+1) B_b = sum_b (B_top + ... + B_b)  (two additions per
 * bucket), giving the task's window sum. The caller combines the window sums with c doublings
 * per window (Horner). Tasks are taken from an atomic counter by |workers| = min(threads,
 * tasks) pool workers, each owning one set of buckets, so memory is workers x buckets.
 *
 * Bucket accumulation, two strategies (selectable; the default is the measured winner):
 *  - XYZZ: buckets in XYZZ coordinates, one madd-2008-s per point (8M + 2S).
 *  - AFFINE: affine buckets; additions into distinct buckets are independent, so a batch of
 *    |batch| of them shares one inversion (Montgomery's trick: 3M per element + one
 *    inversion), then lambda = (y2 - y1) / (x2 - x1), x3 = lambda^2 - x1 - x2,
 *    y3 = lambda (x1 - x3) - y1: about 5M + 1S + inversion / batch per point. This is the
 *    batch-affine accumulation of gnark-crypto's CPU MSM (Consensys/gnark-crypto PR #261;
 *    Botrel and El Housni, "Faster Montgomery multiplication and multi-scalar multiplication
 *    for SNARKs", TCHES 2023 / eprint 2022/1400) and of facts/gpu-techniques.md section 6
 *    item 5. A point whose bucket already has an addition in the current batch waits in a
 *    conflict queue and is retried after the batch; when the queue is full it goes to a side
 *    XYZZ bucket instead, so skewed digit distributions (many equal scalars) degrade to the
 *    XYZZ cost instead of to one inversion per point. Equal x inside a batch is a doubling
 *    (lambda = 3x^2 / 2y, same batch) or a cancellation (the bucket becomes infinity).
 *
 * Window choice (cost model, in field multiplications M of the group):
 *     time(c, k) = ceil(nwin * k / threads) * ((n / k) * A + 2^(c-1) * R) + nwin * k * J
 * with k point chunks per window, A the cost of one bucket addition (XYZZ: 10 + the per-point
 * overhead; AFFINE: 6 + MSM_INV_COST / batch + overhead), R the running-sum cost per bucket
 * (two XYZZ additions) and J one Jacobian addition to combine task results. The planner tries
 * every c up to MSM_AUTO_MAX_WINDOW (capped at bits + 1) and k up to 2 * threads / nwin and
 * keeps the cheapest; the constants were fitted to the measurements in docs/PERFORMANCE.md.
 *
 * Batch addition (bitmap): |lanes| affine accumulators per worker; the selected points are
 * dealt round-robin to the lanes, so each round is |lanes| independent affine additions that
 * share one inversion. At the end the lanes are summed in XYZZ. The bitmap is split into
 * chunks of words taken from an atomic counter; worker sums are combined in Jacobian.
 */

/* ---- group-independent part ------------------------------------------------------------- */
#ifndef CUZK_MSM_PIPPENGER_COMMON_
#define CUZK_MSM_PIPPENGER_COMMON_

#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "cuzk/alloc.h"
#include "cuzk/msm.h"
#include "common/verify.h"
#include "field/fp_internal.h"

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#define MSM_ALIGN 64
/* Digits are computed |MSM_BLOCK| points at a time; buckets are prefetched this far ahead. */
#define MSM_BLOCK 64
#define MSM_PREFETCH 6
#define MSM_AUTO_MAX_WINDOW 20
/* Affine accumulation: additions per shared inversion (at most), and the smallest bucket
 * count for which the automatic choice considers it. */
#define MSM_BATCH_MAX 1024
#define MSM_AFFINE_MIN_BUCKETS 256
/* Batch addition: at most this many lanes per worker. */
#define MSM_LANES_MAX 1024
/* The max-bit-length scan splits the scalars into at most this many chunks. */
#define MSM_SCAN_CHUNKS 64

/*
 * Cost model constants, in field multiplications (see the header comment). The operation
 * counts are 8M + 2S (madd-2008-s) and 5M + 1S plus the shared inversion; the overheads (digit
 * extraction, bitmaps, the batch's subtractions, copies and queue) were fitted to the CPU times
 * of 2^12..2^20-point runs in docs/PERFORMANCE.md, where one bucket addition cost about 11.5 M
 * (XYZZ) and 8.5 to 10 M (AFFINE), and one bucket of the running sum about 25 M (affine buckets:
 * one mixed and one full XYZZ addition) and 28 M (XYZZ buckets: two full additions).
 */
#define MSM_COST_OVERHEAD 1.5
#define MSM_COST_ADD_XYZZ 10.0
#define MSM_COST_ADD_AFFINE 8.5
#define MSM_COST_REDUCE_XYZZ 28.0
#define MSM_COST_REDUCE_AFFINE 24.0
#define MSM_COST_JAC_ADD 16.0

enum { MSM_KIND_ADD = 0, MSM_KIND_DBL = 1, MSM_KIND_CANCEL = 2 };

/*
 * Inline field helpers for the batch-affine inner loop. The library's cuzk_fp_add/sub are
 * out-of-line portable code (a call plus 128-bit arithmetic each), which made subtractions a
 * fifth of the batch-affine time (perf, 2^16 points); these are the same operations as
 * add/sub-with-carry chains that the compiler keeps in registers, and the multiplication goes
 * straight to the back end that cuzk_fp_mul forwards to. Same results, same representation.
 * TODO(field): when src/field exposes inline add/sub, use those and drop these.
 */
#if defined(__x86_64__)
static inline void msm_fp_sub(cuzk_fp_t *r, const cuzk_fp_t *a, const cuzk_fp_t *b)
{
    unsigned long long t[6], u[6];
    unsigned char c = 0, d = 0;
    for (int i = 0; i < 6; i++)
        c = _subborrow_u64(c, a->l[i], b->l[i], &t[i]);
    uint64_t mask = 0 - (uint64_t)c; /* add p back after a borrow */
    for (int i = 0; i < 6; i++)
        d = _addcarry_u64(d, t[i], cuzk_fp_modulus[i] & mask, &u[i]);
    for (int i = 0; i < 6; i++)
        r->l[i] = u[i];
}

static inline void msm_fp_add(cuzk_fp_t *r, const cuzk_fp_t *a, const cuzk_fp_t *b)
{
    unsigned long long t[6], u[6];
    unsigned char c = 0, d = 0;
    for (int i = 0; i < 6; i++) /* a + b < 2p < 2^384: no carry out */
        c = _addcarry_u64(c, a->l[i], b->l[i], &t[i]);
    for (int i = 0; i < 6; i++)
        d = _subborrow_u64(d, t[i], cuzk_fp_modulus[i], &u[i]);
    uint64_t keep = 0 - (uint64_t)d; /* t < p: keep t */
    for (int i = 0; i < 6; i++)
        r->l[i] = (t[i] & keep) | (u[i] & ~keep);
}
#else
#define msm_fp_sub cuzk_fp_sub
#define msm_fp_add cuzk_fp_add
#endif

static inline void msm_fp_dbl(cuzk_fp_t *r, const cuzk_fp_t *a)
{
    msm_fp_add(r, a, a);
}

static inline void msm_fp_neg(cuzk_fp_t *r, const cuzk_fp_t *a)
{
    cuzk_fp_t z = {{0}};
    msm_fp_sub(r, &z, a);
}

static inline void msm_fp_mul(cuzk_fp_t *r, const cuzk_fp_t *a, const cuzk_fp_t *b)
{
    cuzk_fp_mul_impl(r->l, a->l, b->l);
}

static inline void msm_fp_sqr(cuzk_fp_t *r, const cuzk_fp_t *a)
{
    cuzk_fp_sqr_impl(r->l, a->l);
}

static inline bool msm_fp_eq(const cuzk_fp_t *a, const cuzk_fp_t *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

static inline bool msm_fp_is_zero(const cuzk_fp_t *a)
{
    return (a->l[0] | a->l[1] | a->l[2] | a->l[3] | a->l[4] | a->l[5]) == 0;
}

static inline void msm_fp2_add(cuzk_fp2_t *r, const cuzk_fp2_t *a, const cuzk_fp2_t *b)
{
    msm_fp_add(&r->c0, &a->c0, &b->c0);
    msm_fp_add(&r->c1, &a->c1, &b->c1);
}

static inline void msm_fp2_sub(cuzk_fp2_t *r, const cuzk_fp2_t *a, const cuzk_fp2_t *b)
{
    msm_fp_sub(&r->c0, &a->c0, &b->c0);
    msm_fp_sub(&r->c1, &a->c1, &b->c1);
}

static inline void msm_fp2_dbl(cuzk_fp2_t *r, const cuzk_fp2_t *a)
{
    msm_fp_dbl(&r->c0, &a->c0);
    msm_fp_dbl(&r->c1, &a->c1);
}

static inline void msm_fp2_neg(cuzk_fp2_t *r, const cuzk_fp2_t *a)
{
    msm_fp_neg(&r->c0, &a->c0);
    msm_fp_neg(&r->c1, &a->c1);
}

/* Karatsuba, 3M (u^2 = -1); every input is read before |r| is written. */
static inline void msm_fp2_mul(cuzk_fp2_t *r, const cuzk_fp2_t *a, const cuzk_fp2_t *b)
{
    cuzk_fp_t t0, t1, s0, s1;
    msm_fp_mul(&t0, &a->c0, &b->c0);
    msm_fp_mul(&t1, &a->c1, &b->c1);
    msm_fp_add(&s0, &a->c0, &a->c1);
    msm_fp_add(&s1, &b->c0, &b->c1);
    msm_fp_mul(&s0, &s0, &s1);
    msm_fp_sub(&r->c0, &t0, &t1);
    msm_fp_sub(&s0, &s0, &t0);
    msm_fp_sub(&r->c1, &s0, &t1);
}

/* (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u: 2M. */
static inline void msm_fp2_sqr(cuzk_fp2_t *r, const cuzk_fp2_t *a)
{
    cuzk_fp_t s, d, m;
    msm_fp_add(&s, &a->c0, &a->c1);
    msm_fp_sub(&d, &a->c0, &a->c1);
    msm_fp_mul(&m, &a->c0, &a->c1);
    msm_fp_mul(&r->c0, &s, &d);
    msm_fp_dbl(&r->c1, &m);
}

static inline bool msm_fp2_eq(const cuzk_fp2_t *a, const cuzk_fp2_t *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

static inline bool msm_fp2_is_zero(const cuzk_fp2_t *a)
{
    return msm_fp_is_zero(&a->c0) && msm_fp_is_zero(&a->c1);
}

/*
 * Canonical limbs of a Montgomery Fr element: a R^-1 mod r by four word-by-word Montgomery
 * reduction steps (20 multiplications instead of the 32 of multiplying by one as
 * cuzk_fr_to_canonical does). For a < r the result is below r.
 */
#define MSM_FR_N0 0xfffffffeffffffffULL /* -r^-1 mod 2^64 */
static inline void msm_fr_canonical(uint64_t out[4], const cuzk_fr_t *a)
{
    typedef unsigned __int128 u128;
    uint64_t t[4] = {a->l[0], a->l[1], a->l[2], a->l[3]};
    for (int i = 0; i < 4; i++) {
        uint64_t m = t[0] * MSM_FR_N0;
        u128 acc = (u128)m * cuzk_fr_modulus[0] + t[0]; /* low word is zero by choice of m */
        uint64_t carry = (uint64_t)(acc >> 64);
        for (int j = 1; j < 4; j++) {
            acc = (u128)m * cuzk_fr_modulus[j] + t[j] + carry;
            t[j - 1] = (uint64_t)acc;
            carry = (uint64_t)(acc >> 64);
        }
        t[3] = carry;
    }
    memcpy(out, t, sizeof t);
}

typedef struct {
    const uint64_t *raw;   /* canonical scalars, 4 limbs each, or NULL */
    const cuzk_fr_t *mont; /* Montgomery scalars when |raw| is NULL */
} msm_scalars;

/* Canonical limbs of scalar |i|: a pointer into the raw array, or |tmp| after conversion. */
static inline const uint64_t *msm_scalar(uint64_t tmp[4], const msm_scalars *s, size_t i)
{
    if (s->raw)
        return s->raw + 4 * i;
    msm_fr_canonical(tmp, &s->mont[i]);
    return tmp;
}

/* The signed digit of window |w| (see the header comment): bits [wc - 1, wc + c) of |k|. */
static inline int32_t msm_digit(const uint64_t k[4], unsigned w, unsigned c)
{
    size_t off = (size_t)w * c;
    uint64_t v;
    if (off == 0) {
        v = k[0] << 1;
    } else {
        size_t lo = off - 1, limb = lo / 64;
        unsigned sh = (unsigned)(lo % 64);
        v = limb < 4 ? k[limb] >> sh : 0;
        if (sh + c + 1 > 64 && limb + 1 < 4)
            v |= k[limb + 1] << (64 - sh);
    }
    v &= ((uint64_t)2 << c) - 1;
    int32_t d = (int32_t)((v >> 1) + (v & 1));
    if (v >> c)
        d -= (int32_t)1 << c;
    return d;
}

static inline bool msm_bit_get(const uint64_t *bm, size_t i)
{
    return (bm[i >> 6] >> (i & 63)) & 1;
}

static inline void msm_bit_set(uint64_t *bm, size_t i)
{
    bm[i >> 6] |= (uint64_t)1 << (i & 63);
}

static inline void msm_bit_clear(uint64_t *bm, size_t i)
{
    bm[i >> 6] &= ~((uint64_t)1 << (i & 63));
}

static inline size_t msm_words(size_t bits)
{
    return (bits + 63) / 64;
}

/* Appends a 64-byte aligned region of |count| x |size| bytes at *off; false on overflow. */
static bool msm_region(size_t *start, size_t *off, size_t count, size_t size)
{
    size_t o = *off;
    if (o > SIZE_MAX - (MSM_ALIGN - 1))
        return false;
    o = (o + MSM_ALIGN - 1) & ~(size_t)(MSM_ALIGN - 1);
    if (size && count > (SIZE_MAX - o) / size)
        return false;
    *start = o;
    *off = o + count * size;
    return true;
}

/* Sizes of one group's types. */
typedef struct {
    size_t aff, xyzz, jac, f, entry, qitem;
    double inv; /* one inversion, in multiplications */
} msm_group;

typedef struct {
    unsigned c;           /* window width */
    unsigned nwin;        /* windows */
    unsigned chunks;      /* point chunks per window */
    unsigned workers;     /* bucket sets in use at once */
    cuzk_msm_accum accum; /* XYZZ or AFFINE, never AUTO */
    size_t nb;            /* buckets per window, 2^(c-1) */
    size_t batch;         /* AFFINE: additions per inversion */
    size_t queue;         /* AFFINE: conflict queue capacity */
    size_t tasks;         /* nwin x chunks */
    double cost;          /* model estimate */
} msm_plan;

/* Byte offsets inside one worker's region, and the region sizes of the whole call. */
typedef struct {
    size_t bk, side, used, side_used, busy, ent, pre, queue; /* per worker */
    size_t worker;                                           /* bytes per worker (aligned) */
    size_t results;                                          /* offset of the task results */
    size_t workers;                                          /* offset of worker 0's region */
    size_t total;                                            /* whole scratch incl. slack */
} msm_layout;

/* Additions per inversion: a quarter of the buckets (about one point in eight then finds its
 * bucket busy and waits in the queue), at most MSM_BATCH_MAX. Quarter, eighth and sixteenth
 * measured within noise of each other at 2^16 points; the cap bounds the batch's working set.
 * Tiny windows (only ever chosen explicitly) still batch a few, so conflicts stay exercised. */
static size_t msm_batch_size(size_t nb)
{
    size_t b = nb / 4;
    if (b < 4)
        b = nb < 4 ? nb : 4;
    return b > MSM_BATCH_MAX ? MSM_BATCH_MAX : b;
}

static double msm_cost(const msm_group *g, size_t n, unsigned threads, unsigned nwin, size_t nb,
                       unsigned k, cuzk_msm_accum accum, size_t batch)
{
    double a = accum == CUZK_MSM_ACCUM_XYZZ ? MSM_COST_ADD_XYZZ
                                            : MSM_COST_ADD_AFFINE + g->inv / (double)batch;
    double tasks = (double)nwin * k;
    double rounds = (double)((nwin * (size_t)k + threads - 1) / threads);
    double r = accum == CUZK_MSM_ACCUM_XYZZ ? MSM_COST_REDUCE_XYZZ : MSM_COST_REDUCE_AFFINE;
    double per_task = ((double)n / k) * (a + MSM_COST_OVERHEAD) + (double)nb * r;
    return rounds * per_task + tasks * MSM_COST_JAC_ADD;
}

static bool msm_layout_make(msm_layout *l, const msm_plan *p, const msm_group *g)
{
    size_t off = 0, w = msm_words(p->nb);
    memset(l, 0, sizeof *l);
    if (p->accum == CUZK_MSM_ACCUM_XYZZ) {
        if (!msm_region(&l->bk, &off, p->nb, g->xyzz) ||
            !msm_region(&l->used, &off, w, sizeof(uint64_t)))
            return false;
    } else {
        if (!msm_region(&l->bk, &off, p->nb, g->aff) ||
            !msm_region(&l->side, &off, p->nb, g->xyzz) ||
            !msm_region(&l->used, &off, w, sizeof(uint64_t)) ||
            !msm_region(&l->side_used, &off, w, sizeof(uint64_t)) ||
            !msm_region(&l->busy, &off, w, sizeof(uint64_t)) ||
            !msm_region(&l->ent, &off, p->batch, g->entry) ||
            !msm_region(&l->pre, &off, p->batch, g->f) ||
            !msm_region(&l->queue, &off, p->queue ? p->queue : 1, g->qitem))
            return false;
    }
    size_t dummy, total = 0;
    if (!msm_region(&dummy, &off, 0, 1)) /* align the worker stride */
        return false;
    l->worker = off;
    if (!msm_region(&l->results, &total, p->tasks, g->jac) ||
        !msm_region(&l->workers, &total, p->workers, l->worker) ||
        !msm_region(&dummy, &total, 1, MSM_ALIGN)) /* slack to align the base pointer */
        return false;
    l->total = total;
    return true;
}

/*
 * Chooses window, chunks and accumulation for |n| scalars of at most |bits| bits on |threads|
 * threads (the cost model of the header comment); fields set in |o| are kept.
 */
static void msm_plan_make(msm_plan *out, const msm_group *g, size_t n, unsigned threads,
                          unsigned bits, const cuzk_msm_opts *o)
{
    unsigned cmin = 1, cmax = bits + 1 < MSM_AUTO_MAX_WINDOW ? bits + 1 : MSM_AUTO_MAX_WINDOW;
    if (o->window)
        cmin = cmax = o->window;
    if (threads == 0)
        threads = 1;
    msm_plan best = {0};
    best.cost = -1;
    for (unsigned c = cmin; c <= cmax; c++) {
        size_t nb = (size_t)1 << (c - 1);
        unsigned nwin = (bits + 1 + c - 1) / c;
        for (int a = CUZK_MSM_ACCUM_XYZZ; a <= CUZK_MSM_ACCUM_AFFINE; a++) {
            cuzk_msm_accum acc = (cuzk_msm_accum)a;
            if (o->accum != CUZK_MSM_ACCUM_AUTO && acc != o->accum)
                continue;
            if (o->accum == CUZK_MSM_ACCUM_AUTO && acc == CUZK_MSM_ACCUM_AFFINE &&
                nb < MSM_AFFINE_MIN_BUCKETS)
                continue;
            size_t batch = acc == CUZK_MSM_ACCUM_AFFINE ? msm_batch_size(nb) : 0;
            unsigned kmin = 1, kmax = (2 * threads + nwin - 1) / nwin;
            if (o->chunks)
                kmin = kmax = o->chunks;
            size_t nmax = n ? n : 1;
            if (kmax > nmax)
                kmax = (unsigned)nmax;
            if (kmin > kmax)
                kmin = kmax;
            for (unsigned k = kmin; k <= kmax; k++) {
                double cost = msm_cost(g, n, threads, nwin, nb, k, acc, batch);
                if (best.cost < 0 || cost < best.cost) {
                    best.c = c;
                    best.nwin = nwin;
                    best.chunks = k;
                    best.accum = acc;
                    best.nb = nb;
                    best.batch = batch;
                    best.queue = batch / 2;
                    best.tasks = (size_t)nwin * k;
                    best.workers = best.tasks < threads ? (unsigned)best.tasks : threads;
                    best.cost = cost;
                }
            }
        }
    }
    *out = best;
}

/* The first index of chunk |j| of |chunks| over |n| items. */
static inline size_t msm_chunk_start(size_t n, size_t chunks, size_t j)
{
    return n / chunks * j + (j < n % chunks ? j : n % chunks);
}

/* Scan state: OR of the canonical limbs per chunk, whose bit length is the maximum one. */
typedef struct {
    const msm_scalars *sc;
    size_t n, chunks;
    uint64_t (*acc)[4];
} msm_scan_ctx;

static void msm_scan_chunk(void *vctx, size_t j)
{
    msm_scan_ctx *x = vctx;
    size_t lo = msm_chunk_start(x->n, x->chunks, j), hi = msm_chunk_start(x->n, x->chunks, j + 1);
    uint64_t o[4] = {0, 0, 0, 0}, tmp[4];
    for (size_t i = lo; i < hi; i++) {
        const uint64_t *k = msm_scalar(tmp, x->sc, i);
        o[0] |= k[0];
        o[1] |= k[1];
        o[2] |= k[2];
        o[3] |= k[3];
    }
    memcpy(x->acc[j], o, sizeof o);
}

static unsigned msm_max_bits(const msm_scalars *sc, size_t n, cuzk_pool *pool)
{
    uint64_t acc[MSM_SCAN_CHUNKS][4];
    size_t chunks = n / 4096;
    chunks = chunks < 1 ? 1 : chunks > MSM_SCAN_CHUNKS ? MSM_SCAN_CHUNKS : chunks;
    msm_scan_ctx x = {sc, n, chunks, acc};
    cuzk_pool_run(pool, chunks, msm_scan_chunk, &x);
    uint64_t o[4] = {0, 0, 0, 0};
    for (size_t j = 0; j < chunks; j++)
        for (size_t i = 0; i < 4; i++)
            o[i] |= acc[j][i];
    for (unsigned i = 4; i-- > 0;)
        if (o[i])
            return 64 * i + 64 - (unsigned)__builtin_clzll(o[i]);
    return 0;
}

static cuzk_status msm_check_opts(const cuzk_msm_opts *o)
{
    if (o->window > CUZK_MSM_MAX_WINDOW)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "msm: window %u is above the maximum %d",
                         o->window, CUZK_MSM_MAX_WINDOW);
    if ((unsigned)o->accum > CUZK_MSM_ACCUM_AFFINE)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "msm: unknown accumulation %d", (int)o->accum);
    return CUZK_OK;
}

/* Working memory: the caller's when given (checked), else one cuzk_alloc. */
static cuzk_status msm_get_memory(unsigned char **base, void **owned, size_t bytes,
                                  const cuzk_msm_opts *o, const char *what)
{
    *owned = NULL;
    unsigned char *p;
    if (o->scratch) {
        if (o->scratch_bytes < bytes)
            return cuzk_fail(CUZK_ERR_INVALID_ARG,
                             "%s: scratch of %zu bytes is below the %zu bytes needed", what,
                             o->scratch_bytes, bytes);
        p = o->scratch;
    } else {
        p = cuzk_alloc(bytes);
        if (!p)
            return cuzk_fail(CUZK_ERR_NOMEM, "%s: cannot allocate %zu bytes of working memory",
                             what, bytes);
        *owned = p;
    }
    uintptr_t a = ((uintptr_t)p + MSM_ALIGN - 1) & ~(uintptr_t)(MSM_ALIGN - 1);
    *base = p + (a - (uintptr_t)p);
    return CUZK_OK;
}

/* Batch addition plan: lanes per worker, word chunks. */
typedef struct {
    cuzk_msm_accum accum;
    size_t lanes, nwords, chunk_words, chunks;
    unsigned workers;
    size_t lanes_off, ent_off, pre_off, worker; /* per-worker layout */
    size_t results, workers_off, total;         /* whole scratch */
} msm_badd_plan;

static bool msm_badd_plan_make(msm_badd_plan *p, const msm_group *g, size_t n, unsigned threads,
                               const cuzk_msm_opts *o)
{
    memset(p, 0, sizeof *p);
    if (threads == 0)
        threads = 1;
    p->nwords = msm_words(n);
    size_t cw = p->nwords / (8 * (size_t)threads);
    p->chunk_words = cw < 16 ? 16 : cw;
    p->chunks = p->nwords ? (p->nwords + p->chunk_words - 1) / p->chunk_words : 0;
    p->workers = p->chunks < threads ? (unsigned)(p->chunks ? p->chunks : 1) : threads;
    size_t per = n / p->workers;
    p->accum = o->accum;
    if (p->accum == CUZK_MSM_ACCUM_AUTO)
        p->accum = per >= 64 ? CUZK_MSM_ACCUM_AFFINE : CUZK_MSM_ACCUM_XYZZ;
    size_t lanes = per / 8;
    p->lanes = lanes < 4 ? 4 : lanes > MSM_LANES_MAX ? MSM_LANES_MAX : lanes;
    size_t off = 0, dummy, total = 0;
    if (p->accum == CUZK_MSM_ACCUM_AFFINE) {
        if (!msm_region(&p->lanes_off, &off, p->lanes, g->aff) ||
            !msm_region(&p->ent_off, &off, p->lanes, g->entry) ||
            !msm_region(&p->pre_off, &off, p->lanes, g->f))
            return false;
    }
    if (!msm_region(&dummy, &off, 0, 1))
        return false;
    p->worker = off;
    if (!msm_region(&p->results, &total, p->workers, g->jac) ||
        !msm_region(&p->workers_off, &total, p->workers, p->worker) ||
        !msm_region(&dummy, &total, 1, MSM_ALIGN))
        return false;
    p->total = total;
    return true;
}

#endif /* CUZK_MSM_PIPPENGER_COMMON_ */

/* ---- per-group part ------------------------------------------------------------------------ */

/* One addition of a batch: *dst += (neg ? -src : src). */
typedef struct {
    AFF_T *dst;
    const AFF_T *src;
    uint32_t neg;
    uint32_t kind;
} M_(entry_t_);

/* A point waiting for its bucket to leave the current batch. */
typedef struct {
    const AFF_T *src;
    uint32_t b;
    uint32_t neg;
} M_(qitem_t_);

static const msm_group M_(group_) = {sizeof(AFF_T),      sizeof(XYZZ_T),        sizeof(JAC_T),
                                     sizeof(F_T),        sizeof(M_(entry_t_)), sizeof(M_(qitem_t_)),
                                     MSM_INV_COST};

/*
 * Performs the |m| independent affine additions of |ent| with one inversion (Montgomery's
 * trick). Each dst appears at most once and is not at infinity; src is not at infinity.
 * |pre| holds |m| prefix products. Cost per addition: 5M + 1S + 7 subtractions, plus the
 * shared inversion.
 */
static void M_(batch_apply_)(M_(entry_t_) *ent, size_t m, F_T *pre)
{
    F_T acc, den, num, py;
    size_t live = 0;
    F_ONE(&acc);
    for (size_t k = 0; k < m; k++) {
        M_(entry_t_) *e = &ent[k];
        AFF_T *a = e->dst;
        const AFF_T *p = e->src;
        if (F_EQ(&a->x, &p->x)) {
            if (e->neg)
                F_NEG(&py, &p->y);
            else
                py = p->y;
            if (F_EQ(&a->y, &py) && !F_IS_ZERO(&py)) {
                e->kind = MSM_KIND_DBL; /* lambda = 3x^2 / 2y */
                F_DBL(&den, &a->y);
            } else {
                e->kind = MSM_KIND_CANCEL; /* a = -p, or a point of order 2 doubled */
                a->infinity = true;
                continue;
            }
        } else {
            e->kind = MSM_KIND_ADD;
            F_SUB(&den, &p->x, &a->x);
        }
        pre[k] = acc;
        F_MUL(&acc, &acc, &den);
        live++;
    }
    if (!live)
        return;
    F_INV(&acc, &acc);
    for (size_t k = m; k-- > 0;) {
        M_(entry_t_) *e = &ent[k];
        if (e->kind == MSM_KIND_CANCEL)
            continue;
        AFF_T *a = e->dst;
        const AFF_T *p = e->src;
        F_T inv, lam, x3;
        if (e->kind == MSM_KIND_ADD) {
            if (e->neg)
                F_NEG(&py, &p->y);
            else
                py = p->y;
            F_SUB(&den, &p->x, &a->x);
            F_SUB(&num, &py, &a->y);
        } else {
            F_DBL(&den, &a->y);
            F_SQR(&num, &a->x);
            F_DBL(&lam, &num);
            F_ADD(&num, &num, &lam);
        }
        F_MUL(&inv, &acc, &pre[k]); /* 1 / den_k */
        F_MUL(&acc, &acc, &den);    /* 1 / (den_0 ... den_{k-1}) */
        F_MUL(&lam, &num, &inv);
        F_SQR(&x3, &lam);
        F_SUB(&x3, &x3, &a->x);
        F_SUB(&x3, &x3, &p->x);
        F_SUB(&num, &a->x, &x3);
        F_MUL(&num, &num, &lam);
        F_SUB(&a->y, &num, &a->y);
        a->x = x3;
    }
}

/* |p| or its negation as an affine point in |tmp|. */
static inline const AFF_T *M_(signed_)(AFF_T *tmp, const AFF_T *p, uint32_t neg)
{
    if (!neg)
        return p;
    tmp->x = p->x;
    F_NEG(&tmp->y, &p->y);
    tmp->infinity = false;
    return tmp;
}

/* One worker's buckets (views into the scratch region). */
typedef struct {
    void *bk;            /* XYZZ_T[nb] or AFF_T[nb] */
    XYZZ_T *side;        /* AFFINE: overflow buckets */
    uint64_t *used;      /* bucket holds a value */
    uint64_t *side_used; /* side bucket holds a value */
    uint64_t *busy;      /* bucket has an addition in the current batch */
    M_(entry_t_) *ent;
    F_T *pre;
    M_(qitem_t_) *q;
    size_t m, qn, batch, qcap, nb;
} M_(worker_t_);

/* XYZZ accumulation of +-p into bucket b. */
static inline void M_(xyzz_put_)(XYZZ_T *bk, uint64_t *used, const AFF_T *p, uint32_t b,
                                 uint32_t neg)
{
    AFF_T tmp;
    const AFF_T *q = M_(signed_)(&tmp, p, neg);
    if (!msm_bit_get(used, b)) {
        msm_bit_set(used, b);
        M_(xyzz_from_affine)(&bk[b], q);
    } else {
        M_(xyzz_add_affine)(&bk[b], &bk[b], q);
    }
}

/* Prefetches the cache lines of one bucket. */
static inline void M_(prefetch_)(const void *p, size_t size)
{
    const char *c = p;
    for (size_t off = 0; off < size; off += 64)
        __builtin_prefetch(c + off);
    __builtin_prefetch(c + size - 1);
}

/*
 * Places +-p: directly into an empty bucket, into the batch, into the conflict queue, or (queue
 * full) into the side bucket. Returns true when the batch is full. An affine bucket is non-empty
 * exactly when its |used| bit is set, so placing reads only bitmaps; the bucket itself is
 * prefetched here and first read when the batch is applied.
 */
static inline bool M_(aff_place_)(M_(worker_t_) *s, const AFF_T *p, uint32_t b, uint32_t neg)
{
    if (msm_bit_get(s->busy, b)) {
        if (s->qn < s->qcap)
            s->q[s->qn++] = (M_(qitem_t_)){p, b, neg};
        else
            M_(xyzz_put_)(s->side, s->side_used, p, b, neg);
        return false;
    }
    AFF_T *a = (AFF_T *)s->bk + b;
    if (!msm_bit_get(s->used, b)) {
        msm_bit_set(s->used, b);
        a->x = p->x;
        if (neg)
            F_NEG(&a->y, &p->y);
        else
            a->y = p->y;
        a->infinity = false;
        return false;
    }
    M_(prefetch_)(a, sizeof *a);
    msm_bit_set(s->busy, b);
    s->ent[s->m++] = (M_(entry_t_)){a, p, neg, MSM_KIND_ADD};
    return s->m == s->batch;
}

/* Applies the batch, then retries the queued points (qcap < batch, so they cannot fill it). */
static void M_(aff_flush_)(M_(worker_t_) *s)
{
    M_(batch_apply_)(s->ent, s->m, s->pre);
    for (size_t k = 0; k < s->m; k++) {
        size_t b = (size_t)(s->ent[k].dst - (AFF_T *)s->bk);
        msm_bit_clear(s->busy, b);
        if (s->ent[k].kind == MSM_KIND_CANCEL)
            msm_bit_clear(s->used, b); /* the bucket became infinity */
    }
    s->m = 0;
    size_t old = s->qn;
    s->qn = 0;
    for (size_t i = 0; i < old; i++) {
        M_(qitem_t_) it = s->q[i]; /* qn <= i: a re-queued item never overwrites an unread one */
        (void)M_(aff_place_)(s, it.src, it.b, it.neg);
    }
}

static void M_(aff_finish_)(M_(worker_t_) *s)
{
    while (s->m > 0) {
        M_(aff_flush_)(s);
        if (s->m * 8 < s->batch) {
            /* Few independent additions are left: an inversion per handful of points costs
             * more than the side buckets. */
            for (size_t i = 0; i < s->qn; i++)
                M_(xyzz_put_)(s->side, s->side_used, s->q[i].src, s->q[i].b, s->q[i].neg);
            s->qn = 0;
        }
    }
}

/* Window sum sum_b (b+1) B_b by running sums from the top bucket down: 2 additions per bucket. */
static void M_(reduce_)(JAC_T *out, const M_(worker_t_) *s, cuzk_msm_accum accum)
{
    XYZZ_T run, tot;
    M_(xyzz_set_infinity)(&run);
    M_(xyzz_set_infinity)(&tot);
    for (size_t b = s->nb; b-- > 0;) {
        if (accum == CUZK_MSM_ACCUM_XYZZ) {
            if (msm_bit_get(s->used, b))
                M_(xyzz_add)(&run, &run, (const XYZZ_T *)s->bk + b);
        } else {
            if (msm_bit_get(s->used, b))
                M_(xyzz_add_affine)(&run, &run, (const AFF_T *)s->bk + b);
            if (msm_bit_get(s->side_used, b))
                M_(xyzz_add)(&run, &run, &s->side[b]);
        }
        M_(xyzz_add)(&tot, &tot, &run);
    }
    M_(xyzz_to_jac)(out, &tot);
}

typedef struct {
    const AFF_T *bases;
    msm_scalars sc;
    size_t n;
    msm_plan plan;
    msm_layout lay;
    unsigned char *mem;
    JAC_T *results;
    _Atomic size_t next;
} M_(msm_ctx_t_);

/* Task t = (window t / chunks, chunk t % chunks): accumulate, reduce into results[t]. */
static void M_(msm_task_)(M_(msm_ctx_t_) *x, M_(worker_t_) *s, size_t t)
{
    const msm_plan *pl = &x->plan;
    unsigned w = (unsigned)(t / pl->chunks), c = pl->c;
    size_t j = t % pl->chunks;
    size_t lo = msm_chunk_start(x->n, pl->chunks, j), hi = msm_chunk_start(x->n, pl->chunks, j + 1);
    size_t words = msm_words(pl->nb);
    bool affine = pl->accum == CUZK_MSM_ACCUM_AFFINE;
    memset(s->used, 0, words * sizeof(uint64_t));
    if (affine) {
        memset(s->side_used, 0, words * sizeof(uint64_t));
        s->m = s->qn = 0;
    }
    int32_t dig[MSM_BLOCK];
    uint64_t tmp[4];
    for (size_t i0 = lo; i0 < hi; i0 += MSM_BLOCK) {
        size_t cnt = hi - i0 < MSM_BLOCK ? hi - i0 : MSM_BLOCK;
        for (size_t i = 0; i < cnt; i++)
            dig[i] = msm_digit(msm_scalar(tmp, &x->sc, i0 + i), w, c);
        for (size_t i = 0; i < cnt; i++) {
            /* XYZZ buckets are read at once: prefetch a few points ahead. */
            if (!affine && i + MSM_PREFETCH < cnt && dig[i + MSM_PREFETCH]) {
                int32_t d = dig[i + MSM_PREFETCH];
                M_(prefetch_)((const XYZZ_T *)s->bk + ((d < 0 ? -d : d) - 1), sizeof(XYZZ_T));
            }
            int32_t d = dig[i];
            const AFF_T *p = &x->bases[i0 + i];
            if (d == 0 || p->infinity)
                continue;
            CUZK_VERIFY_CHECK(d >= -(int32_t)pl->nb && d <= (int32_t)pl->nb);
            uint32_t b = (uint32_t)(d < 0 ? -d : d) - 1, neg = d < 0;
            if (!affine)
                M_(xyzz_put_)((XYZZ_T *)s->bk, s->used, p, b, neg);
            else if (M_(aff_place_)(s, p, b, neg))
                M_(aff_flush_)(s);
        }
    }
    if (affine)
        M_(aff_finish_)(s);
    M_(reduce_)(&x->results[t], s, pl->accum);
}

static void M_(msm_worker_)(void *vctx, size_t wi)
{
    M_(msm_ctx_t_) *x = vctx;
    const msm_layout *l = &x->lay;
    unsigned char *base = x->mem + l->workers + wi * l->worker;
    M_(worker_t_) s = {0};
    s.nb = x->plan.nb;
    s.bk = base + l->bk;
    s.used = (uint64_t *)(base + l->used);
    if (x->plan.accum == CUZK_MSM_ACCUM_AFFINE) {
        s.side = (XYZZ_T *)(base + l->side);
        s.side_used = (uint64_t *)(base + l->side_used);
        s.busy = (uint64_t *)(base + l->busy);
        s.ent = (M_(entry_t_) *)(base + l->ent);
        s.pre = (F_T *)(base + l->pre);
        s.q = (M_(qitem_t_) *)(base + l->queue);
        s.batch = x->plan.batch;
        s.qcap = x->plan.queue;
        memset(s.busy, 0, msm_words(s.nb) * sizeof(uint64_t));
    }
    for (;;) {
        size_t t = atomic_fetch_add(&x->next, 1);
        if (t >= x->plan.tasks)
            break;
        M_(msm_task_)(x, &s, t);
    }
}

static cuzk_status M_(msm_run_)(JAC_T *out, const AFF_T *bases, const msm_scalars *sc, size_t n,
                                cuzk_pool *pool, const cuzk_msm_opts *opts)
{
    static const cuzk_msm_opts defaults = {0};
    const cuzk_msm_opts *o = opts ? opts : &defaults;
    if (!out)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "msm: |out| is NULL");
    if (n > 0 && (!bases || (!sc->raw && !sc->mont)))
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "msm: NULL bases or scalars with n = %zu", n);
    cuzk_status st = msm_check_opts(o);
    if (st != CUZK_OK)
        return st;
    unsigned bits = n ? msm_max_bits(sc, n, pool) : 0;
    if (bits == 0) {
        M_(jac_set_infinity)(out);
        return CUZK_OK;
    }
    M_(msm_ctx_t_) x = {.bases = bases, .sc = *sc, .n = n};
    msm_plan_make(&x.plan, &M_(group_), n, cuzk_pool_threads(pool), bits, o);
    if (!msm_layout_make(&x.lay, &x.plan, &M_(group_)))
        return cuzk_fail(CUZK_ERR_NOMEM, "msm: working memory size overflows");
    void *owned;
    st = msm_get_memory(&x.mem, &owned, x.lay.total, o, "msm");
    if (st != CUZK_OK)
        return st;
    x.results = (JAC_T *)(x.mem + x.lay.results);
    atomic_init(&x.next, 0);
    cuzk_pool_run(pool, x.plan.workers, M_(msm_worker_), &x);
    /* Horner over the windows: acc = 2^c acc + (window sum), top window first. */
    JAC_T acc;
    M_(jac_set_infinity)(&acc);
    for (unsigned w = x.plan.nwin; w-- > 0;) {
        if (!M_(jac_is_infinity)(&acc))
            for (unsigned i = 0; i < x.plan.c; i++)
                M_(dbl)(&acc, &acc);
        for (size_t j = 0; j < x.plan.chunks; j++)
            M_(add)(&acc, &acc, &x.results[(size_t)w * x.plan.chunks + j]);
    }
    CUZK_VERIFY_CHECK(M_(is_on_curve)(&acc));
    cuzk_free(owned);
    *out = acc;
    return CUZK_OK;
}

/* ---- batch addition over a bitmap --------------------------------------------------------- */

typedef struct {
    const AFF_T *bases;
    const uint64_t *bitmap;
    size_t n;
    msm_badd_plan plan;
    unsigned char *mem;
    JAC_T *results;
    _Atomic size_t next;
} M_(badd_ctx_t_);

static void M_(badd_worker_)(void *vctx, size_t wi)
{
    M_(badd_ctx_t_) *x = vctx;
    const msm_badd_plan *pl = &x->plan;
    unsigned char *base = x->mem + pl->workers_off + wi * pl->worker;
    bool affine = pl->accum == CUZK_MSM_ACCUM_AFFINE;
    AFF_T *lanes = (AFF_T *)(base + pl->lanes_off);
    M_(entry_t_) *ent = (M_(entry_t_) *)(base + pl->ent_off);
    F_T *pre = (F_T *)(base + pl->pre_off);
    size_t nl = pl->lanes, cur = 0, m = 0;
    if (affine)
        for (size_t l = 0; l < nl; l++)
            lanes[l].infinity = true;
    XYZZ_T acc;
    M_(xyzz_set_infinity)(&acc);
    for (;;) {
        size_t ch = atomic_fetch_add(&x->next, 1);
        if (ch >= pl->chunks)
            break;
        size_t w0 = ch * pl->chunk_words, w1 = w0 + pl->chunk_words;
        if (w1 > pl->nwords)
            w1 = pl->nwords;
        for (size_t wd = w0; wd < w1; wd++) {
            uint64_t bits = x->bitmap[wd];
            if (wd == pl->nwords - 1 && x->n % 64)
                bits &= ((uint64_t)1 << (x->n % 64)) - 1;
            while (bits) {
                const AFF_T *p = &x->bases[wd * 64 + (size_t)__builtin_ctzll(bits)];
                bits &= bits - 1;
                if (p->infinity)
                    continue;
                if (!affine) {
                    M_(xyzz_add_affine)(&acc, &acc, p);
                    continue;
                }
                AFF_T *l = &lanes[cur];
                if (l->infinity)
                    *l = *p;
                else
                    ent[m++] = (M_(entry_t_)){l, p, 0, MSM_KIND_ADD};
                if (++cur == nl) {
                    M_(batch_apply_)(ent, m, pre);
                    m = 0;
                    cur = 0;
                }
            }
        }
    }
    if (affine) {
        M_(batch_apply_)(ent, m, pre);
        for (size_t l = 0; l < nl; l++)
            if (!lanes[l].infinity)
                M_(xyzz_add_affine)(&acc, &acc, &lanes[l]);
    }
    M_(xyzz_to_jac)(&x->results[wi], &acc);
}

static cuzk_status M_(badd_run_)(JAC_T *out, const AFF_T *bases, const uint64_t *bitmap, size_t n,
                                 cuzk_pool *pool, const cuzk_msm_opts *opts)
{
    static const cuzk_msm_opts defaults = {0};
    const cuzk_msm_opts *o = opts ? opts : &defaults;
    if (!out)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "batch_add: |out| is NULL");
    if (n > 0 && (!bases || !bitmap))
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "batch_add: NULL bases or bitmap with n = %zu",
                         n);
    cuzk_status st = msm_check_opts(o);
    if (st != CUZK_OK)
        return st;
    if (n == 0) {
        M_(jac_set_infinity)(out);
        return CUZK_OK;
    }
    M_(badd_ctx_t_) x = {.bases = bases, .bitmap = bitmap, .n = n};
    if (!msm_badd_plan_make(&x.plan, &M_(group_), n, cuzk_pool_threads(pool), o))
        return cuzk_fail(CUZK_ERR_NOMEM, "batch_add: working memory size overflows");
    void *owned;
    st = msm_get_memory(&x.mem, &owned, x.plan.total, o, "batch_add");
    if (st != CUZK_OK)
        return st;
    x.results = (JAC_T *)(x.mem + x.plan.results);
    atomic_init(&x.next, 0);
    cuzk_pool_run(pool, x.plan.workers, M_(badd_worker_), &x);
    JAC_T acc;
    M_(jac_set_infinity)(&acc);
    for (unsigned w = 0; w < x.plan.workers; w++)
        M_(add)(&acc, &acc, &x.results[w]);
    CUZK_VERIFY_CHECK(M_(is_on_curve)(&acc));
    cuzk_free(owned);
    *out = acc;
    return CUZK_OK;
}

/* ---- public entry points ------------------------------------------------------------------- */

cuzk_status M_(msm_ex)(JAC_T *out, const AFF_T *bases, const cuzk_fr_t *scalars, size_t n,
                       cuzk_pool *pool, const cuzk_msm_opts *opts)
{
    msm_scalars sc = {NULL, scalars};
    return M_(msm_run_)(out, bases, &sc, n, pool, opts);
}

cuzk_status M_(msm_raw_ex)(JAC_T *out, const AFF_T *bases, const uint64_t *scalars, size_t n,
                           cuzk_pool *pool, const cuzk_msm_opts *opts)
{
    msm_scalars sc = {scalars, NULL};
    return M_(msm_run_)(out, bases, &sc, n, pool, opts);
}

cuzk_status M_(msm)(JAC_T *out, const AFF_T *bases, const cuzk_fr_t *scalars, size_t n,
                    cuzk_pool *pool)
{
    return M_(msm_ex)(out, bases, scalars, n, pool, NULL);
}

cuzk_status M_(msm_raw)(JAC_T *out, const AFF_T *bases, const uint64_t *scalars, size_t n,
                        cuzk_pool *pool)
{
    return M_(msm_raw_ex)(out, bases, scalars, n, pool, NULL);
}

cuzk_status M_(batch_add_ex)(JAC_T *out, const AFF_T *bases, const uint64_t *bitmap, size_t n,
                             cuzk_pool *pool, const cuzk_msm_opts *opts)
{
    return M_(badd_run_)(out, bases, bitmap, n, pool, opts);
}

cuzk_status M_(batch_add)(JAC_T *out, const AFF_T *bases, const uint64_t *bitmap, size_t n,
                          cuzk_pool *pool)
{
    return M_(badd_run_)(out, bases, bitmap, n, pool, NULL);
}

size_t M_(msm_scratch_size)(size_t n, const cuzk_pool *pool, const cuzk_msm_opts *opts)
{
    static const cuzk_msm_opts defaults = {0};
    const cuzk_msm_opts *o = opts ? opts : &defaults;
    if (n == 0)
        return 0;
    /* The plan depends on the largest scalar: take the largest need over all bit lengths. */
    size_t most = 0;
    for (unsigned bits = 1; bits <= 256; bits++) {
        msm_plan p;
        msm_layout l;
        msm_plan_make(&p, &M_(group_), n, cuzk_pool_threads(pool), bits, o);
        if (!msm_layout_make(&l, &p, &M_(group_)))
            return SIZE_MAX;
        if (l.total > most)
            most = l.total;
    }
    return most;
}

size_t M_(batch_add_scratch_size)(size_t n, const cuzk_pool *pool, const cuzk_msm_opts *opts)
{
    static const cuzk_msm_opts defaults = {0};
    msm_badd_plan p;
    if (n == 0)
        return 0;
    if (!msm_badd_plan_make(&p, &M_(group_), n, cuzk_pool_threads(pool),
                            opts ? opts : &defaults))
        return SIZE_MAX;
    return p.total;
}

void M_(msm_plan)(cuzk_msm_opts *out, size_t n, const cuzk_pool *pool, const cuzk_msm_opts *opts)
{
    static const cuzk_msm_opts defaults = {0};
    const cuzk_msm_opts *o = opts ? opts : &defaults;
    msm_plan p;
    msm_plan_make(&p, &M_(group_), n, cuzk_pool_threads(pool), 255, o);
    *out = *o;
    out->window = p.c;
    out->chunks = p.chunks;
    out->accum = p.accum;
}
