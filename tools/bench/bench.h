/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_BENCH_BENCH_H
#define CUZK_BENCH_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Options shared by every micro-benchmark command. */
typedef struct {
    unsigned iters;     /* timed samples (--iters, env CUZK_BENCH_ITERS) */
    unsigned warmup;    /* untimed samples first (--warmup) */
    bool json;          /* one JSON object per line (--json) */
    const char *filter; /* run only benchmarks whose name matches this glob (--filter) */
    unsigned threads;   /* threads the measured code uses, as printed; 0 is printed as 1 */
} bench_opts;

/*
 * One benchmark body: performs the measured operation |reps| times. The harness picks |reps| so
 * that one sample lasts at least ~1 ms (so nanosecond operations are timed over many calls),
 * runs |warmup| untimed samples and |iters| timed ones, and prints min / median / max per
 * operation.
 */
typedef void (*bench_fn)(void *ctx, uint64_t reps);

/* Runs and prints one benchmark. |size| is printed as the problem size (0 when none).
 * Returns false when the filter excluded it. */
bool bench_run(const bench_opts *o, const char *name, uint64_t size, bench_fn fn, void *ctx);

/* Keeps the compiler from discarding a computed value. */
void bench_sink(const void *p, size_t n);

/* Command entry points (argv after the command name already parsed into |o|). */
int bench_field_main(const bench_opts *o);
int bench_curve_main(const bench_opts *o);
int bench_pairing_main(const bench_opts *o);
int bench_groth16_main(const bench_opts *o);
/* `cuzk-bench ntt`: parses its own arguments (after the command name). */
int bench_ntt_main(int argc, char **argv);
/* Commands that parse their own options (argv after the command name). */
int bench_msm_main(int argc, char **argv);

#endif
