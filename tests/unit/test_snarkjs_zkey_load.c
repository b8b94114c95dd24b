/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The zkey load's parallel stage (src/groth16/zkey.c, load_task): the header points' subgroup
 * checks, e(alpha, beta), the coefficients and the point sections run as tasks of one loop, and
 * errors must still be the ones a serial load meets first. Each case runs serially and on a
 * 2-thread pool, with and without the bulk subgroup checks (the header is always checked).
 */
#include "test_snarkjs_util.h"
#include "cuzk/pairing.h"

/* Fails unless parsing |buf| on |pool| gives |want| with |needle| in the message. */
static void expect_zkey(const uint8_t *buf, size_t len, unsigned flags, cuzk_pool *pool,
                        cuzk_status want, const char *needle)
{
    for (int pk = 0; pk < 2; pk++) { /* decoded and packed points: the same error */
        cuzk_snarkjs_zkey *zk = (cuzk_snarkjs_zkey *)1;
        cuzk_status s = cuzk_snarkjs_zkey_parse(
            &zk, buf, len, flags | (pk ? CUZK_SNARKJS_PACKED_POINTS : 0), pool);
        CHECK_MSG(s == want && zk == NULL && strstr(cuzk_last_error(), needle),
                  "zkey (%s%s): got %s '%s', want %s with '%s'", pool ? "pool" : "serial",
                  pk ? ", packed" : "", cuzk_status_name(s), cuzk_last_error(),
                  cuzk_status_name(want), needle);
    }
}

/* A G2 point on the twist but outside the prime-order subgroup, in LEM form (x from a random
 * start; see snark_off_subgroup_g1). */
static void off_subgroup_g2(uint8_t out[192], uint64_t x0)
{
    cuzk_fp2_t b;
    cuzk_fp_set_u64(&b.c0, 4);
    cuzk_fp_set_u64(&b.c1, 4);
    for (uint64_t xv = x0;; xv++) {
        cuzk_g2_affine_t p;
        cuzk_fp2_t t;
        cuzk_fp_set_u64(&p.x.c0, xv);
        cuzk_fp_set_u64(&p.x.c1, 1);
        cuzk_fp2_sqr(&t, &p.x);
        cuzk_fp2_mul(&t, &t, &p.x);
        cuzk_fp2_add(&t, &t, &b);
        if (!cuzk_fp2_sqrt(&p.y, &t))
            continue;
        p.infinity = false;
        CHECK(cuzk_g2_affine_is_on_curve(&p));
        if (cuzk_g2_affine_in_subgroup(&p))
            continue;
        snark_put_fp(out, &p.x.c0);
        snark_put_fp(out + 48, &p.x.c1);
        snark_put_fp(out + 96, &p.y.c0);
        snark_put_fp(out + 144, &p.y.c1);
        return;
    }
}

CUZK_TEST(snarkjs_zkey_load_parallel)
{
    static const struct {
        const char *name;
        size_t at;
        bool g2;
    } hp[6] = {{"alpha_1", 100, false}, {"beta_1", 196, false},  {"beta_2", 292, true},
               {"gamma_2", 484, true},  {"delta_1", 676, false}, {"delta_2", 772, true}};
    static const unsigned flags[2] = {0, CUZK_SNARKJS_UNCHECKED_SUBGROUP};
    uint64_t x0 = test_rand_u64() % 1000 + 1;
    size_t len;
    uint8_t *b = snark_fixture("multiplier.zkey", &len), *c;
    snark_sec hdr = snark_find(b, len, 2), coef = snark_find(b, len, 4);
    snark_sec a = snark_find(b, len, 5), h = snark_find(b, len, 9);
    uint8_t g1_bad[96], g2_bad[192];
    snark_off_subgroup_g1(g1_bad, x0);
    off_subgroup_g2(g2_bad, x0);
    size_t na = a.size / 96, nh = h.size / 96, nc = snark_get32(b + coef.body);
    size_t ia = test_rand_u64() % na, ih = test_rand_u64() % nh, ic = test_rand_u64() % nc;
    cuzk_pool *pool2;
    CHECK(cuzk_pool_create(&pool2, 2) == CUZK_OK);
    cuzk_pool *pools[2] = {NULL, pool2};
    char needle[128];
    for (int pi = 0; pi < 2; pi++) {
        for (int f = 0; f < 2; f++) {
            /* Each header point outside its subgroup, alone and with later errors (a bad
             * coefficient, a bulk point off the curve): the header is named first. */
            for (int i = 0; i < 6; i++) {
                snprintf(needle, sizeof needle, "header %s at offset %zu", hp[i].name,
                         hdr.body + hp[i].at);
                for (int later = 0; later < 2; later++) {
                    c = snark_copy(b, len);
                    memcpy(c + hdr.body + hp[i].at, hp[i].g2 ? g2_bad : g1_bad,
                           hp[i].g2 ? 192 : 96);
                    if (later) {
                        memset(c + coef.body + 4 + ic * 44 + 12, 0xff, 32);
                        c[a.body + ia * 96 + 5] ^= 1;
                    }
                    expect_zkey(c, len, flags[f], pools[pi], CUZK_ERR_NOT_IN_SUBGROUP, needle);
                    cuzk_free(c);
                }
            }
            /* A bad coefficient before a bad point; a bad A point before a bad H point. */
            c = snark_copy(b, len);
            memset(c + coef.body + 4 + ic * 44 + 12, 0xff, 32);
            c[h.body + ih * 96 + 5] ^= 1;
            snprintf(needle, sizeof needle, "coefficient %zu: value", ic);
            expect_zkey(c, len, flags[f], pools[pi], CUZK_ERR_NOT_CANONICAL, needle);
            c[a.body + ia * 96 + 5] ^= 1;
            memcpy(c + coef.body + 4 + ic * 44 + 12, b + coef.body + 4 + ic * 44 + 12, 32);
            snprintf(needle, sizeof needle, "section 5 (A) point %zu at offset", ia);
            expect_zkey(c, len, flags[f], pools[pi], CUZK_ERR_NOT_ON_CURVE, needle);
            cuzk_free(c);
        }
        /* The verifying key's e(alpha, beta) from the parallel stage. */
        cuzk_snarkjs_zkey *zk;
        CHECK(cuzk_snarkjs_zkey_parse(&zk, b, len, 0, pools[pi]) == CUZK_OK);
        cuzk_fp12_t ab;
        cuzk_pairing(&ab, &zk->alpha_g1, &zk->beta_g2);
        CHECK(cuzk_fp12_eq(&ab, &zk->vk->alpha_beta));
        cuzk_snarkjs_zkey_free(zk);
    }
    cuzk_pool_destroy(pool2);
    cuzk_free(b);
}
