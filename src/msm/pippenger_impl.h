/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * CPU multi-scalar multiplication and bitmap batch addition, written once and instantiated per
 * group (the habit of src/curve/point_impl.h): a .c file defines the parameter macros below and
 * includes this file, which defines the functions of include/cuzk/msm.h for that group.
 * No include guard on purpose; the group-independent half is src/msm/msm_common.h, the tasks
 * (accumulation, running sums, workers, the sliced one-thread run) src/msm/msm_tasks_impl.h.
 *
 * Parameters (all required):
 *   M_(name)        public name for the group, e.g. cuzk_g1_##name
 *   F_T             field element type of the coordinates
 *   F_ONE F_IS_ZERO F_EQ F_ADD F_SUB F_DBL F_NEG F_MUL F_SQR
 *                   field operations with the cuzk_fp_* signatures
 *   B_T B_ONE B_MUL B_INV
 *                   the base field (Fp), where batch inversions run
 *   F_NORM(B_T *n, const F_T *a), F_INV_FROM_NORM(F_T *inv, const F_T *a, const B_T *ninv)
 *                   n = N(a), an element of the base field whose inverse gives a's; then
 *                   inv = 1/a from ninv = 1/N(a)
 *   AFF_T JAC_T XYZZ_T  point types
 *   MSM_INV_COST    cost of B_INV in F_T multiplications (measured, see the .c file)
 *   MSM_ENDO_M MSM_ENDO_LIMBS MSM_ENDO_BITS MSM_ENDO_MAX_N
 *                   the endomorphism split: pieces per scalar, 64-bit limbs per piece, the
 *                   most bits a piece has, and the most points it applies to by itself
 *   msm_endo_split(uint64_t out[M * LIMBS], const uint64_t k[4])
 *                   pieces of a canonical k < r: k P = sum_m piece_m Q_m
 *   M_(endo_images_)(AFF_T out[M - 1], const AFF_T *p)
 *                   Q_1 .. Q_{M-1} for Q_0 = p (infinity maps to infinity)
 *   MSM_PACKED_BYTES
 *                   bytes of a packed point (src/msm/msm_packed.h): AFF_T's coordinates
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
 * Window groups: a task may take g consecutive windows at once (g x 2^(c-1) buckets), so one
 * scalar conversion serves g digits and a batch-affine batch can span all g windows' buckets.
 * This matters at small n: at 2^12 points (c = 10, 512 buckets per window) one window allows
 * batches of 128 additions, each paying 1/128 of a ~450 M inversion; 13 windows together fill
 * batches of 1,664 (MSM_BATCH_MAX is 2,048). g is bounded by MSM_GROUP_MAX and by
 * MSM_GROUP_BYTES of buckets.
 *
 * Window choice (cost model, in field multiplications M of the group):
 *     time(c, g, k) = ceil(ceil(nwin / g) * k / threads) * ((n / k) * g * A + g 2^(c-1) * R)
 *                     + nwin * k * J
 * with k point chunks per window group, A the cost of one bucket addition (XYZZ: 10 + 1.5
 * overhead; AFFINE: 8.5 + MSM_INV_COST / batch + 1.5, batch from g 2^(c-1) buckets), R the
 * running-sum cost per bucket (28 with XYZZ buckets, 24 with affine ones) and J one Jacobian
 * addition to combine task results. The planner tries every c up to MSM_AUTO_MAX_WINDOW
 * (capped at bits + 1), both strategies (AUTO; AFFINE only from MSM_AFFINE_MIN_BUCKETS buckets
 * per task up), every g and k up to 2 * threads / ceil(nwin / g), and keeps the cheapest (ties:
 * the smallest g). The constants were fitted to the measurements in docs/PERFORMANCE.md, "CPU MSM
 * (issue 3)": G1 picks XYZZ up to about 2^13 points and AFFINE above (c = 13 at 2^16, 15 at
 * 2^18, 16 at 2^20, 20 from 2^24), where AFFINE measured 1.2-1.3x faster than XYZZ. The model
 * prices every window alike, but the top window holds only the scalars' last bits: AFFINE plans
 * whose top window has fewer digits than one batch's additions to it are avoided in favour of
 * another AFFINE plan (msm_plan_make, msm_top_window_thin in src/msm/msm_common.h).
 *
 * Endomorphism split (cuzk_msm_opts.endo; automatic up to MSM_ENDO_MAX_N points when the
 * scalars are wider than a piece): each scalar becomes MSM_ENDO_M pieces (G1: k = s + q z with
 * -phi(P) for the second point; G2: four base-|x| digits with +-psi^m(P)), the images are
 * computed once per call into the working memory (a one-thread MSM with several window groups:
 * slice by slice, msm_plan_slice in src/msm/msm_common.h), and the MSM runs over MSM_ENDO_M x n
 * points
 * with 128-bit (G1) or 64-bit (G2) scalars: as many bucket additions, but a half (a quarter)
 * of the windows and so of the running sums, and no fold. Measured at 2^12 (callgrind, one
 * thread): G1 -14 %, G2 -15 % instructions; at 2^16 (G1) and 2^14 (G2) -9 % / -19 % CPU time.
 *
 * Scalars: a scalar k above (r-1)/2 is applied as r - k to the negated point (msm_scalar), so
 * scalars below r have at most 254 bits. One parallel pass ORs all applied scalars to find the
 * largest bit length |bits| (0/1 or small scalars then need few windows). Montgomery scalars are
 * converted to canonical form on the fly, per block of points and window (a 4-step Montgomery
 * reduction, about 20 integer multiplications): no converted copy is allocated, and the measured
 * cost of this against raw scalars was within noise.
 *
 * Memory, allocated once per call (or supplied by the caller): the window results, packed
 * bases decoded (or one slice of them), the endomorphism images (or one slice of them) and
 * pieces when split, and per worker
 * the buckets with 1-bit "used" maps (so no bucket is cleared between tasks), plus for AFFINE
 * the batch entries, prefix products, the conflict queue and, last, the side XYZZ buckets
 * (touched only on queue overflow); a sliced MSM has one bucket set per window group instead. G1 at
 * 2^20 (c = 16): 3.3 MiB of affine buckets, 6 MiB of side buckets (mostly never touched), 0.1 MiB
 * of batch state per worker.
 *
 * 8 lanes (AVX-512 IFMA, when the library is built with it and the group defines MSM_BATCH_X8):
 * a batch of affine additions runs 8 at a time (src/msm/batch_affine_x8.h: 8 interleaved prefix
 * chains sharing one inversion) and the affine buckets' running sums 8 windows or window
 * segments at a time (src/msm/reduce_x8.h); same results as the scalar code, which stays the
 * reference (cuzk__msm_use_ifma, src/msm/msm_ifma.h). Measured in docs/PERFORMANCE.md, CPU MSM.
 *
 * Jobs (src/msm/msm_job.h, G1): the one-thread plan, prepared once, whose tasks threads that
 * join at different times take from the shared counter, each with its own bucket set; the
 * snarkjs prover's two lanes share its four G1 MSMs that way.
 *
 * Batch addition (bitmap): |lanes| affine accumulators per worker; the selected points are
 * dealt round-robin to the lanes, so each round is |lanes| independent affine additions that
 * share one inversion. At the end the lanes are summed in XYZZ. The bitmap is split into
 * chunks of words taken from an atomic counter; worker sums are combined in Jacobian.
 */

#include "msm/msm_common.h"

/* Short names for this group's internal types (macros keep the declarations readable). */
#define MSM_ENTRY_T M_(entry_t_)
#define MSM_QITEM_T M_(qitem_t_)
#define MSM_WORKER_T M_(worker_t_)
#define MSM_CTX_T M_(msm_ctx_t_)
#define MSM_CHAIN_T M_(chain_t_)
#define MSM_BADD_CTX_T M_(badd_ctx_t_)

/* ---- per-group part ------------------------------------------------------------------------ */

/* One addition of a batch: *dst += (neg ? -src : src). */
typedef struct {
    AFF_T *dst;
    const AFF_T *src;
    uint32_t neg;
    uint32_t kind;
} MSM_ENTRY_T;

/* A point waiting for its bucket to leave the current batch. */
typedef struct {
    const AFF_T *src;
    uint32_t b;
    uint32_t neg;
} MSM_QITEM_T;

/* Batch state per addition: 2 base-field elements (prefix product, norm); the 8-lane code keeps
 * per block of 8 entries a prefix (and for G2 a norm) of 8 x 64 bytes and the two x coordinates
 * (src/msm/batch_affine_x8.h): (512 + 1024) / 8 bytes per entry for G1, (1024 + 2048) / 8 for
 * G2. Regions hold MSM_PRE_SLACK entries more, so a last partial block fits. */
#if defined(MSM_BATCH_X8) && MSM_BATCH_X8 == 2
#define MSM_PRE_BYTES 384
#elif defined(MSM_BATCH_X8)
#define MSM_PRE_BYTES 192
#else
#define MSM_PRE_BYTES (2 * sizeof(B_T))
#endif
static const msm_group M_(group_) = {sizeof(AFF_T), sizeof(XYZZ_T),      sizeof(JAC_T),
                                     sizeof(F_T),   sizeof(MSM_ENTRY_T), sizeof(MSM_QITEM_T),
                                     MSM_PRE_BYTES, MSM_INV_COST};

/*
 * Performs the |m| independent affine additions of |ent| with one inversion (Montgomery's
 * trick). Each dst appears at most once and is not at infinity; src is not at infinity.
 * The trick runs on the norms N(den) in the base field (G1: den itself; G2: den times its
 * conjugate, so 1/den = conj(den) / N(den) and the prefix products are Fp, not Fp2,
 * multiplications: 7 instead of 9 Fp multiplications per addition for the inverse). |pre|
 * holds 2m base-field elements: prefix product and norm of each entry. Cost per addition:
 * 5M + 1S + 7 subtractions (G1), plus the shared inversion.
 */
#ifdef MSM_BATCH_X8
#include "msm/batch_affine_x8.h"
#endif

static void M_(batch_apply_)(MSM_ENTRY_T *ent, size_t m, B_T *pre)
{
#ifdef MSM_BATCH_X8
    if (m >= MSM_X8_MIN && cuzk__msm_use_ifma) {
        M_(batch_apply_x8_)(ent, m, pre);
        return;
    }
#endif
    F_T den, num, py;
    B_T acc;
    size_t live = 0;
    B_ONE(&acc);
    for (size_t k = 0; k < m; k++) {
        MSM_ENTRY_T *e = &ent[k];
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
        pre[2 * k] = acc;
        F_NORM(&pre[2 * k + 1], &den);
        B_MUL(&acc, &acc, &pre[2 * k + 1]);
        live++;
    }
    if (!live)
        return;
    B_INV(&acc, &acc);
    for (size_t k = m; k-- > 0;) {
        MSM_ENTRY_T *e = &ent[k];
        if (e->kind == MSM_KIND_CANCEL)
            continue;
        AFF_T *a = e->dst;
        const AFF_T *p = e->src;
        F_T inv, lam, x3;
        B_T ninv;
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
        B_MUL(&ninv, &acc, &pre[2 * k]);    /* 1 / N_k */
        B_MUL(&acc, &acc, &pre[2 * k + 1]); /* 1 / (N_0 ... N_{k-1}) */
        F_INV_FROM_NORM(&inv, &den, &ninv);
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

/*
 * XYZZ arithmetic with the inline field helpers of this file (the library's cuzk_gX_xyzz_*
 * use out-of-line field additions: callgrind put them at 18 % (G1) and, through the running
 * sums, 40 % (G2) of a 2^12-point MSM). The formulas themselves are src/curve/xyzz_formulas.h,
 * shared with the library; outputs may alias inputs.
 */
static inline bool M_(x_inf_)(const XYZZ_T *p)
{
    return F_IS_ZERO(&p->zz);
}

#define XF_(name) M_(x_##name##_)
#define XF_LINK static inline
#define XF_IS_INF(p) M_(x_inf_)(p)
#define XF_SET_INF(out) M_(xyzz_set_infinity)(out)
#include "curve/xyzz_formulas.h"

/* *out = p + q for affine q not at infinity. */
static inline void M_(x_madd_)(XYZZ_T *out, const XYZZ_T *p, const AFF_T *q)
{
    if (M_(x_inf_)(p)) {
        out->x = q->x;
        out->y = q->y;
        F_ONE(&out->zz);
        F_ONE(&out->zzz);
        return;
    }
    M_(x_madd_core_)(out, p, q);
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
    MSM_ENTRY_T *ent;
    B_T *pre;
    MSM_QITEM_T *q;
    size_t m, qn, batch, qcap, nb;
} MSM_WORKER_T;

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
        M_(x_madd_)(&bk[b], &bk[b], q);
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
static inline bool M_(aff_place_)(MSM_WORKER_T *s, const AFF_T *p, uint32_t b, uint32_t neg)
{
    if (msm_bit_get(s->busy, b)) {
        if (s->qn < s->qcap)
            s->q[s->qn++] = (MSM_QITEM_T){p, b, neg};
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
    /* Both operands are next read when the batch is applied, ~|batch| points later: the
     * base's x and y lines may not have been touched yet (placing reads only its flag). */
    M_(prefetch_)(a, sizeof *a);
    M_(prefetch_)(p, sizeof *p);
    msm_bit_set(s->busy, b);
    s->ent[s->m++] = (MSM_ENTRY_T){a, p, neg, MSM_KIND_ADD};
    return s->m == s->batch;
}

/* Applies the batch, then retries the queued points (qcap < batch, so they cannot fill it). */
static void M_(aff_flush_)(MSM_WORKER_T *s)
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
        MSM_QITEM_T it = s->q[i]; /* qn <= i: a re-queued item never overwrites an unread one */
        (void)M_(aff_place_)(s, it.src, it.b, it.neg);
    }
}

static void M_(aff_finish_)(MSM_WORKER_T *s)
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

#ifdef MSM_BATCH_X8
#include "msm/reduce_x8.h"
#endif

/* Window sum sum_b (b+1) B_b of the |nb| buckets from |lo| by running sums from the top bucket
 * down: 2 additions per bucket. */
static void M_(reduce_)(JAC_T *out, const MSM_WORKER_T *s, cuzk_msm_accum accum, size_t lo,
                        size_t nb)
{
    XYZZ_T run, tot;
    M_(xyzz_set_infinity)(&run);
    M_(xyzz_set_infinity)(&tot);
    for (size_t b = lo + nb; b-- > lo;) {
        if (accum == CUZK_MSM_ACCUM_XYZZ) {
            if (msm_bit_get(s->used, b))
                M_(x_add_)(&run, &run, (const XYZZ_T *)s->bk + b);
        } else {
            if (msm_bit_get(s->used, b))
                M_(x_madd_)(&run, &run, (const AFF_T *)s->bk + b);
            if (msm_bit_get(s->side_used, b))
                M_(x_add_)(&run, &run, &s->side[b]);
        }
        M_(x_add_)(&tot, &tot, &run);
    }
    M_(xyzz_to_jac)(out, &tot);
}

/* A packed point (src/msm/msm_packed.h: x then y as little-endian limbs, all zero for
 * infinity) as AFF_T, whose coordinates are those limbs in the same order. Nothing is checked. */
_Static_assert(offsetof(AFF_T, y) == sizeof(((AFF_T *)0)->x) &&
                   2 * sizeof(((AFF_T *)0)->x) == MSM_PACKED_BYTES,
               "AFF_T's coordinates are not the packed point's layout");
static inline void M_(unpack_)(AFF_T *out, const uint8_t *in)
{
    uint64_t w[MSM_PACKED_BYTES / 8], acc = 0;
    memcpy(w, in, sizeof w);
    for (size_t k = 0; k < MSM_PACKED_BYTES / 8; k++) {
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
        w[k] = __builtin_bswap64(w[k]);
#endif
        acc |= w[k];
    }
    memcpy(out, w, sizeof w);
    out->infinity = acc == 0;
}

/* ---- the tasks: accumulation, running sums, workers, the sliced run ---------------------- */
#include "msm/msm_tasks_impl.h"

/*
 * The plan and memory layout for |n| scalars of at most |bits| bits (after the fold): with the
 * endomorphism split (MSM_ENDO_M pieces of at most MSM_ENDO_BITS bits per scalar) when forced,
 * or automatically when the scalars are wider than a piece and n is at most MSM_ENDO_MAX_N.
 * Measured at 2^12 points (docs/PERFORMANCE.md, "CPU MSM"): the split halves (G1) or quarters
 * (G2) the windows, hence the running sums, for the same number of bucket additions. |workers|
 * > 0: an MSM job's plan (msm_plan_split_groups) with that many bucket sets, whatever the plan's
 * thread count, and at least |split| point chunks per window (msm_plan_split_chunks).
 */
static bool M_(msm_setup_)(msm_plan *p, msm_layout *l, size_t n, unsigned threads, unsigned bits,
                           const cuzk_msm_opts *o, unsigned workers, unsigned split, bool packed)
{
    bool endo = o->endo == CUZK_MSM_ENDO_ON ||
                (o->endo == CUZK_MSM_ENDO_AUTO && n <= MSM_ENDO_MAX_N && bits > MSM_ENDO_BITS);
    if (endo && n > SIZE_MAX / MSM_ENDO_M)
        return false;
    if (endo) {
        msm_plan_make(p, &M_(group_), MSM_ENDO_M * n, threads, MSM_ENDO_BITS, o);
        p->endo = MSM_ENDO_M;
        p->n = n;
    } else {
        msm_plan_make(p, &M_(group_), n, threads, bits, o);
    }
    p->packed = packed;
    if (workers) {
        msm_plan_split_groups(p, endo ? MSM_ENDO_BITS : bits);
        msm_plan_split_chunks(p, split);
        p->workers = workers;
        p->helpers = workers > 1;
    } else {
        msm_plan_slice(p, sizeof(AFF_T));
    }
    return msm_layout_make(l, p, &M_(group_), MSM_ENDO_LIMBS);
}

/* The largest working memory of msm_setup_'s plans over all scalar bit lengths (the plan
 * depends on the largest scalar; SIZE_MAX when a size overflows). Every bit length that takes
 * the endomorphism split has the same plan, so the loop stops at the first: half the plans for
 * G1 (~0.5 instead of ~1 ms at 2^16), a quarter for G2. */
static size_t M_(scratch_most_)(size_t n, unsigned threads, const cuzk_msm_opts *o,
                                unsigned workers, unsigned split, bool packed)
{
    size_t most = 0;
    for (unsigned bits = 1; bits <= 256; bits++) {
        msm_plan p;
        msm_layout l;
        if (!M_(msm_setup_)(&p, &l, n, threads, bits, o, workers, split, packed))
            return SIZE_MAX;
        if (l.total > most)
            most = l.total;
        if (p.endo > 1)
            break;
    }
    return most;
}

/* The endomorphism split of points [lo, hi): pieces into |sub|, images into |ext|; packed
 * bases decoded into |dec| first (|bases| is |dec| then). With no split (|sub| NULL) only the
 * decoding. */
typedef struct {
    const AFF_T *bases;
    const msm_scalars *sc;
    size_t n, chunks;
    uint64_t *sub;
    AFF_T *ext;
    const cuzk__packed_bases *packed;
    AFF_T *dec;
    _Atomic int err; /* a read of packed bases failed: its errno */
} M_(split_ctx_t_);

static void M_(split_chunk_)(void *vctx, size_t j)
{
    M_(split_ctx_t_) *x = vctx;
    size_t lo = msm_chunk_start(x->n, x->chunks, j), hi = msm_chunk_start(x->n, x->chunks, j + 1);
    if (x->dec) {
        int e = M_(unpack_read_)(x->dec + lo, x->packed, lo, hi);
        if (e) {
            atomic_store(&x->err, e);
            return;
        }
    }
    for (size_t i = lo; x->sub && i < hi; i++) {
        uint64_t k[4], piece[MSM_ENDO_M * MSM_ENDO_LIMBS];
        msm_scalar_mod_r(k, x->sc, i);
        msm_endo_split(piece, k);
        for (size_t m = 0; m < MSM_ENDO_M; m++)
            memcpy(x->sub + (m * x->n + i) * MSM_ENDO_LIMBS, piece + m * MSM_ENDO_LIMBS,
                   MSM_ENDO_LIMBS * sizeof(uint64_t));
    }
    if (x->ext) /* a sliced MSM makes its images slice by slice */
        M_(images_)(x->ext, x->n, x->bases, lo, hi);
}

/*
 * Everything of an MSM before its tasks: checks, bit length, plan, working memory (*owned, to
 * free), the endomorphism split (on |pool|). |workers| and |split| as for msm_setup_. With no
 * scalar bits the plan has no tasks and the sum is infinity. A link of |chain| (link |link|)
 * takes the chain's plan and always has its tasks, even with no points or no scalar bits: the
 * links after it wait for them.
 */
static cuzk_status M_(msm_prepare_)(MSM_CTX_T *x, void **owned, const AFF_T *bases,
                                    const cuzk__packed_bases *packed, const msm_scalars *sc,
                                    size_t n, cuzk_pool *pool, const cuzk_msm_opts *o,
                                    unsigned workers, unsigned split, MSM_CHAIN_T *chain,
                                    unsigned link)
{
    memset(x, 0, sizeof *x);
    *owned = NULL;
    if (n > 0 && ((!bases && !packed) || (packed && !packed->mem && packed->fd < 0) ||
                  (!sc->raw && !sc->mont)))
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "msm: NULL bases or scalars with n = %zu", n);
    cuzk_status st = msm_check_opts(o);
    if (st != CUZK_OK)
        return st;
    unsigned bits = n && !chain ? msm_max_bits(sc, n, pool) : 0;
    atomic_init(&x->next, 0);
    if (bits == 0 && !chain)
        return CUZK_OK; /* x->plan.tasks = 0, nwin = 0: the sum is infinity */
    if (o->endo > CUZK_MSM_ENDO_ON)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "msm: unknown endomorphism mode %d", (int)o->endo);
    x->bases = packed ? NULL : bases;
    if (packed)
        x->packed = *packed;
    x->sc = *sc;
    x->n = x->n0 = n;
    if (chain) {
        x->chain = chain;
        x->link = link;
        x->plan = chain->plan;
        x->plan.n = n;
        x->plan.packed = packed != NULL;
        x->plan.linked = true;
        x->plan.helpers = false; /* a link's buckets are shared: one worker per task */
        if (!msm_layout_make(&x->lay, &x->plan, &M_(group_), MSM_ENDO_LIMBS))
            return cuzk_fail(CUZK_ERR_NOMEM, "msm: working memory size overflows");
    } else if (!M_(msm_setup_)(&x->plan, &x->lay, n, cuzk_pool_threads(pool), bits, o, workers,
                               split, packed != NULL)) {
        return cuzk_fail(CUZK_ERR_NOMEM, "msm: working memory size overflows");
    }
    st = msm_get_memory(&x->mem, owned, x->lay.total, o, "msm");
    if (st != CUZK_OK)
        return st;
    x->results = (JAC_T *)(x->mem + x->lay.results);
    bool sliced = x->plan.slices > 1;
    if (packed) {
        x->dec = (AFF_T *)(x->mem + x->lay.dec);
        if (!sliced) /* decoded whole below; a sliced MSM decodes each slice as it comes */
            x->bases = x->dec;
    }
    if (x->plan.endo > 1 || (packed && !sliced)) {
        bool endo = x->plan.endo > 1;
        AFF_T *ext = (AFF_T *)(x->mem + x->lay.ext);
        M_(split_ctx_t_)
        sx = {x->bases,
              sc,
              n,
              0,
              endo ? (uint64_t *)(x->mem + x->lay.sub) : NULL,
              endo && !sliced ? ext : NULL,
              packed,
              packed && !sliced ? x->dec : NULL,
              0};
        size_t threads = cuzk_pool_threads(pool);
        sx.chunks = n < 64 * threads ? 1 : 4 * threads;
        cuzk_pool_run(pool, sx.chunks, M_(split_chunk_), &sx);
        int e = atomic_load(&sx.err);
        if (e)
            return msm_read_fail(e); /* *owned is the caller's to free */
        if (endo) {
            x->ext = ext;
            x->n = MSM_ENDO_M * n;
            x->sc = (msm_scalars){NULL, NULL, sx.sub, MSM_ENDO_LIMBS, NULL};
        }
    }
    if (x->plan.helpers) { /* each task's cursor at its first point (of the final n) */
        x->hres = (JAC_T *)(x->mem + x->lay.hres);
        x->cursor = (_Atomic size_t *)(x->mem + x->lay.cursor);
        x->helped = (_Atomic unsigned *)(x->mem + x->lay.helped);
        for (size_t t = 0; t < x->plan.tasks; t++) {
            atomic_init(&x->cursor[t], msm_chunk_start(x->n, x->plan.chunks, t % x->plan.chunks));
            atomic_init(&x->helped[t], 0u);
        }
    }
    return CUZK_OK;
}

/* Horner over the window sums of finished tasks: acc = 2^c acc + (window sum), top window
 * first. */
static void M_(msm_combine_)(JAC_T *out, const MSM_CTX_T *x)
{
    JAC_T acc;
    M_(jac_set_infinity)(&acc);
    for (unsigned w = x->plan.nwin; w-- > 0;) {
        if (!M_(jac_is_infinity)(&acc))
            for (unsigned i = 0; i < x->plan.c; i++)
                M_(dbl)(&acc, &acc);
        for (size_t j = 0; j < x->plan.chunks; j++) {
            size_t r = (size_t)w * x->plan.chunks + j, t = w / x->plan.group * x->plan.chunks + j;
            M_(add)(&acc, &acc, &x->results[r]);
            if (x->cursor && atomic_load(&x->helped[t]))
                M_(add)(&acc, &acc, &x->hres[r]);
        }
    }
    /* Packed bases are a file's bytes that may change under a loaded key (checked at load, not
     * here): a sum off the curve is then bad input, which the prover's self-verification
     * refuses, not a bug in the MSM. */
    CUZK_VERIFY_CHECK(x->plan.packed || M_(is_on_curve)(&acc));
    *out = acc;
}

static cuzk_status M_(msm_run_)(JAC_T *out, const AFF_T *bases, const cuzk__packed_bases *packed,
                                const msm_scalars *sc, size_t n, cuzk_pool *pool,
                                const cuzk_msm_opts *opts)
{
    static const cuzk_msm_opts defaults = {0};
    const cuzk_msm_opts *o = opts ? opts : &defaults;
    if (!out)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "msm: |out| is NULL");
    MSM_CTX_T x;
    void *owned;
    cuzk_status st = M_(msm_prepare_)(&x, &owned, bases, packed, sc, n, pool, o, 0, 0, NULL, 0);
    int e = 0;
    if (st == CUZK_OK) {
        if (x.plan.tasks && x.plan.slices > 1)
            e = M_(msm_sliced_)(&x);
        else if (x.plan.tasks)
            cuzk_pool_run(pool, x.plan.workers, M_(msm_worker_), &x);
        if (e)
            st = msm_read_fail(e);
        else
            M_(msm_combine_)(out, &x);
    }
    cuzk_free(owned);
    return st;
}

/* ---- batch addition over a bitmap (badd_run_) ----------------------------------------------- */
#include "msm/batch_add_impl.h"

/* ---- the MSM job and the public entry points ---------------------------------------------- */
#include "msm/pippenger_api.h"

#undef MSM_ENTRY_T
#undef MSM_QITEM_T
#undef MSM_WORKER_T
#undef MSM_CTX_T
#undef MSM_CHAIN_T
#undef MSM_BADD_CTX_T
