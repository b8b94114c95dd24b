/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk-bench porep-shape: parameters and witness of the PoRep partition shape on random data
 * (how they are made: the comment at the top of cmd_porep_shape.c). */
#include "porep_shape.h"
#include "cuzk/alloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
                        bool pinned, cuzk_pool *tp)
{
    void *dst = NULL;
    if (pinned) {
        if (cuzk_gpu_host_alloc(&dst, (n ? n : 1) * elt) != CUZK_OK)
            return NULL;
    } else {
        dst = cuzk_alloc_array(n ? n : 1, elt);
    }
    if (!dst)
        return NULL;
    fill_ctx c = {pool, ((size_t)1 << pool_log) - 1, elt, dst, n, mix64(salt)};
    cuzk_pool_run(tp, (n + PS_CHUNK - 1) / PS_CHUNK, fill_task, &c);
    return dst;
}

/* ---- witness --------------------------------------------------------------------------------- */

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
        /* c = a * b, as in every row of a satisfied system (the device H step relies on it). */
        cuzk_fr_mul(&c->pd->c[i], &c->pd->a[i], &c->pd->b[i]);
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
cuzk_status ps_witness_make(cuzk_prover_data *pd, const ps_args *a, size_t rows, size_t aux,
                            size_t cap, const cuzk_vec_alloc *va, cuzk_pool *tp)
{
    memset(pd, 0, sizeof *pd);
    pd->n_inputs = a->inputs;
    pd->n_aux = aux;
    pd->n_rows = rows;
    pd->n_constraints = rows - a->inputs;
    size_t words = (aux + 63) / 64;
    pd->input = cuzk_alloc_array(a->inputs, sizeof *pd->input);
    pd->aux = cuzk_alloc_array(aux ? aux : 1, sizeof *pd->aux);
    if (va)
        pd->abc_alloc = *va;
    pd->abc_cap = cap > rows ? cap : rows;
    pd->a = cuzk_vec_alloc_bytes(va, pd->abc_cap * sizeof *pd->a);
    pd->b = cuzk_vec_alloc_bytes(va, pd->abc_cap * sizeof *pd->b);
    pd->c = cuzk_vec_alloc_bytes(va, pd->abc_cap * sizeof *pd->c);
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

/* ---- parameters ------------------------------------------------------------------------------ */

void ps_params_free(cuzk_groth16_params *p, bool pinned)
{
    if (!p)
        return;
    cuzk_free(p->vk);
    void *q[] = {p->h, p->l, p->a, p->b_g1, p->b_g2};
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
        if (pinned)
            cuzk_gpu_host_free(q[i]);
        else
            cuzk_free(q[i]);
    }
    memset(p, 0, sizeof *p);
}

cuzk_status ps_params_make(cuzk_groth16_params *p, const ps_args *a, size_t domain,
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
    p->h = query_fill(pool1, PS_POOL1_LOG, e1, p->n_h, 1, a->pinned_params, tp);
    p->l = query_fill(pool1, PS_POOL1_LOG, e1, p->n_l, 2, a->pinned_params, tp);
    p->a = query_fill(pool1, PS_POOL1_LOG, e1, p->n_a, 3, a->pinned_params, tp);
    p->b_g1 = query_fill(pool1, PS_POOL1_LOG, e1, p->n_b_g1, 4, a->pinned_params, tp);
    p->b_g2 = query_fill(pool2, PS_POOL2_LOG, e2, p->n_b_g2, 5, a->pinned_params, tp);
    if (!p->h || !p->l || !p->a || !p->b_g1 || !p->b_g2)
        s = cuzk_fail(CUZK_ERR_NOMEM, "porep-shape: out of memory for the queries");
done:
    cuzk_free(pool1);
    cuzk_free(pool2);
    if (s != CUZK_OK)
        ps_params_free(p, a->pinned_params);
    return s;
}

/* r, s of every proof of this run (same inputs, same proof on every backend). */
void ps_fixed_rs(const ps_args *a, cuzk_fr_t *r, cuzk_fr_t *s)
{
    ps_rng g;
    rng_seed(&g, a->seed, 13, 0);
    rng_fr(&g, r);
    rng_fr(&g, s);
}

/* Proofs compared by their 192-byte encoding (the structs have padding). */
bool ps_proof_eq(const cuzk_groth16_proof *x, const cuzk_groth16_proof *y)
{
    uint8_t bx[CUZK_GROTH16_PROOF_BYTES], by[CUZK_GROTH16_PROOF_BYTES];
    cuzk_groth16_proof_serialize(bx, x);
    cuzk_groth16_proof_serialize(by, y);
    return memcmp(bx, by, sizeof bx) == 0;
}
