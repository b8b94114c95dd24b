/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#include "daemon/unix_socket.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "cuzk/alloc.h"
#include "daemon/addr.h"
#include "daemon/log.h"

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

cuzk_status cuzk__unix_socket_prepare(const char *path)
{
    char dir[CUZK_ADDR_UNIX_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = '\0';
        cuzk_status st = cuzk__make_dirs(dir);
        if (st != CUZK_OK)
            return st;
        struct stat sb;
        if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
            return cuzk_fail(CUZK_ERR_IO, "%s is not a directory", dir);
        /* A directory others can write to and that lacks the sticky bit lets them swap the
         * socket for their own: refuse it. */
        if (sb.st_uid != geteuid() && (sb.st_mode & (S_IWGRP | S_IWOTH)) &&
            !(sb.st_mode & S_ISVTX))
            return cuzk_fail(CUZK_ERR_IO,
                             "%s belongs to uid %u and others can write to it; choose another "
                             "socket directory", dir, (unsigned)sb.st_uid);
    }
    struct stat sb;
    if (lstat(path, &sb) != 0) {
        if (errno == ENOENT)
            return CUZK_OK;
        return cuzk_fail(CUZK_ERR_IO, "cannot stat %s: %s", path, strerror(errno));
    }
    if (!S_ISSOCK(sb.st_mode))
        return cuzk_fail(CUZK_ERR_IO, "%s exists and is not a socket; refusing to replace it",
                         path);
    /* gRPC would silently unlink a socket in use: find out whether someone answers on it. */
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return cuzk_fail(CUZK_ERR_IO, "socket: %s", strerror(errno));
    struct sockaddr_un sa;
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
    int rc = connect(fd, (struct sockaddr *)&sa, sizeof sa);
    int e = errno;
    close(fd);
    if (rc == 0)
        return cuzk_fail(CUZK_ERR_UNAVAILABLE,
                         "another process is serving on %s (is a cuzk daemon running?)", path);
    if (e != ECONNREFUSED && e != ENOENT)
        return cuzk_fail(CUZK_ERR_IO, "cannot check the existing socket %s: %s", path,
                         strerror(e));
    if (unlink(path) != 0 && errno != ENOENT)
        return cuzk_fail(CUZK_ERR_IO, "cannot remove the stale socket %s: %s", path,
                         strerror(errno));
    cuzk__log_info("removed stale socket %s", path);
    return CUZK_OK;
}
