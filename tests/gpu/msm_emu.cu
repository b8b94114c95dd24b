/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * CPU emulation of the device MSM and batch addition: the driver of src/gpu/msm_run.cuh with
 * gm_host_exec runs every kernel body as a host loop, with the device field code (src/gpu/fp.cuh
 * emulates its PTX on the host), and the results are compared with the CPU functions of
 * include/cuzk/msm.h. Needs no device: it checks the algorithm (digits, chunked accumulation and
 * slot levels, segment reduction, Horner), not the CUDA build.
 *
 * `make gpu-emu` (part of `make test`: CI compiles the kernels with nvcc but cannot run them;
 * this runs their bodies) builds it as host C++ with the CUDA qualifiers defined away and runs
 * it: build/bin/msm-emu [nmax] (default 3000; the suite uses 200). The points and scalars come
 * from a fresh seed, printed first; env MSM_EMU_SEED=<hex> repeats a run. Env
 * CUZK_GPU_MSM_WINDOW / _CHUNK / _SEG vary the plan as on the device.
 */
extern "C" {
#include "cuzk/alloc.h"
#include "cuzk/curve.h"
#include "cuzk/msm.h"
}
#include "gpu/msm_groups.cuh"
#include "gpu/msm_run.cuh"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static uint64_t rs = 0x1234567887654321ULL;
static uint64_t rnd(void)
{
    uint64_t z = (rs += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void rand_fr(cuzk_fr_t *o)
{
    uint64_t l[4];
    do {
        for (int i = 0; i < 4; i++)
            l[i] = rnd();
        l[3] &= 0x7fffffffffffffffULL;
    } while (!cuzk_fr_from_canonical(o, l));
}

template <class AFF, class JAC>
static void points(AFF *out, size_t n, void (*gen)(AFF *), void (*from)(JAC *, const AFF *),
                   void (*mul)(JAC *, const JAC *, const cuzk_fr_t *),
                   void (*norm)(AFF *, const JAC *, size_t))
{
    AFF g;
    JAC gj;
    gen(&g);
    from(&gj, &g);
    JAC *t = (JAC *)calloc(n, sizeof(JAC));
    for (size_t i = 0; i < n; i++) {
        cuzk_fr_t k;
        rand_fr(&k);
        mul(&t[i], &gj, &k);
    }
    norm(out, t, n);
    free(t);
}

enum { SC_RANDOM, SC_ZERO, SC_ONE, SC_BINARY, SC_SMALL, SC_MINUS1, SC_COUNT };
static const char *SC_NAME[] = {"random", "zero", "one", "binary", "small", "r-1"};

static void scalars(cuzk_fr_t *k, size_t n, int kind)
{
    for (size_t i = 0; i < n; i++) {
        switch (kind) {
        case SC_RANDOM:
            rand_fr(&k[i]);
            break;
        case SC_ZERO:
            cuzk_fr_set_zero(&k[i]);
            break;
        case SC_ONE:
            cuzk_fr_set_one(&k[i]);
            break;
        case SC_BINARY:
            if (rnd() % 10 == 0)
                rand_fr(&k[i]);
            else
                cuzk_fr_set_u64(&k[i], rnd() & 1);
            break;
        case SC_SMALL:
            cuzk_fr_set_u64(&k[i], rnd() % 1000);
            break;
        case SC_MINUS1:
            cuzk_fr_set_one(&k[i]);
            cuzk_fr_neg(&k[i], &k[i]);
            break;
        }
    }
}

static int failures = 0;

static void g1_combine(cuzk_g1_jac_t *out, const uint64_t *wins, const gm_plan *p)
{
    gm_combine<cuzk_g1_jac_t, cuzk_g1_xyzz_t>(out, wins, p, cuzk_g1_xyzz_to_jac, cuzk_g1_dbl,
                                              cuzk_g1_add, cuzk_g1_jac_set_infinity,
                                              cuzk_g1_jac_is_infinity);
}
static void g2_combine(cuzk_g2_jac_t *out, const uint64_t *wins, const gm_plan *p)
{
    gm_combine<cuzk_g2_jac_t, cuzk_g2_xyzz_t>(out, wins, p, cuzk_g2_xyzz_to_jac, cuzk_g2_dbl,
                                              cuzk_g2_add, cuzk_g2_jac_set_infinity,
                                              cuzk_g2_jac_is_infinity);
}

template <class G, class AFF, class JAC, class XYZZ>
static void one_case(const char *gname, const AFF *pts, size_t n, int sk, int layout,
                     unsigned window, void (*combine)(JAC *, const uint64_t *, const gm_plan *),
                     cuzk_status (*cpu)(JAC *, const AFF *, const cuzk_fr_t *, size_t, cuzk_pool *),
                     cuzk_status (*cpu_badd)(JAC *, const AFF *, const uint64_t *, size_t,
                                             cuzk_pool *),
                     bool (*eq)(const JAC *, const JAC *), void (*to_jac)(JAC *, const XYZZ *))
{
    AFF *b = (AFF *)calloc(n, sizeof(AFF));
    for (size_t i = 0; i < n; i++) {
        b[i] = pts[layout == 1 ? 0 : i];
        if (layout == 2 && i % 5 == 3)
            b[i].infinity = true;
    }
    cuzk_fr_t *k = (cuzk_fr_t *)calloc(n, sizeof(cuzk_fr_t));
    scalars(k, n, sk);
    char env[16];
    snprintf(env, sizeof env, "%u", window);
    if (window)
        setenv("CUZK_GPU_MSM_WINDOW", env, 1);
    else
        unsetenv("CUZK_GPU_MSM_WINDOW");
    gm_host_exec ex;
    ex.host_wave = (sk + layout) % 2 ? 12 : 0; /* uneven chunks (gm_chunks) in half the cases */
    gm_plan p;
    gm_plan_make<G>(&p, n, ex.budget());
    std::vector<uint64_t> wins((size_t)p.nwin * 4 * G::F::LIMBS);
    gm_msm_windows<G>(ex, wins.data(), &p, (const uint8_t *)b, (const uint64_t *)k, n);
    JAC got, want;
    combine(&got, wins.data(), &p);
    if (cpu(&want, b, k, n, NULL) != CUZK_OK) {
        printf("cpu msm failed\n");
        exit(1);
    }
    bool ok = eq(&got, &want);
    printf("%s msm n=%zu scalars=%s bases=%d c=%u nwin=%u: %s\n", gname, n, SC_NAME[sk], layout,
           p.c, p.nwin, ok ? "ok" : "MISMATCH");
    failures += !ok;
    /* G1: precomputed multiples (gm_precompute) and the merged one-window MSM over them */
    if constexpr (sizeof(typename G::F::T) == 48) {
        const unsigned c = window ? window + 5 : 8, nwr = (255 + c - 1) / c;
        uint8_t *table = (uint8_t *)calloc((size_t)nwr * n, G::AFF_BYTES);
        typename gm_precompute<G>::Args pa = {(const uint8_t *)b, table, n, c, nwr};
        ex.launch<gm_precompute<G>>(pa, n, 1);
        /* all rows (one window), then the first few rows only (windows of groups of rows,
         * the last group shorter when rows does not divide nw) */
        const unsigned rows_cases[3] = {nwr, 1 + (unsigned)(sk + layout) % 4, nwr - 1};
        for (unsigned rc = 0; rc < 3; rc++) {
            const unsigned rows = rows_cases[rc];
            gm_plan pm;
            gm_plan_merged<G>(&pm, c, rows);
            std::vector<uint64_t> w1((size_t)pm.nwin * 4 * G::F::LIMBS);
            gm_msm_windows<G>(ex, w1.data(), &pm, table, (const uint64_t *)k, n, NULL, false, rows,
                              n);
            combine(&got, w1.data(), &pm);
            ok = eq(&got, &want);
            printf("%s msm precomputed n=%zu scalars=%s bases=%d c=%u rows=%u of %u, windows=%u: "
                   "%s\n",
                   gname, n, SC_NAME[sk], layout, c, rows, nwr, pm.nwin, ok ? "ok" : "MISMATCH");
            failures += !ok;
        }
        free(table);
    }
    /* batch addition over a random bitmap: balanced kernel (default words per thread, and 3),
     * the fixed-words kernel, and the balanced one over a sparse bitmap (most words empty) */
    size_t nw = (n + 63) / 64;
    uint64_t *bm = (uint64_t *)calloc(nw, 8);
    static const char *const cfg_name[4] = {"balanced", "balanced W=3", "fixed words",
                                            "balanced sparse"};
    for (int cfg = 0; cfg < 4; cfg++) {
        setenv("CUZK_GPU_BADD_BALANCE", cfg == 2 ? "0" : "1", 1);
        if (cfg == 1)
            setenv("CUZK_GPU_BADD_WORDS", "3", 1);
        else
            unsetenv("CUZK_GPU_BADD_WORDS");
        for (size_t i = 0; i < nw; i++) {
            bm[i] = sk == SC_ZERO ? 0 : sk == SC_ONE ? ~0ULL : rnd();
            if (cfg == 3)
                bm[i] = rnd() % 3 ? 0 : bm[i] & -bm[i];
        }
        uint64_t h[4 * G::F::LIMBS];
        gm_batch_add<G>(ex, h, (const uint8_t *)b, bm, n);
        XYZZ x;
        memcpy(&x, h, sizeof x);
        to_jac(&got, &x);
        if (cpu_badd(&want, b, bm, n, NULL) != CUZK_OK) {
            printf("cpu batch add failed\n");
            exit(1);
        }
        ok = eq(&got, &want);
        printf("%s batch_add n=%zu %s: %s\n", gname, n, cfg_name[cfg], ok ? "ok" : "MISMATCH");
        failures += !ok;
    }
    unsetenv("CUZK_GPU_BADD_BALANCE");
    unsetenv("CUZK_GPU_BADD_WORDS");
    free(bm);
    free(b);
    free(k);
}

int main(int argc, char **argv)
{
    size_t nmax = argc > 1 ? strtoul(argv[1], NULL, 10) : 3000;
    const char *se = getenv("MSM_EMU_SEED");
    if (se && *se) {
        rs = strtoull(se, NULL, 16);
    } else {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        rs =
            (uint64_t)ts.tv_sec * 1000000007ULL ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32);
    }
    printf("msm-emu: seed %016llx (MSM_EMU_SEED to repeat), nmax %zu\n", (unsigned long long)rs,
           nmax);
    cuzk_g1_affine_t *p1 = (cuzk_g1_affine_t *)calloc(nmax, sizeof *p1);
    cuzk_g2_affine_t *p2 = (cuzk_g2_affine_t *)calloc(nmax, sizeof *p2);
    points<cuzk_g1_affine_t, cuzk_g1_jac_t>(p1, nmax, cuzk_g1_generator, cuzk_g1_from_affine,
                                            cuzk_g1_mul_vartime, cuzk_g1_batch_to_affine);
    points<cuzk_g2_affine_t, cuzk_g2_jac_t>(p2, nmax, cuzk_g2_generator, cuzk_g2_from_affine,
                                            cuzk_g2_mul_vartime, cuzk_g2_batch_to_affine);
    /* the device Fp inversion (src/gpu/fp_inv.cuh) against the host's, on edge and random
     * values; the results are poisoned first */
    {
        int bad = 0, bad_short = 0, short_done = 0;
        for (int i = 0; i < 2000; i++) {
            cuzk_fp_t a, want;
            uint64_t l[6];
            if (i < 4) {
                for (int j = 0; j < 6; j++)
                    l[j] = 0;
                static const uint64_t PM1[6] = {0xb9feffffffffaaaaULL, 0x1eabfffeb153ffffULL,
                                                0x6730d2a0f6b0f624ULL, 0x64774b84f38512bfULL,
                                                0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};
                if (i == 0)
                    l[0] = 1;
                else if (i == 1)
                    l[0] = 2;
                else if (i == 2)
                    memcpy(l, PM1, sizeof l);
                else
                    l[5] = 1ULL << 60;
            } else {
                for (int j = 0; j < 6; j++)
                    l[j] = rnd();
                l[5] &= i % 3 ? 0x0fffffffffffffffULL : 0xfULL; /* short values too */
            }
            if (!cuzk_fp_from_canonical(&a, l) || cuzk_fp_is_zero(&a))
                continue;
            cuzk_fp_inv(&want, &a);
            fp_dev in, out;
            memcpy(&in, &a, sizeof in);
            memset(&out, 0xa5, sizeof out);
            gm_fp_inv::inv(out, in);
            fp_canon_dev(&out, &out);
            if (memcmp(&out, &want, sizeof out) != 0)
                bad++;
            /* too few rounds: never a wrong result reported complete (short values end early) */
            memset(&out, 0xa5, sizeof out);
            bool done = gm_fp_inv::inv<18>(out, in);
            fp_canon_dev(&out, &out);
            if (done && memcmp(&out, &want, sizeof out) != 0)
                bad_short++;
            short_done += done;
        }
        printf("fp inversion with 18 of 26 rounds: %d of 2000 complete, %s\n", short_done,
               bad_short ? "SOME WRONG" : "all right");
        failures += bad_short != 0;
        printf("fp inversion (binary GCD), 2000 values: %s\n", bad ? "MISMATCH" : "ok");
        failures += bad != 0;
    }
    size_t sizes[] = {1, 2, 7, 64, 100, 1000, nmax};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si];
        if (n > nmax)
            continue;
        for (int sk = 0; sk < SC_COUNT; sk++)
            for (int layout = 0; layout < 3; layout++) {
                unsigned win = (sk + layout) % 3 == 0 ? 0 : (sk + layout) % 3 == 1 ? 5 : 3;
                one_case<gm_g1, cuzk_g1_affine_t, cuzk_g1_jac_t, cuzk_g1_xyzz_t>(
                    "g1", p1, n, sk, layout, win, g1_combine, cuzk_g1_msm, cuzk_g1_batch_add,
                    cuzk_g1_eq, cuzk_g1_xyzz_to_jac);
                if (n <= 1000 && layout != 1)
                    one_case<gm_g2, cuzk_g2_affine_t, cuzk_g2_jac_t, cuzk_g2_xyzz_t>(
                        "g2", p2, n, sk, layout, win, g2_combine, cuzk_g2_msm, cuzk_g2_batch_add,
                        cuzk_g2_eq, cuzk_g2_xyzz_to_jac);
            }
    }
    printf("%d failures\n", failures);
    return failures != 0;
}
