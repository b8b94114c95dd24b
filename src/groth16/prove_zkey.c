/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The snarkjs Groth16 prover (formats.md 4.6; snarkjs src/groth16_prove.js), reproduced step by
 * step so that the same key, witness and (r, s) give the same proof bytes:
 *   a, b from zkey section 4 and the witness; c = a*b pointwise (the C matrix is not stored);
 *   h = values of A*B - C on the odd coset omega_2N * <omega_N> (5-based roots, no division by
 *   Z: the zkey's H points are Lagrange points of the size-2N domain);
 *   MSMs with the witness as standard-form scalars; then
 *   pi_A = alpha1 + sum w_i A_i + r delta1, pi_B = beta2 + sum w_i B2_i + s delta2,
 *   B1 = beta1 + sum w_i B1_i + s delta1, pi_C = sum_{i>nPublic} w_i C_i + sum h_i H_i
 *        + s pi_A + r B1 - r s delta1.
 * Every proof is verified before it is returned (DESIGN.md section 1).
 */
#include "groth16/prove_zkey_internal.h"
#include "groth16/snarkjs_internal.h"
#include "groth16/verify_split.h"
#include "cuzk/alloc.h"
#include "cuzk/backend.h"
#include "cuzk/msm.h"
#include "cuzk/poly.h"
#include "msm/msm_chain.h"
#include "msm/msm_job.h"
#include "msm/msm_packed.h"
#include "groth16/scratch_pool.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

static bool env_flag(const char *name)
{
    const char *e = getenv(name);
    return e && *e && strcmp(e, "0") != 0;
}

/* A uniformly random element of Fr by rejection sampling of 255-bit integers. */
static cuzk_status random_fr(cuzk_fr_t *out)
{
    uint64_t l[4];
    for (int tries = 0; tries < 128; tries++) {
        if (getrandom(l, sizeof l, 0) != (ssize_t)sizeof l)
            return cuzk_fail(CUZK_ERR_INTERNAL, "getrandom failed");
        l[3] &= 0x7fffffffffffffffULL;
        if (cuzk_fr_from_canonical(out, l)) {
            cuzk_memclear(l, sizeof l);
            return CUZK_OK;
        }
    }
    return cuzk_fail(CUZK_ERR_INTERNAL, "no random scalar below r in 128 draws");
}

static cuzk_status prove_random(cuzk_groth16_proof *proof, cuzk_fr_t *public_inputs,
                                const cuzk_snarkjs_zkey *zk, const cuzk_snarkjs_wtns *w,
                                cuzk_backend *be, cuzk_pool *pool, cuzk_prove_timings *timings)
{
    cuzk_fr_t rs[2];
    cuzk_status s = random_fr(&rs[0]);
    if (s == CUZK_OK)
        s = random_fr(&rs[1]);
    if (s == CUZK_OK)
        s = cuzk__snarkjs_prove_rs(proof, public_inputs, NULL, zk, w, &rs[0], &rs[1], be, pool,
                                   timings);
    else
        memset(proof, 0, sizeof *proof);
    cuzk_memclear(rs, sizeof rs);
    return s;
}

cuzk_status cuzk_snarkjs_prove(cuzk_groth16_proof *proof, cuzk_fr_t *public_inputs,
                               const cuzk_snarkjs_zkey *zk, const cuzk_snarkjs_wtns *w,
                               cuzk_pool *pool, cuzk_prove_timings *timings)
{
    return prove_random(proof, public_inputs, zk, w, NULL, pool, timings);
}

cuzk_status cuzk_snarkjs_prove_on(cuzk_groth16_proof *proof, cuzk_fr_t *public_inputs,
                                  const cuzk_snarkjs_zkey *zk, const cuzk_snarkjs_wtns *w,
                                  cuzk_backend *be, cuzk_prove_timings *timings)
{
    return prove_random(proof, public_inputs, zk, w, be, NULL, timings);
}

/* Secret-bearing buffers of one proof. */

static void bufs_free(prove_bufs *p)
{
    if (p->a)
        cuzk_memclear(p->a, p->n * sizeof *p->a);
    if (p->b)
        cuzk_memclear(p->b, p->n * sizeof *p->b);
    if (p->c)
        cuzk_memclear(p->c, p->n * sizeof *p->c);
    if (p->wm)
        cuzk_memclear(p->wm, p->nv * sizeof *p->wm);
    cuzk_free(p->a);
    cuzk_free(p->b);
    cuzk_free(p->c);
    cuzk_free(p->wm);
}

/*
 * a[c] and b[c] from section 4, then c = a * b (formats.md 4.6 steps 1 and 2), on |pool| (NULL:
 * serially). Task t owns the witness values, constraints and products of its share of each
 * range; every task scans the whole coefficient list and takes the coefficients of its own
 * constraints, so each a[c] and b[c] is summed by one task in file order, whatever the order of
 * section 4. The scan costs a comparison per coefficient; the products are split.
 */
typedef struct {
    prove_bufs *p;
    const cuzk_snarkjs_zkey *zk;
    const cuzk_snarkjs_wtns *w;
    size_t tasks;
} synth_job;

/* Start of share |t| of |tasks| over [0, n). */
static size_t synth_share(size_t n, size_t tasks, size_t t)
{
    return (size_t)((unsigned __int128)n * t / tasks);
}

static void synth_witness(void *ctx, size_t t)
{
    const synth_job *j = ctx;
    size_t i1 = synth_share(j->p->nv, j->tasks, t + 1);
    for (size_t i = synth_share(j->p->nv, j->tasks, t); i < i1; i++)
        (void)cuzk_fr_from_canonical(&j->p->wm[i], &j->w->values[4 * i]); /* < r: checked at load */
}

static void synth_rows(void *ctx, size_t t)
{
    const synth_job *j = ctx;
    prove_bufs *p = j->p;
    const size_t c0 = synth_share(p->n, j->tasks, t), c1 = synth_share(p->n, j->tasks, t + 1);
    for (size_t i = 0; i < j->zk->n_coefs; i++) {
        const cuzk_snarkjs_coef *e = &j->zk->coefs[i];
        if (e->constraint < c0 || e->constraint >= c1)
            continue;
        cuzk_fr_t *dst = e->matrix ? &p->b[e->constraint] : &p->a[e->constraint];
        cuzk_fr_t x;
        cuzk_fr_mul(&x, &e->value, &p->wm[e->signal]);
        cuzk_fr_add(dst, dst, &x);
    }
    for (size_t i = c0; i < c1; i++)
        cuzk_fr_mul(&p->c[i], &p->a[i], &p->b[i]);
}

static void synthesize(prove_bufs *p, const cuzk_snarkjs_zkey *zk, const cuzk_snarkjs_wtns *w,
                       cuzk_pool *pool)
{
    /* At least 64 coefficients per task: below that a task's scan costs about what it splits
     * (and the fixtures of the bit-exact tests, from 488 coefficients, still take 3 or 5). */
    size_t tasks = pool ? cuzk_pool_threads(pool) : 1, most = zk->n_coefs / 64 + 1;
    synth_job j = {p, zk, w, tasks < most ? tasks : most};
    cuzk_pool_run(j.tasks > 1 ? pool : NULL, j.tasks, synth_witness, &j);
    cuzk_pool_run(j.tasks > 1 ? pool : NULL, j.tasks, synth_rows, &j);
}

/* The evaluation domain of |n| points with snarkjs's roots. */
static cuzk_status make_domain(cuzk_domain **dom, size_t n)
{
    cuzk_status s = cuzk_domain_create(dom, n, CUZK_ROOTS_SNARKJS);
    if (s == CUZK_OK && cuzk_domain_size(*dom) != n)
        return cuzk_fail(CUZK_ERR_INTERNAL, "domain of %zu for a zkey domain of %zu",
                         cuzk_domain_size(*dom), n);
    return s;
}

/*
 * One G1 MSM of a pair that runs concurrently, one per pool thread: at 2^12 points an MSM on
 * one thread batches its additions over all its windows at once, which two threads splitting
 * one MSM cannot, and the pair's two MSMs cost the same (docs/PERFORMANCE.md, "cuzk vs snarkjs
 * prove"). Exactly one of |mont| / |raw| is set.
 */
typedef struct {
    cuzk_g1_jac_t *out;
    const cuzk_g1_affine_t *bases;
    const uint8_t *packed; /* instead of |bases| for a packed key (src/msm/msm_packed.h) */
    cuzk__packed_bases src; /* where the MSM reads |packed| (cuzk__snarkjs_packed_src) */
    const cuzk_fr_t *mont;
    const uint64_t *raw;
    size_t n;
    cuzk_status st;
    char err[256]; /* the worker thread's message (cuzk_last_error is per thread) */
} g1_job;

/* The MSM of |j| over |pool| (NULL: this thread). */
static cuzk_status g1_job_msm(const g1_job *j, cuzk_pool *pool)
{
    if (j->n == 0) {
        cuzk_g1_jac_set_infinity(j->out);
        return CUZK_OK;
    }
    if (j->packed)
        return cuzk__g1_msm_packed(j->out, &j->src, j->mont, j->raw, j->n, pool, NULL);
    return j->mont ? cuzk_g1_msm(j->out, j->bases, j->mont, j->n, pool)
                   : cuzk_g1_msm_raw(j->out, j->bases, j->raw, j->n, pool);
}

static void g1_job_run(void *ctx, size_t i)
{
    g1_job *j = (g1_job *)ctx + i;
    j->st = g1_job_msm(j, NULL);
    if (j->st != CUZK_OK)
        snprintf(j->err, sizeof j->err, "%s", cuzk_last_error());
}

static cuzk_status g1_pair(g1_job jobs[2], cuzk_pool *pool)
{
    cuzk_pool_run(pool, 2, g1_job_run, jobs);
    for (int i = 0; i < 2; i++)
        if (jobs[i].st != CUZK_OK)
            return cuzk_fail(jobs[i].st, "%s", jobs[i].err);
    return CUZK_OK;
}

/*
 * On two threads the proof runs as two lanes, each on one thread: lane 0 synthesises a, b, c
 * and runs the NTTs of H, lane 1 the G2 MSM (it takes the witness as it is, so it need not wait
 * for the synthesis); then both work on the four G1 MSMs (H, B1, C, A) as MSM jobs
 * (src/msm/msm_job.h): one-thread plans whose window-group tasks each lane takes as it comes
 * free, and a lane without tasks helps the other's running one, so the lanes end within a piece
 * of a task of each other whatever the costs of the G2 MSM and the H step against the G1 MSMs
 * on this machine. (Before, lane 0 ran H, B1 and C and lane 1 G2 then
 * A: at 2^16 lane 1 then waited ~75 ms for lane 0.) One-thread plans batch their additions over
 * all their windows, which a G2 MSM split over two threads by windows cannot (docs/PERFORMANCE.md,
 * "cuzk vs snarkjs prove"). Lane 0 also does the blinding products of the assembly that need no
 * MSM (r delta1, s delta2) and the inputs' Miller loop of the self-verification before its G1
 * work; the rest of the assembly runs after the lanes. The phase times then overlap: msm_h is
 * both lanes' time in H, tail_msm their time in A, B1 and C, msm_b_g2 G2, and ntt_h includes the
 * domain's creation.
 */
enum { LANE_H, LANE_A, LANE_B1, LANE_C };
#define LANE_LAST LANE_A /* the last of lane_g1's order */
static const char *const lane_msm_name[4] = {"H", "A", "B1", "C"};

/* Point chunks per task of the last job: env CUZK_LANE_SPLIT (0 .. 64; default 0 = 1: whole
 * window groups). The two lanes usually reach the last job together (the first one in prepares
 * it while the other finishes its task in the job before), so its 5 tasks at 2^16 left one lane
 * idle for most of a task at the end; 2 halved the tasks and the median gap between the lanes'
 * ends (17 -> 10 ms on two quiet cores), but its extra running sums cost as much: the proof's
 * total did not improve (docs/PERFORMANCE.md, "Lane balance"). Since a lane without tasks helps
 * a running one (msm_job.h) the lanes end within a piece; this stays a knob for A/B runs
 * (scripts/lane-balance.sh). */
static unsigned lane_split(void)
{
    const char *e = getenv("CUZK_LANE_SPLIT");
    char *end;
    unsigned long v = e && *e ? strtoul(e, &end, 10) : 0;
    return e && *e && (*end || v > 64) ? 0 : (unsigned)v;
}

typedef struct {
    const cuzk_snarkjs_zkey *zk;
    const cuzk_snarkjs_wtns *w;
    prove_bufs *p;
    const cuzk_fr_t *r, *s;
    cuzk_domain *dom;
    g1_job g1[4]; /* H, A, B1, C: the inputs and outputs of the jobs */
    cuzk__g1_msm_job *job[4];
    cuzk__g1_msm_chain *chain; /* H, B1, C as one sum (lane_link), or NULL */
    unsigned active[4]; /* lanes inside job i's work */
    bool done[4];       /* job i finished: its sum is in g1[i].out */
    void *mem[4];       /* job i's buffer from |scratch| */
    size_t need[4];     /* job i's working memory (lane_need; 0: not computed yet) */
    cuzk__scratch_pool scratch;
    unsigned split;     /* the last job's split (lane_split) */
    bool trace;         /* env CUZK_LANE_TRACE: lane_event lines */
    double t0;          /* start of the lanes, for lane_event */
    pthread_mutex_t mu; /* guards job[] to mem[], scratch, g1[].st / err and h_ready */
    bool h_ready;       /* a (the H values) is final: job H may be prepared */
    cuzk_g2_jac_t *b2;
    cuzk_status st[2]; /* per lane, before the MSMs' own statuses */
    char err[2][256];
    double ms[4];      /* synthesis, ntt, G2, and both lanes' time in H */
    double ms_tail[2]; /* each lane's time in A, B1 and C */
    /* Lane 0's share of the assembly (secret: cleared after use) and of the verification. */
    cuzk_g1_jac_t r_delta1, pc0;
    cuzk_g2_jac_t s_delta2;
    cuzk_fp12_t f_inputs;
} lanes_job;

/* With env CUZK_LANE_TRACE=1, one JSON line per lane event on stderr, written by a single
 * write(2) (lines of the two lanes never interleave), e.g.
 *   {"lane":1,"event":"in","msm":"C","t_ms":540.125}
 * events: "in" / "out" of a G1 MSM job's work, "end" of the lane; t_ms from the lanes' start.
 * Where the lanes wait for each other shows here (docs/PERFORMANCE.md). */
static void lane_event(const lanes_job *l, unsigned lane, const char *event, int msm)
{
    if (!l->trace)
        return;
    char buf[128];
    int n = snprintf(buf, sizeof buf, "{\"lane\":%u,\"event\":\"%s\"%s%s%s,\"t_ms\":%.3f}\n", lane,
                     event, msm >= 0 ? ",\"msm\":\"" : "", msm >= 0 ? lane_msm_name[msm] : "",
                     msm >= 0 ? "\"" : "", now_ms() - l->t0);
    if (n > 0 && (size_t)n < sizeof buf) {
        ssize_t w;
        do
            w = write(STDERR_FILENO, buf, (size_t)n);
        while (w < 0 && errno == EINTR);
    }
}

/* Records |st| with this thread's message as lane |lane|'s status. */
static void lane_fail(lanes_job *l, size_t lane, cuzk_status st)
{
    l->st[lane] = st;
    snprintf(l->err[lane], sizeof l->err[lane], "%s", cuzk_last_error());
    cuzk__g1_msm_job_chain_abort(l->chain); /* its links may never all run now */
}

/*
 * H, B1 and C enter the proof only as C + H + r B1 (assemble_pre), so they run as one chain of
 * MSM jobs (src/msm/msm_chain.h): links 0, 1, 2 in lane_g1's order, B1's scalars times r, one
 * bucket reduction for the three instead of three (7 % of each 2^16 MSM's time; the sum comes
 * out of C's job, H's and B1's give infinity). -1: a job of its own (A, the proof's pi_A).
 */
static const int lane_link[4] = {0, -1, 1, 2};

/* The working memory of G1 job |g| with |split|. */
static size_t g1_job_need(const g1_job *g, unsigned split)
{
    return g->packed ? cuzk__g1_msm_job_scratch_size_packed(g->n, 2, split)
                     : cuzk__g1_msm_job_scratch_size(g->n, 2, split);
}

/* Job |i|'s working memory, computed once (a plan search per bit length: ~0.5 ms at 2^16).
 * Caller holds the lanes' mutex. */
static size_t lane_need(lanes_job *l, size_t i)
{
    const g1_job *g = &l->g1[i];
    if (!l->need[i])
        l->need[i] = l->chain && lane_link[i] >= 0
                         ? cuzk__g1_msm_job_chain_scratch_size(l->chain, g->n, g->packed != NULL)
                         : g1_job_need(g, i == LANE_LAST ? l->split : 0);
    return l->need[i];
}

/* The most working memory of any G1 job: what each job asks of the pool, so that any buffer it
 * made fits any job (a linked job needs less than A: sized by its own need, a buffer left free
 * for A was too small and A's memory came fresh, 30-40 ms at 2^16). */
static size_t lane_need_most(lanes_job *l)
{
    size_t most = 0;
    for (size_t i = 0; i < 4; i++) {
        size_t g1 = lane_need(l, i);
        if (g1 != SIZE_MAX && g1 > most)
            most = g1;
    }
    return most;
}

/* G1 MSM job |i|, prepared by the first lane that comes to it, entered (active) for the
 * caller; NULL when it is finished, when its preparation failed (the status is in g1[i].st) or,
 * for H, before lane 0 has the H values (then lane 0 prepares it and does all of it). */
static cuzk__g1_msm_job *lane_job(lanes_job *l, size_t i)
{
    pthread_mutex_lock(&l->mu);
    g1_job *g = &l->g1[i];
    if (!l->job[i] && !l->done[i] && g->st == CUZK_OK && (i != LANE_H || l->h_ready)) {
        size_t got = 0;
        /* the last job in lane_g1's order: CUZK_LANE_SPLIT (lane_split) */
        unsigned split = i == LANE_LAST ? l->split : 0;
        size_t need = lane_need(l, i);
        void *m =
            need == SIZE_MAX ? NULL : cuzk__scratch_take(&l->scratch, lane_need_most(l), &got);
        if (l->chain && lane_link[i] >= 0)
            g->st = cuzk__g1_msm_job_new_linked(&l->job[i], l->chain, (unsigned)lane_link[i],
                                                g->packed ? NULL : g->bases,
                                                g->packed ? &g->src : NULL, g->mont, g->raw,
                                                i == LANE_B1 ? l->r : NULL, g->n, m, got);
        else if (g->packed)
            g->st = cuzk__g1_msm_job_new_packed(&l->job[i], &g->src, g->mont, g->raw, g->n, 2,
                                                split, m, got);
        else if (g->mont)
            g->st = cuzk__g1_msm_job_new(&l->job[i], g->bases, g->mont, g->n, 2, split, m, got);
        else
            g->st = cuzk__g1_msm_job_new_raw(&l->job[i], g->bases, g->raw, g->n, 2, split, m, got);
        if (g->st != CUZK_OK) {
            snprintf(g->err, sizeof g->err, "%s", cuzk_last_error());
            cuzk__scratch_give(&l->scratch, m);
            cuzk__g1_msm_job_chain_abort(l->chain);
        } else {
            l->mem[i] = m;
        }
    }
    cuzk__g1_msm_job *j = l->done[i] ? NULL : l->job[i];
    if (j)
        l->active[i]++;
    pthread_mutex_unlock(&l->mu);
    return j;
}

/* The caller's work in job |i| has returned, so no task is left to take: the last lane out
 * finishes the job (its window sums into g1[i].out) and passes its memory on. */
static void lane_leave(lanes_job *l, size_t i)
{
    pthread_mutex_lock(&l->mu);
    if (--l->active[i] == 0) {
        cuzk__g1_msm_job_finish(l->job[i], l->g1[i].out);
        l->job[i] = NULL;
        l->done[i] = true;
        cuzk__scratch_give(&l->scratch, l->mem[i]);
        l->mem[i] = NULL;
    }
    pthread_mutex_unlock(&l->mu);
}

/* Lane |lane|'s share of the G1 MSMs: whatever tasks are left, job by job. */
static void lane_g1(lanes_job *l, unsigned lane)
{
    static const size_t order[4] = {LANE_H, LANE_B1, LANE_C, LANE_LAST};
    for (size_t k = 0; k < 4; k++) {
        double t0 = now_ms();
        cuzk__g1_msm_job *j = lane_job(l, order[k]);
        if (j) {
            lane_event(l, lane, "in", (int)order[k]);
            cuzk__g1_msm_job_work(j, lane);
            lane_event(l, lane, "out", (int)order[k]);
            lane_leave(l, order[k]);
        }
        *(order[k] == LANE_H ? &l->ms[3] : &l->ms_tail[lane]) += now_ms() - t0;
    }
}

/* The assembly's terms without any MSM: r delta1 and s delta2 (blind_job explains the rest). */
static void assemble_blind(lanes_job *l)
{
    cuzk_g1_from_affine(&l->r_delta1, &l->zk->delta_g1);
    cuzk_g1_mul(&l->r_delta1, &l->r_delta1, l->r);
    cuzk_g2_from_affine(&l->s_delta2, &l->zk->delta_g2);
    cuzk_g2_mul(&l->s_delta2, &l->s_delta2, l->s);
}

/* C + H + r B1' (blind_job explains it), once the G1 MSMs are done; with the chain (lane_link)
 * |c| is C + H + r B1 and |b1|, |h| are infinity. */
static void assemble_pre(lanes_job *l, const cuzk_g1_jac_t *b1, const cuzk_g1_jac_t *c,
                         const cuzk_g1_jac_t *h)
{
    cuzk_g1_jac_t b1p, r_b1p;
    cuzk_g1_add_affine(&b1p, b1, &l->zk->beta_g1);
    cuzk_g1_mul(&r_b1p, &b1p, l->r);
    cuzk_g1_add(&l->pc0, c, h);
    cuzk_g1_add(&l->pc0, &l->pc0, &r_b1p);
    cuzk_memclear(&r_b1p, sizeof r_b1p);
}

static void lanes_run(void *ctx, size_t lane)
{
    lanes_job *l = ctx;
    double t0 = now_ms();
    if (lane == 0) {
        synthesize(l->p, l->zk, l->w, NULL); /* lane 1 holds the other thread */
        l->ms[0] = now_ms() - t0;
        t0 = now_ms();
        cuzk_status st = make_domain(&l->dom, l->p->n);
        if (st != CUZK_OK) {
            lane_fail(l, 0, st);
            return;
        }
        cuzk_poly_h(l->dom, l->p->a, l->p->b, l->p->c, NULL);
        l->ms[1] = now_ms() - t0;
        pthread_mutex_lock(&l->mu);
        l->h_ready = true;
        pthread_mutex_unlock(&l->mu);
        assemble_blind(l);
        if ((st = cuzk__groth16_verify_inputs(&l->f_inputs, l->zk->vk, l->p->wm + 1,
                                              l->zk->n_public)) != CUZK_OK)
            lane_fail(l, 0, st);
        lane_g1(l, 0);
        lane_event(l, 0, "end", -1);
        return;
    }
    size_t got = 0;
    const uint8_t *packed = l->zk->b2_packed;
    cuzk__packed_bases src = cuzk__snarkjs_packed_src(l->zk, packed);
    size_t need = packed ? cuzk__g2_msm_packed_scratch_size(l->p->nv, NULL, NULL)
                         : cuzk_g2_msm_scratch_size(l->p->nv, NULL, NULL);
    /* Room for any G1 job too: the job that takes this buffer after the G2 MSM (usually the
     * last, prepared while the other lane's buffer is busy) then finds part of its pages already
     * touched instead of all of them fresh. Pages the G2 MSM does not touch cost nothing. */
    pthread_mutex_lock(&l->mu);
    size_t g1 = lane_need_most(l);
    void *m = cuzk__scratch_take(&l->scratch, g1 > need ? g1 : need, &got);
    pthread_mutex_unlock(&l->mu);
    const cuzk_msm_opts o = {.scratch = m, .scratch_bytes = got};
    cuzk_status st = packed
                         ? cuzk__g2_msm_packed(l->b2, &src, NULL, l->w->values, l->p->nv, NULL, &o)
                         : cuzk_g2_msm_raw_ex(l->b2, l->zk->b2, l->w->values, l->p->nv, NULL, &o);
    pthread_mutex_lock(&l->mu);
    cuzk__scratch_give(&l->scratch, m); /* for the G1 jobs still to come */
    pthread_mutex_unlock(&l->mu);
    if (st != CUZK_OK)
        lane_fail(l, 1, st);
    l->ms[2] = now_ms() - t0;
    lane_g1(l, 1);
    lane_event(l, 1, "end", -1);
}

/*
 * The blinding terms of the assembly (r and s are secret: constant-time multiplications), as
 * two jobs for the pool. With pi_A = A' + r delta1 (A' = alpha1 + sum w_i A_i) and B1' = beta1 +
 * sum w_i B1_i, snarkjs's C + s pi_A + r B1 - r s delta1 (B1 = B1' + s delta1) is
 * C + s pi_A + r B1': three G1 multiplications instead of five, no B1 needed. Job 0: s pi_A and
 * r B1' (G1); job 1: s delta2 (G2, about as long).
 */
typedef struct {
    const cuzk_fr_t *r, *s;
    const cuzk_g1_jac_t *pa, *b1p;
    const cuzk_g2_affine_t *delta_g2;
    cuzk_g1_jac_t s_pa, r_b1p;
    cuzk_g2_jac_t s_delta2;
} blind_job;

static void blind_run(void *ctx, size_t i)
{
    blind_job *j = ctx;
    if (i == 0) {
        cuzk_g1_mul(&j->s_pa, j->pa, j->s);
        cuzk_g1_mul(&j->r_b1p, j->b1p, j->r);
    } else {
        cuzk_g2_from_affine(&j->s_delta2, j->delta_g2);
        cuzk_g2_mul(&j->s_delta2, &j->s_delta2, j->s);
    }
}

/* The two-lane proof (lanes_job above), assembled and verified: the four G1 sums go to the
 * |out| fields of |jobs|, which point into |m|. */
static cuzk_status prove_lanes(cuzk_groth16_proof *proof, cuzk_fr_t *public_inputs,
                               cuzk_domain **dom, prove_bufs *p, const g1_job jobs[4], msm_sums *m,
                               const cuzk_snarkjs_zkey *zk, const cuzk_snarkjs_wtns *w,
                               const cuzk_fr_t *r, const cuzk_fr_t *s_rand, cuzk_pool *pool,
                               cuzk_prove_timings *tm)
{
    lanes_job l = {.zk = zk,
                   .w = w,
                   .p = p,
                   .r = r,
                   .s = s_rand,
                   .b2 = &m->b2,
                   .split = lane_split(),
                   .trace = env_flag("CUZK_LANE_TRACE")};
    memcpy(l.g1, jobs, sizeof l.g1);
    /* Without the chain's memory the three run as jobs of their own (the same proof). */
    size_t hbc = jobs[LANE_H].n + jobs[LANE_B1].n + jobs[LANE_C].n;
    if (cuzk__g1_msm_job_chain_new(&l.chain, hbc, 3, 2) != CUZK_OK)
        l.chain = NULL;
    pthread_mutex_init(&l.mu, NULL);
    l.t0 = now_ms();
    cuzk_pool_run(pool, 2, lanes_run, &l);
    pthread_mutex_destroy(&l.mu);
    *dom = l.dom;
    tm->synthesis = l.ms[0];
    tm->ntt_h = l.ms[1];
    tm->msm_h = l.ms[3];
    tm->tail_msm = l.ms_tail[0] + l.ms_tail[1];
    tm->msm_b_g2 = l.ms[2];
    /* Every work call has returned, so every prepared job was finished by its last lane (a job
     * left here had no lane enter it: not possible, but freed all the same). */
    for (int i = 0; i < 4; i++) {
        cuzk__g1_msm_job_free(l.job[i]);
        l.job[i] = NULL;
    }
    cuzk__scratch_free(&l.scratch);
    cuzk__g1_msm_job_chain_free(l.chain);
    cuzk_status s = CUZK_OK;
    if (l.st[0] != CUZK_OK)
        s = cuzk_fail(l.st[0], "%s", l.err[0]);
    for (int i = 0; i < 4 && s == CUZK_OK; i++)
        if (l.g1[i].st != CUZK_OK)
            s = cuzk_fail(l.g1[i].st, "%s", l.g1[i].err);
    if (s == CUZK_OK && l.st[1] != CUZK_OK)
        s = cuzk_fail(l.st[1], "%s", l.err[1]);
    if (s == CUZK_OK) {
        assemble_pre(&l, l.g1[LANE_B1].out, l.g1[LANE_C].out, l.g1[LANE_H].out);
        /* The rest of the assembly: pi_A = A + alpha1 + r delta1, pi_B = B2 + beta2 +
         * s delta2, pi_C = (C + H + r B1') + s pi_A. */
        double t0 = now_ms();
        cuzk_g1_jac_t pa, pc, s_pa;
        cuzk_g2_jac_t pb;
        cuzk_g1_add_affine(&pa, &m->a, &zk->alpha_g1);
        cuzk_g1_add(&pa, &pa, &l.r_delta1);
        cuzk_g1_mul(&s_pa, &pa, s_rand);
        cuzk_g2_add_affine(&pb, &m->b2, &zk->beta_g2);
        cuzk_g2_add(&pb, &pb, &l.s_delta2);
        cuzk_g1_add(&pc, &l.pc0, &s_pa);
        cuzk_memclear(&s_pa, sizeof s_pa);
        cuzk_g1_to_affine(&proof->a, &pa);
        cuzk_g2_to_affine(&proof->b, &pb);
        cuzk_g1_to_affine(&proof->c, &pc);
        if (zk->n_public)
            memcpy(public_inputs, p->wm + 1, zk->n_public * sizeof *public_inputs);
        tm->assemble = now_ms() - t0;
        t0 = now_ms();
        s = cuzk__groth16_verify_rest(zk->vk, proof, &l.f_inputs, pool);
        tm->verify = now_ms() - t0;
    }
    cuzk_memclear(&l, sizeof l);
    return s;
}

cuzk_status cuzk__snarkjs_prove_rs(cuzk_groth16_proof *proof, cuzk_fr_t *public_inputs,
                                   cuzk_fr_t *h_out, const cuzk_snarkjs_zkey *zk,
                                   const cuzk_snarkjs_wtns *w, const cuzk_fr_t *r,
                                   const cuzk_fr_t *s_rand, cuzk_backend *be, cuzk_pool *pool,
                                   cuzk_prove_timings *timings)
{
    if (be)
        pool = cuzk_backend_pool(be);
    bool on_device = be && cuzk_backend_device(be) >= 0;
    cuzk_prove_timings tm;
    memset(&tm, 0, sizeof tm);
    memset(proof, 0, sizeof *proof);
    if (zk->n_public) /* |public_inputs| may be NULL when there are none */
        memset(public_inputs, 0, zk->n_public * sizeof *public_inputs);
    if (w->n != zk->n_vars)
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "the witness has %u values; the zkey's circuit has nVars = %u", w->n,
                         zk->n_vars);
    double t_start = now_ms(), t0 = t_start;
    size_t n = zk->domain_size, nv = zk->n_vars, np = zk->n_public;
    prove_bufs p = {cuzk_calloc_array(n, sizeof(cuzk_fr_t)),
                    cuzk_calloc_array(n, sizeof(cuzk_fr_t)),
                    cuzk_alloc_array(n, sizeof(cuzk_fr_t)),
                    cuzk_alloc_array(nv, sizeof(cuzk_fr_t)),
                    n,
                    nv};
    cuzk_domain *dom = NULL;
    cuzk_status s = CUZK_OK;
    if (!p.a || !p.b || !p.c || !p.wm) {
        s = cuzk_fail(CUZK_ERR_NOMEM, "cannot allocate the prover vectors (domain %zu)", n);
        goto out;
    }
    msm_sums m;
    g1_job jobs[4] = {
        {.out = &m.h, .bases = zk->h, .packed = zk->h_packed, .mont = p.a, .n = n},
        {.out = &m.a, .bases = zk->a, .packed = zk->a_packed, .raw = w->values, .n = nv},
        {.out = &m.b1, .bases = zk->b1, .packed = zk->b1_packed, .raw = w->values, .n = nv},
        {.out = &m.c,
         .bases = zk->c,
         .packed = zk->c_packed,
         .raw = w->values + 4 * (np + 1),
         .n = nv - np - 1},
    };
    for (int k = 0; k < 4; k++)
        jobs[k].src = cuzk__snarkjs_packed_src(zk, jobs[k].packed);
    if (!on_device && cuzk_pool_threads(pool) == 2) {
        s = prove_lanes(proof, public_inputs, &dom, &p, jobs, &m, zk, w, r, s_rand, pool, &tm);
        if (s == CUZK_OK && h_out)
            memcpy(h_out, p.a, n * sizeof *h_out);
        goto verified;
    }
    synthesize(&p, zk, w, pool);
    tm.synthesis = now_ms() - t0;

    t0 = now_ms();
    if ((s = make_domain(&dom, n)) != CUZK_OK)
        goto out;
    if (on_device) {
        if ((s = cuzk__snarkjs_device_msms(be, dom, &p, zk, &m, &tm)) != CUZK_OK)
            goto out;
        if (h_out)
            memcpy(h_out, p.a, n * sizeof *h_out);
    } else {
        cuzk_poly_h(dom, p.a, p.b, p.c, pool);
        tm.ntt_h = now_ms() - t0;
        if (h_out)
            memcpy(h_out, p.a, n * sizeof *h_out);

        /* One thread: the four G1 MSMs one after another (as pairs: msm_h = H and A, tail_msm
         * = B1 and C). More threads: each G1 MSM over the whole pool, because two one-thread
         * MSMs would leave the other cores idle (env CUZK_ZKEY_G1_PAIRS=1 keeps the pairs, for
         * comparison). The G2 MSM alone, split over the pool by windows. */
        bool pairs = cuzk_pool_threads(pool) < 3 || env_flag("CUZK_ZKEY_G1_PAIRS");
        for (int k = 0; k < 2; k++) {
            t0 = now_ms();
            if (pairs)
                s = g1_pair(&jobs[2 * k], pool);
            else
                for (int i = 2 * k; i < 2 * k + 2 && s == CUZK_OK; i++)
                    s = g1_job_msm(&jobs[i], pool);
            if (s != CUZK_OK)
                goto out;
            *(k ? &tm.tail_msm : &tm.msm_h) = now_ms() - t0;
        }

        t0 = now_ms();
        cuzk__packed_bases b2 = cuzk__snarkjs_packed_src(zk, zk->b2_packed);
        s = zk->b2_packed ? cuzk__g2_msm_packed(&m.b2, &b2, NULL, w->values, nv, pool, NULL)
                          : cuzk_g2_msm_raw(&m.b2, zk->b2, w->values, nv, pool);
        if (s != CUZK_OK)
            goto out;
        tm.msm_b_g2 = now_ms() - t0;
    }

    /* Assembly (blind_job above). */
    t0 = now_ms();
    cuzk_g1_jac_t pa, b1p, pc, t;
    cuzk_g2_jac_t pb;
    cuzk_g1_from_affine(&t, &zk->delta_g1);
    cuzk_g1_mul(&t, &t, r);
    cuzk_g1_add_affine(&pa, &m.a, &zk->alpha_g1);
    cuzk_g1_add(&pa, &pa, &t);
    cuzk_g1_add_affine(&b1p, &m.b1, &zk->beta_g1);
    blind_job bj = {.r = r, .s = s_rand, .pa = &pa, .b1p = &b1p, .delta_g2 = &zk->delta_g2};
    cuzk_pool_run(pool, 2, blind_run, &bj);
    cuzk_g2_add_affine(&pb, &m.b2, &zk->beta_g2);
    cuzk_g2_add(&pb, &pb, &bj.s_delta2);
    cuzk_g1_add(&pc, &m.c, &m.h);
    cuzk_g1_add(&pc, &pc, &bj.s_pa);
    cuzk_g1_add(&pc, &pc, &bj.r_b1p);
    cuzk_memclear(&bj, sizeof bj);
    cuzk_g1_to_affine(&proof->a, &pa);
    cuzk_g2_to_affine(&proof->b, &pb);
    cuzk_g1_to_affine(&proof->c, &pc);
    if (np)
        memcpy(public_inputs, p.wm + 1, np * sizeof *public_inputs);
    tm.assemble = now_ms() - t0;

    t0 = now_ms();
    s = cuzk_groth16_verify(zk->vk, proof, public_inputs, np);
    tm.verify = now_ms() - t0;
verified:
    if (s == CUZK_ERR_VERIFY_FAILED)
        s = cuzk_fail(CUZK_ERR_VERIFY_FAILED,
                      "the proof does not verify: the witness does not satisfy the circuit of "
                      "this zkey (or does not belong to it); no proof was produced");
    tm.total = now_ms() - t_start;
out:
    cuzk_domain_destroy(dom);
    bufs_free(&p);
    if (s != CUZK_OK) {
        memset(proof, 0, sizeof *proof);
        if (np)
            memset(public_inputs, 0, np * sizeof *public_inputs);
        if (h_out)
            memset(h_out, 0, n * sizeof *h_out);
    }
    if (timings)
        *timings = tm;
    return s;
}
