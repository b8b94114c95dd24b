/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The bitmap batch addition of src/msm/pippenger_impl.h (sum of the bases whose bit is set: the
 * 0/1 scalars of a prover's split), included by it after the accumulation helpers it shares with
 * the MSM (batch_apply_, x_madd_, the group table). Not a standalone header: it is part of one
 * instantiation and sees that file's M_ names and types.
 */
typedef struct {
    const AFF_T *bases;
    const uint64_t *bitmap;
    size_t n;
    msm_badd_plan plan;
    unsigned char *mem;
    JAC_T *results;
    _Atomic size_t next;
} MSM_BADD_CTX_T;

static void M_(badd_worker_)(void *vctx, size_t wi)
{
    MSM_BADD_CTX_T *x = vctx;
    const msm_badd_plan *pl = &x->plan;
    unsigned char *base = x->mem + pl->workers_off + wi * pl->worker;
    bool affine = pl->accum == CUZK_MSM_ACCUM_AFFINE;
    AFF_T *lanes = (AFF_T *)(base + pl->lanes_off);
    MSM_ENTRY_T *ent = (MSM_ENTRY_T *)(base + pl->ent_off);
    B_T *pre = (B_T *)(base + pl->pre_off);
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
                    M_(x_madd_)(&acc, &acc, p);
                    continue;
                }
                AFF_T *l = &lanes[cur];
                if (l->infinity)
                    *l = *p;
                else
                    ent[m++] = (MSM_ENTRY_T){l, p, 0, MSM_KIND_ADD};
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
                M_(x_madd_)(&acc, &acc, &lanes[l]);
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
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "batch_add: NULL bases or bitmap with n = %zu", n);
    cuzk_status st = msm_check_opts(o);
    if (st != CUZK_OK)
        return st;
    if (n == 0) {
        M_(jac_set_infinity)(out);
        return CUZK_OK;
    }
    MSM_BADD_CTX_T x = {.bases = bases, .bitmap = bitmap, .n = n};
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
