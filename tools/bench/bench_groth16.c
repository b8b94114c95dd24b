/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Groth16 verification benchmarks: a simulated key with a handful of inputs, and the real
 * WinningPoSt 2 KiB key and proof (132 inputs) when the fixtures are present. */
#include "bench.h"
#include "cuzk/filecoin.h"
#include "cuzk/groth16.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct {
    const cuzk_groth16_vk *vk;
    const cuzk_groth16_proof *proof;
    const cuzk_fr_t *inputs;
    size_t n;
} verify_ctx;

static void body_verify(void *p, uint64_t reps)
{
    verify_ctx *c = p;
    for (uint64_t i = 0; i < reps; i++) {
        if (cuzk_groth16_verify(c->vk, c->proof, c->inputs, c->n) != CUZK_OK) {
            fprintf(stderr, "bench: a valid proof failed to verify: %s\n", cuzk_last_error());
            exit(2);
        }
    }
}

int bench_groth16_main(const bench_opts *o)
{
    enum { N = 5 };
    cuzk_groth16_vk *vk;
    cuzk_groth16_proof pr;
    cuzk_fr_t x[N];
    if (cuzk_groth16_simulate(&vk, &pr, x, N, 42) != CUZK_OK) {
        fprintf(stderr, "bench: %s\n", cuzk_last_error());
        return 2;
    }
    verify_ctx c = {vk, &pr, x, N};
    bench_run(o, "groth16_verify", N, body_verify, &c);
    cuzk_groth16_vk_free(vk);

    /* The real WinningPoSt key: inputs derived from the fixture's public values. */
    const char *dir = getenv("CUZK_FIXTURES") ? getenv("CUZK_FIXTURES") : "../shared/fixtures";
    char path[512];
    snprintf(path, sizeof path, "%s/filecoin/winning-post-2kib.vk", dir);
    if (cuzk_groth16_vk_load(&vk, path) != CUZK_OK)
        return 0; /* fixtures absent: only the simulated figure */
    static const uint8_t randomness[32] = {0x2a, 0x07};
    static const uint8_t comm_r[32] = {
        0x4a, 0xe5, 0x30, 0x0a, 0x1b, 0x88, 0x60, 0x46, 0xc0, 0x42, 0x71, 0xde, 0xb6, 0x95, 0x26, 0x75,
        0xf2, 0x9e, 0xb6, 0x4f, 0x5b, 0xbe, 0x03, 0x65, 0xaf, 0x85, 0x47, 0x25, 0x2a, 0xef, 0x95, 0x12};
    static const char proof_hex[] =
        "936fc7fee3cba8ca4d001760f72323fb6346df5a8aa8afd268ceaea135aaa48fbe19683a55006702ee361584"
        "62fb1d28ac9fa9de18ee7e967a23dad2680cc21630762b857bf6fa03657549e2aba2fcee3b1629cf8df6ec18"
        "c035fb1904f304120bf08c420147742b99f18a918b029083aa4221bd4c965b7620314723d810225f70a3c586"
        "b4905fdfedf821cfded4739fa981361831ac27cdb130e5cdfbeac37dc04caf00264d8d6c0c70fc78a1630041"
        "c086d00a1640bd7b2d38ef0591c8a766";
    uint8_t pb[192];
    for (int i = 0; i < 192; i++) {
        unsigned v;
        sscanf(proof_hex + 2 * i, "%2x", &v);
        pb[i] = (uint8_t)v;
    }
    cuzk_fr_t in[132];
    size_t n;
    if (cuzk_groth16_proof_parse(&pr, pb) != CUZK_OK ||
        cuzk_fil_winning_post_inputs(in, 132, &n, 0, randomness, 7, comm_r) != CUZK_OK) {
        fprintf(stderr, "bench: %s\n", cuzk_last_error());
        cuzk_groth16_vk_free(vk);
        return 2;
    }
    verify_ctx w = {vk, &pr, in, n};
    bench_run(o, "groth16_verify_winning_post", n, body_verify, &w);
    cuzk_groth16_vk_free(vk);
    return 0;
}
