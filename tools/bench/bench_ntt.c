/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* `cuzk-bench ntt`: forward, inverse and coset NTTs and the whole H step for both root families at
 * one size, through the shared harness (min / median / max). */
#include "bench.h"
#include "cuzk/alloc.h"
#include "cuzk/poly.h"
#include "poly/poly_internal.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    const cuzk_domain *d;
    cuzk_fr_t *a, *b, *c;
    cuzk_pool *pool;
    void (*fn)(const cuzk_domain *, cuzk_fr_t *, cuzk_pool *);
} ntt_ctx;

static void body_transform(void *p, uint64_t reps)
{
    ntt_ctx *c = p;
    for (uint64_t i = 0; i < reps; i++)
        c->fn(c->d, c->a, c->pool);
    bench_sink(c->a, sizeof *c->a);
}

/* The H step clobbers its inputs; its running time does not depend on their values (constant
 * time field arithmetic), so repeated runs on the leftovers measure the same work. */
static void body_h(void *p, uint64_t reps)
{
    ntt_ctx *c = p;
    for (uint64_t i = 0; i < reps; i++)
        cuzk_poly_h(c->d, c->a, c->b, c->c, c->pool);
    bench_sink(c->a, sizeof *c->a);
}

/* One radix-2 butterfly (u, v) -> (u + v, (u - v) w) per rep over a 512-element array (L1),
 * with the inlined arithmetic of src/poly and with the library's out-of-line cuzk_fr_* calls. */
enum { BFLY_N = 256 };

static void body_butterfly_inline(void *p, uint64_t reps)
{
    cuzk_fr_t *x = p, *w = x + 2 * BFLY_N;
    for (uint64_t r = 0; r < reps; r += BFLY_N)
        for (size_t j = 0; j < BFLY_N; j++) {
            cuzk_fr_t t;
            fri_sub(&t, &x[j], &x[j + BFLY_N]);
            fri_add(&x[j], &x[j], &x[j + BFLY_N]);
            fri_mul(&x[j + BFLY_N], &t, &w[j]);
        }
    bench_sink(x, sizeof *x);
}

static void body_butterfly_library(void *p, uint64_t reps)
{
    cuzk_fr_t *x = p, *w = x + 2 * BFLY_N;
    for (uint64_t r = 0; r < reps; r += BFLY_N)
        for (size_t j = 0; j < BFLY_N; j++) {
            cuzk_fr_t t;
            cuzk_fr_sub(&t, &x[j], &x[j + BFLY_N]);
            cuzk_fr_add(&x[j], &x[j], &x[j + BFLY_N]);
            cuzk_fr_mul(&x[j + BFLY_N], &t, &w[j]);
        }
    bench_sink(x, sizeof *x);
}

/* Random values below r. Above 2^18 elements the first 2^18 repeat: the transforms' running time
 * does not depend on the values, and filling 3 x 2^27 elements one by one would take longer than
 * the benchmark. */
#define FILL_RANDOM_MAX ((size_t)1 << 18)

static void fill_random(cuzk_fr_t *v, size_t n, uint64_t seed)
{
    size_t m = n < FILL_RANDOM_MAX ? n : FILL_RANDOM_MAX;
    for (size_t i = 0; i < m; i++) {
        uint64_t l[4];
        for (int k = 0; k < 4; k++) {
            /* splitmix64 */
            uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
            l[k] = z ^ (z >> 31);
        }
        l[3] &= 0x3fffffffffffffffULL; /* below r */
        if (!cuzk_fr_from_canonical(&v[i], l))
            cuzk_fr_set_one(&v[i]);
    }
    for (size_t i = m; i < n; i += m)
        memcpy(v + i, v, (n - i < m ? n - i : m) * sizeof *v);
}

static double clock_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/*
 * The shared harness's loop for operations of a millisecond or more, which also records the
 * process CPU time of each sample (all threads). On a machine shared with other work the wall
 * time of a multi-threaded run mostly measures the competition; the CPU time does not, and
 * CPU(1 thread) / CPU(T threads) is the parallel efficiency. Prints wall min / median / max, CPU
 * median and the 1-minute load average (STYLE.md section 9 fields, plus "cpu_median_ns" and
 * "load1" in JSON).
 */
static void run_timed(const bench_opts *o, const char *name, unsigned log_n,
                      void (*fn)(void *, uint64_t), void *ctx)
{
    if (o->filter && fnmatch(o->filter, name, 0) != 0)
        return;
    for (unsigned i = 0; i < o->warmup; i++)
        fn(ctx, 1);
    unsigned n = o->iters;
    double *wall = malloc(2 * n * sizeof *wall), *cpu = wall + n;
    if (!wall) {
        fprintf(stderr, "cuzk-bench ntt: out of memory\n");
        exit(2);
    }
    for (unsigned i = 0; i < n; i++) {
        double w0 = clock_ns(CLOCK_MONOTONIC), c0 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
        fn(ctx, 1);
        cpu[i] = clock_ns(CLOCK_PROCESS_CPUTIME_ID) - c0;
        wall[i] = clock_ns(CLOCK_MONOTONIC) - w0;
    }
    qsort(wall, n, sizeof *wall, cmp_double);
    qsort(cpu, n, sizeof *cpu, cmp_double);
    double wmed = n & 1 ? wall[n / 2] : (wall[n / 2 - 1] + wall[n / 2]) / 2;
    double cmed = n & 1 ? cpu[n / 2] : (cpu[n / 2 - 1] + cpu[n / 2]) / 2;
    double load[1] = {-1};
    if (getloadavg(load, 1) != 1)
        load[0] = -1;
    if (o->json)
        printf("{\"bench\":\"%s\",\"size\":%llu,\"backend\":\"cpu\",\"threads\":%u,\"iters\":%u,"
               "\"reps\":1,\"min_ns\":%.1f,\"median_ns\":%.1f,\"max_ns\":%.1f,"
               "\"cpu_median_ns\":%.1f,\"load1\":%.2f}\n",
               name, 1ULL << log_n, o->threads, n, wall[0], wmed, wall[n - 1], cmed, load[0]);
    else
        printf("%-22s 2^%-2u threads=%-3u min=%10.2f ms  median=%10.2f ms  max=%10.2f ms  "
               "cpu median=%10.2f ms  (%u, load %.2f)\n",
               name, log_n, o->threads, wall[0] / 1e6, wmed / 1e6, wall[n - 1] / 1e6, cmed / 1e6, n,
               load[0]);
    fflush(stdout);
    free(wall);
}

/* tools/bench/bench_ntt_gpu.c: the same transforms on a CUDA device. */
int bench_ntt_gpu(const bench_opts *o, unsigned log_n, int device, cuzk_fr_t *a, cuzk_fr_t *b,
                  cuzk_fr_t *c);

static int usage_error(const char *msg, const char *arg)
{
    fprintf(stderr, "cuzk-bench ntt: %s%s\n", msg, arg ? arg : "");
    fprintf(stderr, "usage: cuzk-bench ntt [--log-n N] [--threads T] [--json] [--iters=N]\n"
                    "                      [--warmup=W] [--filter=GLOB] [--rows-log R --cols C]\n"
                    "                      [--backend cpu|cuda] [--device D] [--scalar]\n"
                    "  --scalar: the scalar passes even where the 8-lane IFMA ones are built\n");
    return 2;
}

/* --name V or --name=V; advances *i past a separate value. */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0)
        return NULL;
    if (argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (argv[*i][n] == '\0' && *i + 1 < argc)
        return argv[++*i];
    return NULL;
}

int bench_ntt_main(int argc, char **argv)
{
    unsigned log_n = 16, threads = 0;
    int device = -1;
    bool cuda = false, scalar = false;
    long rows_log = -1;
    size_t cols = 0;
    bool iters_set = getenv("CUZK_BENCH_ITERS") != NULL, warmup_set = false;
    bench_opts o;
    memset(&o, 0, sizeof o);
    o.iters = iters_set ? (unsigned)strtoul(getenv("CUZK_BENCH_ITERS"), NULL, 10) : 15;
    o.warmup = 2;
    for (int i = 0; i < argc; i++) {
        const char *v;
        if (strcmp(argv[i], "--json") == 0)
            o.json = true;
        else if (strcmp(argv[i], "--scalar") == 0)
            scalar = true;
        else if ((v = opt_value(argc, argv, &i, "--log-n")))
            log_n = (unsigned)strtoul(v, NULL, 10);
        else if ((v = opt_value(argc, argv, &i, "--threads")))
            threads = (unsigned)strtoul(v, NULL, 10);
        else if ((v = opt_value(argc, argv, &i, "--iters")))
            o.iters = (unsigned)strtoul(v, NULL, 10), iters_set = true;
        else if ((v = opt_value(argc, argv, &i, "--warmup")))
            o.warmup = (unsigned)strtoul(v, NULL, 10), warmup_set = true;
        else if ((v = opt_value(argc, argv, &i, "--filter")))
            o.filter = v;
        else if ((v = opt_value(argc, argv, &i, "--rows-log")))
            rows_log = strtol(v, NULL, 10);
        else if ((v = opt_value(argc, argv, &i, "--cols")))
            cols = (size_t)strtoul(v, NULL, 10);
        else if ((v = opt_value(argc, argv, &i, "--device")))
            device = (int)strtol(v, NULL, 10);
        else if ((v = opt_value(argc, argv, &i, "--backend"))) {
            if (strcmp(v, "cuda") == 0)
                cuda = true;
            else if (strcmp(v, "cpu") != 0)
                return usage_error("--backend takes cpu or cuda, not ", v);
        } else
            return usage_error("unknown option ", argv[i]);
    }
    if (log_n > CUZK_DOMAIN_MAX_LOG)
        return usage_error("--log-n is above ", "28");
    if (o.iters == 0)
        o.iters = 1;
    /* Large sizes: fewer samples unless asked (a 2^22 H step takes seconds on 2 cores). */
    if (!iters_set && log_n > 16)
        o.iters = log_n > 19 ? 3 : 5;
    if (!warmup_set && log_n > 16)
        o.warmup = 1;

    cuzk_pool *pool;
    if (cuzk_pool_create(&pool, threads) != CUZK_OK) {
        fprintf(stderr, "cuzk-bench ntt: %s\n", cuzk_last_error());
        return 2;
    }
    o.threads = cuzk_pool_threads(pool);
    size_t n = (size_t)1 << log_n;
    cuzk_fr_t *a = cuzk_alloc_array(n, sizeof *a), *b = cuzk_alloc_array(n, sizeof *b),
              *c = cuzk_alloc_array(n, sizeof *c);
    if (!a || !b || !c) {
        fprintf(stderr, "cuzk-bench ntt: cannot allocate 3 x 2^%u elements\n", log_n);
        return 2;
    }
    fill_random(a, n, 1);
    fill_random(b, n, 2);
    fill_random(c, n, 3);
    if (cuda) {
        int rc = bench_ntt_gpu(&o, log_n, device, a, b, c);
        cuzk_free(a);
        cuzk_free(b);
        cuzk_free(c);
        cuzk_pool_destroy(pool);
        return rc;
    }

    /* The arithmetic inside the transforms, per butterfly (reps are rounded up to 256). */
    cuzk_fr_t bfly[3 * BFLY_N];
    fill_random(bfly, 3 * BFLY_N, 4);
    bench_opts o1 = o;
    o1.threads = 1;
    bench_run(&o1, "butterfly_inline", 1, body_butterfly_inline, bfly);
    bench_run(&o1, "butterfly_library", 1, body_butterfly_library, bfly);

    static const struct {
        cuzk_roots roots;
        const char *name;
    } fam[2] = {{CUZK_ROOTS_BELLPERSON, "bellperson"}, {CUZK_ROOTS_SNARKJS, "snarkjs"}};
    int rc = 0;
    for (int f = 0; f < 2 && rc == 0; f++) {
        cuzk_domain *d;
        cuzk_status s = rows_log >= 0
                            ? cuzk__domain_create_split(&d, log_n, fam[f].roots, (unsigned)rows_log,
                                                        cols ? cols : 1)
                            : cuzk_domain_create(&d, n, fam[f].roots);
        if (s != CUZK_OK) {
            fprintf(stderr, "cuzk-bench ntt: %s\n", cuzk_last_error());
            rc = 2;
            break;
        }
        d->scalar_only = scalar;
        if (!o.json)
            printf("# %s domain 2^%u: %u threads, four-step 2^%u rows x 2^%u, %zu columns per "
                   "group, %s passes\n",
                   fam[f].name, log_n, o.threads, d->l_out, d->l_in, d->cols,
                   scalar || !CUZK_FR_HAVE_IFMA ? "scalar" : "8-lane IFMA");
        ntt_ctx x = {d, a, b, c, pool, NULL};
        static const struct {
            const char *name;
            void (*fn)(const cuzk_domain *, cuzk_fr_t *, cuzk_pool *);
        } tr[4] = {{"ntt", cuzk_ntt},
                   {"intt", cuzk_intt},
                   {"coset_ntt", cuzk_coset_ntt},
                   {"coset_intt", cuzk_coset_intt}};
        char name[64];
        for (int k = 0; k < 4; k++) {
            x.fn = tr[k].fn;
            snprintf(name, sizeof name, "%s_%s", tr[k].name, fam[f].name);
            run_timed(&o, name, log_n, body_transform, &x);
        }
        snprintf(name, sizeof name, "h_%s", fam[f].name);
        run_timed(&o, name, log_n, body_h, &x);
        cuzk_domain_destroy(d);
    }
    cuzk_free(a);
    cuzk_free(b);
    cuzk_free(c);
    cuzk_pool_destroy(pool);
    return rc;
}
