/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk-bench: benchmarks and in-process tools. */
#include "bench.h"
#include "commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/cpu.h"

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
               "        [--params-checked [--check-cache FILE | --no-check-cache]]\n"
               "                                     prove a built-in circuit, print phase timings\n"
               "  prove --zkey FILE --wtns FILE --proof OUT.json --public OUT.json [--threads N]\n"
               "        [--check --r1cs FILE] [--unchecked-subgroup] [--backend auto|cpu|cuda] [--repeat K]\n"
               "        [--check-cache FILE | --no-check-cache] [--json]\n"
               "                                     snarkjs prover (same proof as `snarkjs groth16\n"
               "                                     prove`), phase timings; exit 1: unsatisfied.\n"
               "                                     Subgroup checks are done once per key: see\n"
               "                                     the README (check cache)\n"
               "  verify-snarkjs --vk verification_key.json --proof proof.json --public public.json\n"
               "                                     verify a snarkjs proof\n"
               "  export-vk-snarkjs --zkey FILE --out verification_key.json\n"
               "                                     snarkjs verification key of a .zkey\n"
               "  check-key (--zkey FILE | --params FILE) [--check-cache FILE | --no-check-cache]\n"
               "        [--threads N] [--json]\n"
               "                                     every check of a key (curve, subgroups, vk)\n"
               "                                     and nothing else; records it in the cache\n"
               "  gen-ptau --power P --out FILE [--seed HEX64] [--threads N]\n"
               "                                     prepared snarkjs powers of tau (bls12381) from\n"
               "                                     printed random toxic waste: TESTS/BENCHMARKS ONLY\n"
               "  gen-vanilla --post-proof N --out FILE [--seed N] [--sectors K] [--inputs FILE]\n"
               "                                     synthetic PoSt vanilla proofs (for single\n"
               "                                     --vanilla) and their randomness and inputs\n"
               "  gen-vanilla --update-proof N --out FILE [--seed N] [--inputs FILE]\n"
               "                                     synthetic SnapDeals partition proofs and the\n"
               "                                     comms and inputs they go with\n"
               "  msm --group g1|g2 --log-n N [--threads T] [--accum auto|xyzz|affine|both]\n"
               "      [--scalars random|binary] [--op msm|batch-add] [--density PCT] [--window C]\n"
               "      [--iters N] [--json]       CPU MSM / bitmap batch addition (min/median/max)\n"
               "  synth-only --circuit NAME[:ARG] --mode full|witness|pce|keygen [--repeat K]\n"
               "             [--threads T] [--seed S] [--json]\n"
               "                                     circuit synthesis alone: counts, time per\n"
               "                                     repeat, constraints/s, memory high-water mark\n"
               "  porep-shape [--log-domain 27] [--constraints N] [--aux N] [--a-density PCT]\n"
               "      [--b-density PCT] [--binary-frac F] [--backend cuda|cpu] [--scale S]\n"
               "      [--mode prove|resident|both] [--compare] [--repeat K] [--json]\n"
               "                                     one PoRep-shaped partition on random data,\n"
               "                                     prover phase times (GPU/CPU on the same inputs)\n"
               "daemon client (--addr unix:///PATH|HOST:PORT, default $CUZK_ADDR or the daemon's\n"
               "default socket; --json; --deadline-ms MS):\n"
               "  single [flags below]               prove through the daemon (Prove), verify every\n"
               "                                     partition client-side, phase timings\n"
               "%s"
               "  submit [single's flags]            queue a proof (SubmitProof): job id, position\n"
               "  await --job ID [--timeout-ms T] [--no-verify] [--proof-out F] [--public-out F]\n"
               "                                     wait for a job (AwaitProof); exit 1 unless done\n"
               "  batch -c COUNT -j CONCURRENCY [single's flags]\n"
               "                                     COUNT proofs over J connections: latency,\n"
               "                                     throughput, client verification\n"
               "  status | metrics                   daemon status / Prometheus text\n"
               "  preload|evict --circuit ID         move a parameter set into / out of memory\n"
               "  cancel --job ID                    cancel a queued or running job\n"
               "  circuit-info --circuit ID [--vk-out FILE]\n"
               "                                     a circuit's key and counts (GetCircuitInfo)\n"
               "exit codes: 0 ok/valid, 1 invalid proof (client commands: also failed,\n"
               "cancelled or timed-out jobs), 2 usage, input, connection or RPC error\n",
            prove_opts_usage);
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

CUZK_CPU_GUARD("cuzk-bench")

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
    if (strcmp(cmd, "check-key") == 0)
        return cmd_check_key(argc - 2, argv + 2);
    if (strcmp(cmd, "gen-ptau") == 0)
        return cmd_gen_ptau(argc - 2, argv + 2);
    if (strcmp(cmd, "gen-vanilla") == 0)
        return cmd_gen_vanilla(argc - 2, argv + 2);
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
    static const struct {
        const char *name;
        int (*fn)(int, char **);
    } client_cmds[] = {
        {"single", cmd_client_single},   {"submit", cmd_client_submit},
        {"await", cmd_client_await},     {"batch", cmd_client_batch},
        {"status", cmd_client_status},   {"preload", cmd_client_preload},
        {"evict", cmd_client_evict},     {"cancel", cmd_client_cancel},
        {"metrics", cmd_client_metrics}, {"circuit-info", cmd_client_circuit_info},
    };
    for (size_t i = 0; i < sizeof client_cmds / sizeof client_cmds[0]; i++)
        if (strcmp(cmd, client_cmds[i].name) == 0)
            return client_cmds[i].fn(argc - 2, argv + 2);
    if (strcmp(cmd, "synth-only") == 0) {
        int cmd_synth_only(int argc, char **argv); /* cmd_synth.c */
        return cmd_synth_only(argc - 2, argv + 2);
    }
    if (strcmp(cmd, "porep-shape") == 0)
        return cmd_porep_shape(argc - 2, argv + 2);
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
