/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * PoRep labels: native create_label and the create_label gadget. Written from rust-fil-proofs
 * storage-proofs-porep src/stacked/vanilla/create_label and src/stacked/circuit/create_label.rs
 * (filecoin-circuits.md 3.5, 4.2; facts only, no code copied).
 */
#include "filecoin/porep_circuit.h"

#include "gadgets/multipack.h"
#include "gadgets/sha256.h"

#include <string.h>

/* Expanded parent j of 37 (TOTAL_PARENTS): layer 1 repeats the 6 DRG parents six times then
 * takes parent 0; later layers repeat the 14 parents twice then take the first 9. */
static size_t expanded(uint32_t layer, size_t j)
{
    if (layer == 1)
        return j < 36 ? j % CUZK_FIL_POREP_DRG_PARENTS : 0;
    return j % CUZK_FIL_POREP_PARENTS;
}

/* The label message: 64 header bytes and 37 parents = 1,248 bytes = 19.5 blocks. */
#define LABEL_BYTES ((2 + CUZK_FIL_POREP_TOTAL_PARENTS) * 32)

void cuzk_fil_porep_create_label(cuzk_fr_t *out, const cuzk_fr_t *replica_id, uint32_t layer,
                                 uint64_t node, const cuzk_fr_t parents[CUZK_FIL_POREP_PARENTS])
{
    /* Message and SHA-256 padding: 0x80, zeros, the bit length as u64 BE (20 blocks). */
    uint8_t msg[20 * 64];
    memset(msg, 0, sizeof msg);
    cuzk_fr_to_bytes_le(msg, replica_id);
    for (int i = 0; i < 4; i++)
        msg[32 + i] = (uint8_t)(layer >> (24 - 8 * i));
    for (int i = 0; i < 8; i++)
        msg[36 + i] = (uint8_t)(node >> (56 - 8 * i));
    /* Node 0 has no parents: create_label hashes its 64 header bytes alone (2 blocks). */
    size_t len = node ? LABEL_BYTES : 64, blocks = node ? sizeof msg / 64 : 2;
    for (size_t j = 0; node && j < CUZK_FIL_POREP_TOTAL_PARENTS; j++)
        cuzk_fr_to_bytes_le(msg + 64 + 32 * j, &parents[expanded(layer, j)]);
    msg[len] = 0x80;
    uint64_t bits = (uint64_t)len * 8;
    for (int i = 0; i < 8; i++)
        msg[64 * blocks - 1 - i] = (uint8_t)(bits >> (8 * i));
    uint32_t st[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                      0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    for (size_t b = 0; b < blocks; b++)
        cuzk_sha256_compress_native(st, msg + 64 * b);
    uint8_t md[32];
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < 4; k++)
            md[4 * i + k] = (uint8_t)(st[i] >> (24 - 8 * k));
    md[31] &= 0x3f; /* truncated to 254 bits: below r */
    /* Below 2^254 < r, so the conversion cannot fail; zero keeps the result defined. */
    if (cuzk_fr_from_bytes_le(out, md) != CUZK_OK)
        cuzk_fr_set_zero(out);
}

cuzk_status cuzk__fil_porep_create_label_circuit(cuzk_cs *cs, cuzk_num *out,
                                                 const cuzk_bool replica_id_bits[256],
                                                 const cuzk_bool *const *parents, uint32_t layer,
                                                 const cuzk_bool node_bits[64], cuzk_bool *msg)
{
    /* id | layer u32 BE | node u64 BE | constant zeros to 512 bits | 37 parents. */
    memcpy(msg, replica_id_bits, 256 * sizeof *msg);
    for (size_t j = 0; j < 32; j++)
        msg[256 + j] = cuzk_bool_const((layer >> (31 - j)) & 1);
    for (size_t j = 0; j < 64; j++)
        msg[288 + j] = node_bits[63 - j];
    for (size_t j = 352; j < 512; j++)
        msg[j] = cuzk_bool_const(false);
    for (size_t j = 0; j < CUZK_FIL_POREP_TOTAL_PARENTS; j++)
        memcpy(&msg[512 + 256 * j], parents[j], 256 * sizeof *msg);

    cuzk_bool digest[256], le[CUZK_FR_CAPACITY];
    cuzk_cs_push_ns(cs, "hash");
    cuzk_status s = cuzk_sha256(cs, digest, msg, CUZK_FIL_POREP_LABEL_BITS);
    cuzk_cs_pop_ns(cs);
    CUZK_TRY(s);
    /* reverse_bit_numbering: the digest bytes read least significant bit first. */
    for (size_t j = 0; j < CUZK_FR_CAPACITY; j++)
        le[j] = digest[(j & ~(size_t)7) + (7 - (j & 7))];
    cuzk_cs_push_ns(cs, "result_num");
    s = cuzk_multipack_pack_bits(cs, out, le, CUZK_FR_CAPACITY);
    cuzk_cs_pop_ns(cs);
    return s;
}
