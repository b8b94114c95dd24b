/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk-bench: benchmarks and in-process tools. */
#include "bench.h"
#include "commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: cuzk-bench <command> [options]\n"
               "commands:\n"
               "  info                               version, git commit, backends\n"
               "  field|curve|pairing [--json] [--iters=N] [--warmup=W] [--filter=GLOB]\n"
               "                                     micro-benchmarks (min/median/max)\n"
               "  ntt [--log-n N] [--threads T] [--json] [--iters=N] [--backend cpu|cuda]\n"
               "      [--device D]\n"
               "                                     NTT, iNTT, coset NTT and the H step, both root\n"
               "                                     families (defaults: 2^16, all CPUs); cuda adds\n"
               "                                     device-resident runs and Fr/Fp mul variants\n"
               "  verify --vk FILE --proof FILE --inputs FILE\n"
               "                                     verify a bellperson proof (inputs: one\n"
               "                                     32-byte LE hex Fr per line)\n"
               "  verify-winning-post --vk FILE --vector FILE\n"
               "                                     verify a Filecoin WinningPoSt proof vector\n"
               "  circuits                           list the built-in circuits\n"
               "  setup --circuit NAME --out DIR [--threads N]\n"
               "                                     test parameters (.params/.vk) for a built-in\n"
               "                                     circuit from random toxic waste\n"
               "  prove --params DIR --circuit NAME [--backend auto|cpu|cuda] [--threads N]\n"
               "        [--mode full|pce] [--repeat K] [--proof OUT] [--public OUT] [--check] [--no-verify] [--json]\n"
               "        [--params-checked]\n"
               "                                     prove a built-in circuit, print phase timings\n"
               "  prove --zkey FILE --wtns FILE --proof OUT.json --public OUT.json [--threads N]\n"
               "        [--check --r1cs FILE] [--unchecked-subgroup] [--backend cpu|auto] [--json]\n"
               "                                     snarkjs prover (same proof as `snarkjs groth16\n"
               "                                     prove`), phase timings; exit 1: unsatisfied\n"
               "  verify-snarkjs --vk verification_key.json --proof proof.json --public public.json\n"
               "                                     verify a snarkjs proof\n"
               "  export-vk-snarkjs --zkey FILE --out verification_key.json\n"
               "                                     snarkjs verification key of a .zkey\n"
               "  msm --group g1|g2 --log-n N [--threads T] [--accum auto|xyzz|affine|both]\n"
               "      [--scalars random|binary] [--op msm|batch-add] [--density PCT] [--window C]\n"
               "      [--iters N] [--json]       CPU MSM / bitmap batch addition (min/median/max)\n"
               "  synth-only --circuit NAME[:ARG] --mode full|witness|pce|keygen [--repeat K]\n"
               "             [--threads T] [--seed S] [--json]\n"
               "                                     circuit synthesis alone: counts, time per\n"
               "                                     repeat, constraints/s, memory high-water mark\n"
               "exit codes: 0 ok/valid, 1 invalid proof, 2 usage or input error\n");
}

static int parse_bench_opts(int argc, char **argv, bench_opts *o)
{
    memset(o, 0, sizeof *o);
    o->iters = 15;
    o->warmup = 2;
    const char *env = getenv("CUZK_BENCH_ITERS");
    if (env)
        o->iters = (unsigned)strtoul(env, NULL, 10);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--json") == 0)
            o->json = true;
        else if (strncmp(a, "--iters=", 8) == 0)
            o->iters = (unsigned)strtoul(a + 8, NULL, 10);
        else if (strncmp(a, "--warmup=", 9) == 0)
            o->warmup = (unsigned)strtoul(a + 9, NULL, 10);
        else if (strncmp(a, "--filter=", 9) == 0)
            o->filter = a + 9;
        else {
            fprintf(stderr, "cuzk-bench: unknown option %s\n", a);
            return -1;
        }
    }
    if (o->iters == 0)
        o->iters = 1;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(cmd, "info") == 0)
        return cmd_info(argc - 2, argv + 2);
    if (strcmp(cmd, "verify") == 0)
        return cmd_verify(argc - 2, argv + 2);
    if (strcmp(cmd, "verify-winning-post") == 0)
        return cmd_verify_winning_post(argc - 2, argv + 2);
    if (strcmp(cmd, "verify-snarkjs") == 0)
        return cmd_verify_snarkjs(argc - 2, argv + 2);
    if (strcmp(cmd, "export-vk-snarkjs") == 0)
        return cmd_export_vk_snarkjs(argc - 2, argv + 2);
    if (strcmp(cmd, "circuits") == 0)
        return cmd_list_circuits(argc - 2, argv + 2);
    if (strcmp(cmd, "setup") == 0)
        return cmd_setup(argc - 2, argv + 2);
    if (strcmp(cmd, "prove") == 0) {
        /* snarkjs files (--zkey) or bellperson parameters of a built-in circuit (--params). */
        for (int i = 2; i < argc; i++)
            if (strcmp(argv[i], "--zkey") == 0)
                return cmd_prove_zkey(argc - 2, argv + 2);
        return cmd_prove_params(argc - 2, argv + 2);
    }
    if (strcmp(cmd, "synth-only") == 0) {
        int cmd_synth_only(int argc, char **argv); /* cmd_synth.c */
        return cmd_synth_only(argc - 2, argv + 2);
    }
    if (strcmp(cmd, "msm") == 0)
        return bench_msm_main(argc - 2, argv + 2);
    if (strcmp(cmd, "ntt") == 0)
        return bench_ntt_main(argc - 2, argv + 2);
    int (*bench)(const bench_opts *) = NULL;
    if (strcmp(cmd, "field") == 0)
        bench = bench_field_main;
    else if (strcmp(cmd, "curve") == 0)
        bench = bench_curve_main;
    else if (strcmp(cmd, "pairing") == 0)
        bench = bench_pairing_main;
    if (bench) {
        bench_opts o;
        if (parse_bench_opts(argc - 2, argv + 2, &o) != 0)
            return 2;
        int rc = bench(&o);
        /* Groth16 verification is reported with the pairing figures it is made of. */
        if (rc == 0 && bench == bench_pairing_main)
            rc = bench_groth16_main(&o);
        return rc;
    }
    fprintf(stderr, "cuzk-bench: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
}
