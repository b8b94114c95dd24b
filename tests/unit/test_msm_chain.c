/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Chains of G1 MSM jobs (src/msm/msm_chain.h) against the sum of their links' one-call MSMs:
 * links of different sizes (empty ones too), bases in memory or packed (in memory or in a file),
 * Montgomery or raw scalars, a factor on some links; two workers that take the links in order,
 * one that reaches a link before the link ahead of it has run (its tasks wait), and one worker
 * alone. Every output is poisoned first; the links before the last give infinity. An aborted
 * chain releases a worker that waits and gives infinity; bad arguments are refused.
 */
#include "test.h"
#include "cuzk/alloc.h"
#include "cuzk/msm.h"

#include "msm/msm_chain.h"
#include "test_msm_pack.h"
#include "test_msm_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

enum { LINKS = 3 };

static void sleep_ms(long ms)
{
    struct timespec t = {0, ms * 1000000L};
    nanosleep(&t, NULL);
}

typedef struct {
    cuzk__g1_msm_job **jobs;
    size_t links;
    bool late; /* worker 0 starts 20 ms late; worker 1 starts at link 1 */
} lanes;

static void lane_run(void *ctx, size_t t)
{
    lanes *l = ctx;
    size_t first = 0;
    if (l->late && t == 0)
        sleep_ms(20);
    else if (l->late)
        first = 1; /* link 1's tasks wait for link 0's, which only worker 0 runs */
    for (size_t i = first; i < l->links; i++)
        cuzk__g1_msm_job_work(l->jobs[i], (unsigned)t);
}

/* One link's inputs. */
typedef struct {
    size_t n;
    cuzk_g1_affine_t *p;
    cuzk_fr_t *k;
    uint64_t *raw;
    uint8_t *pk; /* packed copy */
    cuzk_fr_t factor;
} link_in;

static void link_make(link_in *in, size_t n)
{
    in->n = n;
    in->p = g1_points(n ? n : 1);
    in->k = cuzk_alloc_array(n ? n : 1, sizeof *in->k);
    in->raw = cuzk_alloc_array(4 * (n ? n : 1), sizeof *in->raw);
    CHECK(in->k && in->raw);
    for (size_t i = 0; i < n; i++) {
        rand_fr(&in->k[i]);
        if (i % 97 == 5)
            cuzk_g1_affine_set_infinity(&in->p[i]);
        cuzk_fr_to_canonical(in->raw + 4 * i, &in->k[i]);
    }
    in->pk = g1_pack(in->p, n);
    rand_fr(&in->factor);
}

static void link_drop(link_in *in)
{
    cuzk_free(in->pk);
    cuzk_free(in->raw);
    cuzk_free(in->k);
    cuzk_free(in->p);
}

/* sum over the links of (factor) k[i] p[i], by the one-call MSM; |with_factor| per link. */
static cuzk_g1_jac_t chain_want(const link_in *in, const bool *with_factor)
{
    cuzk_g1_jac_t sum, one;
    cuzk_g1_jac_set_infinity(&sum);
    for (size_t l = 0; l < LINKS; l++) {
        size_t n = in[l].n;
        cuzk_fr_t *k = cuzk_alloc_array(n ? n : 1, sizeof *k);
        CHECK(k != NULL);
        for (size_t i = 0; i < n; i++) {
            k[i] = in[l].k[i];
            if (with_factor[l])
                cuzk_fr_mul(&k[i], &k[i], &in[l].factor);
        }
        CHECK(cuzk_g1_msm(&one, in[l].p, k, n, NULL) == CUZK_OK);
        cuzk_g1_add(&sum, &sum, &one);
        cuzk_free(k);
    }
    return sum;
}

CUZK_TEST(msm_job_chain_sums_its_links)
{
    static const size_t sizes[][LINKS] = {{3000, 2500, 2900}, {0, 700, 1}, {1, 0, 0}, {0, 0, 0}};
    cuzk_pool *pool;
    CHECK(cuzk_pool_create(&pool, 2) == CUZK_OK);
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        link_in in[LINKS];
        for (size_t l = 0; l < LINKS; l++)
            link_make(&in[l], sizes[si][l]);
        /* link 1 in a file (13-byte header: unaligned offsets), the others in memory */
        char path[] = "/tmp/cuzk-chain-XXXXXX";
        int fd = mkstemp(path);
        CHECK(fd >= 0 && unlink(path) == 0);
        static const uint8_t hdr[13] = "chain-section";
        size_t bytes1 = in[1].n * CUZK__G1_PACKED_BYTES;
        CHECK(write(fd, hdr, sizeof hdr) == (ssize_t)sizeof hdr);
        CHECK(bytes1 == 0 || write(fd, in[1].pk, bytes1) == (ssize_t)bytes1);
        for (int form = 0; form < 4; form++) {
            /* form bit 0: raw scalars; bit 1: packed bases (link 0 in memory, link 1 from the
             * file, link 2 affine) and a factor on links 1 and 2 instead of on link 1 only */
            bool raw = form & 1, packed = form & 2;
            bool fac[LINKS] = {false, true, packed};
            cuzk_g1_jac_t want = chain_want(in, fac);
            for (int mode = 0; mode < 3; mode++) {
                cuzk__g1_msm_chain *ch = NULL;
                size_t total = in[0].n + in[1].n + in[2].n;
                CHECK(cuzk__g1_msm_job_chain_new(&ch, total, LINKS, 2) == CUZK_OK);
                cuzk__g1_msm_job *jobs[LINKS];
                void *mem[LINKS];
                cuzk__packed_bases src[2] = {cuzk__packed_in_memory(in[0].pk),
                                             {NULL, fd, sizeof hdr}};
                for (size_t l = 0; l < LINKS; l++) {
                    bool pk = packed && l < 2;
                    size_t need = cuzk__g1_msm_job_chain_scratch_size(ch, in[l].n, pk);
                    CHECK(need > 0 && need != SIZE_MAX);
                    mem[l] = l == 1 ? cuzk_alloc(need) : NULL; /* link 1 in caller memory */
                    CHECK(cuzk__g1_msm_job_new_linked(
                              &jobs[l], ch, (unsigned)l, pk ? NULL : in[l].p, pk ? &src[l] : NULL,
                              raw ? NULL : in[l].k, raw ? in[l].raw : NULL,
                              fac[l] ? &in[l].factor : NULL, in[l].n, mem[l],
                              mem[l] ? need : 0) == CUZK_OK);
                    CHECK(cuzk__g1_msm_job_tasks(jobs[l]) > 0); /* even an empty link */
                }
                if (mode < 2) {
                    lanes ln = {jobs, LINKS, mode == 1};
                    cuzk_pool_run(pool, 2, lane_run, &ln);
                } else {
                    for (size_t l = 0; l < LINKS; l++)
                        cuzk__g1_msm_job_work(jobs[l], 1);
                }
                for (size_t l = 0; l < LINKS; l++) {
                    cuzk_g1_jac_t got = poisoned_g1();
                    cuzk__g1_msm_job_finish(jobs[l], &got);
                    if (l + 1 < LINKS)
                        CHECK_MSG(cuzk_g1_jac_is_infinity(&got), "link %zu of sizes %zu", l, si);
                    else
                        CHECK_MSG(cuzk_g1_eq(&got, &want), "sizes %zu form %d mode %d", si, form,
                                  mode);
                    cuzk_free(mem[l]);
                }
                cuzk__g1_msm_job_chain_free(ch);
            }
        }
        CHECK(close(fd) == 0);
        for (size_t l = 0; l < LINKS; l++)
            link_drop(&in[l]);
    }
    cuzk_pool_destroy(pool);
}

typedef struct {
    cuzk__g1_msm_chain *ch;
    cuzk__g1_msm_job *job;
} abort_ctx;

/* Worker 1 waits in link 1 for a link 0 that never runs; worker 0 aborts the chain. */
static void abort_run(void *ctx, size_t t)
{
    abort_ctx *a = ctx;
    if (t == 0) {
        sleep_ms(20);
        cuzk__g1_msm_job_chain_abort(a->ch);
    } else {
        cuzk__g1_msm_job_work(a->job, 0);
    }
}

CUZK_TEST(msm_job_chain_abort_and_bad_args)
{
    link_in in;
    link_make(&in, 500);
    cuzk_pool *pool;
    CHECK(cuzk_pool_create(&pool, 2) == CUZK_OK);
    cuzk__g1_msm_chain *ch = NULL;
    CHECK(cuzk__g1_msm_job_chain_new(&ch, 1000, 2, 2) == CUZK_OK);
    cuzk__g1_msm_job *job = (cuzk__g1_msm_job *)&job;
    CHECK(cuzk__g1_msm_job_new_linked(&job, ch, 2, in.p, NULL, in.k, NULL, NULL, in.n, NULL, 0) ==
              CUZK_ERR_INVALID_ARG &&
          !job);
    CHECK(cuzk__g1_msm_job_new_linked(&job, ch, 1, in.p, NULL, in.k, in.raw, NULL, in.n, NULL,
                                      0) == CUZK_ERR_INVALID_ARG &&
          !job);
    cuzk__packed_bases src = cuzk__packed_in_memory(in.pk);
    CHECK(cuzk__g1_msm_job_new_linked(&job, ch, 1, in.p, &src, in.k, NULL, NULL, in.n, NULL, 0) ==
              CUZK_ERR_INVALID_ARG &&
          !job);
    static unsigned char small[64]; /* memory too small for the link */
    CHECK(cuzk__g1_msm_job_new_linked(&job, ch, 1, in.p, NULL, in.k, NULL, NULL, in.n, small,
                                      sizeof small) == CUZK_ERR_INVALID_ARG &&
          !job);
    CHECK(cuzk__g1_msm_job_new_linked(&job, NULL, 0, in.p, NULL, in.k, NULL, NULL, in.n, NULL,
                                      0) == CUZK_ERR_INVALID_ARG &&
          !job);
    cuzk__g1_msm_chain *bad = (cuzk__g1_msm_chain *)&bad;
    CHECK(cuzk__g1_msm_job_chain_new(&bad, 10, 0, 2) == CUZK_ERR_INVALID_ARG && !bad);
    CHECK(cuzk__g1_msm_job_chain_new(&bad, 10, 2, 0) == CUZK_ERR_INVALID_ARG && !bad);
    /* link 1 alone: its worker waits for link 0 until the abort */
    CHECK(cuzk__g1_msm_job_new_linked(&job, ch, 1, in.p, NULL, in.k, NULL, NULL, in.n, NULL, 0) ==
          CUZK_OK);
    abort_ctx a = {ch, job};
    cuzk_pool_run(pool, 2, abort_run, &a);
    cuzk_g1_jac_t got = poisoned_g1();
    cuzk__g1_msm_job_finish(job, &got);
    CHECK(cuzk_g1_jac_is_infinity(&got));
    cuzk__g1_msm_job_chain_abort(NULL);
    cuzk__g1_msm_job_chain_free(ch);
    cuzk__g1_msm_job_chain_free(NULL);
    cuzk_pool_destroy(pool);
    link_drop(&in);
}
