/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_BENCH_COMMANDS_H
#define CUZK_BENCH_COMMANDS_H

#include "cuzk/check_cache.h"

/* The check cache of a checked load (tools/bench/check_cache_opt.c): |path| (NULL: the default
 * record) unless |off|; NULL, with a note on stderr when the record is unusable, means none.
 * bench_subgroups_text describes a load's subgroup checks (--json: cuzk_subgroups_name). */
cuzk_check_cache *bench_check_cache_open(const char *path, bool off);
const char *bench_subgroups_text(cuzk_subgroups sg, bool recorded, const cuzk_check_cache *cache);

/* Non-benchmark commands; each gets the arguments after its name. Exit codes: 0 ok / valid,
 * 1 invalid proof, 2 usage or input error. */
int cmd_info(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_verify_winning_post(int argc, char **argv);
int cmd_setup(int argc, char **argv);
int cmd_prove_params(int argc, char **argv);
int cmd_prove_zkey(int argc, char **argv);
int cmd_list_circuits(int argc, char **argv);
int cmd_verify_snarkjs(int argc, char **argv);
int cmd_export_vk_snarkjs(int argc, char **argv);
int cmd_check_key(int argc, char **argv);
/* Daemon client commands (cmd_client_*.c): 0 ok, 1 proof failed / invalid, 2 usage,
 * connection or RPC error. */
int cmd_client_single(int argc, char **argv);
int cmd_client_submit(int argc, char **argv);
int cmd_client_await(int argc, char **argv);
int cmd_client_batch(int argc, char **argv);
int cmd_client_status(int argc, char **argv);
int cmd_client_preload(int argc, char **argv);
int cmd_client_evict(int argc, char **argv);
int cmd_client_cancel(int argc, char **argv);
int cmd_client_metrics(int argc, char **argv);
int cmd_client_circuit_info(int argc, char **argv);
/* The proof request flags of single / submit / batch, for the usage text. */
extern const char prove_opts_usage[];
/* Test/benchmark powers of tau for snarkjs (tools/bench/cmd_gen_ptau.c). */
int cmd_gen_ptau(int argc, char **argv);
/* Synthetic PoSt vanilla proofs for the daemon (tools/bench/cmd_gen_vanilla.c). */
int cmd_gen_vanilla(int argc, char **argv);
/* PoRep-shaped partition on random data (tools/bench/cmd_porep_shape.c). */
int cmd_porep_shape(int argc, char **argv);

#endif
