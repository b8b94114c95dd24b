/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Engine: the subgroup tests of snarkjs keys at load (cuzk_engine_config.zkey_unchecked and
 * .check_cache): tested by default, once per key with a check cache (a re-load after an
 * eviction, or another engine, finds it), skipped when the operator trusts the files; a key with
 * a point outside its subgroup is refused at load with the point named, and the engine keeps
 * serving its other circuits.
 */
#include "test_engine_util.h"
#include "test_snarkjs_util.h"

#include <string.h>

static void expect_subgroups(cuzk_engine *e, const char *id, const char *want)
{
    cuzk_engine_circuit_info info;
    CHECK_MSG(cuzk_engine_circuit_info_get(e, id, &info) == CUZK_OK, "%s", cuzk_last_error());
    CHECK_MSG(strcmp(info.subgroups, want) == 0, "%s: subgroups '%s', want '%s'", id,
              info.subgroups, want);
    cuzk_engine_circuit_info_clear(&info);
}

static void evict(cuzk_engine *e, const char *id)
{
    bool was;
    uint64_t freed;
    CHECK(cuzk_engine_evict(e, id, &was, &freed) == CUZK_OK && was);
}

/* A copy of poseidon.zkey with H's point |i| replaced by an on-curve point outside G1. */
static void write_bad_key(const char *path, size_t *i_out)
{
    size_t len;
    uint8_t *b = snark_fixture("poseidon.zkey", &len);
    snark_sec h = snark_find(b, len, 9);
    size_t i = test_rand_u64() % (h.size / 96);
    snark_off_subgroup_g1(b + h.body + i * 96, 7 + test_rand_u64() % 1000);
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(b, 1, len, f) == len && fclose(f) == 0);
    cuzk_free(b);
    *i_out = i;
}

CUZK_TEST(engine_zkey_subgroups)
{
    char *dir = eng_tmpdir();
    uint64_t live0 = cuzk_alloc_live_bytes();
    char good[512], bad[600], rec[600];
    snprintf(good, sizeof good, "%s/snarkjs/multiplier.zkey", test_fixtures_dir());
    snprintf(bad, sizeof bad, "%s/bad.zkey", dir);
    snprintf(rec, sizeof rec, "%s/checked-points", dir);
    size_t bad_i;
    write_bad_key(bad, &bad_i);
    cuzk_engine_circuit mul = {.id = "mul", .source = CUZK_CIRCUIT_ZKEY, .zkey_path = good};
    cuzk_engine_circuit bk = {.id = "bad", .source = CUZK_CIRCUIT_ZKEY, .zkey_path = bad};

    /* Default: tested at every load. */
    cuzk_engine_config c;
    eng_config(&c, dir);
    CHECK(!c.zkey_unchecked && !c.check_cache);
    cuzk_engine *e = eng_create(&c);
    CHECK(cuzk_engine_add_circuit(e, &mul) == CUZK_OK && cuzk_engine_add_circuit(e, &bk) == CUZK_OK);
    expect_subgroups(e, "mul", "checked");
    evict(e, "mul");
    expect_subgroups(e, "mul", "checked");
    bool already;
    uint64_t ms;
    char needle[64];
    snprintf(needle, sizeof needle, "(H) point %zu at", bad_i);
    cuzk_status s = cuzk_engine_preload(e, "bad", &already, &ms);
    CHECK_MSG(s == CUZK_ERR_NOT_IN_SUBGROUP && strstr(cuzk_last_error(), needle), "%s '%s'",
              cuzk_status_name(s), cuzk_last_error());
    expect_subgroups(e, "mul", "checked"); /* the other circuit still serves */
    cuzk_engine_destroy(e);

    /* With a check cache: tested once, found after an eviction and by another engine; the bad
     * key is still refused and never recorded. */
    cuzk_check_cache *cc;
    CHECK(cuzk_check_cache_open(&cc, rec) == CUZK_OK);
    c.check_cache = cc;
    e = eng_create(&c);
    CHECK(cuzk_engine_add_circuit(e, &mul) == CUZK_OK && cuzk_engine_add_circuit(e, &bk) == CUZK_OK);
    cuzk_engine_status st;
    CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
    CHECK(strcmp(srs_of(&st, "mul")->subgroups, "") == 0); /* not loaded yet */
    cuzk_engine_status_clear(&st);
    expect_subgroups(e, "mul", "checked");
    evict(e, "mul");
    expect_subgroups(e, "mul", "checked-before");
    CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
    CHECK(strcmp(srs_of(&st, "mul")->subgroups, "checked-before") == 0);
    cuzk_engine_status_clear(&st);
    for (int k = 0; k < 2; k++)
        CHECK(cuzk_engine_preload(e, "bad", &already, &ms) == CUZK_ERR_NOT_IN_SUBGROUP);
    cuzk_engine_destroy(e);
    e = eng_create(&c);
    CHECK(cuzk_engine_add_circuit(e, &mul) == CUZK_OK);
    expect_subgroups(e, "mul", "checked-before");
    cuzk_engine_destroy(e);
    FILE *f = fopen(rec, "r");
    char line[256];
    int entries = 0;
    while (f && fgets(line, sizeof line, f))
        entries += line[0] != '#';
    CHECK_MSG(f && entries == 1, "%d entries", entries);
    fclose(f);

    /* Trusted files: no tests, and the bad key loads. */
    c.zkey_unchecked = true;
    e = eng_create(&c);
    CHECK(cuzk_engine_add_circuit(e, &mul) == CUZK_OK && cuzk_engine_add_circuit(e, &bk) == CUZK_OK);
    expect_subgroups(e, "mul", "not-checked");
    CHECK_MSG(cuzk_engine_preload(e, "bad", &already, &ms) == CUZK_OK, "%s", cuzk_last_error());
    cuzk_engine_destroy(e);
    cuzk_check_cache_close(cc);
    CHECK_MSG(cuzk_alloc_live_bytes() == live0, "%llu bytes leaked",
              (unsigned long long)(cuzk_alloc_live_bytes() - live0));
    eng_rm_rf(dir);
}
