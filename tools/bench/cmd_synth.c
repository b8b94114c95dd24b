/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * cuzk-bench synth-only: synthesis of a built-in circuit without proving.
 *   --mode full     PROVE synthesis: assignments, a/b/c and densities
 *   --mode ab       PROVE_AB synthesis: the same without c (what a CUDA prover synthesises)
 *   --mode witness  WITNESS synthesis: assignments only
 *   --mode pce      PCE extracted once (timed apart), then per repeat WITNESS synthesis + SpMV
 *   --mode pce-ab   the same without C's SpMV (cuzk_pce_eval_ab_into)
 *   --mode keygen   KEYGEN synthesis (matrices in CSR)
 * Prints constraints, variables, time per repeat (min/median/max), constraints per second
 * (median) and the memory high-water marks (ru_maxrss and the cuzk allocator's peak).
 * --parallel P (full, ab, witness, pce, pce-ab): afterwards P partitions at once, K each, on
 * T / P threads each (synth_parallel.c): the time per partition a pipeline could sustain;
 * --shared: products on one shared pool of T threads; --witness-all: each witness synthesis
 * on all T threads (synth_parallel.c).
 * a, b and c come from a pool of host buffers kept between repeats, as the engine's do (its
 * abc pool), so that a repeat does not time the page faults of fresh vectors; --fresh-abc
 * allocates them afresh each time instead. --pce-file F (pce modes): the PCE is read from F
 * when F exists, else extracted and written there (the load or the write is timed apart).
 * Each phase's median also gets its CPU time (user + system of the process): with the wall time,
 * how many threads the phase kept busy.
 */
#include "bench_synth.h"

#include "cuzk/alloc.h"
#include "cuzk/hostpool.h"
#include "cuzk/r1cs.h"
#include "cuzk/threadpool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

int cmd_synth_only(int argc, char **argv);

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* User + system CPU seconds of the process so far; *|sys| the system part (page faults, mostly:
 * first writes to fresh memory). */
static double cpu_s(double *sys)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    *sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 + *sys;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void stats(double *v, unsigned n, double *mn, double *med, double *mx)
{
    qsort(v, n, sizeof *v, cmp_d);
    *mn = v[0];
    *mx = v[n - 1];
    *med = n & 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* --threads as a count (0 = the CPUs, as a pool counts them). */
static unsigned nthreads_all(unsigned threads)
{
    if (threads)
        return threads;
    cuzk_pool *p = cuzk_pool_default();
    return p ? cuzk_pool_threads(p) : 1;
}

static int usage(void)
{
    fprintf(stderr,
            "usage: cuzk-bench synth-only --circuit NAME[:ARG] --mode "
            "full|ab|witness|pce|pce-ab|keygen\n"
            "                             [--repeat K] [--threads T] [--seed S] "
            "[--parallel P [--shared] [--witness-all]] [--fresh-abc] [--pce-file F] [--json]\n"
            "circuits:\n");
    for (size_t i = 0; cuzk_circuit_registry_name(i); i++)
        fprintf(stderr, "  %-16s %s\n", cuzk_circuit_registry_name(i),
                cuzk_circuit_registry_description(i));
    return 2;
}

static int fail(const char *what, cuzk_status s)
{
    fprintf(stderr, "cuzk-bench synth-only: %s: %s (%s)\n", what, cuzk_status_str(s),
            cuzk_last_error());
    return 2;
}

int cmd_synth_only(int argc, char **argv)
{
    const char *circuit_name = NULL, *mode = "full", *pce_file = NULL;
    unsigned repeat = 3, threads = 0, parallel = 1;
    unsigned long long seed = 1;
    bool json = false, fresh_abc = false, shared = false, witness_all = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--json") == 0)
            json = true;
        else if (strcmp(a, "--fresh-abc") == 0)
            fresh_abc = true;
        else if (strcmp(a, "--shared") == 0)
            shared = true;
        else if (strcmp(a, "--witness-all") == 0)
            witness_all = true;
        else if (strcmp(a, "--pce-file") == 0 && v)
            pce_file = argv[++i];
        else if (strcmp(a, "--circuit") == 0 && v)
            circuit_name = argv[++i];
        else if (strcmp(a, "--mode") == 0 && v)
            mode = argv[++i];
        else if (strcmp(a, "--repeat") == 0 && v)
            repeat = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (strcmp(a, "--threads") == 0 && v)
            threads = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (strcmp(a, "--parallel") == 0 && v)
            parallel = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (strcmp(a, "--seed") == 0 && v)
            seed = strtoull(argv[++i], NULL, 0);
        else {
            fprintf(stderr, "cuzk-bench synth-only: unknown or incomplete option %s\n", a);
            return usage();
        }
    }
    bool m_full = strcmp(mode, "full") == 0, m_wit = strcmp(mode, "witness") == 0,
         m_pce_ab = strcmp(mode, "pce-ab") == 0, m_pce = m_pce_ab || strcmp(mode, "pce") == 0,
         m_kg = strcmp(mode, "keygen") == 0, m_ab = strcmp(mode, "ab") == 0;
    if (!circuit_name || !(m_full || m_ab || m_wit || m_pce || m_kg) || repeat == 0 ||
        parallel == 0 || parallel > 64 || (parallel > 1 && m_kg) || (pce_file && !m_pce) ||
        ((shared || witness_all) && parallel < 2))
        return usage();
    cuzk_circuit c;
    cuzk_status s = cuzk_circuit_find(circuit_name, &c);
    if (s != CUZK_OK)
        return fail("circuit", s);
    c.params.seed = seed;
    c.params.threads = threads; /* fil-post, fil-snap: parts on T threads (0 = one) */
    cuzk_pool *pool = NULL;
    if (m_pce && (s = cuzk_pool_create(&pool, threads)) != CUZK_OK)
        return fail("thread pool", s);
    unsigned nthreads = pool ? cuzk_pool_threads(pool) : 1;
    cuzk_alloc_peak_reset();
    double extract_s = 0, file_s = 0;
    cuzk_pce *pce = NULL;
    bool pce_loaded = false;
    if (m_pce) {
        FILE *probe = pce_file ? fopen(pce_file, "rb") : NULL;
        double t0 = now_s();
        if (probe) {
            fclose(probe);
            if ((s = cuzk_pce_load(&pce, pce_file)) != CUZK_OK) {
                cuzk_pool_destroy(pool);
                return fail("pce load", s);
            }
            pce_loaded = true;
            file_s = now_s() - t0;
        } else {
            s = cuzk_pce_extract(&pce, &c);
            extract_s = now_s() - t0;
            if (s != CUZK_OK) {
                cuzk_pool_destroy(pool);
                return fail("pce extract", s);
            }
            if (pce_file) {
                t0 = now_s();
                if ((s = cuzk_pce_save(pce, pce_file)) != CUZK_OK) {
                    cuzk_pce_destroy(pce);
                    cuzk_pool_destroy(pool);
                    return fail("pce save", s);
                }
                file_s = now_s() - t0;
            }
        }
    }
    /* After the PCE, so that a PCE refused above leaves nothing behind (the sanitizer build
     * counts what a failed run leaks). */
    cuzk_host_pool *abc = NULL;
    if (!fresh_abc && !m_kg &&
        (s = cuzk_host_pool_create(&abc, UINT64_MAX / 2, CUZK_HOST_POOL_MIN_BYTES, false)) !=
            CUZK_OK)
        return fail("abc pool", s);
    cuzk_vec_alloc abc_va = abc ? cuzk_host_pool_allocator(abc) : (cuzk_vec_alloc){0};
    double *t = calloc(repeat, sizeof *t), *tw = calloc(repeat, sizeof *tw),
           *tm = calloc(repeat, sizeof *tm), *cw = calloc(repeat, sizeof *cw),
           *cm = calloc(repeat, sizeof *cm), *sw = calloc(repeat, sizeof *sw),
           *sm = calloc(repeat, sizeof *sm);
    if (!t || !tw || !tm || !cw || !cm || !sw || !sm)
        return fail("bench", CUZK_ERR_NOMEM);
    size_t n_constraints = 0, n_rows = 0, n_inputs = 0, n_aux = 0;
    uint64_t nnz[3] = {0, 0, 0};
    for (unsigned r = 0; r < repeat; r++) {
        cuzk_cs_mode csm = m_full ? CUZK_CS_PROVE
                           : m_ab ? CUZK_CS_PROVE_AB
                           : m_kg ? CUZK_CS_KEYGEN
                                  : CUZK_CS_WITNESS;
        cuzk_cs *cs;
        /* Pre-sizing from the previous repeat mirrors a prover that knows its circuit. */
        double s0, s1, s2;
        double t0 = now_s(), c0 = cpu_s(&s0);
        if ((s = cuzk_cs_create(&cs, csm, n_aux, n_rows)) != CUZK_OK)
            return fail("create", s);
        if (abc && (m_full || m_ab) && (s = cuzk_cs_set_vec_alloc(cs, &abc_va)) != CUZK_OK)
            return fail("abc pool", s);
        s = cuzk_circuit_synthesize(cs, &c);
        if (s != CUZK_OK)
            return fail("synthesis", s);
        cuzk_prover_data pd;
        cuzk_r1cs_matrices mats;
        if (m_kg)
            s = cuzk_cs_take_matrices(cs, &mats);
        else
            s = cuzk_cs_take_prover_data(cs, &pd);
        if (s != CUZK_OK)
            return fail("take", s);
        n_rows = cuzk_cs_num_constraints(cs);
        n_inputs = cuzk_cs_num_inputs(cs);
        n_aux = cuzk_cs_num_aux(cs);
        n_constraints = n_rows - n_inputs;
        cuzk_cs_destroy(cs);
        double t1 = now_s(), c1 = cpu_s(&s1);
        if (m_pce) {
            if (abc)
                pd.abc_alloc = abc_va;
            s = m_pce_ab ? cuzk_pce_eval_ab_into(pce, pool, &pd)
                         : cuzk_pce_eval_into(pce, pool, &pd);
            if (s != CUZK_OK)
                return fail("pce eval", s);
        }
        double t2 = now_s();
        cw[r] = c1 - c0;
        cm[r] = cpu_s(&s2) - c1;
        sw[r] = s1 - s0;
        sm[r] = s2 - s1;
        tw[r] = t1 - t0;
        tm[r] = t2 - t1;
        t[r] = t2 - t0;
        if (m_kg) {
            nnz[0] = mats.a.nnz;
            nnz[1] = mats.b.nnz;
            nnz[2] = mats.c.nnz;
            cuzk_r1cs_matrices_free(&mats);
        } else {
            cuzk_prover_data_free(&pd);
        }
    }
    if (pce)
        for (unsigned m = 0; m < 3; m++)
            nnz[m] = cuzk_pce_nnz(pce, m);
    double par_wall = 0;
    if (parallel > 1) {
        cuzk_cs_mode pm = m_full ? CUZK_CS_PROVE : m_ab ? CUZK_CS_PROVE_AB : CUZK_CS_WITNESS;
        s = bench_synth_parallel(&c, pm, pce, m_pce_ab, parallel, repeat, nthreads_all(threads),
                                 n_aux, n_rows, abc, shared, witness_all, &par_wall);
        if (s != CUZK_OK)
            return fail("parallel synthesis", s);
    }
    double mn, med, mx, wmn, wmed, wmx, mmn, mmed, mmx, x0, cwmed, cmmed, swmed, smmed;
    stats(cw, repeat, &x0, &cwmed, &x0);
    stats(cm, repeat, &x0, &cmmed, &x0);
    stats(sw, repeat, &x0, &swmed, &x0);
    stats(sm, repeat, &x0, &smmed, &x0);
    stats(t, repeat, &mn, &med, &mx);
    stats(tw, repeat, &wmn, &wmed, &wmx);
    stats(tm, repeat, &mmn, &mmed, &mmx);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double rss_mib = (double)ru.ru_maxrss / 1024.0;
    double peak_mib = (double)cuzk_alloc_peak_bytes() / (1024.0 * 1024.0);
    double cps = (double)n_constraints / med;
    if (json) {
        printf(
            "{\"bench\":\"synth-only\",\"circuit\":\"%s:%llu\",\"mode\":\"%s\",\"threads\":%u,"
            "\"repeat\":%u,\"constraints\":%zu,\"rows\":%zu,\"inputs\":%zu,\"aux\":%zu,"
            "\"nnz_a\":%llu,\"nnz_b\":%llu,\"nnz_c\":%llu,"
            "\"min_s\":%.6f,\"median_s\":%.6f,\"max_s\":%.6f,\"witness_median_s\":%.6f,"
            "\"matvec_median_s\":%.6f,\"witness_cpu_median_s\":%.6f,\"matvec_cpu_median_s\":%.6f,"
            "\"witness_sys_median_s\":%.6f,\"matvec_sys_median_s\":%.6f,"
            "\"extract_s\":%.6f,\"pce_file_s\":%.6f,\"pce_loaded\":%s,\"fresh_abc\":%s,"
            "\"pce_mib\":%.1f,\"constraints_per_s\":%.0f,"
            "\"maxrss_mib\":%.1f,\"alloc_peak_mib\":%.1f,\"parallel\":%u,"
            "\"parallel_wall_s\":%.6f,\"shared\":%s,\"witness_all\":%s}\n",
            c.name, (unsigned long long)c.params.arg, mode, nthreads, repeat, n_constraints, n_rows,
            n_inputs, n_aux, (unsigned long long)nnz[0], (unsigned long long)nnz[1],
            (unsigned long long)nnz[2], mn, med, mx, wmed, mmed, cwmed, cmmed, swmed, smmed,
            extract_s, file_s, pce_loaded ? "true" : "false", fresh_abc ? "true" : "false",
            pce ? (double)cuzk_pce_memory_bytes(pce) / (1024.0 * 1024.0) : 0.0, cps, rss_mib,
            peak_mib, parallel, par_wall, shared ? "true" : "false",
            witness_all ? "true" : "false");
    } else {
        printf("circuit      %s:%llu (%s)\n", c.name, (unsigned long long)c.params.arg, mode);
        printf("constraints  %zu (+%zu input constraints = %zu rows)\n", n_constraints, n_inputs,
               n_rows);
        printf("variables    %zu inputs (ONE included), %zu aux\n", n_inputs, n_aux);
        if (nnz[0] || nnz[1] || nnz[2])
            printf("non-zeros    A %llu, B %llu, C %llu\n", (unsigned long long)nnz[0],
                   (unsigned long long)nnz[1], (unsigned long long)nnz[2]);
        if (m_pce && pce_loaded)
            printf("pce file     read %s in %.3f s; PCE holds %.1f MiB\n", pce_file, file_s,
                   (double)cuzk_pce_memory_bytes(pce) / (1024.0 * 1024.0));
        else if (m_pce)
            printf("extract      %.3f s (KEYGEN synthesis + CSR compile, once); PCE holds %.1f "
                   "MiB\n",
                   extract_s, (double)cuzk_pce_memory_bytes(pce) / (1024.0 * 1024.0));
        if (m_pce && pce_file && !pce_loaded)
            printf("pce file     written to %s in %.3f s\n", pce_file, file_s);
        printf("time         min %.4f s  median %.4f s  max %.4f s  (%u repeats)\n", mn, med, mx,
               repeat);
        if (m_pce)
            printf(
                "  witness    median %.4f s (cpu %.3f s, system %.3f);  matvec median %.4f s (cpu "
                "%.3f s, system %.3f) on %u threads\n",
                wmed, cwmed, swmed, mmed, cmmed, smmed, nthreads);
        else
            printf("  cpu        median %.3f s (user + system), system %.3f s\n", cwmed, swmed);
        if (!m_kg)
            printf("  a, b, c    %s\n", fresh_abc ? "fresh each repeat (--fresh-abc)"
                                                  : "from a pool kept between repeats");
        printf("throughput   %.0f constraints/s (median)\n", cps);
        if (parallel > 1)
            printf("parallel     %u at once: %u partitions in %.4f s = %.4f s a partition "
                   "(witness on %u threads each, products on %s)\n",
                   parallel, parallel * repeat, par_wall, par_wall / (parallel * repeat),
                   witness_all                        ? nthreads_all(threads)
                   : nthreads_all(threads) / parallel ? nthreads_all(threads) / parallel
                                                      : 1,
                   shared ? "one shared pool" : "a pool each");
        printf("memory       maxrss %.1f MiB, cuzk alloc peak %.1f MiB\n", rss_mib, peak_mib);
    }
    free(t);
    free(tw);
    free(tm);
    free(cw);
    free(cm);
    free(sw);
    free(sm);
    cuzk_pce_destroy(pce);
    cuzk_pool_destroy(pool);
    cuzk_host_pool_destroy(abc);
    return 0;
}
