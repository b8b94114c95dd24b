/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The record of point sets found in their subgroups (include/cuzk/check_cache.h). */
#include "cuzk/check_cache.h"
#include "cuzk/alloc.h"
#include "common/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HEADER "# cuzk checked points v1\n"
#define MAX_RECORD ((off_t)64 << 20) /* ~600,000 entries; a bigger file is not ours */

struct cuzk_check_cache {
    char *path;
};

const char *cuzk_subgroups_name(cuzk_subgroups s)
{
    return s == CUZK_SUBGROUPS_CHECKED          ? "checked"
           : s == CUZK_SUBGROUPS_CHECKED_BEFORE ? "checked-before"
                                                : "not-checked";
}

cuzk_status cuzk_check_cache_default_path(char *out, size_t cap)
{
    const char *env = getenv("CUZK_CHECK_CACHE");
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int n;
    if (env && *env) {
        if (strcmp(env, "off") == 0)
            return cuzk_fail(CUZK_ERR_NOT_FOUND, "CUZK_CHECK_CACHE=off");
        n = snprintf(out, cap, "%s", env);
    } else if (xdg && *xdg == '/') { /* the XDG rule: a relative value is ignored */
        n = snprintf(out, cap, "%s/cuzk/checked-points", xdg);
    } else if (home && *home) {
        n = snprintf(out, cap, "%s/.cache/cuzk/checked-points", home);
    } else {
        return cuzk_fail(CUZK_ERR_NOT_FOUND, "neither CUZK_CHECK_CACHE, XDG_CACHE_HOME nor HOME "
                                             "is set");
    }
    if (n < 0 || (size_t)n >= cap)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "check cache path too long");
    return CUZK_OK;
}

/* Owned by us and writable by nobody else: the condition for trusting what it says. */
static cuzk_status owned_safely(const struct stat *st, const char *what, const char *path)
{
    if (st->st_uid != geteuid())
        return cuzk_fail(CUZK_ERR_IO, "%s %s belongs to uid %u, not to this user", what, path,
                         (unsigned)st->st_uid);
    if (st->st_mode & (S_IWGRP | S_IWOTH))
        return cuzk_fail(CUZK_ERR_IO, "%s %s may be written by others (mode %03o)", what, path,
                         (unsigned)(st->st_mode & 0777));
    return CUZK_OK;
}

/* The directory part of |path| ("." for a bare name) in |out|. */
static void dir_of(char *out, size_t cap, const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(out, cap, ".");
    else if (slash == path)
        snprintf(out, cap, "/");
    else
        snprintf(out, cap, "%.*s", (int)(slash - path), path);
}

static cuzk_status check_dir(const char *dir)
{
    struct stat st;
    if (lstat(dir, &st) != 0)
        return cuzk_fail(CUZK_ERR_IO, "check cache directory %s: %s", dir, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return cuzk_fail(CUZK_ERR_IO, "check cache directory %s is not a directory", dir);
    return owned_safely(&st, "check cache directory", dir);
}

/* Opens the record with |flags| and checks what was opened; -1 with the status in *st (a record
 * that does not exist yet is CUZK_ERR_NOT_FOUND when not creating it). */
static int open_record(const char *path, int flags, cuzk_status *st)
{
    int fd = open(path, flags | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        *st = cuzk_fail(errno == ENOENT ? CUZK_ERR_NOT_FOUND : CUZK_ERR_IO,
                        "check cache %s: %s", path,
                        errno == ELOOP ? "is a symbolic link" : strerror(errno));
        return -1;
    }
    struct stat s;
    if (fstat(fd, &s) != 0 || !S_ISREG(s.st_mode)) {
        close(fd);
        *st = cuzk_fail(CUZK_ERR_IO, "check cache %s is not a regular file", path);
        return -1;
    }
    if ((*st = owned_safely(&s, "check cache", path)) != CUZK_OK) {
        close(fd);
        return -1;
    }
    if (s.st_size > MAX_RECORD) {
        close(fd);
        *st = cuzk_fail(CUZK_ERR_IO, "check cache %s is %lld bytes, more than a record holds",
                        path, (long long)s.st_size);
        return -1;
    }
    *st = CUZK_OK;
    return fd;
}

cuzk_status cuzk_check_cache_open(cuzk_check_cache **out, const char *path)
{
    *out = NULL;
    char def[4096], dir[4096];
    cuzk_status s;
    bool is_default = !path;
    if (is_default) {
        if ((s = cuzk_check_cache_default_path(def, sizeof def)) != CUZK_OK)
            return s;
        path = def;
        /* Only the default's directories are created: a path the user names must exist. */
        is_default = !getenv("CUZK_CHECK_CACHE") || !*getenv("CUZK_CHECK_CACHE");
    }
    if (!*path || strlen(path) >= sizeof dir)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "check cache path empty or too long");
    dir_of(dir, sizeof dir, path);
    if (is_default && (s = cuzk__make_dirs(dir)) != CUZK_OK)
        return s;
    if ((s = check_dir(dir)) != CUZK_OK)
        return s;
    int fd = open_record(path, O_RDONLY, &s);
    if (fd >= 0)
        close(fd);
    else if (s != CUZK_ERR_NOT_FOUND)
        return s;
    cuzk_check_cache *c = cuzk_alloc(sizeof *c);
    if (!c || !(c->path = cuzk_strdup(path))) {
        cuzk_free(c);
        return cuzk_fail(CUZK_ERR_NOMEM, "check cache: out of memory");
    }
    *out = c;
    return CUZK_OK;
}

void cuzk_check_cache_close(cuzk_check_cache *c)
{
    if (!c)
        return;
    cuzk_free(c->path);
    cuzk_free(c);
}

const char *cuzk_check_cache_path(const cuzk_check_cache *c)
{
    return c->path;
}

static void to_hex(char out[2 * CUZK_CHECK_CACHE_DIGEST_BYTES + 1], const uint8_t *d)
{
    static const char hx[] = "0123456789abcdef";
    for (int i = 0; i < CUZK_CHECK_CACHE_DIGEST_BYTES; i++) {
        out[2 * i] = hx[d[i] >> 4];
        out[2 * i + 1] = hx[d[i] & 15];
    }
    out[2 * CUZK_CHECK_CACHE_DIGEST_BYTES] = 0;
}

bool cuzk_check_cache_has(const cuzk_check_cache *c,
                          const uint8_t digest[CUZK_CHECK_CACHE_DIGEST_BYTES])
{
    char dir[4096];
    cuzk_status s;
    dir_of(dir, sizeof dir, c->path);
    if (check_dir(dir) != CUZK_OK)
        return false;
    int fd = open_record(c->path, O_RDONLY, &s);
    if (fd < 0)
        return false;
    FILE *f = fdopen(fd, "r");
    if (!f) {
        close(fd);
        return false;
    }
    char hex[2 * CUZK_CHECK_CACHE_DIGEST_BYTES + 1], line[512];
    to_hex(hex, digest);
    bool found = false, line_start = true;
    while (!found && fgets(line, sizeof line, f)) {
        /* Only the start of a line counts: the rest of an overlong note is skipped. */
        found = line_start && strncmp(line, hex, 2 * CUZK_CHECK_CACHE_DIGEST_BYTES) == 0 &&
                line[2 * CUZK_CHECK_CACHE_DIGEST_BYTES] == ' ';
        line_start = strchr(line, '\n') != NULL;
    }
    fclose(f);
    return found;
}

cuzk_status cuzk_check_cache_add(cuzk_check_cache *c,
                                 const uint8_t digest[CUZK_CHECK_CACHE_DIGEST_BYTES],
                                 const char *what)
{
    char dir[4096], hex[2 * CUZK_CHECK_CACHE_DIGEST_BYTES + 1], line[512];
    cuzk_status s;
    dir_of(dir, sizeof dir, c->path);
    if ((s = check_dir(dir)) != CUZK_OK)
        return s;
    int fd = open_record(c->path, O_WRONLY | O_APPEND | O_CREAT, &s);
    if (fd < 0)
        return s;
    struct stat st;
    bool fresh = fstat(fd, &st) == 0 && st.st_size == 0;
    to_hex(hex, digest);
    int n = snprintf(line, sizeof line, "%s%s %.400s\n", fresh ? HEADER : "", hex,
                     what ? what : "");
    if (n < 0 || (size_t)n >= sizeof line)
        n = (int)sizeof line - 1, line[n - 1] = '\n';
    for (char *p = line + (fresh ? sizeof HEADER - 1 : 0) + 2 * CUZK_CHECK_CACHE_DIGEST_BYTES;
         p < line + n - 1; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
    ssize_t w = write(fd, line, (size_t)n);
    int err = errno;
    if (close(fd) != 0 && w == n)
        return cuzk_fail(CUZK_ERR_IO, "check cache %s: %s", c->path, strerror(errno));
    if (w != n)
        return cuzk_fail(CUZK_ERR_IO, "check cache %s: %s", c->path,
                         w < 0 ? strerror(err) : "short write");
    return CUZK_OK;
}
