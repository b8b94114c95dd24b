/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The public functions of one instantiation of src/msm/pippenger_impl.h, included at its end:
 * the MSM job of src/msm/msm_job.h (groups that define MSM_JOB_) and the msm / batch-add / plan
 * entry points of include/cuzk/msm.h. Not a standalone header: it sees the includer's M_ names,
 * types and static helpers (msm_prepare_, msm_worker_, msm_combine_, badd_run_, ...).
 */
#ifdef MSM_JOB_
/*
 * The MSM job of src/msm/msm_job.h, for groups that define MSM_JOB_(name) (the public names):
 * prepared once, then worked on by up to |workers| threads that join whenever they are free,
 * each with its own bucket set, taking the one-thread plan's tasks (window groups) from the
 * shared counter; combined once all of them have returned.
 */
struct MSM_JOB_(state) {
    MSM_CTX_T x;
    void *owned;
    unsigned workers;
};

struct MSM_JOB_(chain_state) {
    MSM_CHAIN_T c;
};

static cuzk_status M_(msm_job_new_)(struct MSM_JOB_(state) * *job, const AFF_T *bases,
                                    const cuzk__packed_bases *packed, const msm_scalars *sc,
                                    size_t n, unsigned workers, unsigned split, void *scratch,
                                    size_t scratch_bytes, MSM_CHAIN_T *chain, unsigned link)
{
    const cuzk_msm_opts o = {.scratch = scratch, .scratch_bytes = scratch_bytes};
    *job = NULL;
    if (workers == 0)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "msm job: no workers");
    if (split > MSM_JOB_MAX_SPLIT)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "msm job: split %u is more than %u", split,
                         MSM_JOB_MAX_SPLIT);
    struct MSM_JOB_(state) *j = cuzk_alloc(sizeof *j);
    if (!j)
        return cuzk_fail(CUZK_ERR_NOMEM, "msm job: cannot allocate its state");
    cuzk_status st = M_(msm_prepare_)(&j->x, &j->owned, bases, packed, sc, n, NULL, &o, workers,
                                      split, chain, link);
    if (st != CUZK_OK) {
        cuzk_free(j->owned);
        cuzk_free(j);
        return st;
    }
    j->workers = workers;
    *job = j;
    return CUZK_OK;
}

cuzk_status MSM_JOB_(new)(struct MSM_JOB_(state) * *job, const AFF_T *bases,
                          const cuzk_fr_t *scalars, size_t n, unsigned workers, unsigned split,
                          void *scratch, size_t scratch_bytes)
{
    msm_scalars sc = {NULL, scalars, NULL, 0, NULL};
    return M_(msm_job_new_)(job, bases, NULL, &sc, n, workers, split, scratch, scratch_bytes, NULL,
                            0);
}

cuzk_status MSM_JOB_(new_raw)(struct MSM_JOB_(state) * *job, const AFF_T *bases,
                              const uint64_t *scalars, size_t n, unsigned workers, unsigned split,
                              void *scratch, size_t scratch_bytes)
{
    msm_scalars sc = {scalars, NULL, NULL, 0, NULL};
    return M_(msm_job_new_)(job, bases, NULL, &sc, n, workers, split, scratch, scratch_bytes, NULL,
                            0);
}

cuzk_status MSM_JOB_(new_packed)(struct MSM_JOB_(state) * *job, const cuzk__packed_bases *bases,
                                 const cuzk_fr_t *mont, const uint64_t *raw, size_t n,
                                 unsigned workers, unsigned split, void *scratch,
                                 size_t scratch_bytes)
{
    if (!mont == !raw)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "msm job: give exactly one of mont and raw");
    msm_scalars sc = {raw, mont, NULL, 0, NULL};
    return M_(msm_job_new_)(job, NULL, bases, &sc, n, workers, split, scratch, scratch_bytes, NULL,
                            0);
}

static size_t M_(job_scratch_)(size_t n, unsigned workers, unsigned split, bool packed)
{
    static const cuzk_msm_opts defaults = {0};
    if (split > MSM_JOB_MAX_SPLIT)
        return SIZE_MAX;
    return n && workers ? M_(scratch_most_)(n, 1, &defaults, workers, split, packed) : 0;
}

size_t MSM_JOB_(scratch_size)(size_t n, unsigned workers, unsigned split)
{
    return M_(job_scratch_)(n, workers, split, false);
}

size_t MSM_JOB_(scratch_size_packed)(size_t n, unsigned workers, unsigned split)
{
    return M_(job_scratch_)(n, workers, split, true);
}

size_t MSM_JOB_(tasks)(const struct MSM_JOB_(state) * j)
{
    return j->x.plan.tasks;
}

size_t MSM_JOB_(untaken)(const struct MSM_JOB_(state) * j)
{
    size_t next = atomic_load(&j->x.next);
    return next < j->x.plan.tasks ? j->x.plan.tasks - next : 0;
}

size_t MSM_JOB_(helped)(const struct MSM_JOB_(state) * j)
{
    size_t h = 0;
    for (size_t t = 0; j->x.cursor && t < j->x.plan.tasks; t++)
        h += atomic_load(&j->x.helped[t]) != 0;
    return h;
}

void MSM_JOB_(work)(struct MSM_JOB_(state) * j, unsigned worker)
{
    CUZK_VERIFY_CHECK(worker < j->workers);
    if (worker < j->workers && j->x.plan.tasks) /* with no task left it may still help */
        M_(msm_worker_)(&j->x, worker);
}

void MSM_JOB_(finish)(struct MSM_JOB_(state) * j, JAC_T *out)
{
    CUZK_VERIFY_CHECK(atomic_load(&j->x.next) >= j->x.plan.tasks);
    const MSM_CHAIN_T *ch = j->x.chain;
    if (ch && (j->x.link + 1 < ch->links || atomic_load(&ch->aborted)))
        M_(jac_set_infinity)(out); /* its additions are in the last link's sum */
    else
        M_(msm_combine_)(out, &j->x);
    cuzk_free(j->owned);
    cuzk_free(j);
}

void MSM_JOB_(free)(struct MSM_JOB_(state) * j)
{
    if (!j)
        return;
    cuzk_free(j->owned);
    cuzk_free(j);
}

/* ---- chains of jobs (src/msm/msm_chain.h) ------------------------------------------------ */

cuzk_status MSM_JOB_(chain_new)(struct MSM_JOB_(chain_state) * *out, size_t total, unsigned links,
                                unsigned workers)
{
    static const cuzk_msm_opts defaults = {0};
    *out = NULL;
    if (links == 0 || workers == 0)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "msm chain: %u links, %u workers", links, workers);
    struct MSM_JOB_(chain_state) *cs = cuzk_alloc(sizeof *cs);
    if (!cs)
        return cuzk_fail(CUZK_ERR_NOMEM, "msm chain: cannot allocate its state");
    memset(cs, 0, sizeof *cs);
    MSM_CHAIN_T *ch = &cs->c;
    /* The plan of one MSM over every link's points, with scalars of full width (the links'
     * are not known yet; 256 bits also covers raw scalars not reduced below r); one point
     * chunk, so that a task is a window group. */
    msm_plan *p = &ch->plan;
    msm_layout unused;
    if (!M_(msm_setup_)(p, &unused, total ? total : 1, 1, 256, &defaults, workers, 0, false)) {
        cuzk_free(cs);
        return cuzk_fail(CUZK_ERR_NOMEM, "msm chain: working memory size overflows");
    }
    p->chunks = 1;
    p->tasks = p->ngroups;
    p->helpers = false;
    /* Its bucket sets: one per window group, laid out as a sliced MSM's. */
    msm_plan q = *p;
    q.n = 0;
    q.workers = 0;
    q.sets = p->ngroups;
    cuzk_status st = CUZK_OK;
    if (!msm_layout_make(&ch->lay, &q, &M_(group_), MSM_ENDO_LIMBS))
        st = cuzk_fail(CUZK_ERR_NOMEM, "msm chain: working memory size overflows");
    if (st == CUZK_OK)
        st = msm_get_memory(&ch->mem, &ch->owned, ch->lay.total, &defaults, "msm chain");
    if (st == CUZK_OK && !(ch->done = cuzk_alloc_array(p->ngroups, sizeof *ch->done)))
        st = cuzk_fail(CUZK_ERR_NOMEM, "msm chain: cannot allocate its state");
    if (st != CUZK_OK) {
        cuzk_free(ch->owned);
        cuzk_free(cs);
        return st;
    }
    for (unsigned g = 0; g < p->ngroups; g++)
        atomic_init(&ch->done[g], 0);
    atomic_init(&ch->aborted, false);
    ch->links = links;
    *out = cs;
    return CUZK_OK;
}

void MSM_JOB_(chain_abort)(struct MSM_JOB_(chain_state) * cs)
{
    if (cs)
        atomic_store(&cs->c.aborted, true);
}

void MSM_JOB_(chain_free)(struct MSM_JOB_(chain_state) * cs)
{
    if (!cs)
        return;
    cuzk_free((void *)cs->c.done);
    cuzk_free(cs->c.owned);
    cuzk_free(cs);
}

size_t MSM_JOB_(chain_scratch_size)(const struct MSM_JOB_(chain_state) * cs, size_t n,
                                    bool packed)
{
    msm_plan p = cs->c.plan;
    msm_layout l;
    p.n = n;
    p.packed = packed;
    p.linked = true;
    return msm_layout_make(&l, &p, &M_(group_), MSM_ENDO_LIMBS) ? l.total : SIZE_MAX;
}

cuzk_status MSM_JOB_(new_linked)(struct MSM_JOB_(state) * *job, struct MSM_JOB_(chain_state) * cs,
                                 unsigned link, const AFF_T *bases,
                                 const cuzk__packed_bases *packed, const cuzk_fr_t *mont,
                                 const uint64_t *raw, const cuzk_fr_t *factor, size_t n,
                                 void *scratch, size_t scratch_bytes)
{
    *job = NULL;
    if (!cs || link >= cs->c.links)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "msm job: link %u of a chain of %u", link,
                         cs ? cs->c.links : 0);
    if (!mont == !raw || (n > 0 && !bases == !packed))
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "msm job: give exactly one of mont and raw, and of bases and packed");
    msm_scalars sc = {raw, mont, NULL, 0, factor};
    return M_(msm_job_new_)(job, bases, packed, &sc, n, cs->c.plan.workers, 0, scratch,
                            scratch_bytes, &cs->c, link);
}
#endif

/* ---- entry points ----------------------------------------------------------------------- */

cuzk_status M_(msm_ex)(JAC_T *out, const AFF_T *bases, const cuzk_fr_t *scalars, size_t n,
                       cuzk_pool *pool, const cuzk_msm_opts *opts)
{
    msm_scalars sc = {NULL, scalars, NULL, 0, NULL};
    return M_(msm_run_)(out, bases, NULL, &sc, n, pool, opts);
}

cuzk_status M_(msm_raw_ex)(JAC_T *out, const AFF_T *bases, const uint64_t *scalars, size_t n,
                           cuzk_pool *pool, const cuzk_msm_opts *opts)
{
    msm_scalars sc = {scalars, NULL, NULL, 0, NULL};
    return M_(msm_run_)(out, bases, NULL, &sc, n, pool, opts);
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
    return M_(scratch_most_)(n, cuzk_pool_threads(pool), o, 0, 0, false);
}

size_t M_(batch_add_scratch_size)(size_t n, const cuzk_pool *pool, const cuzk_msm_opts *opts)
{
    static const cuzk_msm_opts defaults = {0};
    msm_badd_plan p;
    if (n == 0)
        return 0;
    if (!msm_badd_plan_make(&p, &M_(group_), n, cuzk_pool_threads(pool), opts ? opts : &defaults))
        return SIZE_MAX;
    return p.total;
}

void M_(msm_plan)(cuzk_msm_opts *out, size_t n, const cuzk_pool *pool, const cuzk_msm_opts *opts)
{
    static const cuzk_msm_opts defaults = {0};
    const cuzk_msm_opts *o = opts ? opts : &defaults;
    msm_plan p;
    msm_layout l;
    if (!M_(msm_setup_)(&p, &l, n, cuzk_pool_threads(pool), 254, o, 0, 0, false))
        msm_plan_make(&p, &M_(group_), n, cuzk_pool_threads(pool), 254, o);
    *out = *o;
    out->window = p.c;
    out->chunks = p.chunks;
    out->accum = p.accum;
    out->endo = p.endo > 1 ? CUZK_MSM_ENDO_ON : CUZK_MSM_ENDO_OFF;
}

/* How many slices a one-shot MSM of |n| random scalars below r makes its endomorphism images in
 * (1: all at once, or no split); src/msm/msm_slices.h. */
unsigned MSM_INTERNAL_(msm_slices)(size_t n, const cuzk_pool *pool, const cuzk_msm_opts *opts,
                                   bool packed)
{
    static const cuzk_msm_opts defaults = {0};
    msm_plan p;
    msm_layout l;
    if (!M_(msm_setup_)(&p, &l, n, cuzk_pool_threads(pool), 254, opts ? opts : &defaults, 0, 0,
                        packed))
        return 1;
    return p.slices;
}

/* ---- packed bases (src/msm/msm_packed.h) ------------------------------------------------ */

cuzk_status MSM_INTERNAL_(msm_packed)(JAC_T *out, const cuzk__packed_bases *bases,
                                      const cuzk_fr_t *mont, const uint64_t *raw, size_t n,
                                      cuzk_pool *pool, const cuzk_msm_opts *opts)
{
    if (!mont == !raw)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "msm: give exactly one of mont and raw");
    msm_scalars sc = {raw, mont, NULL, 0, NULL};
    return M_(msm_run_)(out, NULL, bases, &sc, n, pool, opts);
}

size_t MSM_INTERNAL_(msm_packed_scratch_size)(size_t n, const cuzk_pool *pool,
                                              const cuzk_msm_opts *opts)
{
    static const cuzk_msm_opts defaults = {0};
    return n ? M_(scratch_most_)(n, cuzk_pool_threads(pool), opts ? opts : &defaults, 0, 0, true)
             : 0;
}
