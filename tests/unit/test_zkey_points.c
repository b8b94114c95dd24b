/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The zkey point sections' checks (src/groth16/zkey.c; with IFMA the curve equations run 8
 * points at a time): in a zkey with hundreds of points per section, one corrupted point at a
 * random index in each section must be reported with its index and kind, the first of two bad
 * points must be the one named whatever the two kinds, and points at infinity anywhere in a
 * group of 8 are accepted.
 */
#include "test_snarkjs_util.h"

#include <stdio.h>
#include <string.h>

static const struct {
    uint32_t type;
    size_t psize;
    const char *name;
} SECTIONS[] = {{5, 96, "A"}, {6, 96, "B1"}, {7, 192, "B2"}, {8, 96, "C"}, {9, 96, "H"}};

/* y's lowest bit flipped: still below q (barring y = q - 1), off the curve. */
static void off_curve(uint8_t *pt, size_t psize)
{
    pt[psize / 2] ^= 1;
}

/* x's first coordinate set to all ones: >= q. */
static void out_of_range(uint8_t *pt)
{
    memset(pt, 0xff, 48);
}

static void expect(const uint8_t *c, size_t len, unsigned flags, cuzk_status want, const char *name,
                   size_t idx)
{
    char needle[64];
    snprintf(needle, sizeof needle, "(%s) point %zu at", name, idx);
    for (int pk = 0; pk < 2; pk++) { /* decoded and packed points: the same error */
        cuzk_snarkjs_zkey *zk = (cuzk_snarkjs_zkey *)1;
        cuzk_status s = cuzk_snarkjs_zkey_parse(
            &zk, c, len, flags | (pk ? CUZK_SNARKJS_PACKED_POINTS : 0), NULL);
        CHECK_MSG(s == want && zk == NULL && strstr(cuzk_last_error(), needle),
                  "%sgot %s '%s', want %s with '%s'", pk ? "packed: " : "", cuzk_status_name(s),
                  cuzk_last_error(), cuzk_status_name(want), needle);
    }
}

CUZK_TEST(zkey_points_first_bad_is_named)
{
    size_t len;
    uint8_t *b = snark_fixture("poseidon.zkey", &len);
    const unsigned U = CUZK_SNARKJS_UNCHECKED_SUBGROUP;
    for (size_t si = 0; si < sizeof SECTIONS / sizeof SECTIONS[0]; si++) {
        snark_sec sec = snark_find(b, len, SECTIONS[si].type);
        size_t ps = SECTIONS[si].psize, n = sec.size / ps;
        CHECK_MSG(n >= 64, "section %u has %zu points", SECTIONS[si].type, n);
        for (int trial = 0; trial < 6; trial++) {
            size_t i = test_rand_u64() % (n - 1);
            size_t j = i + 1 + test_rand_u64() % (n - i - 1 < 20 ? n - i - 1 : 20);
            uint8_t *c = snark_copy(b, len);
            off_curve(c + sec.body + i * ps, ps);
            expect(c, len, trial == 0 ? 0 : U, CUZK_ERR_NOT_ON_CURVE, SECTIONS[si].name, i);
            out_of_range(c + sec.body + j * ps); /* a later bad point does not hide it */
            expect(c, len, U, CUZK_ERR_NOT_ON_CURVE, SECTIONS[si].name, i);
            cuzk_free(c);
            c = snark_copy(b, len);
            out_of_range(c + sec.body + i * ps);
            off_curve(c + sec.body + j * ps, ps);
            expect(c, len, U, CUZK_ERR_NOT_CANONICAL, SECTIONS[si].name, i);
            cuzk_free(c);
        }
    }
    cuzk_free(b);
}

CUZK_TEST(zkey_points_infinity_in_a_group)
{
    size_t len;
    uint8_t *b = snark_fixture("poseidon.zkey", &len);
    snark_sec a = snark_find(b, len, 5), b2 = snark_find(b, len, 7);
    size_t na = a.size / 96, nb = b2.size / 192;
    uint8_t *c = snark_copy(b, len);
    size_t ia[3], ib[3];
    for (int k = 0; k < 3; k++) {
        ia[k] = test_rand_u64() % na;
        ib[k] = test_rand_u64() % nb;
        memset(c + a.body + ia[k] * 96, 0, 96);
        memset(c + b2.body + ib[k] * 192, 0, 192);
    }
    cuzk_snarkjs_zkey *zk;
    CHECK_MSG(cuzk_snarkjs_zkey_parse(&zk, c, len, 0, NULL) == CUZK_OK, "%s", cuzk_last_error());
    for (int k = 0; k < 3; k++) {
        CHECK(zk->a[ia[k]].infinity);
        CHECK(zk->b2[ib[k]].infinity);
    }
    /* The other points are the file's: compare with a parse of the untouched key. */
    cuzk_snarkjs_zkey *ref;
    CHECK(cuzk_snarkjs_zkey_parse(&ref, b, len, CUZK_SNARKJS_UNCHECKED_SUBGROUP, NULL) == CUZK_OK);
    for (size_t i = 0; i < na; i++)
        if (i != ia[0] && i != ia[1] && i != ia[2])
            CHECK(cuzk_g1_affine_eq(&zk->a[i], &ref->a[i]));
    cuzk_snarkjs_zkey_free(ref);
    cuzk_snarkjs_zkey_free(zk);
    cuzk_free(c);
    cuzk_free(b);
}
