/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The MSM's tasks, part of one instantiation of src/msm/pippenger_impl.h (included from it, no
 * include guard; it sees the includer's M_ names, types and helpers): the call's context, a
 * task's accumulation of points into buckets and its running sums, the pool workers, the
 * endomorphism images, and the one-thread MSM that makes its images slice by slice.
 */

/*
 * A chain of MSM jobs that add into one sum (src/msm/msm_chain.h): one plan for every link, and
 * one bucket set per window group that the links fill in turn (link k's task for group g runs
 * once done[g] = k, and sets it to k + 1); the last link's tasks reduce the sets into windows.
 */
typedef struct {
    msm_plan plan;            /* the links' plan but for their n, packed and linked fields */
    msm_layout lay;           /* the bucket sets: lay.sets, lay.set_sides */
    unsigned char *mem;       /* the sets */
    void *owned;              /* to free */
    unsigned links;
    _Atomic unsigned *done;   /* per window group: links whose task for it has ended */
    _Atomic bool aborted;     /* a link will never run: every task returns at once */
} MSM_CHAIN_T;

typedef struct {
    const AFF_T *bases;        /* points [0, n0) (packed: |dec|, or NULL when sliced) */
    const AFF_T *ext;          /* points [n0, n): endomorphism images (plan.endo > 1) */
    cuzk__packed_bases packed; /* the bases as given when plan.packed (src/msm/msm_packed.h) */
    AFF_T *dec;                /* where they are decoded: all at once, or a slice at a time */
    msm_scalars sc;
    size_t n, n0;
    msm_plan plan;
    msm_layout lay;
    unsigned char *mem;
    JAC_T *results;
    _Atomic size_t next;
    MSM_CHAIN_T *chain; /* a link of this chain, or NULL */
    unsigned link;      /* its place in the chain */
    /* Helpers (plan.helpers, a job's): per task the next point not yet taken and whether a
     * helper took part, whose window sums are in hres (laid out as results). */
    _Atomic size_t *cursor;
    _Atomic unsigned *helped;
    JAC_T *hres;
} MSM_CTX_T;

/* The windows [*w0, *w1) of window group |gi|. */
static inline void M_(group_windows_)(const msm_plan *pl, unsigned gi, unsigned *w0, unsigned *w1)
{
    *w0 = gi * pl->group;
    *w1 = *w0 + pl->group < pl->nwin ? *w0 + pl->group : pl->nwin;
}

/* Readies worker |s| for windows [w0, w1): empty buckets when |clear| (a bucket set that a
 * sliced MSM fills again keeps its sums), an empty batch of the right size. */
static void M_(task_begin_)(const msm_plan *pl, MSM_WORKER_T *s, unsigned w0, unsigned w1,
                            bool clear)
{
    size_t words = msm_words((size_t)(w1 - w0) * pl->nb);
    if (clear)
        memset(s->used, 0, words * sizeof(uint64_t));
    if (pl->accum != CUZK_MSM_ACCUM_AFFINE)
        return;
    if (clear)
        memset(s->side_used, 0, words * sizeof(uint64_t));
    s->m = s->qn = 0;
    /* A batch of a quarter of the buckets the task's digits can reach: the top window's
     * digits reach only top_nb of them (with the endomorphism split at 2^16, ~1,400 of
     * 4,096), and its task alone filled batches of 1,024 into them, so that the conflict
     * queue overflowed and 31 % of its additions went to the XYZZ side buckets. Below
     * MSM_BLOCK additions the inversion per batch would cost more than the side buckets
     * (a thin top window, which automatic plans avoid): the plan's batch then. */
    size_t reach = (size_t)(w1 - w0) * pl->nb - (w1 == pl->nwin ? pl->nb - pl->top_nb : 0);
    size_t batch = msm_batch_size(reach);
    s->batch = batch >= MSM_BLOCK && batch < pl->batch ? batch : pl->batch;
    s->qcap = s->batch / 2;
}

/* Accumulates points pts[0 .. cnt), whose scalars are those of points v0 .., into the buckets
 * of windows [w0, w1) (one scalar conversion per point, and batches that span the windows'
 * buckets). */
static void M_(accumulate_)(const MSM_CTX_T *x, MSM_WORKER_T *s, unsigned w0, unsigned w1,
                            const AFF_T *pts, size_t v0, size_t cnt_all)
{
    const msm_plan *pl = &x->plan;
    unsigned c = pl->c;
    bool affine = pl->accum == CUZK_MSM_ACCUM_AFFINE;
    int32_t dig[MSM_BLOCK];
    uint64_t k[MSM_BLOCK][4];
    int32_t flip[MSM_BLOCK];
    for (size_t i0 = 0; i0 < cnt_all; i0 += MSM_BLOCK) {
        size_t cnt = cnt_all - i0 < MSM_BLOCK ? cnt_all - i0 : MSM_BLOCK;
        const AFF_T *blk = pts + i0;
        /* A base at infinity gets scalar 0, so all its digits are 0: its flag is read once
         * per block here (64 independent loads), not once per window in the placing loop,
         * where the first touch of each base's line was a cache miss in a dependent branch
         * (half of this function's samples at 2^16). */
        for (size_t i = 0; i < cnt; i++) {
            if (i0 + i + MSM_BLOCK < cnt_all) /* the next block's flags: its bases cross 4 KiB
                                               * pages, which the hardware prefetchers do not */
                __builtin_prefetch(&blk[i + MSM_BLOCK].infinity);
            flip[i] = (int32_t)msm_scalar(k[i], &x->sc, v0 + i0 + i);
            if (blk[i].infinity)
                k[i][0] = k[i][1] = k[i][2] = k[i][3] = 0;
        }
        for (unsigned w = w0; w < w1; w++) {
            uint32_t off = (uint32_t)((w - w0) * pl->nb);
            for (size_t i = 0; i < cnt; i++) /* negated when flipped */
                dig[i] = (msm_digit(k[i], w, c) ^ -flip[i]) + flip[i];
            for (size_t i = 0; i < cnt; i++) {
                /* XYZZ buckets are read at once: prefetch a few points ahead. */
                if (!affine && i + MSM_PREFETCH < cnt && dig[i + MSM_PREFETCH]) {
                    int32_t d = dig[i + MSM_PREFETCH];
                    M_(prefetch_)
                    ((const XYZZ_T *)s->bk + off + ((d < 0 ? -d : d) - 1), sizeof(XYZZ_T));
                }
                int32_t d = dig[i];
                const AFF_T *p = &blk[i];
                if (d == 0)
                    continue;
                CUZK_VERIFY_CHECK(d >= -(int32_t)pl->nb && d <= (int32_t)pl->nb);
                uint32_t b = off + (uint32_t)(d < 0 ? -d : d) - 1, neg = d < 0;
                if (!affine)
                    M_(xyzz_put_)((XYZZ_T *)s->bk, s->used, p, b, neg);
                else if (M_(aff_place_)(s, p, b, neg))
                    M_(aff_flush_)(s);
            }
        }
    }
}

/* Points [a, b) of the MSM's index space (bases below n0, their images from n0) into the
 * buckets of windows [w0, w1). */
static void M_(accumulate_range_)(const MSM_CTX_T *x, MSM_WORKER_T *s, unsigned w0, unsigned w1,
                                  size_t a, size_t b)
{
    size_t mid = b < x->n0 ? b : x->n0;
    if (a < mid)
        M_(accumulate_)(x, s, w0, w1, x->bases + a, a, mid - a);
    if (mid < a)
        mid = a;
    if (mid < b)
        M_(accumulate_)(x, s, w0, w1, x->ext + (mid - x->n0), mid, b - mid);
}

/* Reduces windows [w0, w1) of worker |s|'s buckets into res[w * chunks + j] (|res|: the
 * window results, or a helper's). */
static void M_(task_reduce_)(MSM_CTX_T *x, MSM_WORKER_T *s, unsigned w0, unsigned w1, size_t j,
                             JAC_T *res)
{
    const msm_plan *pl = &x->plan;
    for (unsigned w = w0; w < w1;) {
#ifdef MSM_BATCH_X8
        /* Up to 8 windows (or segments of fewer windows) per vector step. */
        unsigned nw = w1 - w < 8 ? w1 - w : 8;
        if (pl->accum == CUZK_MSM_ACCUM_AFFINE && cuzk__msm_use_ifma) {
            M_(reduce_windows_x8_)
            (&res[(size_t)w * pl->chunks + j], pl->chunks, s, w - w0, pl->nb, nw);
            w += nw;
            continue;
        }
#endif
        M_(reduce_)
        (&res[(size_t)w * pl->chunks + j], s, pl->accum, (size_t)(w - w0) * pl->nb, pl->nb);
        w++;
    }
}

/* Task t = (window group t / chunks, chunk t % chunks): accumulate the chunk's points (bases
 * below n0, endomorphism images above) into the buckets of every window of the group, then
 * reduce each window into results[w * chunks + chunk]. */
static void M_(msm_task_)(MSM_CTX_T *x, MSM_WORKER_T *s, size_t t)
{
    const msm_plan *pl = &x->plan;
    unsigned w0, w1;
    M_(group_windows_)(pl, (unsigned)(t / pl->chunks), &w0, &w1);
    size_t j = t % pl->chunks;
    size_t lo = msm_chunk_start(x->n, pl->chunks, j), hi = msm_chunk_start(x->n, pl->chunks, j + 1);
    M_(task_begin_)(pl, s, w0, w1, true);
    M_(accumulate_range_)(x, s, w0, w1, lo, hi);
    if (pl->accum == CUZK_MSM_ACCUM_AFFINE)
        M_(aff_finish_)(s);
    M_(task_reduce_)(x, s, w0, w1, j, x->results);
}

/*
 * Task t of a job with helpers: pieces of MSM_HELP_PIECE points taken from the task's cursor
 * until none is left, then this worker's window sums, into the window results (|helper| false:
 * the task's owner) or into hres (a helper, beside the owner). A worker left without tasks helps
 * the task with the most points left (help_), so the job's workers end within a piece of each
 * other instead of within a task: at 2^16 a task of the snarkjs prover's last job took ~20 ms
 * and the two lanes ended 10-18 ms apart. The helper's sums cost one more reduction of the
 * group's windows (~1 ms there).
 */
#define MSM_HELP_PIECE 2048
#define MSM_HELP_MIN (8 * MSM_HELP_PIECE) /* points left worth a helper's reduction */
static void M_(job_task_)(MSM_CTX_T *x, MSM_WORKER_T *s, size_t t, bool helper)
{
    const msm_plan *pl = &x->plan;
    unsigned w0, w1;
    M_(group_windows_)(pl, (unsigned)(t / pl->chunks), &w0, &w1);
    size_t j = t % pl->chunks, hi = msm_chunk_start(x->n, pl->chunks, j + 1);
    M_(task_begin_)(pl, s, w0, w1, true);
    for (;;) {
        size_t a = atomic_fetch_add(&x->cursor[t], MSM_HELP_PIECE);
        if (a >= hi)
            break;
        M_(accumulate_range_)(x, s, w0, w1, a, hi - a > MSM_HELP_PIECE ? a + MSM_HELP_PIECE : hi);
    }
    if (pl->accum == CUZK_MSM_ACCUM_AFFINE)
        M_(aff_finish_)(s);
    M_(task_reduce_)(x, s, w0, w1, j, helper ? x->hres : x->results);
}

/* Helps the job's running tasks, the one with the most points left first, each at most once
 * (the first helper to claim it), until none has MSM_HELP_MIN points left. */
static void M_(help_)(MSM_CTX_T *x, MSM_WORKER_T *s)
{
    const msm_plan *pl = &x->plan;
    for (;;) {
        size_t best = SIZE_MAX, most = 0;
        for (size_t t = 0; t < pl->tasks; t++) {
            size_t hi = msm_chunk_start(x->n, pl->chunks, t % pl->chunks + 1);
            size_t at = atomic_load(&x->cursor[t]);
            if (!atomic_load(&x->helped[t]) && at < hi && hi - at > most)
                best = t, most = hi - at;
        }
        if (best == SIZE_MAX || most < MSM_HELP_MIN)
            return;
        unsigned free_ = 0;
        if (atomic_compare_exchange_strong(&x->helped[best], &free_, 1u))
            M_(job_task_)(x, s, best, true);
    }
}

/* Points |s|'s buckets (and their bitmaps) at those of the region at |base| (offsets of |l|) and
 * its side buckets at |side|: a worker's, a sliced MSM's or a chain's bucket set. */
static void M_(worker_buckets_)(MSM_WORKER_T *s, const msm_layout *l, cuzk_msm_accum accum,
                                unsigned char *base, unsigned char *side)
{
    s->bk = base + l->bk;
    s->used = (uint64_t *)(base + l->used);
    if (accum == CUZK_MSM_ACCUM_AFFINE) {
        s->side = (XYZZ_T *)side;
        s->side_used = (uint64_t *)(base + l->side_used);
    }
}

/* Bucket set |gi| of the sets in |mem| laid out by |l| (a sliced MSM's, or a chain's). */
static void M_(worker_set_)(MSM_WORKER_T *s, const msm_layout *l, cuzk_msm_accum accum,
                            unsigned char *mem, unsigned gi)
{
    M_(worker_buckets_)
    (s, l, accum, mem + l->sets + gi * l->set, mem + l->set_sides + gi * l->set_side);
}

/* Empties the batch of an AFFINE task whose points are about to go (a slice's, or a link's):
 * full flushes first, to keep the side buckets (and their pages) untouched where the queue
 * empties in a few rounds; the side buckets only for a queue that does not (many equal
 * digits). */
static void M_(batch_drain_)(const msm_plan *pl, MSM_WORKER_T *s)
{
    if (pl->accum != CUZK_MSM_ACCUM_AFFINE)
        return;
    for (int r = 0; s->m > 0 && r < 16; r++)
        M_(aff_flush_)(s);
    M_(aff_finish_)(s);
}

/* Waits until the chain's group |gi| has had its links before |link| (false: the chain was
 * aborted). The wait is short: a worker reaches a link's tasks only after every task of the
 * links before was taken, so the one it waits for is running. */
static bool M_(chain_wait_)(MSM_CHAIN_T *ch, unsigned gi, unsigned link)
{
    for (unsigned spin = 0;; spin++) {
        if (atomic_load_explicit(&ch->aborted, memory_order_acquire))
            return false;
        if (atomic_load_explicit(&ch->done[gi], memory_order_acquire) == link)
            return true;
        if (spin < 256) {
#if defined(__x86_64__)
            _mm_pause();
#endif
        } else {
            sched_yield();
        }
    }
}

/* Task |gi| of a link: its points (bases, then images) into the chain's bucket set of window
 * group |gi| (emptied first by link 0), the batch emptied before the link's memory can go; the
 * last link reduces the sets into its window results. */
static void M_(linked_task_)(MSM_CTX_T *x, MSM_WORKER_T *s, unsigned gi)
{
    const msm_plan *pl = &x->plan;
    MSM_CHAIN_T *ch = x->chain;
    if (!M_(chain_wait_)(ch, gi, x->link))
        return;
    unsigned w0, w1;
    M_(group_windows_)(pl, gi, &w0, &w1);
    M_(worker_set_)(s, &ch->lay, pl->accum, ch->mem, gi);
    M_(task_begin_)(pl, s, w0, w1, x->link == 0);
    M_(accumulate_range_)(x, s, w0, w1, 0, x->n);
    M_(batch_drain_)(pl, s);
    if (x->link + 1 == ch->links)
        M_(task_reduce_)(x, s, w0, w1, 0, x->results);
    atomic_store_explicit(&ch->done[gi], x->link + 1, memory_order_release);
}

/* Worker |s| over region |wi|: buckets and batch state. */
static void M_(worker_init_)(MSM_WORKER_T *s, const MSM_CTX_T *x, size_t wi)
{
    const msm_layout *l = &x->lay;
    unsigned char *base = x->mem + l->workers + wi * l->worker;
    memset(s, 0, sizeof *s);
    s->nb = x->plan.gb;
    if (!x->plan.linked) /* a link's buckets are set per task */
        M_(worker_buckets_)(s, l, x->plan.accum, base, base + l->side);
    if (x->plan.accum == CUZK_MSM_ACCUM_AFFINE) {
        s->busy = (uint64_t *)(base + l->busy);
        s->ent = (MSM_ENTRY_T *)(base + l->ent);
        s->pre = (B_T *)(base + l->pre);
        s->q = (MSM_QITEM_T *)(base + l->queue);
        s->batch = x->plan.batch;
        s->qcap = x->plan.queue;
        memset(s->busy, 0, msm_words(s->nb) * sizeof(uint64_t));
    }
}

static void M_(msm_worker_)(void *vctx, size_t wi)
{
    MSM_CTX_T *x = vctx;
    MSM_WORKER_T s;
    M_(worker_init_)(&s, x, wi);
    for (;;) {
        size_t t = atomic_fetch_add(&x->next, 1);
        if (t >= x->plan.tasks)
            break;
        if (x->chain)
            M_(linked_task_)(x, &s, (unsigned)t);
        else if (x->cursor)
            M_(job_task_)(x, &s, t, false);
        else
            M_(msm_task_)(x, &s, t);
    }
    if (x->cursor)
        M_(help_)(x, &s);
}

/* Packed points src[lo .. hi) decoded into dst[lo .. hi) (M_(unpack_): no checks). */
static void M_(unpack_range_)(AFF_T *dst, const uint8_t *src, size_t lo, size_t hi)
{
    for (size_t i = lo; i < hi; i++)
        M_(unpack_)(&dst[i], src + i * MSM_PACKED_BYTES);
}

/*
 * Points lo .. hi of |b| decoded into dst[0 .. hi - lo): from memory, or read from the file into
 * the end of the destination itself and decoded forward (AFF_T is larger than a packed point,
 * so decoding point i, which reads it whole first, never overwrites a point not yet decoded).
 * Returns 0 or the read's errno (cuzk__pread_all).
 */
static int M_(unpack_read_)(AFF_T *dst, const cuzk__packed_bases *b, size_t lo, size_t hi)
{
    if (b->mem) {
        M_(unpack_range_)(dst, b->mem + lo * MSM_PACKED_BYTES, 0, hi - lo);
        return 0;
    }
    size_t m = hi - lo, bytes = m * MSM_PACKED_BYTES;
    uint8_t *stage = (uint8_t *)(dst + m) - bytes;
    int e = cuzk__pread_all(b->fd, stage, bytes, b->off + (uint64_t)lo * MSM_PACKED_BYTES);
    if (e == 0)
        M_(unpack_range_)(dst, stage, 0, m);
    return e;
}

/* The endomorphism images of bases[lo .. hi) into ext[(m - 1) stride + i], image m of point i
 * (stride: the points the images are made for, all of them or a slice). */
static void M_(images_)(AFF_T *ext, size_t stride, const AFF_T *bases, size_t lo, size_t hi)
{
    size_t i = lo;
#ifdef MSM_ENDO_IMAGES_X8 /* the group's 8-point images (IFMA), same results */
    if (cuzk__msm_use_ifma)
        for (; i + 8 <= hi; i += 8)
            M_(endo_images_x8_)(ext, stride, &bases[i], i);
#endif
    for (; i < hi; i++) {
        AFF_T img[MSM_ENDO_M - 1];
        M_(endo_images_)(img, &bases[i]);
        for (size_t m = 1; m < MSM_ENDO_M; m++)
            ext[(m - 1) * stride + i] = img[m - 1];
    }
}

/*
 * A one-thread MSM with its images in slices (msm_plan_slice): for each slice of base points,
 * their images into the slice buffer, then every window group's additions of the slice's points
 * and images into that group's own bucket set, with the batch emptied before the
 * buffer is written again; the running sums once at the end. The same additions as msm_task_'s,
 * in another order (equal sums), with (M - 1) slice_n images in memory instead of (M - 1) n.
 */
static int M_(msm_sliced_)(MSM_CTX_T *x)
{
    const msm_plan *pl = &x->plan;
    size_t n = pl->n;
    MSM_WORKER_T s;
    M_(worker_init_)(&s, x, 0); /* its batch state serves every group */
    for (size_t s0 = 0; s0 < n; s0 += pl->slice_n) {
        size_t len = n - s0 < pl->slice_n ? n - s0 : pl->slice_n;
        const AFF_T *base;
        if (pl->packed) { /* the slice's bases, decoded where the last slice's were */
            int e = M_(unpack_read_)(x->dec, &x->packed, s0, s0 + len);
            if (e)
                return e;
            base = x->dec;
        } else {
            base = x->bases + s0;
        }
        M_(images_)((AFF_T *)x->ext, len, base, 0, len);
        for (unsigned gi = 0; gi < pl->ngroups; gi++) {
            unsigned w0, w1;
            M_(group_windows_)(pl, gi, &w0, &w1);
            M_(worker_set_)(&s, &x->lay, pl->accum, x->mem, gi);
            M_(task_begin_)(pl, &s, w0, w1, s0 == 0);
            for (size_t m = 0; m < MSM_ENDO_M; m++)
                M_(accumulate_)
            (x, &s, w0, w1, m ? x->ext + (m - 1) * len : base, m * n + s0, len);
            /* No batch entry or queued point may refer to the slice when its images (and
             * decoded bases) are overwritten. */
            M_(batch_drain_)(pl, &s);
        }
    }
    for (unsigned gi = 0; gi < pl->ngroups; gi++) {
        unsigned w0, w1;
        M_(group_windows_)(pl, gi, &w0, &w1);
        M_(worker_set_)(&s, &x->lay, pl->accum, x->mem, gi);
        M_(task_reduce_)(x, &s, w0, w1, 0, x->results);
    }
    return 0;
}
