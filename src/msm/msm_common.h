/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_MSM_MSM_COMMON_H
#define CUZK_MSM_MSM_COMMON_H

/*
 * The group-independent half of the CPU MSM (src/msm/pippenger_impl.h describes the algorithm):
 * inline field helpers for the batch-affine loop, the window/chunk planner with its cost model,
 * the working-memory layout, and the batch-addition plan (the scalars and their digits are in
 * msm/msm_scalars.h). Everything here is static: each group's translation unit gets its own copy.
 */

#include <limits.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "cuzk/alloc.h"
#include "cuzk/msm.h"
#include "common/file.h"
#include "common/verify.h"
#include "field/fp_addsub.h"
#include "field/fp_internal.h"
#include "msm/msm_scalars.h"

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#define MSM_ALIGN 64
/* Digits are computed |MSM_BLOCK| points at a time; buckets are prefetched this far ahead. */
#define MSM_BLOCK 64
#define MSM_PREFETCH 6
#define MSM_AUTO_MAX_WINDOW 20
/* Affine accumulation: additions per shared inversion (at most), and the smallest bucket
 * count for which the automatic choice considers it. 2048 rather than 1024 since the 8-lane
 * additions made the inversion a larger share: G1 2^16 (batches of 2048 of the 3-window tasks'
 * 12,288 buckets) 149 -> 142 ms on one thread; 4096 (3072) gained ~1 ms more. */
#define MSM_BATCH_MAX 2048
#define MSM_AFFINE_MIN_BUCKETS 256
/* Batch addition: at most this many lanes per worker. */
#define MSM_LANES_MAX 1024
/* Batch state entries beyond the batch: the 8-lane code stores whole blocks of 8. */
#define MSM_PRE_SLACK 7
/* The max-bit-length scan splits the scalars into at most this many chunks. */
#define MSM_SCAN_CHUNKS 64
/* Windows per task: at most this many, and their affine buckets in at most this many bytes
 * (half the 2 MiB L2 of the development machine; -DMSM_GROUP_BYTES=... for experiments: all
 * five windows of a G2 2^16 MSM in one task, 8 MiB, measured 5-15 % slower on one thread). */
#define MSM_GROUP_MAX 32
#ifndef MSM_GROUP_BYTES
#define MSM_GROUP_BYTES ((size_t)1 << 20)
#endif

/*
 * Cost model constants, in field multiplications (src/msm/pippenger_impl.h). The operation
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
 * Inline field helpers for the batch-affine inner loop: the library's cuzk_fp_add/sub are calls,
 * which made subtractions a fifth of the batch-affine time (perf, 2^16 points); these inline
 * the same code (src/field/fp_addsub.h), and the multiplication goes straight to the back end
 * that cuzk_fp_mul forwards to. Same results, same representation.
 */
static inline void msm_fp_sub(cuzk_fp_t *r, const cuzk_fp_t *a, const cuzk_fp_t *b)
{
    cuzk__fp_sub_inline(r->l, a->l, b->l);
}

static inline void msm_fp_add(cuzk_fp_t *r, const cuzk_fp_t *a, const cuzk_fp_t *b)
{
    cuzk__fp_add_inline(r->l, a->l, b->l);
}

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

/* Limb by limb: memcmp was a library call per batch entry (~2 % of a G2 MSM, perf). */
static inline bool msm_fp_eq(const cuzk_fp_t *a, const cuzk_fp_t *b)
{
    uint64_t d = 0;
    for (int i = 0; i < 6; i++)
        d |= a->l[i] ^ b->l[i];
    return d == 0;
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

/* Karatsuba, 3M (u^2 = -1); every input is read before |r| is written. With the x86-64 back
 * end the three products are reduced twice, not three times (cuzk__fp2_mul_adx). */
static inline void msm_fp2_mul(cuzk_fp2_t *r, const cuzk_fp2_t *a, const cuzk_fp2_t *b)
{
#if CUZK_FP_HAVE_ADX
    cuzk__fp2_mul_adx(r, a, b);
#else
    cuzk_fp_t t0, t1, s0, s1;
    msm_fp_mul(&t0, &a->c0, &b->c0);
    msm_fp_mul(&t1, &a->c1, &b->c1);
    msm_fp_add(&s0, &a->c0, &a->c1);
    msm_fp_add(&s1, &b->c0, &b->c1);
    msm_fp_mul(&s0, &s0, &s1);
    msm_fp_sub(&r->c0, &t0, &t1);
    msm_fp_sub(&s0, &s0, &t0);
    msm_fp_sub(&r->c1, &s0, &t1);
#endif
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
    return msm_fp_eq(&a->c0, &b->c0) && msm_fp_eq(&a->c1, &b->c1);
}

static inline bool msm_fp2_is_zero(const cuzk_fp2_t *a)
{
    return msm_fp_is_zero(&a->c0) && msm_fp_is_zero(&a->c1);
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
    size_t pre; /* batch state per addition: prefix product and norm */
    double inv; /* one inversion, in multiplications */
} msm_group;

typedef struct {
    unsigned c;           /* window width */
    unsigned nwin;        /* windows */
    unsigned group;       /* windows per task */
    unsigned ngroups;     /* ceil(nwin / group) */
    unsigned chunks;      /* point chunks per window */
    unsigned workers;     /* bucket sets in use at once */
    cuzk_msm_accum accum; /* XYZZ or AFFINE, never AUTO */
    size_t nb;            /* buckets per window, 2^(c-1) */
    size_t gb;            /* buckets per task: group x nb */
    size_t batch;         /* AFFINE: additions per inversion */
    size_t top_nb;        /* buckets the top window's digits reach (<= nb) */
    size_t queue;         /* AFFINE: conflict queue capacity */
    size_t tasks;         /* ngroups x chunks */
    double cost;          /* model estimate */
    unsigned endo;        /* pieces per scalar (1: no endomorphism split) */
    size_t n;             /* points as given; the MSM runs over endo x n */
    unsigned slices;      /* images made slice by slice (msm_plan_slice) when > 1 */
    size_t slice_n;       /* base points per slice */
    unsigned sets;        /* bucket sets when sliced: one per window group */
    bool packed;          /* bases given packed (src/msm/msm_packed.h): decoded into |dec| */
    bool linked;          /* a link of a chain (src/msm/msm_chain.h): its buckets are the chain's */
    bool helpers;         /* a job's: tasks taken in pieces, helped by idle workers (job_task_) */
} msm_plan;

/* Byte offsets inside one worker's region, and the region sizes of the whole call. */
typedef struct {
    size_t bk, side, used, side_used, busy, ent, pre, queue; /* per worker */
    size_t worker;                                           /* bytes per worker (aligned) */
    size_t set;       /* bytes of a worker's buckets and their bitmaps, at its start (aligned) */
    size_t set_side;  /* bytes of a worker's side buckets (AFFINE) */
    size_t sets;      /* a sliced MSM's bucket sets (msm_plan_slice): set bytes each */
    size_t set_sides; /* and their side buckets, set_side bytes each */
    size_t results;                                          /* offset of the window results */
    size_t ext, sub;                                         /* endomorphism images, pieces */
    size_t dec; /* packed bases decoded: all of them, or a slice's (plan.packed) */
    size_t hres, cursor, helped; /* helpers' window results, per-task cursors and flags */
    size_t workers;                                          /* offset of worker 0's region */
    size_t total;                                            /* whole scratch incl. slack */
} msm_layout;

/* Additions per inversion: a quarter of the buckets (about one point in eight then finds its
 * bucket busy and waits in the queue), at most MSM_BATCH_MAX. Quarter, eighth and sixteenth
 * measured within noise of each other at 2^16 points; the cap bounds the batch's working set.
 * Tiny windows (only ever chosen explicitly) still batch a few, so conflicts stay exercised.
 * A task's batch counts only the buckets its digits can reach (msm_task_: the top window's). */
static size_t msm_batch_size(size_t nb)
{
    size_t b = nb / 4;
    if (b < 4)
        b = nb < 4 ? nb : 4;
    return b > MSM_BATCH_MAX ? MSM_BATCH_MAX : b;
}

/*
 * True when the top window of |bits|-bit scalars has fewer distinct digits than the additions
 * one batch puts into one window. The top window holds only bits + 1 - c (nwin - 1) bits (digits
 * 0 .. 2^(that - 1)); with fewer buckets than additions nearly all of them conflict inside the
 * batch, the conflict queue overflows and the rest go one by one to the XYZZ side buckets, which
 * the cost model does not see: measured 1.3x (G1 2^10, c = 9) to 2.3x (G2 2^12, c = 10) slower
 * MSMs (docs/PERFORMANCE.md, "2^12: the serial parts into the lanes ..."). A batch spans the
 * group's windows in runs of MSM_BLOCK points, so one window gets about batch / group of it.
 */
static bool msm_top_window_thin(unsigned bits, unsigned c, unsigned nwin, unsigned group,
                                size_t batch)
{
    unsigned top = bits + 1 - c * (nwin - 1); /* 1 .. c */
    size_t digits = ((size_t)1 << (top - 1)) + 1;
    size_t per_window = batch / group;
    if (per_window < MSM_BLOCK)
        per_window = batch < MSM_BLOCK ? batch : MSM_BLOCK;
    return digits < per_window;
}

/* Tasks of |group| windows each: the tasks of one round run at once, a round costs its
 * largest task. */
static double msm_cost(const msm_group *g, size_t n, unsigned threads, unsigned nwin,
                       unsigned group, size_t nb, unsigned k, cuzk_msm_accum accum, size_t batch)
{
    double a = accum == CUZK_MSM_ACCUM_XYZZ ? MSM_COST_ADD_XYZZ
                                            : MSM_COST_ADD_AFFINE + g->inv / (double)batch;
    unsigned ngroups = (nwin + group - 1) / group;
    size_t tasks = (size_t)ngroups * k;
    double rounds = (double)((tasks + threads - 1) / threads);
    double r = accum == CUZK_MSM_ACCUM_XYZZ ? MSM_COST_REDUCE_XYZZ : MSM_COST_REDUCE_AFFINE;
    double per_task = ((double)n / k) * group * (a + MSM_COST_OVERHEAD) + (double)(group * nb) * r;
    return rounds * per_task + (double)nwin * k * MSM_COST_JAC_ADD;
}

/* |limbs|: 64-bit limbs per endomorphism piece. */
static bool msm_layout_make(msm_layout *l, const msm_plan *p, const msm_group *g, unsigned limbs)
{
    size_t off = 0, w = msm_words(p->gb);
    memset(l, 0, sizeof *l);
    size_t dummy, total = 0;
    /* The buckets and their bitmaps first (what a sliced MSM's bucket set holds), the side
     * buckets last: they are rarely touched, and with transparent huge pages a region touched
     * anywhere inside a 2 MiB page is cleared whole, so between bk and the bitmaps they were. */
    if (!p->linked) { /* a chain's links add into the chain's bucket sets */
        if (!msm_region(&l->bk, &off, p->gb,
                        p->accum == CUZK_MSM_ACCUM_XYZZ ? g->xyzz : g->aff) ||
            !msm_region(&l->used, &off, w, sizeof(uint64_t)))
            return false;
        if (p->accum == CUZK_MSM_ACCUM_AFFINE &&
            !msm_region(&l->side_used, &off, w, sizeof(uint64_t)))
            return false;
    }
    if (!msm_region(&dummy, &off, 0, 1))
        return false;
    l->set = off;
    if (p->accum == CUZK_MSM_ACCUM_AFFINE) {
        if (!msm_region(&l->busy, &off, w, sizeof(uint64_t)) ||
            !msm_region(&l->ent, &off, p->batch, g->entry) ||
            !msm_region(&l->pre, &off, p->batch + MSM_PRE_SLACK, g->pre) ||
            !msm_region(&l->queue, &off, p->queue ? p->queue : 1, g->qitem) ||
            !msm_region(&l->side, &off, p->linked ? 0 : p->gb, g->xyzz))
            return false;
        l->set_side = p->linked ? 0 : p->gb * g->xyzz;
    }
    if (!msm_region(&dummy, &off, 0, 1)) /* align the worker stride */
        return false;
    l->worker = off;
    size_t img = p->slices > 1 ? p->slice_n : p->n; /* base points with images at once */
    size_t ext = p->endo > 1 ? (p->endo - 1) * img : 0;
    size_t sub = p->endo > 1 ? p->endo * p->n : 0;
    if (ext && ext / (p->endo - 1) != img)
        return false;
    size_t help_tasks = p->helpers ? p->tasks : 0;
    if (!msm_region(&l->results, &total, (size_t)p->nwin * p->chunks, g->jac) ||
        !msm_region(&l->hres, &total, p->helpers ? (size_t)p->nwin * p->chunks : 0, g->jac) ||
        !msm_region(&l->cursor, &total, help_tasks, sizeof(_Atomic size_t)) ||
        !msm_region(&l->helped, &total, help_tasks, sizeof(_Atomic unsigned)) ||
        !msm_region(&l->dec, &total, p->packed ? img : 0, g->aff) ||
        !msm_region(&l->ext, &total, ext, g->aff) ||
        !msm_region(&l->sub, &total, sub, (size_t)limbs * sizeof(uint64_t)) ||
        !msm_region(&l->workers, &total, p->workers, l->worker) ||
        !msm_region(&l->sets, &total, p->sets, l->set) ||
        !msm_region(&l->set_sides, &total, l->set_side ? p->sets : 0, l->set_side) ||
        !msm_region(&dummy, &total, 1, MSM_ALIGN)) /* slack to align the base pointer */
        return false;
    l->total = total;
    return true;
}

/* The cheapest plan by msm_cost (the cost model of src/msm/pippenger_impl.h); |skip_thin| leaves
 * out AFFINE plans whose top window is thin (msm_top_window_thin). */
static void msm_plan_search(msm_plan *out, const msm_group *g, size_t n, unsigned threads,
                            unsigned bits, const cuzk_msm_opts *o, bool skip_thin)
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
            /* Grouping windows gives a batch-affine task more buckets to batch over; it is
             * bounded by the cache (MSM_GROUP_BYTES). One window is always allowed. */
            for (unsigned grp = 1; grp <= nwin && grp <= MSM_GROUP_MAX; grp++) {
                size_t gb = grp * nb;
                if (grp > 1 && gb * g->aff > MSM_GROUP_BYTES)
                    break;
                if (o->accum == CUZK_MSM_ACCUM_AUTO && acc == CUZK_MSM_ACCUM_AFFINE &&
                    gb < MSM_AFFINE_MIN_BUCKETS)
                    continue;
                unsigned ngroups = (nwin + grp - 1) / grp;
                size_t batch = acc == CUZK_MSM_ACCUM_AFFINE ? msm_batch_size(gb) : 0;
                if (skip_thin && batch && msm_top_window_thin(bits, c, nwin, grp, batch))
                    continue;
                unsigned kmin = 1, kmax = (2 * threads + ngroups - 1) / ngroups;
                if (o->chunks)
                    kmin = kmax = o->chunks;
                size_t nmax = n ? n : 1;
                if (kmax > nmax)
                    kmax = (unsigned)nmax;
                if (kmin > kmax)
                    kmin = kmax;
                for (unsigned k = kmin; k <= kmax; k++) {
                    double cost = msm_cost(g, n, threads, nwin, grp, nb, k, acc, batch);
                    if (best.cost < 0 || cost < best.cost) {
                        best.c = c;
                        best.nwin = nwin;
                        best.group = grp;
                        best.ngroups = ngroups;
                        best.chunks = k;
                        best.accum = acc;
                        best.nb = nb;
                        best.gb = gb;
                        best.batch = batch;
                        best.queue = batch / 2;
                        best.tasks = (size_t)ngroups * k;
                        best.workers = best.tasks < threads ? (unsigned)best.tasks : threads;
                        best.cost = cost;
                        /* the top window holds bits + 1 - c (nwin - 1) bits */
                        unsigned top = bits + 1 - c * (nwin - 1);
                        best.top_nb = top - 1 < c - 1 ? (size_t)1 << (top - 1) : nb;
                    }
                }
            }
        }
    }
    best.endo = 1;
    best.n = n;
    best.slices = 1;
    best.slice_n = n;
    best.sets = 0;
    *out = best;
}

/*
 * Chooses window, chunks and accumulation for |n| scalars of at most |bits| bits on |threads|
 * threads; fields set in |o| are kept. With the accumulation and window left to the planner,
 * AFFINE plans with a thin top window are avoided, but only in favour of another AFFINE plan:
 * where the search without them would take XYZZ (small n, where the model's XYZZ and 8-lane
 * AFFINE costs are far from the measured ones: G1 2^9, 2.9 ms AFFINE with a thin top window
 * against 10 ms XYZZ), the unrestricted search decides as before.
 */
static void msm_plan_make(msm_plan *out, const msm_group *g, size_t n, unsigned threads,
                          unsigned bits, const cuzk_msm_opts *o)
{
    bool auto_plan = o->accum == CUZK_MSM_ACCUM_AUTO && !o->window;
    msm_plan_search(out, g, n, threads, bits, o, auto_plan);
    if (auto_plan && out->accum != CUZK_MSM_ACCUM_AFFINE)
        msm_plan_search(out, g, n, threads, bits, o, false);
}

/*
 * The plan of an MSM job (src/msm/msm_job.h), whose tasks are what the joined threads share:
 * the fewest windows per task that keep the batch size (and no thin top window), so that the
 * threads end closer together. At 2^16 (c = 13, endomorphism split) tasks of 2 windows instead
 * of 3, about 28 instead of 42 ms; 1 window would halve the batches (measured 5 % slower).
 */
static void msm_plan_split_groups(msm_plan *p, unsigned bits)
{
    if (p->accum != CUZK_MSM_ACCUM_AFFINE)
        return;
    for (unsigned g = 1; g < p->group; g++) {
        if (msm_batch_size(g * p->nb) < p->batch ||
            msm_top_window_thin(bits, p->c, p->nwin, g, p->batch))
            continue;
        p->group = g;
        p->ngroups = (p->nwin + g - 1) / g;
        p->gb = g * p->nb;
        p->tasks = (size_t)p->ngroups * p->chunks;
        return;
    }
}

/*
 * At least |split| point chunks per window in an MSM job's plan (0 or 1: as planned), so that
 * each task covers 1 / split of the points: finer tasks for threads that must end together
 * (the snarkjs prover's last job, env CUZK_LANE_SPLIT in src/groth16/prove_zkey.c). Each extra
 * chunk adds one running sum per window; a chunk is never left with fewer than
 * MSM_JOB_MIN_CHUNK points.
 */
#define MSM_JOB_MAX_SPLIT 64
#define MSM_JOB_MIN_CHUNK 64
static void msm_plan_split_chunks(msm_plan *p, unsigned split)
{
    size_t points = p->endo * p->n;
    if (split > MSM_JOB_MAX_SPLIT)
        split = MSM_JOB_MAX_SPLIT;
    while (split > 1 && points / split < MSM_JOB_MIN_CHUNK)
        split--;
    if (split <= p->chunks)
        return;
    p->chunks = split;
    p->tasks = (size_t)p->ngroups * split;
}

/*
 * Images in slices. A one-thread MSM with the endomorphism split and several window groups
 * reads every point and image once per group, so all images are made first and kept: (M - 1) n
 * points, 39 MiB for G2 at 2^16. Memory a process touches for the first time is what costs on a
 * guest with free page reporting (1.8 ms per MiB on the development VM, docs/PERFORMANCE.md):
 * for a one-shot proof that was more than the images' arithmetic. Instead the images of
 * MSM_SLICE_BYTES of points at a time, and one bucket set per window group that keeps its
 * sums from slice to slice (msm_sliced_ in src/msm/msm_tasks_impl.h): the same additions, the
 * running sums once, and (M - 1) slice_n images plus ngroups - 1 more bucket sets in memory.
 */
#define MSM_SLICE_BYTES ((size_t)2 << 20)
static void msm_plan_slice(msm_plan *p, size_t aff)
{
    if (p->endo < 2 || p->workers != 1 || p->chunks != 1 || p->ngroups < 2 || p->tasks == 0)
        return;
    /* Slices are sized by their images alone: packed bases, decoded slice by slice beside them,
     * add a third (G2) more memory. Counting those too made 33 % more slices, hence more
     * batches emptied early, and the 2^16 G2 MSM ~30 ms slower (docs/PERFORMANCE.md, "Packed
     * zkey points"). */
    size_t per = MSM_SLICE_BYTES / ((p->endo - 1) * aff);
    per = per / MSM_BLOCK * MSM_BLOCK;
    /* Worth it when the images of all points are more than two slices' and the bucket sets
     * the slices add (their side buckets are rarely touched); n is at most MSM_ENDO_MAX_N. */
    size_t images = (p->endo - 1) * p->n * aff, sets = (p->ngroups - 1) * p->gb * aff;
    if (per < MSM_BLOCK || images <= 2 * MSM_SLICE_BYTES + sets)
        return;
    p->slice_n = per;
    p->slices = (unsigned)((p->n + per - 1) / per);
    p->sets = p->ngroups;
}

/* The first index of chunk |j| of |chunks| over |n| items. */
static inline size_t msm_chunk_start(size_t n, size_t chunks, size_t j)
{
    return n / chunks * j + (j < n % chunks ? j : n % chunks);
}

/* Scan state: OR of the applied scalars per chunk, whose bit length is the maximum one. */
typedef struct {
    const msm_scalars *sc;
    size_t n, chunks;
    uint64_t (*acc)[4];
} msm_scan_ctx;

static void msm_scan_chunk(void *vctx, size_t j)
{
    msm_scan_ctx *x = vctx;
    size_t lo = msm_chunk_start(x->n, x->chunks, j), hi = msm_chunk_start(x->n, x->chunks, j + 1);
    uint64_t o[4] = {0, 0, 0, 0}, k[4];
    for (size_t i = lo; i < hi; i++) {
        (void)msm_scalar(k, x->sc, i);
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
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "msm: window %u is above the maximum %d", o->window,
                         CUZK_MSM_MAX_WINDOW);
    if ((unsigned)o->accum > CUZK_MSM_ACCUM_AFFINE)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "msm: unknown accumulation %d", (int)o->accum);
    return CUZK_OK;
}

/* A read of packed bases from their file failed with errno |e| (cuzk__pread_all). */
static inline cuzk_status msm_read_fail(int e)
{
    return cuzk_fail(CUZK_ERR_IO, "msm: cannot read the packed bases from their file: %s",
                     cuzk__pread_error(e));
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
            !msm_region(&p->pre_off, &off, p->lanes + MSM_PRE_SLACK, g->pre))
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

#endif
