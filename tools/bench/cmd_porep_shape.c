/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * cuzk-bench porep-shape: one Groth16 partition of the Filecoin PoRep 32 GiB shape (issue 4) on
 * random data of the right sizes, with the prover's phase breakdown.
 *
 *   cuzk-bench porep-shape [--log-domain 27] [--constraints 130278869] [--aux 130169893]
 *       [--inputs 328] [--a-density 99.7] [--b-density 25.4] [--binary-frac 0.95]
 *       [--backend cuda|cpu] [--scale S] [--mode prove|resident|both] [--compare]
 *       [--repeat K] [--threads T] [--seed X] [--json] [--keep-resident] [--pinned-params]
 *       [--no-abc-pool] [--workers W [--continuous [--no-prefetch]]] [--h-rows R]
 *
 * Parameters: every query (H, L, A, B in G1 and G2) is filled from a pool of distinct subgroup
 * points P = T1[j] + T2[k] (T1, T2 random multiples of the generator), indexed by a hash of the
 * position, so a query of 130 M points costs a copy instead of 130 M scalar multiplications; the
 * pool (2^20 G1 points, 2^16 G2) is large enough that equal points rarely meet in one bucket.
 * Witness: aux values are 0 or 1 (each half the time) with probability --binary-frac and uniform
 * otherwise; a and b are uniform and c = a * b, as in a satisfied system (the prover's device
 * H step takes c as a * b; the proof is not verified: random parameters have no trapdoor).
 * Densities: each aux variable is in A with probability --a-density % and in B with --b-density %;
 * every input is in A and B.
 *
 * --scale S (a power of two <= 1: 1, 1/16, 0.0625 or 2^-4) multiplies the domain, the row and
 * the aux counts, so one command runs the same shape on the CPU of a small machine.
 *
 * Modes: prove = cuzk_groth16_prove on the backend (what the prover does today: bases passed as
 * host arrays, so a CUDA backend uploads each query per call); resident (CUDA only) = the same
 * steps in the same order with the five queries uploaded to the device once beforehand
 * (src/gpu/gpu_msm.h) and a/b/c and the scalar buffers in pinned host memory, timed with CUDA
 * events per phase (the SRS-resident partition). --compare runs prove on the CPU, prove on the
 * backend and, for CUDA, resident, all with the same inputs and the same r, s, and checks that
 * the three proofs are equal (exit 1 otherwise). --pinned-params (CUDA) puts the queries in
 * pinned host memory, as the engine keeps a HOT set that is not resident on the device: prove
 * mode without --keep-resident then streams them from there (src/gpu/msm_stream.cuh).
 * --h-rows R (with --keep-resident): the H query's first R precomputed rows on the device
 * (cuzk_backend_set_h_rows; R x 12.9 GB at 2^27), which its MSM then uses.
 * --workers W (prove mode, CUDA): W prover threads with a backend each prove at once, --repeat
 * rounds of W partitions; with --continuous each thread proves --repeat partitions back to back,
 * without waiting for the others, prefetching its next partition's a and b under its H MSM
 * unless --no-prefetch (porep_shape_workers.c).
 */
#include "commands.h"
#include "porep_shape.h"

#include "cuzk/alloc.h"
#include "cuzk/backend.h"
#include "cuzk/hostpool.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- command ------------------------------------------------------------------------------ */

static int usage_err(const char *msg)
{
    fprintf(stderr,
            "cuzk-bench porep-shape: %s\n"
            "usage: cuzk-bench porep-shape [--log-domain 27] [--constraints 130278869]\n"
            "       [--aux 130169893] [--inputs 328] [--a-density 99.7] [--b-density 25.4]\n"
            "       [--binary-frac 0.95] [--backend cuda|cpu] [--scale S] [--mode "
            "prove|resident|both]\n"
            "       [--compare] [--repeat K] [--threads T] [--seed X] [--json] [--keep-resident]\n"
            "       [--no-abc-pool] [--pinned-params] [--h-rows R]\n"
            "       [--workers W [--continuous [--no-prefetch]]]\n",
            msg);
    return 2;
}

/* "1", "1/16", "0.0625", "2^-4" -> log2 (<= 0); false unless a power of two in (0, 1]. */
static bool parse_scale(const char *v, int *log_scale)
{
    double x;
    char *end;
    if (strncmp(v, "2^", 2) == 0) {
        long e = strtol(v + 2, &end, 10);
        if (*end || e > 0 || e < -40)
            return false;
        *log_scale = (int)e;
        return true;
    }
    if (strchr(v, '/')) {
        double num = strtod(v, &end);
        if (*end != '/')
            return false;
        double den = strtod(end + 1, &end);
        if (*end || den <= 0)
            return false;
        x = num / den;
    } else {
        x = strtod(v, &end);
        if (*end)
            return false;
    }
    if (!(x > 0 && x <= 1))
        return false;
    int e = (int)lround(log2(x));
    if (ldexp(1.0, e) != x)
        return false;
    *log_scale = e;
    return true;
}

static bool parse_u64(const char *v, uint64_t *out)
{
    char *end;
    unsigned long long x = strtoull(v, &end, 0);
    if (!*v || *end)
        return false;
    *out = x;
    return true;
}

static bool parse_pct(const char *v, double lo, double hi, double *out)
{
    char *end;
    double x = strtod(v, &end);
    if (!*v || *end || !(x >= lo && x <= hi))
        return false;
    *out = x;
    return true;
}

static int parse_args(int argc, char **argv, ps_args *a)
{
    *a = (ps_args){.log_domain = 27,
                   .inputs = 328,
                   .repeat = 1,
                   .workers = 1,
                   .prefetch = true,
                   .rows = 130278869,
                   .aux = 130169893,
                   .a_density = 99.7,
                   .b_density = 25.4,
                   .binary_frac = 0.95,
                   .backend = "cuda",
                   .mode = "prove",
                   .seed = 0x5eed};
    for (int i = 0; i < argc; i++) {
        const char *k = argv[i];
        if (strcmp(k, "--keep-resident") == 0) {
            a->keep_resident = true;
            continue;
        }
        if (strcmp(k, "--pinned-params") == 0) {
            a->pinned_params = true;
            continue;
        }
        if (strcmp(k, "--no-abc-pool") == 0) {
            a->no_abc_pool = true;
            continue;
        }
        if (strcmp(k, "--compare") == 0) {
            a->compare = true;
            continue;
        }
        if (strcmp(k, "--json") == 0) {
            a->json = true;
            continue;
        }
        if (strcmp(k, "--continuous") == 0) {
            a->continuous = true;
            continue;
        }
        if (strcmp(k, "--no-prefetch") == 0) {
            a->prefetch = false;
            continue;
        }
        if (i + 1 >= argc)
            return usage_err("an option is missing its value");
        const char *v = argv[++i];
        uint64_t u;
        if (strcmp(k, "--h-rows") == 0 && parse_u64(v, &u) && u <= 32)
            a->h_rows = (unsigned)u;
        else if (strcmp(k, "--log-domain") == 0 && parse_u64(v, &u) && u >= 2 && u <= 27)
            a->log_domain = (unsigned)u;
        else if (strcmp(k, "--constraints") == 0 && parse_u64(v, &u) && u > 0)
            a->rows = u;
        else if (strcmp(k, "--aux") == 0 && parse_u64(v, &u))
            a->aux = u;
        else if (strcmp(k, "--inputs") == 0 && parse_u64(v, &u) && u >= 1 && u <= 1u << 20)
            a->inputs = (unsigned)u;
        else if (strcmp(k, "--a-density") == 0 && parse_pct(v, 0, 100, &a->a_density))
            ;
        else if (strcmp(k, "--b-density") == 0 && parse_pct(v, 0, 100, &a->b_density))
            ;
        else if (strcmp(k, "--binary-frac") == 0 && parse_pct(v, 0, 1, &a->binary_frac))
            ;
        else if (strcmp(k, "--backend") == 0 && (!strcmp(v, "cuda") || !strcmp(v, "cpu")))
            a->backend = v;
        else if (strcmp(k, "--mode") == 0 &&
                 (!strcmp(v, "prove") || !strcmp(v, "resident") || !strcmp(v, "both")))
            a->mode = v;
        else if (strcmp(k, "--scale") == 0 && parse_scale(v, &a->log_scale))
            ;
        else if (strcmp(k, "--repeat") == 0 && parse_u64(v, &u) && u >= 1 && u <= 100)
            a->repeat = (unsigned)u;
        else if (strcmp(k, "--workers") == 0 && parse_u64(v, &u) && u >= 1 && u <= 8)
            a->workers = (unsigned)u;
        else if (strcmp(k, "--threads") == 0 && parse_u64(v, &u) && u <= 4096)
            a->threads = (unsigned)u;
        else if (strcmp(k, "--seed") == 0 && parse_u64(v, &u))
            a->seed = u;
        else {
            fprintf(stderr, "cuzk-bench porep-shape: bad option or value: %s %s\n", k, v);
            return usage_err("see the usage");
        }
    }
    return 0;
}

void ps_print_prove(const ps_args *a, const char *backend, unsigned rep,
                    const cuzk_prove_timings *t, unsigned log_n)
{
    double gpu = t->ntt_h + t->msm_h + t->batch_add + t->tail_msm + t->msm_b_g2;
    if (a->json)
        printf("{\"bench\":\"porep_shape\",\"mode\":\"prove\",\"backend\":\"%s\",\"log_domain\":%u,"
               "\"rep\":%u,\"ntt_h_ms\":%.3f,\"msm_h_ms\":%.3f,\"batch_add_ms\":%.3f,"
               "\"tail_msm_ms\":%.3f,\"msm_b_g2_ms\":%.3f,\"assemble_ms\":%.3f,"
               "\"backend_ms\":%.3f,\"total_ms\":%.3f,\"split_ms\":%.3f,\"overlapped\":%s}\n",
               backend, log_n, rep, t->ntt_h, t->msm_h, t->batch_add, t->tail_msm, t->msm_b_g2,
               t->assemble, gpu, t->total, t->split, t->overlapped ? "true" : "false");
    else
        printf("prove %-4s 2^%u rep %u: ntt_h %.1f  msm_h %.1f  batch_add %.1f  tail_msm %.1f  "
               "msm_b_g2 %.1f  assemble %.1f  | backend phases %.1f  total %.1f ms (wall)  "
               "| host split %.1f ms%s\n",
               backend, log_n, rep, t->ntt_h, t->msm_h, t->batch_add, t->tail_msm, t->msm_b_g2,
               t->assemble, gpu, t->total, t->split,
               t->overlapped ? "  | L/A/B sums beside the H call (phases overlap)" : "");
    fflush(stdout);
}

int cmd_porep_shape(int argc, char **argv)
{
    ps_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc;
    unsigned log_n = (unsigned)((int)a.log_domain + a.log_scale);
    if ((int)a.log_domain + a.log_scale < 2)
        return usage_err("the scaled domain is below 2^2");
    size_t domain = (size_t)1 << log_n;
    size_t rows = (size_t)ceil(ldexp((double)a.rows, a.log_scale));
    size_t aux = (size_t)ceil(ldexp((double)a.aux, a.log_scale));
    if (rows < a.inputs)
        rows = a.inputs;
    if (rows > domain)
        return usage_err("more constraints (scaled) than the domain holds");
    bool want_prove = strcmp(a.mode, "resident") != 0 || a.compare;
    bool cuda = strcmp(a.backend, "cuda") == 0;
    bool want_res = cuda && (strcmp(a.mode, "prove") != 0 || a.compare);
    if (!cuda && strcmp(a.mode, "resident") == 0)
        return usage_err("--mode resident needs --backend cuda");
    if (!cuda && a.pinned_params)
        return usage_err("--pinned-params needs --backend cuda");
    if ((a.workers > 1 || a.continuous) && (!cuda || strcmp(a.mode, "prove") != 0 || a.compare))
        return usage_err("--workers and --continuous need --backend cuda and --mode prove, "
                         "without --compare");
    if (!a.prefetch && !a.continuous)
        return usage_err("--no-prefetch needs --continuous");
    const bool by_workers = a.workers > 1 || a.continuous;

    cuzk_backend *be = NULL, *cpu = NULL;
    cuzk_status s =
        cuzk_backend_create(&be, cuda ? CUZK_BACKEND_CUDA : CUZK_BACKEND_CPU, a.threads);
    if (s != CUZK_OK) {
        fprintf(stderr, "cuzk-bench porep-shape: %s\n", cuzk_last_error());
        return 2;
    }
    if (a.compare && cuda && (s = cuzk_backend_create(&cpu, CUZK_BACKEND_CPU, a.threads))) {
        fprintf(stderr, "cuzk-bench porep-shape: %s\n", cuzk_last_error());
        cuzk_backend_destroy(be);
        return 2;
    }
    cuzk_pool *tp = cuzk_backend_pool(be);
    double g1 = sizeof(cuzk_g1_affine_t), g2 = sizeof(cuzk_g2_affine_t);
    double na = a.inputs + aux * a.a_density / 100, nb = a.inputs + aux * a.b_density / 100;
    double q_bytes = g1 * ((double)domain + (double)aux + na + nb) + g2 * nb;
    double w_bytes = 32.0 * (3.0 * (double)rows + (double)domain + 3.0 * (double)aux);
    printf(
        "porep-shape: domain 2^%u (scale 2^%d), %zu rows, %d inputs, %zu aux, A density %.2f %%, "
        "B density %.2f %%, binary share %.3f, backend %s, %u threads, seed %llu\n"
        "  host memory: queries %.1f GiB + witness and prover buffers ~%.1f GiB\n",
        log_n, a.log_scale, rows, (int)a.inputs, aux, a.a_density, a.b_density, a.binary_frac,
        cuzk_backend_name(be), cuzk_backend_threads(be), (unsigned long long)a.seed,
        q_bytes / 1073741824.0, w_bytes / 1073741824.0);
    fflush(stdout);

    /* a, b, c as the engine keeps them: buffers reused from proof to proof, pinned on a GPU
     * (include/cuzk/hostpool.h); --no-abc-pool: fresh memory per proof, pinned per proof. */
    cuzk_host_pool *abc_pool = NULL;
    cuzk_vec_alloc abc_va, *va = NULL;
    if (!a.no_abc_pool &&
        cuzk_host_pool_create(&abc_pool, 4 * (uint64_t)domain * 32 * a.workers,
                              CUZK_HOST_POOL_MIN_BYTES, cuzk_backend_device(be) >= 0) == CUZK_OK) {
        abc_va = cuzk_host_pool_allocator(abc_pool);
        va = &abc_va;
    }
    cuzk_prover_data pd;
    cuzk_groth16_params p;
    memset(&p, 0, sizeof p);
    double t0 = now_ms();
    if ((s = ps_witness_make(&pd, &a, rows, aux, domain, va, tp)) != CUZK_OK)
        goto fail;
    double t_w = now_ms() - t0;
    t0 = now_ms();
    if ((s = ps_params_make(&p, &a, domain, &pd, tp)) != CUZK_OK)
        goto fail;
    printf("  generated: witness %.0f ms, parameters %.0f ms (H %zu, L %zu, A %zu, B %zu points); "
           "aux in A %zu, in B %zu\n",
           t_w, now_ms() - t0, p.n_h, p.n_l, p.n_a, p.n_b_g1, pd.a_aux_popcount, pd.b_aux_popcount);
    fflush(stdout);

    cuzk_fr_t r, sr;
    ps_fixed_rs(&a, &r, &sr);
    cuzk_prove_opts opts = {.verify = false, .r = &r, .s = &sr};
    cuzk_groth16_proof ref, got;
    bool have_ref = false, mismatch = false;
    if (a.compare && cpu) {
        cuzk_prove_timings t = {0};
        if ((s = cuzk_groth16_prove(&ref, &p, &pd, cpu, &opts, &t)) != CUZK_OK)
            goto fail;
        ps_print_prove(&a, "cpu", 0, &t, log_n);
        have_ref = true;
        cuzk_prover_data_free(&pd);
        if ((s = ps_witness_make(&pd, &a, rows, aux, domain, va, tp)) != CUZK_OK)
            goto fail;
    }
    if (want_prove && !by_workers && a.keep_resident && cuzk_backend_device(be) >= 0) {
        /* What the engine does for a HOT set on a GPU worker: upload once, then prove. */
        double u0 = now_ms();
        cuzk_backend_set_h_rows(be, a.h_rows);
        if ((s = cuzk_groth16_params_keep_resident(be, &p)) != CUZK_OK)
            goto fail;
        unsigned built = 0;
        cuzk_backend_device_resident(cuzk_backend_device(be), NULL, &built);
        printf("prove: parameter set kept resident on the device in %.0f ms (%.1f GiB, H query "
               "with %u precomputed rows asked, %u built)\n",
               now_ms() - u0, (double)cuzk_backend_resident_bytes(be) / 1073741824.0, a.h_rows,
               built);
    }
    if (by_workers && (s = ps_workers_run(&a, be, &p, &pd, rows, aux, domain, log_n, va, &opts,
                                          &ref, &have_ref, &mismatch)) != CUZK_OK)
        goto fail;
    for (unsigned rep = 0; want_prove && !by_workers && rep < a.repeat; rep++) {
        cuzk_prove_timings t = {0};
        if ((s = cuzk_groth16_prove(&got, &p, &pd, be, &opts, &t)) != CUZK_OK)
            goto fail;
        ps_print_prove(&a, cuzk_backend_name(be), rep, &t, log_n);
        if (!have_ref) {
            ref = got;
            have_ref = true;
        } else if (!ps_proof_eq(&ref, &got)) {
            mismatch = true;
        }
        cuzk_prover_data_free(&pd);
        if ((s = ps_witness_make(&pd, &a, rows, aux, domain, va, tp)) != CUZK_OK)
            goto fail;
    }
    cuzk_groth16_params_drop_resident(be, &p);
    if (want_res) {
        int dev = cuzk_backend_device(be);
        cuzk_gpu_release(dev);
        res_bases rb;
        double u0 = now_ms();
        if ((s = ps_res_bases_upload(&rb, dev, &p)) != CUZK_OK)
            goto fail;
        double up = now_ms() - u0;
        for (unsigned rep = 0; rep < a.repeat; rep++) {
            res_times t;
            s = ps_resident_prove(&got, &p, &rb, &pd, domain, dev, &a, tp, &t);
            if (s != CUZK_OK) {
                ps_res_bases_free(&rb);
                goto fail;
            }
            t.upload_ms = up;
            ps_print_resident(&a, rep, &t, log_n);
            if (!have_ref) {
                ref = got;
                have_ref = true;
            } else if (!ps_proof_eq(&ref, &got)) {
                mismatch = true;
            }
            cuzk_prover_data_free(&pd);
            if ((s = ps_witness_make(&pd, &a, rows, aux, domain, va, tp)) != CUZK_OK) {
                ps_res_bases_free(&rb);
                goto fail;
            }
        }
        ps_res_bases_free(&rb);
    }
    if (a.compare || a.repeat > 1 || a.workers > 1 || (want_prove && want_res))
        printf("proofs (same inputs, same r and s): %s\n", mismatch ? "DIFFER" : "all equal");
    if (a.h_rows)
        printf("MSMs over the %u H rows that lacked the memory for them (plain windows): %zu\n",
               a.h_rows, cuzk__gpu_event_count(CUZK__GPU_EV_MSM_ROWS_FALLBACK, -1));
    if (abc_pool) {
        cuzk_host_pool_stats hs;
        cuzk_host_pool_get_stats(abc_pool, &hs);
        printf("a/b/c pool (%s): %llu requests, %llu reused, %llu fallbacks, %.1f GiB held, "
               "%.0f ms allocating\n",
               hs.pinned ? "pinned" : "pageable", (unsigned long long)hs.requests,
               (unsigned long long)hs.reused, (unsigned long long)hs.fallback,
               (double)hs.bytes_held / 1073741824.0, hs.new_ms);
    }
    cuzk_prover_data_free(&pd);
    ps_params_free(&p, a.pinned_params);
    cuzk_backend_destroy(cpu);
    cuzk_backend_destroy(be);
    cuzk_host_pool_destroy(abc_pool);
    return mismatch ? 1 : 0;
fail:
    fprintf(stderr, "cuzk-bench porep-shape: %s\n", cuzk_last_error());
    cuzk_prover_data_free(&pd);
    ps_params_free(&p, a.pinned_params);
    cuzk_backend_destroy(cpu);
    cuzk_backend_destroy(be);
    cuzk_host_pool_destroy(abc_pool);
    return 2;
}
