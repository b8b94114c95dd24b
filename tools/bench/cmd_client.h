/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_BENCH_CMD_CLIENT_H
#define CUZK_BENCH_CMD_CLIENT_H

/* Shared pieces of the daemon client commands (cmd_client_*.c). Exit codes: 0 ok, 1 proof
 * failed / cancelled / timed out / invalid, 2 usage, connection or RPC error. */

#include "client.h"
#include "cuzk/groth16.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define CLI_OK 0
#define CLI_FAIL 1
#define CLI_ERR 2

/* ---- options every client command takes ---------------------------------------------------- */

typedef struct {
    const char *cmd;  /* for messages */
    const char *addr; /* --addr, else client_default_addr() */
    char addr_buf[512];
    bool json;
    uint64_t deadline_ms; /* --deadline-ms: gRPC deadline of each call; 0 = none */
} cli_common;

void cli_common_init(cli_common *c, const char *cmd, uint64_t default_deadline_ms);
/* Option parsers: 1 = argv[*i] (and its value) consumed, 0 = not theirs, -1 = bad (message
 * printed). */
int cli_common_opt(cli_common *c, int argc, char **argv, int *i);
/* The value after argv[*i] (advancing *i); NULL with a message when missing. */
const char *cli_value(const char *cmd, int argc, char **argv, int *i);
bool cli_u64(const char *cmd, const char *flag, const char *s, uint64_t *out);
int cli_unknown(const char *cmd, const char *arg);
/* Opens the channel; on failure prints why and returns false. */
bool cli_connect(const cli_common *c, bench_client **out);
/* Prints a failed RPC (stderr; also a JSON object on stdout with --json) and returns CLI_ERR. */
int cli_rpc_error(const cli_common *c, const char *method, const rpc_status *st);

double cli_now_ms(void);
/* |x| rounded to 3 decimals (JSON output without float noise). */
double cli_r3(double x);
/* "12.3 MiB" style. */
const char *cli_bytes(char *buf, size_t n, uint64_t bytes);
/* Writes |len| bytes to |path| through a temporary name (nothing left behind on failure). */
bool cli_write_file(const char *cmd, const char *path, const void *data, size_t len);

/* ---- proof requests (single, submit, batch) ------------------------------------------------ */

typedef struct {
    const char *circuit; /* --circuit; "demo" when neither it nor --type is given */
    int kind;            /* cuzk.v1 ProofKind from --type */
    const char *type_name;
    int priority; /* cuzk.v1 Priority; 0 = the kind's default */
    const char *request_id;
    bool have_seed;
    uint64_t seed;
    uint32_t partitions;
    const char *wtns_path, *c1_path, *vanilla_path;
    uint64_t registered_proof, sector_num, miner_id, sector_size;
    uint32_t partition_index;
    uint8_t randomness[32], comm_r_old[32], comm_r_new[32], comm_d_new[32];
    bool have_comm_r_old, have_comm_r_new, have_comm_d_new;
    bool no_verify;
    const char *proof_out, *public_out;
    /* Loaded by prove_opts_load. */
    uint8_t *witness;
    size_t witness_len;
    uint8_t *vanilla; /* PoRep C1 file */
    size_t vanilla_len;
    ProtobufCBinaryData *vproofs; /* PoSt / SnapDeals vanilla proofs */
    size_t n_vproofs;
    uint8_t *vproof_store;
} prove_opts;

void prove_opts_init(prove_opts *o);
int prove_opts_opt(prove_opts *o, const char *cmd, int argc, char **argv, int *i);
/* Checks combinations and reads the input files; false after a message. */
bool prove_opts_load(prove_opts *o, const char *cmd);
void prove_opts_clear(prove_opts *o);
/* Fills |req| (pointing into |o| and |seed_buf|) for proof number |index| of a run: the seed
 * advances by index * partitions so that every proof has its own inputs, and a request id gets
 * "-<index>" appended when |suffix_buf| is given. */
void prove_opts_request(const prove_opts *o, Cuzk__V1__SubmitProofRequest *req, unsigned index,
                        uint8_t seed_buf[8], char *suffix_buf, size_t suffix_len);
/* One-line help for the shared flags. */
extern const char prove_opts_usage[];

/* ---- client-side verification -------------------------------------------------------------- */

typedef enum { VERDICT_SKIPPED = 0, VERDICT_VALID, VERDICT_INVALID, VERDICT_ERROR } verdict_state;

typedef struct {
    verdict_state state;
    unsigned valid, total; /* partitions */
    double ms;
    char why[320];
} verdict;

/* Verifying keys fetched with GetCircuitInfo, one per circuit, shared by threads. Entries are
 * never replaced while the cache lives, so a key handed out stays valid without the lock. */
typedef struct {
    char circuit[128];
    cuzk_groth16_vk *vk; /* NULL: fetching failed, see st / err */
    rpc_status st;
    char err[256];
} vk_entry;

#define VK_SLOTS 8
typedef struct {
    pthread_mutex_t mu;
    vk_entry e[VK_SLOTS];
} vk_cache;

void vk_cache_init(vk_cache *vc);
void vk_cache_clear(vk_cache *vc);
/* Checks every partition of a COMPLETED result with cuzk_groth16_verify. */
void verdict_check(verdict *v, vk_cache *vc, bench_client *c, const cli_common *cc,
                   const Cuzk__V1__AwaitProofResponse *r);
const char *verdict_name(verdict_state s);

/* ---- results -------------------------------------------------------------------------------- */

const char *job_status_name(int status);
/* Prints a proof result (text or JSON) and returns the exit code it implies. */
int print_proof_result(const cli_common *cc, const Cuzk__V1__AwaitProofResponse *r,
                       const verdict *v, double wall_ms);
/* Writes the proof and the public inputs (verify --inputs format) when asked. */
bool save_proof_outputs(const prove_opts *o, const char *cmd,
                        const Cuzk__V1__AwaitProofResponse *r);

/* ---- progress (only when stdout and stderr are terminals) ------------------------------------ */

bool progress_wanted(void);
typedef struct {
    double t0;
    unsigned frame;
    const char *label;
    bool shown;
} spinner;
void spinner_start(spinner *s, const char *label);
void spinner_tick(void *arg); /* a client_tick_fn */
void spinner_clear(spinner *s);
void progress_bar(unsigned done, unsigned total, unsigned failed, double elapsed_ms);
void progress_clear(void);

#endif
