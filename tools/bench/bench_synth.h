/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_BENCH_SYNTH_H
#define CUZK_BENCH_SYNTH_H

#include <stdbool.h>

#include "cuzk/hostpool.h"
#include "cuzk/r1cs.h"

/* |parallel| workers each synthesise |repeat| partitions of |c| in |mode| (WITNESS plus |pce|'s
 * products when |pce| is set; pce_ab: without C), on |threads| / |parallel| threads each, at
 * the same time; *wall_s = the wall time of them all (synth_parallel.c). Systems are sized from
 * |aux_hint| and |rows_hint| as an engine sizes them; a, b and c come from |abc| when not NULL.
 * |shared|: the workers' products on one shared pool of |threads| (the engine's way) instead of
 * a pool of |threads| / |parallel| each; |witness_all|: each witness synthesis on all |threads|
 * instead of |threads| / |parallel|. */
cuzk_status bench_synth_parallel(const cuzk_circuit *c, cuzk_cs_mode mode, const cuzk_pce *pce,
                                 bool pce_ab, unsigned parallel, unsigned repeat, unsigned threads,
                                 size_t aux_hint, size_t rows_hint, cuzk_host_pool *abc,
                                 bool shared, bool witness_all, double *wall_s);

#endif
