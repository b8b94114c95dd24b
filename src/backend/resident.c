/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Device copies of parameter arrays, shared by the backends of one device: the engine's prover
 * workers on a GPU (engine.prover_workers, Curio's gpu_workers_per_device = 2) each have a
 * backend, and a 32 GiB PoRep set (~48 GB of points) held once per worker would not leave an
 * 80 GB card room for a second copy, nor a 141 GB one room for the H MSM's buffers. Keyed by
 * device, host address, count and group; reference-counted by the backends that keep it.
 */
#include "backend/resident.h"
#include "cuzk/alloc.h"

#include <pthread.h>
#include <stdio.h>

struct cuzk_shared_bases {
    int device;
    const void *host;
    size_t n;
    bool g2;
    cuzk_gpu_bases *dev; /* NULL while its first holder uploads it */
    unsigned refs;
    unsigned rows; /* precomputed rows of a G1 copy, 0: the plain points */
    cuzk_shared_bases *next;
};

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_cv = PTHREAD_COND_INITIALIZER; /* an upload ended */
static cuzk_shared_bases *g_head;

static cuzk_shared_bases *find(int device, const void *host, size_t n, bool g2)
{
    for (cuzk_shared_bases *e = g_head; e; e = e->next)
        if (e->device == device && e->host == host && e->n == n && e->g2 == g2)
            return e;
    return NULL;
}

static void unlink_entry(cuzk_shared_bases *e)
{
    for (cuzk_shared_bases **p = &g_head; *p; p = &(*p)->next)
        if (*p == e) {
            *p = e->next;
            return;
        }
}

/* Device memory a prover needs beside the MSM over an H query of |n| points (rows are asked
 * for the H query only): its domain's a, b, c vectors, the next partition's a and b staged, and
 * 4 GiB for the L, A, B sums that run beside the H step. */
static size_t h_step_reserve(size_t n)
{
    size_t dom = 1;
    while (dom < n + 1)
        dom <<= 1;
    return 5 * dom * sizeof(cuzk_fr_t) + ((size_t)4 << 30);
}

cuzk_status cuzk__resident_acquire(cuzk_shared_bases **out, int device, const void *host, size_t n,
                                   bool g2, unsigned rows)
{
    *out = NULL;
    pthread_mutex_lock(&g_mu);
    cuzk_shared_bases *e;
    while ((e = find(device, host, n, g2)) && !e->dev)
        pthread_cond_wait(&g_cv, &g_mu);
    if (e) {
        e->refs++;
        pthread_mutex_unlock(&g_mu);
        *out = e;
        return CUZK_OK;
    }
    e = cuzk_alloc(sizeof *e);
    if (!e) {
        pthread_mutex_unlock(&g_mu);
        return cuzk_fail(CUZK_ERR_NOMEM, "keep_resident: cannot allocate a table entry");
    }
    *e = (cuzk_shared_bases){device, host, n, g2, NULL, 1, 0, g_head};
    g_head = e;
    pthread_mutex_unlock(&g_mu);
    /* The upload runs unlocked: it takes seconds for a PoRep set and other arrays go on. */
    cuzk_gpu_bases *dev = NULL;
    cuzk_status s = g2 ? cuzk_gpu_bases_upload_g2(&dev, device, host, n)
                       : cuzk_gpu_bases_upload_g1(&dev, device, host, n);
    /* Precomputed rows before the copy is published: no holder's call can read it meanwhile.
     * Without room for them the plain copy serves (an optimisation, not a requirement). */
    if (s == CUZK_OK && rows && !g2) {
        unsigned fit = cuzk_gpu_bases_rows_that_fit(dev, rows, h_step_reserve(n));
        if (fit < rows)
            fprintf(stderr,
                    "cuzk: %u precomputed rows asked of %zu resident points; %u built (the most "
                    "that leave room for their MSM beside the prover's H step and save a window "
                    "or bucket set; GPU %d)\n",
                    rows, n, fit, device);
        if (fit >= 2 && cuzk_gpu_bases_precompute_rows(dev, 0, fit) != CUZK_OK)
            fprintf(stderr, "cuzk: %u precomputed rows of %zu resident points not kept: %s\n", fit,
                    n, cuzk_last_error());
    }
    pthread_mutex_lock(&g_mu);
    if (s == CUZK_OK) {
        e->dev = dev;
        e->rows = cuzk_gpu_bases_precomputed_rows(dev);
    } else
        unlink_entry(e); /* waiters find nothing and try the upload themselves */
    pthread_cond_broadcast(&g_cv);
    pthread_mutex_unlock(&g_mu);
    if (s != CUZK_OK) {
        cuzk_free(e);
        return s;
    }
    *out = e;
    return CUZK_OK;
}

void cuzk__resident_release(cuzk_shared_bases *sb)
{
    if (!sb)
        return;
    pthread_mutex_lock(&g_mu);
    bool last = --sb->refs == 0;
    if (last)
        unlink_entry(sb);
    pthread_mutex_unlock(&g_mu);
    if (last) {
        cuzk_gpu_bases_free(sb->dev);
        cuzk_free(sb);
    }
}

const cuzk_gpu_bases *cuzk__resident_bases(const cuzk_shared_bases *sb)
{
    return sb->dev;
}

static uint64_t entry_bytes(const cuzk_shared_bases *e)
{
    uint64_t row = (uint64_t)e->n * (e->g2 ? sizeof(cuzk_g2_affine_t) : sizeof(cuzk_g1_affine_t));
    return row * (e->rows ? e->rows : 1);
}

uint64_t cuzk__resident_device_bytes(const cuzk_shared_bases *sb)
{
    pthread_mutex_lock(&g_mu);
    uint64_t b = entry_bytes(sb);
    pthread_mutex_unlock(&g_mu);
    return b;
}

size_t cuzk__resident_copies(uint64_t *bytes)
{
    return cuzk__resident_on_device(-1, bytes, NULL);
}

size_t cuzk__resident_on_device(int device, uint64_t *bytes, unsigned *rows)
{
    size_t k = 0;
    uint64_t b = 0;
    unsigned r = 0;
    pthread_mutex_lock(&g_mu);
    for (const cuzk_shared_bases *e = g_head; e; e = e->next)
        if (e->dev && (device < 0 || e->device == device)) {
            k++;
            b += entry_bytes(e);
            r = e->rows > r ? e->rows : r;
        }
    pthread_mutex_unlock(&g_mu);
    if (bytes)
        *bytes = b;
    if (rows)
        *rows = r;
    return k;
}
