/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* bellperson .vk / .params writers; atomic (temporary file + fsync + rename). */
#include "cuzk/groth16.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool put_u32(FILE *f, size_t v)
{
    uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    return fwrite(b, 1, 4, f) == 4;
}

static bool put_g1(FILE *f, const cuzk_g1_affine_t *p)
{
    uint8_t b[96];
    cuzk_g1_serialize(b, p);
    return fwrite(b, 1, 96, f) == 96;
}

static bool put_g2(FILE *f, const cuzk_g2_affine_t *p)
{
    uint8_t b[192];
    cuzk_g2_serialize(b, p);
    return fwrite(b, 1, 192, f) == 192;
}

static bool put_vk(FILE *f, const cuzk_groth16_vk *vk)
{
    bool ok = put_g1(f, &vk->alpha_g1) && put_g1(f, &vk->beta_g1) && put_g2(f, &vk->beta_g2) &&
              put_g2(f, &vk->gamma_g2) && put_g1(f, &vk->delta_g1) && put_g2(f, &vk->delta_g2) &&
              put_u32(f, vk->ic_len);
    for (size_t i = 0; ok && i < vk->ic_len; i++)
        ok = put_g1(f, &vk->ic[i]);
    return ok;
}

static bool put_g1s(FILE *f, const cuzk_g1_affine_t *p, size_t n)
{
    bool ok = n <= UINT32_MAX && put_u32(f, n);
    for (size_t i = 0; ok && i < n; i++)
        ok = put_g1(f, &p[i]);
    return ok;
}

static cuzk_status write_atomic(const char *path, const cuzk_groth16_vk *vk,
                                const cuzk_groth16_params *p)
{
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 16);
    if (!tmp)
        return cuzk_fail(CUZK_ERR_NOMEM, "out of memory");
    snprintf(tmp, plen + 16, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        cuzk_status s = cuzk_fail(CUZK_ERR_IO, "cannot create a temporary file for %s: %s", path,
                                  strerror(errno));
        free(tmp);
        return s;
    }
    FILE *f = fdopen(fd, "wb");
    bool ok = f != NULL && put_vk(f, vk);
    if (ok && p) {
        ok = put_g1s(f, p->h, p->n_h) && put_g1s(f, p->l, p->n_l) && put_g1s(f, p->a, p->n_a) &&
             put_g1s(f, p->b_g1, p->n_b_g1) && p->n_b_g2 <= UINT32_MAX && put_u32(f, p->n_b_g2);
        for (size_t i = 0; ok && i < p->n_b_g2; i++)
            ok = put_g2(f, &p->b_g2[i]);
    }
    int err = ok ? 0 : errno;
    if (f) {
        if (fflush(f) != 0 || fsync(fileno(f)) != 0) {
            ok = false;
            err = errno;
        }
        fclose(f);
    } else {
        close(fd);
    }
    if (ok && rename(tmp, path) != 0) {
        ok = false;
        err = errno;
    }
    if (!ok) {
        unlink(tmp);
        free(tmp);
        return cuzk_fail(CUZK_ERR_IO, "cannot write %s: %s", path, strerror(err));
    }
    free(tmp);
    return CUZK_OK;
}

cuzk_status cuzk_groth16_vk_write(const cuzk_groth16_vk *vk, const char *path)
{
    return write_atomic(path, vk, NULL);
}

cuzk_status cuzk_groth16_params_write(const cuzk_groth16_params *p, const char *path)
{
    return write_atomic(path, p->vk, p);
}
