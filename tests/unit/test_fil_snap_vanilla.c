/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * SnapDeals vanilla proofs (src/filecoin/snap_vanilla.c): a synthetic partition written as a
 * bincode PartitionProof and read back gives the same witness, which satisfies the circuit
 * (2 KiB; a small shape with a partition path; 8 MiB, 32 GiB (Sub tree R proofs) and 64 GiB
 * (Top) partitions compared value by value; the four 8 MiB partitions of one seed decode against
 * one set of comms). Rejected, each with its status and nothing returned: truncation (every
 * offset of the head and first challenge, then every 13th), trailing bytes, a non-canonical value
 * or comm, a wrong variant or count, a changed sibling, leaf, apex leaf, apex-level or
 * partition-path sibling, a wrong comm_r_old / comm_d_new / comm_r_new, a wrong challenge index,
 * another h, k out of range.
 */
#include "test.h"
#include "test_fil_snap_util.h"
#include "test_r1cs_util.h"

#include "cuzk/alloc.h"
#include "filecoin/snap_circuit.h"

#include <string.h>

static void comms(const cuzk_fil_snap_partition *p, uint8_t ro[32], uint8_t dn[32], uint8_t rn[32])
{
    cuzk_fr_to_bytes_le(ro, &p->w.comm_r_old);
    cuzk_fr_to_bytes_le(dn, &p->w.comm_d_new);
    cuzk_fr_to_bytes_le(rn, &p->w.comm_r_new);
}

static bool fr_arrays_eq(const cuzk_fr_t *a, const cuzk_fr_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!cuzk_fr_eq(&a[i], &b[i]))
            return false;
    return true;
}

/* Every value the circuit takes, and the challenges, are the same in |a| and |b|. */
static void check_same(const cuzk_fil_snap_partition *a, const cuzk_fil_snap_partition *b)
{
    const cuzk_fil_snap_shape *sh = &a->shape;
    size_t nc = sh->challenge_count, lr = cuzk_fil_snap_path_len_r(sh),
           ld = cuzk_fil_snap_path_len_d(sh);
    CHECK(a->k == b->k && a->w.h == b->w.h);
    CHECK(memcmp(a->challenges, b->challenges, nc * sizeof *a->challenges) == 0);
    CHECK(cuzk_fr_eq(&a->w.comm_r_old, &b->w.comm_r_old));
    CHECK(cuzk_fr_eq(&a->w.comm_d_new, &b->w.comm_d_new));
    CHECK(cuzk_fr_eq(&a->w.comm_r_new, &b->w.comm_r_new));
    CHECK(cuzk_fr_eq(&a->w.comm_c, &b->w.comm_c));
    CHECK(cuzk_fr_eq(&a->w.root_r_old, &b->w.root_r_old));
    CHECK(cuzk_fr_eq(&a->w.root_r_new, &b->w.root_r_new));
    CHECK(fr_arrays_eq(a->w.apex_leaves, b->w.apex_leaves, sh->apex_leaves));
    CHECK(fr_arrays_eq(a->w.partition_path, b->w.partition_path, sh->partition_bits));
    CHECK(fr_arrays_eq(a->w.leaves_r_old, b->w.leaves_r_old, nc));
    CHECK(fr_arrays_eq(a->w.leaves_d_new, b->w.leaves_d_new, nc));
    CHECK(fr_arrays_eq(a->w.paths_r_old, b->w.paths_r_old, nc * lr));
    CHECK(fr_arrays_eq(a->w.paths_r_new, b->w.paths_r_new, nc * lr));
    CHECK(fr_arrays_eq(a->w.paths_d, b->w.paths_d, nc * ld));
}

static bool satisfied(const cuzk_fil_snap_partition *p)
{
    cuzk_cs *cs = tu_cs(CUZK_CS_CHECK);
    CHECK_MSG(cuzk_fil_snap_circuit(cs, &p->shape, p->k, &p->w) == CUZK_OK, "%s",
              cuzk_last_error());
    CHECK_OK(cuzk_cs_finalize(cs));
    size_t row = 0;
    const char *where = NULL;
    bool ok = cuzk_cs_is_satisfied(cs, &row, &where);
    cuzk_cs_destroy(cs);
    return ok;
}

/* Decodes |buf| as partition |k| of |sh| against |p|'s comms; returns the status (and frees). */
static cuzk_status decode(const cuzk_fil_snap_shape *sh, uint64_t k,
                          const cuzk_fil_snap_partition *p, unsigned h, const uint8_t *buf,
                          size_t len)
{
    uint8_t ro[32], dn[32], rn[32];
    comms(p, ro, dn, rn);
    cuzk_fil_snap_partition *q = (cuzk_fil_snap_partition *)1;
    cuzk_status s = cuzk__fil_snap_partition_from_vanilla_shape(&q, sh, k, ro, dn, rn, h, buf, len);
    CHECK(s == CUZK_OK ? q != NULL : q == NULL);
    cuzk_fil_snap_partition_destroy(q);
    return s;
}

/* 2 KiB partition 0: encode, decode, same witness, satisfied. */
CUZK_TEST(fil_snap_vanilla_round_trip_2k)
{
    cuzk_fil_snap_partition *p, *q;
    CHECK_OK(cuzk_fil_snap_partition_synthetic(&p, 0, 0, test_rand_u64(), 1));
    uint8_t *buf, ro[32], dn[32], rn[32];
    size_t len;
    CHECK_OK(cuzk_fil_snap_vanilla_encode(p, &buf, &len));
    /* comm_c, 8 apex leaves, 10 x (Single R: 2 levels of 7; Single D: 6 levels of 1; R). */
    size_t r = 4 + 64 + 8 + 2 * (8 + 7 * 32 + 8), d = 4 + 64 + 8 + 6 * (8 + 32 + 8);
    CHECK_MSG(len == 32 + 8 + 8 * 32 + 8 + 10 * (2 * r + d), "%zu bytes", len);
    comms(p, ro, dn, rn);
    CHECK_MSG(cuzk_fil_snap_partition_from_vanilla(&q, 0, 0, ro, dn, rn, 0, buf, len) == CUZK_OK,
              "%s", cuzk_last_error());
    check_same(p, q);
    CHECK(satisfied(q));
    /* Encoding the decoded partition gives the same bytes. */
    uint8_t *buf2;
    size_t len2;
    CHECK_OK(cuzk_fil_snap_vanilla_encode(q, &buf2, &len2));
    CHECK(len2 == len && memcmp(buf, buf2, len) == 0);
    cuzk_free(buf2);
    cuzk_free(buf);
    cuzk_fil_snap_partition_destroy(q);
    cuzk_fil_snap_partition_destroy(p);
}

/* Sparse partitions of the larger sizes, every tree R variant: same witness. */
CUZK_TEST(fil_snap_vanilla_round_trip_sizes)
{
    static const struct {
        uint64_t id, k;
    } cases[] = {{1, 2}, {3, 15}, {4, 9}};
    for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
        cuzk_fil_snap_partition *p, *q;
        CHECK_OK(
            cuzk_fil_snap_partition_synthetic(&p, cases[t].id, cases[t].k, test_rand_u64(), 1));
        uint8_t *buf, ro[32], dn[32], rn[32];
        size_t len;
        CHECK_OK(cuzk_fil_snap_vanilla_encode(p, &buf, &len));
        comms(p, ro, dn, rn);
        CHECK_MSG(cuzk_fil_snap_partition_from_vanilla(&q, cases[t].id, cases[t].k, ro, dn, rn, 0,
                                                       buf, len) == CUZK_OK,
                  "id %llu: %s", (unsigned long long)cases[t].id, cuzk_last_error());
        check_same(p, q);
        /* The tree R proofs' variant: Sub for 32 GiB, Top for 64 GiB (after comm_c and the 128
         * apex leaves). */
        size_t at = 32 + 8 + 128 * 32 + 8;
        CHECK(buf[at] == (cases[t].id == 3 ? 1 : cases[t].id == 4 ? 2 : 0));
        /* Another partition's proof is not this partition's. */
        uint64_t other = cases[t].k ^ 1;
        CHECK(cuzk_fil_snap_partition_from_vanilla(&q, cases[t].id, other, ro, dn, rn, 0, buf,
                                                   len) == CUZK_ERR_FORMAT);
        CHECK(q == NULL);
        cuzk_free(buf);
        cuzk_fil_snap_partition_destroy(p);
    }
    /* The partitions of one seed are one sector's: 8 MiB's four decode against one set of
     * comms. */
    uint64_t seed = test_rand_u64();
    uint8_t ro[32], dn[32], rn[32];
    for (uint64_t k = 0; k < 4; k++) {
        cuzk_fil_snap_partition *p, *q;
        uint8_t *buf;
        size_t len;
        CHECK_OK(cuzk_fil_snap_partition_synthetic(&p, 1, k, seed, 1));
        CHECK_OK(cuzk_fil_snap_vanilla_encode(p, &buf, &len));
        if (k == 0)
            comms(p, ro, dn, rn);
        CHECK_MSG(cuzk_fil_snap_partition_from_vanilla(&q, 1, k, ro, dn, rn, 0, buf, len) ==
                      CUZK_OK,
                  "partition %llu: %s", (unsigned long long)k, cuzk_last_error());
        cuzk_fil_snap_partition_destroy(q);
        cuzk_free(buf);
        cuzk_fil_snap_partition_destroy(p);
    }
}

/* Offsets in the small shape's encoding: challenge |i|'s proofs. */
#define SMALL_R (4 + 64 + 8 + 3 * (8 + 7 * 32 + 8))
#define SMALL_D (4 + 64 + 8 + 9 * (8 + 32 + 8))
#define SMALL_HEAD (32 + 8 + 8 * 32 + 8)
static size_t small_challenge(size_t i)
{
    return SMALL_HEAD + i * (2 * SMALL_R + SMALL_D);
}
/* Tree D sibling |l| of challenge |i| (levels from the leaf). */
static size_t small_d_sibling(size_t i, size_t l)
{
    return small_challenge(i) + SMALL_R + 4 + 64 + 8 + l * (8 + 32 + 8) + 8;
}

static void expect(cuzk_status got, cuzk_status want, const char *needle, const char *what)
{
    CHECK_MSG(got == want, "%s: status %s, want %s (%s)", what, cuzk_status_name(got),
              cuzk_status_name(want), cuzk_last_error());
    if (needle)
        CHECK_MSG(strstr(cuzk_last_error(), needle), "%s: message \"%s\" lacks \"%s\"", what,
                  cuzk_last_error(), needle);
}

CUZK_TEST(fil_snap_vanilla_small_round_trip)
{
    cuzk_fil_snap_shape sh = test_snap_small_shape();
    cuzk_fil_snap_partition *p, *q;
    CHECK_OK(cuzk__fil_snap_partition_synthetic_shape(&p, &sh, 1, test_rand_u64()));
    uint8_t *buf, ro[32], dn[32], rn[32];
    size_t len;
    CHECK_OK(cuzk_fil_snap_vanilla_encode(p, &buf, &len));
    CHECK(len == small_challenge(3));
    comms(p, ro, dn, rn);
    CHECK_MSG(cuzk__fil_snap_partition_from_vanilla_shape(&q, &sh, 1, ro, dn, rn, 0, buf, len) ==
                  CUZK_OK,
              "%s", cuzk_last_error());
    check_same(p, q);
    CHECK(satisfied(q));
    cuzk_fil_snap_partition_destroy(q);
    cuzk_free(buf);
    cuzk_fil_snap_partition_destroy(p);
}

CUZK_TEST(fil_snap_vanilla_rejects)
{
    cuzk_fil_snap_shape sh = test_snap_small_shape();
    cuzk_fil_snap_partition *p;
    CHECK_OK(cuzk__fil_snap_partition_synthetic_shape(&p, &sh, 1, test_rand_u64()));
    uint8_t *buf;
    size_t len;
    CHECK_OK(cuzk_fil_snap_vanilla_encode(p, &buf, &len));
    uint8_t *m = cuzk_alloc(len + 1);
    CHECK(m);
    CHECK_OK(decode(&sh, 1, p, 0, buf, len));

    /* Truncated anywhere (every offset of the head and challenge 0, every 13th after: each
     * decode re-derives the challenges), or with a byte after the end. */
    for (size_t cut = 0; cut < len; cut += cut < small_challenge(1) ? 1 : 13)
        CHECK_MSG(decode(&sh, 1, p, 0, buf, cut) == CUZK_ERR_FORMAT, "cut at %zu", cut);
    expect(decode(&sh, 1, p, 0, NULL, 0), CUZK_ERR_FORMAT, "partition 1: truncated", "empty");
    memcpy(m, buf, len);
    m[len] = 0;
    expect(decode(&sh, 1, p, 0, m, len + 1), CUZK_ERR_FORMAT, "1 bytes after its end", "trailing");

    /* Byte surgery on a copy: each case names its challenge. */
    struct {
        size_t off;
        uint8_t xor_;
        cuzk_status want;
        const char *needle;
    } cases[] = {
        {31, 0xc0, CUZK_ERR_NOT_CANONICAL, "comm_c is not a canonical"},
        {32, 1, CUZK_ERR_FORMAT, "9 apex leaves"},
        {SMALL_HEAD - 8, 1, CUZK_ERR_FORMAT, "challenge proofs"},
        {small_challenge(0), 1, CUZK_ERR_FORMAT, "challenge 0: tree R old Merkle proof variant"},
        {small_challenge(1) + SMALL_R, 2, CUZK_ERR_FORMAT, "challenge 1: tree D new Merkle proof"},
        /* a tree R old sibling of challenge 2 */
        {small_challenge(2) + 4 + 64 + 8 + 8 + 5, 1, CUZK_ERR_FORMAT,
         "challenge 2: the tree R old path does not hash"},
        /* the tree R old leaf of challenge 1 (after the variant and root) */
        {small_challenge(1) + 4 + 32, 1, CUZK_ERR_FORMAT, "challenge 1: the tree R old path"},
        /* a tree R new sibling of challenge 0 */
        {small_challenge(0) + SMALL_R + SMALL_D + 4 + 64 + 8 + 8, 4, CUZK_ERR_FORMAT,
         "challenge 0: the tree R new path"},
        /* the tree R new leaf of challenge 2 (Single: root, then leaf) */
        {small_challenge(2) + SMALL_R + SMALL_D + 4 + 32, 1, CUZK_ERR_FORMAT,
         "challenge 2: the tree R new path"},
        /* tree D: a low sibling, an apex-level one, the partition path (challenge 1 and 0) */
        {small_d_sibling(1, 2), 1, CUZK_ERR_FORMAT, "challenge 1: the tree D path does not hash"},
        {small_d_sibling(2, 6), 1, CUZK_ERR_FORMAT,
         "challenge 2: tree D sibling 6 is not the "
         "apex"},
        {small_d_sibling(1, 8), 1, CUZK_ERR_FORMAT, "challenge 1: tree D sibling 8 differs"},
        {small_d_sibling(0, 8), 1, CUZK_ERR_FORMAT, "challenge 1: tree D sibling 8 differs"},
        /* a tree D leaf, a tree D path index, a non-canonical sibling */
        {small_challenge(0) + SMALL_R + 4 + 32, 1, CUZK_ERR_FORMAT, "challenge 0: the tree D path"},
        {small_d_sibling(2, 0) + 32, 1, CUZK_ERR_FORMAT,
         "challenge 2: the tree D new proof opens "
         "leaf"},
        {small_d_sibling(2, 3) + 31, 0xff, CUZK_ERR_NOT_CANONICAL,
         "challenge 2: a tree D new "
         "path sibling"},
        /* an apex leaf */
        {32 + 8 + 3 * 32, 1, CUZK_ERR_FORMAT, "partition 1"},
        /* the tree R old root of challenge 0 (then comm_r_old is not Poseidon(comm_c, root)) */
        {small_challenge(0) + 4, 1, CUZK_ERR_FORMAT,
         "challenge 0: Poseidon(comm_c, root of tree "
         "R old)"},
        {small_challenge(2) + 4, 1, CUZK_ERR_FORMAT, "challenge 2: the tree R old root differs"},
        /* the tree D root of challenge 1 */
        {small_challenge(1) + SMALL_R + 4, 1, CUZK_ERR_FORMAT, "challenge 1: the tree D root"},
        /* a path level's sibling count */
        {small_challenge(1) + 4 + 64 + 8, 1, CUZK_ERR_FORMAT, "challenge 1: 6 siblings"},
    };
    for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
        memcpy(m, buf, len);
        m[cases[t].off] ^= cases[t].xor_;
        char what[32];
        snprintf(what, sizeof what, "case %zu", t);
        expect(decode(&sh, 1, p, 0, m, len), cases[t].want, cases[t].needle, what);
    }

    /* Public values: wrong comms, another h, k out of range, non-canonical comms. */
    uint8_t ro[32], dn[32], rn[32], bad[32];
    cuzk_fil_snap_partition *q = NULL;
    comms(p, ro, dn, rn);
    memcpy(bad, ro, 32);
    bad[0] ^= 1;
    expect(cuzk__fil_snap_partition_from_vanilla_shape(&q, &sh, 1, bad, dn, rn, 0, buf, len),
           CUZK_ERR_FORMAT, "is not comm_r_old", "comm_r_old");
    memcpy(bad, dn, 32);
    bad[0] ^= 1;
    expect(cuzk__fil_snap_partition_from_vanilla_shape(&q, &sh, 1, ro, bad, rn, 0, buf, len),
           CUZK_ERR_FORMAT, "comm_d_new", "comm_d_new");
    memcpy(bad, rn, 32);
    bad[0] ^= 1;
    /* another comm_r_new: other challenges (or, by chance, the same leaf: the root fails) */
    expect(cuzk__fil_snap_partition_from_vanilla_shape(&q, &sh, 1, ro, dn, bad, 0, buf, len),
           CUZK_ERR_FORMAT, "partition 1, challenge", "comm_r_new");
    expect(cuzk__fil_snap_partition_from_vanilla_shape(&q, &sh, 0, ro, dn, rn, 0, buf, len),
           CUZK_ERR_FORMAT, "partition 0, challenge 0", "k = 0");
    expect(cuzk__fil_snap_partition_from_vanilla_shape(&q, &sh, 2, ro, dn, rn, 0, buf, len),
           CUZK_ERR_INVALID_ARG, "partition 2 of 2", "k = 2");
    expect(cuzk__fil_snap_partition_from_vanilla_shape(&q, &sh, 1, ro, dn, rn, 2, buf, len),
           CUZK_ERR_FORMAT, "label_r_new is not", "h = 2");
    expect(cuzk__fil_snap_partition_from_vanilla_shape(&q, &sh, 1, ro, dn, rn, 7, buf, len),
           CUZK_ERR_INVALID_ARG, "h = 7", "h = 7");
    memset(bad, 0xff, 32);
    expect(cuzk__fil_snap_partition_from_vanilla_shape(&q, &sh, 1, ro, bad, rn, 0, buf, len),
           CUZK_ERR_NOT_CANONICAL, "comm_d_new is not a canonical", "comm_d_new 0xff");
    expect(cuzk_fil_snap_partition_from_vanilla(&q, 5, 0, ro, dn, rn, 0, buf, len),
           CUZK_ERR_UNSUPPORTED, NULL, "id 5");
    CHECK(q == NULL);
    cuzk_free(m);
    cuzk_free(buf);

    /* A partition whose challenge 1 opens another leaf (its paths valid for that leaf). */
    p->challenges[1] ^= 1;
    CHECK_OK(cuzk_fil_snap_vanilla_encode(p, &buf, &len));
    expect(decode(&sh, 1, p, 0, buf, len), CUZK_ERR_FORMAT,
           "challenge 1: the tree R old proof opens leaf", "challenge index");
    cuzk_free(buf);
    cuzk_fil_snap_partition_destroy(p);
}
