/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The one-pass L/A/B split for device backends (split_pairs.h). */
#include "groth16/split_pairs.h"
#include "cuzk/alloc.h"
#include "cuzk/field.h"

#include <stdbool.h>
#include <string.h>
#ifdef __BMI2__
#include <immintrin.h>
#endif

/* Aux words (64 values each) per task: 64 Ki values, 2 MiB of aux. */
#define SP_WORDS 1024

/* Bits of |v| where |m| is set, packed to the low end (BMI2's PEXT where the build has it). */
static inline uint64_t sp_pext(uint64_t v, uint64_t m)
{
    if (m == ~0ULL)
        return v; /* A's density is ~99.7 %: most words are whole */
#ifdef __BMI2__
    return _pext_u64(v, m);
#else
    uint64_t r = 0;
    for (uint64_t k = 1; m; m &= m - 1, k <<= 1)
        if (v & m & -m)
            r |= k;
    return r;
#endif
}

static inline unsigned sp_pop(uint64_t x)
{
    return (unsigned)__builtin_popcountll(x);
}

/* Appends bit strings to a bitmap from a position on: the first and the last word it writes may
 * be shared with the neighbouring tasks (atomic OR into words zeroed beforehand); the words
 * between are this task's alone (plain stores). */
typedef struct {
    uint64_t *bm;
    size_t word;
    uint64_t acc;
    unsigned fill; /* bits of acc in use, from word * 64 */
    bool first;
} sp_appender;

static void sp_app_init(sp_appender *a, uint64_t *bm, size_t pos)
{
    a->bm = bm;
    a->word = pos / 64;
    a->acc = 0;
    a->fill = (unsigned)(pos % 64);
    a->first = true;
}

static inline void sp_app_store(sp_appender *a)
{
    if (a->first) {
        __atomic_fetch_or(&a->bm[a->word], a->acc, __ATOMIC_RELAXED);
        a->first = false;
    } else {
        a->bm[a->word] = a->acc;
    }
    a->word++;
}

/* Appends the |nb| low bits of |bits| (none above them set). */
static inline void sp_app(sp_appender *a, uint64_t bits, unsigned nb)
{
    a->acc |= bits << a->fill;
    if (a->fill + nb < 64) {
        a->fill += nb;
        return;
    }
    sp_app_store(a);
    a->acc = a->fill ? bits >> (64 - a->fill) : 0;
    a->fill = a->fill + nb - 64;
}

static void sp_app_end(sp_appender *a)
{
    if (a->fill)
        __atomic_fetch_or(&a->bm[a->word], a->acc, __ATOMIC_RELAXED);
}

/* Per task: pairs of each query and the A and B positions (dense entries) in its words; after
 * the prefix sums, where they start. */
typedef struct {
    size_t pairs[CUZK__SPLIT_Q];
    size_t pos_a, pos_b;
} sp_task;

typedef struct {
    const cuzk_prover_data *pd;
    uint64_t *other;
    cuzk__split_query *q;
    sp_task *task;
    size_t words, tasks;
    size_t zero_words[2]; /* A's and B's bitmap words, zeroed in the first pass */
    uint64_t one[4];      /* Montgomery 1 */
} sp_ctx;

/* Word w's valid bits (the last word of aux may be partial). */
static inline uint64_t sp_mask(const sp_ctx *x, size_t w)
{
    size_t left = x->pd->n_aux - w * 64;
    return left >= 64 ? ~0ULL : (1ULL << left) - 1;
}

/* Pass 1: classify the aux values of task t's words into L's ones bitmap and |other|, count the
 * pairs and dense entries per query; zero a share of A's and B's bitmaps for pass 2. */
static void sp_classify(void *ctx, size_t t)
{
    sp_ctx *x = ctx;
    const cuzk_prover_data *pd = x->pd;
    size_t w0 = t * SP_WORDS, w1 = w0 + SP_WORDS < x->words ? w0 + SP_WORDS : x->words;
    sp_task s = {{0, 0, 0}, 0, 0};
    uint64_t *ones_l = x->q[CUZK__SPLIT_L].ones;
    const uint64_t o0 = x->one[0], o1 = x->one[1], o2 = x->one[2], o3 = x->one[3];
    for (size_t w = w0; w < w1; w++) {
        const uint64_t mask = sp_mask(x, w);
        const unsigned cnt = (unsigned)sp_pop(mask);
        const cuzk_fr_t *v = pd->aux + w * 64;
        uint64_t o = 0, z = 0;
        /* Without branches: 0 and 1 alternate at random in a partition's witness. */
        for (unsigned b = 0; b < cnt; b++) {
            const uint64_t *l = v[b].l;
            o |= (uint64_t)(((l[0] ^ o0) | (l[1] ^ o1) | (l[2] ^ o2) | (l[3] ^ o3)) == 0) << b;
            z |= (uint64_t)((l[0] | l[1] | l[2] | l[3]) == 0) << b;
        }
        const uint64_t oth = ~(o | z) & mask;
        ones_l[w] = o;
        x->other[w] = oth;
        const uint64_t da = pd->a_aux_density[w] & mask, db = pd->b_aux_density[w] & mask;
        s.pairs[CUZK__SPLIT_L] += sp_pop(oth);
        s.pairs[CUZK__SPLIT_A] += sp_pop(oth & da);
        s.pairs[CUZK__SPLIT_B] += sp_pop(oth & db);
        s.pos_a += sp_pop(da);
        s.pos_b += sp_pop(db);
    }
    x->task[t] = s;
    for (unsigned k = 0; k < 2; k++) {
        size_t nw = x->zero_words[k], lo = nw * t / x->tasks, hi = nw * (t + 1) / x->tasks;
        memset(x->q[1 + k].ones + lo, 0, (hi - lo) * sizeof(uint64_t));
    }
}

/* One dense query's share of aux word w: its ones appended, its other values as pairs. */
static inline void sp_dense(const cuzk_fr_t *v, uint64_t o, uint64_t oth, uint64_t d,
                            sp_appender *app, size_t *pos, cuzk__split_query *q, size_t *k)
{
    if (!d)
        return;
    const unsigned nb = sp_pop(d);
    sp_app(app, sp_pext(o, d), nb);
    for (uint64_t y = oth & d; y; y &= y - 1) {
        unsigned b = (unsigned)__builtin_ctzll(y);
        q->idx[*k] = (uint32_t)(*pos + sp_pop(d & ((1ULL << b) - 1)));
        q->vals[(*k)++] = v[b];
    }
    *pos += nb;
}

/* Pass 2: task t's pairs of L, A and B, and its stretch of A's and B's ones bitmaps. */
static void sp_fill(void *ctx, size_t t)
{
    sp_ctx *x = ctx;
    const cuzk_prover_data *pd = x->pd;
    size_t w0 = t * SP_WORDS, w1 = w0 + SP_WORDS < x->words ? w0 + SP_WORDS : x->words;
    const sp_task *s = &x->task[t];
    cuzk__split_query *ql = &x->q[CUZK__SPLIT_L], *qa = &x->q[CUZK__SPLIT_A],
                      *qb = &x->q[CUZK__SPLIT_B];
    size_t kl = s->pairs[CUZK__SPLIT_L], ka = s->pairs[CUZK__SPLIT_A], kb = s->pairs[CUZK__SPLIT_B];
    size_t pa = s->pos_a, pb = s->pos_b;
    sp_appender aa, ab;
    sp_app_init(&aa, qa->ones, pa);
    sp_app_init(&ab, qb->ones, pb);
    for (size_t w = w0; w < w1; w++) {
        const uint64_t mask = sp_mask(x, w), o = ql->ones[w], oth = x->other[w];
        const cuzk_fr_t *v = pd->aux + w * 64;
        for (uint64_t y = oth; y; y &= y - 1) {
            unsigned b = (unsigned)__builtin_ctzll(y);
            ql->idx[kl] = (uint32_t)(w * 64 + b);
            ql->vals[kl++] = v[b];
        }
        sp_dense(v, o, oth, pd->a_aux_density[w] & mask, &aa, &pa, qa, &ka);
        sp_dense(v, o, oth, pd->b_aux_density[w] & mask, &ab, &pb, qb, &kb);
    }
    sp_app_end(&aa);
    sp_app_end(&ab);
}

/* The inputs' share of a dense query (before the aux): positions from 0 on; serial, before the
 * tasks' fills (whose first word may be the inputs' last: they OR into it). Returns the pairs. */
static size_t sp_inputs(const cuzk_prover_data *pd, const uint64_t *dens, cuzk__split_query *q,
                        size_t *pos)
{
    size_t k = 0;
    for (size_t i = 0; i < pd->n_inputs; i++) {
        if (dens && !((dens[i / 64] >> (i % 64)) & 1))
            continue;
        const cuzk_fr_t *v = &pd->input[i];
        if (cuzk_fr_is_one(v))
            q->ones[*pos / 64] |= 1ULL << (*pos % 64);
        else if (!cuzk_fr_is_zero(v)) {
            q->idx[k] = (uint32_t)*pos;
            q->vals[k++] = *v;
        }
        ++*pos;
    }
    return k;
}

size_t cuzk__split_pairs_scratch(size_t n_aux)
{
    return (n_aux + 63) / 64 * sizeof(uint64_t);
}

cuzk_status cuzk__split_pairs(cuzk_pool *pool, const cuzk_prover_data *pd, uint64_t *other,
                              cuzk__split_query q[CUZK__SPLIT_Q])
{
    const size_t want[CUZK__SPLIT_Q] = {pd->n_aux, pd->n_inputs + pd->a_aux_popcount,
                                        pd->b_input_popcount + pd->b_aux_popcount};
    for (unsigned k = 0; k < CUZK__SPLIT_Q; k++) {
        if (q[k].n != want[k])
            return cuzk_fail(CUZK_ERR_INVALID_ARG,
                             "split: query %u has %zu positions, the witness %zu", k, q[k].n,
                             want[k]);
        if (q[k].n > (size_t)UINT32_MAX + 1)
            return cuzk_fail(CUZK_ERR_INVALID_ARG, "split: %zu positions exceed 32-bit indices",
                             q[k].n);
        q[k].m = 0;
    }
    sp_ctx x = {.pd = pd, .other = other, .q = q};
    x.words = (pd->n_aux + 63) / 64;
    x.tasks = (x.words + SP_WORDS - 1) / SP_WORDS;
    x.zero_words[0] = (q[CUZK__SPLIT_A].n + 63) / 64;
    x.zero_words[1] = (q[CUZK__SPLIT_B].n + 63) / 64;
    cuzk_fr_t one;
    cuzk_fr_set_one(&one);
    memcpy(x.one, one.l, sizeof x.one);
    if (!x.tasks) { /* no aux: the inputs alone */
        memset(q[CUZK__SPLIT_A].ones, 0, x.zero_words[0] * sizeof(uint64_t));
        memset(q[CUZK__SPLIT_B].ones, 0, x.zero_words[1] * sizeof(uint64_t));
    } else {
        if (!(x.task = cuzk_alloc_array(x.tasks, sizeof *x.task)))
            return cuzk_fail(CUZK_ERR_NOMEM, "split: out of memory");
        cuzk_pool_run(pool, x.tasks, sp_classify, &x);
    }
    size_t pos_a = 0, pos_b = 0;
    size_t pairs[CUZK__SPLIT_Q] = {0, sp_inputs(pd, NULL, &q[CUZK__SPLIT_A], &pos_a),
                                   sp_inputs(pd, pd->b_input_density, &q[CUZK__SPLIT_B], &pos_b)};
    /* Prefix sums: where each task's pairs and positions start. */
    for (size_t t = 0; t < x.tasks; t++) {
        sp_task c = x.task[t];
        for (unsigned k = 0; k < CUZK__SPLIT_Q; k++) {
            x.task[t].pairs[k] = pairs[k];
            pairs[k] += c.pairs[k];
        }
        x.task[t].pos_a = pos_a;
        x.task[t].pos_b = pos_b;
        pos_a += c.pos_a;
        pos_b += c.pos_b;
    }
    cuzk_status s = CUZK_OK;
    if (pos_a != q[CUZK__SPLIT_A].n || pos_b != q[CUZK__SPLIT_B].n)
        s = cuzk_fail(CUZK_ERR_INVALID_ARG,
                      "split: the density bitmaps hold %zu / %zu entries, their counts %zu / %zu",
                      pos_a, pos_b, q[CUZK__SPLIT_A].n, q[CUZK__SPLIT_B].n);
    else if (x.tasks)
        cuzk_pool_run(pool, x.tasks, sp_fill, &x);
    if (s == CUZK_OK)
        for (unsigned k = 0; k < CUZK__SPLIT_Q; k++)
            q[k].m = pairs[k];
    cuzk_free(x.task);
    return s;
}
