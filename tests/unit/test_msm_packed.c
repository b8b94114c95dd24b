/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * MSMs over packed bases (src/msm/msm_packed.h: the zkey's 96 / 192-byte points) against the
 * same MSMs over the affine points: whole-call decoding with and without the endomorphism split,
 * one and two threads, both accumulations, Montgomery and raw scalars, bases at infinity (all
 * zero), the sliced one-thread MSM that decodes each slice where the last one was, and the G1
 * MSM job. Every sum is written over a poisoned output. The bases are given in memory and as a
 * file (read with pread at an offset that is not a multiple of 8, as a zkey's sections are); a
 * file that ends before the bases gives CUZK_ERR_IO and leaves the output as it was.
 */
#include "test.h"
#include "cuzk/alloc.h"
#include "cuzk/msm.h"

#include "msm/msm_job.h"
#include "msm/msm_packed.h"
#include "test_msm_pack.h"
#include "msm/msm_slices.h"
#include "test_msm_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Bases in a file: |len| bytes of |p| written after a 13-byte header into a new temporary file,
 * unlinked at once; the file stays open. |cut| bytes of the bases are left off the end (a file
 * shorter than the key says). */
typedef struct {
    cuzk__packed_bases src;
} packed_file;

static packed_file packed_to_file(const uint8_t *p, size_t len, size_t cut)
{
    char path[] = "/tmp/cuzk-packed-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    CHECK(unlink(path) == 0);
    static const uint8_t hdr[13] = "zkey-section";
    CHECK(write(fd, hdr, sizeof hdr) == (ssize_t)sizeof hdr);
    CHECK(len - cut == 0 || write(fd, p, len - cut) == (ssize_t)(len - cut));
    return (packed_file){{NULL, fd, sizeof hdr}};
}

static void packed_file_close(packed_file *f)
{
    CHECK(close(f->src.fd) == 0);
}

static const cuzk_msm_opts PACKED_MODES[] = {
    {0},
    {.endo = CUZK_MSM_ENDO_OFF},
    {.endo = CUZK_MSM_ENDO_ON, .accum = CUZK_MSM_ACCUM_XYZZ},
    {.endo = CUZK_MSM_ENDO_ON, .accum = CUZK_MSM_ACCUM_AFFINE, .window = 5, .chunks = 3},
};
#define NPACKED_MODES (sizeof PACKED_MODES / sizeof PACKED_MODES[0])

/* The packed MSM of |n| points equals the affine one, for every mode, thread count and scalar
 * form, over a poisoned output. */
#define DEFINE_PACKED_CHECK(G, AFF, JAC, BYTES)                                                    \
    static void G##_packed_check(const AFF *p, const cuzk_fr_t *k, const uint64_t *raw, size_t n,  \
                                 cuzk_pool *pool)                                                  \
    {                                                                                              \
        uint8_t *pk = G##_pack(p, n);                                                              \
        size_t bytes = n * BYTES;                                                                  \
        packed_file f = packed_to_file(pk, bytes, 0);                                              \
        cuzk__packed_bases src[2] = {cuzk__packed_in_memory(pk), f.src};                           \
        for (size_t m = 0; m < NPACKED_MODES; m++) {                                               \
            for (int t = 0; t < 4; t++) {                                                          \
                cuzk_pool *pl = t & 1 ? pool : NULL;                                               \
                const cuzk__packed_bases *b = &src[t >> 1];                                        \
                JAC want, got = poisoned_##G();                                                    \
                CHECK(cuzk_##G##_msm_ex(&want, p, k, n, pl, &PACKED_MODES[m]) == CUZK_OK);         \
                CHECK(cuzk__##G##_msm_packed(&got, b, k, NULL, n, pl, &PACKED_MODES[m]) ==         \
                      CUZK_OK);                                                                    \
                CHECK_MSG(cuzk_##G##_eq(&got, &want), #G " mont n=%zu mode %zu case %d", n, m, t); \
                got = poisoned_##G();                                                              \
                CHECK(cuzk__##G##_msm_packed(&got, b, NULL, raw, n, pl, &PACKED_MODES[m]) ==       \
                      CUZK_OK);                                                                    \
                CHECK_MSG(cuzk_##G##_eq(&got, &want), #G " raw n=%zu mode %zu case %d", n, m, t);  \
            }                                                                                      \
        }                                                                                          \
        packed_file_close(&f);                                                                     \
        if (n > 0) { /* one byte short: the decode's read fails, out stays poisoned */             \
            f = packed_to_file(pk, bytes, 1);                                                      \
            for (int t = 0; t < 2; t++) {                                                          \
                JAC got = poisoned_##G(), p0 = poisoned_##G();                                     \
                CHECK(cuzk__##G##_msm_packed(&got, &f.src, k, NULL, n, t ? pool : NULL, NULL) ==   \
                      CUZK_ERR_IO);                                                                \
                CHECK(memcmp(&got, &p0, sizeof got) == 0);                                         \
            }                                                                                      \
            packed_file_close(&f);                                                                 \
        }                                                                                          \
        cuzk_free(pk);                                                                             \
    }
DEFINE_PACKED_CHECK(g1, cuzk_g1_affine_t, cuzk_g1_jac_t, CUZK__G1_PACKED_BYTES)
DEFINE_PACKED_CHECK(g2, cuzk_g2_affine_t, cuzk_g2_jac_t, CUZK__G2_PACKED_BYTES)

CUZK_TEST(msm_packed_bases)
{
    enum { MAXN = 1500 };
    static const size_t sizes[] = {0, 1, 2, 7, 64, 1000, MAXN};
    cuzk_pool *pool;
    CHECK(cuzk_pool_create(&pool, 2) == CUZK_OK);
    cuzk_g1_affine_t *p1 = g1_points(MAXN);
    cuzk_g2_affine_t *p2 = g2_points(MAXN);
    cuzk_fr_t *k = cuzk_alloc_array(MAXN, sizeof *k);
    uint64_t *raw = cuzk_alloc_array(4 * MAXN, sizeof *raw);
    CHECK(k && raw);
    for (size_t i = 0; i < MAXN; i++) {
        rand_fr(&k[i]);
        cuzk_fr_to_canonical(raw + 4 * i, &k[i]);
    }
    /* Bases at infinity (first, inside, last), a repeated base and its negation. */
    cuzk_g1_affine_set_infinity(&p1[0]);
    cuzk_g2_affine_set_infinity(&p2[0]);
    cuzk_g1_affine_set_infinity(&p1[500]);
    cuzk_g2_affine_set_infinity(&p2[500]);
    cuzk_g1_affine_set_infinity(&p1[MAXN - 1]);
    cuzk_g2_affine_set_infinity(&p2[MAXN - 1]);
    p1[20] = p1[30];
    p2[20] = p2[30];
    p1[40] = p1[30];
    cuzk_fp_neg(&p1[40].y, &p1[30].y);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        g1_packed_check(p1, k, raw, sizes[s], pool);
        g2_packed_check(p2, k, raw, sizes[s], pool);
    }
    /* Exactly one scalar form; NULL bases with points are refused, and out stays as it was. */
    uint8_t *pk = g1_pack(p1, 8);
    cuzk__packed_bases b8 = cuzk__packed_in_memory(pk), none = cuzk__packed_in_memory(NULL);
    cuzk_g1_jac_t out = poisoned_g1(), p0 = poisoned_g1();
    CHECK(cuzk__g1_msm_packed(&out, &b8, k, raw, 8, NULL, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk__g1_msm_packed(&out, &b8, NULL, NULL, 8, NULL, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk__g1_msm_packed(&out, NULL, k, NULL, 8, NULL, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk__g1_msm_packed(&out, &none, k, NULL, 8, NULL, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(memcmp(&out, &p0, sizeof out) == 0);
    /* Caller memory: the size the packed MSM asks for is enough, and more than the affine
     * MSM's (its decoded bases). */
    size_t need = cuzk__g1_msm_packed_scratch_size(1000, NULL, NULL);
    CHECK(need > cuzk_g1_msm_scratch_size(1000, NULL, NULL));
    void *mem = cuzk_alloc(need);
    CHECK(mem != NULL);
    cuzk_msm_opts o = {.scratch = mem, .scratch_bytes = need};
    cuzk_g1_jac_t want;
    CHECK(cuzk_g1_msm(&want, p1, k, 1000, NULL) == CUZK_OK);
    uint8_t *pk1000 = g1_pack(p1, 1000);
    cuzk__packed_bases b1000 = cuzk__packed_in_memory(pk1000);
    CHECK(cuzk__g1_msm_packed(&out, &b1000, k, NULL, 1000, NULL, &o) == CUZK_OK);
    CHECK(cuzk_g1_eq(&out, &want));
    o.scratch_bytes = need / 2;
    CHECK(cuzk__g1_msm_packed(&out, &b1000, k, NULL, 1000, NULL, &o) == CUZK_ERR_INVALID_ARG);
    cuzk_free(mem);
    cuzk_free(pk1000);
    cuzk_free(pk);
    cuzk_free(raw);
    cuzk_free(k);
    cuzk_free(p2);
    cuzk_free(p1);
    cuzk_pool_destroy(pool);
}

/* The G1 MSM job over packed bases, two workers, with and without a split, in caller memory. */
CUZK_TEST(msm_job_packed_bases)
{
    enum { N = 3000 };
    cuzk_g1_affine_t *p = g1_points(N);
    cuzk_fr_t *k = cuzk_alloc_array(N, sizeof *k);
    uint64_t *raw = cuzk_alloc_array(4 * N, sizeof *raw);
    CHECK(k && raw);
    for (size_t i = 0; i < N; i++) {
        rand_fr(&k[i]);
        cuzk_fr_to_canonical(raw + 4 * i, &k[i]);
    }
    cuzk_g1_affine_set_infinity(&p[77]);
    uint8_t *pk = g1_pack(p, N);
    packed_file f = packed_to_file(pk, N * CUZK__G1_PACKED_BYTES, 0);
    cuzk__packed_bases src[2] = {cuzk__packed_in_memory(pk), f.src};
    cuzk_g1_jac_t want;
    CHECK(cuzk_g1_msm(&want, p, k, N, NULL) == CUZK_OK);
    for (unsigned split = 0; split <= 3; split += 3) {
        size_t need = cuzk__g1_msm_job_scratch_size_packed(N, 2, split);
        CHECK(need > cuzk__g1_msm_job_scratch_size(N, 2, split) && need != SIZE_MAX);
        void *mem = cuzk_alloc(need);
        CHECK(mem != NULL);
        for (int form = 0; form < 4; form++) {
            cuzk__g1_msm_job *job = NULL;
            bool r = form & 1;
            CHECK(cuzk__g1_msm_job_new_packed(&job, &src[form >> 1], r ? NULL : k, r ? raw : NULL,
                                              N, 2, split, mem, need) == CUZK_OK);
            cuzk__g1_msm_job_work(job, 1);
            cuzk__g1_msm_job_work(job, 0);
            cuzk_g1_jac_t got = poisoned_g1();
            cuzk__g1_msm_job_finish(job, &got);
            CHECK_MSG(cuzk_g1_eq(&got, &want), "job split %u case %d", split, form);
        }
        cuzk_free(mem);
    }
    packed_file_close(&f);
    cuzk__g1_msm_job *job = NULL;
    CHECK(cuzk__g1_msm_job_new_packed(&job, &src[0], k, raw, N, 2, 0, NULL, 0) ==
              CUZK_ERR_INVALID_ARG &&
          !job);
    /* A file that ends inside the last base: the job is refused (its own memory freed). */
    f = packed_to_file(pk, N * CUZK__G1_PACKED_BYTES, 50);
    CHECK(cuzk__g1_msm_job_new_packed(&job, &f.src, k, NULL, N, 2, 0, NULL, 0) == CUZK_ERR_IO &&
          !job);
    packed_file_close(&f);
    cuzk_free(pk);
    cuzk_free(raw);
    cuzk_free(k);
    cuzk_free(p);
}

/*
 * One-thread MSMs large enough to make their images in slices, with packed bases: each slice's
 * bases are decoded where the previous slice's were, so a batch entry left pointing into the
 * last slice would add the wrong point. Bases at infinity fall in several slices; the plan must
 * slice (the test would otherwise check nothing new).
 */
CUZK_TEST(msm_packed_in_slices)
{
    const size_t n = 20037;
    static const cuzk_msm_opts modes[] = {
        {0},
        {.endo = CUZK_MSM_ENDO_ON, .accum = CUZK_MSM_ACCUM_XYZZ},
    };
    uint64_t *raw = cuzk_alloc_array(4 * n, sizeof *raw);
    CHECK(raw != NULL);
    for (size_t i = 0; i < n; i++) {
        cuzk_fr_t k;
        rand_fr(&k);
        cuzk_fr_to_canonical(raw + 4 * i, &k);
    }
    /* Small points fast: multiples of the generator (distinct, none at infinity), then some. */
    cuzk_g2_affine_t *p2 = cuzk_alloc_array(n, sizeof *p2);
    cuzk_g2_jac_t *tmp = cuzk_alloc_array(n, sizeof *tmp), step;
    CHECK(p2 && tmp);
    cuzk_g2_affine_t g;
    cuzk_g2_generator(&g);
    cuzk_g2_from_affine(&step, &g);
    cuzk_fr_t k0;
    rand_fr(&k0);
    cuzk_g2_mul_vartime(&tmp[0], &step, &k0);
    for (size_t i = 1; i < n; i++)
        cuzk_g2_add(&tmp[i], &tmp[i - 1], &step);
    cuzk_g2_batch_to_affine(p2, tmp, n);
    cuzk_free(tmp);
    for (size_t i = 1000; i < n; i += 4099)
        cuzk_g2_affine_set_infinity(&p2[i]);
    p2[10] = p2[3600]; /* the same point twice, equal scalars: a doubling inside a batch */
    memcpy(raw + 4 * 10, raw + 4 * 3600, 32);
    uint8_t *pk = g2_pack(p2, n);
    packed_file f = packed_to_file(pk, n * CUZK__G2_PACKED_BYTES, 0);
    cuzk__packed_bases src[2] = {cuzk__packed_in_memory(pk), f.src};
    cuzk_g2_jac_t want;
    CHECK(cuzk_g2_msm_raw(&want, p2, raw, n, NULL) == CUZK_OK);
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        CHECK_MSG(cuzk__g2_msm_slices(n, NULL, &modes[m], true) > 1, "mode %zu slices", m);
        for (int b = 0; b < 2; b++) {
            cuzk_g2_jac_t got = poisoned_g2();
            CHECK(cuzk__g2_msm_packed(&got, &src[b], NULL, raw, n, NULL, &modes[m]) == CUZK_OK);
            CHECK_MSG(cuzk_g2_eq(&got, &want), "G2 packed sliced, mode %zu, %s", m,
                      b ? "file" : "memory");
        }
    }
    packed_file_close(&f);
    /* A file that ends inside the last slice: the sliced MSM stops there, out untouched. */
    f = packed_to_file(pk, n * CUZK__G2_PACKED_BYTES, CUZK__G2_PACKED_BYTES + 7);
    cuzk_g2_jac_t got = poisoned_g2(), p0 = poisoned_g2();
    CHECK(cuzk__g2_msm_packed(&got, &f.src, NULL, raw, n, NULL, &modes[0]) == CUZK_ERR_IO);
    CHECK(memcmp(&got, &p0, sizeof got) == 0);
    packed_file_close(&f);
    cuzk_free(pk);
    cuzk_free(p2);
    cuzk_free(raw);
}
