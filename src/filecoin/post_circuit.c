/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The fallback PoSt circuit and synthetic partitions for it. Written from rust-fil-proofs
 * storage-proofs-post src/fallback/{circuit.rs,compound.rs} (facts only; no code copied).
 */
#include "filecoin/post_circuit.h"
#include "gadgets/circuit_rand.h"

#include "cuzk/alloc.h"
#include "cuzk/threadpool.h"
#include "gadgets/merkle.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

cuzk_status cuzk_fil_post_shape_get(cuzk_fil_post_shape *out, uint64_t post_proof_type)
{
    cuzk_fil_post_info info;
    CUZK_TRY(cuzk_fil_post_info_get(&info, post_proof_type));
    memset(out, 0, sizeof *out);
    out->sector_count = (size_t)info.sector_count;
    out->challenge_count = (size_t)info.challenge_count;
    return cuzk_fil_tree_r_shape(out->arities, &out->depth, info.sector_size);
}

static cuzk_status post_sector(cuzk_cs *cs, const cuzk_fil_post_shape *shape,
                               const cuzk_fil_post_sector *s, size_t path_len)
{
    bool values = s != NULL;
    cuzk_num comm_r_last, comm_c, comm_r, h, pre[2];
    CUZK_TRY(cuzk_num_alloc(cs, &comm_r_last, values ? &s->comm_r_last : NULL));
    CUZK_TRY(cuzk_num_alloc(cs, &comm_c, values ? &s->comm_c : NULL));
    CUZK_TRY(cuzk_num_alloc(cs, &comm_r, values ? &s->comm_r : NULL));
    CUZK_TRY(cuzk_num_inputize(cs, &comm_r));
    pre[0] = comm_c;
    pre[1] = comm_r_last;
    CUZK_TRY(cuzk_merkle_hash_circuit(cs, &h, CUZK_MERKLE_POSEIDON, 2, pre));
    CUZK_TRY(cuzk_num_enforce_equal(cs, &comm_r, &h));
    for (size_t c = 0; c < shape->challenge_count; c++) {
        cuzk_cs_push_nsf(cs, "challenge_inclusion_%zu", c);
        cuzk_status st = cuzk_merkle_por_circuit_var_root(
            cs, CUZK_MERKLE_POSEIDON, shape->arities, shape->depth, values ? &s->leaves[c] : NULL,
            values ? s->challenges[c] : 0, values ? &s->siblings[c * path_len] : NULL,
            &comm_r_last);
        cuzk_cs_pop_ns(cs);
        CUZK_TRY(st);
    }
    return CUZK_OK;
}

cuzk_status cuzk_fil_post_circuit(cuzk_cs *cs, const cuzk_fil_post_shape *shape,
                                  const cuzk_fil_post_sector *sectors)
{
    if (!cs || !shape || shape->sector_count == 0 || shape->challenge_count == 0 ||
        shape->depth == 0 || shape->depth > CUZK_FIL_TREE_MAX_DEPTH)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "PoSt circuit: bad shape");
    if (cuzk_cs_has_values(cs) && !sectors)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "PoSt circuit: the sectors' witness is required");
    size_t path_len = cuzk_merkle_path_len(shape->arities, shape->depth);
    cuzk_cs_push_ns(cs, "outer namespace");
    for (size_t i = 0; i < shape->sector_count; i++) {
        cuzk_cs_push_nsf(cs, "sector_%zu", i);
        cuzk_status s = post_sector(cs, shape, sectors ? &sectors[i] : NULL, path_len);
        cuzk_cs_pop_ns(cs);
        if (s != CUZK_OK) {
            cuzk_cs_pop_ns(cs);
            return s;
        }
    }
    cuzk_cs_pop_ns(cs);
    return CUZK_OK;
}

/* ---- several threads ------------------------------------------------------------------------ */

typedef struct {
    size_t bad; /* lowest failing index (n: none) */
    cuzk_status st;
    char msg[256];
    cuzk_status (*fn)(void *, size_t);
    void *ctx;
    pthread_mutex_t mu;
} par_for_ctx;

static void par_for_one(void *arg, size_t i)
{
    par_for_ctx *c = arg;
    cuzk_status s = c->fn(c->ctx, i);
    if (s == CUZK_OK)
        return;
    pthread_mutex_lock(&c->mu);
    if (i < c->bad) {
        c->bad = i;
        c->st = s;
        snprintf(c->msg, sizeof c->msg, "%s", cuzk_last_error());
    }
    pthread_mutex_unlock(&c->mu);
}

/* A pool made for the call: the callers (a submit's vanilla checks, a synthetic partition) come
 * from threads that must not queue behind a long-running shared pool such as the engine's
 * parameter loads. */
cuzk_status cuzk__fil_par_for(size_t n, unsigned threads, cuzk_status (*fn)(void *ctx, size_t i),
                              void *ctx)
{
    if (threads > 256)
        threads = 256;
    if (threads > n)
        threads = (unsigned)n;
    cuzk_pool *pool = NULL;
    if (threads > 1 && cuzk_pool_create(&pool, threads) != CUZK_OK)
        pool = NULL; /* no threads to be had: the same work on this one */
    par_for_ctx c = {.bad = n, .fn = fn, .ctx = ctx};
    pthread_mutex_init(&c.mu, NULL);
    cuzk_pool_run(pool, n, par_for_one, &c);
    cuzk_pool_destroy(pool);
    pthread_mutex_destroy(&c.mu);
    return c.bad == n ? CUZK_OK : cuzk_fail(c.st, "%s", c.msg);
}

/* A synthesis switch: on unless the environment sets |name| to "0" (for comparisons). */
static bool env_on(const char *name)
{
    const char *v = getenv(name);
    return !v || strcmp(v, "0") != 0;
}

typedef struct {
    cuzk_status st;
    char msg[256];
    cuzk_cs *cs; /* synthesised range, NULL until done or after the merge */
    bool done;
} range_slot;

typedef struct {
    size_t n, per, nranges, window;
    size_t next, merged; /* next range to take; ranges appended so far */
    bool stop;
    cuzk_status (*synth)(void *ctx, cuzk_cs **out, size_t first, size_t count);
    void *ctx;
    range_slot *slot;
    cuzk_cs **spent; /* merged systems offered to the next ranges (at most nranges) */
    size_t nspent;
    int *placing; /* non-NULL: ranges may lie in their places in the target (forked items) */
    pthread_mutex_t mu;
    pthread_cond_t cv;
} range_par;

static void *range_worker(void *arg)
{
    range_par *rp = arg;
    pthread_mutex_lock(&rp->mu);
    for (;;) {
        while (!rp->stop && rp->next < rp->nranges && rp->next >= rp->merged + rp->window)
            pthread_cond_wait(&rp->cv, &rp->mu);
        if (rp->stop || rp->next >= rp->nranges)
            break;
        size_t k = rp->next++;
        cuzk_cs *cs = rp->nspent ? rp->spent[--rp->nspent] : NULL;
        pthread_mutex_unlock(&rp->mu);
        size_t first = k * rp->per, count = rp->per;
        if (first + count > rp->n)
            count = rp->n - first;
        cuzk_status s = rp->synth(rp->ctx, &cs, first, count);
        pthread_mutex_lock(&rp->mu);
        range_slot *r = &rp->slot[k];
        r->st = s;
        if (s != CUZK_OK)
            snprintf(r->msg, sizeof r->msg, "%s", cuzk_last_error());
        r->cs = cs;
        r->done = true;
        pthread_cond_broadcast(&rp->cv);
    }
    pthread_mutex_unlock(&rp->mu);
    return NULL;
}

/*
 * Range |k|, about to be merged, is not in its place in the target (it outgrew it): merged below
 * the places of the ranges after it, its values would overwrite those still being written. Stops
 * placing, lets the ranges taken so far finish, and moves the values of those placed into memory
 * of their own; the merges then copy as without places.
 */
static cuzk_status unplace_taken(range_par *rp, size_t k)
{
    __atomic_store_n(rp->placing, 0, __ATOMIC_RELEASE);
    pthread_mutex_lock(&rp->mu);
    size_t taken = rp->next;
    for (size_t i = k + 1; i < taken; i++)
        while (!rp->slot[i].done)
            pthread_cond_wait(&rp->cv, &rp->mu);
    pthread_mutex_unlock(&rp->mu);
    for (size_t i = k + 1; i < taken; i++)
        if (rp->slot[i].cs && cuzk_cs_unplace(rp->slot[i].cs) != CUZK_OK)
            return cuzk_fail(CUZK_ERR_NOMEM, "%s", cuzk_last_error());
    return CUZK_OK;
}

static cuzk_status synth_ranges(cuzk_cs *cs, size_t n, size_t per, unsigned threads, size_t window,
                                cuzk_status (*synth)(void *ctx, cuzk_cs **out, size_t first,
                                                     size_t count),
                                void *ctx, const char *what, int *placing)
{
    if (threads > 256)
        threads = 256;
    if (threads < 1)
        threads = 1;
    if (per < 1)
        per = 1;
    range_par rp = {.n = n, .per = per, .synth = synth, .ctx = ctx, .placing = placing};
    rp.nranges = (n + per - 1) / per;
    if (threads > rp.nranges)
        threads = (unsigned)(rp.nranges ? rp.nranges : 1);
    rp.window = window ? window : 2 * (size_t)threads;
    rp.slot = cuzk_calloc_array(rp.nranges ? rp.nranges : 1, sizeof *rp.slot);
    rp.spent = cuzk_calloc_array(rp.nranges ? rp.nranges : 1, sizeof *rp.spent);
    pthread_t *tid = cuzk_calloc_array(threads, sizeof *tid);
    if (!rp.slot || !rp.spent || !tid) {
        cuzk_free(rp.slot);
        cuzk_free(rp.spent);
        cuzk_free(tid);
        return cuzk_fail(CUZK_ERR_NOMEM, "%s synthesis on %u threads", what, threads);
    }
    /* The merges below (and items in their places) fill the system's reserved vectors: their
     * pages are touched first on all threads (env CUZK_SYNTH_PREFAULT=0: not, for comparisons). */
    if (env_on("CUZK_SYNTH_PREFAULT"))
        cuzk_cs_prefault(cs, threads);
    pthread_mutex_init(&rp.mu, NULL);
    pthread_cond_init(&rp.cv, NULL);
    unsigned started = 0;
    for (; started < threads; started++)
        if (pthread_create(&tid[started], NULL, range_worker, &rp) != 0)
            break;
    cuzk_status s =
        started ? CUZK_OK : cuzk_fail(CUZK_ERR_INTERNAL, "%s synthesis: no thread started", what);
    /* Merge in order as the ranges complete. */
    for (size_t k = 0; k < rp.nranges && s == CUZK_OK; k++) {
        pthread_mutex_lock(&rp.mu);
        while (!rp.slot[k].done)
            pthread_cond_wait(&rp.cv, &rp.mu);
        range_slot r = rp.slot[k];
        rp.slot[k].cs = NULL;
        pthread_mutex_unlock(&rp.mu);
        if (r.st != CUZK_OK)
            s = cuzk_fail(r.st, "%s", r.msg);
        else if (placing && r.cs && !cuzk_cs_is_placed(r.cs) &&
                 __atomic_load_n(placing, __ATOMIC_ACQUIRE))
            s = unplace_taken(&rp, k);
        if (s == CUZK_OK && (s = cuzk_cs_extend(cs, r.cs)) != CUZK_OK)
            s = cuzk_fail(s, "%s synthesis: %s", what, cuzk_last_error());
        pthread_mutex_lock(&rp.mu);
        if (s == CUZK_OK && r.cs)
            rp.spent[rp.nspent++] = r.cs; /* at most one per range */
        else
            cuzk_cs_destroy(r.cs);
        rp.merged = k + 1;
        pthread_cond_broadcast(&rp.cv);
        pthread_mutex_unlock(&rp.mu);
    }
    pthread_mutex_lock(&rp.mu);
    rp.stop = true;
    pthread_cond_broadcast(&rp.cv);
    pthread_mutex_unlock(&rp.mu);
    for (unsigned t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    for (size_t k = 0; k < rp.nranges; k++)
        cuzk_cs_destroy(rp.slot[k].cs);
    for (size_t k = 0; k < rp.nspent; k++)
        cuzk_cs_destroy(rp.spent[k]);
    pthread_cond_destroy(&rp.cv);
    pthread_mutex_destroy(&rp.mu);
    cuzk_free(rp.slot);
    cuzk_free(rp.spent);
    cuzk_free(tid);
    return s;
}

cuzk_status
cuzk__fil_synth_ranges(cuzk_cs *cs, size_t n, size_t per, unsigned threads, size_t window,
                       cuzk_status (*synth)(void *ctx, cuzk_cs **out, size_t first, size_t count),
                       void *ctx, const char *what)
{
    return synth_ranges(cs, n, per, threads, window, synth, ctx, what, NULL);
}

typedef struct {
    cuzk_status (*items)(void *ctx, cuzk_cs *sys, size_t first, size_t count);
    void *ctx;
    const cuzk_cs_fork *fork;
    size_t fork_aux;
    /* The last system's own aux and rows per item (every item has the same): the next systems
     * reserve them at once instead of growing their vectors by copies. */
    size_t hint_aux, hint_rows;
    /* Places: item i's aux values are written straight into the target's reserved vector at
     * fork_aux + i * place (cuzk_cs_place_forked), where its merge finds them without a copy;
     * while |placing| (cleared by the merge when an item outgrew its place). */
    cuzk_cs *target;
    size_t place;
    int placing;
} forked_par;

static cuzk_status forked_range(void *ctx, cuzk_cs **out, size_t first, size_t count)
{
    forked_par *p = ctx;
    bool place = __atomic_load_n(&p->placing, __ATOMIC_ACQUIRE);
    size_t ha = place ? 0 : __atomic_load_n(&p->hint_aux, __ATOMIC_RELAXED) * count;
    size_t hr = __atomic_load_n(&p->hint_rows, __ATOMIC_RELAXED) * count;
    /* A placed system's reset leaves it no vector: reused unplaced, it would grow by copies. */
    if (*out && !place && cuzk_cs_is_placed(*out)) {
        cuzk_cs_destroy(*out);
        *out = NULL;
    }
    CUZK_TRY(cuzk__fil_forked_system(out, p->fork, ha, hr));
    if (place)
        CUZK_TRY(cuzk_cs_place_forked(*out, p->target, p->fork_aux + first * p->place,
                                      count * p->place));
    CUZK_TRY(p->items(p->ctx, *out, first, count));
    __atomic_store_n(&p->hint_aux, (cuzk_cs_num_aux(*out) - p->fork_aux) / count, __ATOMIC_RELAXED);
    __atomic_store_n(&p->hint_rows, cuzk_cs_num_constraints(*out) / count, __ATOMIC_RELAXED);
    return CUZK_OK;
}

unsigned cuzk__fil_balanced_threads(size_t n, unsigned threads)
{
    if (threads < 2 || n <= threads)
        return threads;
    /* In units of one item's time on a core of its own, times |threads|: full waves of t items
     * on |threads| cores take max(t, threads) each, the last partial wave of r max(r, threads). */
    unsigned best = threads;
    uint64_t best_cost = UINT64_MAX;
    for (unsigned t = threads; t < 2 * threads && t <= n; t++) {
        uint64_t r = n % t, cost = (uint64_t)(n / t) * (t > threads ? t : threads) +
                                   (r ? (r > threads ? r : threads) : 0);
        if (cost < best_cost)
            best = t, best_cost = cost;
    }
    return best;
}

cuzk_status cuzk__fil_forked_items(cuzk_cs *cs, size_t n, unsigned threads,
                                   cuzk_status (*items)(void *ctx, cuzk_cs *sys, size_t first,
                                                        size_t count),
                                   void *ctx, const char *what)
{
    if (threads < 2 || n < 2 || cuzk_cs_get_mode(cs) == CUZK_CS_KEYGEN)
        return items(ctx, cs, 0, n);
    cuzk_cs_fork *fork;
    CUZK_TRY(cuzk_cs_fork_create(&fork, cs));
    forked_par p = {
        .items = items, .ctx = ctx, .fork = fork, .fork_aux = cuzk_cs_num_aux(cs), .target = cs};
    /* Until an item has finished, size the first systems from what the caller reserved for the
     * whole (an engine passes the parameter set's sizes): without a hint each of them grew its
     * vectors by copies into fresh pages, one fault at a time. Env CUZK_SYNTH_FORK_HINT=0: not,
     * for comparisons. */
    size_t room_aux, room_rows;
    cuzk_cs_reserved(cs, &room_aux, &room_rows);
    size_t rows0 = cuzk_cs_num_constraints(cs);
    if (env_on("CUZK_SYNTH_FORK_HINT")) {
        if (room_aux > p.fork_aux)
            p.hint_aux = (room_aux - p.fork_aux) / n;
        if (room_rows > rows0)
            p.hint_rows = (room_rows - rows0) / n;
    }
    /* A short last wave of items leaves cores idle: more threads than cores, shared by the OS,
     * finish sooner (env CUZK_SYNTH_BALANCE=0: not, for comparisons). */
    if (env_on("CUZK_SYNTH_BALANCE"))
        threads = cuzk__fil_balanced_threads(n, threads);
    /* With the reservation's share of each item, the items' values go straight to their places
     * in |cs| (env CUZK_SYNTH_PLACE=0: not, for comparisons): no copy at their merges, and no
     * fresh vectors of their own (4.2 GB for a 32 GiB PoRep partition). */
    if (p.hint_aux && cuzk_cs_has_values(cs) && env_on("CUZK_SYNTH_PLACE")) {
        p.place = p.hint_aux;
        p.placing = 1;
    }
    cuzk_status s = synth_ranges(cs, n, 1, threads, (size_t)threads + 1, forked_range, &p, what,
                                 p.placing ? &p.placing : NULL);
    cuzk_cs_fork_destroy(fork);
    return s;
}

typedef struct {
    cuzk_cs_mode mode;
    const cuzk_fil_post_shape *shape;
    const cuzk_fil_post_sector *sectors;
} post_par;

/* Sectors [first, first + count) into a system of their own (namespaces as the sequential run's,
 * for CHECK mode's messages). */
static cuzk_status synth_range(void *ctx, cuzk_cs **out, size_t first, size_t count)
{
    const post_par *pp = ctx;
    cuzk_cs_destroy(*out); /* a merged range's system: plain systems are not reused */
    *out = NULL;
    CUZK_TRY(cuzk_cs_create(out, pp->mode, 0, 0));
    size_t path_len = cuzk_merkle_path_len(pp->shape->arities, pp->shape->depth);
    cuzk_cs_push_ns(*out, "outer namespace");
    cuzk_status s = CUZK_OK;
    for (size_t i = first; i < first + count && s == CUZK_OK; i++) {
        cuzk_cs_push_nsf(*out, "sector_%zu", i);
        s = post_sector(*out, pp->shape, &pp->sectors[i], path_len);
        cuzk_cs_pop_ns(*out);
    }
    cuzk_cs_pop_ns(*out);
    return s;
}

cuzk_status cuzk_fil_post_circuit_mt(cuzk_cs *cs, const cuzk_fil_post_shape *shape,
                                     const cuzk_fil_post_sector *sectors, unsigned threads)
{
    if (threads > 256)
        threads = 256;
    cuzk_cs_mode mode = cs ? cuzk_cs_get_mode(cs) : CUZK_CS_KEYGEN;
    if (threads < 2 || mode == CUZK_CS_KEYGEN || !shape || !sectors ||
        shape->sector_count < 2 * (size_t)threads)
        return cuzk_fil_post_circuit(cs, shape, sectors);
    if (shape->challenge_count == 0 || shape->depth == 0 || shape->depth > CUZK_FIL_TREE_MAX_DEPTH)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "PoSt circuit: bad shape");
    post_par pp = {.mode = mode, .shape = shape, .sectors = sectors};
    /* About 8 ranges per thread: enough to keep every thread busy to the end, few merges. */
    size_t per = (shape->sector_count + 8 * (size_t)threads - 1) / (8 * (size_t)threads);
    return cuzk__fil_synth_ranges(cs, shape->sector_count, per, threads, 0, synth_range, &pp,
                                  "PoSt");
}

/* ---- synthetic partitions ------------------------------------------------------------------ */

/* Leaf |index| of sector |sector_id|'s synthetic tree: the same value wherever it is asked. */
static void leaf_value(cuzk_fr_t *out, uint64_t seed, uint64_t sector_id, uint64_t index)
{
    uint64_t st = seed ^ 0x6c656166ULL;
    st = cuzk__splitmix64(&st) ^ sector_id;
    st = cuzk__splitmix64(&st) ^ index;
    cuzk__rand_fr_254(out, &st);
}

void cuzk_fil_post_partition_destroy(cuzk_fil_post_partition *p)
{
    if (!p)
        return;
    cuzk_free(p->sector_ids);
    cuzk_free(p->comm_rs);
    cuzk_free(p->sectors);
    cuzk_free(p->leaves);
    cuzk_free(p->siblings);
    cuzk_free(p->challenges);
    cuzk_free(p);
}

cuzk_status cuzk__fil_post_partition_alloc(cuzk_fil_post_partition **out, uint64_t post_proof_type,
                                           size_t nreal)
{
    *out = NULL;
    cuzk_fil_post_partition *p = cuzk_alloc(sizeof *p);
    if (!p)
        return cuzk_fail(CUZK_ERR_NOMEM, "PoSt partition");
    memset(p, 0, sizeof *p);
    p->post_proof_type = post_proof_type;
    cuzk_status s = cuzk_fil_post_shape_get(&p->shape, post_proof_type);
    if (s != CUZK_OK) {
        cuzk_free(p);
        return s;
    }
    const cuzk_fil_post_shape *sh = &p->shape;
    size_t path_len = cuzk_merkle_path_len(sh->arities, sh->depth);
    size_t nch = sh->sector_count * sh->challenge_count;
    p->nreal = nreal;
    p->sector_ids = cuzk_alloc_array(nreal, sizeof *p->sector_ids);
    p->comm_rs = cuzk_alloc_array(nreal, sizeof *p->comm_rs);
    p->sectors = cuzk_calloc_array(sh->sector_count, sizeof *p->sectors);
    p->leaves = cuzk_alloc_array(nch, sizeof *p->leaves);
    p->challenges = cuzk_alloc_array(nch, sizeof *p->challenges);
    p->siblings = cuzk_alloc_array(nch, path_len * sizeof *p->siblings);
    if (!p->sector_ids || !p->comm_rs || !p->sectors || !p->leaves || !p->challenges ||
        !p->siblings) {
        cuzk_fil_post_partition_destroy(p);
        return cuzk_fail(CUZK_ERR_NOMEM, "PoSt partition of %zu challenges", nch);
    }
    *out = p;
    return CUZK_OK;
}

uint64_t cuzk__fil_post_challenge(const cuzk_fil_post_partition *p, size_t i, size_t n)
{
    cuzk_fil_post_info info;
    if (cuzk_fil_post_info_get(&info, p->post_proof_type) != CUZK_OK)
        return UINT64_MAX;
    const cuzk_fil_post_shape *sh = &p->shape;
    /* WinningPoSt: challenge i of its one sector is the circuit's sector i. */
    bool winning = info.kind == CUZK_FIL_POST_WINNING;
    uint64_t id = p->sector_ids[winning ? 0 : i];
    uint64_t index = info.api_minor < 2
                         ? ((uint64_t)p->partition * sh->sector_count + i) * sh->challenge_count + n
                         : n;
    return cuzk_fil_post_leaf_challenge(p->randomness, id, index, info.sector_size);
}

/* Real sector |r| (its circuit sectors |first|, |count| of them, |per| challenges each): tree,
 * comm values, leaves and paths. */
static cuzk_status synth_sector(cuzk_fil_post_partition *p, size_t r, size_t first, size_t count,
                                uint64_t seed, size_t path_len)
{
    const cuzk_fil_post_shape *sh = &p->shape;
    size_t per = sh->challenge_count, n = count * per, base = first * per;
    uint64_t st = seed ^ (0x636f6d6d ^ (p->sector_ids[r] << 20));
    cuzk_fr_t fill, comm_c, comm_r_last, comm_r, pre[2];
    cuzk__rand_fr_254(&fill, &st);
    cuzk__rand_fr_254(&comm_c, &st);
    for (size_t k = 0; k < n; k++)
        leaf_value(&p->leaves[base + k], seed, p->sector_ids[r], p->challenges[base + k]);
    CUZK_TRY(cuzk_merkle_sparse_paths(&comm_r_last, &p->siblings[base * path_len],
                                      CUZK_MERKLE_POSEIDON, sh->arities, sh->depth, &fill, n,
                                      &p->challenges[base], &p->leaves[base]));
    pre[0] = comm_c;
    pre[1] = comm_r_last;
    CUZK_TRY(cuzk_merkle_hash_node(&comm_r, CUZK_MERKLE_POSEIDON, 2, pre));
    cuzk_fr_to_bytes_le(p->comm_rs[r], &comm_r);
    for (size_t i = first; i < first + count; i++) {
        cuzk_fil_post_sector *s = &p->sectors[i];
        s->comm_r = comm_r;
        s->comm_c = comm_c;
        s->comm_r_last = comm_r_last;
        s->leaves = &p->leaves[i * per];
        s->challenges = &p->challenges[i * per];
        s->siblings = &p->siblings[i * per * path_len];
    }
    return CUZK_OK;
}

typedef struct {
    cuzk_fil_post_partition *p;
    uint64_t seed;
    size_t path_len;
} synth_ctx;

static cuzk_status synth_one(void *ctx, size_t r)
{
    synth_ctx *c = ctx;
    return synth_sector(c->p, r, r, 1, c->seed, c->path_len);
}

cuzk_status cuzk_fil_post_partition_synthetic(cuzk_fil_post_partition **out,
                                              uint64_t post_proof_type, uint64_t seed,
                                              unsigned threads)
{
    *out = NULL;
    cuzk_fil_post_info info;
    CUZK_TRY(cuzk_fil_post_info_get(&info, post_proof_type));
    bool winning = info.kind == CUZK_FIL_POST_WINNING;
    cuzk_fil_post_partition *p;
    CUZK_TRY(cuzk__fil_post_partition_alloc(&p, post_proof_type,
                                            winning ? 1 : (size_t)info.sector_count));
    const cuzk_fil_post_shape *sh = &p->shape;
    size_t path_len = cuzk_merkle_path_len(sh->arities, sh->depth);
    uint64_t st = seed ^ 0x706f7374ULL; /* "post" */
    cuzk_fr_t rnd;
    cuzk__rand_fr_254(&rnd, &st);
    cuzk_fr_to_bytes_le(p->randomness, &rnd);
    uint64_t first_id = cuzk__splitmix64(&st) % 1000000;
    for (size_t r = 0; r < p->nreal; r++)
        p->sector_ids[r] = first_id + r;
    for (size_t i = 0; i < sh->sector_count; i++)
        for (size_t n = 0; n < sh->challenge_count; n++)
            p->challenges[i * sh->challenge_count + n] = cuzk__fil_post_challenge(p, i, n);
    synth_ctx ctx = {.p = p, .seed = seed, .path_len = path_len};
    cuzk_status s = winning ? synth_sector(p, 0, 0, sh->sector_count, seed, path_len)
                            : cuzk__fil_par_for(p->nreal, threads, synth_one, &ctx);
    if (s != CUZK_OK) {
        cuzk_fil_post_partition_destroy(p);
        return s;
    }
    *out = p;
    return CUZK_OK;
}

cuzk_status cuzk_circuit_fil_post(cuzk_cs *cs, const void *params_)
{
    const cuzk_circuit_params *params = params_;
    if (!cuzk_cs_has_values(cs)) {
        cuzk_fil_post_shape shape;
        CUZK_TRY(cuzk_fil_post_shape_get(&shape, params->arg));
        return cuzk_fil_post_circuit(cs, &shape, NULL);
    }
    if (params->data) {
        const cuzk_fil_post_partition *given = params->data;
        if (given->post_proof_type != params->arg)
            return cuzk_fail(CUZK_ERR_INVALID_ARG,
                             "fil-post:%llu given a partition of "
                             "RegisteredPoStProof %llu",
                             (unsigned long long)params->arg,
                             (unsigned long long)given->post_proof_type);
        return cuzk_fil_post_circuit_mt(cs, &given->shape, given->sectors, params->threads);
    }
    cuzk_fil_post_partition *p;
    CUZK_TRY(cuzk_fil_post_partition_synthetic(&p, params->arg, params->seed, params->threads));
    cuzk_status s = cuzk_fil_post_circuit_mt(cs, &p->shape, p->sectors, params->threads);
    cuzk_fil_post_partition_destroy(p);
    return s;
}
