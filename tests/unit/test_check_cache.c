/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The check cache (src/common/check_cache.c) and its use by the zkey reader: entries are found
 * only at the start of a line and only when recorded; an unsafe record (mode, symbolic link,
 * directory, owner) is refused; a key is recorded only once it has passed every check, and a
 * key whose bytes differ in any bulk point is tested again (an off-subgroup point there is still
 * found and named). The zkey tests use the poseidon fixture.
 */
#include "test_snarkjs_util.h"
#include "cuzk/check_cache.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A fresh private directory; its path in |dir|. */
static void temp_dir(char dir[64])
{
    snprintf(dir, 64, "/tmp/cuzk-cc-XXXXXX");
    CHECK(mkdtemp(dir) != NULL);
}

/* Removes a test's directory (its record may have been given to another user). */
static void remove_dir(const char *dir)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
}

static void rand_digest(uint8_t d[CUZK_CHECK_CACHE_DIGEST_BYTES])
{
    test_rand_bytes(d, CUZK_CHECK_CACHE_DIGEST_BYTES);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    CHECK(f);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

static void hex_of(char out[65], const uint8_t *d)
{
    for (int i = 0; i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static void append(const char *path, const char *text)
{
    FILE *f = fopen(path, "ab");
    CHECK(f);
    fputs(text, f);
    fclose(f);
}

CUZK_TEST(check_cache_records_and_finds)
{
    char dir[64], path[128], hex[65], line[1200];
    temp_dir(dir);
    snprintf(path, sizeof path, "%s/rec", dir);
    cuzk_check_cache *c;
    CHECK(cuzk_check_cache_open(&c, path) == CUZK_OK);
    CHECK(strcmp(cuzk_check_cache_path(c), path) == 0);
    uint8_t d1[32], d2[32], d3[32];
    rand_digest(d1);
    rand_digest(d2);
    rand_digest(d3);
    CHECK(!cuzk_check_cache_has(c, d1)); /* no file yet */
    CHECK(cuzk_check_cache_add(c, d1, "first\nwith a newline\tand a tab") == CUZK_OK);
    CHECK(cuzk_check_cache_has(c, d1));
    CHECK(!cuzk_check_cache_has(c, d2));
    struct stat st;
    CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600);
    /* The header, then the entry with its note's control characters replaced. */
    hex_of(hex, d1);
    char want[256];
    snprintf(want, sizeof want, "# cuzk checked points v1\n%s first?with a newline?and a tab\n",
             hex);
    CHECK_MSG(strcmp(slurp(path), want) == 0, "record is '%s'", slurp(path));
    /* Digests not at a line's start do not count: after a prefix, without the space, or in the
     * continuation of an overlong line (the reader takes lines in pieces of 511 bytes). */
    hex_of(hex, d2);
    snprintf(line, sizeof line, "x%s note\n%s\n%.64s", hex, hex, hex);
    append(path, line);
    memset(line, 'a', 511);
    snprintf(line + 511, sizeof line - 511, "%s tail\n", hex);
    append(path, line);
    append(path, "garbage\n\n");
    CHECK(!cuzk_check_cache_has(c, d2));
    /* A second handle sees the first one's entries; a later entry after the junk is found. */
    cuzk_check_cache *c2;
    CHECK(cuzk_check_cache_open(&c2, path) == CUZK_OK);
    CHECK(cuzk_check_cache_has(c2, d1));
    CHECK(cuzk_check_cache_add(c2, d3, "third") == CUZK_OK);
    CHECK(cuzk_check_cache_has(c, d3) && !cuzk_check_cache_has(c, d2));
    cuzk_check_cache_close(c2);
    cuzk_check_cache_close(c);
    remove_dir(dir);
}

CUZK_TEST(check_cache_refuses_unsafe_records)
{
    char dir[64], path[128], other[128];
    temp_dir(dir);
    snprintf(path, sizeof path, "%s/rec", dir);
    uint8_t d[32];
    rand_digest(d);
    cuzk_check_cache *c;
    CHECK(cuzk_check_cache_open(&c, path) == CUZK_OK);
    CHECK(cuzk_check_cache_add(c, d, "entry") == CUZK_OK);
    CHECK(cuzk_check_cache_has(c, d));
    /* Writable by others: refused at open, and an open handle stops trusting it. */
    CHECK(chmod(path, 0622) == 0);
    cuzk_check_cache *bad = (cuzk_check_cache *)1;
    CHECK(cuzk_check_cache_open(&bad, path) == CUZK_ERR_IO && bad == NULL);
    CHECK_MSG(strstr(cuzk_last_error(), "may be written by others"), "'%s'", cuzk_last_error());
    CHECK(!cuzk_check_cache_has(c, d));
    CHECK(cuzk_check_cache_add(c, d, "again") == CUZK_ERR_IO);
    CHECK(chmod(path, 0600) == 0);
    CHECK(cuzk_check_cache_has(c, d));
    /* The same for its directory. */
    CHECK(chmod(dir, 0777) == 0);
    CHECK(cuzk_check_cache_open(&bad, path) == CUZK_ERR_IO);
    CHECK(!cuzk_check_cache_has(c, d));
    CHECK(chmod(dir, 0700) == 0);
    /* A symbolic link to a good record, and a directory in the record's place. */
    snprintf(other, sizeof other, "%s/link", dir);
    CHECK(symlink(path, other) == 0);
    CHECK(cuzk_check_cache_open(&bad, other) == CUZK_ERR_IO);
    CHECK_MSG(strstr(cuzk_last_error(), "symbolic link"), "'%s'", cuzk_last_error());
    snprintf(other, sizeof other, "%s/sub", dir);
    CHECK(mkdir(other, 0700) == 0);
    CHECK(cuzk_check_cache_open(&bad, other) == CUZK_ERR_IO);
    /* A directory named by the user is not created. */
    snprintf(other, sizeof other, "%s/missing/rec", dir);
    CHECK(cuzk_check_cache_open(&bad, other) == CUZK_ERR_IO);
    /* Another user's record (root can give it away). */
    if (geteuid() == 0) {
        CHECK(chown(path, 65534, 65534) == 0);
        CHECK(cuzk_check_cache_open(&bad, path) == CUZK_ERR_IO);
        CHECK_MSG(strstr(cuzk_last_error(), "not to this user"), "'%s'", cuzk_last_error());
        CHECK(!cuzk_check_cache_has(c, d));
    }
    cuzk_check_cache_close(c);
    remove_dir(dir);
}

CUZK_TEST(check_cache_default_path)
{
    char dir[64], path[256], want[256];
    temp_dir(dir);
    setenv("CUZK_CHECK_CACHE", "off", 1);
    CHECK(cuzk_check_cache_default_path(path, sizeof path) == CUZK_ERR_NOT_FOUND);
    cuzk_check_cache *c = (cuzk_check_cache *)1;
    CHECK(cuzk_check_cache_open(&c, NULL) == CUZK_ERR_NOT_FOUND && c == NULL);
    unsetenv("CUZK_CHECK_CACHE");
    setenv("HOME", dir, 1);
    setenv("XDG_CACHE_HOME", "relative/ignored", 1);
    CHECK(cuzk_check_cache_default_path(path, sizeof path) == CUZK_OK);
    snprintf(want, sizeof want, "%s/.cache/cuzk/checked-points", dir);
    CHECK_MSG(strcmp(path, want) == 0, "got %s", path);
    snprintf(want, sizeof want, "%s/x/y", dir);
    setenv("XDG_CACHE_HOME", want, 1);
    CHECK(cuzk_check_cache_default_path(path, sizeof path) == CUZK_OK);
    strcat(want, "/cuzk/checked-points");
    CHECK_MSG(strcmp(path, want) == 0, "got %s", path);
    /* The default's directories are made, private. */
    CHECK(cuzk_check_cache_open(&c, NULL) == CUZK_OK);
    CHECK(strcmp(cuzk_check_cache_path(c), want) == 0);
    struct stat st;
    snprintf(want, sizeof want, "%s/x/y/cuzk", dir);
    CHECK(stat(want, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & 0777) == 0700);
    cuzk_check_cache_close(c);
    unsetenv("HOME");
    unsetenv("XDG_CACHE_HOME");
    CHECK(cuzk_check_cache_default_path(path, sizeof path) == CUZK_ERR_NOT_FOUND);
    snprintf(want, sizeof want, "%s/named", dir);
    setenv("CUZK_CHECK_CACHE", want, 1);
    CHECK(cuzk_check_cache_default_path(path, sizeof path) == CUZK_OK && !strcmp(path, want));
    remove_dir(dir);
}

/* The decoded points of two loads of a key are the same. */
static bool same_points(const cuzk_snarkjs_zkey *x, const cuzk_snarkjs_zkey *y)
{
    size_t nv = x->n_vars, nc = x->n_vars - x->n_public - 1, nd = x->domain_size;
    const cuzk_g1_affine_t *g1x[4] = {x->a, x->b1, x->c, x->h}, *g1y[4] = {y->a, y->b1, y->c, y->h};
    size_t n1[4] = {nv, nv, nc, nd};
    for (int k = 0; k < 4; k++)
        for (size_t i = 0; i < n1[k]; i++)
            if (g1x[k][i].infinity != g1y[k][i].infinity ||
                memcmp(&g1x[k][i].x, &g1y[k][i].x, sizeof(cuzk_fp_t)) ||
                memcmp(&g1x[k][i].y, &g1y[k][i].y, sizeof(cuzk_fp_t)))
                return false;
    for (size_t i = 0; i < nv; i++)
        if (x->b2[i].infinity != y->b2[i].infinity ||
            memcmp(&x->b2[i].x, &y->b2[i].x, sizeof(cuzk_fp2_t)) ||
            memcmp(&x->b2[i].y, &y->b2[i].y, sizeof(cuzk_fp2_t)))
            return false;
    return true;
}

CUZK_TEST(check_cache_zkey_once)
{
    char dir[64], path[128], before[1 << 16];
    temp_dir(dir);
    snprintf(path, sizeof path, "%s/rec", dir);
    cuzk_check_cache *c;
    CHECK(cuzk_check_cache_open(&c, path) == CUZK_OK);
    size_t len;
    uint8_t *b = snark_fixture("poseidon.zkey", &len);
    cuzk_snarkjs_zkey *plain, *first, *again, *unchecked;
    CHECK(cuzk_snarkjs_zkey_parse(&plain, b, len, 0, NULL) == CUZK_OK);
    CHECK(plain->subgroups == CUZK_SUBGROUPS_CHECKED && !plain->subgroups_recorded);
    /* Unchecked: the cache is not consulted nor written. */
    CHECK(cuzk_snarkjs_zkey_parse_ex(&unchecked, b, len, CUZK_SNARKJS_UNCHECKED_SUBGROUP, NULL,
                                     c) == CUZK_OK);
    CHECK(unchecked->subgroups == CUZK_SUBGROUPS_NOT_CHECKED && access(path, F_OK) != 0);
    CHECK(cuzk_snarkjs_zkey_parse_ex(&first, b, len, 0, cuzk_pool_default(), c) == CUZK_OK);
    CHECK(first->subgroups == CUZK_SUBGROUPS_CHECKED && first->subgroups_recorded &&
          !first->cache_error[0]);
    CHECK(cuzk_check_cache_has(c, first->points_digest));
    CHECK(cuzk_snarkjs_zkey_parse_ex(&again, b, len, 0, NULL, c) == CUZK_OK);
    CHECK(again->subgroups == CUZK_SUBGROUPS_CHECKED_BEFORE && !again->subgroups_recorded);
    CHECK(memcmp(again->points_digest, first->points_digest, 32) == 0);
    CHECK(same_points(plain, first) && same_points(plain, again) && same_points(plain, unchecked));
    /* A packed key (its points kept as the file's bytes) has the same digest: found. */
    cuzk_snarkjs_zkey *packed;
    CHECK(cuzk_snarkjs_zkey_parse_ex(&packed, b, len, CUZK_SNARKJS_PACKED_POINTS, NULL, c) ==
          CUZK_OK);
    CHECK(packed->subgroups == CUZK_SUBGROUPS_CHECKED_BEFORE && packed->a_packed && !packed->a);
    CHECK(memcmp(packed->points_digest, first->points_digest, 32) == 0);
    cuzk_snarkjs_zkey_free(packed);
    snprintf(before, sizeof before, "%s", slurp(path));
    /* One bulk point replaced by an on-curve point outside G1, in each G1 section at a random
     * index: a different digest, so the tests run again, find it and name it; nothing is added. */
    static const struct {
        uint32_t type;
        const char *name;
    } G1S[] = {{5, "A"}, {6, "B1"}, {8, "C"}, {9, "H"}};
    for (size_t k = 0; k < 4; k++) {
        snark_sec sec = snark_find(b, len, G1S[k].type);
        size_t i = test_rand_u64() % (sec.size / 96);
        uint8_t *m = snark_copy(b, len);
        snark_off_subgroup_g1(m + sec.body + i * 96, 5 + test_rand_u64() % 1000);
        cuzk_snarkjs_zkey *zk = (cuzk_snarkjs_zkey *)1;
        char needle[64];
        snprintf(needle, sizeof needle, "(%s) point %zu at", G1S[k].name, i);
        for (int pk = 0; pk < 2; pk++) { /* decoded, and packed (the second pass re-reads) */
            cuzk_status s = cuzk_snarkjs_zkey_parse_ex(
                &zk, m, len, pk ? CUZK_SNARKJS_PACKED_POINTS : 0, cuzk_pool_default(), c);
            CHECK_MSG(s == CUZK_ERR_NOT_IN_SUBGROUP && zk == NULL &&
                          strstr(cuzk_last_error(), needle),
                      "section %s point %zu%s: %s '%s'", G1S[k].name, i, pk ? " (packed)" : "",
                      cuzk_status_name(s), cuzk_last_error());
            CHECK(strcmp(slurp(path), before) == 0);
        }
        cuzk_free(m);
    }
    cuzk_snarkjs_zkey_free(first);
    cuzk_snarkjs_zkey_free(again);
    cuzk_snarkjs_zkey_free(unchecked);
    cuzk_snarkjs_zkey_free(plain);
    cuzk_check_cache_close(c);
    cuzk_free(b);
    remove_dir(dir);
}

CUZK_TEST(check_cache_zkey_unwritable_record)
{
    char dir[64], path[128];
    temp_dir(dir);
    snprintf(path, sizeof path, "%s/rec", dir);
    cuzk_check_cache *c;
    CHECK(cuzk_check_cache_open(&c, path) == CUZK_OK);
    /* A record that turns into a directory after the open cannot be added to: the key still
     * loads, checked, with the reason. */
    CHECK(mkdir(path, 0700) == 0);
    size_t len;
    uint8_t *b = snark_fixture("poseidon.zkey", &len);
    cuzk_snarkjs_zkey *zk;
    CHECK(cuzk_snarkjs_zkey_parse_ex(&zk, b, len, 0, NULL, c) == CUZK_OK);
    CHECK(zk->subgroups == CUZK_SUBGROUPS_CHECKED && !zk->subgroups_recorded);
    CHECK_MSG(strstr(zk->cache_error, "not a regular file") || strstr(zk->cache_error, "directory"),
              "'%s'", zk->cache_error);
    cuzk_snarkjs_zkey_free(zk);
    cuzk_check_cache_close(c);
    cuzk_free(b);
    remove_dir(dir);
}
