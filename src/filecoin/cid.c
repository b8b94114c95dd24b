/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Sealed-sector commitment CIDs (go-fil-commcid: CIDv1, codec 0xf102, multihash 0xb401). */
#include "cuzk/filecoin.h"

#include <string.h>

#define CID_VERSION 1
#define CODEC_FIL_COMMITMENT_SEALED 0xf102
#define MH_POSEIDON_BLS12_381_A2_FC1 0xb401

/* Unsigned LEB128 varint as used by multiformats (at most 9 bytes, minimal encoding). */
static bool read_varint(uint64_t *v, const uint8_t *b, size_t len, size_t *pos)
{
    uint64_t x = 0;
    for (unsigned i = 0; i < 9; i++) {
        if (*pos >= len)
            return false;
        uint8_t c = b[(*pos)++];
        x |= (uint64_t)(c & 0x7f) << (7 * i);
        if (!(c & 0x80)) {
            if (c == 0 && i > 0)
                return false; /* not minimal */
            *v = x;
            return true;
        }
    }
    return false;
}

cuzk_status cuzk_fil_comm_r_from_cid(uint8_t comm_r[32], const uint8_t *cid, size_t len)
{
    size_t pos = 0;
    uint64_t version, codec, mh, dlen;
    if (!read_varint(&version, cid, len, &pos) || !read_varint(&codec, cid, len, &pos) ||
        !read_varint(&mh, cid, len, &pos) || !read_varint(&dlen, cid, len, &pos))
        return cuzk_fail(CUZK_ERR_FORMAT, "sealed CID: truncated or malformed varint header");
    if (version != CID_VERSION)
        return cuzk_fail(CUZK_ERR_FORMAT, "sealed CID: version %llu, expected 1",
                         (unsigned long long)version);
    if (codec != CODEC_FIL_COMMITMENT_SEALED)
        return cuzk_fail(CUZK_ERR_FORMAT,
                         "sealed CID: codec 0x%llx is not fil-commitment-sealed (0xf102)",
                         (unsigned long long)codec);
    if (mh != MH_POSEIDON_BLS12_381_A2_FC1)
        return cuzk_fail(CUZK_ERR_FORMAT,
                         "sealed CID: multihash 0x%llx is not poseidon-bls12_381-a2-fc1 (0xb401)",
                         (unsigned long long)mh);
    if (dlen != 32 || len - pos != 32)
        return cuzk_fail(CUZK_ERR_FORMAT, "sealed CID: digest is %zu bytes (declared %llu), expected 32",
                         len - pos, (unsigned long long)dlen);
    cuzk_fr_t t;
    if (cuzk_fr_from_bytes_le(&t, cid + pos) != CUZK_OK)
        return cuzk_fail(CUZK_ERR_FORMAT, "sealed CID: comm_r is not a canonical field element");
    memcpy(comm_r, cid + pos, 32);
    return CUZK_OK;
}

cuzk_status cuzk_fil_cid_decode_string(uint8_t *out, size_t max, size_t *len, const char *s)
{
    /* RFC 4648 base32, lower case, no padding, behind the multibase prefix 'b'. */
    *len = 0;
    if (s[0] != 'b')
        return cuzk_fail(CUZK_ERR_FORMAT, "CID string: only multibase base32 ('b...') is supported");
    uint64_t acc = 0;
    unsigned bits = 0;
    size_t n = 0;
    for (const char *c = s + 1; *c; c++) {
        unsigned v;
        if (*c >= 'a' && *c <= 'z')
            v = (unsigned)(*c - 'a');
        else if (*c >= '2' && *c <= '7')
            v = (unsigned)(*c - '2') + 26;
        else
            return cuzk_fail(CUZK_ERR_FORMAT, "CID string: '%c' is not a base32 character", *c);
        acc = (acc << 5) | v;
        bits += 5;
        if (bits >= 8) {
            if (n >= max)
                return cuzk_fail(CUZK_ERR_FORMAT, "CID string: longer than %zu bytes", max);
            out[n++] = (uint8_t)(acc >> (bits - 8));
            bits -= 8;
        }
    }
    if (bits >= 5 || (acc & ((1u << bits) - 1)) != 0)
        return cuzk_fail(CUZK_ERR_FORMAT, "CID string: trailing bits are not zero");
    *len = n;
    return CUZK_OK;
}
