/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk-bench curve: G1/G2 group law, scalar multiplication, subgroup checks, decoding. */
#include "bench.h"
#include "cuzk/curve.h"
#include "msm/subgroup.h"

#include <stdio.h>
#include <stdlib.h>

#define BATCH 1024

typedef struct {
    cuzk_g1_jac_t p1, q1;
    cuzk_g1_affine_t a1;
    cuzk_g1_xyzz_t x1;
    cuzk_g2_jac_t p2, q2;
    cuzk_g2_affine_t a2;
    cuzk_fr_t k;
    uint8_t c1[48], c2[96];
    uint8_t sink[32];
    cuzk_g1_jac_t *batch_in;
    cuzk_g1_affine_t *batch_out;
    cuzk_g1_affine_t *sg1; /* BATCH points of G1 / G2 for the many-point subgroup checks */
    cuzk_g2_affine_t *sg2;
} curve_ctx;

/* Each body feeds its output back into its input so that no call can be skipped. */
#define BODY(name, stmt)                                                                           \
    static void name(void *vctx, uint64_t reps)                                                    \
    {                                                                                              \
        curve_ctx *c = vctx;                                                                       \
        for (uint64_t i = 0; i < reps; i++) {                                                      \
            stmt;                                                                                  \
        }                                                                                          \
        bench_sink(c, sizeof *c);                                                                  \
    }

BODY(b_g1_add, cuzk_g1_add(&c->p1, &c->p1, &c->q1))
BODY(b_g1_add_affine, cuzk_g1_add_affine(&c->p1, &c->p1, &c->a1))
BODY(b_g1_dbl, cuzk_g1_dbl(&c->p1, &c->p1))
BODY(b_g1_xyzz_add_affine, cuzk_g1_xyzz_add_affine(&c->x1, &c->x1, &c->a1))
BODY(b_g1_mul, cuzk_g1_mul(&c->p1, &c->p1, &c->k))
BODY(b_g1_mul_vartime, cuzk_g1_mul_vartime(&c->p1, &c->p1, &c->k))
BODY(b_g2_add, cuzk_g2_add(&c->p2, &c->p2, &c->q2))
BODY(b_g2_dbl, cuzk_g2_dbl(&c->p2, &c->p2))
BODY(b_g2_mul, cuzk_g2_mul(&c->p2, &c->p2, &c->k))
BODY(b_g2_mul_vartime, cuzk_g2_mul_vartime(&c->p2, &c->p2, &c->k))
BODY(b_g1_subgroup_check, c->sink[i & 31] ^= (uint8_t)cuzk_g1_in_subgroup(&c->p1))
BODY(b_g2_subgroup_check, c->sink[i & 31] ^= (uint8_t)cuzk_g2_in_subgroup(&c->p2))
BODY(b_g1_uncompress, c->sink[i & 31] ^= (uint8_t)cuzk_g1_uncompress(&c->a1, c->c1))
BODY(b_g2_uncompress, c->sink[i & 31] ^= (uint8_t)cuzk_g2_uncompress(&c->a2, c->c2))

/* Subgroup checks of |reps| points, BATCH at a time (src/msm/subgroup.h: 8 lanes with IFMA). */
#define SUBGROUP_BATCH(name, first_outside, points)                                                \
    static void name(void *vctx, uint64_t reps)                                                    \
    {                                                                                              \
        curve_ctx *c = vctx;                                                                       \
        for (uint64_t done = 0; done < reps;) {                                                    \
            size_t n = reps - done < BATCH ? (size_t)(reps - done) : BATCH;                        \
            c->sink[done & 31] ^= (uint8_t)first_outside(c->points, n);                            \
            done += n;                                                                             \
        }                                                                                          \
        bench_sink(c->sink, sizeof c->sink);                                                       \
    }
SUBGROUP_BATCH(b_g1_subgroup_batch, cuzk__g1_first_outside_subgroup, sg1)
SUBGROUP_BATCH(b_g2_subgroup_batch, cuzk__g2_first_outside_subgroup, sg2)

/* |reps| points in batches of BATCH (the last one partial). */
static void b_g1_batch_to_affine(void *vctx, uint64_t reps)
{
    curve_ctx *c = vctx;
    for (uint64_t done = 0; done < reps;) {
        size_t n = reps - done < BATCH ? (size_t)(reps - done) : BATCH;
        cuzk_g1_batch_to_affine(c->batch_out, c->batch_in, n);
        bench_sink(c->batch_out, n * sizeof c->batch_out[0]);
        done += n;
    }
}

int bench_curve_main(const bench_opts *o)
{
    curve_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        fprintf(stderr, "cuzk-bench curve: out of memory\n");
        return 2;
    }
    c->batch_in = calloc(BATCH, sizeof c->batch_in[0]);
    c->batch_out = calloc(BATCH, sizeof c->batch_out[0]);
    c->sg1 = calloc(BATCH, sizeof c->sg1[0]);
    c->sg2 = calloc(BATCH, sizeof c->sg2[0]);
    if (!c->batch_in || !c->batch_out || !c->sg1 || !c->sg2) {
        fprintf(stderr, "cuzk-bench curve: out of memory\n");
        free(c->batch_in);
        free(c->batch_out);
        free(c->sg1);
        free(c->sg2);
        free(c);
        return 2;
    }
    /* A fixed full-size scalar and non-trivial points with Z != 1. */
    static const uint64_t kl[4] = {0x243f6a8885a308d3ULL, 0x13198a2e03707344ULL,
                                   0xa4093822299f31d0ULL, 0x082efa98ec4e6c89ULL};
    if (!cuzk_fr_from_canonical(&c->k, kl)) {
        fprintf(stderr, "cuzk-bench curve: bad scalar\n");
        goto fail;
    }
    cuzk_g1_affine_t g1;
    cuzk_g2_affine_t g2;
    cuzk_g1_generator(&g1);
    cuzk_g2_generator(&g2);
    cuzk_g1_from_affine(&c->p1, &g1);
    cuzk_g1_mul_vartime(&c->p1, &c->p1, &c->k);
    cuzk_g1_dbl(&c->q1, &c->p1);
    cuzk_g1_add(&c->q1, &c->q1, &c->p1);
    cuzk_g1_to_affine(&c->a1, &c->q1);
    cuzk_g1_xyzz_from_affine(&c->x1, &g1);
    cuzk_g1_compress(c->c1, &c->a1);
    cuzk_g2_from_affine(&c->p2, &g2);
    cuzk_g2_mul_vartime(&c->p2, &c->p2, &c->k);
    cuzk_g2_dbl(&c->q2, &c->p2);
    cuzk_g2_add(&c->q2, &c->q2, &c->p2);
    cuzk_g2_to_affine(&c->a2, &c->q2);
    cuzk_g2_compress(c->c2, &c->a2);
    /* The decoding benchmarks must measure the successful path. */
    cuzk_g1_affine_t chk1;
    cuzk_g2_affine_t chk2;
    if (cuzk_g1_uncompress(&chk1, c->c1) != CUZK_OK ||
        cuzk_g2_uncompress(&chk2, c->c2) != CUZK_OK) {
        fprintf(stderr, "cuzk-bench curve: self-check of the encodings failed: %s\n",
                cuzk_last_error());
        goto fail;
    }
    c->batch_in[0] = c->p1;
    for (size_t i = 1; i < BATCH; i++)
        cuzk_g1_add(&c->batch_in[i], &c->batch_in[i - 1], &c->q1);
    cuzk_g1_batch_to_affine(c->sg1, c->batch_in, BATCH);
    for (size_t i = 0; i < BATCH; i++) {
        cuzk_g2_to_affine(&c->sg2[i], &c->p2);
        cuzk_g2_add(&c->p2, &c->p2, &c->q2);
    }
    if (cuzk__g1_first_outside_subgroup(c->sg1, BATCH) != BATCH ||
        cuzk__g2_first_outside_subgroup(c->sg2, BATCH) != BATCH) {
        fprintf(stderr, "cuzk-bench curve: self-check of the subgroup points failed\n");
        goto fail;
    }

    bench_run(o, "g1_add", 0, b_g1_add, c);
    bench_run(o, "g1_add_affine", 0, b_g1_add_affine, c);
    bench_run(o, "g1_dbl", 0, b_g1_dbl, c);
    bench_run(o, "g1_xyzz_add_affine", 0, b_g1_xyzz_add_affine, c);
    bench_run(o, "g1_mul", 0, b_g1_mul, c);
    bench_run(o, "g1_mul_vartime", 0, b_g1_mul_vartime, c);
    bench_run(o, "g2_add", 0, b_g2_add, c);
    bench_run(o, "g2_dbl", 0, b_g2_dbl, c);
    bench_run(o, "g2_mul", 0, b_g2_mul, c);
    bench_run(o, "g2_mul_vartime", 0, b_g2_mul_vartime, c);
    /* The multiplications above keep p1/p2 in the subgroup, so the checks take the full path. */
    bench_run(o, "g1_subgroup_check", 0, b_g1_subgroup_check, c);
    bench_run(o, "g2_subgroup_check", 0, b_g2_subgroup_check, c);
    bench_run(o, "g1_subgroup_batch", BATCH, b_g1_subgroup_batch, c);
    bench_run(o, "g2_subgroup_batch", BATCH, b_g2_subgroup_batch, c);
    bench_run(o, "g1_uncompress", 0, b_g1_uncompress, c);
    bench_run(o, "g2_uncompress", 0, b_g2_uncompress, c);
    bench_run(o, "g1_batch_to_affine", BATCH, b_g1_batch_to_affine, c);

    free(c->batch_in);
    free(c->batch_out);
    free(c->sg1);
    free(c->sg2);
    free(c);
    return 0;
fail:
    free(c->batch_in);
    free(c->batch_out);
    free(c->sg1);
    free(c->sg2);
    free(c);
    return 2;
}
