/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * gen-ptau: a prepared (phase-2 ready) snarkjs powers-of-tau file for BLS12-381 from random
 * toxic waste, in seconds instead of the ~45 minutes snarkjs needs for power 16 on two cores
 * (facts/formats.md 5.3). tau, alpha and beta come from a 32-byte seed (fresh from the
 * operating system unless --seed is given) that is printed, so a file can be made again; the
 * same seed therefore lets anyone forge proofs: tests and benchmarks only.
 * Exit codes: 0 written; 2 usage or I/O error (nothing written).
 */
#include "commands.h"
#include "hexutil.h"
#include "cuzk/alloc.h"
#include "cuzk/snarkjs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>

#define EXIT_OK 0
#define EXIT_ERROR 2
#define SEED_BYTES 32

static void usage(FILE *f)
{
    fprintf(f,
            "usage: cuzk-bench gen-ptau --power P --out FILE [--seed HEX64] [--threads N]\n"
            "  Writes a prepared (phase 2) powers-of-tau file for bls12381, power P (1..%u),\n"
            "  accepted by `snarkjs groth16 setup` for circuits with up to 2^P rows.\n"
            "  FOR TESTS AND BENCHMARKS ONLY: tau, alpha and beta are derived from the printed\n"
            "  seed (fresh unless --seed is given), so whoever has the seed can forge proofs for\n"
            "  every key made from the file. Never use it for real keys.\n",
            CUZK_SNARKJS_PTAU_MAX_POWER);
}

/* xoshiro256** over the seed words: a reproducible expansion of the seed (not a secure
 * generator; the seed is printed anyway). */
static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static uint64_t next(uint64_t s[4])
{
    uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return r;
}

/* A uniform non-zero Fr element by rejection (255-bit candidates, accepted when < r). */
static void draw(cuzk_fr_t *out, uint64_t s[4])
{
    uint64_t l[4];
    do {
        for (int i = 0; i < 4; i++)
            l[i] = next(s);
        l[3] &= 0x7fffffffffffffffULL;
    } while (!cuzk_fr_from_canonical(out, l) || cuzk_fr_is_zero(out));
    cuzk_memclear(l, sizeof l);
}

int cmd_gen_ptau(int argc, char **argv)
{
    const char *out = NULL, *seed_hex = NULL;
    long power = -1;
    unsigned threads = 0;
    for (int i = 0; i < argc; i++) {
        const char *k = argv[i];
        if (strcmp(k, "-h") == 0 || strcmp(k, "--help") == 0) {
            usage(stdout);
            return EXIT_OK;
        }
        if (i + 1 >= argc || (strcmp(k, "--power") != 0 && strcmp(k, "--out") != 0 &&
                              strcmp(k, "--seed") != 0 && strcmp(k, "--threads") != 0)) {
            fprintf(stderr, "cuzk-bench gen-ptau: %s '%s'\n",
                    i + 1 >= argc ? "missing value for" : "unknown option", k);
            usage(stderr);
            return EXIT_ERROR;
        }
        const char *v = argv[++i];
        char *end;
        if (strcmp(k, "--out") == 0) {
            out = v;
        } else if (strcmp(k, "--seed") == 0) {
            seed_hex = v;
        } else if (strcmp(k, "--power") == 0) {
            power = strtol(v, &end, 10);
            if (*v == 0 || *end != 0 || power < 1 || power > CUZK_SNARKJS_PTAU_MAX_POWER) {
                fprintf(stderr, "cuzk-bench gen-ptau: --power wants 1..%u, got '%s'\n",
                        CUZK_SNARKJS_PTAU_MAX_POWER, v);
                return EXIT_ERROR;
            }
        } else {
            unsigned long t = strtoul(v, &end, 10);
            if (*v == 0 || *end != 0 || t > 1024) {
                fprintf(stderr, "cuzk-bench gen-ptau: --threads wants 0..1024, got '%s'\n", v);
                return EXIT_ERROR;
            }
            threads = (unsigned)t;
        }
    }
    if (power < 0 || !out) {
        fprintf(stderr, "cuzk-bench gen-ptau: --power and --out are required\n");
        usage(stderr);
        return EXIT_ERROR;
    }
    uint8_t seed[SEED_BYTES];
    if (seed_hex) {
        size_t n;
        if (!hex_decode(seed, sizeof seed, &n, seed_hex) || n != SEED_BYTES) {
            fprintf(stderr, "cuzk-bench gen-ptau: --seed wants %d hex digits\n", 2 * SEED_BYTES);
            return EXIT_ERROR;
        }
    } else if (getrandom(seed, sizeof seed, 0) != (ssize_t)sizeof seed) {
        fprintf(stderr, "cuzk-bench gen-ptau: getrandom failed\n");
        return EXIT_ERROR;
    }
    uint64_t st[4];
    for (int w = 0; w < 4; w++) {
        st[w] = 0;
        for (int b = 0; b < 8; b++)
            st[w] |= (uint64_t)seed[8 * w + b] << (8 * b);
    }
    if ((st[0] | st[1] | st[2] | st[3]) == 0) {
        fprintf(stderr, "cuzk-bench gen-ptau: the all-zero seed is not allowed\n");
        return EXIT_ERROR;
    }
    char hex[2 * SEED_BYTES + 1];
    hex_encode(hex, seed, sizeof seed);
    printf("seed %s (tests and benchmarks only: the seed gives tau, alpha, beta)\n", hex);
    fflush(stdout);

    cuzk_fr_t tau, alpha, beta;
    draw(&tau, st);
    draw(&alpha, st);
    draw(&beta, st);
    cuzk_memclear(st, sizeof st);
    int rc = EXIT_ERROR;
    cuzk_pool *pool = NULL;
    if (cuzk_pool_create(&pool, threads) != CUZK_OK) {
        fprintf(stderr, "error: %s\n", cuzk_last_error());
        goto done;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cuzk_status s = cuzk_snarkjs_ptau_write(out, (unsigned)power, &tau, &alpha, &beta, pool);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (s != CUZK_OK) {
        fprintf(stderr, "error: %s (%s)\n", cuzk_last_error(), cuzk_status_name(s));
        goto done;
    }
    struct stat sb;
    long long bytes = stat(out, &sb) == 0 ? (long long)sb.st_size : -1;
    printf("wrote %s: power %ld, %lld bytes, %.2f s on %u threads\n", out, power, bytes,
           (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
           cuzk_pool_threads(pool));
    rc = EXIT_OK;
done:
    cuzk_pool_destroy(pool);
    cuzk_memclear(&tau, sizeof tau);
    cuzk_memclear(&alpha, sizeof alpha);
    cuzk_memclear(&beta, sizeof beta);
    return rc;
}
