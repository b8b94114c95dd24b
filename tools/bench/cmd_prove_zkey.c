/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * prove --zkey: the snarkjs prover from a .zkey and a .wtns, writing proof.json and public.json
 * as snarkjs does (atomically: temporary files renamed into place only once the proof has been
 * verified), and export-vk-snarkjs: verification_key.json from a .zkey.
 * Exit codes: 0 proof written; 1 the witness does not satisfy the circuit (no output written);
 * 2 usage, input or I/O error.
 */
#include "commands.h"
#include "cuzk/alloc.h"
#include "cuzk/snarkjs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define EXIT_OK 0
#define EXIT_UNSAT 1
#define EXIT_ERROR 2

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

typedef struct {
    const char *zkey, *wtns, *proof, *public_, *r1cs, *backend, *check_cache;
    unsigned threads, repeat;
    bool check, json, unchecked, no_check_cache;
} zkey_args;

static int parse_args(int argc, char **argv, zkey_args *a)
{
    memset(a, 0, sizeof *a);
    a->repeat = 1;
    for (int i = 0; i < argc; i++) {
        const char *k = argv[i];
        if (strcmp(k, "--check") == 0) {
            a->check = true;
            continue;
        }
        if (strcmp(k, "--json") == 0) {
            a->json = true;
            continue;
        }
        if (strcmp(k, "--unchecked-subgroup") == 0) {
            a->unchecked = true;
            continue;
        }
        if (strcmp(k, "--no-check-cache") == 0) {
            a->no_check_cache = true;
            continue;
        }
        const char **slot = strcmp(k, "--zkey") == 0      ? &a->zkey
                            : strcmp(k, "--wtns") == 0    ? &a->wtns
                            : strcmp(k, "--proof") == 0   ? &a->proof
                            : strcmp(k, "--public") == 0  ? &a->public_
                            : strcmp(k, "--r1cs") == 0    ? &a->r1cs
                            : strcmp(k, "--backend") == 0 ? &a->backend
                            : strcmp(k, "--check-cache") == 0 ? &a->check_cache
                                                          : NULL;
        const char *thr = strcmp(k, "--threads") == 0 || strcmp(k, "--repeat") == 0 ? k : NULL;
        if (!slot && !thr) {
            fprintf(stderr, "cuzk-bench prove: unknown option '%s'\n", k);
            return EXIT_ERROR;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "cuzk-bench prove: %s needs a value\n", k);
            return EXIT_ERROR;
        }
        const char *v = argv[++i];
        if (slot) {
            *slot = v;
        } else {
            char *end;
            bool rep = strcmp(thr, "--repeat") == 0;
            unsigned long t = strtoul(v, &end, 10);
            if (*v == 0 || *end != 0 || t > 1024 || (rep && t == 0)) {
                fprintf(stderr, "cuzk-bench prove: %s wants %s..1024, got '%s'\n", thr,
                        rep ? "1" : "0", v);
                return EXIT_ERROR;
            }
            *(rep ? &a->repeat : &a->threads) = (unsigned)t;
        }
    }
    if (!a->zkey || !a->wtns || !a->proof || !a->public_) {
        fprintf(stderr, "cuzk-bench prove: --zkey, --wtns, --proof and --public are required\n");
        return EXIT_ERROR;
    }
    if (a->backend && strcmp(a->backend, "cpu") != 0 && strcmp(a->backend, "auto") != 0 &&
        strcmp(a->backend, "cuda") != 0) {
        fprintf(stderr, "cuzk-bench prove --zkey: unknown backend '%s' (auto, cpu or cuda)\n",
                a->backend);
        return EXIT_ERROR;
    }
    if (a->check_cache && a->no_check_cache) {
        fprintf(stderr, "cuzk-bench prove: --check-cache and --no-check-cache exclude each other\n");
        return EXIT_ERROR;
    }
    if (a->check != (a->r1cs != NULL)) {
        fprintf(stderr, "cuzk-bench prove: --check and --r1cs FILE go together\n");
        return EXIT_ERROR;
    }
    return EXIT_OK;
}

/* Writes |text| to a new temporary file next to |path|; its name goes to |tmp|. */
static bool write_temp(char *tmp, size_t cap, const char *path, const char *text)
{
    if ((size_t)snprintf(tmp, cap, "%s.tmp.XXXXXX", path) >= cap) {
        fprintf(stderr, "error: output path too long: %s\n", path);
        return false;
    }
    int fd = mkstemp(tmp);
    if (fd < 0) {
        fprintf(stderr, "error: cannot create %s: %s\n", tmp, strerror(errno));
        tmp[0] = 0;
        return false;
    }
    size_t len = strlen(text), done = 0;
    while (done < len) {
        ssize_t k = write(fd, text + done, len - done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            fprintf(stderr, "error: cannot write %s: %s\n", tmp, strerror(errno));
            close(fd);
            unlink(tmp);
            tmp[0] = 0;
            return false;
        }
        done += (size_t)k;
    }
    if (fsync(fd) != 0 || close(fd) != 0) {
        fprintf(stderr, "error: cannot write %s: %s\n", tmp, strerror(errno));
        unlink(tmp);
        tmp[0] = 0;
        return false;
    }
    return true;
}

/* Writes both files or neither (as far as the file system allows). */
static bool write_outputs(const char *p1, const char *t1, const char *p2, const char *t2)
{
    char tmp1[4096], tmp2[4096];
    tmp1[0] = tmp2[0] = 0;
    bool ok = write_temp(tmp1, sizeof tmp1, p1, t1) && write_temp(tmp2, sizeof tmp2, p2, t2);
    if (ok && rename(tmp1, p1) != 0) {
        fprintf(stderr, "error: cannot rename %s to %s: %s\n", tmp1, p1, strerror(errno));
        ok = false;
    } else if (ok) {
        tmp1[0] = 0;
        if (rename(tmp2, p2) != 0) {
            fprintf(stderr, "error: cannot rename %s to %s: %s\n", tmp2, p2, strerror(errno));
            unlink(p1);
            ok = false;
        } else {
            tmp2[0] = 0;
        }
    }
    if (tmp1[0])
        unlink(tmp1);
    if (tmp2[0])
        unlink(tmp2);
    return ok;
}

/* Times before the proofs (ms): the loads, the r1cs check, the key's upload to a device. */
typedef struct {
    double zkey, wtns, check, resident;
} pre_times;

static void print_phases(const zkey_args *a, const cuzk_snarkjs_zkey *zk,
                         const cuzk_check_cache *cache, const char *backend, unsigned threads,
                         const pre_times *pt, const cuzk_prove_timings *t, double process,
                         unsigned rep)
{
    if (a->json) {
        printf("{\"command\":\"prove\",\"input\":\"zkey\",\"n_vars\":%u,\"n_public\":%u,"
               "\"domain_size\":%u,\"n_coefs\":%zu,\"backend\":\"%s\",\"threads\":%u,\"repeat\":%u,"
               "\"subgroup_checked\":%s,\"subgroups\":\"%s\","
               "\"zkey_load_ms\":%.3f,\"wtns_load_ms\":%.3f,\"check_ms\":%.3f,\"resident_ms\":%.3f,"
               "\"synthesis_ms\":%.3f,\"ntt_h_ms\":%.3f,\"msm_h_ms\":%.3f,\"tail_msm_ms\":%.3f,"
               "\"msm_b_g2_ms\":%.3f,\"assemble_ms\":%.3f,\"verify_ms\":%.3f,\"total_ms\":%.3f,"
               "\"command_ms\":%.3f}\n",
               zk->n_vars, zk->n_public, zk->domain_size, zk->n_coefs, backend, threads, rep,
               a->unchecked ? "false" : "true", cuzk_subgroups_name(zk->subgroups), pt->zkey, pt->wtns, pt->check,
               pt->resident,
               t->synthesis, t->ntt_h, t->msm_h, t->tail_msm, t->msm_b_g2, t->assemble, t->verify,
               t->total, process);
        return;
    }
    bool last = rep + 1 == a->repeat;
    if (rep == 0) {
        printf("zkey: %u wires, %u public, domain %u, %zu coefficients (subgroups %s)\n",
               zk->n_vars, zk->n_public, zk->domain_size, zk->n_coefs,
               bench_subgroups_text(zk->subgroups, zk->subgroups_recorded, cache));
        printf("load: zkey %.2f ms, wtns %.2f ms", pt->zkey, pt->wtns);
        if (a->check)
            printf(", r1cs check %.2f ms", pt->check);
        if (pt->resident > 0)
            printf(", key to the device %.2f ms", pt->resident);
        printf("\n");
    }
    if (a->repeat > 1)
        printf("repeat %u: ", rep);
    printf("phases (ms, %s backend, %u threads): synthesis %.2f, ntt_h %.2f, msm_h %.2f, "
           "tail_msm %.2f, msm_b_g2 %.2f, assemble %.2f, verify %.2f, total %.2f\n",
           backend, threads, t->synthesis, t->ntt_h, t->msm_h, t->tail_msm, t->msm_b_g2,
           t->assemble, t->verify, t->total);
    if (last) {
        printf("command: %.2f ms\n", process);
        printf("wrote %s and %s\n", a->proof, a->public_);
    }
}

/*
 * The backend of one proof: cuda when asked (an error without a device), cpu when asked; auto
 * takes a device only from AUTO_GPU_MIN_DOMAIN on, because a one-shot command pays the CUDA
 * context's creation (hundreds of ms) and the bases' upload, which the CPU beats on small keys
 * (and the 2^12 comparison with snarkjs should not even probe for a device). *|be| stays NULL for
 * the CPU path on the load pool.
 */
#define AUTO_GPU_MIN_DOMAIN (1u << 16)

static bool pick_backend(const zkey_args *a, const cuzk_snarkjs_zkey *zk, cuzk_backend **be)
{
    *be = NULL;
    bool want = a->backend && strcmp(a->backend, "cuda") == 0;
    bool autop = !a->backend || strcmp(a->backend, "auto") == 0;
    if (autop && zk->domain_size >= AUTO_GPU_MIN_DOMAIN && cuzk_backend_cuda_compiled() &&
        cuzk_backend_cuda_usable())
        want = true;
    if (!want)
        return true;
    if (cuzk_backend_create(be, CUZK_BACKEND_CUDA, a->threads) != CUZK_OK) {
        if (autop) { /* auto: the CPU it is */
            fprintf(stderr, "note: cuda backend unavailable (%s); proving on the CPU\n",
                    cuzk_last_error());
            *be = NULL;
            return true;
        }
        fprintf(stderr, "error: cuda backend: %s\n", cuzk_last_error());
        return false;
    }
    return true;
}

int cmd_prove_zkey(int argc, char **argv)
{
    double t_start = now_ms();
    zkey_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc != EXIT_OK)
        return rc;
    rc = EXIT_ERROR;
    cuzk_pool *pool = NULL;
    cuzk_backend *be = NULL;
    cuzk_snarkjs_zkey *zk = NULL;
    cuzk_snarkjs_wtns *w = NULL;
    cuzk_snarkjs_r1cs *cs = NULL;
    cuzk_check_cache *cache = NULL;
    cuzk_fr_t *pub = NULL;
    char *proof_json = NULL, *public_json = NULL;
    cuzk_status s;
    if ((s = cuzk_pool_create(&pool, a.threads)) != CUZK_OK) {
        fprintf(stderr, "error: thread pool: %s\n", cuzk_last_error());
        return EXIT_ERROR;
    }
    double t0 = now_ms();
    cache = bench_check_cache_open(a.check_cache, a.unchecked || a.no_check_cache);
    /* Packed: the points stay as the file holds them (checked all the same) and the MSMs
     * decode them into their recycled working memory: ~40 MB less fresh memory at 2^16. */
    s = cuzk_snarkjs_zkey_load_ex(&zk, a.zkey,
                                  CUZK_SNARKJS_PACKED_POINTS |
                                      (a.unchecked ? CUZK_SNARKJS_UNCHECKED_SUBGROUP : 0),
                                  pool, cache);
    double t_zkey = now_ms() - t0;
    if (s != CUZK_OK) {
        fprintf(stderr, "error: %s (%s)\n", cuzk_last_error(), cuzk_status_name(s));
        goto out;
    }
    if (zk->cache_error[0])
        fprintf(stderr, "note: key checked but not recorded in the check cache: %s\n",
                zk->cache_error);
    t0 = now_ms();
    s = cuzk_snarkjs_wtns_load(&w, a.wtns);
    double t_wtns = now_ms() - t0;
    if (s != CUZK_OK) {
        fprintf(stderr, "error: %s (%s)\n", cuzk_last_error(), cuzk_status_name(s));
        goto out;
    }
    double t_check = 0;
    if (a.check) {
        t0 = now_ms();
        uint32_t bad;
        if ((s = cuzk_snarkjs_r1cs_load(&cs, a.r1cs)) != CUZK_OK ||
            (s = cuzk_snarkjs_r1cs_matches_zkey(cs, zk)) != CUZK_OK) {
            fprintf(stderr, "error: %s (%s)\n", cuzk_last_error(), cuzk_status_name(s));
            goto out;
        }
        if ((s = cuzk_snarkjs_check(cs, w, &bad)) != CUZK_OK) {
            fprintf(stderr, "error: %s\n", cuzk_last_error());
            rc = bad != UINT32_MAX ? EXIT_UNSAT : EXIT_ERROR;
            goto out;
        }
        t_check = now_ms() - t0;
    }
    pub = cuzk_alloc_array(zk->n_public ? zk->n_public : 1, sizeof *pub);
    if (!pub) {
        fprintf(stderr, "error: out of memory\n");
        goto out;
    }
    if (!pick_backend(&a, zk, &be))
        goto out;
    /* --repeat K: K proofs in one process (the later ones with a warm device and pool); the
     * last one is written. */
    /* On a device the key's points stay there for all repeats, as on a daemon's GPU worker
     * (falling back to per-proof uploads when they do not fit). */
    /* One proof uploads each array once either way (a packed key's decoded per MSM). */
    t0 = now_ms();
    if (be && a.repeat > 1 && (s = cuzk_snarkjs_zkey_unpack(zk)) != CUZK_OK) {
        fprintf(stderr, "error: %s (%s)\n", cuzk_last_error(), cuzk_status_name(s));
        goto out;
    }
    if (be && a.repeat > 1 && cuzk_snarkjs_zkey_keep_resident(be, zk) != CUZK_OK)
        fprintf(stderr, "note: key not kept on the device (%s); points uploaded per proof\n",
                cuzk_last_error());
    pre_times pt = {t_zkey, t_wtns, t_check, be ? now_ms() - t0 : 0};
    cuzk_groth16_proof proof;
    cuzk_prove_timings tm;
    const char *bname = be ? cuzk_backend_name(be) : "cpu";
    unsigned nthreads = be ? cuzk_backend_threads(be) : cuzk_pool_threads(pool);
    for (unsigned k = 0; k < a.repeat; k++) {
        s = be ? cuzk_snarkjs_prove_on(&proof, pub, zk, w, be, &tm)
               : cuzk_snarkjs_prove(&proof, pub, zk, w, pool, &tm);
        if (s != CUZK_OK) {
            fprintf(stderr, "error: %s (%s)\n", cuzk_last_error(), cuzk_status_name(s));
            rc = s == CUZK_ERR_VERIFY_FAILED ? EXIT_UNSAT : EXIT_ERROR;
            goto out;
        }
        if (k + 1 < a.repeat)
            print_phases(&a, zk, cache, bname, nthreads, &pt, &tm, now_ms() - t_start, k);
    }
    if ((s = cuzk_snarkjs_proof_to_json(&proof_json, &proof)) != CUZK_OK ||
        (s = cuzk_snarkjs_public_to_json(&public_json, pub, zk->n_public)) != CUZK_OK) {
        fprintf(stderr, "error: %s\n", cuzk_last_error());
        goto out;
    }
    if (!write_outputs(a.proof, proof_json, a.public_, public_json))
        goto out;
    print_phases(&a, zk, cache, bname, nthreads, &pt, &tm, now_ms() - t_start, a.repeat - 1);
    rc = EXIT_OK;
out:
    cuzk_free(proof_json);
    cuzk_free(public_json);
    cuzk_free(pub);
    cuzk_snarkjs_r1cs_free(cs);
    cuzk_snarkjs_wtns_free(w);
    if (be && zk)
        cuzk_snarkjs_zkey_drop_resident(be, zk);
    cuzk_backend_destroy(be);
    cuzk_snarkjs_zkey_free(zk);
    cuzk_check_cache_close(cache);
    cuzk_pool_destroy(pool);
    return rc;
}

int cmd_export_vk_snarkjs(int argc, char **argv)
{
    const char *zkey = NULL, *out = NULL;
    for (int i = 0; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--zkey") == 0)
            zkey = argv[i + 1];
        else if (strcmp(argv[i], "--out") == 0)
            out = argv[i + 1];
        else
            zkey = out = NULL, i = argc;
    }
    if (!zkey || !out || argc != 4) {
        fprintf(stderr, "usage: cuzk-bench export-vk-snarkjs --zkey FILE --out FILE\n");
        return EXIT_ERROR;
    }
    cuzk_snarkjs_zkey *zk;
    char *json = NULL;
    int rc = EXIT_ERROR;
    cuzk_check_cache *cache = bench_check_cache_open(NULL, false);
    if (cuzk_snarkjs_zkey_load_ex(&zk, zkey, 0, cuzk_pool_default(), cache) != CUZK_OK ||
        cuzk_snarkjs_vk_to_json(&json, zk) != CUZK_OK) {
        fprintf(stderr, "error: %s\n", cuzk_last_error());
    } else {
        char tmp[4096];
        if (write_temp(tmp, sizeof tmp, out, json)) {
            if (rename(tmp, out) == 0) {
                rc = EXIT_OK;
            } else {
                fprintf(stderr, "error: cannot rename %s to %s: %s\n", tmp, out, strerror(errno));
                unlink(tmp);
            }
        }
    }
    cuzk_free(json);
    cuzk_snarkjs_zkey_free(zk);
    cuzk_check_cache_close(cache);
    return rc;
}
