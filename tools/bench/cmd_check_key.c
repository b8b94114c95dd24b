/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * check-key: loads a snarkjs .zkey or a bellperson .params file with every check (encodings,
 * curve, prime-order subgroups, the verifying key) and nothing else, so that an operator can
 * vet a key before it serves proofs; with the check cache (include/cuzk/check_cache.h) the key
 * is then recorded, and later checked loads of the same bytes skip the subgroup tests.
 * Exit codes: 0 the key passed; 2 usage, I/O or a failed check (the message names the point).
 */
#include "commands.h"
#include "cuzk/groth16.h"
#include "cuzk/snarkjs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int cmd_check_key(int argc, char **argv)
{
    const char *zkey = NULL, *params = NULL, *cache_path = NULL;
    bool no_cache = false, json = false;
    unsigned long threads = 0;
    for (int i = 0; i < argc; i++) {
        const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(k, "--no-check-cache") == 0) {
            no_cache = true;
        } else if (strcmp(k, "--json") == 0) {
            json = true;
        } else if (v && (strcmp(k, "--zkey") == 0 || strcmp(k, "--params") == 0 ||
                         strcmp(k, "--check-cache") == 0 || strcmp(k, "--threads") == 0)) {
            char *end;
            if (strcmp(k, "--zkey") == 0)
                zkey = v;
            else if (strcmp(k, "--params") == 0)
                params = v;
            else if (strcmp(k, "--check-cache") == 0)
                cache_path = v;
            else if ((threads = strtoul(v, &end, 10)) > 1024 || *end || !*v)
                zkey = params = NULL, i = argc; /* usage below */
            i++;
        } else {
            zkey = params = NULL;
            break;
        }
    }
    if (!zkey == !params || (cache_path && no_cache)) {
        fprintf(stderr, "usage: cuzk-bench check-key (--zkey FILE | --params FILE) "
                        "[--check-cache FILE | --no-check-cache] [--threads N] [--json]\n");
        return 2;
    }
    cuzk_pool *pool = NULL;
    if (cuzk_pool_create(&pool, (unsigned)threads) != CUZK_OK) {
        fprintf(stderr, "error: thread pool: %s\n", cuzk_last_error());
        return 2;
    }
    cuzk_check_cache *cache = bench_check_cache_open(cache_path, no_cache);
    cuzk_snarkjs_zkey *zk = NULL;
    cuzk_groth16_params *p = NULL;
    double t0 = now_ms();
    cuzk_status s = zkey ? cuzk_snarkjs_zkey_load_ex(&zk, zkey, 0, pool, cache)
                         : cuzk_groth16_params_load_cached(&p, params, CUZK_PARAMS_CHECKED, pool,
                                                           cache);
    double ms = now_ms() - t0;
    int rc = 2;
    if (s != CUZK_OK) {
        fprintf(stderr, "error: %s (%s)\n", cuzk_last_error(), cuzk_status_name(s));
        goto out;
    }
    cuzk_subgroups sg = zk ? zk->subgroups : p->subgroups;
    bool recorded = zk ? zk->subgroups_recorded : p->subgroups_recorded;
    const char *cache_error = zk ? zk->cache_error : p->cache_error;
    size_t points = zk ? 4 * (size_t)zk->n_vars - zk->n_public - 1 + zk->domain_size
                       : p->n_h + p->n_l + p->n_a + p->n_b_g1 + p->n_b_g2;
    if (cache_error[0])
        fprintf(stderr, "note: key checked but not recorded in the check cache: %s\n",
                cache_error);
    if (json)
        printf("{\"command\":\"check-key\",\"format\":\"%s\",\"bulk_points\":%zu,"
               "\"subgroups\":\"%s\",\"recorded\":%s,\"ms\":%.3f}\n",
               zkey ? "zkey" : "params", points, cuzk_subgroups_name(sg),
               recorded ? "true" : "false", ms);
    else
        printf("%s: valid: %zu bulk points on the curve, subgroups %s (%.1f ms)\n",
               zkey ? zkey : params, points, bench_subgroups_text(sg, recorded, cache), ms);
    rc = 0;
out:
    cuzk_snarkjs_zkey_free(zk);
    cuzk_groth16_params_free(p);
    cuzk_check_cache_close(cache);
    cuzk_pool_destroy(pool);
    return rc;
}
