/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The iden3 "binfile" container shared by .zkey, .r1cs, .wtns and .ptau (formats.md 4.1;
 * iden3/binfileutils): magic, u32 version, u32 nSections, then nSections x {u32 type,
 * u64 size, body}. Sections may come in any order; the file ends exactly after the last one.
 */
#include "groth16/snarkjs_internal.h"
#include "groth16/binfile_map.h"
#include "cuzk/alloc.h"

#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

const uint64_t cuzk__bls_q[6] = {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL,
                                 0x6730d2a0f6b0f624ULL, 0x64774b84f38512bfULL,
                                 0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};
const uint64_t cuzk__bls_r[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                 0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};
const uint64_t cuzk__bn128_q[4] = {0x3c208c16d87cfd47ULL, 0x97816a916871ca8dULL,
                                   0xb85045b68181585dULL, 0x30644e72e131a029ULL};
const uint64_t cuzk__bn128_r[4] = {0x43e1f593f0000001ULL, 0x2833e84879b97091ULL,
                                   0xb85045b68181585dULL, 0x30644e72e131a029ULL};

uint32_t cuzk__le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint64_t cuzk__le64(const uint8_t *p)
{
    return (uint64_t)cuzk__le32(p) | (uint64_t)cuzk__le32(p + 4) << 32;
}

void cuzk__load_limbs(uint64_t *out, const uint8_t *in, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = cuzk__le64(in + 8 * i);
}

bool cuzk__limbs_lt(const uint64_t *a, const uint64_t *m, size_t n)
{
    for (size_t i = n; i-- > 0;)
        if (a[i] != m[i])
            return a[i] < m[i];
    return false;
}

/* Printable form of a 4-byte magic for messages. */
static void magic_str(char out[17], const uint8_t *m)
{
    bool printable = true;
    for (int i = 0; i < 4; i++)
        printable = printable && m[i] >= 0x20 && m[i] < 0x7f;
    if (printable) {
        memcpy(out, m, 4);
        out[4] = 0;
    } else {
        static const char hx[] = "0123456789abcdef";
        memcpy(out, "0x", 2);
        for (int i = 0; i < 4; i++) {
            out[2 + 2 * i] = hx[m[i] >> 4];
            out[3 + 2 * i] = hx[m[i] & 15];
        }
        out[10] = 0;
    }
}

cuzk_status cuzk__binfile_open(cuzk__binfile *bf, const uint8_t *buf, size_t len,
                               const char magic[4], uint32_t version, const char *what)
{
    memset(bf, 0, sizeof *bf);
    bf->buf = buf;
    bf->len = len;
    bf->what = what;
    if (len < 12)
        return cuzk_fail(CUZK_ERR_FORMAT,
                         "%s: the file is %zu bytes, shorter than the 12-byte binfile header", what,
                         len);
    if (memcmp(buf, magic, 4) != 0) {
        char got[17];
        magic_str(got, buf);
        return cuzk_fail(CUZK_ERR_FORMAT, "%s: bad magic '%s' at offset 0 (expected '%.4s')", what,
                         got, magic);
    }
    uint32_t v = cuzk__le32(buf + 4);
    if (v != version)
        return cuzk_fail(CUZK_ERR_UNSUPPORTED,
                         "%s: version %u at offset 4; only version %u is supported", what, v,
                         version);
    uint32_t n = cuzk__le32(buf + 8);
    /* Every section needs at least its 12-byte header: this bounds the table allocation. */
    size_t room = (len - 12) / 12;
    if (n > room)
        return cuzk_fail(CUZK_ERR_FORMAT,
                         "%s: offset 8 declares %u sections but a %zu-byte file has room for at "
                         "most %zu (truncated or corrupt)",
                         what, n, len, room);
    if (n == 0)
        return cuzk_fail(CUZK_ERR_FORMAT, "%s: offset 8 declares no sections", what);
    bf->sections = cuzk_alloc_array(n, sizeof *bf->sections);
    if (!bf->sections)
        return cuzk_fail(CUZK_ERR_NOMEM, "%s: cannot allocate a table of %u sections", what, n);
    uint64_t off = 12;
    for (uint32_t i = 0; i < n; i++) {
        if (len - off < 12) {
            cuzk__binfile_close(bf);
            return cuzk_fail(CUZK_ERR_FORMAT,
                             "%s: truncated: the header of section %u of %u at offset %llu needs "
                             "12 bytes, the file ends at %zu",
                             what, i + 1, n, (unsigned long long)off, len);
        }
        uint32_t type = cuzk__le32(buf + off);
        uint64_t size = cuzk__le64(buf + off + 4);
        uint64_t body = off + 12;
        if (size > len - body) {
            cuzk__binfile_close(bf);
            return cuzk_fail(CUZK_ERR_FORMAT,
                             "%s: truncated: section %u of %u (type %u, header at offset %llu) "
                             "declares %llu bytes but only %llu remain in the %zu-byte file",
                             what, i + 1, n, type, (unsigned long long)off,
                             (unsigned long long)size, (unsigned long long)(len - body), len);
        }
        bf->sections[i].type = type;
        bf->sections[i].offset = body;
        bf->sections[i].size = size;
        off = body + size;
    }
    bf->n_sections = n;
    if (off != len) {
        cuzk__binfile_close(bf);
        return cuzk_fail(CUZK_ERR_FORMAT,
                         "%s: %llu bytes after the last of %u sections (offset %llu, file size "
                         "%zu): wrong section count or size",
                         what, (unsigned long long)(len - off), n, (unsigned long long)off, len);
    }
    return CUZK_OK;
}

void cuzk__binfile_close(cuzk__binfile *bf)
{
    cuzk_free(bf->sections);
    bf->sections = NULL;
    bf->n_sections = 0;
}

bool cuzk__binfile_has(const cuzk__binfile *bf, uint32_t type)
{
    for (size_t i = 0; i < bf->n_sections; i++)
        if (bf->sections[i].type == type)
            return true;
    return false;
}

cuzk_status cuzk__binfile_section(const cuzk__binfile *bf, uint32_t type, const char *name,
                                  const cuzk__bin_section **out)
{
    *out = NULL;
    for (size_t i = 0; i < bf->n_sections; i++) {
        if (bf->sections[i].type != type)
            continue;
        if (*out)
            return cuzk_fail(CUZK_ERR_FORMAT,
                             "%s: section %u (%s) appears twice (bodies at offsets %llu and %llu)",
                             bf->what, type, name, (unsigned long long)(*out)->offset,
                             (unsigned long long)bf->sections[i].offset);
        *out = &bf->sections[i];
    }
    if (!*out)
        return cuzk_fail(CUZK_ERR_FORMAT, "%s: section %u (%s) is missing", bf->what, type, name);
    return CUZK_OK;
}

cuzk_status cuzk__binfile_expect_size(const cuzk__binfile *bf, const cuzk__bin_section *sec,
                                      const char *name, uint64_t want)
{
    if (sec->size != want)
        return cuzk_fail(CUZK_ERR_FORMAT,
                         "%s: section %u (%s) at offset %llu is %llu bytes; the counts imply %llu",
                         bf->what, sec->type, name, (unsigned long long)(sec->offset - 12),
                         (unsigned long long)sec->size, (unsigned long long)want);
    return CUZK_OK;
}

cuzk_status cuzk__check_prime(const cuzk__binfile *bf, uint64_t off, uint32_t n8,
                              const uint8_t *prime, const uint64_t *expect, size_t expect_limbs,
                              const char *field)
{
    if (n8 == 32 && expect_limbs != 4) {
        /* A 32-byte base field: most likely bn128 (alt_bn128), the default of circom. */
        uint64_t p[4];
        cuzk__load_limbs(p, prime, 4);
        if (memcmp(p, cuzk__bn128_q, sizeof p) == 0)
            return cuzk_fail(CUZK_ERR_UNSUPPORTED,
                             "%s: the curve is bn128 (base field prime at offset %llu); cuzk "
                             "supports only bls12381 (compile with circom --prime bls12381)",
                             bf->what, (unsigned long long)off + 4);
    }
    if (n8 != expect_limbs * 8)
        return cuzk_fail(CUZK_ERR_UNSUPPORTED,
                         "%s: field %s has n8 = %u at offset %llu; BLS12-381 needs %zu (the file "
                         "is for another curve or prime)",
                         bf->what, field, n8, (unsigned long long)off, expect_limbs * 8);
    uint64_t p[6];
    cuzk__load_limbs(p, prime, expect_limbs);
    if (memcmp(p, expect, expect_limbs * 8) != 0) {
        const char *name = "an unsupported prime";
        if (expect_limbs == 4 && memcmp(p, cuzk__bn128_r, 32) == 0)
            name = "bn128's scalar field";
        return cuzk_fail(CUZK_ERR_UNSUPPORTED,
                         "%s: the prime %s at offset %llu is %s, not BLS12-381's (cuzk supports "
                         "only bls12381: compile with circom --prime bls12381)",
                         bf->what, field, (unsigned long long)off + 4, name);
    }
    return CUZK_OK;
}

const uint8_t *cuzk__map_file(const char *path, size_t *len, size_t max, int *keep_fd)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    void *p = MAP_FAILED;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (uint64_t)st.st_size <= max) {
        *len = (size_t)st.st_size;
        p = mmap(NULL, *len, PROT_READ, MAP_PRIVATE | (keep_fd ? 0 : MAP_POPULATE), fd, 0);
    }
    if (keep_fd && p != MAP_FAILED)
        *keep_fd = fd;
    else
        close(fd);
    return p == MAP_FAILED ? NULL : p;
}

void cuzk__unmap_file(const uint8_t *p, size_t len)
{
    if (p)
        munmap((void *)p, len);
}
