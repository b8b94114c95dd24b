/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#include "common/file.h"
#include "cuzk/alloc.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

cuzk_status cuzk_read_file(const char *path, uint8_t **buf, size_t *len, size_t max)
{
    *buf = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return cuzk_fail(CUZK_ERR_IO, "cannot open %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        return cuzk_fail(CUZK_ERR_IO, "%s is not a regular file", path);
    }
    if ((uint64_t)st.st_size > max) {
        fclose(f);
        return cuzk_fail(CUZK_ERR_FORMAT, "%s is %lld bytes, more than the %zu allowed", path,
                         (long long)st.st_size, max);
    }
    size_t n = (size_t)st.st_size;
    uint8_t *p = cuzk_alloc(n);
    if (!p) {
        fclose(f);
        return cuzk_fail(CUZK_ERR_NOMEM, "cannot allocate %zu bytes for %s", n, path);
    }
    if (n && fread(p, 1, n, f) != n) {
        cuzk_free(p);
        fclose(f);
        return cuzk_fail(CUZK_ERR_IO, "short read on %s", path);
    }
    fclose(f);
    *buf = p;
    *len = n;
    return CUZK_OK;
}
