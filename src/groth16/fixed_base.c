/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#include "groth16/fixed_base.h"
#include "cuzk/alloc.h"

#include <string.h>

#define WINDOWS 32
#define ENTRIES 255
#define CHUNK 1024

/* Written once for both groups: G = g1/g2, A = affine type, J = Jacobian type. */
#define FIXED_BASE_IMPL(G, A, J)                                                                   \
    typedef struct {                                                                               \
        const A *table;                                                                            \
        const cuzk_fr_t *k;                                                                        \
        J *tmp;                                                                                    \
        A *out;                                                                                    \
        size_t n;                                                                                  \
    } G##_job;                                                                                     \
                                                                                                   \
    static void G##_chunk(void *ctx, size_t task)                                                  \
    {                                                                                              \
        G##_job *j = ctx;                                                                          \
        size_t lo = task * CHUNK, hi = lo + CHUNK < j->n ? lo + CHUNK : j->n;                      \
        for (size_t i = lo; i < hi; i++) {                                                         \
            uint64_t l[4];                                                                         \
            J acc;                                                                                 \
            cuzk_##G##_jac_set_infinity(&acc);                                                     \
            cuzk_fr_to_canonical(l, &j->k[i]);                                                     \
            for (unsigned w = 0; w < WINDOWS; w++) {                                               \
                unsigned d = (unsigned)(l[w / 8] >> (8 * (w % 8))) & 0xff;                         \
                if (d)                                                                             \
                    cuzk_##G##_add_affine(&acc, &acc, &j->table[w * ENTRIES + d - 1]);             \
            }                                                                                      \
            j->tmp[i - lo] = acc;                                                                  \
            cuzk_memclear(l, sizeof l);                                                            \
        }                                                                                          \
        cuzk_##G##_batch_to_affine(j->out + lo, j->tmp + lo - lo, hi - lo);                        \
    }                                                                                              \
                                                                                                   \
    static void G##_chunk_outer(void *ctx, size_t task)                                            \
    {                                                                                              \
        G##_job *j = ctx;                                                                          \
        G##_job local = *j;                                                                        \
        J tmpbuf[CHUNK];                                                                           \
        local.tmp = tmpbuf;                                                                        \
        G##_chunk(&local, task);                                                                   \
    }                                                                                              \
                                                                                                   \
    cuzk_status cuzk_fixed_base_##G(A *out, const cuzk_fr_t *k, size_t n, cuzk_pool *pool)        \
    {                                                                                              \
        A *table = cuzk_alloc_array((size_t)WINDOWS * ENTRIES, sizeof *table);                     \
        J *jt = cuzk_alloc_array((size_t)WINDOWS * ENTRIES, sizeof *jt);                           \
        if (!table || !jt) {                                                                       \
            cuzk_free(table);                                                                      \
            cuzk_free(jt);                                                                         \
            return cuzk_fail(CUZK_ERR_NOMEM, "fixed-base table: out of memory");                   \
        }                                                                                          \
        A g;                                                                                       \
        J base;                                                                                    \
        cuzk_##G##_generator(&g);                                                                  \
        cuzk_##G##_from_affine(&base, &g);                                                         \
        for (unsigned w = 0; w < WINDOWS; w++) {                                                   \
            jt[w * ENTRIES] = base;                                                                \
            for (unsigned d = 1; d < ENTRIES; d++)                                                 \
                cuzk_##G##_add(&jt[w * ENTRIES + d], &jt[w * ENTRIES + d - 1], &base);             \
            for (unsigned b = 0; b < 8; b++)                                                       \
                cuzk_##G##_dbl(&base, &base);                                                      \
        }                                                                                          \
        cuzk_##G##_batch_to_affine(table, jt, (size_t)WINDOWS * ENTRIES);                          \
        cuzk_free(jt);                                                                             \
        G##_job job = {table, k, NULL, out, n};                                                    \
        cuzk_pool_run(pool, (n + CHUNK - 1) / CHUNK, G##_chunk_outer, &job);                       \
        cuzk_free(table);                                                                          \
        return CUZK_OK;                                                                            \
    }

FIXED_BASE_IMPL(g1, cuzk_g1_affine_t, cuzk_g1_jac_t)
FIXED_BASE_IMPL(g2, cuzk_g2_affine_t, cuzk_g2_jac_t)
