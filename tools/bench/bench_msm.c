/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * cuzk-bench msm: CPU multi-scalar multiplication and bitmap batch addition.
 *
 *   cuzk-bench msm --group g1|g2 --log-n N [--threads T] [--accum auto|xyzz|affine|both]
 *                  [--scalars random|binary] [--raw] [--window C] [--chunks K]
 *                  [--op msm|batch-add] [--density PCT] [--iters N] [--warmup W] [--json]
 *
 * Timed through bench_run (min / median / max of wall time over --iters samples), followed by
 * the same statistics of process CPU time per call (all threads), which a shared, loaded
 * machine inflates much less. --accum both runs the two accumulation strategies one after the
 * other on the same inputs (same run, same machine state). Bases are a random point plus
 * multiples of a second random point (cheap to make at 2^20 and as good as random for timing);
 * scalars are uniform below r, or 0/1 (binary).
 */
#include "bench.h"
#include "cuzk/alloc.h"
#include "cuzk/msm.h"

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

/* bases[i] = P + i Q for random P, Q (Jacobian additions, normalised in batches). */
static bool make_g1_bases(cuzk_g1_affine_t *out, size_t n)
{
    cuzk_g1_jac_t *tmp = cuzk_alloc_array(BENCH_GEN_BATCH, sizeof *tmp);
    if (!tmp)
        return false;
    cuzk_g1_affine_t g;
    cuzk_g1_jac_t gj, p, q;
    cuzk_fr_t k;
    cuzk_g1_generator(&g);
    cuzk_g1_from_affine(&gj, &g);
    rand_fr(&k);
    cuzk_g1_mul_vartime(&p, &gj, &k);
    rand_fr(&k);
    cuzk_g1_mul_vartime(&q, &gj, &k);
    for (size_t i = 0; i < n; i += BENCH_GEN_BATCH) {
        size_t m = n - i < BENCH_GEN_BATCH ? n - i : BENCH_GEN_BATCH;
        for (size_t j = 0; j < m; j++) {
            tmp[j] = p;
            cuzk_g1_add(&p, &p, &q);
        }
        cuzk_g1_batch_to_affine(out + i, tmp, m);
    }
    cuzk_free(tmp);
    return true;
}

static bool make_g2_bases(cuzk_g2_affine_t *out, size_t n)
{
    cuzk_g2_jac_t *tmp = cuzk_alloc_array(BENCH_GEN_BATCH, sizeof *tmp);
    if (!tmp)
        return false;
    cuzk_g2_affine_t g;
    cuzk_g2_jac_t gj, p, q;
    cuzk_fr_t k;
    cuzk_g2_generator(&g);
    cuzk_g2_from_affine(&gj, &g);
    rand_fr(&k);
    cuzk_g2_mul_vartime(&p, &gj, &k);
    rand_fr(&k);
    cuzk_g2_mul_vartime(&q, &gj, &k);
    for (size_t i = 0; i < n; i += BENCH_GEN_BATCH) {
        size_t m = n - i < BENCH_GEN_BATCH ? n - i : BENCH_GEN_BATCH;
        for (size_t j = 0; j < m; j++) {
            tmp[j] = p;
            cuzk_g2_add(&p, &p, &q);
        }
        cuzk_g2_batch_to_affine(out + i, tmp, m);
    }
    cuzk_free(tmp);
    return true;
}

static void run_once(msm_bench *b)
{
    cuzk_status s;
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

static const char *accum_name(cuzk_msm_accum a)
{
    return a == CUZK_MSM_ACCUM_XYZZ ? "xyzz" : a == CUZK_MSM_ACCUM_AFFINE ? "affine" : "auto";
}

static int usage_err(const char *what)
{
    fprintf(
        stderr,
        "cuzk-bench msm: %s\n"
        "usage: cuzk-bench msm --group g1|g2 --log-n N [--threads T]\n"
        "                      [--accum auto|xyzz|affine|both] [--scalars random|binary] [--raw]\n"
        "                      [--window C] [--chunks K] [--op msm|batch-add] [--density PCT]\n"
        "                      [--iters N] [--warmup W] [--json]\n",
        what);
    return 2;
}

int bench_msm_main(int argc, char **argv)
{
    bench_opts o = {.iters = 3, .warmup = 0};
    const char *env = getenv("CUZK_BENCH_ITERS");
    if (env)
        o.iters = (unsigned)strtoul(env, NULL, 10);
    msm_bench b = {0};
    unsigned log_n = 16, threads = 1, window = 0, chunks = 0, density = 50;
    const char *group = "g1", *accum = "auto", *scalars = "random", *op = "msm";
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        const char *eq = strchr(a, '=');
        char key[32];
        size_t kl = eq ? (size_t)(eq - a) : strlen(a);
        if (kl >= sizeof key)
            return usage_err("option too long");
        memcpy(key, a, kl);
        key[kl] = 0;
        bool flag = strcmp(key, "--json") == 0 || strcmp(key, "--raw") == 0;
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
        else if (strcmp(key, "--raw") == 0)
            b.raw = true;
        else if (strcmp(key, "--group") == 0)
            group = v;
        else if (strcmp(key, "--log-n") == 0)
            log_n = (unsigned)strtoul(v, NULL, 10);
        else if (strcmp(key, "--threads") == 0)
            threads = (unsigned)strtoul(v, NULL, 10);
        else if (strcmp(key, "--accum") == 0)
            accum = v;
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
        else if (strcmp(key, "--iters") == 0)
            o.iters = (unsigned)strtoul(v, NULL, 10);
        else if (strcmp(key, "--warmup") == 0)
            o.warmup = (unsigned)strtoul(v, NULL, 10);
        else
            return usage_err("unknown option");
    }
    if (o.iters == 0)
        o.iters = 1;
    if (strcmp(group, "g1") != 0 && strcmp(group, "g2") != 0)
        return usage_err("--group must be g1 or g2");
    if (log_n > 28)
        return usage_err("--log-n must be at most 28");
    if (threads == 0 || threads > 1024)
        return usage_err("--threads must be 1..1024");
    if (density > 100)
        return usage_err("--density is a percentage");
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
    if (b.g2)
        b.b2 = cuzk_alloc_array(b.n, sizeof *b.b2);
    else
        b.b1 = cuzk_alloc_array(b.n, sizeof *b.b1);
    b.k = cuzk_alloc_array(b.n, sizeof *b.k);
    b.kraw = cuzk_alloc_array(b.n, 4 * sizeof(uint64_t));
    b.bitmap = cuzk_calloc_array((b.n + 63) / 64, sizeof(uint64_t));
    if ((!b.b1 && !b.b2) || !b.k || !b.kraw || !b.bitmap) {
        fprintf(stderr, "cuzk-bench msm: out of memory\n");
        goto done;
    }
    if (!(b.g2 ? make_g2_bases(b.b2, b.n) : make_g1_bases(b.b1, b.n))) {
        fprintf(stderr, "cuzk-bench msm: out of memory\n");
        goto done;
    }
    for (size_t i = 0; i < b.n; i++) {
        if (binary)
            cuzk_fr_set_u64(&b.k[i], rng_next() & 1);
        else
            rand_fr(&b.k[i]);
        cuzk_fr_to_canonical(b.kraw + 4 * i, &b.k[i]);
        if (rng_next() % 100 < density)
            b.bitmap[i / 64] |= (uint64_t)1 << (i % 64);
    }
    o.threads = threads;
    for (size_t a = 0; a < nacc; a++) {
        char name[96];
        b.opts = (cuzk_msm_opts){.window = window, .chunks = chunks, .accum = list[a]};
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
                snprintf(name, sizeof name, "%s_msm%s_random_%s_c%u_k%u", group,
                         b.raw ? "_raw" : "", accum_name(plan.accum), plan.window, plan.chunks);
        }
        b.ncpu = 0;
        bench_run(&o, name, b.n, body, &b);
        print_cpu(&b, name, o.json);
        if (b.failed)
            goto done;
    }
    rc = 0;
done:
    cuzk_free(b.b1);
    cuzk_free(b.b2);
    cuzk_free(b.k);
    cuzk_free(b.kraw);
    cuzk_free(b.bitmap);
    cuzk_pool_destroy(b.pool);
    return rc;
}
