/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* ChaCha block function (D. J. Bernstein, "ChaCha, a variant of Salsa20", 2008) and
 * rand_chacha's ChaCha8Rng word stream. */
#include "filecoin/chacha8.h"

#include <string.h>

static inline uint32_t rotl32(uint32_t v, unsigned c)
{
    return (v << c) | (v >> (32 - c));
}

static inline uint32_t load_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

#define CHACHA_QR(a, b, c, d)                                                                      \
    do {                                                                                           \
        a += b;                                                                                    \
        d = rotl32(d ^ a, 16);                                                                     \
        c += d;                                                                                    \
        b = rotl32(b ^ c, 12);                                                                     \
        a += b;                                                                                    \
        d = rotl32(d ^ a, 8);                                                                      \
        c += d;                                                                                    \
        b = rotl32(b ^ c, 7);                                                                      \
    } while (0)

void cuzk__chacha_block(uint32_t out[16], const uint8_t key[32], uint64_t counter, uint64_t nonce,
                        unsigned rounds)
{
    uint32_t in[16];
    in[0] = 0x61707865; /* "expa" */
    in[1] = 0x3320646e; /* "nd 3" */
    in[2] = 0x79622d32; /* "2-by" */
    in[3] = 0x6b206574; /* "te k" */
    for (int i = 0; i < 8; i++)
        in[4 + i] = load_le32(key + 4 * i);
    in[12] = (uint32_t)counter;
    in[13] = (uint32_t)(counter >> 32);
    in[14] = (uint32_t)nonce;
    in[15] = (uint32_t)(nonce >> 32);
    uint32_t x[16];
    memcpy(x, in, sizeof x);
    /* A double round is a column round then a diagonal round. */
    for (unsigned r = 0; r < rounds; r += 2) {
        CHACHA_QR(x[0], x[4], x[8], x[12]);
        CHACHA_QR(x[1], x[5], x[9], x[13]);
        CHACHA_QR(x[2], x[6], x[10], x[14]);
        CHACHA_QR(x[3], x[7], x[11], x[15]);
        CHACHA_QR(x[0], x[5], x[10], x[15]);
        CHACHA_QR(x[1], x[6], x[11], x[12]);
        CHACHA_QR(x[2], x[7], x[8], x[13]);
        CHACHA_QR(x[3], x[4], x[9], x[14]);
    }
    for (int i = 0; i < 16; i++)
        out[i] = x[i] + in[i];
}

void cuzk__chacha8_rng_init(cuzk__chacha8_rng *rng, const uint8_t seed[32])
{
    memcpy(rng->key, seed, 32);
    rng->counter = 0;
    rng->pos = 16;
}

uint32_t cuzk__chacha8_rng_next_u32(cuzk__chacha8_rng *rng)
{
    if (rng->pos == 16) {
        cuzk__chacha_block(rng->buf, rng->key, rng->counter++, 0, 8);
        rng->pos = 0;
    }
    return rng->buf[rng->pos++];
}

uint64_t cuzk__chacha8_rng_next_u64(cuzk__chacha8_rng *rng)
{
    /* rand_core BlockRng::next_u64: two consecutive words, the first is the low half, also
     * across a buffer refill. */
    uint64_t lo = cuzk__chacha8_rng_next_u32(rng);
    uint64_t hi = cuzk__chacha8_rng_next_u32(rng);
    return lo | hi << 32;
}
