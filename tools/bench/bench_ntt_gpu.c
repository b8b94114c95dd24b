/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* `cuzk-bench ntt --backend cuda`: the multiplication variants of the device field code, then the
 * transforms and the H step of both root families on one device, with host arrays (transfers
 * included) and on device-resident vectors (kernels only). Times are CUDA-event times of the
 * device (min / median / max over --iters samples after --warmup), with the wall median beside. */
#include "bench.h"
#include "cuzk/alloc.h"
#include "cuzk/poly.h"
#include "gpu/gpu.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    int device;
    const cuzk_domain *d;
    cuzk_fr_t *a, *b, *c;
    cuzk_gpu_frvec *va, *vb, *vc;
    cuzk_gpu_ntt_op op;
} gpu_ctx;

typedef cuzk_status (*gpu_fn)(gpu_ctx *c, cuzk_gpu_timing *t);

static cuzk_status host_ntt(gpu_ctx *c, cuzk_gpu_timing *t)
{
    return cuzk_gpu_ntt(c->device, c->d, c->a, c->op, t);
}

static cuzk_status host_h(gpu_ctx *c, cuzk_gpu_timing *t)
{
    return cuzk_gpu_h(c->device, c->d, c->a, c->b, c->c, t);
}

static cuzk_status resident_ntt(gpu_ctx *c, cuzk_gpu_timing *t)
{
    return cuzk_gpu_frvec_ntt(c->va, c->d, c->op, t);
}

static cuzk_status resident_h(gpu_ctx *c, cuzk_gpu_timing *t)
{
    return cuzk_gpu_frvec_h(c->va, c->vb, c->vc, c->d, t);
}

static double wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, unsigned n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n & 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Runs and prints one device benchmark; 1 on a device error. */
static int run_gpu(const bench_opts *o, const char *name, unsigned log_n, const char *devname,
                   bool transfers, gpu_fn fn, gpu_ctx *c)
{
    if (o->filter && fnmatch(o->filter, name, 0) != 0)
        return 0;
    cuzk_gpu_timing t;
    cuzk_status s = CUZK_OK;
    for (unsigned i = 0; i < o->warmup; i++)
        if ((s = fn(c, &t)) != CUZK_OK)
            goto fail;
    unsigned n = o->iters ? o->iters : 1;
    double dev[64], wall[64], comp[64];
    if (n > 64)
        n = 64;
    for (unsigned i = 0; i < n; i++) {
        double w0 = wall_ms();
        if ((s = fn(c, &t)) != CUZK_OK)
            goto fail;
        wall[i] = wall_ms() - w0;
        dev[i] = t.total_ms;
        comp[i] = t.compute_ms;
    }
    double wmed = median(wall, n), cmed = median(comp, n), dmed = median(dev, n);
    if (o->json)
        printf("{\"bench\":\"%s\",\"size\":%llu,\"backend\":\"cuda\",\"device\":%d,"
               "\"device_name\":\"%s\",\"transfers\":%s,\"iters\":%u,\"min_ns\":%.1f,"
               "\"median_ns\":%.1f,\"max_ns\":%.1f,\"compute_median_ns\":%.1f,"
               "\"wall_median_ns\":%.1f}\n",
               name, 1ULL << log_n, t.device, devname, transfers ? "true" : "false", n,
               dev[0] * 1e6, dmed * 1e6, dev[n - 1] * 1e6, cmed * 1e6, wmed * 1e6);
    else
        printf("%-28s 2^%-2u cuda:%d min=%9.3f ms  median=%9.3f ms  max=%9.3f ms  kernels=%9.3f ms"
               "  wall=%9.3f ms  (%u, %s)\n",
               name, log_n, t.device, dev[0], dmed, dev[n - 1], cmed, wmed, n,
               transfers ? "with transfers" : "device-resident");
    fflush(stdout);
    return 0;
fail:
    fprintf(stderr, "cuzk-bench ntt: %s: %s (%s)\n", name, cuzk_last_error(), cuzk_status_name(s));
    return 1;
}

static void field_variants(const bench_opts *o, int device)
{
    static const char *const fields[2] = {"fr", "fp"};
    for (int f = 0; f < 2; f++)
        for (int v = 1; v <= 16; v++) {
            /* 4: the dedicated squaring (64-bit limbs); 5: the lazy [0, 2p) multiplication; 6: the
             * Fr multiplication specialised to r (the NTT's CUZK_GPU_MONT=4); 7, 8: the even/odd
             * multiplication (CUZK_GPU_MONT_MUL=7) and its lazy form; 9: 6 in the even/odd form
             * (the NTT's CUZK_GPU_MONT=5); 10, 11: the even/odd squaring (CUZK_GPU_MONT_SQR=2)
             * and its lazy form; 12: a b - c d with one reduction (mul_diff, Fp only); 13: Shoup's
             * product by a constant (fr_shoup.cuh, the NTT's CUZK_GPU_MONT=6, Fr only); 14, 15:
             * the Karatsuba multiplication (CUZK_GPU_MONT_KARA=1) and its lazy form; 16: 12 with
             * Karatsuba products. */
            static const char *const kind[17] = {"",
                                                 "mul_v1",
                                                 "mul_v2",
                                                 "mul_v3",
                                                 "sqr_v1",
                                                 "mul_v1_lazy",
                                                 "mul_r",
                                                 "mul_v7",
                                                 "mul_v7_lazy",
                                                 "mul_r_eo",
                                                 "sqr_v7",
                                                 "sqr_v7_lazy",
                                                 "mulsub_v7_lazy",
                                                 "mul_shoup",
                                                 "mul_ka",
                                                 "mul_ka_lazy",
                                                 "mulsub_ka_lazy"};
            if (!cuzk__gpu_field_variant_ok(f, -1, v))
                continue;
            char name[32];
            snprintf(name, sizeof name, "%s_%s", fields[f], kind[v]);
            if (o->filter && fnmatch(o->filter, name, 0) != 0)
                continue;
            double best = 0;
            for (unsigned i = 0; i < 3; i++) {
                double g = 0;
                if (cuzk__gpu_field_bench(device, f, v, &g) != CUZK_OK) {
                    fprintf(stderr, "cuzk-bench ntt: %s: %s\n", name, cuzk_last_error());
                    return;
                }
                best = g > best ? g : best;
            }
            if (o->json)
                printf(
                    "{\"bench\":\"%s\",\"backend\":\"cuda\",\"device\":%d,\"gmul_per_s\":%.3f}\n",
                    name, device, best);
            else
                printf("%-28s cuda:%d %8.2f G mul/s (best of 3)\n", name, device, best);
            fflush(stdout);
        }
}

/* The pipe co-issue probe (--filter='pipe*'): IMAD.WIDE and FP64 FMA chains alone and together,
 * and the MSM's Fp product with FP64 FMAs beside it: rates in 10^12 operations per second
 * (Fp: 10^9 products per second), best of three. */
static void bench_pipes(const bench_opts *o, int device)
{
    static const struct {
        const char *name;
        int kind, fmas;
    } k[] = {
        {"pipe_imad_wide", 0, 0},     {"pipe_dfma", 1, 0},          {"pipe_both", 2, 0},
        {"pipe_fp_mul", 3, 0},        {"pipe_fp_mul_f64", 3, 64},   {"pipe_fp_mul_f128", 3, 128},
        {"pipe_fp_mul_f256", 3, 256}, {"pipe_fp_mul_f512", 3, 512}, {"pipe_fp_inv", 4, 0}};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        if (!o->filter || fnmatch(o->filter, k[i].name, 0) != 0) /* only when asked for */
            continue;
        double best = 0, ti = 0;
        for (unsigned r = 0; r < 3; r++) {
            double ms = 0;
            if (cuzk__gpu_pipe_bench(device, k[i].kind, k[i].fmas, &ms, &ti) != CUZK_OK) {
                fprintf(stderr, "cuzk-bench ntt: %s: %s\n", k[i].name, cuzk_last_error());
                return;
            }
            best = best == 0 || ms < best ? ms : best;
        }
        const double per_s = ti / (best * 1e-3);
        if (k[i].kind < 3)
            printf("%-20s cuda:%d %8.3f ms  imad.wide %6.2f T/s  dfma %6.2f T/s\n", k[i].name,
                   device, best, k[i].kind != 1 ? 8 * per_s / 1e12 : 0.0,
                   k[i].kind != 0 ? 8 * per_s / 1e12 : 0.0);
        else if (k[i].kind == 3)
            printf("%-20s cuda:%d %8.3f ms  fp mul %6.2f G/s  dfma %6.2f T/s\n", k[i].name, device,
                   best, 2 * per_s / 1e9, k[i].fmas * per_s / 1e12);
        else
            printf("%-20s cuda:%d %8.3f ms  fp inv %6.3f G/s\n", k[i].name, device, best,
                   2 * per_s / 1e9);
        fflush(stdout);
    }
}

int bench_ntt_gpu(const bench_opts *o, unsigned log_n, int device, cuzk_fr_t *a, cuzk_fr_t *b,
                  cuzk_fr_t *c)
{
    if (device < 0)
        device = cuzk_gpu_default_device();
    cuzk_gpu_device_info info;
    if (cuzk_gpu_get_device_info(device, &info) != CUZK_OK) {
        fprintf(stderr, "cuzk-bench ntt: %s\n", cuzk_last_error());
        return 2;
    }
    if (!o->json)
        printf("# device %d: %s, %d SMs, %.1f GiB\n", device, info.name, info.sm_count,
               (double)info.total_mem / (1 << 30));
    field_variants(o, device);
    bench_pipes(o, device);
    if (log_n > CUZK_GPU_NTT_MAX_LOG || log_n < 1) {
        fprintf(stderr, "cuzk-bench ntt: the device NTT takes 2^1 .. 2^%d\n", CUZK_GPU_NTT_MAX_LOG);
        return 2;
    }
    size_t n = (size_t)1 << log_n;
    gpu_ctx x;
    memset(&x, 0, sizeof x);
    x.device = device;
    x.a = a;
    x.b = b;
    x.c = c;
    int rc = 0;
    if (cuzk_gpu_frvec_alloc(&x.va, device, n) != CUZK_OK ||
        cuzk_gpu_frvec_alloc(&x.vb, device, n) != CUZK_OK ||
        cuzk_gpu_frvec_alloc(&x.vc, device, n) != CUZK_OK ||
        cuzk_gpu_frvec_upload(x.va, 0, a, n) != CUZK_OK ||
        cuzk_gpu_frvec_upload(x.vb, 0, b, n) != CUZK_OK ||
        cuzk_gpu_frvec_upload(x.vc, 0, c, n) != CUZK_OK) {
        fprintf(stderr, "cuzk-bench ntt: %s\n", cuzk_last_error());
        rc = 2;
        goto done;
    }
    /* Tuning sweep (--filter='sweep*'): the device NTT's multiplication variant and pass shape,
     * set through the environment variables the device code reads at each call. */
    if (o->filter && fnmatch(o->filter, "sweep", 0) == 0) {
        cuzk_domain *d;
        if (cuzk_domain_create(&d, n, CUZK_ROOTS_BELLPERSON) == CUZK_OK) {
            /* kmax, loge, threads, jmajor */
            static const unsigned cfg[][4] = {{10, 11, 512, 0}, {9, 11, 512, 1},  {10, 11, 512, 1},
                                              {9, 11, 256, 0},  {9, 11, 256, 1},  {8, 10, 256, 0},
                                              {8, 10, 256, 1},  {9, 10, 256, 1},  {8, 10, 128, 1},
                                              {7, 9, 128, 1},   {10, 12, 512, 1}, {11, 12, 512, 1}};
            static const char *const envs[4] = {"CUZK_GPU_NTT_KMAX", "CUZK_GPU_NTT_LOGE",
                                                "CUZK_GPU_NTT_THREADS", "CUZK_GPU_NTT_JMAJOR"};
            x.d = d;
            x.op = CUZK_GPU_NTT;
            bench_opts os = *o;
            os.filter = NULL;
            for (int v = 1; v <= 5 && rc == 0; v++)
                for (size_t k = 0; k < sizeof cfg / sizeof *cfg && rc == 0; k++) {
                    char name[64], val[16];
                    snprintf(val, sizeof val, "%d", v);
                    setenv("CUZK_GPU_MONT", val, 1);
                    for (int e = 0; e < 4; e++) {
                        snprintf(val, sizeof val, "%u", cfg[k][e]);
                        setenv(envs[e], val, 1);
                    }
                    snprintf(name, sizeof name, "sweep_ntt_v%d_k%u_e%u_t%u_j%u", v, cfg[k][0],
                             cfg[k][1], cfg[k][2], cfg[k][3]);
                    rc |= run_gpu(&os, name, log_n, info.name, false, resident_ntt, &x);
                }
            for (int e = 0; e < 4; e++)
                unsetenv(envs[e]);
            unsetenv("CUZK_GPU_MONT");
            cuzk_domain_destroy(d);
        }
    }
    /* Register-round sweep (--filter='sweepr'): variant 5, stages per register round and the bit
     * reversal against the pass shape (the last two settings repeat two earlier ones: A/B). */
    if (o->filter && fnmatch(o->filter, "sweepr", 0) == 0) {
        cuzk_domain *d;
        if (cuzk_domain_create(&d, n, CUZK_ROOTS_BELLPERSON) == CUZK_OK) {
            /* kmax, loge, threads, radix, bit reversal (0 naive, 1 tiled) */
            static const unsigned cfg[][5] = {
                {8, 10, 128, 1, 0}, {8, 10, 128, 1, 1}, {8, 10, 128, 2, 1}, {7, 9, 128, 2, 1},
                {8, 10, 64, 2, 1},  {8, 11, 256, 2, 1}, {9, 11, 256, 2, 1}, {8, 10, 128, 3, 1},
                {8, 10, 128, 1, 1}, {8, 10, 128, 2, 1}};
            static const char *const envs[5] = {"CUZK_GPU_NTT_KMAX", "CUZK_GPU_NTT_LOGE",
                                                "CUZK_GPU_NTT_THREADS", "CUZK_GPU_NTT_RADIX",
                                                "CUZK_GPU_NTT_BITREV"};
            x.d = d;
            x.op = CUZK_GPU_NTT;
            bench_opts os = *o;
            os.filter = NULL;
            for (size_t k = 0; k < sizeof cfg / sizeof *cfg && rc == 0; k++) {
                char name[64], val[16];
                for (int e = 0; e < 5; e++) {
                    snprintf(val, sizeof val, "%u", cfg[k][e]);
                    setenv(envs[e], val, 1);
                }
                snprintf(name, sizeof name, "sweepr_k%u_e%u_t%u_r%u_b%u", cfg[k][0], cfg[k][1],
                         cfg[k][2], cfg[k][3], cfg[k][4]);
                rc |= run_gpu(&os, name, log_n, info.name, false, resident_ntt, &x);
            }
            for (int e = 0; e < 5; e++)
                unsetenv(envs[e]);
            cuzk_domain_destroy(d);
        }
    }
    static const struct {
        cuzk_roots roots;
        const char *name;
    } fam[2] = {{CUZK_ROOTS_BELLPERSON, "bellperson"}, {CUZK_ROOTS_SNARKJS, "snarkjs"}};
    static const struct {
        cuzk_gpu_ntt_op op;
        const char *name;
    } ops[4] = {{CUZK_GPU_NTT, "ntt"},
                {CUZK_GPU_INTT, "intt"},
                {CUZK_GPU_COSET_NTT, "coset_ntt"},
                {CUZK_GPU_COSET_INTT, "coset_intt"}};
    for (int f = 0; f < 2 && rc == 0; f++) {
        cuzk_domain *d;
        if (cuzk_domain_create(&d, n, fam[f].roots) != CUZK_OK) {
            fprintf(stderr, "cuzk-bench ntt: %s\n", cuzk_last_error());
            rc = 2;
            break;
        }
        x.d = d;
        char name[64];
        for (int k = 0; k < 4 && rc == 0; k++) {
            x.op = ops[k].op;
            snprintf(name, sizeof name, "%s_%s_resident", ops[k].name, fam[f].name);
            rc |= run_gpu(o, name, log_n, info.name, false, resident_ntt, &x);
            snprintf(name, sizeof name, "%s_%s", ops[k].name, fam[f].name);
            rc |= run_gpu(o, name, log_n, info.name, true, host_ntt, &x);
        }
        snprintf(name, sizeof name, "h_%s_resident", fam[f].name);
        rc |= run_gpu(o, name, log_n, info.name, false, resident_h, &x);
        snprintf(name, sizeof name, "h_%s", fam[f].name);
        rc |= run_gpu(o, name, log_n, info.name, true, host_h, &x);
        /* The same with a, b, c in pinned host memory (what a prover with a pinned pool sees). */
        snprintf(name, sizeof name, "h_%s_pinned", fam[f].name);
        if (!o->filter || fnmatch(o->filter, name, 0) == 0) {
            void *pin = NULL;
            if (cuzk_gpu_host_alloc(&pin, 3 * n * sizeof(cuzk_fr_t)) == CUZK_OK) {
                gpu_ctx y = x;
                y.a = pin;
                y.b = y.a + n;
                y.c = y.b + n;
                memcpy(y.a, a, n * sizeof *a);
                memcpy(y.b, b, n * sizeof *b);
                memcpy(y.c, c, n * sizeof *c);
                rc |= run_gpu(o, name, log_n, info.name, true, host_h, &y);
                cuzk_gpu_host_free(pin);
            } else {
                fprintf(stderr, "cuzk-bench ntt: %s: %s\n", name, cuzk_last_error());
            }
        }
        cuzk_domain_destroy(d);
    }
done:
    cuzk_gpu_frvec_free(x.va);
    cuzk_gpu_frvec_free(x.vb);
    cuzk_gpu_frvec_free(x.vc);
    cuzk_gpu_release(device);
    return rc;
}
