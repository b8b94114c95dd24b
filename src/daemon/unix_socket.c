/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#include "daemon/unix_socket.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "common/file.h"
#include "cuzk/alloc.h"
#include "daemon/addr.h"
#include "daemon/log.h"

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
