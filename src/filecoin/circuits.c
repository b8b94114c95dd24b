/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Registry of built-in circuits, looked up by "NAME" or "NAME:ARG".
 *
 * Adding a circuit is one line in CUZK_CIRCUITS below:
 *     X("name", synth_function, default_arg, min_arg, max_arg, "description")
 * where synth_function has type cuzk_circuit_fn and is defined in its own file (this table
 * declares it). It receives a const cuzk_circuit_params * (arg, seed).
 */
#include "cuzk/r1cs.h"
#include "gadgets/circuit_rand.h"

#include "gadgets/multipack.h"
#include "gadgets/sha256.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define CUZK_CIRCUITS(X)                                                                           \
    X("sha256-chain", cuzk_circuit_sha256_chain, 1, 1, 1u << 20,                                   \
      "ARG chained SHA-256 compressions of one private 512-bit block from the IV; the final "      \
      "digest is multipacked into 2 public inputs")                                                \
    X("poseidon-merkle", cuzk_circuit_poseidon_merkle, 2, 1, 21,                                   \
      "public PoR of a base-8 Poseidon octree of depth ARG (src/gadgets/merkle.c): private leaf "  \
      "and path, public packed leaf index and root; 530 constraints per level + 3")                \
    X("fil-post", cuzk_circuit_fil_post, 0, 0, 14,                                                 \
      "Filecoin PoSt circuit of RegisteredPoStProof ARG (0-4 WinningPoSt 2KiB..64GiB, 5-9 "        \
      "WindowPoSt V1, 10-14 V1_2; src/filecoin/post_circuit.c) over a synthetic partition from "   \
      "the seed; the published v28 parameters' R1CS")                                              \
    X("fil-snap", cuzk_circuit_fil_snap, 0, 0, 4,                                                  \
      "Filecoin SnapDeals (EmptySectorUpdate) partition of RegisteredUpdateProof ARG (0-4 = "      \
      "2KiB..64GiB; src/filecoin/snap_circuit.c) over a synthetic partition from the seed "        \
      "(partition seed mod partitions); the published v28 parameters' R1CS")                   \
    X("fil-porep", cuzk_circuit_fil_porep, 0, 0, 19,                                               \
      "Filecoin PoRep C2 (StackedDrg) partition of RegisteredSealProof ARG (0-19; "                \
      "src/filecoin/porep_circuit.c) over a synthetic partition from the seed (synthetic parent "  \
      "indices until the graph is wired in); the published v28 parameters' R1CS")

#define CUZK_CIRCUIT_DECL_(name, fn, dflt, lo, hi, desc) cuzk_status fn(cuzk_cs *cs, const void *p);
CUZK_CIRCUITS(CUZK_CIRCUIT_DECL_)
#undef CUZK_CIRCUIT_DECL_

typedef struct {
    const char *name;
    cuzk_circuit_fn synth;
    uint64_t dflt, lo, hi;
    const char *description;
} registry_entry;

static const registry_entry registry[] = {
#define CUZK_CIRCUIT_ROW_(name, fn, dflt, lo, hi, desc) {name, fn, dflt, lo, hi, desc},
    CUZK_CIRCUITS(CUZK_CIRCUIT_ROW_)
#undef CUZK_CIRCUIT_ROW_
};

#define N_REGISTRY (sizeof registry / sizeof registry[0])

cuzk_status cuzk_circuit_find(const char *spec, cuzk_circuit *out)
{
    if (!spec || !out)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "cuzk_circuit_find: NULL argument");
    memset(out, 0, sizeof *out);
    const char *colon = strchr(spec, ':');
    size_t nlen = colon ? (size_t)(colon - spec) : strlen(spec);
    for (size_t i = 0; i < N_REGISTRY; i++) {
        const registry_entry *e = &registry[i];
        if (strlen(e->name) != nlen || strncmp(e->name, spec, nlen) != 0)
            continue;
        uint64_t arg = e->dflt;
        if (colon) {
            const char *s = colon + 1;
            char *end;
            errno = 0;
            unsigned long long v = strtoull(s, &end, 10);
            if (!*s || *end || errno || *s == '-' || *s == '+')
                return cuzk_fail(CUZK_ERR_INVALID_ARG, "circuit '%s': bad argument '%s'", e->name,
                                 s);
            arg = v;
        }
        if (arg < e->lo || arg > e->hi)
            return cuzk_fail(
                CUZK_ERR_INVALID_ARG, "circuit '%s': argument %llu outside [%llu, %llu]", e->name,
                (unsigned long long)arg, (unsigned long long)e->lo, (unsigned long long)e->hi);
        out->name = e->name;
        out->description = e->description;
        out->synth = e->synth;
        out->params.arg = arg;
        out->params.seed = 0;
        return CUZK_OK;
    }
    return cuzk_fail(CUZK_ERR_INVALID_ARG, "unknown circuit '%.*s'", (int)nlen, spec);
}

const char *cuzk_circuit_registry_name(size_t i)
{
    return i < N_REGISTRY ? registry[i].name : NULL;
}

const char *cuzk_circuit_registry_description(size_t i)
{
    return i < N_REGISTRY ? registry[i].description : NULL;
}

cuzk_status cuzk_circuit_synthesize(cuzk_cs *cs, const cuzk_circuit *circuit)
{
    if (!cs || !circuit || !circuit->synth)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "cuzk_circuit_synthesize: NULL argument");
    CUZK_TRY(circuit->synth(cs, &circuit->params));
    return cuzk_cs_finalize(cs);
}

/* ---- sha256-chain:N ------------------------------------------------------------------------ */

/*
 * Private: a 512-bit block M (derived from the seed), allocated as bits. State h_0 = IV,
 * h_{i+1} = compress(M, h_i) for i < N. Public: h_N multipacked (254 + 2 bits: 2 inputs).
 * Constraints: 512 + N compressions (25,840 for the first, from the constant IV; more for the
 * next ones, whose state is variable) + 2.
 */
cuzk_status cuzk_circuit_sha256_chain(cuzk_cs *cs, const void *p)
{
    const cuzk_circuit_params *params = p;
    uint64_t seed = params->seed;
    uint8_t block[64];
    for (int i = 0; i < 8; i++) {
        uint64_t r = cuzk__splitmix64(&seed);
        memcpy(block + 8 * i, &r, 8);
    }
    cuzk_bool bits[512];
    bool native[512];
    cuzk_multipack_bytes_to_bits(native, block, 64);
    cuzk_cs_push_ns(cs, "message");
    for (int i = 0; i < 512; i++) {
        cuzk_status s = cuzk_bit_alloc(cs, &bits[i], native[i]);
        if (s != CUZK_OK) {
            cuzk_cs_pop_ns(cs);
            return s;
        }
    }
    cuzk_cs_pop_ns(cs);
    cuzk_u32 st[8];
    cuzk_sha256_iv(st);
    for (uint64_t i = 0; i < params->arg; i++) {
        cuzk_cs_push_nsf(cs, "compression %llu", (unsigned long long)i);
        cuzk_status s = cuzk_sha256_compression(cs, st, bits, st);
        cuzk_cs_pop_ns(cs);
        CUZK_TRY(s);
    }
    cuzk_bool digest[256];
    for (int i = 0; i < 8; i++)
        cuzk_u32_into_bits_be(digest + 32 * i, &st[i]);
    cuzk_cs_push_ns(cs, "digest");
    cuzk_status s = cuzk_multipack_pack_into_inputs(cs, digest, 256);
    cuzk_cs_pop_ns(cs);
    return s;
}
