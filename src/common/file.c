/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#include "common/file.h"
#include "cuzk/alloc.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

int cuzk__pread_all(int fd, void *dst, size_t len, uint64_t off)
{
    uint8_t *d = dst;
    while (len > 0) {
        ssize_t k = pread(fd, d, len, (off_t)off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return errno ? errno : EIO;
        if (k == 0)
            return EOVERFLOW;
        d += k;
        len -= (size_t)k;
        off += (uint64_t)k;
    }
    return 0;
}

const char *cuzk__pread_error(int e)
{
    return e == EOVERFLOW ? "the file ends before them (changed after it was opened?)"
                          : strerror(e);
}

cuzk_status cuzk__make_dirs(const char *dir)
{
    size_t n = strlen(dir);
    char *buf = cuzk_alloc(n + 1);
    if (!buf)
        return cuzk_fail(CUZK_ERR_NOMEM, "out of memory");
    memcpy(buf, dir, n + 1);
    cuzk_status st = CUZK_OK;
    for (size_t i = 1; i <= n && st == CUZK_OK; i++) {
        if (buf[i] != '/' && buf[i] != '\0')
            continue;
        char saved = buf[i];
        buf[i] = '\0';
        if (mkdir(buf, 0700) != 0 && errno != EEXIST)
            st = cuzk_fail(CUZK_ERR_IO, "cannot create directory %s: %s", buf, strerror(errno));
        buf[i] = saved;
    }
    cuzk_free(buf);
    return st;
}
