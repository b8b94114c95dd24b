/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* SHA-256 circuit (bellperson src/gadgets/sha256.rs) and the native compression function. */
#include "gadgets/sha256.h"

#include "cuzk/alloc.h"

#include <string.h>

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static const uint32_t IV[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                               0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

void cuzk_sha256_iv(cuzk_u32 iv[8])
{
    for (int i = 0; i < 8; i++)
        cuzk_u32_constant(&iv[i], IV[i]);
}

/* bellperson's Maybe: a word either known, or a list of operands whose sum is deferred. */
typedef struct {
    bool deferred;
    cuzk_u32 concrete;
    cuzk_u32 ops[10];
    size_t n;
} maybe_u32;

static cuzk_status maybe_compute(cuzk_cs *cs, cuzk_multieq *m, cuzk_u32 *out, maybe_u32 *x,
                                 const cuzk_u32 *other, const char *ns)
{
    if (!x->deferred) {
        *out = x->concrete;
        return CUZK_OK;
    }
    if (other)
        x->ops[x->n++] = *other;
    cuzk_cs_push_ns(cs, ns);
    cuzk_status s = cuzk_u32_addmany(cs, m, out, x->ops, x->n);
    cuzk_cs_pop_ns(cs);
    return s;
}

/* s = rotr(x, r1) ^ rotr(x, r2) ^ (shift ? shr(x, r3) : rotr(x, r3)) */
static cuzk_status sigma(cuzk_cs *cs, cuzk_u32 *out, const cuzk_u32 *x, unsigned r1, unsigned r2,
                         unsigned r3, bool shift, const char *name)
{
    cuzk_u32 s, t;
    cuzk_u32_rotr(&s, x, r1);
    cuzk_u32_rotr(&t, x, r2);
    cuzk_cs_push_nsf(cs, "first xor for %s", name);
    cuzk_status st = cuzk_u32_xor(cs, &s, &s, &t);
    cuzk_cs_pop_ns(cs);
    CUZK_TRY(st);
    if (shift)
        cuzk_u32_shr(&t, x, r3);
    else
        cuzk_u32_rotr(&t, x, r3);
    cuzk_cs_push_nsf(cs, "second xor for %s", name);
    st = cuzk_u32_xor(cs, out, &s, &t);
    cuzk_cs_pop_ns(cs);
    return st;
}

typedef struct {
    cuzk_u32 w[64];
    maybe_u32 a, e;
    cuzk_u32 b, c, d, f, g, h;
} sha_state;

static cuzk_status compression(cuzk_cs *cs, cuzk_multieq *m, sha_state *st, cuzk_u32 out[8],
                               const cuzk_bool input[512], const cuzk_u32 cur[8])
{
    cuzk_u32 *w = st->w;
    for (int i = 0; i < 16; i++)
        cuzk_u32_from_bits_be(&w[i], input + 32 * i);
    for (int i = 16; i < 64; i++) {
        cuzk_cs_push_nsf(cs, "w extension %d", i);
        cuzk_u32 ops[4];
        ops[0] = w[i - 16];
        CUZK_TRY(sigma(cs, &ops[1], &w[i - 15], 7, 18, 3, true, "s0"));
        ops[2] = w[i - 7];
        CUZK_TRY(sigma(cs, &ops[3], &w[i - 2], 17, 19, 10, true, "s1"));
        cuzk_cs_push_ns(cs, "computation of w[i]");
        CUZK_TRY(cuzk_u32_addmany(cs, m, &w[i], ops, 4));
        cuzk_cs_pop_ns(cs);
        cuzk_cs_pop_ns(cs);
    }

    st->a.deferred = false;
    st->a.concrete = cur[0];
    st->b = cur[1];
    st->c = cur[2];
    st->d = cur[3];
    st->e.deferred = false;
    st->e.concrete = cur[4];
    st->f = cur[5];
    st->g = cur[6];
    st->h = cur[7];

    for (int i = 0; i < 64; i++) {
        cuzk_cs_push_nsf(cs, "compression round %d", i);
        cuzk_u32 new_e, new_a, s1, ch, s0, maj;
        CUZK_TRY(maybe_compute(cs, m, &new_e, &st->e, NULL, "deferred e computation"));
        CUZK_TRY(sigma(cs, &s1, &new_e, 6, 11, 25, false, "s1"));
        cuzk_cs_push_ns(cs, "ch");
        CUZK_TRY(cuzk_u32_sha256_ch(cs, &ch, &new_e, &st->f, &st->g));
        cuzk_cs_pop_ns(cs);
        /* temp1 = h + S1 + ch + k[i] + w[i] */
        cuzk_u32 temp1[5];
        temp1[0] = st->h;
        temp1[1] = s1;
        temp1[2] = ch;
        cuzk_u32_constant(&temp1[3], K[i]);
        temp1[4] = w[i];
        CUZK_TRY(maybe_compute(cs, m, &new_a, &st->a, NULL, "deferred a computation"));
        CUZK_TRY(sigma(cs, &s0, &new_a, 2, 13, 22, false, "s0"));
        cuzk_cs_push_ns(cs, "maj");
        CUZK_TRY(cuzk_u32_sha256_maj(cs, &maj, &new_a, &st->b, &st->c));
        cuzk_cs_pop_ns(cs);

        st->h = st->g;
        st->g = st->f;
        st->f = new_e;
        st->e.deferred = true;
        memcpy(st->e.ops, temp1, sizeof temp1);
        st->e.ops[5] = st->d;
        st->e.n = 6;
        st->d = st->c;
        st->c = st->b;
        st->b = new_a;
        st->a.deferred = true;
        memcpy(st->a.ops, temp1, sizeof temp1);
        st->a.ops[5] = s0;
        st->a.ops[6] = maj;
        st->a.n = 7;
        cuzk_cs_pop_ns(cs);
    }

    cuzk_u32 res[8], two[2];
    CUZK_TRY(maybe_compute(cs, m, &res[0], &st->a, &cur[0], "deferred h0 computation"));
    const cuzk_u32 *regs[3] = {&st->b, &st->c, &st->d};
    for (int k = 0; k < 3; k++) {
        two[0] = cur[1 + k];
        two[1] = *regs[k];
        cuzk_cs_push_nsf(cs, "new h%d", 1 + k);
        CUZK_TRY(cuzk_u32_addmany(cs, m, &res[1 + k], two, 2));
        cuzk_cs_pop_ns(cs);
    }
    CUZK_TRY(maybe_compute(cs, m, &res[4], &st->e, &cur[4], "deferred h4 computation"));
    const cuzk_u32 *regs2[3] = {&st->f, &st->g, &st->h};
    for (int k = 0; k < 3; k++) {
        two[0] = cur[5 + k];
        two[1] = *regs2[k];
        cuzk_cs_push_nsf(cs, "new h%d", 5 + k);
        CUZK_TRY(cuzk_u32_addmany(cs, m, &res[5 + k], two, 2));
        cuzk_cs_pop_ns(cs);
    }
    memcpy(out, res, sizeof res);
    return CUZK_OK;
}

cuzk_status cuzk_sha256_compression(cuzk_cs *cs, cuzk_u32 out[8], const cuzk_bool input[512],
                                    const cuzk_u32 cur[8])
{
    /* The working state is ~40 KiB: keep it off the stack of deep callers. */
    sha_state *st = cuzk_alloc(sizeof *st);
    if (!st)
        return cuzk_fail(CUZK_ERR_NOMEM, "sha256: out of memory");
    cuzk_u32 cur_copy[8];
    memcpy(cur_copy, cur, sizeof cur_copy);
    cuzk_multieq m;
    cuzk_multieq_init(&m, cs);
    cuzk_status s = compression(cs, &m, st, out, input, cur_copy);
    /* MultiEq's Drop flushes the last batch, after the final additions. */
    cuzk_status s2 = cuzk_multieq_finish(&m);
    cuzk_free(st);
    return s != CUZK_OK ? s : s2;
}

static void state_to_bits(cuzk_bool out[256], const cuzk_u32 st[8])
{
    for (int i = 0; i < 8; i++)
        cuzk_u32_into_bits_be(out + 32 * i, &st[i]);
}

cuzk_status cuzk_sha256_block_no_padding(cuzk_cs *cs, cuzk_bool out[256],
                                         const cuzk_bool input[512])
{
    cuzk_u32 st[8];
    cuzk_sha256_iv(st);
    CUZK_TRY(cuzk_sha256_compression(cs, st, input, st));
    state_to_bits(out, st);
    return CUZK_OK;
}

cuzk_status cuzk_sha256(cuzk_cs *cs, cuzk_bool out[256], const cuzk_bool *input, size_t n_bits)
{
    if (n_bits % 8)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "sha256: %zu bits is not a whole number of bytes",
                         n_bits);
    size_t padded = (n_bits + 1 + 64 + 511) / 512 * 512;
    cuzk_bool *p = cuzk_alloc_array(padded, sizeof *p);
    if (!p)
        return cuzk_fail(CUZK_ERR_NOMEM, "sha256: out of memory");
    memcpy(p, input, n_bits * sizeof *p);
    size_t k = n_bits;
    p[k++] = cuzk_bool_const(true);
    while ((k + 64) % 512)
        p[k++] = cuzk_bool_const(false);
    for (int i = 63; i >= 0; i--)
        p[k++] = cuzk_bool_const(((uint64_t)n_bits >> i) & 1);
    cuzk_u32 st[8];
    cuzk_sha256_iv(st);
    cuzk_status s = CUZK_OK;
    for (size_t b = 0; b < padded / 512 && s == CUZK_OK; b++) {
        cuzk_cs_push_nsf(cs, "block %zu", b);
        s = cuzk_sha256_compression(cs, st, p + 512 * b, st);
        cuzk_cs_pop_ns(cs);
    }
    cuzk_free(p);
    CUZK_TRY(s);
    state_to_bits(out, st);
    return CUZK_OK;
}

/* ---- native ------------------------------------------------------------------------------- */

static inline uint32_t ror(uint32_t x, unsigned n)
{
    return (x >> n) | (x << (32 - n));
}

void cuzk_sha256_compress_native(uint32_t state[8], const uint8_t block[64])
{
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)block[4 * i] << 24 | (uint32_t)block[4 * i + 1] << 16 |
               (uint32_t)block[4 * i + 2] << 8 | block[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3], e = state[4], f = state[5],
             g = state[6], h = state[7];
    for (int i = 0; i < 64; i++) {
        uint32_t S1 = ror(e, 6) ^ ror(e, 11) ^ ror(e, 25);
        uint32_t ch = (e & f) ^ (~e & g);
        uint32_t t1 = h + S1 + ch + K[i] + w[i];
        uint32_t S0 = ror(a, 2) ^ ror(a, 13) ^ ror(a, 22);
        uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
        uint32_t t2 = S0 + maj;
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
    state[4] += e;
    state[5] += f;
    state[6] += g;
    state[7] += h;
}
