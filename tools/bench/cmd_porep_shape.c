/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * cuzk-bench porep-shape: one Groth16 partition of the Filecoin PoRep 32 GiB shape (issue 4) on
 * random data of the right sizes, with the prover's phase breakdown.
 *
 *   cuzk-bench porep-shape [--log-domain 27] [--constraints 130278869] [--aux 130169893]
 *       [--inputs 328] [--a-density 99.7] [--b-density 25.4] [--binary-frac 0.95]
 *       [--backend cuda|cpu] [--scale S] [--mode prove|resident|both] [--compare]
 *       [--repeat K] [--threads T] [--seed X] [--json]
 *
 * Parameters: every query (H, L, A, B in G1 and G2) is filled from a pool of distinct subgroup
 * points P = T1[j] + T2[k] (T1, T2 random multiples of the generator), indexed by a hash of the
 * position, so a query of 130 M points costs a copy instead of 130 M scalar multiplications; the
 * pool (2^20 G1 points, 2^16 G2) is large enough that equal points rarely meet in one bucket.
 * Witness: aux values are 0 or 1 (each half the time) with probability --binary-frac and uniform
 * otherwise; a/b/c are uniform (the H step's cost does not depend on satisfiability, and the
 * proof is not verified: random parameters have no trapdoor). Densities: each aux variable is in
 * A with probability --a-density % and in B with --b-density %; every input is in A and B.
 *
 * --scale S (a power of two <= 1: 1, 1/16, 0.0625 or 2^-4) multiplies the domain, the row and
 * the aux counts, so one command runs the same shape on the CPU of a small machine.
 *
 * Modes: prove = cuzk_groth16_prove on the backend (what the prover does today: bases passed as
 * host arrays, so a CUDA backend uploads each query per call); resident (CUDA only) = the same
 * steps in the same order with the five queries uploaded to the device once beforehand
 * (src/gpu/gpu_msm.h) and a/b/c and the scalar buffers in pinned host memory, timed with CUDA
 * events per phase (the SRS-resident partition). --compare runs prove on the CPU, prove on the
 * backend and, for CUDA, resident, all with the same inputs and the same r, s, and checks that
 * the three proofs are equal (exit 1 otherwise).
 */
#include "commands.h"
#include "cuzk/alloc.h"
#include "cuzk/backend.h"
#include "cuzk/groth16.h"
#include "cuzk/r1cs.h"
#include "gpu/gpu_msm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PS_CHUNK ((size_t)1 << 16) /* elements per generation task (a multiple of 64) */
#define PS_POOL1_LOG 20
#define PS_POOL2_LOG 16

typedef struct {
    unsigned log_domain, inputs, threads, repeat;
    size_t rows, aux;
    double a_density, b_density, binary_frac;
    int log_scale; /* scale = 2^log_scale, log_scale <= 0 */
    const char *backend, *mode;
    bool keep_resident; /* prove mode: parameter set kept on the device (backend residency) */
    bool compare, json;
    uint64_t seed;
} ps_args;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* splitmix64 stream; one per generation task so that results do not depend on threads. */
typedef struct {
    uint64_t s;
} ps_rng;

static void rng_seed(ps_rng *r, uint64_t seed, uint64_t stream, uint64_t chunk)
{
    r->s = mix64(seed ^ mix64(stream * 0x9e3779b97f4a7c15ULL + chunk + 1));
}

static uint64_t rng_next(ps_rng *r)
{
    return mix64(r->s += 0x9e3779b97f4a7c15ULL);
}

/* A uniform-enough Fr value: below 2^254 < r, taken as the Montgomery representation. */
static void rng_fr(ps_rng *r, cuzk_fr_t *out)
{
    for (int i = 0; i < 4; i++)
        out->l[i] = rng_next(r);
    out->l[3] &= (1ULL << 62) - 1;
}

static bool rng_chance(ps_rng *r, double p)
{
    return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0) < p;
}

/* ---- point pools ---------------------------------------------------------------------------- */

typedef struct {
    bool g2;
    size_t half; /* |T1| = |T2| */
    cuzk_g1_jac_t *t1_1;
    cuzk_g1_affine_t *t2_1, *pool1;
    cuzk_g2_jac_t *t1_2;
    cuzk_g2_affine_t *t2_2, *pool2;
    uint64_t seed;
} pool_ctx;

static void pool_mults(void *vc, size_t i)
{
    pool_ctx *c = vc;
    ps_rng r;
    rng_seed(&r, c->seed, c->g2 ? 2 : 1, i);
    cuzk_fr_t k;
    uint64_t l[4];
    do {
        for (int j = 0; j < 4; j++)
            l[j] = rng_next(&r);
        l[3] &= 0x7fffffffffffffffULL;
    } while (!cuzk_fr_from_canonical(&k, l) || (k.l[0] | k.l[1] | k.l[2] | k.l[3]) == 0);
    size_t j = i % c->half;
    if (!c->g2) {
        cuzk_g1_affine_t ga;
        cuzk_g1_jac_t g, p;
        cuzk_g1_generator(&ga);
        cuzk_g1_from_affine(&g, &ga);
        cuzk_g1_mul_vartime(&p, &g, &k);
        if (i < c->half)
            c->t1_1[j] = p;
        else
            cuzk_g1_to_affine(&c->t2_1[j], &p);
    } else {
        cuzk_g2_affine_t ga;
        cuzk_g2_jac_t g, p;
        cuzk_g2_generator(&ga);
        cuzk_g2_from_affine(&g, &ga);
        cuzk_g2_mul_vartime(&p, &g, &k);
        if (i < c->half)
            c->t1_2[j] = p;
        else
            cuzk_g2_to_affine(&c->t2_2[j], &p);
    }
}

/* Row j of the pool: T1[j] + T2[k] for every k, one batch inversion. */
static void pool_row(void *vc, size_t j)
{
    pool_ctx *c = vc;
    if (!c->g2) {
        cuzk_g1_jac_t *tmp = malloc(c->half * sizeof *tmp);
        if (!tmp)
            abort();
        for (size_t k = 0; k < c->half; k++)
            cuzk_g1_add_affine(&tmp[k], &c->t1_1[j], &c->t2_1[k]);
        cuzk_g1_batch_to_affine(c->pool1 + j * c->half, tmp, c->half);
        free(tmp);
    } else {
        cuzk_g2_jac_t *tmp = malloc(c->half * sizeof *tmp);
        if (!tmp)
            abort();
        for (size_t k = 0; k < c->half; k++)
            cuzk_g2_add_affine(&tmp[k], &c->t1_2[j], &c->t2_2[k]);
        cuzk_g2_batch_to_affine(c->pool2 + j * c->half, tmp, c->half);
        free(tmp);
    }
}

/* A pool of 2^log distinct random subgroup points (G1 or G2); NULL on allocation failure. */
static void *pool_make(bool g2, unsigned log, uint64_t seed, cuzk_pool *pool)
{
    pool_ctx c = {.g2 = g2, .half = (size_t)1 << (log / 2), .seed = seed};
    size_t n = c.half * c.half;
    void *out = NULL;
    if (!g2) {
        c.t1_1 = cuzk_alloc_array(c.half, sizeof *c.t1_1);
        c.t2_1 = cuzk_alloc_array(c.half, sizeof *c.t2_1);
        c.pool1 = cuzk_alloc_array(n, sizeof *c.pool1);
        out = c.pool1;
        if (!c.t1_1 || !c.t2_1 || !c.pool1)
            goto fail;
    } else {
        c.t1_2 = cuzk_alloc_array(c.half, sizeof *c.t1_2);
        c.t2_2 = cuzk_alloc_array(c.half, sizeof *c.t2_2);
        c.pool2 = cuzk_alloc_array(n, sizeof *c.pool2);
        out = c.pool2;
        if (!c.t1_2 || !c.t2_2 || !c.pool2)
            goto fail;
    }
    cuzk_pool_run(pool, 2 * c.half, pool_mults, &c);
    cuzk_pool_run(pool, c.half, pool_row, &c);
    cuzk_free(c.t1_1);
    cuzk_free(c.t2_1);
    cuzk_free(c.t1_2);
    cuzk_free(c.t2_2);
    return out;
fail:
    cuzk_free(c.t1_1);
    cuzk_free(c.t2_1);
    cuzk_free(c.t1_2);
    cuzk_free(c.t2_2);
    cuzk_free(out);
    return NULL;
}

typedef struct {
    const void *pool;
    size_t pool_mask, elt;
    void *dst;
    size_t n;
    uint64_t salt;
} fill_ctx;

static void fill_task(void *vc, size_t t)
{
    fill_ctx *c = vc;
    size_t lo = t * PS_CHUNK, hi = lo + PS_CHUNK < c->n ? lo + PS_CHUNK : c->n;
    for (size_t i = lo; i < hi; i++)
        memcpy((char *)c->dst + i * c->elt,
               (const char *)c->pool + (mix64(i ^ c->salt) & c->pool_mask) * c->elt, c->elt);
}

static void *query_fill(const void *pool, unsigned pool_log, size_t elt, size_t n, uint64_t salt,
                        cuzk_pool *tp)
{
    void *dst = cuzk_alloc_array(n ? n : 1, elt);
    if (!dst)
        return NULL;
    fill_ctx c = {pool, ((size_t)1 << pool_log) - 1, elt, dst, n, mix64(salt)};
    cuzk_pool_run(tp, (n + PS_CHUNK - 1) / PS_CHUNK, fill_task, &c);
    return dst;
}

/* ---- witness ---------------------------------------------------------------------------------- */

typedef struct {
    const ps_args *a;
    cuzk_prover_data *pd;
    cuzk_fr_t one;
    uint64_t seed;
} wit_ctx;

static void wit_abc(void *vc, size_t t)
{
    wit_ctx *c = vc;
    size_t lo = t * PS_CHUNK, hi = lo + PS_CHUNK < c->pd->n_rows ? lo + PS_CHUNK : c->pd->n_rows;
    ps_rng r;
    rng_seed(&r, c->seed, 10, t);
    for (size_t i = lo; i < hi; i++) {
        rng_fr(&r, &c->pd->a[i]);
        rng_fr(&r, &c->pd->b[i]);
        rng_fr(&r, &c->pd->c[i]);
    }
}

static void wit_aux(void *vc, size_t t)
{
    wit_ctx *c = vc;
    cuzk_prover_data *pd = c->pd;
    size_t lo = t * PS_CHUNK, hi = lo + PS_CHUNK < pd->n_aux ? lo + PS_CHUNK : pd->n_aux;
    ps_rng r;
    rng_seed(&r, c->seed, 11, t);
    double pa = c->a->a_density / 100.0, pb = c->a->b_density / 100.0;
    for (size_t i = lo; i < hi; i++) {
        if (rng_chance(&r, c->a->binary_frac)) {
            if (rng_next(&r) & 1)
                pd->aux[i] = c->one;
            else
                cuzk_fr_set_zero(&pd->aux[i]);
        } else {
            rng_fr(&r, &pd->aux[i]);
        }
        uint64_t bit = 1ULL << (i % 64);
        if (i % 64 == 0) {
            pd->a_aux_density[i / 64] = 0;
            pd->b_aux_density[i / 64] = 0;
        }
        if (rng_chance(&r, pa))
            pd->a_aux_density[i / 64] |= bit;
        if (rng_chance(&r, pb))
            pd->b_aux_density[i / 64] |= bit;
    }
}

static size_t popcount_bits(const uint64_t *bm, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < (n + 63) / 64; i++)
        c += (size_t)__builtin_popcountll(bm[i]);
    return c;
}

/* Random prover data of the shape (same |seed|, same data). */
static cuzk_status witness_make(cuzk_prover_data *pd, const ps_args *a, size_t rows, size_t aux,
                                cuzk_pool *tp)
{
    memset(pd, 0, sizeof *pd);
    pd->n_inputs = a->inputs;
    pd->n_aux = aux;
    pd->n_rows = rows;
    pd->n_constraints = rows - a->inputs;
    size_t words = (aux + 63) / 64;
    pd->input = cuzk_alloc_array(a->inputs, sizeof *pd->input);
    pd->aux = cuzk_alloc_array(aux ? aux : 1, sizeof *pd->aux);
    pd->a = cuzk_alloc_array(rows, sizeof *pd->a);
    pd->b = cuzk_alloc_array(rows, sizeof *pd->b);
    pd->c = cuzk_alloc_array(rows, sizeof *pd->c);
    pd->a_aux_density = cuzk_alloc_array(words ? words : 1, sizeof(uint64_t));
    pd->b_aux_density = cuzk_alloc_array(words ? words : 1, sizeof(uint64_t));
    pd->b_input_density = cuzk_alloc_array((a->inputs + 63) / 64, sizeof(uint64_t));
    if (!pd->input || !pd->aux || !pd->a || !pd->b || !pd->c || !pd->a_aux_density ||
        !pd->b_aux_density || !pd->b_input_density) {
        cuzk_prover_data_free(pd);
        return cuzk_fail(CUZK_ERR_NOMEM, "porep-shape: out of memory for the witness");
    }
    wit_ctx c = {a, pd, {{0}}, a->seed};
    cuzk_fr_set_one(&c.one);
    ps_rng r;
    rng_seed(&r, a->seed, 12, 0);
    pd->input[0] = c.one;
    for (size_t i = 1; i < a->inputs; i++)
        rng_fr(&r, &pd->input[i]);
    memset(pd->b_input_density, 0, (a->inputs + 63) / 64 * sizeof(uint64_t));
    for (size_t i = 0; i < a->inputs; i++)
        pd->b_input_density[i / 64] |= 1ULL << (i % 64);
    cuzk_pool_run(tp, (rows + PS_CHUNK - 1) / PS_CHUNK, wit_abc, &c);
    cuzk_pool_run(tp, (aux + PS_CHUNK - 1) / PS_CHUNK, wit_aux, &c);
    pd->a_aux_popcount = popcount_bits(pd->a_aux_density, aux);
    pd->b_aux_popcount = popcount_bits(pd->b_aux_density, aux);
    pd->b_input_popcount = a->inputs;
    return CUZK_OK;
}

/* ---- parameters ------------------------------------------------------------------------------- */

static void params_free(cuzk_groth16_params *p)
{
    if (!p)
        return;
    cuzk_free(p->vk);
    cuzk_free(p->h);
    cuzk_free(p->l);
    cuzk_free(p->a);
    cuzk_free(p->b_g1);
    cuzk_free(p->b_g2);
    memset(p, 0, sizeof *p);
}

static cuzk_status params_make(cuzk_groth16_params *p, const ps_args *a, size_t domain,
                               const cuzk_prover_data *pd, cuzk_pool *tp)
{
    memset(p, 0, sizeof *p);
    cuzk_g1_affine_t *pool1 = pool_make(false, PS_POOL1_LOG, a->seed, tp);
    cuzk_g2_affine_t *pool2 = pool_make(true, PS_POOL2_LOG, a->seed, tp);
    cuzk_status s = CUZK_OK;
    if (!pool1 || !pool2) {
        s = cuzk_fail(CUZK_ERR_NOMEM, "porep-shape: out of memory for the point pools");
        goto done;
    }
    /* Spot check: pool points are subgroup points (sums of multiples of the generator). */
    for (size_t i = 0; i < 4; i++) {
        size_t j = mix64(i + a->seed) & (((size_t)1 << PS_POOL1_LOG) - 1);
        size_t k = mix64(i + a->seed) & (((size_t)1 << PS_POOL2_LOG) - 1);
        if (!cuzk_g1_affine_in_subgroup(&pool1[j]) || !cuzk_g2_affine_in_subgroup(&pool2[k])) {
            s = cuzk_fail(CUZK_ERR_INTERNAL, "porep-shape: a pool point is not in the subgroup");
            goto done;
        }
    }
    p->vk = cuzk_alloc(sizeof *p->vk);
    if (!p->vk) {
        s = cuzk_fail(CUZK_ERR_NOMEM, "porep-shape: out of memory");
        goto done;
    }
    memset(p->vk, 0, sizeof *p->vk);
    p->vk->alpha_g1 = pool1[1];
    p->vk->beta_g1 = pool1[2];
    p->vk->delta_g1 = pool1[3];
    p->vk->beta_g2 = pool2[1];
    p->vk->gamma_g2 = pool2[2];
    p->vk->delta_g2 = pool2[3];
    p->vk->ic_len = pd->n_inputs;
    p->n_h = domain - 1;
    p->n_l = pd->n_aux;
    p->n_a = pd->n_inputs + pd->a_aux_popcount;
    p->n_b_g1 = p->n_b_g2 = pd->b_input_popcount + pd->b_aux_popcount;
    size_t e1 = sizeof(cuzk_g1_affine_t), e2 = sizeof(cuzk_g2_affine_t);
    p->h = query_fill(pool1, PS_POOL1_LOG, e1, p->n_h, 1, tp);
    p->l = query_fill(pool1, PS_POOL1_LOG, e1, p->n_l, 2, tp);
    p->a = query_fill(pool1, PS_POOL1_LOG, e1, p->n_a, 3, tp);
    p->b_g1 = query_fill(pool1, PS_POOL1_LOG, e1, p->n_b_g1, 4, tp);
    p->b_g2 = query_fill(pool2, PS_POOL2_LOG, e2, p->n_b_g2, 5, tp);
    if (!p->h || !p->l || !p->a || !p->b_g1 || !p->b_g2)
        s = cuzk_fail(CUZK_ERR_NOMEM, "porep-shape: out of memory for the queries");
done:
    cuzk_free(pool1);
    cuzk_free(pool2);
    if (s != CUZK_OK)
        params_free(p);
    return s;
}

/* r, s of every proof of this run (same inputs, same proof on every backend). */
static void fixed_rs(const ps_args *a, cuzk_fr_t *r, cuzk_fr_t *s)
{
    ps_rng g;
    rng_seed(&g, a->seed, 13, 0);
    rng_fr(&g, r);
    rng_fr(&g, s);
}

/* Proofs compared by their 192-byte encoding (the structs have padding). */
static bool proof_eq(const cuzk_groth16_proof *x, const cuzk_groth16_proof *y)
{
    uint8_t bx[CUZK_GROTH16_PROOF_BYTES], by[CUZK_GROTH16_PROOF_BYTES];
    cuzk_groth16_proof_serialize(bx, x);
    cuzk_groth16_proof_serialize(by, y);
    return memcmp(bx, by, sizeof bx) == 0;
}

/* ---- the resident partition (CUDA) ---------------------------------------------------------- */

enum { PH_H, PH_MSM_H, PH_L, PH_A, PH_B1, PH_B2, PH_COUNT };
static const char *const ph_names[PH_COUNT] = {"ntt_h", "msm_h", "l", "a", "b_g1", "b_g2"};

typedef struct {
    double upload_ms;           /* bases upload, once */
    double gpu_ms[PH_COUNT];    /* CUDA-event totals of the phase's device calls */
    double kern_ms[PH_COUNT];   /* kernels only */
    double wall_ms[PH_COUNT];   /* host wall time of the phase, host preparation included */
    double batch_ms, tail_ms;   /* G1 L/A/B device time split (events) */
    double prep_ms;             /* host: 0/1 split and density gathers */
    double gpu_total, wall_total;
} res_times;

typedef struct {
    const cuzk_fr_t *sc;
    uint64_t *ones;
    cuzk_fr_t *tail;
    size_t n;
    cuzk_fr_t one;
} split_ctx;

static void split_task(void *vc, size_t t)
{
    split_ctx *c = vc;
    size_t lo = t * PS_CHUNK, hi = lo + PS_CHUNK < c->n ? lo + PS_CHUNK : c->n;
    for (size_t i = lo; i < hi; i++) {
        if (i % 64 == 0)
            c->ones[i / 64] = 0;
        if (memcmp(&c->sc[i], &c->one, sizeof c->one) == 0) {
            c->ones[i / 64] |= 1ULL << (i % 64);
            cuzk_fr_set_zero(&c->tail[i]);
        } else {
            c->tail[i] = c->sc[i];
        }
    }
}

static void add_t(res_times *t, int ph, const cuzk_gpu_timing *g, double *split)
{
    t->gpu_ms[ph] += g->total_ms;
    t->kern_ms[ph] += g->compute_ms;
    if (split)
        *split += g->total_ms;
}

/* Proof assembly, the same formula as src/groth16/prover.c. */
static void assemble(cuzk_groth16_proof *out, const cuzk_groth16_vk *vk, const cuzk_fr_t *r,
                     const cuzk_fr_t *sr, const cuzk_g1_jac_t *h_sum, const cuzk_g1_jac_t *l_sum,
                     const cuzk_g1_jac_t *a_sum, const cuzk_g1_jac_t *b1_sum,
                     const cuzk_g2_jac_t *b2_sum)
{
    cuzk_g1_jac_t pa, pc, alpha, beta1, delta1, tmp, u;
    cuzk_g2_jac_t pb, delta2, tmp2;
    cuzk_g1_from_affine(&alpha, &vk->alpha_g1);
    cuzk_g1_from_affine(&beta1, &vk->beta_g1);
    cuzk_g1_from_affine(&delta1, &vk->delta_g1);
    cuzk_g2_from_affine(&delta2, &vk->delta_g2);
    cuzk_g1_mul(&tmp, &delta1, r);
    cuzk_g1_add(&pa, &alpha, a_sum);
    cuzk_g1_add(&pa, &pa, &tmp);
    cuzk_g2_mul(&tmp2, &delta2, sr);
    cuzk_g2_from_affine(&pb, &vk->beta_g2);
    cuzk_g2_add(&pb, &pb, b2_sum);
    cuzk_g2_add(&pb, &pb, &tmp2);
    cuzk_g1_add(&u, a_sum, &alpha);
    cuzk_g1_mul(&pc, &u, sr);
    cuzk_g1_mul(&tmp, &delta1, sr);
    cuzk_g1_add(&u, b1_sum, &beta1);
    cuzk_g1_add(&u, &u, &tmp);
    cuzk_g1_mul(&tmp, &u, r);
    cuzk_g1_add(&pc, &pc, &tmp);
    cuzk_g1_add(&pc, &pc, h_sum);
    cuzk_g1_add(&pc, &pc, l_sum);
    cuzk_g1_to_affine(&out->a, &pa);
    cuzk_g2_to_affine(&out->b, &pb);
    cuzk_g1_to_affine(&out->c, &pc);
}

typedef struct {
    cuzk_gpu_bases *h, *l, *a, *b1, *b2;
} res_bases;

static void res_bases_free(res_bases *b)
{
    cuzk_gpu_bases_free(b->h);
    cuzk_gpu_bases_free(b->l);
    cuzk_gpu_bases_free(b->a);
    cuzk_gpu_bases_free(b->b1);
    cuzk_gpu_bases_free(b->b2);
    memset(b, 0, sizeof *b);
}

static cuzk_status res_bases_upload(res_bases *rb, int dev, const cuzk_groth16_params *p)
{
    memset(rb, 0, sizeof *rb);
    cuzk_status s = cuzk_gpu_bases_upload_g1(&rb->h, dev, p->h, p->n_h);
    if (s == CUZK_OK)
        s = cuzk_gpu_bases_upload_g1(&rb->l, dev, p->l, p->n_l);
    if (s == CUZK_OK)
        s = cuzk_gpu_bases_upload_g1(&rb->a, dev, p->a, p->n_a);
    if (s == CUZK_OK)
        s = cuzk_gpu_bases_upload_g1(&rb->b1, dev, p->b_g1, p->n_b_g1);
    if (s == CUZK_OK)
        s = cuzk_gpu_bases_upload_g2(&rb->b2, dev, p->b_g2, p->n_b_g2);
    if (s != CUZK_OK)
        res_bases_free(rb);
    return s;
}

/* One G1 query: split, batch addition and tail MSM over resident bases. */
static cuzk_status res_g1(cuzk_g1_jac_t *out, const cuzk_gpu_bases *b, const cuzk_fr_t *sc,
                          size_t n, split_ctx *sp, cuzk_pool *tp, res_times *t, int ph)
{
    double w0 = now_ms();
    sp->sc = sc;
    sp->n = n;
    cuzk_pool_run(tp, (n + PS_CHUNK - 1) / PS_CHUNK, split_task, sp);
    t->prep_ms += now_ms() - w0;
    cuzk_gpu_timing g;
    cuzk_g1_jac_t part;
    cuzk_status s = cuzk_gpu_batch_add_g1_resident(out, b, 0, sp->ones, n, &g);
    if (s != CUZK_OK)
        return s;
    add_t(t, ph, &g, &t->batch_ms);
    if ((s = cuzk_gpu_msm_g1_resident(&part, b, 0, sp->tail, n, &g)) != CUZK_OK)
        return s;
    add_t(t, ph, &g, &t->tail_ms);
    cuzk_g1_add(out, out, &part);
    t->wall_ms[ph] += now_ms() - w0;
    return CUZK_OK;
}

static cuzk_status res_gather(cuzk_fr_t *dst, size_t *k, const cuzk_prover_data *pd, bool b)
{
    size_t m = 0;
    for (size_t i = 0; i < pd->n_inputs; i++)
        if (!b || (pd->b_input_density[i / 64] >> (i % 64)) & 1)
            dst[m++] = pd->input[i];
    const uint64_t *dens = b ? pd->b_aux_density : pd->a_aux_density;
    for (size_t i = 0; i < pd->n_aux; i++)
        if ((dens[i / 64] >> (i % 64)) & 1)
            dst[m++] = pd->aux[i];
    *k = m;
    return CUZK_OK;
}

/* The partition with resident bases: pd's a/b/c are copied into pinned buffers (not timed: a
 * prover would build them there) and freed. */
static cuzk_status resident_prove(cuzk_groth16_proof *out, const cuzk_groth16_params *p,
                                  const res_bases *rb, cuzk_prover_data *pd, size_t domain,
                                  int dev, const ps_args *args, cuzk_pool *tp, res_times *t)
{
    cuzk_status s;
    cuzk_fr_t *a = NULL, *b = NULL, *c = NULL, *sc = NULL, *tail = NULL;
    uint64_t *ones = NULL;
    cuzk_domain *d = NULL;
    size_t cap = pd->n_aux;
    cap = p->n_a > cap ? p->n_a : cap;
    cap = p->n_b_g1 > cap ? p->n_b_g1 : cap;
    if ((s = cuzk_gpu_host_alloc((void **)&a, domain * sizeof *a)) != CUZK_OK ||
        (s = cuzk_gpu_host_alloc((void **)&b, domain * sizeof *b)) != CUZK_OK ||
        (s = cuzk_gpu_host_alloc((void **)&c, domain * sizeof *c)) != CUZK_OK ||
        (s = cuzk_gpu_host_alloc((void **)&sc, cap * sizeof *sc)) != CUZK_OK ||
        (s = cuzk_gpu_host_alloc((void **)&tail, cap * sizeof *tail)) != CUZK_OK ||
        (s = cuzk_gpu_host_alloc((void **)&ones, (cap + 63) / 64 * 8)) != CUZK_OK)
        goto done;
    if ((s = cuzk_domain_create(&d, domain, CUZK_ROOTS_BELLPERSON)) != CUZK_OK)
        goto done;
    cuzk_fr_t *src[3] = {pd->a, pd->b, pd->c}, *dst[3] = {a, b, c};
    for (int i = 0; i < 3; i++) {
        memcpy(dst[i], src[i], pd->n_rows * sizeof *a);
        memset(dst[i] + pd->n_rows, 0, (domain - pd->n_rows) * sizeof *a);
        cuzk_free(src[i]);
    }
    pd->a = pd->b = pd->c = NULL;

    memset(t, 0, sizeof *t);
    double t_start = now_ms(), w0 = now_ms();
    cuzk_gpu_timing g;
    if ((s = cuzk_gpu_h(dev, d, a, b, c, &g)) != CUZK_OK)
        goto done;
    add_t(t, PH_H, &g, NULL);
    t->wall_ms[PH_H] = now_ms() - w0;

    cuzk_g1_jac_t h_sum, l_sum, a_sum, b1_sum, part;
    cuzk_g2_jac_t b2_sum, part2;
    w0 = now_ms();
    if ((s = cuzk_gpu_msm_g1_resident(&h_sum, rb->h, 0, a, domain - 1, &g)) != CUZK_OK)
        goto done;
    add_t(t, PH_MSM_H, &g, NULL);
    t->wall_ms[PH_MSM_H] = now_ms() - w0;

    split_ctx sp = {.ones = ones, .tail = tail};
    cuzk_fr_set_one(&sp.one);
    if ((s = res_g1(&l_sum, rb->l, pd->aux, pd->n_aux, &sp, tp, t, PH_L)) != CUZK_OK)
        goto done;
    size_t k;
    w0 = now_ms();
    (void)res_gather(sc, &k, pd, false);
    t->prep_ms += now_ms() - w0;
    t->wall_ms[PH_A] += now_ms() - w0;
    if ((s = res_g1(&a_sum, rb->a, sc, k, &sp, tp, t, PH_A)) != CUZK_OK)
        goto done;
    w0 = now_ms();
    (void)res_gather(sc, &k, pd, true);
    t->prep_ms += now_ms() - w0;
    t->wall_ms[PH_B1] += now_ms() - w0;
    if ((s = res_g1(&b1_sum, rb->b1, sc, k, &sp, tp, t, PH_B1)) != CUZK_OK)
        goto done;
    w0 = now_ms();
    if ((s = cuzk_gpu_batch_add_g2_resident(&b2_sum, rb->b2, 0, ones, k, &g)) != CUZK_OK)
        goto done;
    add_t(t, PH_B2, &g, NULL);
    if ((s = cuzk_gpu_msm_g2_resident(&part2, rb->b2, 0, tail, k, &g)) != CUZK_OK)
        goto done;
    add_t(t, PH_B2, &g, NULL);
    cuzk_g2_add(&b2_sum, &b2_sum, &part2);
    t->wall_ms[PH_B2] = now_ms() - w0;
    (void)part;

    cuzk_fr_t r, sr;
    fixed_rs(args, &r, &sr);
    assemble(out, p->vk, &r, &sr, &h_sum, &l_sum, &a_sum, &b1_sum, &b2_sum);
    t->wall_total = now_ms() - t_start;
    for (int i = 0; i < PH_COUNT; i++)
        t->gpu_total += t->gpu_ms[i];
done:
    cuzk_domain_destroy(d);
    cuzk_gpu_host_free(a);
    cuzk_gpu_host_free(b);
    cuzk_gpu_host_free(c);
    cuzk_gpu_host_free(sc);
    cuzk_gpu_host_free(tail);
    cuzk_gpu_host_free(ones);
    return s;
}

/* ---- command ---------------------------------------------------------------------------------- */

static int usage_err(const char *msg)
{
    fprintf(stderr,
            "cuzk-bench porep-shape: %s\n"
            "usage: cuzk-bench porep-shape [--log-domain 27] [--constraints 130278869]\n"
            "       [--aux 130169893] [--inputs 328] [--a-density 99.7] [--b-density 25.4]\n"
            "       [--binary-frac 0.95] [--backend cuda|cpu] [--scale S] [--mode prove|resident|both]\n"
            "       [--compare] [--repeat K] [--threads T] [--seed X] [--json] [--keep-resident]\n",
            msg);
    return 2;
}

/* "1", "1/16", "0.0625", "2^-4" -> log2 (<= 0); false unless a power of two in (0, 1]. */
static bool parse_scale(const char *v, int *log_scale)
{
    double x;
    char *end;
    if (strncmp(v, "2^", 2) == 0) {
        long e = strtol(v + 2, &end, 10);
        if (*end || e > 0 || e < -40)
            return false;
        *log_scale = (int)e;
        return true;
    }
    if (strchr(v, '/')) {
        double num = strtod(v, &end);
        if (*end != '/')
            return false;
        double den = strtod(end + 1, &end);
        if (*end || den <= 0)
            return false;
        x = num / den;
    } else {
        x = strtod(v, &end);
        if (*end)
            return false;
    }
    if (!(x > 0 && x <= 1))
        return false;
    int e = (int)lround(log2(x));
    if (ldexp(1.0, e) != x)
        return false;
    *log_scale = e;
    return true;
}

static bool parse_u64(const char *v, uint64_t *out)
{
    char *end;
    unsigned long long x = strtoull(v, &end, 0);
    if (!*v || *end)
        return false;
    *out = x;
    return true;
}

static bool parse_pct(const char *v, double lo, double hi, double *out)
{
    char *end;
    double x = strtod(v, &end);
    if (!*v || *end || !(x >= lo && x <= hi))
        return false;
    *out = x;
    return true;
}

static int parse_args(int argc, char **argv, ps_args *a)
{
    *a = (ps_args){.log_domain = 27, .inputs = 328, .repeat = 1, .rows = 130278869,
                   .aux = 130169893, .a_density = 99.7, .b_density = 25.4, .binary_frac = 0.95,
                   .backend = "cuda", .mode = "prove", .seed = 0x5eed};
    for (int i = 0; i < argc; i++) {
        const char *k = argv[i];
        if (strcmp(k, "--keep-resident") == 0) {
            a->keep_resident = true;
            continue;
        }
        if (strcmp(k, "--compare") == 0) {
            a->compare = true;
            continue;
        }
        if (strcmp(k, "--json") == 0) {
            a->json = true;
            continue;
        }
        if (i + 1 >= argc)
            return usage_err("an option is missing its value");
        const char *v = argv[++i];
        uint64_t u;
        if (strcmp(k, "--log-domain") == 0 && parse_u64(v, &u) && u >= 2 && u <= 27)
            a->log_domain = (unsigned)u;
        else if (strcmp(k, "--constraints") == 0 && parse_u64(v, &u) && u > 0)
            a->rows = u;
        else if (strcmp(k, "--aux") == 0 && parse_u64(v, &u))
            a->aux = u;
        else if (strcmp(k, "--inputs") == 0 && parse_u64(v, &u) && u >= 1 && u <= 1u << 20)
            a->inputs = (unsigned)u;
        else if (strcmp(k, "--a-density") == 0 && parse_pct(v, 0, 100, &a->a_density))
            ;
        else if (strcmp(k, "--b-density") == 0 && parse_pct(v, 0, 100, &a->b_density))
            ;
        else if (strcmp(k, "--binary-frac") == 0 && parse_pct(v, 0, 1, &a->binary_frac))
            ;
        else if (strcmp(k, "--backend") == 0 && (!strcmp(v, "cuda") || !strcmp(v, "cpu")))
            a->backend = v;
        else if (strcmp(k, "--mode") == 0 &&
                 (!strcmp(v, "prove") || !strcmp(v, "resident") || !strcmp(v, "both")))
            a->mode = v;
        else if (strcmp(k, "--scale") == 0 && parse_scale(v, &a->log_scale))
            ;
        else if (strcmp(k, "--repeat") == 0 && parse_u64(v, &u) && u >= 1 && u <= 100)
            a->repeat = (unsigned)u;
        else if (strcmp(k, "--threads") == 0 && parse_u64(v, &u) && u <= 4096)
            a->threads = (unsigned)u;
        else if (strcmp(k, "--seed") == 0 && parse_u64(v, &u))
            a->seed = u;
        else {
            fprintf(stderr, "cuzk-bench porep-shape: bad option or value: %s %s\n", k, v);
            return usage_err("see the usage");
        }
    }
    return 0;
}

static void print_prove(const ps_args *a, const char *backend, unsigned rep,
                        const cuzk_prove_timings *t, unsigned log_n)
{
    double gpu = t->ntt_h + t->msm_h + t->batch_add + t->tail_msm + t->msm_b_g2;
    if (a->json)
        printf("{\"bench\":\"porep_shape\",\"mode\":\"prove\",\"backend\":\"%s\",\"log_domain\":%u,"
               "\"rep\":%u,\"ntt_h_ms\":%.3f,\"msm_h_ms\":%.3f,\"batch_add_ms\":%.3f,"
               "\"tail_msm_ms\":%.3f,\"msm_b_g2_ms\":%.3f,\"assemble_ms\":%.3f,"
               "\"backend_ms\":%.3f,\"total_ms\":%.3f}\n",
               backend, log_n, rep, t->ntt_h, t->msm_h, t->batch_add, t->tail_msm, t->msm_b_g2,
               t->assemble, gpu, t->total);
    else
        printf("prove %-4s 2^%u rep %u: ntt_h %.1f  msm_h %.1f  batch_add %.1f  tail_msm %.1f  "
               "msm_b_g2 %.1f  assemble %.1f  | backend phases %.1f  total %.1f ms (wall)\n",
               backend, log_n, rep, t->ntt_h, t->msm_h, t->batch_add, t->tail_msm, t->msm_b_g2,
               t->assemble, gpu, t->total);
    fflush(stdout);
}

static void print_resident(const ps_args *a, unsigned rep, const res_times *t, unsigned log_n)
{
    if (a->json) {
        printf("{\"bench\":\"porep_shape\",\"mode\":\"resident\",\"backend\":\"cuda\","
               "\"log_domain\":%u,\"rep\":%u,\"upload_ms\":%.3f",
               log_n, rep, t->upload_ms);
        for (int i = 0; i < PH_COUNT; i++)
            printf(",\"%s_gpu_ms\":%.3f,\"%s_kernels_ms\":%.3f,\"%s_wall_ms\":%.3f", ph_names[i],
                   t->gpu_ms[i], ph_names[i], t->kern_ms[i], ph_names[i], t->wall_ms[i]);
        printf(",\"batch_add_g1_ms\":%.3f,\"tail_msm_g1_ms\":%.3f,\"prep_ms\":%.3f,"
               "\"gpu_total_ms\":%.3f,\"wall_total_ms\":%.3f}\n",
               t->batch_ms, t->tail_ms, t->prep_ms, t->gpu_total, t->wall_total);
    } else {
        printf("resident cuda 2^%u rep %u (bases uploaded once in %.1f ms): device events "
               "(kernels) per phase:",
               log_n, rep, t->upload_ms);
        for (int i = 0; i < PH_COUNT; i++)
            printf(" %s %.1f (%.1f)", ph_names[i], t->gpu_ms[i], t->kern_ms[i]);
        printf("\n    G1 batch_add %.1f  G1 tail_msm %.1f  host prep %.1f | GPU total %.1f  "
               "wall %.1f ms\n",
               t->batch_ms, t->tail_ms, t->prep_ms, t->gpu_total, t->wall_total);
    }
    fflush(stdout);
}

int cmd_porep_shape(int argc, char **argv)
{
    ps_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc;
    unsigned log_n = (unsigned)((int)a.log_domain + a.log_scale);
    if ((int)a.log_domain + a.log_scale < 2)
        return usage_err("the scaled domain is below 2^2");
    size_t domain = (size_t)1 << log_n;
    size_t rows = (size_t)ceil(ldexp((double)a.rows, a.log_scale));
    size_t aux = (size_t)ceil(ldexp((double)a.aux, a.log_scale));
    if (rows < a.inputs)
        rows = a.inputs;
    if (rows > domain)
        return usage_err("more constraints (scaled) than the domain holds");
    bool want_prove = strcmp(a.mode, "resident") != 0 || a.compare;
    bool cuda = strcmp(a.backend, "cuda") == 0;
    bool want_res = cuda && (strcmp(a.mode, "prove") != 0 || a.compare);
    if (!cuda && strcmp(a.mode, "resident") == 0)
        return usage_err("--mode resident needs --backend cuda");

    cuzk_backend *be = NULL, *cpu = NULL;
    cuzk_status s = cuzk_backend_create(&be, cuda ? CUZK_BACKEND_CUDA : CUZK_BACKEND_CPU,
                                        a.threads);
    if (s != CUZK_OK) {
        fprintf(stderr, "cuzk-bench porep-shape: %s\n", cuzk_last_error());
        return 2;
    }
    if (a.compare && cuda && (s = cuzk_backend_create(&cpu, CUZK_BACKEND_CPU, a.threads))) {
        fprintf(stderr, "cuzk-bench porep-shape: %s\n", cuzk_last_error());
        cuzk_backend_destroy(be);
        return 2;
    }
    cuzk_pool *tp = cuzk_backend_pool(be);
    double g1 = sizeof(cuzk_g1_affine_t), g2 = sizeof(cuzk_g2_affine_t);
    double na = a.inputs + aux * a.a_density / 100, nb = a.inputs + aux * a.b_density / 100;
    double q_bytes = g1 * ((double)domain + (double)aux + na + nb) + g2 * nb;
    double w_bytes = 32.0 * (3.0 * (double)rows + (double)domain + 3.0 * (double)aux);
    printf("porep-shape: domain 2^%u (scale 2^%d), %zu rows, %d inputs, %zu aux, A density %.2f %%, "
           "B density %.2f %%, binary share %.3f, backend %s, %u threads, seed %llu\n"
           "  host memory: queries %.1f GiB + witness and prover buffers ~%.1f GiB\n",
           log_n, a.log_scale, rows, (int)a.inputs, aux, a.a_density, a.b_density, a.binary_frac,
           cuzk_backend_name(be), cuzk_backend_threads(be), (unsigned long long)a.seed,
           q_bytes / 1073741824.0, w_bytes / 1073741824.0);
    fflush(stdout);

    cuzk_prover_data pd;
    cuzk_groth16_params p;
    memset(&p, 0, sizeof p);
    double t0 = now_ms();
    if ((s = witness_make(&pd, &a, rows, aux, tp)) != CUZK_OK)
        goto fail;
    double t_w = now_ms() - t0;
    t0 = now_ms();
    if ((s = params_make(&p, &a, domain, &pd, tp)) != CUZK_OK)
        goto fail;
    printf("  generated: witness %.0f ms, parameters %.0f ms (H %zu, L %zu, A %zu, B %zu points); "
           "aux in A %zu, in B %zu\n",
           t_w, now_ms() - t0, p.n_h, p.n_l, p.n_a, p.n_b_g1, pd.a_aux_popcount,
           pd.b_aux_popcount);
    fflush(stdout);

    cuzk_fr_t r, sr;
    fixed_rs(&a, &r, &sr);
    cuzk_prove_opts opts = {.verify = false, .r = &r, .s = &sr};
    cuzk_groth16_proof ref, got;
    bool have_ref = false, mismatch = false;
    if (a.compare && cpu) {
        cuzk_prove_timings t = {0};
        if ((s = cuzk_groth16_prove(&ref, &p, &pd, cpu, &opts, &t)) != CUZK_OK)
            goto fail;
        print_prove(&a, "cpu", 0, &t, log_n);
        have_ref = true;
        cuzk_prover_data_free(&pd);
        if ((s = witness_make(&pd, &a, rows, aux, tp)) != CUZK_OK)
            goto fail;
    }
    if (want_prove && a.keep_resident && cuzk_backend_device(be) >= 0) {
        /* What the engine does for a HOT set on a GPU worker: upload once, then prove. */
        double u0 = now_ms();
        if ((s = cuzk_groth16_params_keep_resident(be, &p)) != CUZK_OK)
            goto fail;
        printf("prove: parameter set kept resident on the device in %.0f ms (%.1f GiB)\n",
               now_ms() - u0, (double)cuzk_backend_resident_bytes(be) / 1073741824.0);
    }
    for (unsigned rep = 0; want_prove && rep < a.repeat; rep++) {
        cuzk_prove_timings t = {0};
        if ((s = cuzk_groth16_prove(&got, &p, &pd, be, &opts, &t)) != CUZK_OK)
            goto fail;
        print_prove(&a, cuzk_backend_name(be), rep, &t, log_n);
        if (!have_ref) {
            ref = got;
            have_ref = true;
        } else if (!proof_eq(&ref, &got)) {
            mismatch = true;
        }
        cuzk_prover_data_free(&pd);
        if ((s = witness_make(&pd, &a, rows, aux, tp)) != CUZK_OK)
            goto fail;
    }
    cuzk_groth16_params_drop_resident(be, &p);
    if (want_res) {
        int dev = cuzk_backend_device(be);
        cuzk_gpu_release(dev);
        res_bases rb;
        double u0 = now_ms();
        if ((s = res_bases_upload(&rb, dev, &p)) != CUZK_OK)
            goto fail;
        double up = now_ms() - u0;
        for (unsigned rep = 0; rep < a.repeat; rep++) {
            res_times t;
            s = resident_prove(&got, &p, &rb, &pd, domain, dev, &a, tp, &t);
            if (s != CUZK_OK) {
                res_bases_free(&rb);
                goto fail;
            }
            t.upload_ms = up;
            print_resident(&a, rep, &t, log_n);
            if (!have_ref) {
                ref = got;
                have_ref = true;
            } else if (!proof_eq(&ref, &got)) {
                mismatch = true;
            }
            cuzk_prover_data_free(&pd);
            if ((s = witness_make(&pd, &a, rows, aux, tp)) != CUZK_OK) {
                res_bases_free(&rb);
                goto fail;
            }
        }
        res_bases_free(&rb);
    }
    if (a.compare || a.repeat > 1 || (want_prove && want_res))
        printf("proofs (same inputs, same r and s): %s\n",
               mismatch ? "DIFFER" : "all equal");
    cuzk_prover_data_free(&pd);
    params_free(&p);
    cuzk_backend_destroy(cpu);
    cuzk_backend_destroy(be);
    return mismatch ? 1 : 0;
fail:
    fprintf(stderr, "cuzk-bench porep-shape: %s\n", cuzk_last_error());
    cuzk_prover_data_free(&pd);
    params_free(&p);
    cuzk_backend_destroy(cpu);
    cuzk_backend_destroy(be);
    return 2;
}
