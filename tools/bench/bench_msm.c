/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * cuzk-bench msm: multi-scalar multiplication and bitmap batch addition, CPU or CUDA.
 *
 *   cuzk-bench msm --group g1|g2 --log-n N [--backend cpu|cuda] [--threads T]
 *                  [--accum auto|xyzz|affine|both] [--scalars random|binary] [--raw]
 *                  [--endo auto|on|off] [--window C] [--chunks K] [--op msm|batch-add]
 *                  [--density PCT]
 *                  [--resident [--precompute C [--rows R]]] [--pinned] [--check] [--iters N]
 *                  [--warmup W]
 *                  [--x8 on|off]
 *                  [--json]
 *   cuzk-bench msm --pin-gib G[,G...] [--json]
 *
 * --pin-gib: per size in GiB, the cost of cudaHostAlloc, of malloc + cudaHostRegister and of
 * plain pageable memory (allocation, first write, pinning, free) and the H2D / D2H copy rate
 * from each (src/gpu/shim.cu cuzk__gpu_pin_bench).
 *
 * Timed through bench_run (min / median / max of wall time over --iters samples), followed by
 * the same statistics of process CPU time per call (all threads), which a shared, loaded
 * machine inflates much less. --accum both runs the two accumulation strategies one after the
 * other on the same inputs (same run, same machine state). Bases are a random point plus
 * multiples of a second random point (cheap to make at 2^20 and as good as random for timing);
 * scalars are uniform below r, or 0/1 (binary).
 *
 * --backend cuda runs src/gpu (cuzk_gpu_msm_gX / cuzk_gpu_batch_add_gX on the default device,
 * env CUZK_GPU): after the wall-time line comes a line of CUDA-event times per call, "total"
 * with the host <-> device transfers included and "compute" with the kernels only (no
 * transfers). --resident uploads the bases once (cuzk_gpu_bases_upload_gX) so that each call
 * moves only its scalars or bitmap (the SRS case); --precompute C (G1 MSM) then builds their
 * multiples 2^(C j) P once (cuzk_gpu_bases_precompute, C = 0: its own width) and every call runs
 * as one window over them (--rows R: only the first R rows, windows of R digit windows each);
 * --check then checks that path. --pinned allocates the host arrays
 * (bases, scalars, bitmap) with cuzk_gpu_host_alloc, so transfers run at the PCIe rate instead of
 * through the driver's pageable staging. --check compares one result with the CPU (threads:
 * --threads) first. --endo (the endomorphism split, "_endo" in the name when used),
 * --raw, --accum, --window and --chunks apply to the CPU only (env
 * CUZK_GPU_MSM_WINDOW sets the device window).
 */
#include "bench.h"
#include "cuzk/alloc.h"
#include "cuzk/msm.h"
#include "gpu/gpu_msm.h"
#include "msm/msm_ifma.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    bool g2, raw, batch_add;
    size_t n;
    cuzk_pool *pool;
    cuzk_msm_opts opts;
    cuzk_g1_affine_t *b1;
    cuzk_g2_affine_t *b2;
    cuzk_fr_t *k;     /* Montgomery scalars */
    uint64_t *kraw;   /* canonical scalars */
    uint64_t *bitmap; /* batch-add selection */
    int failed;
    /* Process CPU time of each call (all threads), so that runs on a shared, loaded machine can
     * be compared: wall time counts the waits for a core, CPU time does not. */
    double cpu_ns[64];
    unsigned ncpu;
    /* --backend cuda: CUDA-event times of each call. */
    bool cuda, resident, pinned;
    cuzk_gpu_bases *rb;
    double gpu_total[64], gpu_compute[64], gpu_h2d[64];
    unsigned ngpu;
} msm_bench;

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rng_next(void)
{
    /* splitmix64 */
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void rand_fr(cuzk_fr_t *out)
{
    uint64_t l[4];
    do {
        for (int i = 0; i < 4; i++)
            l[i] = rng_next();
        l[3] &= 0x7fffffffffffffffULL;
    } while (!cuzk_fr_from_canonical(out, l));
}

#define BENCH_GEN_BATCH 4096

/* bases[i] = P + i Q for random P, Q: chunks of BENCH_GEN_BATCH points on the pool, each from
 * P + (first index) Q (one scalar multiplication), then Jacobian additions normalised together.
 * About 1.5 us per point per thread, so 2^26 points take seconds on a 16-core host. */
#define DEFINE_MAKE_BASES(G, AFF, JAC)                                                             \
    typedef struct {                                                                               \
        AFF *out;                                                                                  \
        size_t n;                                                                                  \
        JAC p, q;                                                                                  \
        int failed;                                                                                \
    } G##_gen_ctx;                                                                                 \
    static void G##_gen_chunk(void *vctx, size_t j)                                                \
    {                                                                                              \
        G##_gen_ctx *x = vctx;                                                                     \
        size_t i0 = j * BENCH_GEN_BATCH;                                                           \
        size_t m = x->n - i0 < BENCH_GEN_BATCH ? x->n - i0 : BENCH_GEN_BATCH;                      \
        JAC *tmp = cuzk_alloc_array(BENCH_GEN_BATCH, sizeof *tmp);                                 \
        if (!tmp) {                                                                                \
            x->failed = 1;                                                                         \
            return;                                                                                \
        }                                                                                          \
        cuzk_fr_t k;                                                                               \
        JAC p;                                                                                     \
        cuzk_fr_set_u64(&k, (uint64_t)i0);                                                         \
        cuzk_##G##_mul_vartime(&p, &x->q, &k);                                                     \
        cuzk_##G##_add(&p, &p, &x->p);                                                             \
        for (size_t i = 0; i < m; i++) {                                                           \
            tmp[i] = p;                                                                            \
            cuzk_##G##_add(&p, &p, &x->q);                                                         \
        }                                                                                          \
        cuzk_##G##_batch_to_affine(x->out + i0, tmp, m);                                           \
        cuzk_free(tmp);                                                                            \
    }                                                                                              \
    static bool make_##G##_bases(AFF *out, size_t n, cuzk_pool *pool)                              \
    {                                                                                              \
        AFF g;                                                                                     \
        JAC gj;                                                                                    \
        cuzk_fr_t k;                                                                               \
        G##_gen_ctx x = {.out = out, .n = n};                                                      \
        cuzk_##G##_generator(&g);                                                                  \
        cuzk_##G##_from_affine(&gj, &g);                                                           \
        rand_fr(&k);                                                                               \
        cuzk_##G##_mul_vartime(&x.p, &gj, &k);                                                     \
        rand_fr(&k);                                                                               \
        cuzk_##G##_mul_vartime(&x.q, &gj, &k);                                                     \
        cuzk_pool_run(pool, (n + BENCH_GEN_BATCH - 1) / BENCH_GEN_BATCH, G##_gen_chunk, &x);       \
        return !x.failed;                                                                          \
    }
DEFINE_MAKE_BASES(g1, cuzk_g1_affine_t, cuzk_g1_jac_t)
DEFINE_MAKE_BASES(g2, cuzk_g2_affine_t, cuzk_g2_jac_t)

static void run_once_cuda(msm_bench *b)
{
    cuzk_status s;
    cuzk_gpu_timing t = {0};
    if (!b->g2) {
        cuzk_g1_jac_t r;
        if (b->batch_add)
            s = b->rb ? cuzk_gpu_batch_add_g1_resident(&r, b->rb, 0, b->bitmap, b->n, &t)
                      : cuzk_gpu_batch_add_g1(-1, &r, b->b1, b->bitmap, b->n, &t);
        else
            s = b->rb ? cuzk_gpu_msm_g1_resident(&r, b->rb, 0, b->k, b->n, &t)
                      : cuzk_gpu_msm_g1(-1, &r, b->b1, b->k, b->n, &t);
        bench_sink(&r, sizeof r);
    } else {
        cuzk_g2_jac_t r;
        if (b->batch_add)
            s = b->rb ? cuzk_gpu_batch_add_g2_resident(&r, b->rb, 0, b->bitmap, b->n, &t)
                      : cuzk_gpu_batch_add_g2(-1, &r, b->b2, b->bitmap, b->n, &t);
        else
            s = b->rb ? cuzk_gpu_msm_g2_resident(&r, b->rb, 0, b->k, b->n, &t)
                      : cuzk_gpu_msm_g2(-1, &r, b->b2, b->k, b->n, &t);
        bench_sink(&r, sizeof r);
    }
    if (s != CUZK_OK && !b->failed) {
        fprintf(stderr, "cuzk-bench msm: %s: %s\n", cuzk_status_name(s), cuzk_last_error());
        b->failed = 1;
    }
    if (b->ngpu < sizeof b->gpu_total / sizeof b->gpu_total[0]) {
        b->gpu_total[b->ngpu] = t.total_ms;
        b->gpu_compute[b->ngpu] = t.compute_ms;
        b->gpu_h2d[b->ngpu] = t.h2d_ms;
        b->ngpu++;
    }
}

static void run_once(msm_bench *b)
{
    cuzk_status s;
    if (b->cuda) {
        run_once_cuda(b);
        return;
    }
    if (!b->g2) {
        cuzk_g1_jac_t r;
        if (b->batch_add)
            s = cuzk_g1_batch_add_ex(&r, b->b1, b->bitmap, b->n, b->pool, &b->opts);
        else if (b->raw)
            s = cuzk_g1_msm_raw_ex(&r, b->b1, b->kraw, b->n, b->pool, &b->opts);
        else
            s = cuzk_g1_msm_ex(&r, b->b1, b->k, b->n, b->pool, &b->opts);
        bench_sink(&r, sizeof r);
    } else {
        cuzk_g2_jac_t r;
        if (b->batch_add)
            s = cuzk_g2_batch_add_ex(&r, b->b2, b->bitmap, b->n, b->pool, &b->opts);
        else if (b->raw)
            s = cuzk_g2_msm_raw_ex(&r, b->b2, b->kraw, b->n, b->pool, &b->opts);
        else
            s = cuzk_g2_msm_ex(&r, b->b2, b->k, b->n, b->pool, &b->opts);
        bench_sink(&r, sizeof r);
    }
    if (s != CUZK_OK && !b->failed) {
        fprintf(stderr, "cuzk-bench msm: %s: %s\n", cuzk_status_name(s), cuzk_last_error());
        b->failed = 1;
    }
}

static double cpu_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void body(void *vctx, uint64_t reps)
{
    msm_bench *b = vctx;
    for (uint64_t i = 0; i < reps; i++) {
        double t0 = cpu_now_ns();
        run_once(b);
        if (b->ncpu < sizeof b->cpu_ns / sizeof b->cpu_ns[0])
            b->cpu_ns[b->ncpu++] = cpu_now_ns() - t0;
    }
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* The CPU-time line that follows each bench_run line (calibration and warm-up calls included:
 * they do the same work). */
static void print_cpu(const msm_bench *b, const char *name, bool json)
{
    if (b->ncpu == 0)
        return;
    double s[64];
    unsigned n = b->ncpu;
    memcpy(s, b->cpu_ns, n * sizeof s[0]);
    qsort(s, n, sizeof s[0], cmp_double);
    double med = n & 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    if (json)
        printf("{\"bench\":\"%s\",\"cpu_calls\":%u,\"cpu_min_ns\":%.1f,\"cpu_median_ns\":%.1f,"
               "\"cpu_max_ns\":%.1f}\n",
               name, n, s[0], med, s[n - 1]);
    else
        printf(
            "  process CPU time per call over %u calls: min=%.1f ns  median=%.1f ns  max=%.1f ns\n",
            n, s[0], med, s[n - 1]);
    fflush(stdout);
}

static void stats(double *s, unsigned n, double *mn, double *med, double *mx)
{
    qsort(s, n, sizeof s[0], cmp_double);
    *mn = s[0];
    *med = n & 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    *mx = s[n - 1];
}

/* The CUDA-event line that follows each bench_run line of --backend cuda (calibration and
 * warm-up calls excluded when there were enough calls: the first call includes module loading
 * and the growth of the cached device buffers). */
static void print_gpu(msm_bench *b, const char *name, bool json)
{
    unsigned skip = b->ngpu > 2 ? 1 : 0, n = b->ngpu - skip;
    if (b->ngpu == 0)
        return;
    double t0, t1, t2, c0, c1, c2, h0, h1, h2;
    stats(b->gpu_total + skip, n, &t0, &t1, &t2);
    stats(b->gpu_compute + skip, n, &c0, &c1, &c2);
    stats(b->gpu_h2d + skip, n, &h0, &h1, &h2);
    cuzk_gpu_device_info di;
    if (cuzk_gpu_get_device_info(-1, &di) != CUZK_OK)
        snprintf(di.name, sizeof di.name, "?");
    if (json)
        printf("{\"bench\":\"%s\",\"backend\":\"cuda\",\"device\":\"%s\",\"resident\":%s,"
               "\"gpu_calls\":%u,\"total_min_ms\":%.3f,\"total_median_ms\":%.3f,"
               "\"total_max_ms\":%.3f,\"compute_min_ms\":%.3f,\"compute_median_ms\":%.3f,"
               "\"compute_max_ms\":%.3f,\"h2d_median_ms\":%.3f}\n",
               name, di.name, b->rb ? "true" : "false", n, t0, t1, t2, c0, c1, c2, h1);
    else
        printf("  cuda events on %s over %u calls: total (transfers included) min=%.3f "
               "median=%.3f max=%.3f ms; compute (kernels only, no transfers) min=%.3f "
               "median=%.3f max=%.3f ms; h2d median=%.3f ms%s\n",
               di.name, n, t0, t1, t2, c0, c1, c2, h1,
               b->rb ? " (bases resident)" : " (bases uploaded per call)");
    fflush(stdout);
}

/* --check: one device result against the CPU on the same inputs. */
static bool check_cuda(msm_bench *b)
{
    bool same = false;
    cuzk_status s1, s2;
    if (!b->g2) {
        cuzk_g1_jac_t g, c;
        cuzk_g1_affine_t x, y;
        s1 = b->batch_add ? cuzk_gpu_batch_add_g1(-1, &g, b->b1, b->bitmap, b->n, NULL)
             : b->rb      ? cuzk_gpu_msm_g1_resident(&g, b->rb, 0, b->k, b->n, NULL)
                          : cuzk_gpu_msm_g1(-1, &g, b->b1, b->k, b->n, NULL);
        s2 = b->batch_add ? cuzk_g1_batch_add(&c, b->b1, b->bitmap, b->n, b->pool)
                          : cuzk_g1_msm(&c, b->b1, b->k, b->n, b->pool);
        cuzk_g1_to_affine(&x, &g);
        cuzk_g1_to_affine(&y, &c);
        same = x.infinity == y.infinity && memcmp(&x.x, &y.x, sizeof x.x) == 0 &&
               memcmp(&x.y, &y.y, sizeof x.y) == 0;
    } else {
        cuzk_g2_jac_t g, c;
        cuzk_g2_affine_t x, y;
        s1 = b->batch_add ? cuzk_gpu_batch_add_g2(-1, &g, b->b2, b->bitmap, b->n, NULL)
             : b->rb      ? cuzk_gpu_msm_g2_resident(&g, b->rb, 0, b->k, b->n, NULL)
                          : cuzk_gpu_msm_g2(-1, &g, b->b2, b->k, b->n, NULL);
        s2 = b->batch_add ? cuzk_g2_batch_add(&c, b->b2, b->bitmap, b->n, b->pool)
                          : cuzk_g2_msm(&c, b->b2, b->k, b->n, b->pool);
        cuzk_g2_to_affine(&x, &g);
        cuzk_g2_to_affine(&y, &c);
        same = x.infinity == y.infinity && memcmp(&x.x, &y.x, sizeof x.x) == 0 &&
               memcmp(&x.y, &y.y, sizeof x.y) == 0;
    }
    if (s1 != CUZK_OK || s2 != CUZK_OK) {
        fprintf(stderr, "cuzk-bench msm --check: %s\n", cuzk_last_error());
        return false;
    }
    printf("  check: device result %s the CPU result\n", same ? "equals" : "DIFFERS FROM");
    fflush(stdout);
    return same;
}

static const char *accum_name(cuzk_msm_accum a)
{
    return a == CUZK_MSM_ACCUM_XYZZ ? "xyzz" : a == CUZK_MSM_ACCUM_AFFINE ? "affine" : "auto";
}

static int usage_err(const char *what)
{
    fprintf(
        stderr,
        "cuzk-bench msm: %s\n"
        "usage: cuzk-bench msm --group g1|g2 --log-n N [--backend cpu|cuda] [--threads T]\n"
        "                      [--accum auto|xyzz|affine|both] [--scalars random|binary] [--raw]\n"
        "                      [--endo auto|on|off]\n"
        "                      [--window C] [--chunks K] [--op msm|batch-add] [--density PCT]\n"
        "                      [--resident [--precompute C [--rows R]]] [--pinned] [--check]\n"
        "                      [--iters N]\n"
        "                      [--warmup W]\n"
        "                      [--x8 on|off] [--json]\n"
        "       cuzk-bench msm --pin-gib G[,G...] [--json]   (host memory for transfers)\n",
        what);
    return 2;
}

/* --pin-gib G1,G2,...: host memory for transfers at each size (GiB), by the three methods of
 * cuzk__gpu_pin_bench (cudaHostAlloc, malloc + cudaHostRegister, pageable), one line each. */
static int pin_bench(const char *list, bool json)
{
    static const char *const names[3] = {"cudaHostAlloc", "cudaHostRegister", "pageable"};
    int rc = 0;
    for (const char *p = list; *p;) {
        char *end;
        double gib = strtod(p, &end);
        if (end == p || gib <= 0 || gib > 1024)
            return usage_err("--pin-gib takes sizes in GiB separated by commas");
        size_t bytes = (size_t)(gib * 1073741824.0);
        for (int m = 0; m < 3; m++) {
            cuzk_gpu_pin_result r;
            if (cuzk__gpu_pin_bench(-1, bytes, m, &r) != CUZK_OK) {
                fprintf(stderr, "cuzk-bench msm: pin %g GiB %s: %s\n", gib, names[m],
                        cuzk_last_error());
                rc = 1;
                continue;
            }
            if (json)
                printf("{\"bench\":\"host_memory\",\"gib\":%g,\"method\":\"%s\","
                       "\"alloc_ms\":%.1f,\"touch_ms\":%.1f,\"pin_ms\":%.1f,\"free_ms\":%.1f,"
                       "\"h2d_gbs\":%.2f,\"d2h_gbs\":%.2f}\n",
                       gib, names[m], r.alloc_ms, r.touch_ms, r.pin_ms, r.free_ms, r.h2d_gbs,
                       r.d2h_gbs);
            else
                printf(
                    "host memory %g GiB %-16s alloc %8.1f ms  first write %8.1f ms  pin %8.1f ms  "
                    "free %8.1f ms  h2d %6.2f GB/s  d2h %6.2f GB/s\n",
                    gib, names[m], r.alloc_ms, r.touch_ms, r.pin_ms, r.free_ms, r.h2d_gbs,
                    r.d2h_gbs);
            fflush(stdout);
        }
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return usage_err("--pin-gib takes sizes in GiB separated by commas");
    }
    return rc;
}

int bench_msm_main(int argc, char **argv)
{
    bench_opts o = {.iters = 3, .warmup = 0};
    const char *env = getenv("CUZK_BENCH_ITERS");
    if (env)
        o.iters = (unsigned)strtoul(env, NULL, 10);
    msm_bench b = {0};
    unsigned log_n = 16, threads = 1, window = 0, chunks = 0, density = 50;
    int precompute = -1;   /* --precompute C: the resident G1 bases' tables (0: automatic width) */
    unsigned pre_rows = 0; /* --rows R: only their first R rows (0: all) */
    const char *group = "g1", *accum = "auto", *scalars = "random", *op = "msm";
    const char *endo = "auto";
    const char *backend = "cpu";
    bool check = false;
    const char *pin_list = NULL;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        const char *eq = strchr(a, '=');
        char key[32];
        size_t kl = eq ? (size_t)(eq - a) : strlen(a);
        if (kl >= sizeof key)
            return usage_err("option too long");
        memcpy(key, a, kl);
        key[kl] = 0;
        bool flag = strcmp(key, "--json") == 0 || strcmp(key, "--raw") == 0 ||
                    strcmp(key, "--resident") == 0 || strcmp(key, "--check") == 0 ||
                    strcmp(key, "--pinned") == 0;
        if (!flag) {
            if (eq)
                v = eq + 1;
            else if (i + 1 < argc)
                v = argv[++i];
            else
                return usage_err("missing option value");
        }
        if (strcmp(key, "--json") == 0)
            o.json = true;
        else if (strcmp(key, "--pin-gib") == 0)
            pin_list = v;
        else if (strcmp(key, "--raw") == 0)
            b.raw = true;
        else if (strcmp(key, "--resident") == 0)
            b.resident = true;
        else if (strcmp(key, "--check") == 0)
            check = true;
        else if (strcmp(key, "--pinned") == 0)
            b.pinned = true;
        else if (strcmp(key, "--backend") == 0)
            backend = v;
        else if (strcmp(key, "--group") == 0)
            group = v;
        else if (strcmp(key, "--log-n") == 0)
            log_n = (unsigned)strtoul(v, NULL, 10);
        else if (strcmp(key, "--threads") == 0)
            threads = (unsigned)strtoul(v, NULL, 10);
        else if (strcmp(key, "--accum") == 0)
            accum = v;
        else if (strcmp(key, "--endo") == 0)
            endo = v;
        else if (strcmp(key, "--scalars") == 0)
            scalars = v;
        else if (strcmp(key, "--window") == 0)
            window = (unsigned)strtoul(v, NULL, 10);
        else if (strcmp(key, "--chunks") == 0)
            chunks = (unsigned)strtoul(v, NULL, 10);
        else if (strcmp(key, "--op") == 0)
            op = v;
        else if (strcmp(key, "--density") == 0)
            density = (unsigned)strtoul(v, NULL, 10);
        else if (strcmp(key, "--precompute") == 0)
            precompute = (int)strtoul(v, NULL, 10);
        else if (strcmp(key, "--rows") == 0)
            pre_rows = (unsigned)strtoul(v, NULL, 10);
        else if (strcmp(key, "--iters") == 0)
            o.iters = (unsigned)strtoul(v, NULL, 10);
        else if (strcmp(key, "--warmup") == 0)
            o.warmup = (unsigned)strtoul(v, NULL, 10);
        else if (strcmp(key, "--x8") == 0) { /* batch-affine: IFMA 8-lane paths or scalar */
            if (strcmp(v, "on") != 0 && strcmp(v, "off") != 0)
                return usage_err("--x8 must be on or off");
            cuzk__msm_use_ifma = strcmp(v, "on") == 0;
        } else
            return usage_err("unknown option");
    }
    if (o.iters == 0)
        o.iters = 1;
    if (pin_list)
        return pin_bench(pin_list, o.json);
    if (strcmp(group, "g1") != 0 && strcmp(group, "g2") != 0)
        return usage_err("--group must be g1 or g2");
    if (strcmp(backend, "cuda") == 0)
        b.cuda = true;
    else if (strcmp(backend, "cpu") != 0)
        return usage_err("--backend must be cpu or cuda");
    if (b.cuda && !cuzk_gpu_available()) {
        fprintf(stderr, "cuzk-bench msm: --backend cuda: no CUDA device (%s)\n",
                cuzk_gpu_compiled() ? "none found" : "CUDA is not compiled into this binary");
        return 2;
    }
    if ((b.resident || check || b.pinned) && !b.cuda)
        return usage_err("--resident, --pinned and --check need --backend cuda");
    if (precompute >= 0 && (!b.resident || strcmp(group, "g1") != 0 || strcmp(op, "msm") != 0))
        return usage_err("--precompute needs --resident, --group g1 and --op msm");
    if (pre_rows && precompute < 0)
        return usage_err("--rows needs --precompute");
    if (log_n > 28)
        return usage_err("--log-n must be at most 28");
    if (threads == 0 || threads > 1024)
        return usage_err("--threads must be 1..1024");
    if (density > 100)
        return usage_err("--density is a percentage");
    cuzk_msm_endo endo_mode = CUZK_MSM_ENDO_AUTO;
    if (strcmp(endo, "on") == 0)
        endo_mode = CUZK_MSM_ENDO_ON;
    else if (strcmp(endo, "off") == 0)
        endo_mode = CUZK_MSM_ENDO_OFF;
    else if (strcmp(endo, "auto") != 0)
        return usage_err("--endo must be auto, on or off");
    cuzk_msm_accum list[2];
    size_t nacc = 1;
    if (strcmp(accum, "auto") == 0)
        list[0] = CUZK_MSM_ACCUM_AUTO;
    else if (strcmp(accum, "xyzz") == 0)
        list[0] = CUZK_MSM_ACCUM_XYZZ;
    else if (strcmp(accum, "affine") == 0)
        list[0] = CUZK_MSM_ACCUM_AFFINE;
    else if (strcmp(accum, "both") == 0) {
        list[0] = CUZK_MSM_ACCUM_XYZZ;
        list[1] = CUZK_MSM_ACCUM_AFFINE;
        nacc = 2;
    } else
        return usage_err("--accum must be auto, xyzz, affine or both");
    bool binary = strcmp(scalars, "binary") == 0;
    if (!binary && strcmp(scalars, "random") != 0)
        return usage_err("--scalars must be random or binary");
    b.batch_add = strcmp(op, "batch-add") == 0 || strcmp(op, "batch_add") == 0;
    if (!b.batch_add && strcmp(op, "msm") != 0)
        return usage_err("--op must be msm or batch-add");

    b.g2 = strcmp(group, "g2") == 0;
    b.n = (size_t)1 << log_n;
    int rc = 2;
    if (cuzk_pool_create(&b.pool, threads) != CUZK_OK) {
        fprintf(stderr, "cuzk-bench msm: %s\n", cuzk_last_error());
        return 2;
    }
    if (b.pinned) {
        void *p = NULL, *q = NULL, *r = NULL;
        size_t bsz = b.n * (b.g2 ? sizeof *b.b2 : sizeof *b.b1);
        if (cuzk_gpu_host_alloc(&p, bsz) != CUZK_OK ||
            cuzk_gpu_host_alloc(&q, b.n * sizeof *b.k) != CUZK_OK ||
            cuzk_gpu_host_alloc(&r, (b.n + 63) / 64 * sizeof(uint64_t)) != CUZK_OK) {
            fprintf(stderr, "cuzk-bench msm: --pinned: %s\n", cuzk_last_error());
            cuzk_gpu_host_free(p);
            cuzk_gpu_host_free(q);
            cuzk_gpu_host_free(r);
            cuzk_pool_destroy(b.pool);
            return 2;
        }
        if (b.g2)
            b.b2 = p;
        else
            b.b1 = p;
        b.k = q;
        b.bitmap = r;
        memset(b.bitmap, 0, (b.n + 63) / 64 * sizeof(uint64_t));
    } else {
        if (b.g2)
            b.b2 = cuzk_alloc_array(b.n, sizeof *b.b2);
        else
            b.b1 = cuzk_alloc_array(b.n, sizeof *b.b1);
        b.k = cuzk_alloc_array(b.n, sizeof *b.k);
        b.bitmap = cuzk_calloc_array((b.n + 63) / 64, sizeof(uint64_t));
    }
    b.kraw = b.cuda ? NULL : cuzk_alloc_array(b.n, 4 * sizeof(uint64_t));
    if ((!b.b1 && !b.b2) || !b.k || (!b.kraw && !b.cuda) || !b.bitmap) {
        fprintf(stderr, "cuzk-bench msm: out of memory\n");
        goto done;
    }
    if (!(b.g2 ? make_g2_bases(b.b2, b.n, b.pool) : make_g1_bases(b.b1, b.n, b.pool))) {
        fprintf(stderr, "cuzk-bench msm: out of memory\n");
        goto done;
    }
    for (size_t i = 0; i < b.n; i++) {
        if (binary)
            cuzk_fr_set_u64(&b.k[i], rng_next() & 1);
        else
            rand_fr(&b.k[i]);
        if (!b.cuda)
            cuzk_fr_to_canonical(b.kraw + 4 * i, &b.k[i]);
        if (rng_next() % 100 < density)
            b.bitmap[i / 64] |= (uint64_t)1 << (i % 64);
    }
    o.threads = threads;
    if (b.cuda) {
        if (b.resident) {
            cuzk_status s = b.g2 ? cuzk_gpu_bases_upload_g2(&b.rb, -1, b.b2, b.n)
                                 : cuzk_gpu_bases_upload_g1(&b.rb, -1, b.b1, b.n);
            if (s != CUZK_OK) {
                fprintf(stderr, "cuzk-bench msm: %s\n", cuzk_last_error());
                goto done;
            }
        }
        if (precompute >= 0) {
            struct timespec t0, t1;
            clock_gettime(CLOCK_MONOTONIC, &t0);
            if (cuzk_gpu_bases_precompute_rows(b.rb, (unsigned)precompute, pre_rows) != CUZK_OK) {
                fprintf(stderr, "cuzk-bench msm: %s\n", cuzk_last_error());
                goto done;
            }
            clock_gettime(CLOCK_MONOTONIC, &t1);
            const unsigned c = cuzk_gpu_bases_precomputed(b.rb);
            printf("  precompute: c = %u, %u of %u rows of bases, %.1f ms (once)\n", c,
                   cuzk_gpu_bases_precomputed_rows(b.rb), (255 + c - 1) / c,
                   (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6);
            fflush(stdout);
        }
        if (check && !check_cuda(&b))
            goto done;
        char name[96];
        if (b.batch_add)
            snprintf(name, sizeof name, "%s_batch_add_cuda%s%s_d%u", group,
                     b.resident ? "_resident" : "", b.pinned ? "_pinned" : "", density);
        else
            snprintf(name, sizeof name, "%s_msm_%s_cuda%s%s%s", group, binary ? "binary" : "random",
                     b.resident ? "_resident" : "", precompute >= 0 ? "_precomputed" : "",
                     b.pinned ? "_pinned" : "");
        b.ngpu = 0;
        bench_run(&o, name, b.n, body, &b);
        print_gpu(&b, name, o.json);
        rc = b.failed ? 2 : 0;
        goto done;
    }
    for (size_t a = 0; a < nacc; a++) {
        char name[96];
        b.opts = (cuzk_msm_opts){
            .window = window, .chunks = chunks, .accum = list[a], .endo = endo_mode};
        if (b.batch_add) {
            snprintf(name, sizeof name, "%s_batch_add_%s_d%u", group, accum_name(list[a]), density);
        } else {
            cuzk_msm_opts plan;
            if (b.g2)
                cuzk_g2_msm_plan(&plan, b.n, b.pool, &b.opts);
            else
                cuzk_g1_msm_plan(&plan, b.n, b.pool, &b.opts);
            /* The plan shown is the one for full-width scalars (0/1 scalars get c = 2). */
            if (binary)
                snprintf(name, sizeof name, "%s_msm%s_binary_%s", group, b.raw ? "_raw" : "",
                         accum_name(list[a]));
            else
                snprintf(name, sizeof name, "%s_msm%s_random_%s_c%u_k%u%s", group,
                         b.raw ? "_raw" : "", accum_name(plan.accum), plan.window, plan.chunks,
                         plan.endo == CUZK_MSM_ENDO_ON ? "_endo" : "");
        }
        b.ncpu = 0;
        bench_run(&o, name, b.n, body, &b);
        print_cpu(&b, name, o.json);
        if (b.failed)
            goto done;
    }
    rc = 0;
done:
    cuzk_gpu_bases_free(b.rb);
    if (b.pinned) {
        cuzk_gpu_host_free(b.b1);
        cuzk_gpu_host_free(b.b2);
        cuzk_gpu_host_free(b.k);
        cuzk_gpu_host_free(b.bitmap);
        b.b1 = NULL;
        b.b2 = NULL;
        b.k = NULL;
        b.bitmap = NULL;
    }
    cuzk_free(b.b1);
    cuzk_free(b.b2);
    cuzk_free(b.k);
    cuzk_free(b.kraw);
    cuzk_free(b.bitmap);
    cuzk_pool_destroy(b.pool);
    return rc;
}
