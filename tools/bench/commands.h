/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_BENCH_COMMANDS_H
#define CUZK_BENCH_COMMANDS_H

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

#endif
