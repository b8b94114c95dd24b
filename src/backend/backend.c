/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Backend selection, the CPU implementation (src/poly + src/msm over a thread pool) and the CUDA
 * one (src/gpu through gpu/gpu.h, with the CPU as fallback where the device cannot do a call). */
#include "cuzk/backend.h"
#include "backend/resident.h"
#include "cuzk/alloc.h"
#include "cuzk/msm.h"
#include "gpu/gpu.h"
#include "gpu/gpu_msm.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* Domains the device H step takes; smaller ones cost more in transfers and launches than on the
 * CPU. */
#define BACKEND_GPU_H_MIN_LOG 10

/* Threads of a deferred scratch wipe, and the piece each takes in turn: a few threads reach most
 * of a host's memset bandwidth without taking the pool the next proof runs on. */
#define BACKEND_WIPE_THREADS 4
#define BACKEND_WIPE_PIECE ((size_t)64 << 20)

/* A parameter array kept in device memory (cuzk_backend_keep_resident): a reference to the
 * device's copy, shared with the device's other backends (resident.c). */
typedef struct {
    const void *host;
    size_t n;
    bool g2;
    cuzk_shared_bases *sh;
} resident_set;

#define BACKEND_MAX_RESIDENT 32

struct cuzk_backend {
    cuzk_backend_kind kind;
    cuzk_pool *pool;
    int device; /* CUDA ordinal, -1 for the CPU backend */
    pthread_mutex_t lock; /* guards the resident table, not the calls that use it */
    resident_set resident[BACKEND_MAX_RESIDENT];
    size_t n_resident;
    unsigned h_rows; /* cuzk_backend_set_h_rows */
    struct {
        void *p;
        size_t bytes;
        bool pinned;
    } scratch[CUZK_BACKEND_SCRATCH_SLOTS];
    /* cuzk_backend_scratch_wipe_async: ranges being wiped by wipe_th[0 .. n_wipe_th). */
    struct {
        void *p;
        size_t bytes;
    } wipe_r[CUZK_BACKEND_SCRATCH_SLOTS];
    unsigned n_wipe_r, n_wipe_th;
    pthread_t wipe_th[BACKEND_WIPE_THREADS];
    struct wipe_arg {
        cuzk_backend *be;
        unsigned k, K; /* piece k, k + K, ... */
    } wipe_arg[BACKEND_WIPE_THREADS];
};

/* One stderr note per process and reason when a CUDA backend call runs on the CPU instead. */
static void fallback_note(atomic_bool *said, const char *what)
{
    if (!atomic_exchange(said, true))
        fprintf(stderr, "cuzk: cuda backend: %s on the CPU (%s)\n", what, cuzk_last_error());
}

cuzk_status cuzk_backend_parse_kind(const char *name, cuzk_backend_kind *out)
{
    if (strcmp(name, "auto") == 0)
        *out = CUZK_BACKEND_AUTO;
    else if (strcmp(name, "cpu") == 0)
        *out = CUZK_BACKEND_CPU;
    else if (strcmp(name, "cuda") == 0)
        *out = CUZK_BACKEND_CUDA;
    else
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "unknown backend '%s' (auto, cpu or cuda)", name);
    return CUZK_OK;
}

bool cuzk_backend_cuda_compiled(void)
{
    return cuzk_gpu_compiled();
}

bool cuzk_backend_cuda_usable(void)
{
    return cuzk_gpu_available();
}

cuzk_status cuzk_backend_create(cuzk_backend **out, cuzk_backend_kind kind, unsigned threads)
{
    return cuzk_backend_create_on(out, kind, threads, -1);
}

cuzk_status cuzk_backend_create_on(cuzk_backend **out, cuzk_backend_kind kind, unsigned threads,
                                   int device)
{
    *out = NULL;
    if (kind != CUZK_BACKEND_AUTO && kind != CUZK_BACKEND_CPU && kind != CUZK_BACKEND_CUDA)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "unknown backend kind %d", (int)kind);
    int dev = -1;
    if (kind == CUZK_BACKEND_CUDA || kind == CUZK_BACKEND_AUTO) {
        cuzk_gpu_device_info info;
        int ord = device < 0 ? cuzk_gpu_default_device() : device;
        cuzk_status s = cuzk_gpu_get_device_info(ord, &info);
        if (s == CUZK_OK)
            dev = ord;
        else if (kind == CUZK_BACKEND_CUDA)
            return !cuzk_gpu_compiled()
                       ? cuzk_fail(CUZK_ERR_NO_DEVICE,
                                   "the CUDA backend is not compiled into this binary (no nvcc "
                                   "at build time, or CUDA=0); use --backend cpu or auto")
                       : s;
    }
    cuzk_backend *be = cuzk_alloc(sizeof *be);
    if (!be)
        return cuzk_fail(CUZK_ERR_NOMEM, "cannot allocate a backend");
    memset(be, 0, sizeof *be);
    pthread_mutex_init(&be->lock, NULL);
    be->kind = dev >= 0 ? CUZK_BACKEND_CUDA : CUZK_BACKEND_CPU;
    be->device = dev;
    cuzk_status s = cuzk_pool_create(&be->pool, threads);
    if (s != CUZK_OK) {
        pthread_mutex_destroy(&be->lock);
        cuzk_free(be);
        return s;
    }
    *out = be;
    return CUZK_OK;
}

/* Waits for a deferred wipe (cuzk_backend_scratch_wipe_async). */
static void wipe_settle(cuzk_backend *be)
{
    for (unsigned k = 0; k < be->n_wipe_th; k++)
        pthread_join(be->wipe_th[k], NULL);
    be->n_wipe_th = 0;
    be->n_wipe_r = 0;
}

/* Thread k wipes pieces k, k + K, k + 2K, ... of the ranges laid end to end. */
static void *wipe_main(void *arg)
{
    const struct wipe_arg *w = arg;
    const cuzk_backend *be = w->be;
    size_t piece = 0;
    for (unsigned r = 0; r < be->n_wipe_r; r++) {
        char *p = be->wipe_r[r].p;
        for (size_t off = 0; off < be->wipe_r[r].bytes; off += BACKEND_WIPE_PIECE, piece++) {
            if (piece % w->K != w->k)
                continue;
            size_t left = be->wipe_r[r].bytes - off;
            cuzk_memclear(p + off, left < BACKEND_WIPE_PIECE ? left : BACKEND_WIPE_PIECE);
        }
    }
    return NULL;
}

void cuzk_backend_scratch_wipe_async(cuzk_backend *be, void *const *p, const size_t *bytes,
                                     unsigned n)
{
    if (!be)
        return;
    wipe_settle(be);
    for (unsigned i = 0; i < n && be->n_wipe_r < CUZK_BACKEND_SCRATCH_SLOTS; i++)
        if (p[i] && bytes[i]) {
            be->wipe_r[be->n_wipe_r].p = p[i];
            be->wipe_r[be->n_wipe_r++].bytes = bytes[i];
        }
    size_t total = 0;
    for (unsigned i = 0; i < be->n_wipe_r; i++)
        total += be->wipe_r[i].bytes;
    const unsigned K = total > BACKEND_WIPE_PIECE ? BACKEND_WIPE_THREADS : 1;
    unsigned started = 0;
    for (unsigned k = 0; k < K && total; k++) {
        be->wipe_arg[k] = (struct wipe_arg){be, k, K};
        /* A thread that cannot be started leaves its pieces to this one, now. */
        if (pthread_create(&be->wipe_th[started], NULL, wipe_main, &be->wipe_arg[k]) == 0)
            started++;
        else
            wipe_main(&be->wipe_arg[k]);
    }
    be->n_wipe_th = started;
    if (!started)
        be->n_wipe_r = 0;
}

void cuzk_backend_destroy(cuzk_backend *be)
{
    if (!be)
        return;
    wipe_settle(be);
    for (size_t i = 0; i < be->n_resident; i++)
        cuzk__resident_release(be->resident[i].sh);
    for (unsigned i = 0; i < CUZK_BACKEND_SCRATCH_SLOTS; i++)
        if (be->scratch[i].pinned)
            cuzk_gpu_host_free(be->scratch[i].p);
        else
            cuzk_free(be->scratch[i].p);
    pthread_mutex_destroy(&be->lock);
    cuzk_pool_destroy(be->pool);
    cuzk_free(be);
}

int cuzk_backend_device(const cuzk_backend *be)
{
    return be->device;
}

const char *cuzk_backend_name(const cuzk_backend *be)
{
    return be->kind == CUZK_BACKEND_CUDA ? "cuda" : "cpu";
}

cuzk_pool *cuzk_backend_pool(const cuzk_backend *be)
{
    return be->pool;
}

unsigned cuzk_backend_threads(const cuzk_backend *be)
{
    return cuzk_pool_threads(be->pool);
}

/* ---- scratch ---------------------------------------------------------------------------- */

void *cuzk_backend_scratch(cuzk_backend *be, unsigned slot, size_t bytes)
{
    if (!be || slot >= CUZK_BACKEND_SCRATCH_SLOTS) {
        cuzk_fail(CUZK_ERR_INVALID_ARG, "backend scratch: bad slot %u", slot);
        return NULL;
    }
    wipe_settle(be); /* the slots may still be being wiped */
    if (bytes == 0)
        bytes = 1;
    if (be->scratch[slot].p && be->scratch[slot].bytes >= bytes)
        return be->scratch[slot].p;
    if (be->scratch[slot].pinned)
        cuzk_gpu_host_free(be->scratch[slot].p);
    else
        cuzk_free(be->scratch[slot].p);
    be->scratch[slot].p = NULL;
    be->scratch[slot].bytes = 0;
    /* Pinned on a GPU backend: MSM scalars and bitmaps are uploaded from these buffers. */
    void *p = NULL;
    bool pinned = be->kind == CUZK_BACKEND_CUDA && cuzk_gpu_host_alloc(&p, bytes) == CUZK_OK;
    if (!pinned)
        p = cuzk_alloc(bytes);
    if (!p) {
        cuzk_fail(CUZK_ERR_NOMEM, "backend scratch: cannot allocate %zu bytes", bytes);
        return NULL;
    }
    be->scratch[slot].p = p;
    be->scratch[slot].bytes = bytes;
    be->scratch[slot].pinned = pinned;
    return p;
}

uint64_t cuzk_backend_scratch_bytes(const cuzk_backend *be)
{
    uint64_t sum = 0;
    for (unsigned i = 0; be && i < CUZK_BACKEND_SCRATCH_SLOTS; i++)
        sum += be->scratch[i].bytes;
    return sum;
}

/* ---- device residency ------------------------------------------------------------------- */

static size_t point_bytes(bool g2)
{
    return g2 ? sizeof(cuzk_g2_affine_t) : sizeof(cuzk_g1_affine_t);
}

cuzk_status cuzk_backend_keep_resident(cuzk_backend *be, const void *bases, size_t n, bool g2)
{
    return cuzk_backend_keep_resident_rows(be, bases, n, g2, 0);
}

cuzk_status cuzk_backend_keep_resident_rows(cuzk_backend *be, const void *bases, size_t n, bool g2,
                                            unsigned rows)
{
    if (!be || !bases || n == 0)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "keep_resident: NULL bases or n = 0");
    if (be->kind != CUZK_BACKEND_CUDA)
        return CUZK_OK;
    pthread_mutex_lock(&be->lock);
    for (size_t i = 0; i < be->n_resident; i++)
        if (be->resident[i].host == bases && be->resident[i].n == n && be->resident[i].g2 == g2) {
            pthread_mutex_unlock(&be->lock);
            return CUZK_OK;
        }
    bool full = be->n_resident == BACKEND_MAX_RESIDENT;
    pthread_mutex_unlock(&be->lock);
    if (full)
        return cuzk_fail(CUZK_ERR_NOMEM, "keep_resident: %d resident arrays already held",
                         BACKEND_MAX_RESIDENT);
    /* Unlocked: an upload takes seconds for a PoRep set and this backend's calls go on. */
    cuzk_shared_bases *sh = NULL;
    cuzk_status s = cuzk__resident_acquire(&sh, be->device, bases, n, g2, rows);
    if (s != CUZK_OK)
        return s;
    pthread_mutex_lock(&be->lock);
    if (be->n_resident == BACKEND_MAX_RESIDENT) {
        pthread_mutex_unlock(&be->lock);
        cuzk__resident_release(sh);
        return cuzk_fail(CUZK_ERR_NOMEM, "keep_resident: %d resident arrays already held",
                         BACKEND_MAX_RESIDENT);
    }
    be->resident[be->n_resident++] = (resident_set){bases, n, g2, sh};
    pthread_mutex_unlock(&be->lock);
    return CUZK_OK;
}

void cuzk_backend_set_h_rows(cuzk_backend *be, unsigned rows)
{
    if (be)
        be->h_rows = rows;
}

unsigned cuzk_backend_h_rows(const cuzk_backend *be)
{
    return be ? be->h_rows : 0;
}

void cuzk_backend_drop_resident(cuzk_backend *be, const void *bases)
{
    if (!be || !bases)
        return;
    cuzk_shared_bases *sh = NULL;
    pthread_mutex_lock(&be->lock);
    for (size_t i = 0; i < be->n_resident; i++)
        if (be->resident[i].host == bases) {
            sh = be->resident[i].sh;
            be->resident[i] = be->resident[--be->n_resident];
            break;
        }
    pthread_mutex_unlock(&be->lock);
    cuzk__resident_release(sh);
}

uint64_t cuzk_backend_resident_bytes(cuzk_backend *be)
{
    uint64_t b = 0;
    pthread_mutex_lock(&be->lock);
    for (size_t i = 0; i < be->n_resident; i++)
        b += cuzk__resident_device_bytes(be->resident[i].sh);
    pthread_mutex_unlock(&be->lock);
    return b;
}

size_t cuzk_backend_device_resident(int device, uint64_t *bytes, unsigned *rows)
{
    if (device < 0) { /* the CPU: nothing on a device */
        if (bytes)
            *bytes = 0;
        if (rows)
            *rows = 0;
        return 0;
    }
    return cuzk__resident_on_device(device, bytes, rows);
}

/* The resident copy holding bases[0 .. n) of a call, and the offset of |bases| in it; NULL when
 * the call's bases are not (wholly) resident. */
static const cuzk_gpu_bases *find_resident(cuzk_backend *be, const void *bases, size_t n, bool g2,
                                           size_t *first)
{
    const cuzk_gpu_bases *dev = NULL;
    size_t psz = point_bytes(g2);
    pthread_mutex_lock(&be->lock);
    for (size_t i = 0; i < be->n_resident && !dev; i++) {
        const resident_set *r = &be->resident[i];
        const char *lo = r->host, *p = bases;
        if (r->g2 != g2 || p < lo || (size_t)(p - lo) % psz)
            continue;
        size_t off = (size_t)(p - lo) / psz;
        if (off <= r->n && n <= r->n - off) {
            dev = cuzk__resident_bases(r->sh);
            *first = off;
        }
    }
    pthread_mutex_unlock(&be->lock);
    return dev;
}

bool cuzk_backend_side_lane_on(const cuzk_backend *be)
{
    return be && be->kind == CUZK_BACKEND_CUDA && cuzk_gpu_side_lane_on();
}

/* Whether a device status lets the call run on the CPU instead: the device path is missing or
 * the device ran out of memory. */
static bool cpu_can_take(cuzk_status s)
{
    return s == CUZK_ERR_UNSUPPORTED || s == CUZK_ERR_NOMEM;
}

cuzk_status cuzk_backend_h(cuzk_backend *be, const cuzk_domain *d, cuzk_fr_t *a, cuzk_fr_t *b,
                           cuzk_fr_t *c)
{
    unsigned l = cuzk_domain_log_size(d);
    if (be->kind == CUZK_BACKEND_CUDA && l >= BACKEND_GPU_H_MIN_LOG && l <= CUZK_GPU_NTT_MAX_LOG) {
        static atomic_bool said;
        cuzk_status s = cuzk_gpu_h(be->device, d, a, b, c, NULL);
        if (s != CUZK_ERR_NOMEM)
            return s;
        if (!c)
            return CUZK_ERR_UNSUPPORTED; /* a is untouched: the caller forms c */
        fallback_note(&said, "the H step runs");
    }
    if (!c)
        return CUZK_ERR_UNSUPPORTED;
    cuzk_poly_h(d, a, b, c, be->pool);
    return CUZK_OK;
}

cuzk_status cuzk_backend_h_msm_g1(cuzk_backend *be, const cuzk_domain *d, const cuzk_fr_t *a,
                                  const cuzk_fr_t *b, const cuzk_fr_t *c, size_t rows,
                                  const cuzk_g1_affine_t *h_bases, cuzk_g1_jac_t *out,
                                  double ms[2])
{
    unsigned l = cuzk_domain_log_size(d);
    size_t n = cuzk_domain_size(d), first = 0;
    if (rows > n)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "h msm: %zu rows exceed the domain of %zu", rows,
                         n);
    if (be->kind != CUZK_BACKEND_CUDA || l < BACKEND_GPU_H_MIN_LOG || l > CUZK_GPU_NTT_MAX_LOG)
        return CUZK_ERR_UNSUPPORTED;
    const cuzk_gpu_bases *rb = find_resident(be, h_bases, n - 1, false, &first);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cuzk_gpu_timing mt;
    /* Bases not resident: streamed from the host under the MSM's kernels, h kept on the device. */
    cuzk_status s = rb ? cuzk_gpu_h_msm_g1_resident(out, rb, first, d, a, b, c, rows, NULL, &mt)
                       : cuzk_gpu_h_msm_g1(be->device, out, h_bases, d, a, b, c, rows, NULL, &mt);
    if (s == CUZK_ERR_NOMEM)
        return CUZK_ERR_UNSUPPORTED; /* the separate calls need less device memory at once */
    if (s != CUZK_OK)
        return s;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double wall = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    ms[1] = mt.total_ms < wall ? mt.total_ms : wall;
    ms[0] = wall - ms[1];
    return CUZK_OK;
}

cuzk_status cuzk_backend_h_prefetch(cuzk_backend *be, const cuzk_g1_affine_t *h_bases, size_t n,
                                    const cuzk_fr_t *a, const cuzk_fr_t *b, size_t rows)
{
    if (!be || !h_bases || !a || !b || n < 2 || (n & (n - 1)) || rows > n)
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "h prefetch: NULL argument, or a domain of %zu for %zu rows", n, rows);
    unsigned l = 0;
    while (((size_t)1 << l) < n)
        l++;
    size_t first = 0;
    /* Only where the fused call runs over resident bases: a streamed H MSM needs the bus. */
    if (be->kind != CUZK_BACKEND_CUDA || l < BACKEND_GPU_H_MIN_LOG || l > CUZK_GPU_NTT_MAX_LOG ||
        !find_resident(be, h_bases, n - 1, false, &first))
        return CUZK_ERR_UNSUPPORTED;
    return cuzk_gpu_h_prefetch(be->device, n, a, b, rows);
}

void cuzk_backend_h_prefetch_drop(cuzk_backend *be, const cuzk_fr_t *a)
{
    (void)be; /* every device: another device's worker may have prefetched |a| */
    if (a)
        cuzk_gpu_h_prefetch_drop(-1, a);
}

cuzk_status cuzk_backend_msm_g1(cuzk_backend *be, cuzk_g1_jac_t *out, const cuzk_g1_affine_t *bases,
                                const cuzk_fr_t *scalars, size_t n)
{
    if (be->kind == CUZK_BACKEND_CUDA) {
        static atomic_bool said;
        size_t first = 0;
        const cuzk_gpu_bases *rb = find_resident(be, bases, n, false, &first);
        cuzk_status s = rb ? cuzk_gpu_msm_g1_resident(out, rb, first, scalars, n, NULL)
                           : cuzk_gpu_msm_g1(be->device, out, bases, scalars, n, NULL);
        if (!cpu_can_take(s))
            return s;
        fallback_note(&said, "G1 MSMs run");
    }
    return cuzk_g1_msm(out, bases, scalars, n, be->pool);
}

cuzk_status cuzk_backend_msm_g2(cuzk_backend *be, cuzk_g2_jac_t *out, const cuzk_g2_affine_t *bases,
                                const cuzk_fr_t *scalars, size_t n)
{
    if (be->kind == CUZK_BACKEND_CUDA) {
        static atomic_bool said;
        size_t first = 0;
        const cuzk_gpu_bases *rb = find_resident(be, bases, n, true, &first);
        cuzk_status s = rb ? cuzk_gpu_msm_g2_resident(out, rb, first, scalars, n, NULL)
                           : cuzk_gpu_msm_g2(be->device, out, bases, scalars, n, NULL);
        if (!cpu_can_take(s))
            return s;
        fallback_note(&said, "G2 MSMs run");
    }
    return cuzk_g2_msm(out, bases, scalars, n, be->pool);
}

/* The gather of the selected bases for an (index, scalar) MSM over host bases: random reads of
 * 104- or 200-byte points, bound by memory latency, so spread over the pool (a PoRep
 * partition's L tail gathers ~6.5 M points out of 13.5 GB: ~0.6 s on one thread). */
#define GATHER_TASK ((size_t)1 << 15)
typedef struct {
    void *sel;
    const void *bases;
    const uint32_t *idx;
    size_t m, elt;
} gather_ctx;

static void gather_task(void *vc, size_t t)
{
    gather_ctx *c = vc;
    size_t lo = t * GATHER_TASK, hi = lo + GATHER_TASK < c->m ? lo + GATHER_TASK : c->m;
    for (size_t j = lo; j < hi; j++)
        memcpy((char *)c->sel + j * c->elt, (const char *)c->bases + (size_t)c->idx[j] * c->elt,
               c->elt);
}

/* The (index, scalar) MSM on the CPU, or on the device: over resident bases; over pinned host
 * bases, gathered by the device; else with the selected bases gathered here into a temporary
 * array (pageable bases, or the device out of memory: then the CPU may take it). */
#define DEFINE_MSM_IDX(G, AFF, JAC)                                                                \
    cuzk_status cuzk_backend_msm_##G##_idx(cuzk_backend *be, JAC *out, const AFF *bases, size_t n, \
                                           const uint32_t *idx, const cuzk_fr_t *scalars,        \
                                           size_t m)                                             \
    {                                                                                              \
        size_t first = 0;                                                                          \
        const cuzk_gpu_bases *rb = be->kind == CUZK_BACKEND_CUDA                                   \
                                       ? find_resident(be, bases, n, G##_IS_G2, &first)            \
                                       : NULL;                                                     \
        if (rb) {                                                                                  \
            cuzk_status s =                                                                        \
                cuzk_gpu_msm_##G##_resident_idx(out, rb, first, idx, scalars, m, NULL);            \
            if (!cpu_can_take(s))                                                                  \
                return s; /* the device checked the indices itself */                              \
        }                                                                                          \
        if (be->kind == CUZK_BACKEND_CUDA) { /* pinned bases: gathered, idx checked there */       \
            cuzk_status s =                                                                        \
                cuzk_gpu_msm_##G##_host_idx(be->device, out, bases, n, idx, scalars, m, NULL);     \
            if (!cpu_can_take(s))                                                                  \
                return s;                                                                          \
        }                                                                                          \
        for (size_t j = 0; j < m; j++)                                                             \
            if (idx[j] >= n)                                                                       \
                return cuzk_fail(CUZK_ERR_INVALID_ARG,                                             \
                                 "msm " #G " idx: entry %zu names base %u of %zu", j, idx[j], n); \
        AFF *sel = cuzk_alloc_array(m ? m : 1, sizeof *sel);                                       \
        if (!sel)                                                                                  \
            return cuzk_fail(CUZK_ERR_NOMEM, "msm " #G " idx: out of memory for %zu bases", m);  \
        gather_ctx gc = {sel, bases, idx, m, sizeof *sel};                                         \
        cuzk_pool_run(be->pool, (m + GATHER_TASK - 1) / GATHER_TASK, gather_task, &gc);           \
        cuzk_status s = cuzk_backend_msm_##G(be, out, sel, scalars, m);                            \
        cuzk_free(sel);                                                                            \
        return s;                                                                                  \
    }
#define g1_IS_G2 false
#define g2_IS_G2 true
DEFINE_MSM_IDX(g1, cuzk_g1_affine_t, cuzk_g1_jac_t)
DEFINE_MSM_IDX(g2, cuzk_g2_affine_t, cuzk_g2_jac_t)

cuzk_status cuzk_backend_batch_add_g1(cuzk_backend *be, cuzk_g1_jac_t *out,
                                      const cuzk_g1_affine_t *bases, const uint64_t *bitmap,
                                      size_t n)
{
    if (be->kind == CUZK_BACKEND_CUDA) {
        static atomic_bool said;
        size_t first = 0;
        const cuzk_gpu_bases *rb = find_resident(be, bases, n, false, &first);
        cuzk_status s = rb ? cuzk_gpu_batch_add_g1_resident(out, rb, first, bitmap, n, NULL)
                           : cuzk_gpu_batch_add_g1(be->device, out, bases, bitmap, n, NULL);
        if (!cpu_can_take(s))
            return s;
        fallback_note(&said, "G1 batch additions run");
    }
    return cuzk_g1_batch_add(out, bases, bitmap, n, be->pool);
}

cuzk_status cuzk_backend_batch_add_g2(cuzk_backend *be, cuzk_g2_jac_t *out,
                                      const cuzk_g2_affine_t *bases, const uint64_t *bitmap,
                                      size_t n)
{
    if (be->kind == CUZK_BACKEND_CUDA) {
        static atomic_bool said;
        size_t first = 0;
        const cuzk_gpu_bases *rb = find_resident(be, bases, n, true, &first);
        cuzk_status s = rb ? cuzk_gpu_batch_add_g2_resident(out, rb, first, bitmap, n, NULL)
                           : cuzk_gpu_batch_add_g2(be->device, out, bases, bitmap, n, NULL);
        if (!cpu_can_take(s))
            return s;
        fallback_note(&said, "G2 batch additions run");
    }
    return cuzk_g2_batch_add(out, bases, bitmap, n, be->pool);
}
