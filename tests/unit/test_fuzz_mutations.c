/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Every parser against randomly mutated copies of valid inputs (bit flips, byte overwrites,
 * truncation, extension, length fields set to random values): no crash, no out-of-bounds access
 * (the sanitizer build runs this too), no output on failure. The libFuzzer drivers in
 * tests/fuzz explore further (make fuzz).
 */
#include "test.h"
#include "../fuzz/fuzz_targets.h"
#include "cuzk/alloc.h"
#include "cuzk/groth16.h"
#include "cuzk/r1cs.h"

#include <unistd.h>

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    CHECK_MSG(f, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n + 64);
    CHECK(b && fread(b, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return b;
}

static void mutate_and_run(const char *name, int (*target)(const uint8_t *, size_t),
                           const uint8_t *seed, size_t len, unsigned long rounds)
{
    CHECK_MSG(target(seed, len) == 1, "%s: the unmodified seed input must parse", name);
    uint8_t *buf = malloc(len + 64);
    CHECK(buf);
    unsigned long accepted = 0;
    for (unsigned long r = 0; r < rounds; r++) {
        memcpy(buf, seed, len);
        size_t n = len;
        unsigned kind = (unsigned)(test_rand_u64() % 6);
        size_t pos = len ? (size_t)(test_rand_u64() % len) : 0;
        switch (kind) {
        case 0: /* one bit */
            buf[pos] ^= (uint8_t)(1u << (test_rand_u64() % 8));
            break;
        case 1: /* a few random bytes */
            for (int k = 0; k < 4 && len; k++)
                buf[test_rand_u64() % len] = (uint8_t)test_rand_u64();
            break;
        case 2: /* truncation */
            n = pos;
            break;
        case 3: /* extension with random bytes */
            n = len + 1 + (size_t)(test_rand_u64() % 63);
            test_rand_bytes(buf + len, n - len);
            break;
        case 4: { /* a 32-bit field (a length or count, little or big endian) set wild */
            uint32_t v = (uint32_t)test_rand_u64();
            if (test_rand_u64() & 1)
                v &= 0xff;
            if (pos + 4 <= len)
                memcpy(buf + pos - pos % 4, &v, 4);
            break;
        }
        default: /* a 64-bit field */
            if (pos + 8 <= len) {
                uint64_t v = test_rand_u64() >> (test_rand_u64() % 64);
                memcpy(buf + pos - pos % 8, &v, 8);
            }
        }
        accepted += (unsigned long)target(buf, n);
    }
    free(buf);
    printf("# %s: %lu mutations, %lu still parsed\n", name, rounds, accepted);
}

CUZK_TEST(fuzz_mutations_bellperson_and_cid)
{
    char path[512];
    size_t len;
    snprintf(path, sizeof path, "%s/filecoin/winning-post-2kib.vk", test_fixtures_dir());
    uint8_t *vk = slurp(path, &len);
    mutate_and_run("vk", cuzk_fuzz_vk, vk, len, test_iters(300));
    free(vk);
    uint8_t proof[192];
    CHECK(test_unhex(proof, 192,
                     "936fc7fee3cba8ca4d001760f72323fb6346df5a8aa8afd268ceaea135aaa48fbe19683a55006"
                     "702ee36158462fb1d28ac9fa9de18ee7e967a23dad2680cc21630762b857bf6fa03657549e2ab"
                     "a2fcee3b1629cf8df6ec18c035fb1904f304120bf08c420147742b99f18a918b029083aa4221b"
                     "d4c965b7620314723d810225f70a3c586b4905fdfedf821cfded4739fa981361831ac27cdb130"
                     "e5cdfbeac37dc04caf00264d8d6c0c70fc78a1630041c086d00a1640bd7b2d38ef0591c8a766"));
    mutate_and_run("proof", cuzk_fuzz_proof, proof, 192, test_iters(2000));
    mutate_and_run("g1-compressed", cuzk_fuzz_g1, proof, 48, test_iters(2000));
    mutate_and_run("g2-compressed", cuzk_fuzz_g2, proof + 48, 96, test_iters(1000));
    uint8_t cid[40];
    CHECK(test_unhex(cid, 40,
                     "0182e20381e802204ae5300a1b886046c04271deb6952675f29eb64f5bbe0365af8547252aef9512"));
    mutate_and_run("cid", cuzk_fuzz_cid, cid, 40, test_iters(3000));
}

/* mutate_and_run over the input |make| returns (fuzz_targets.h: the *_seed functions). */
static void from_seed(const char *name, uint8_t *(*make)(size_t *),
                      int (*target)(const uint8_t *, size_t), unsigned long rounds)
{
    size_t len;
    uint8_t *seed = make(&len);
    CHECK_MSG(seed, "%s: the seed input could not be made", name);
    if (seed)
        mutate_and_run(name, target, seed, len, test_iters(rounds));
    free(seed);
}

/* A SnapDeals PartitionProof (2 KiB, ~7 KiB of bincode): most mutations fail a check. */
CUZK_TEST(fuzz_mutations_snap_vanilla)
{
    from_seed("snap-vanilla", cuzk_fuzz_snap_vanilla_seed, cuzk_fuzz_snap_vanilla, 600);
}

/* A PoRep C1 (2 KiB, ~25 KiB of bincode; ~80 KiB of JSON, ~110 KiB in Curio's wrapper): most
 * mutations fail a check. */
CUZK_TEST(fuzz_mutations_porep_c1)
{
    from_seed("porep-c1", cuzk_fuzz_porep_c1_seed, cuzk_fuzz_porep_c1, 300);
    from_seed("porep-c1-json", cuzk_fuzz_porep_c1_json_seed, cuzk_fuzz_porep_c1_json, 100);
    from_seed("porep-c1-curio", cuzk_fuzz_porep_c1_curio_seed, cuzk_fuzz_porep_c1_curio, 100);
}

/* A WindowPoSt vanilla proof (2 KiB, one sector, ~5.5 KiB of bincode). */
CUZK_TEST(fuzz_mutations_post_vanilla)
{
    from_seed("post-vanilla", cuzk_fuzz_post_vanilla_seed, cuzk_fuzz_post_vanilla, 1000);
}

/* snarkjs's proof, public and verification-key JSON (the fixtures), behind the target's
 * reader-selecting first byte. */
CUZK_TEST(fuzz_mutations_snarkjs_json)
{
    static const char *files[3] = {"poseidon.proof_r12345_s67890.json", "poseidon.public.json",
                                   "poseidon.vk.json"};
    static const unsigned long rounds[3] = {1000, 1000, 300};
    for (unsigned k = 0; k < 3; k++) {
        char path[512];
        size_t len;
        snprintf(path, sizeof path, "%s/snarkjs/%s", test_fixtures_dir(), files[k]);
        uint8_t *b = slurp(path, &len);
        uint8_t *in = malloc(len + 1);
        CHECK(in);
        in[0] = (uint8_t)k;
        memcpy(in + 1, b, len);
        mutate_and_run(files[k], cuzk_fuzz_snarkjs_json, in, len + 1, test_iters(rounds[k]));
        free(in);
        free(b);
    }
}

CUZK_TEST(fuzz_mutations_params_and_pce)
{
    cuzk_circuit c;
    CHECK(cuzk_circuit_find("poseidon-merkle:1", &c) == CUZK_OK);
    cuzk_cs *cs;
    cuzk_r1cs_matrices m;
    cuzk_groth16_params *p;
    CHECK(cuzk_cs_create(&cs, CUZK_CS_KEYGEN, 0, 0) == CUZK_OK);
    CHECK(cuzk_circuit_synthesize(cs, &c) == CUZK_OK);
    CHECK(cuzk_cs_take_matrices(cs, &m) == CUZK_OK);
    cuzk_cs_destroy(cs);
    CHECK(cuzk_groth16_setup(&p, &m, NULL) == CUZK_OK);
    char path[] = "/tmp/cuzk-fuzz-seed-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    CHECK(cuzk_groth16_params_write(p, path) == CUZK_OK);
    size_t len;
    uint8_t *buf = slurp(path, &len);
    mutate_and_run("params", cuzk_fuzz_params, buf, len, test_iters(40));
    free(buf);
    cuzk_pce *pce;
    CHECK(cuzk_pce_from_matrices(&pce, &m) == CUZK_OK);
    CHECK(cuzk_pce_save(pce, path) == CUZK_OK);
    cuzk_pce_destroy(pce);
    buf = slurp(path, &len);
    mutate_and_run("pce", cuzk_fuzz_pce, buf, len, test_iters(200));
    free(buf);
    unlink(path);
    cuzk_r1cs_matrices_free(&m);
    cuzk_groth16_params_free(p);
}

CUZK_TEST(fuzz_mutations_snarkjs_files)
{
    static const struct {
        const char *file;
        int (*target)(const uint8_t *, size_t);
        unsigned long rounds;
    } cases[] = {
        {"multiplier.zkey", cuzk_fuzz_zkey, 200},
        {"multiplier.r1cs", cuzk_fuzz_r1cs, 1000},
        {"multiplier.wtns", cuzk_fuzz_wtns, 1000},
        {"poseidon.r1cs", cuzk_fuzz_r1cs, 200},
        {"poseidon.wtns", cuzk_fuzz_wtns, 300},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[512];
        size_t len;
        snprintf(path, sizeof path, "%s/snarkjs/%s", test_fixtures_dir(), cases[i].file);
        uint8_t *b = slurp(path, &len);
        mutate_and_run(cases[i].file, cases[i].target, b, len, test_iters(cases[i].rounds));
        free(b);
    }
}
