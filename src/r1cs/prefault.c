/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * cuzk_cs_prefault: the reserved, unused tails of a system's vectors written once on many
 * threads. A system that forked systems are merged into fills those tails in order, on one
 * thread, and every first write to a fresh page of a multi-GiB vector stops on a page fault
 * (about 0.5 s a GiB on the device hosts); touched here in parallel, the merges only copy.
 */
#include "r1cs/cs_internal.h"

#include <pthread.h>
#include <string.h>

#define CHUNK ((size_t)32 << 20) /* bytes a thread takes at a time */

typedef struct {
    char *p[4];
    size_t bytes[4];
    size_t nreg, nchunks, chunks_before[5];
    size_t next; /* atomic */
} touch;

static void *touch_main(void *arg)
{
    touch *t = arg;
    for (;;) {
        size_t k = __atomic_fetch_add(&t->next, 1, __ATOMIC_RELAXED);
        if (k >= t->nchunks)
            return NULL;
        size_t r = 0;
        while (k >= t->chunks_before[r + 1])
            r++;
        size_t off = (k - t->chunks_before[r]) * CHUNK;
        size_t n = t->bytes[r] - off < CHUNK ? t->bytes[r] - off : CHUNK;
        memset(t->p[r] + off, 0, n);
    }
}

static void add(touch *t, frvec *v)
{
    if (!v->v || v->cap <= v->len)
        return;
    t->p[t->nreg] = (char *)(v->v + v->len);
    t->bytes[t->nreg] = (v->cap - v->len) * sizeof(cuzk_fr_t);
    t->nreg++;
}

void cuzk_cs_prefault(cuzk_cs *cs, unsigned threads)
{
    if (!cs || threads < 2)
        return;
    touch t = {.nreg = 0};
    add(&t, &cs->aux);
    if (cs->evaluate && !cs->abc_va.alloc) { /* a pool's buffers are touched already */
        add(&t, &cs->a);
        add(&t, &cs->b);
        if (!cs->no_c)
            add(&t, &cs->c);
    }
    for (size_t r = 0; r < t.nreg; r++)
        t.chunks_before[r + 1] = t.chunks_before[r] + (t.bytes[r] + CHUNK - 1) / CHUNK;
    t.nchunks = t.chunks_before[t.nreg];
    if (t.nchunks < 2)
        return;
    if (threads > 64)
        threads = 64;
    if (threads > t.nchunks)
        threads = (unsigned)t.nchunks;
    pthread_t tid[64];
    unsigned started = 0;
    for (; started + 1 < threads; started++)
        if (pthread_create(&tid[started], NULL, touch_main, &t) != 0)
            break;
    touch_main(&t); /* this thread too; it finishes what no thread started takes */
    for (unsigned i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
}
