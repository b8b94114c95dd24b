/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The one micro-benchmark helper (STYLE.md section 9). */
#include "bench.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void bench_sink(const void *p, size_t n)
{
    /* An empty asm that claims to read the memory keeps the work alive without any cost. */
    __asm__ volatile("" : : "r"(p), "r"(n) : "memory");
}

bool bench_run(const bench_opts *o, const char *name, uint64_t size, bench_fn fn, void *ctx)
{
    if (o->filter && fnmatch(o->filter, name, 0) != 0)
        return false;
    /* Calibrate: grow reps until one sample takes >= 1 ms. */
    uint64_t reps = 1;
    for (;;) {
        double t0 = now_ns();
        fn(ctx, reps);
        double dt = now_ns() - t0;
        if (dt >= 1e6 || reps >= (1ULL << 30))
            break;
        reps = dt < 1e4 ? reps * 16 : reps * 2;
    }
    for (unsigned i = 0; i < o->warmup; i++)
        fn(ctx, reps);
    unsigned n = o->iters ? o->iters : 1;
    double *s = malloc(n * sizeof *s);
    if (!s) {
        fprintf(stderr, "bench: out of memory\n");
        exit(2);
    }
    for (unsigned i = 0; i < n; i++) {
        double t0 = now_ns();
        fn(ctx, reps);
        s[i] = (now_ns() - t0) / (double)reps;
    }
    qsort(s, n, sizeof *s, cmp_double);
    double med = n & 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    unsigned threads = o->threads ? o->threads : 1;
    if (o->json)
        printf("{\"bench\":\"%s\",\"size\":%llu,\"backend\":\"cpu\",\"threads\":%u,\"iters\":%u,"
               "\"reps\":%llu,\"min_ns\":%.1f,\"median_ns\":%.1f,\"max_ns\":%.1f}\n",
               name, (unsigned long long)size, threads, n, (unsigned long long)reps, s[0], med,
               s[n - 1]);
    else if (o->threads)
        printf("%-28s size=%-8llu threads=%-3u min=%12.1f ns  median=%12.1f ns  max=%12.1f ns  "
               "(%u x %llu)\n",
               name, (unsigned long long)size, threads, s[0], med, s[n - 1], n,
               (unsigned long long)reps);
    else
        printf("%-28s size=%-8llu min=%12.1f ns  median=%12.1f ns  max=%12.1f ns  (%u x %llu)\n",
               name, (unsigned long long)size, s[0], med, s[n - 1], n, (unsigned long long)reps);
    fflush(stdout);
    free(s);
    return true;
}
