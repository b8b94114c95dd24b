/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#include "daemon/addr.h"

#include <stdio.h>
#include <string.h>

static cuzk_status parse_unix(cuzk_listen_addr *out, const char *text, const char *path)
{
    size_t n = strlen(path);
    if (n == 0)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "listen address '%s': empty socket path", text);
    if (n >= sizeof out->path)
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "listen address '%s': socket path is %zu bytes; a unix socket path "
                         "holds at most %zu", text, n, sizeof out->path - 1);
    if (path[n - 1] == '/')
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "listen address '%s': names a directory", text);
    out->is_unix = true;
    memcpy(out->path, path, n + 1);
    snprintf(out->target, sizeof out->target, "unix:%s", path);
    snprintf(out->display, sizeof out->display, "unix://%s", path);
    return CUZK_OK;
}

static bool parse_port(const char *s, int *port)
{
    if (!*s || strlen(s) > 5)
        return false;
    int v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return false;
        v = v * 10 + (*s - '0');
    }
    if (v > 65535)
        return false;
    *port = v;
    return true;
}

cuzk_status cuzk__addr_parse(cuzk_listen_addr *out, const char *text)
{
    memset(out, 0, sizeof *out);
    if (!text || !*text)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "empty listen address");
    for (const char *p = text; *p; p++)
        if ((unsigned char)*p <= ' ' || *p == 0x7f)
            return cuzk_fail(CUZK_ERR_INVALID_ARG,
                             "listen address '%s': contains white space or a control character",
                             text);
    if (strncmp(text, "unix://", 7) == 0)
        return parse_unix(out, text, text + 7);
    if (strncmp(text, "unix:", 5) == 0)
        return parse_unix(out, text, text + 5);
    if (strstr(text, "://") || strncmp(text, "unix-abstract:", 14) == 0 ||
        strncmp(text, "dns:", 4) == 0)
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "listen address '%s': use unix:///path or host:port", text);
    if (strlen(text) > 255)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "listen address '%.40s...': too long", text);

    char host[260];
    const char *port_s;
    const char *colon = strrchr(text, ':');
    if (text[0] == '[') {
        const char *close = strchr(text, ']');
        if (!close || close[1] != ':' || close == text + 1)
            return cuzk_fail(CUZK_ERR_INVALID_ARG,
                             "listen address '%s': IPv6 needs the form [addr]:port", text);
        memcpy(host, text, (size_t)(close - text) + 1);
        host[close - text + 1] = '\0';
        port_s = close + 2;
    } else if (!colon) {
        snprintf(host, sizeof host, "127.0.0.1"); /* a bare port: loopback only */
        port_s = text;
    } else {
        if (strchr(text, ':') != colon)
            return cuzk_fail(CUZK_ERR_INVALID_ARG,
                             "listen address '%s': write IPv6 addresses as [addr]:port", text);
        size_t hl = (size_t)(colon - text);
        if (hl == 0) {
            snprintf(host, sizeof host, "127.0.0.1");
        } else {
            memcpy(host, text, hl);
            host[hl] = '\0';
        }
        port_s = colon + 1;
    }
    if (!parse_port(port_s, &out->port))
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "listen address '%s': port must be a number from 0 to 65535", text);
    snprintf(out->target, sizeof out->target, "%s:%d", host, out->port);
    snprintf(out->display, sizeof out->display, "%s:%d", host, out->port);
    return CUZK_OK;
}

bool cuzk__addr_is_local(const cuzk_listen_addr *a)
{
    if (a->is_unix)
        return true;
    return strncmp(a->target, "127.", 4) == 0 || strncmp(a->target, "[::1]:", 6) == 0 ||
           strncmp(a->target, "localhost:", 10) == 0;
}
