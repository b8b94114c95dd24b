/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Packed zkeys (CUZK_SNARKJS_PACKED_POINTS): the point sections kept as the file's bytes. Loaded
 * from a path, the key holds the mapping; its sections are the file's; unpacking gives the points
 * a decoded load gives and releases the file; a fresh check cache records a packed key's
 * digest (the second pass re-reads and re-hashes the packed bytes) and a decoded load then finds
 * it. A key loaded by path reads its points from the file: cut short or rewritten after the load,
 * proofs fail cleanly. A caller's buffer that changes under a packed key: unpacking refuses a
 * coordinate >= q and leaves the key as it was, and a proof from points off the curve or out of
 * range is refused by the self-verification (no proof, zeroed outputs). (Proofs of packed keys
 * against snarkjs's bytes: test_snarkjs_prove.c; the loaders' errors in both modes:
 * test_snarkjs_readers.c, test_zkey_points.c, test_snarkjs_zkey_load.c, test_check_cache.c.)
 */
#include "test_snarkjs_util.h"
#include "groth16/snarkjs_internal.h"

#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct {
    uint32_t type;
    size_t psize;
} SECS[5] = {{5, 96}, {6, 96}, {7, 192}, {8, 96}, {9, 96}};

static const uint8_t *packed_of(const cuzk_snarkjs_zkey *zk, int k)
{
    const uint8_t *p[5] = {zk->a_packed, zk->b1_packed, zk->b2_packed, zk->c_packed, zk->h_packed};
    return p[k];
}

static size_t count_of(const cuzk_snarkjs_zkey *zk, int k)
{
    size_t nv = zk->n_vars;
    size_t n[5] = {nv, nv, nv, nv - zk->n_public - 1, zk->domain_size};
    return n[k];
}

/* The decoded points of |x| equal |y|'s, section by section. */
static bool same_decoded(const cuzk_snarkjs_zkey *x, const cuzk_snarkjs_zkey *y)
{
    const void *px[5] = {x->a, x->b1, x->b2, x->c, x->h}, *py[5] = {y->a, y->b1, y->b2, y->c, y->h};
    for (int k = 0; k < 5; k++)
        for (size_t i = 0; i < count_of(x, k); i++) {
            bool eq = k == 2 ? cuzk_g2_affine_eq((const cuzk_g2_affine_t *)px[k] + i,
                                                 (const cuzk_g2_affine_t *)py[k] + i)
                             : cuzk_g1_affine_eq((const cuzk_g1_affine_t *)px[k] + i,
                                                 (const cuzk_g1_affine_t *)py[k] + i);
            if (!eq)
                return false;
        }
    return true;
}

CUZK_TEST(zkey_packed_load_and_unpack)
{
    char path[512];
    snprintf(path, sizeof path, "%s/snarkjs/poseidon.zkey", test_fixtures_dir());
    size_t len;
    uint8_t *b = snark_fixture("poseidon.zkey", &len);
    cuzk_snarkjs_zkey *dec, *pk;
    CHECK(cuzk_snarkjs_zkey_load(&dec, path, 0, NULL) == CUZK_OK);
    CHECK(cuzk_snarkjs_zkey_load(&pk, path, CUZK_SNARKJS_PACKED_POINTS, cuzk_pool_default()) ==
          CUZK_OK);
    CHECK(!pk->a && !pk->b1 && !pk->b2 && !pk->c && !pk->h && pk->ic && pk->held_.buf);
    CHECK(pk->subgroups == CUZK_SUBGROUPS_CHECKED && dec->held_.buf == NULL);
    for (int k = 0; k < 5; k++) {
        snark_sec s = snark_find(b, len, SECS[k].type);
        CHECK(s.size == count_of(pk, k) * SECS[k].psize);
        CHECK_MSG(memcmp(packed_of(pk, k), b + s.body, s.size) == 0, "section %u", SECS[k].type);
        CHECK(packed_of(dec, k) == NULL);
    }
    CHECK(cuzk_snarkjs_zkey_unpack(dec) == CUZK_OK); /* nothing to do */
    CHECK(cuzk_snarkjs_zkey_unpack(pk) == CUZK_OK);
    CHECK(pk->a && pk->b2 && pk->h && !pk->a_packed && !pk->h_packed && !pk->held_.buf);
    CHECK(same_decoded(pk, dec));
    CHECK(cuzk_snarkjs_zkey_unpack(pk) == CUZK_OK && same_decoded(pk, dec));
    cuzk_snarkjs_zkey_free(pk);
    cuzk_snarkjs_zkey_free(dec);
    cuzk_free(b);
}

CUZK_TEST(zkey_packed_check_cache)
{
    char dir[] = "/tmp/cuzk-zp-XXXXXX", rec[64];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(rec, sizeof rec, "%s/rec", dir);
    cuzk_check_cache *c;
    CHECK(cuzk_check_cache_open(&c, rec) == CUZK_OK);
    size_t len;
    uint8_t *b = snark_fixture("multiplier.zkey", &len);
    cuzk_snarkjs_zkey *pk, *dec;
    CHECK(cuzk_snarkjs_zkey_parse_ex(&pk, b, len, CUZK_SNARKJS_PACKED_POINTS, cuzk_pool_default(),
                                     c) == CUZK_OK);
    CHECK_MSG(pk->subgroups == CUZK_SUBGROUPS_CHECKED && pk->subgroups_recorded, "%s",
              pk->cache_error);
    CHECK(cuzk_snarkjs_zkey_parse_ex(&dec, b, len, 0, NULL, c) == CUZK_OK);
    CHECK(dec->subgroups == CUZK_SUBGROUPS_CHECKED_BEFORE);
    CHECK(memcmp(dec->points_digest, pk->points_digest, sizeof pk->points_digest) == 0);
    cuzk_snarkjs_zkey_free(dec);
    cuzk_snarkjs_zkey_free(pk);
    cuzk_check_cache_close(c);
    cuzk_free(b);
    CHECK(unlink(rec) == 0 && rmdir(dir) == 0);
}

/* A proof from the changed key |zk| must be refused, outputs zeroed. */
static void expect_refused(const cuzk_snarkjs_zkey *zk, const cuzk_snarkjs_wtns *w, cuzk_pool *pool,
                           const char *what)
{
    cuzk_groth16_proof proof, zero;
    cuzk_fr_t pub[1];
    memset(&proof, 0x5a, sizeof proof);
    memset(&zero, 0, sizeof zero);
    cuzk_status s = cuzk_snarkjs_prove(&proof, pub, zk, w, pool, NULL);
    CHECK_MSG(s == CUZK_ERR_VERIFY_FAILED, "%s: %s '%s'", what, cuzk_status_name(s),
              cuzk_last_error());
    CHECK(memcmp(&proof, &zero, sizeof proof) == 0 && cuzk_fr_is_zero(&pub[0]));
}

CUZK_TEST(zkey_packed_buffer_changed)
{
    size_t len;
    uint8_t *b = snark_fixture("poseidon.zkey", &len);
    cuzk_snarkjs_wtns *w = snark_load_wtns("poseidon");
    cuzk_pool *pool2;
    CHECK(cuzk_pool_create(&pool2, 2) == CUZK_OK);
    cuzk_snarkjs_zkey *zk;
    CHECK(cuzk_snarkjs_zkey_parse(&zk, b, len, CUZK_SNARKJS_PACKED_POINTS, NULL) == CUZK_OK);
    CHECK(zk->b2_packed >= b && zk->b2_packed < b + len); /* the caller's buffer */
    cuzk_groth16_proof proof;
    cuzk_fr_t pub[1];
    CHECK(cuzk_snarkjs_prove(&proof, pub, zk, w, pool2, NULL) == CUZK_OK);
    /* A B2 point off the curve (one bit of y), then one with a coordinate >= q, at a random
     * wire whose witness value is not 0 (so that the point counts). */
    size_t i = test_rand_u64() % zk->n_vars;
    while (!(w->values[4 * i] | w->values[4 * i + 1] | w->values[4 * i + 2] | w->values[4 * i + 3]))
        i = (i + 1) % zk->n_vars;
    uint8_t *pt = (uint8_t *)zk->b2_packed + i * 192, save[192];
    memcpy(save, pt, 192);
    pt[100] ^= 1;
    printf("# B2 point %zu changed\n", i);
    for (int threads = 1; threads <= 2; threads++)
        expect_refused(zk, w, threads == 2 ? pool2 : NULL, "off the curve");
    memcpy(pt, save, 192);
    memset(pt + 48, 0xff, 48);
    expect_refused(zk, w, pool2, "x.c1 >= q");
    /* Unpacking refuses it and leaves the key packed. */
    CHECK(cuzk_snarkjs_zkey_unpack(zk) == CUZK_ERR_FORMAT);
    CHECK_MSG(strstr(cuzk_last_error(), "changed after the key was loaded"), "'%s'",
              cuzk_last_error());
    CHECK(zk->b2_packed && !zk->a && !zk->b2);
    memcpy(pt, save, 192);
    CHECK(cuzk_snarkjs_zkey_unpack(zk) == CUZK_OK && zk->b2 && !zk->b2_packed);
    CHECK(cuzk_snarkjs_prove(&proof, pub, zk, w, pool2, NULL) == CUZK_OK);
    cuzk_snarkjs_zkey_free(zk);
    cuzk_pool_destroy(pool2);
    cuzk_snarkjs_wtns_free(w);
    cuzk_free(b);
}

/*
 * A packed key loaded by path reads its points from the file it holds open (pread, not through
 * the mapping): the file cut short after the load gives CUZK_ERR_IO from every section's MSM,
 * on one thread and in the two lanes, and from unpacking, instead of SIGBUS; a point rewritten
 * in the file gives a proof the self-verification refuses. Restored, the key proves again.
 */
CUZK_TEST(zkey_packed_file_changed)
{
    size_t len;
    uint8_t *b = snark_fixture("poseidon.zkey", &len);
    char path[] = "/tmp/cuzk-zkey-packed-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    CHECK(write(fd, b, len) == (ssize_t)len);
    cuzk_snarkjs_wtns *w = snark_load_wtns("poseidon");
    cuzk_pool *pool2;
    CHECK(cuzk_pool_create(&pool2, 2) == CUZK_OK);
    cuzk_snarkjs_zkey *zk;
    CHECK(cuzk_snarkjs_zkey_load(&zk, path, CUZK_SNARKJS_PACKED_POINTS, NULL) == CUZK_OK);
    CHECK(zk->held_.mapped && zk->held_.fd >= 0);
    cuzk_groth16_proof proof, zero;
    memset(&zero, 0, sizeof zero);
    cuzk_fr_t pub[1];
    CHECK(cuzk_snarkjs_prove(&proof, pub, zk, w, pool2, NULL) == CUZK_OK);
    /* Cut inside each section in turn (A, B1, B2, C, H: every MSM reads its own). */
    for (int k = 0; k < 5; k++) {
        size_t at =
            (size_t)(packed_of(zk, k) - zk->held_.buf) + SECS[k].psize * count_of(zk, k) / 2;
        CHECK(ftruncate(fd, (off_t)at) == 0);
        for (int threads = 1; threads <= 2; threads++) {
            memset(&proof, 0x5a, sizeof proof);
            cuzk_status s =
                cuzk_snarkjs_prove(&proof, pub, zk, w, threads == 2 ? pool2 : NULL, NULL);
            CHECK_MSG(s == CUZK_ERR_IO && strstr(cuzk_last_error(), "cannot read the packed bases"),
                      "section %d threads %d: %s '%s'", k, threads, cuzk_status_name(s),
                      cuzk_last_error());
            CHECK(memcmp(&proof, &zero, sizeof proof) == 0 && cuzk_fr_is_zero(&pub[0]));
        }
        /* Unpacking reads the file too: refused, and the key stays packed. */
        CHECK(cuzk_snarkjs_zkey_unpack(zk) == CUZK_ERR_IO && zk->b2_packed && !zk->a && !zk->h);
        CHECK(pwrite(fd, b + at, len - at, (off_t)at) == (ssize_t)(len - at));
    }
    CHECK(cuzk_snarkjs_prove(&proof, pub, zk, w, pool2, NULL) == CUZK_OK);
    /* A B2 point of a wire with a nonzero witness value rewritten off the curve. */
    size_t i = 0;
    while (!(w->values[4 * i] | w->values[4 * i + 1] | w->values[4 * i + 2] | w->values[4 * i + 3]))
        i++;
    size_t at = (size_t)(zk->b2_packed - zk->held_.buf) + i * 192 + 100;
    uint8_t flip = b[at] ^ 1;
    CHECK(pwrite(fd, &flip, 1, (off_t)at) == 1);
    expect_refused(zk, w, pool2, "B2 rewritten in the file");
    CHECK(pwrite(fd, b + at, 1, (off_t)at) == 1);
    CHECK(cuzk_snarkjs_prove(&proof, pub, zk, w, NULL, NULL) == CUZK_OK);
    cuzk_snarkjs_zkey_free(zk);
    CHECK(close(fd) == 0 && unlink(path) == 0);
    cuzk_pool_destroy(pool2);
    cuzk_snarkjs_wtns_free(w);
    cuzk_free(b);
}

/* On the CPU backend a packed key's residency is a no-op, as a decoded key's. */
CUZK_TEST(zkey_packed_cpu_backend)
{
    cuzk_backend *be;
    CHECK(cuzk_backend_create(&be, CUZK_BACKEND_CPU, 2) == CUZK_OK);
    cuzk_snarkjs_zkey *zk = snark_load_zkey_flags("poseidon", CUZK_SNARKJS_PACKED_POINTS);
    cuzk_snarkjs_wtns *w = snark_load_wtns("poseidon");
    CHECK(cuzk_snarkjs_zkey_keep_resident(be, zk) == CUZK_OK);
    cuzk_groth16_proof proof;
    cuzk_fr_t pub[1];
    CHECK_MSG(cuzk_snarkjs_prove_on(&proof, pub, zk, w, be, NULL) == CUZK_OK, "%s",
              cuzk_last_error());
    CHECK(cuzk_groth16_verify(zk->vk, &proof, pub, 1) == CUZK_OK);
    cuzk_snarkjs_zkey_drop_resident(be, zk);
    cuzk_snarkjs_wtns_free(w);
    cuzk_snarkjs_zkey_free(zk);
    cuzk_backend_destroy(be);
}
