/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Setup -> .params -> prove -> verify round trips on small circuits built in the test. */
#include "test.h"
#include "test_curve_util.h"
#include "cuzk/alloc.h"
#include "cuzk/backend.h"
#include "cuzk/groth16.h"
#include "cuzk/hostpool.h"
#include "cuzk/r1cs.h"

#include <unistd.h>

/* A small circuit: a chain y_{i+1} = y_i^2 + y_i * x + 5 with x and the last y public, plus a
 * boolean b with b * (1 - b) = 0 (so B touches ONE and aux), |steps| from params->arg. The
 * witness starts from params->seed; arg bit 31 makes the witness wrong (for the negative test). */
static cuzk_status toy_synth(cuzk_cs *cs, const void *vp)
{
    const cuzk_circuit_params *p = vp;
    uint64_t steps = p->arg & 0xffff;
    bool corrupt = (p->arg >> 31) & 1;
    cuzk_fr_t xv, yv, t, five, bv;
    cuzk_fr_set_u64(&xv, p->seed | 3);
    cuzk_fr_set_u64(&yv, p->seed * 7 + 1);
    cuzk_fr_set_u64(&five, 5);
    cuzk_fr_set_u64(&bv, p->seed & 1);
    bool vals = cuzk_cs_has_values(cs);
    cuzk_var x, y, b;
    CUZK_TRY(cuzk_cs_alloc_input(cs, &x, vals ? &xv : NULL));
    CUZK_TRY(cuzk_cs_alloc_aux(cs, &y, vals ? &yv : NULL));
    CUZK_TRY(cuzk_cs_alloc_aux(cs, &b, vals ? &bv : NULL));
    cuzk_lc *la, *lb, *lc;
    cuzk_cs_lcs(cs, &la, &lb, &lc);
    cuzk_lc_add_var(la, b);
    cuzk_lc_add_one(lb);
    cuzk_lc_sub_var(lb, b);
    CUZK_TRY(cuzk_cs_enforce(cs, la, lb, lc));
    for (uint64_t i = 0; i < steps; i++) {
        /* y' = y * (y + x) + 5 */
        cuzk_fr_t nv;
        cuzk_fr_add(&t, &yv, &xv);
        cuzk_fr_mul(&nv, &yv, &t);
        cuzk_fr_add(&nv, &nv, &five);
        if (corrupt && i == steps / 2)
            cuzk_fr_add(&nv, &nv, &five);
        cuzk_var ny;
        if (i + 1 == steps)
            CUZK_TRY(cuzk_cs_alloc_input(cs, &ny, vals ? &nv : NULL));
        else
            CUZK_TRY(cuzk_cs_alloc_aux(cs, &ny, vals ? &nv : NULL));
        cuzk_cs_lcs(cs, &la, &lb, &lc);
        cuzk_lc_add_var(la, y);
        cuzk_lc_add_var(lb, y);
        cuzk_lc_add_var(lb, x);
        cuzk_lc_add_var(lc, ny);
        cuzk_lc_add(lc, cuzk_var_one(), &five);
        cuzk_fr_neg(&t, &five);
        cuzk_lc_add(lc, cuzk_var_one(), &t);
        cuzk_lc_add(lc, cuzk_var_one(), &t); /* net: C = ny - 5 */
        CUZK_TRY(cuzk_cs_enforce(cs, la, lb, lc));
        y = ny;
        yv = nv;
    }
    return CUZK_OK;
}

static cuzk_groth16_params *make_params(uint64_t steps)
{
    cuzk_circuit c = {"toy", "toy chain", toy_synth, {.arg = steps, .seed = 0}};
    cuzk_cs *cs;
    cuzk_r1cs_matrices m;
    cuzk_groth16_params *p;
    CHECK(cuzk_cs_create(&cs, CUZK_CS_KEYGEN, 0, 0) == CUZK_OK);
    CHECK(cuzk_circuit_synthesize(cs, &c) == CUZK_OK);
    CHECK(cuzk_cs_take_matrices(cs, &m) == CUZK_OK);
    cuzk_cs_destroy(cs);
    CHECK_MSG(cuzk_groth16_setup(&p, &m, NULL) == CUZK_OK, "%s", cuzk_last_error());
    cuzk_r1cs_matrices_free(&m);
    return p;
}

/* |how|: 0 PROVE synthesis, 1 WITNESS + PCE, 2 PROVE_AB (no c: the prover forms a * b). */
static cuzk_status prove_once(cuzk_groth16_proof *pr, const cuzk_groth16_params *p,
                              cuzk_backend *be, uint64_t steps, uint64_t seed, int how,
                              cuzk_prover_data *keep_inputs)
{
    cuzk_circuit c = {"toy", "toy chain", toy_synth, {.arg = steps, .seed = seed}};
    cuzk_cs *cs;
    cuzk_prover_data pd;
    const bool use_pce = how == 1;
    CHECK(cuzk_cs_create(&cs,
                         how == 1   ? CUZK_CS_WITNESS
                         : how == 2 ? CUZK_CS_PROVE_AB
                                    : CUZK_CS_PROVE,
                         0, 0) == CUZK_OK);
    CHECK(cuzk_circuit_synthesize(cs, &c) == CUZK_OK);
    CHECK(cuzk_cs_take_prover_data(cs, &pd) == CUZK_OK);
    CHECK((pd.c == NULL) == (how != 0)); /* WITNESS and PROVE_AB keep no c */
    cuzk_cs_destroy(cs);
    if (use_pce) {
        cuzk_pce *pce;
        CHECK(cuzk_pce_extract(&pce, &c) == CUZK_OK);
        CHECK(cuzk_pce_eval_into(pce, NULL, &pd) == CUZK_OK);
        cuzk_pce_destroy(pce);
    }
    cuzk_prove_opts o = {.verify = true};
    cuzk_prove_timings tm = {0};
    cuzk_status s = cuzk_groth16_prove(pr, p, &pd, be, &o, &tm);
    CHECK(s != CUZK_OK || pd.a == NULL); /* consumed by a successful prove */
    /* the split's own time is measured and inside the proof's */
    CHECK(s != CUZK_OK || (tm.split > 0 && tm.split <= tm.total));
    if (keep_inputs) {
        *keep_inputs = pd;
        return s;
    }
    cuzk_prover_data_free(&pd);
    return s;
}

CUZK_TEST(groth16_prove_roundtrip)
{
    cuzk_backend *be;
    CHECK(cuzk_backend_create(&be, CUZK_BACKEND_CPU, 2) == CUZK_OK);
    static const uint64_t sizes[] = {1, 2, 9, 70};
    for (size_t si = 0; si < 4; si++) {
        uint64_t steps = sizes[si];
        cuzk_groth16_params *p = make_params(steps);
        uint64_t seed = test_rand_u64() >> 8;
        cuzk_groth16_proof p1, p2, p3, p4;
        cuzk_prover_data pd;
        CHECK_MSG(prove_once(&p1, p, be, steps, seed, 0, &pd) == CUZK_OK, "%s", cuzk_last_error());
        CHECK(prove_once(&p2, p, be, steps, seed, 0, NULL) == CUZK_OK);
        CHECK(prove_once(&p3, p, be, steps, seed, 1, NULL) == CUZK_OK);
        CHECK_MSG(prove_once(&p4, p, be, steps, seed, 2, NULL) == CUZK_OK, "%s", cuzk_last_error());
        /* Fresh r, s: two proofs of one witness differ, all verify independently. */
        uint8_t b1[192], b2[192];
        cuzk_groth16_proof_serialize(b1, &p1);
        cuzk_groth16_proof_serialize(b2, &p2);
        CHECK(memcmp(b1, b2, 192) != 0);
        CHECK(cuzk_groth16_verify(p->vk, &p1, pd.input + 1, pd.n_inputs - 1) == CUZK_OK);
        CHECK(cuzk_groth16_verify(p->vk, &p2, pd.input + 1, pd.n_inputs - 1) == CUZK_OK);
        CHECK(cuzk_groth16_verify(p->vk, &p3, pd.input + 1, pd.n_inputs - 1) == CUZK_OK);
        CHECK(cuzk_groth16_verify(p->vk, &p4, pd.input + 1, pd.n_inputs - 1) == CUZK_OK);
        /* A different public input fails. */
        cuzk_fr_t one;
        cuzk_fr_set_one(&one);
        cuzk_fr_add(&pd.input[1], &pd.input[1], &one);
        CHECK(cuzk_groth16_verify(p->vk, &p1, pd.input + 1, pd.n_inputs - 1) ==
              CUZK_ERR_VERIFY_FAILED);
        cuzk_prover_data_free(&pd);
        /* An unsatisfied witness never yields a proof. */
        memset(&p3, 0x5a, sizeof p3);
        cuzk_groth16_proof snap = p3;
        CHECK(prove_once(&p3, p, be, steps | (1u << 31), seed, 0, NULL) == CUZK_ERR_VERIFY_FAILED);
        CHECK(memcmp(&p3, &snap, sizeof p3) == 0);
        /* ... nor without c (c = a * b holds by construction there, and the proof still fails) */
        CHECK(prove_once(&p3, p, be, steps | (1u << 31), seed, 2, NULL) == CUZK_ERR_VERIFY_FAILED);
        CHECK(memcmp(&p3, &snap, sizeof p3) == 0);
        cuzk_groth16_params_free(p);
    }
    cuzk_backend_destroy(be);
}

/* Writes a random curve point (almost surely outside the prime-order subgroup) as bellperson
 * encodes it: 96 bytes (G1) or 192 (G2). */
static void off_subgroup(uint8_t *enc, bool g2)
{
    if (g2) {
        cuzk_g2_affine_t b;
        tc_g2_rand_curve(&b);
        cuzk_g2_serialize(enc, &b);
    } else {
        cuzk_g1_affine_t b;
        tc_g1_rand_curve(&b);
        cuzk_g1_serialize(enc, &b);
    }
}

CUZK_TEST(groth16_params_file_roundtrip_and_rejections)
{
    cuzk_groth16_params *p = make_params(5), *q;
    char path[] = "/tmp/cuzk-test-params-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    CHECK(cuzk_groth16_params_write(p, path) == CUZK_OK);
    CHECK(cuzk_groth16_params_load(&q, path, CUZK_PARAMS_CHECKED, NULL) == CUZK_OK);
    CHECK(q->n_h == p->n_h && q->n_l == p->n_l && q->n_a == p->n_a && q->n_b_g1 == p->n_b_g1);
    for (size_t i = 0; i < p->n_a; i++)
        CHECK(cuzk_g1_affine_eq(&p->a[i], &q->a[i]));
    for (size_t i = 0; i < p->n_b_g2; i++)
        CHECK(cuzk_g2_affine_eq(&p->b_g2[i], &q->b_g2[i]));
    cuzk_groth16_params_free(q);
    FILE *f = fopen(path, "rb");
    CHECK(f);
    static uint8_t buf[1 << 16];
    size_t len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    CHECK(len > 868 && len < sizeof buf);
    /* Truncation anywhere fails with a format error (or a point error inside the vk). */
    for (size_t cut = 0; cut < len; cut += 1 + len / 97) {
        q = (cuzk_groth16_params *)(uintptr_t)1;
        cuzk_status s = cuzk_groth16_params_parse(&q, buf, cut, CUZK_PARAMS_CHECKED, NULL);
        CHECK_MSG(s != CUZK_OK && q == NULL, "cut at %zu accepted", cut);
    }
    CHECK(cuzk_groth16_params_parse(&q, buf, len + 1, CUZK_PARAMS_CHECKED, NULL) ==
          CUZK_ERR_FORMAT);
    /* A corrupted point in the last (b_g2) query: off the curve. */
    buf[len - 1] ^= 1;
    CHECK(cuzk_groth16_params_parse(&q, buf, len, CUZK_PARAMS_CHECKED, NULL) ==
          CUZK_ERR_NOT_ON_CURVE);
    CHECK(cuzk_groth16_params_parse(&q, buf, len, CUZK_PARAMS_UNCHECKED, NULL) ==
          CUZK_ERR_NOT_ON_CURVE);
    buf[len - 1] ^= 1;
    /* A query length larger than the file. */
    size_t hoff = 868 + 96 * p->vk->ic_len;
    buf[hoff] = 0x7f;
    CHECK(cuzk_groth16_params_parse(&q, buf, len, CUZK_PARAMS_CHECKED, NULL) == CUZK_ERR_FORMAT);
    buf[hoff] = 0;
    CHECK(cuzk_groth16_params_parse(&q, buf, len, CUZK_PARAMS_CHECKED, NULL) == CUZK_OK);
    cuzk_groth16_params_free(q);
    /* Points on the curve outside the subgroup (the first of H, the last of B in G2): the
     * checked mode refuses them, the unchecked one takes them. */
    for (int g2 = 0; g2 < 2; g2++) {
        size_t at = g2 ? len - 192 : hoff + 4, sz = g2 ? 192 : 96;
        uint8_t keep[192];
        memcpy(keep, buf + at, sz);
        off_subgroup(buf + at, g2);
        CHECK(cuzk_groth16_params_parse(&q, buf, len, CUZK_PARAMS_CHECKED, NULL) ==
              CUZK_ERR_NOT_IN_SUBGROUP);
        CHECK(cuzk_groth16_params_parse(&q, buf, len, CUZK_PARAMS_UNCHECKED, NULL) == CUZK_OK);
        cuzk_groth16_params_free(q);
        memcpy(buf + at, keep, sz);
    }
    CHECK(cuzk_groth16_params_load(&q, "/nonexistent/x.params", CUZK_PARAMS_CHECKED, NULL) ==
          CUZK_ERR_IO);
    unlink(path);
    /* Writing into a missing directory fails and leaves nothing behind. */
    CHECK(cuzk_groth16_params_write(p, "/nonexistent/dir/x.params") == CUZK_ERR_IO);
    cuzk_groth16_params_free(p);
}

/* The check cache with .params (cuzk_groth16_params_load_cached): tested once, then found; a
 * point outside its subgroup in any query (at a random index) is still found and named, and
 * nothing is recorded for it; unchecked loads neither read nor write the record. */
CUZK_TEST(groth16_params_check_cache)
{
    cuzk_groth16_params *p = make_params(5), *q, *r;
    char dir[] = "/tmp/cuzk-test-pcc-XXXXXX", path[64], rec[64], bad[64];
    CHECK(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/x.params", dir);
    snprintf(rec, sizeof rec, "%s/rec", dir);
    snprintf(bad, sizeof bad, "%s/bad.params", dir);
    CHECK(cuzk_groth16_params_write(p, path) == CUZK_OK);
    cuzk_check_cache *c;
    CHECK(cuzk_check_cache_open(&c, rec) == CUZK_OK);
    CHECK(cuzk_groth16_params_load_cached(&q, path, CUZK_PARAMS_UNCHECKED, NULL, c) == CUZK_OK);
    CHECK(q->subgroups == CUZK_SUBGROUPS_NOT_CHECKED && access(rec, F_OK) != 0);
    cuzk_groth16_params_free(q);
    CHECK(cuzk_groth16_params_load_cached(&q, path, CUZK_PARAMS_CHECKED, cuzk_pool_default(), c) ==
          CUZK_OK);
    CHECK(q->subgroups == CUZK_SUBGROUPS_CHECKED && q->subgroups_recorded && !q->cache_error[0]);
    CHECK(cuzk_groth16_params_load_cached(&r, path, CUZK_PARAMS_CHECKED, NULL, c) == CUZK_OK);
    CHECK(r->subgroups == CUZK_SUBGROUPS_CHECKED_BEFORE && !r->subgroups_recorded);
    CHECK(memcmp(q->points_digest, r->points_digest, sizeof q->points_digest) == 0);
    for (size_t i = 0; i < p->n_h; i++)
        CHECK(cuzk_g1_affine_eq(&p->h[i], &r->h[i]));
    for (size_t i = 0; i < p->n_b_g2; i++)
        CHECK(cuzk_g2_affine_eq(&p->b_g2[i], &r->b_g2[i]));
    cuzk_groth16_params_free(q);
    cuzk_groth16_params_free(r);
    FILE *f = fopen(path, "rb");
    static uint8_t buf[1 << 16], before[4096];
    size_t len = f ? fread(buf, 1, sizeof buf, f) : 0;
    CHECK(f && len < sizeof buf);
    fclose(f);
    f = fopen(rec, "rb");
    size_t rec_len = f ? fread(before, 1, sizeof before, f) : 0;
    CHECK(f && rec_len > 0);
    fclose(f);
    const char *names[5] = {"h", "l", "a", "b_g1", "b_g2"};
    size_t n[5] = {p->n_h, p->n_l, p->n_a, p->n_b_g1, p->n_b_g2};
    size_t off = 868 + 96 * p->vk->ic_len;
    for (int k = 0; k < 5; k++) {
        size_t sz = k == 4 ? 192 : 96, i = test_rand_u64() % n[k], at = off + 4 + i * sz;
        uint8_t keep[192];
        memcpy(keep, buf + at, sz);
        off_subgroup(buf + at, k == 4);
        f = fopen(bad, "wb");
        CHECK(f && fwrite(buf, 1, len, f) == len && fclose(f) == 0);
        q = (cuzk_groth16_params *)(uintptr_t)1;
        char needle[64];
        snprintf(needle, sizeof needle, "params: %s[%zu] at byte %zu", names[k], i, at);
        cuzk_status s = cuzk_groth16_params_load_cached(&q, bad, CUZK_PARAMS_CHECKED, NULL, c);
        CHECK_MSG(s == CUZK_ERR_NOT_IN_SUBGROUP && q == NULL && strstr(cuzk_last_error(), needle),
                  "%s: %s '%s'", names[k], cuzk_status_name(s), cuzk_last_error());
        memcpy(buf + at, keep, sz);
        off += 4 + n[k] * sz;
    }
    static uint8_t after[4096];
    f = fopen(rec, "rb");
    CHECK(f && fread(after, 1, sizeof after, f) == rec_len && memcmp(after, before, rec_len) == 0);
    fclose(f);
    cuzk_check_cache_close(c);
    unlink(path);
    unlink(bad);
    unlink(rec);
    rmdir(dir);
    cuzk_groth16_params_free(p);
}

CUZK_TEST(groth16_prove_size_mismatch)
{
    cuzk_groth16_params *p = make_params(3);
    cuzk_backend *be;
    CHECK(cuzk_backend_create(&be, CUZK_BACKEND_CPU, 1) == CUZK_OK);
    cuzk_groth16_proof pr;
    CHECK(prove_once(&pr, p, be, 4, 1, false, NULL) == CUZK_ERR_INVALID_ARG);
    if (!cuzk_backend_cuda_usable()) {
        cuzk_backend *cu;
        CHECK(cuzk_backend_create(&cu, CUZK_BACKEND_CUDA, 1) == CUZK_ERR_NO_DEVICE && cu == NULL);
    }
    cuzk_backend_destroy(be);
    cuzk_groth16_params_free(p);
}

/* One proof with fixed r, s of the toy chain (|steps|, |seed|) on |be|, serialised into |out|;
 * a, b, c in |va|'s memory (NULL: cuzk_alloc), reserved for |rows_hint| rows; synthesis in |mode|
 * (PROVE, or PROVE_AB: no c). */
static void prove_fixed_mode(uint8_t out[192], const cuzk_groth16_params *p, cuzk_backend *be,
                             uint64_t steps, uint64_t seed, const cuzk_fr_t *r,
                             const cuzk_fr_t *sr, const cuzk_vec_alloc *va, size_t rows_hint,
                             cuzk_cs_mode mode)
{
    cuzk_circuit c = {"toy", "toy chain", toy_synth, {.arg = steps, .seed = seed}};
    cuzk_cs *cs;
    cuzk_prover_data pd;
    CHECK(cuzk_cs_create(&cs, mode, 0, rows_hint) == CUZK_OK);
    if (va)
        CHECK(cuzk_cs_set_vec_alloc(cs, va) == CUZK_OK);
    CHECK(cuzk_circuit_synthesize(cs, &c) == CUZK_OK);
    CHECK(cuzk_cs_take_prover_data(cs, &pd) == CUZK_OK);
    cuzk_cs_destroy(cs);
    cuzk_prove_opts o = {.verify = true, .r = r, .s = sr};
    cuzk_groth16_proof pr;
    CHECK_MSG(cuzk_groth16_prove(&pr, p, &pd, be, &o, NULL) == CUZK_OK, "%s", cuzk_last_error());
    CHECK(pd.a == NULL);
    cuzk_groth16_proof_serialize(out, &pr);
    cuzk_prover_data_free(&pd);
}

static void prove_fixed_va(uint8_t out[192], const cuzk_groth16_params *p, cuzk_backend *be,
                           uint64_t steps, uint64_t seed, const cuzk_fr_t *r, const cuzk_fr_t *sr,
                           const cuzk_vec_alloc *va, size_t rows_hint)
{
    prove_fixed_mode(out, p, be, steps, seed, r, sr, va, rows_hint, CUZK_CS_PROVE);
}

static void prove_fixed(uint8_t out[192], const cuzk_groth16_params *p, cuzk_backend *be,
                        uint64_t steps, uint64_t seed, const cuzk_fr_t *r, const cuzk_fr_t *sr)
{
    prove_fixed_va(out, p, be, steps, seed, r, sr, NULL, 0);
}

/* A counting allocator: live blocks and the sizes asked for; with |zero_check|, blocks must come
 * back wiped (the first 8 remembered blocks are scanned when freed). */
typedef struct {
    long live, total;
    size_t largest;
    bool zero_check, dirty;
    void *blk[8];
    size_t sz[8];
} counting;

static void *count_alloc(void *ctx, size_t bytes)
{
    counting *k = ctx;
    void *p = cuzk_alloc(bytes);
    if (k->total < 8)
        k->blk[k->total] = p, k->sz[k->total] = bytes;
    k->live++, k->total++;
    k->largest = bytes > k->largest ? bytes : k->largest;
    return p;
}

static void count_free(void *ctx, void *p)
{
    counting *k = ctx;
    k->live--;
    for (int i = 0; k->zero_check && i < 8 && i < k->total; i++)
        if (k->blk[i] == p)
            for (size_t j = 0; j < k->sz[i]; j++)
                k->dirty |= ((const uint8_t *)p)[j] != 0;
    cuzk_free(p);
}

/* a, b, c in a caller's allocator (cuzk_cs_set_vec_alloc, as the engine's pool): every vector goes
 * through it and comes back, the proof is the same as from cuzk_alloc memory with the rows reserved
 * for the domain (padded in place) or not (padded by a copy), and the reservation can only move
 * before the first constraint. The PCE path takes the allocator from the witness. */
CUZK_TEST(groth16_prove_abc_alloc)
{
    cuzk_backend *be;
    CHECK(cuzk_backend_create(&be, CUZK_BACKEND_CPU, 2) == CUZK_OK);
    const uint64_t steps = 300; /* domain 2^9 */
    cuzk_groth16_params *p = make_params(steps);
    uint64_t seed = test_rand_u64() >> 8;
    cuzk_fr_t r, sr;
    cuzk_fr_set_u64(&r, test_rand_u64() | 1);
    cuzk_fr_set_u64(&sr, test_rand_u64() | 1);
    uint8_t want[192], got[192];
    prove_fixed(want, p, be, steps, seed, &r, &sr);
    counting k = {0};
    cuzk_vec_alloc va = {.alloc = count_alloc, .free = count_free, .ctx = &k};
    const size_t hints[] = {0, 1, p->n_h + 1, 2000};
    for (size_t i = 0; i < 4; i++) {
        k = (counting){0};
        prove_fixed_va(got, p, be, steps, seed, &r, &sr, &va, hints[i]);
        CHECK_MSG(memcmp(want, got, 192) == 0, "proof differs with rows hint %zu", hints[i]);
        CHECK_MSG(k.live == 0 && k.total >= 3, "hint %zu: %ld live of %ld", hints[i], k.live,
                  k.total);
        CHECK(k.largest >= (p->n_h + 1) * sizeof(cuzk_fr_t));
    }

    cuzk_cs *cs;
    CHECK(cuzk_cs_create(&cs, CUZK_CS_PROVE, 0, 0) == CUZK_OK);
    cuzk_vec_alloc half = {.alloc = count_alloc, .free = NULL, .ctx = &k};
    CHECK(cuzk_cs_set_vec_alloc(cs, &half) == CUZK_ERR_INVALID_ARG);
    cuzk_circuit c = {"toy", "toy chain", toy_synth, {.arg = 3, .seed = seed}};
    CHECK(cuzk_circuit_synthesize(cs, &c) == CUZK_OK);
    CHECK(cuzk_cs_set_vec_alloc(cs, &va) == CUZK_ERR_INVALID_ARG); /* rows exist */
    cuzk_cs_destroy(cs);
    CHECK(cuzk_cs_create(&cs, CUZK_CS_WITNESS, 0, 0) == CUZK_OK);
    CHECK(cuzk_cs_set_vec_alloc(cs, &va) == CUZK_ERR_INVALID_ARG); /* no a, b, c */
    cuzk_cs_destroy(cs);
    /* Taken, then freed whole (not consumed by a prover): back through the allocator. */
    k = (counting){0};
    CHECK(cuzk_cs_create(&cs, CUZK_CS_PROVE, 0, 64) == CUZK_OK);
    CHECK(cuzk_cs_set_vec_alloc(cs, &va) == CUZK_OK);
    CHECK(cuzk_circuit_synthesize(cs, &c) == CUZK_OK);
    cuzk_prover_data pd;
    CHECK(cuzk_cs_take_prover_data(cs, &pd) == CUZK_OK);
    cuzk_cs_destroy(cs);
    CHECK(k.live == 3 && pd.abc_alloc.ctx == &k && pd.abc_cap >= pd.n_rows);
    cuzk_prover_data_free(&pd);
    CHECK(k.live == 0);
    /* PCE: a, b, c in the witness's allocator, exactly n_rows long (padded by a copy). */
    cuzk_circuit c2 = {"toy", "toy chain", toy_synth, {.arg = steps, .seed = seed}};
    CHECK(cuzk_cs_create(&cs, CUZK_CS_WITNESS, 0, 0) == CUZK_OK);
    CHECK(cuzk_circuit_synthesize(cs, &c2) == CUZK_OK);
    CHECK(cuzk_cs_take_prover_data(cs, &pd) == CUZK_OK);
    cuzk_cs_destroy(cs);
    cuzk_pce *pce;
    CHECK(cuzk_pce_extract(&pce, &c2) == CUZK_OK);
    pd.abc_alloc = va;
    CHECK(cuzk_pce_eval_into(pce, NULL, &pd) == CUZK_OK);
    cuzk_pce_destroy(pce);
    CHECK(k.live == 3 && pd.abc_cap == pd.n_rows && pd.n_rows < p->n_h + 1);
    cuzk_prove_opts o = {.verify = true, .r = &r, .s = &sr};
    cuzk_groth16_proof pr;
    CHECK_MSG(cuzk_groth16_prove(&pr, p, &pd, be, &o, NULL) == CUZK_OK, "%s", cuzk_last_error());
    cuzk_groth16_proof_serialize(got, &pr);
    CHECK(memcmp(want, got, 192) == 0);
    CHECK(k.live == 0 && pd.a == NULL && pd.b == NULL && pd.c == NULL);
    cuzk_prover_data_free(&pd);
    /* Freed on a pool: a, b, c (above the pool's piece size) wiped before they go back. */
    k = (counting){.zero_check = true};
    memset(&pd, 0, sizeof pd);
    pd.n_rows = pd.abc_cap = ((size_t)20 << 20) / sizeof(cuzk_fr_t) + 3;
    pd.abc_alloc = va;
    cuzk_fr_t **v[3] = {&pd.a, &pd.b, &pd.c};
    for (int i = 0; i < 3; i++) {
        *v[i] = cuzk_vec_alloc_bytes(&va, pd.n_rows * sizeof(cuzk_fr_t));
        CHECK(*v[i] != NULL);
        memset(*v[i], 0x5a + i, pd.n_rows * sizeof(cuzk_fr_t));
    }
    cuzk_prover_data_free_on(&pd, cuzk_backend_pool(be));
    CHECK(k.live == 0 && k.total == 3 && !k.dirty && pd.a == NULL);
    cuzk_groth16_params_free(p);
    cuzk_backend_destroy(be);
}

/* The prover on a CUDA backend holding the parameters resident (the engine's HOT sets): the H
 * step feeds the H MSM on the device (cuzk_backend_h_msm_g1), with the rows of a, b, c short of
 * the domain; the proof must equal the CPU backend's with the same r, s, and the unfused path's. */
CUZK_TEST(gpu_groth16_resident)
{
    if (!cuzk_backend_cuda_usable())
        test_skip("no CUDA device");
    cuzk_backend *cpu, *cu;
    CHECK(cuzk_backend_create(&cpu, CUZK_BACKEND_CPU, 0) == CUZK_OK);
    CHECK(cuzk_backend_create(&cu, CUZK_BACKEND_CUDA, 0) == CUZK_OK);
    static const uint64_t sizes[] = {1100, 2500}; /* domains 2^11 and 2^12, rows below them */
    for (size_t si = 0; si < 2; si++) {
        cuzk_groth16_params *p = make_params(sizes[si]);
        uint64_t seed = test_rand_u64() >> 8;
        cuzk_fr_t r, sr;
        cuzk_fr_set_u64(&r, test_rand_u64() | 1);
        cuzk_fr_set_u64(&sr, test_rand_u64() | 1);
        uint8_t want[192], got[192], unfused[192];
        prove_fixed(want, p, cpu, sizes[si], seed, &r, &sr);
        CHECK(cuzk_groth16_params_keep_resident(cu, p) == CUZK_OK);
        prove_fixed(got, p, cu, sizes[si], seed, &r, &sr);
        CHECK(setenv("CUZK_PROVER_H_UNFUSED", "1", 1) == 0);
        prove_fixed(unfused, p, cu, sizes[si], seed, &r, &sr);
        CHECK(unsetenv("CUZK_PROVER_H_UNFUSED") == 0);
        CHECK_MSG(memcmp(want, got, 192) == 0, "fused device proof differs at %llu steps",
                  (unsigned long long)sizes[si]);
        CHECK_MSG(memcmp(want, unfused, 192) == 0, "unfused device proof differs");
        /* A CUDA engine's synthesis (PROVE_AB: no c) through the separate calls, as when the
         * fused call is declined: the device forms c, so only a and b are ever allocated (the
         * engine admits a CUDA partition for two vectors). */
        counting k = {0};
        cuzk_vec_alloc kva = {count_alloc, count_free, &k};
        CHECK(setenv("CUZK_PROVER_H_UNFUSED", "1", 1) == 0);
        prove_fixed_mode(unfused, p, cu, sizes[si], seed, &r, &sr, &kva, p->n_h + 1,
                         CUZK_CS_PROVE_AB);
        CHECK(unsetenv("CUZK_PROVER_H_UNFUSED") == 0);
        CHECK_MSG(memcmp(want, unfused, 192) == 0, "unfused PROVE_AB device proof differs");
        CHECK_MSG(k.total == 2 && k.live == 0, "PROVE_AB: %ld vectors allocated, %ld live", k.total,
                  k.live);
        /* a, b, c in a pinned pool (the engine's): uploaded without registering them. */
        cuzk_host_pool *hp;
        CHECK(cuzk_host_pool_create(&hp, (uint64_t)64 << 20, 0, true) == CUZK_OK);
        cuzk_vec_alloc va = cuzk_host_pool_allocator(hp);
        for (int k = 0; k < 2; k++) {
            prove_fixed_va(got, p, cu, sizes[si], seed, &r, &sr, &va, p->n_h + 1);
            CHECK_MSG(memcmp(want, got, 192) == 0, "device proof from pinned a/b/c differs");
        }
        cuzk_host_pool_stats hs;
        cuzk_host_pool_get_stats(hp, &hs);
        CHECK(hs.pinned && hs.reused >= 3 && hs.fallback == 0 && hs.bytes_in_use == 0);
        cuzk_host_pool_destroy(hp);
        /* Not resident: the separate calls again (same proof). */
        cuzk_groth16_params_drop_resident(cu, p);
        prove_fixed(got, p, cu, sizes[si], seed, &r, &sr);
        CHECK(memcmp(want, got, 192) == 0);
        cuzk_groth16_params_free(p);
    }
    cuzk_backend_destroy(cu);
    cuzk_backend_destroy(cpu);
}
