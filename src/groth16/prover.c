/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The Groth16 prover, bellperson-compatible (formats.md 3.4), written against the backend. */
#include "cuzk/groth16.h"
#include "cuzk/alloc.h"
#include "cuzk/backend.h"
#include "groth16/prover_internal.h"
#include "groth16/split_pairs.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static bool bit(const uint64_t *bm, size_t i)
{
    return (bm[i / 64] >> (i % 64)) & 1;
}

/* Host passes over the scalar vectors run in chunks on the backend's pool: at a PoRep partition
 * (130 M scalars, 4 GiB per vector) a serial pass costs seconds, as long as the device work it
 * feeds. A chunk is a multiple of 64 scalars, so each owns whole bitmap words. */
#define SPLIT_CHUNK ((size_t)1 << 16)

static size_t chunk_hi(size_t t, size_t n)
{
    return (t + 1) * SPLIT_CHUNK < n ? (t + 1) * SPLIT_CHUNK : n;
}

typedef struct {
    const cuzk_fr_t *sc;
    size_t n;
    uint64_t *ones;
    cuzk_fr_t *tail;
} split_job;

static void split_chunk(void *ctx, size_t t)
{
    split_job *j = ctx;
    size_t lo = t * SPLIT_CHUNK, hi = chunk_hi(t, j->n);
    memset(j->ones + lo / 64, 0, ((hi - lo + 63) / 64) * sizeof *j->ones);
    for (size_t i = lo; i < hi; i++) {
        if (cuzk_fr_is_one(&j->sc[i])) {
            j->ones[i / 64] |= 1ULL << (i % 64);
            cuzk_fr_set_zero(&j->tail[i]);
        } else {
            j->tail[i] = j->sc[i];
        }
    }
}

/*
 * Splits |n| scalars the way supraseal does: ones go to a bitmap (batch addition), every other
 * non-zero value stays in |tail| (a Pippenger MSM over the same bases; zeros cost it nothing).
 */
static void split01(cuzk_pool *pool, const cuzk_fr_t *sc, size_t n, uint64_t *ones, cuzk_fr_t *tail)
{
    split_job j = {sc, n, ones, tail};
    cuzk_pool_run(pool, (n + SPLIT_CHUNK - 1) / SPLIT_CHUNK, split_chunk, &j);
}

/* Compaction over |n| entries in SPLIT_CHUNK chunks on the pool: |count| stores chunk t's output
 * count in (*offs)[t], which then becomes its first output index for |fill|. Returns the total,
 * or SIZE_MAX when the chunk table cannot be allocated. */
static size_t two_pass(cuzk_pool *pool, size_t n, void (*count)(void *, size_t),
                       void (*fill)(void *, size_t), void *ctx, size_t **offs)
{
    size_t chunks = (n + SPLIT_CHUNK - 1) / SPLIT_CHUNK, total = 0;
    if (!chunks)
        return 0;
    if (!(*offs = cuzk_alloc_array(chunks, sizeof **offs)))
        return SIZE_MAX;
    cuzk_pool_run(pool, chunks, count, ctx);
    for (size_t t = 0; t < chunks; t++) {
        size_t c = (*offs)[t];
        (*offs)[t] = total;
        total += c;
    }
    cuzk_pool_run(pool, chunks, fill, ctx);
    cuzk_free(*offs);
    *offs = NULL;
    return total;
}

typedef struct {
    cuzk_fr_t *dst;
    const cuzk_fr_t *src;
    size_t n;
    const uint64_t *mask;
    size_t *offs; /* per chunk: set bits before it (after the counting pass: its count) */
} gather_job;

static void gather_count(void *ctx, size_t t)
{
    gather_job *j = ctx;
    size_t c = 0;
    for (size_t i = t * SPLIT_CHUNK, hi = chunk_hi(t, j->n); i < hi; i++)
        c += bit(j->mask, i);
    j->offs[t] = c;
}

static void gather_copy(void *ctx, size_t t)
{
    gather_job *j = ctx;
    size_t k = j->offs[t];
    for (size_t i = t * SPLIT_CHUNK, hi = chunk_hi(t, j->n); i < hi; i++)
        if (bit(j->mask, i))
            j->dst[k++] = j->src[i];
}

/* dst[0 ..) = the src[i] whose bit i of |mask| is set, in order; returns their number, or
 * SIZE_MAX when the chunk table cannot be allocated. */
static size_t gather(cuzk_pool *pool, cuzk_fr_t *dst, const cuzk_fr_t *src, size_t n,
                     const uint64_t *mask)
{
    gather_job j = {dst, src, n, mask, NULL};
    return two_pass(pool, n, gather_count, gather_copy, &j, &j.offs);
}

/*
 * The L, A and B scalar vectors split for the backend: query q (Q_L, Q_A, Q_B) has n[q] scalars
 * whose ones are in ones[q] and whose other values are in tail[q] (zero where the scalar is 0 or
 * 1). Built on the host pool into backend scratch (pinned on a GPU backend), so on a GPU backend
 * this runs while the device computes H and its MSM.
 */
enum { Q_L, Q_A, Q_B, Q_COUNT };

typedef struct {
    cuzk_fr_t *sc; /* gather buffer (A, B); the one-pass split's classification bitmap */
    size_t sc_bytes;
    cuzk_fr_t *tail[Q_COUNT];
    uint64_t *ones[Q_COUNT];
    size_t n[Q_COUNT];
    /* On a GPU backend the tails are pairs: tail[q][k] is the scalar of base idx[q][k], k <
     * m[q] (cuzk_backend_msm_gX_idx); on the CPU they are dense (zero at 0/1 scalars). */
    bool pairs;
    uint32_t *idx[Q_COUNT];
    size_t m[Q_COUNT];
} split_set;

/* Backend scratch slots of the split: the gather buffer (the one-pass split's classification
 * bitmap), per query its tail and its bitmap, and on a device its indices. */
#define SLOT_SC 0
#define SLOT_TAIL(q) (1 + 2 * (q))
#define SLOT_ONES(q) (2 + 2 * (q))
#define SLOT_IDX(q) (7 + (q))

/* Bytes per scratch slot for queries of n_l, n_a, n_b_g1 scalars (0: slot unused); the pairs
 * form (32-bit indices) on a device backend. One place for split_alloc and the engine's budget
 * (cuzk__prover_scratch_sizes), so that the two cannot drift apart. */
static bool split_sizes(bool device, uint64_t n_l, uint64_t n_a, uint64_t n_b_g1,
                        uint64_t bytes[CUZK_BACKEND_SCRATCH_SLOTS])
{
    const uint64_t n[Q_COUNT] = {n_l, n_a, n_b_g1};
    bool pairs = device && n_l <= UINT32_MAX && n_a <= UINT32_MAX && n_b_g1 <= UINT32_MAX;
    uint64_t cap = n_a > n_b_g1 ? n_a : n_b_g1;
    memset(bytes, 0, CUZK_BACKEND_SCRATCH_SLOTS * sizeof *bytes);
    bytes[SLOT_SC] =
        pairs ? cuzk__split_pairs_scratch(n_l ? n_l : 1) : (cap ? cap : 1) * sizeof(cuzk_fr_t);
    for (unsigned q = 0; q < Q_COUNT; q++) {
        uint64_t m = n[q] ? n[q] : 1;
        bytes[SLOT_TAIL(q)] = m * sizeof(cuzk_fr_t);
        bytes[SLOT_ONES(q)] = (m + 63) / 64 * sizeof(uint64_t);
        if (pairs)
            bytes[SLOT_IDX(q)] = m * sizeof(uint32_t);
    }
    return pairs;
}

void cuzk__prover_scratch_sizes(bool device, uint64_t n_l, uint64_t n_a, uint64_t n_b_g1,
                                uint64_t bytes[CUZK_BACKEND_SCRATCH_SLOTS])
{
    (void)split_sizes(device, n_l, n_a, n_b_g1, bytes);
}

/* The scratch of |ss| for the sizes of |p| (n_l = the circuit's aux count, checked before). */
static cuzk_status split_alloc(cuzk_backend *be, const cuzk_groth16_params *p, split_set *ss)
{
    memset(ss, 0, sizeof *ss);
    ss->n[Q_L] = p->n_l;
    ss->n[Q_A] = p->n_a;
    ss->n[Q_B] = p->n_b_g1;
    uint64_t bytes[CUZK_BACKEND_SCRATCH_SLOTS];
    ss->pairs = split_sizes(cuzk_backend_device(be) >= 0, p->n_l, p->n_a, p->n_b_g1, bytes);
    ss->sc_bytes = bytes[SLOT_SC];
    ss->sc = cuzk_backend_scratch(be, SLOT_SC, bytes[SLOT_SC]);
    for (unsigned q = 0; q < Q_COUNT; q++) {
        ss->tail[q] = cuzk_backend_scratch(be, SLOT_TAIL(q), bytes[SLOT_TAIL(q)]);
        ss->ones[q] = cuzk_backend_scratch(be, SLOT_ONES(q), bytes[SLOT_ONES(q)]);
        if (ss->pairs)
            ss->idx[q] = cuzk_backend_scratch(be, SLOT_IDX(q), bytes[SLOT_IDX(q)]);
        if (!ss->tail[q] || !ss->ones[q] || (ss->pairs && !ss->idx[q]))
            ss->sc = NULL;
    }
    if (!ss->sc) {
        memset(ss, 0, sizeof *ss);
        return cuzk_fail(CUZK_ERR_NOMEM, "prover: out of memory for %zu scalars", p->n_l);
    }
    return CUZK_OK;
}

cuzk_status cuzk__prover_reserve(cuzk_backend *be, const cuzk_groth16_params *p)
{
    split_set ss;
    return split_alloc(be, p, &ss);
}

static cuzk_status split_prepare(cuzk_backend *be, const cuzk_groth16_params *p,
                                 const cuzk_prover_data *pd, split_set *ss)
{
    cuzk_status s = split_alloc(be, p, ss);
    if (s != CUZK_OK)
        return s;
    cuzk_pool *pool = cuzk_backend_pool(be);
    if (ss->pairs) { /* one pass over aux (split_pairs.h) */
        cuzk__split_query q[CUZK__SPLIT_Q];
        for (unsigned k = 0; k < Q_COUNT; k++)
            q[k] = (cuzk__split_query){ss->ones[k], ss->tail[k], ss->idx[k], ss->n[k], 0};
        s = cuzk__split_pairs(pool, pd, (uint64_t *)ss->sc, q);
        for (unsigned k = 0; k < Q_COUNT; k++)
            ss->m[k] = q[k].m;
        return s;
    }
    /* L = sum aux_j L_j. */
    split01(pool, pd->aux, pd->n_aux, ss->ones[Q_L], ss->tail[Q_L]);
    /* A: every input, then the A-dense aux. */
    size_t k = 0, g;
    for (size_t i = 0; i < pd->n_inputs; i++)
        ss->sc[k++] = pd->input[i];
    if ((g = gather(pool, ss->sc + k, pd->aux, pd->n_aux, pd->a_aux_density)) == SIZE_MAX)
        return cuzk_fail(CUZK_ERR_NOMEM, "prover: out of memory");
    split01(pool, ss->sc, k + g, ss->ones[Q_A], ss->tail[Q_A]);
    /* B: the B-dense inputs, then the B-dense aux (G1 and G2 share them). */
    k = 0;
    for (size_t i = 0; i < pd->n_inputs; i++)
        if (bit(pd->b_input_density, i))
            ss->sc[k++] = pd->input[i];
    if ((g = gather(pool, ss->sc + k, pd->aux, pd->n_aux, pd->b_aux_density)) == SIZE_MAX)
        return cuzk_fail(CUZK_ERR_NOMEM, "prover: out of memory");
    split01(pool, ss->sc, k + g, ss->ones[Q_B], ss->tail[Q_B]);
    return CUZK_OK;
}

/* The split vectors held witness values and the scratch is reused: wipe them. */
static void split_wipe(cuzk_backend *be, split_set *ss)
{
    /* On the backend's threads after the proof returns (at a PoRep partition the tails' pairs,
     * and 4 GiB of gathered scalars on the CPU); the next use of the scratch waits for it. */
    void *p[1 + Q_COUNT] = {ss->sc};
    size_t bytes[1 + Q_COUNT] = {ss->sc ? ss->sc_bytes : 0};
    for (unsigned q = 0; q < Q_COUNT; q++) {
        p[1 + q] = ss->tail[q];
        bytes[1 + q] = ss->tail[q] ? (ss->pairs ? ss->m[q] : ss->n[q]) * sizeof *ss->tail[q] : 0;
    }
    cuzk_backend_scratch_wipe_async(be, p, bytes, 1 + Q_COUNT);
}

/* out = sum over query q of G1 |bases|: the batch addition of the ones, then the tail MSM. */
static cuzk_status g1_split_sum(cuzk_backend *be, cuzk_prove_timings *t, cuzk_g1_jac_t *out,
                                const cuzk_g1_affine_t *bases, const split_set *ss, unsigned q)
{
    cuzk_g1_jac_t part;
    double t0 = now_ms();
    cuzk_status s = cuzk_backend_batch_add_g1(be, out, bases, ss->ones[q], ss->n[q]);
    double t1 = now_ms();
    if (s == CUZK_OK)
        s = ss->pairs ? cuzk_backend_msm_g1_idx(be, &part, bases, ss->n[q], ss->idx[q], ss->tail[q],
                                                ss->m[q])
                      : cuzk_backend_msm_g1(be, &part, bases, ss->tail[q], ss->n[q]);
    t->batch_add += t1 - t0;
    t->tail_msm += now_ms() - t1;
    if (s == CUZK_OK)
        cuzk_g1_add(out, out, &part);
    return s;
}

/* The L, A, B (G1) and B (G2) sums over their split scalars. */
typedef struct {
    cuzk_g1_jac_t l, a, b1;
    cuzk_g2_jac_t b2;
} lab_sums;

/* B (G2): the batch addition of the ones, then the tail MSM. */
static cuzk_status g2_split_sum(cuzk_backend *be, cuzk_prove_timings *t, cuzk_g2_jac_t *out,
                                const cuzk_groth16_params *p, const split_set *ss)
{
    cuzk_g2_jac_t tail;
    double t0 = now_ms();
    cuzk_status s = cuzk_backend_batch_add_g2(be, out, p->b_g2, ss->ones[Q_B], ss->n[Q_B]);
    if (s == CUZK_OK)
        s = ss->pairs ? cuzk_backend_msm_g2_idx(be, &tail, p->b_g2, ss->n[Q_B], ss->idx[Q_B],
                                                ss->tail[Q_B], ss->m[Q_B])
                      : cuzk_backend_msm_g2(be, &tail, p->b_g2, ss->tail[Q_B], ss->n[Q_B]);
    t->msm_b_g2 = now_ms() - t0;
    if (s == CUZK_OK)
        cuzk_g2_add(out, out, &tail);
    return s;
}

static cuzk_status lab_sum(cuzk_backend *be, cuzk_prove_timings *t, const cuzk_groth16_params *p,
                           const split_set *ss, lab_sums *out)
{
    cuzk_status s;
    if ((s = g1_split_sum(be, t, &out->l, p->l, ss, Q_L)) != CUZK_OK ||
        (s = g1_split_sum(be, t, &out->a, p->a, ss, Q_A)) != CUZK_OK ||
        (s = g1_split_sum(be, t, &out->b1, p->b_g1, ss, Q_B)) != CUZK_OK)
        return s;
    return g2_split_sum(be, t, &out->b2, p, ss);
}

/* The A and B (G2) sums on a second thread while the caller's does L and B (G1): each call
 * takes whichever lane of the device frees first (gm_lane_call), so once the H MSM leaves the
 * main lane both lanes work on the sums instead of one; before that they queue for the side
 * lane as one thread's calls would. */
typedef struct {
    cuzk_backend *be;
    const cuzk_groth16_params *p;
    const split_set *ss;
    lab_sums *out;
    cuzk_prove_timings t;
    cuzk_status s;
} lab_half;

static void *lab_half_run(void *arg)
{
    lab_half *h = arg;
    h->s = g1_split_sum(h->be, &h->t, &h->out->a, h->p->a, h->ss, Q_A);
    if (h->s == CUZK_OK)
        h->s = g2_split_sum(h->be, &h->t, &h->out->b2, h->p, h->ss);
    return NULL;
}

/* Two threads issue the sums (lab_half) unless env CUZK_PROVER_LAB_THREADS=1. */
static cuzk_status lab_sum_beside(cuzk_backend *be, cuzk_prove_timings *t,
                                  const cuzk_groth16_params *p, const split_set *ss, lab_sums *out)
{
    const char *e = getenv("CUZK_PROVER_LAB_THREADS");
    lab_half h = {.be = be, .p = p, .ss = ss, .out = out, .s = CUZK_ERR_INTERNAL};
    pthread_t th;
    if ((e && strcmp(e, "1") == 0) || pthread_create(&th, NULL, lab_half_run, &h) != 0)
        return lab_sum(be, t, p, ss, out);
    cuzk_status s = g1_split_sum(be, t, &out->l, p->l, ss, Q_L);
    if (s == CUZK_OK)
        s = g1_split_sum(be, t, &out->b1, p->b_g1, ss, Q_B);
    pthread_join(th, NULL);
    t->batch_add += h.t.batch_add;
    t->tail_msm += h.t.tail_msm;
    t->msm_b_g2 = h.t.msm_b_g2;
    return s != CUZK_OK ? s : h.s;
}

/* Whether the L/A/B sums run while the fused H call is still on the device, on the device's
 * side lane: over host bases their calls are bound by PCIe transfers, which run under the H
 * MSM's kernels; over resident bases they take the device's gaps beside the H step (a's upload,
 * the host's work between calls): 1320 instead of 1358-1361 ms per PoRep partition on the H200
 * (docs/PERFORMANCE.md, run V1). Env CUZK_PROVER_LAB_EARLY=0 runs them after the H call. */
static bool lab_overlaps_h(cuzk_backend *be)
{
    const char *e = getenv("CUZK_PROVER_LAB_EARLY");
    return !(e && *e == '0') && cuzk_backend_side_lane_on(be);
}

/* The H step and the H MSM, fused on the device (cuzk_backend_h_msm_g1), run on a thread of
 * its own while the caller splits the L/A/B scalars on the pool. */
typedef struct {
    cuzk_backend *be;
    const cuzk_domain *d;
    const cuzk_prover_data *pd;
    const cuzk_g1_affine_t *bases;
    cuzk_g1_jac_t out;
    double ms[2];
    cuzk_status s;
    char msg[512]; /* cuzk_last_error is per thread: the caller re-raises it */
} h_fused_job;

/* The device takes c as a * b (every row of a satisfied system; an unsatisfied one fails the
 * proof's verification either way), so only a and b go up: a third less to pin and copy. Env
 * CUZK_PROVER_H_HOST_C=1 sends the synthesised c instead (for comparison). */
static void *h_fused_run(void *arg)
{
    h_fused_job *j = arg;
    const char *e = getenv("CUZK_PROVER_H_HOST_C");
    const cuzk_fr_t *c = e && *e && strcmp(e, "0") != 0 ? j->pd->c : NULL; /* NULL: PROVE_AB */
    j->s = cuzk_backend_h_msm_g1(j->be, j->d, j->pd->a, j->pd->b, c, j->pd->n_rows, j->bases,
                                 &j->out, j->ms);
    if (j->s != CUZK_OK)
        snprintf(j->msg, sizeof j->msg, "%s", cuzk_last_error());
    return NULL;
}

/* The unfused H path: pad a, b, c (taken out of |pd|), H on the backend, then the H MSM. */
static cuzk_status h_separate(cuzk_backend *be, const cuzk_domain *d, const cuzk_groth16_params *p,
                              cuzk_prover_data *pd, cuzk_g1_jac_t *h_sum, cuzk_prove_timings *t);

static cuzk_status random_scalar(cuzk_fr_t *out)
{
    uint64_t l[4];
    do {
        if (getrandom(l, sizeof l, 0) != sizeof l)
            return cuzk_fail(CUZK_ERR_INTERNAL, "prover: getrandom failed");
        l[3] &= 0x7fffffffffffffffULL;
    } while (!cuzk_fr_from_canonical(out, l));
    cuzk_memclear(l, sizeof l);
    return CUZK_OK;
}

static cuzk_status check_sizes(const cuzk_groth16_params *p, const cuzk_prover_data *pd, size_t n)
{
    if (!pd->a || !pd->b || !pd->input || (pd->n_aux && !pd->aux))
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "prover: the synthesis output is incomplete "
                                               "(a WITNESS-mode result needs cuzk_pce_eval)");
    if (p->vk->ic_len != pd->n_inputs)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "prover: parameters have %zu inputs, circuit %zu",
                         p->vk->ic_len, pd->n_inputs);
    if (p->n_l != pd->n_aux)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "prover: parameters have %zu aux, circuit %zu",
                         p->n_l, pd->n_aux);
    if (pd->n_rows > n)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "prover: %zu rows exceed the domain of %zu",
                         pd->n_rows, n);
    if (p->n_a != pd->n_inputs + pd->a_aux_popcount)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "prover: A query has %zu points, density %zu",
                         p->n_a, pd->n_inputs + pd->a_aux_popcount);
    if (p->n_b_g1 != pd->b_input_popcount + pd->b_aux_popcount || p->n_b_g2 != p->n_b_g1)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "prover: B queries have %zu/%zu points, density %zu",
                         p->n_b_g1, p->n_b_g2, pd->b_input_popcount + pd->b_aux_popcount);
    return CUZK_OK;
}

/* Vectors at least this large live in their own mmap'd chunks (glibc's largest dynamic mmap
 * threshold is 32 MiB), where realloc moves pages instead of copying them: no second copy of
 * witness-derived values is left behind, and the 4 GiB vectors of a PoRep partition are padded
 * without touching (first-write faults cost ~0.5 s/GiB on the H200 host) or copying them. */
#define PAD_IN_PLACE_BYTES ((size_t)64 << 20)

/* Pads |*v| (one of |pd|'s a, b, c) to |n| entries and takes it out of |*v|; the result is in
 * pd->abc_alloc's memory like the input. */
static cuzk_fr_t *pad(const cuzk_prover_data *pd, cuzk_fr_t **v, size_t n)
{
    const size_t rows = pd->n_rows;
    if (pd->abc_cap >= n) { /* reserved for the domain already (a pool's buffers are) */
        cuzk_fr_t *w = *v;
        memset(w + rows, 0, (n - rows) * sizeof *w);
        *v = NULL;
        return w;
    }
    if (pd->abc_alloc.alloc) {
        cuzk_fr_t *w = cuzk_vec_alloc_bytes(&pd->abc_alloc, n * sizeof *w);
        if (!w)
            return NULL;
        memcpy(w, *v, rows * sizeof *w);
        memset(w + rows, 0, (n - rows) * sizeof *w);
        cuzk_vec_free(&pd->abc_alloc, *v);
        *v = NULL;
        return w;
    }
    if (rows * sizeof(cuzk_fr_t) >= PAD_IN_PLACE_BYTES) {
        cuzk_fr_t *w = cuzk_realloc(*v, n * sizeof *w);
        if (!w)
            return NULL;
        memset(w + rows, 0, (n - rows) * sizeof *w);
        *v = NULL;
        return w;
    }
    cuzk_fr_t *w = cuzk_alloc_array(n, sizeof *w);
    if (!w)
        return NULL;
    memcpy(w, *v, rows * sizeof *w);
    memset(w + rows, 0, (n - rows) * sizeof *w);
    cuzk_memclear(*v, rows * sizeof **v);
    cuzk_free(*v);
    *v = NULL;
    return w;
}

cuzk_status cuzk_groth16_prove(cuzk_groth16_proof *out, const cuzk_groth16_params *p,
                               cuzk_prover_data *pd, cuzk_backend *be, const cuzk_prove_opts *opts,
                               cuzk_prove_timings *tm)
{
    cuzk_prove_timings local = {0};
    cuzk_prove_timings *t = tm ? tm : &local;
    double synth = t->synthesis;
    memset(t, 0, sizeof *t);
    t->synthesis = synth;
    double t_start = now_ms();
    size_t n = p->n_h + 1;
    cuzk_status s = check_sizes(p, pd, n);
    if (s != CUZK_OK)
        return s;
    cuzk_domain *d = NULL;
    split_set ss;
    memset(&ss, 0, sizeof ss);
    cuzk_fr_t r, sr;
    memset(&r, 0, sizeof r);
    memset(&sr, 0, sizeof sr);
    if ((s = cuzk_domain_create(&d, n, CUZK_ROOTS_BELLPERSON)) != CUZK_OK)
        goto done;
    if (cuzk_domain_size(d) != n) {
        s = cuzk_fail(CUZK_ERR_INVALID_ARG, "prover: h query of %zu points is not domain - 1",
                      p->n_h);
        goto done;
    }
    cuzk_g1_jac_t h_sum, tmp;
    cuzk_g2_jac_t tmp2;
    /* H: a, b, c -> h -> the H MSM. On a GPU backend, one device call (no padding on the host,
     * h never leaves the device; the H bases resident or streamed from the host) on its own
     * thread, while this one splits the L/A/B scalars on the pool; else the separate calls,
     * then the split.
     * env CUZK_PROVER_H_UNFUSED=1 forces the separate calls (A/B measurements). */
    const char *uf = getenv("CUZK_PROVER_H_UNFUSED");
    h_fused_job hj = {.be = be, .d = d, .pd = pd, .bases = p->h, .s = CUZK_ERR_UNSUPPORTED};
    bool fused = cuzk_backend_device(be) >= 0 && !(uf && *uf && strcmp(uf, "0") != 0);
    pthread_t th;
    bool threaded = fused && pthread_create(&th, NULL, h_fused_run, &hj) == 0;
    if (fused && !threaded)
        h_fused_run(&hj);
    if (!fused && (s = h_separate(be, d, p, pd, &h_sum, t)) != CUZK_OK)
        goto done; /* H first: a, b, c are freed before the split scratch grows */
    double ts = now_ms();
    s = split_prepare(be, p, pd, &ss);
    t->split = now_ms() - ts;
    lab_sums sums;
    bool early = threaded && s == CUZK_OK && lab_overlaps_h(be);
    t->overlapped = early;
    if (early)
        s = lab_sum_beside(be, t, p, &ss, &sums); /* beside the H MSM: phase times overlap */
    /* A prefetch of these a and b that the fused call has not taken (another device's, or the
     * call declined) must not outlive them: they are released or overwritten below. The call
     * took its own, if at all, on entry (the split ran since); one it is taking is left to it. */
    if (fused)
        cuzk_backend_h_prefetch_drop(be, pd->a);
    if (threaded && opts && opts->h_running)
        opts->h_running(opts->h_running_ctx);
    if (threaded)
        pthread_join(th, NULL);
    if (s != CUZK_OK || !fused)
        goto after_h;
    if (hj.s == CUZK_OK) {
        h_sum = hj.out;
        t->ntt_h = hj.ms[0];
        t->msm_h = hj.ms[1];
        /* Consumed, like the separate path's padded copies (not wiped: neither are those). */
        cuzk_prover_data_release_abc(pd);
    } else if (hj.s != CUZK_ERR_UNSUPPORTED) {
        s = cuzk_fail(hj.s, "%s", hj.msg);
        goto done;
    } else {
        s = h_separate(be, d, p, pd, &h_sum, t); /* the device declined (out of memory) */
    }
after_h:
    if (s != CUZK_OK)
        goto done;
    /* L, A and B over their split scalars, unless they ran beside the H call. */
    if (!early && (s = lab_sum(be, t, p, &ss, &sums)) != CUZK_OK)
        goto done;
    const cuzk_g1_jac_t l_sum = sums.l, a_sum = sums.a, b1_sum = sums.b1;
    const cuzk_g2_jac_t b2_sum = sums.b2;

    /* Assemble with r, s (secret: constant-time multiplications). */
    double t0 = now_ms();
    if (opts && opts->r && opts->s) {
        r = *opts->r;
        sr = *opts->s;
    } else if ((s = random_scalar(&r)) != CUZK_OK || (s = random_scalar(&sr)) != CUZK_OK) {
        goto done;
    }
    const cuzk_groth16_vk *vk = p->vk;
    cuzk_g1_jac_t pa, pc, alpha, beta1, delta1;
    cuzk_g2_jac_t pb, delta2;
    cuzk_g1_from_affine(&alpha, &vk->alpha_g1);
    cuzk_g1_from_affine(&beta1, &vk->beta_g1);
    cuzk_g1_from_affine(&delta1, &vk->delta_g1);
    cuzk_g2_from_affine(&delta2, &vk->delta_g2);
    /* A = alpha + A-sum + r delta */
    cuzk_g1_mul(&tmp, &delta1, &r);
    cuzk_g1_add(&pa, &alpha, &a_sum);
    cuzk_g1_add(&pa, &pa, &tmp);
    /* B = beta2 + B-sum2 + s delta2 */
    cuzk_g2_mul(&tmp2, &delta2, &sr);
    cuzk_g2_from_affine(&pb, &vk->beta_g2);
    cuzk_g2_add(&pb, &pb, &b2_sum);
    cuzk_g2_add(&pb, &pb, &tmp2);
    /* C = s A-sum + r B-sum1 + rs delta1 + s alpha + r beta1 + H + L
     *   = s (A-sum + alpha) + r (B-sum1 + beta1 + s delta1) + H + L */
    cuzk_g1_jac_t u;
    cuzk_g1_add(&u, &a_sum, &alpha);
    cuzk_g1_mul(&pc, &u, &sr);
    cuzk_g1_mul(&tmp, &delta1, &sr);
    cuzk_g1_add(&u, &b1_sum, &beta1);
    cuzk_g1_add(&u, &u, &tmp);
    cuzk_g1_mul(&tmp, &u, &r);
    cuzk_g1_add(&pc, &pc, &tmp);
    cuzk_g1_add(&pc, &pc, &h_sum);
    cuzk_g1_add(&pc, &pc, &l_sum);
    cuzk_groth16_proof proof;
    cuzk_g1_to_affine(&proof.a, &pa);
    cuzk_g2_to_affine(&proof.b, &pb);
    cuzk_g1_to_affine(&proof.c, &pc);
    t->assemble = now_ms() - t0;

    if (!opts || opts->verify) {
        t0 = now_ms();
        s = cuzk_groth16_verify(vk, &proof, pd->input + 1, pd->n_inputs - 1);
        t->verify = now_ms() - t0;
        if (s != CUZK_OK) {
            s = cuzk_fail(CUZK_ERR_VERIFY_FAILED,
                          "prover: the proof does not verify (is the witness satisfying? "
                          "--check names the first unsatisfied constraint)");
            goto done;
        }
    }
    *out = proof;
done:
    cuzk_memclear(&r, sizeof r);
    cuzk_memclear(&sr, sizeof sr);
    split_wipe(be, &ss);
    cuzk_domain_destroy(d);
    t->total = now_ms() - t_start + t->synthesis;
    return s;
}

typedef struct {
    cuzk_fr_t *c;
    const cuzk_fr_t *a, *b;
    size_t rows;
} ab_job;

static void ab_chunk(void *ctx, size_t t)
{
    const ab_job *j = ctx;
    size_t lo = t * SPLIT_CHUNK, hi = chunk_hi(t, j->rows);
    for (size_t i = lo; i < hi; i++)
        cuzk_fr_mul(&j->c[i], &j->a[i], &j->b[i]);
}

/* c = a * b on the first rows and 0 above, for a PROVE_AB synthesis (no c): the value of every
 * row of a satisfied system. In pd->abc_alloc's memory, like a padded c. */
static cuzk_fr_t *c_from_ab(cuzk_backend *be, const cuzk_prover_data *pd, const cuzk_fr_t *a,
                            const cuzk_fr_t *b, size_t n)
{
    cuzk_fr_t *c = pd->abc_alloc.alloc ? cuzk_vec_alloc_bytes(&pd->abc_alloc, n * sizeof *c)
                                       : cuzk_alloc_array(n, sizeof *c);
    if (!c)
        return NULL;
    ab_job j = {c, a, b, pd->n_rows};
    cuzk_pool_run(cuzk_backend_pool(be), (pd->n_rows + SPLIT_CHUNK - 1) / SPLIT_CHUNK, ab_chunk,
                  &j);
    memset(c + pd->n_rows, 0, (n - pd->n_rows) * sizeof *c);
    return c;
}

static cuzk_status h_separate(cuzk_backend *be, const cuzk_domain *d, const cuzk_groth16_params *p,
                              cuzk_prover_data *pd, cuzk_g1_jac_t *h_sum, cuzk_prove_timings *t)
{
    size_t n = cuzk_domain_size(d);
    double t0 = now_ms();
    const cuzk_vec_alloc *va = &pd->abc_alloc;
    const bool ab = !pd->c; /* PROVE_AB: no c */
    cuzk_fr_t *a = pad(pd, &pd->a, n);
    cuzk_fr_t *b = a ? pad(pd, &pd->b, n) : NULL;
    cuzk_fr_t *c = b && !ab ? pad(pd, &pd->c, n) : NULL;
    /* No c: a device forms c = a b itself; a third vector, which the engine's admission of a
     * CUDA partition does not count, only where the step runs on the CPU. */
    cuzk_status s = b && ab ? cuzk_backend_h(be, d, a, b, NULL) : CUZK_ERR_UNSUPPORTED;
    if (s == CUZK_ERR_UNSUPPORTED) {
        if (b && ab)
            c = c_from_ab(be, pd, a, b, n);
        s = c ? cuzk_backend_h(be, d, a, b, c)
              : cuzk_fail(CUZK_ERR_NOMEM, "prover: out of memory padding a, b, c to %zu", n);
    }
    cuzk_vec_free(va, b);
    cuzk_vec_free(va, c);
    t->ntt_h = now_ms() - t0;
    if (s == CUZK_OK) {
        t0 = now_ms();
        s = cuzk_backend_msm_g1(be, h_sum, p->h, a, n - 1);
        t->msm_h = now_ms() - t0;
    }
    cuzk_vec_free(va, a);
    return s;
}
