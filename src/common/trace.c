/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#include "common/trace.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool trace_on;
static pthread_once_t trace_once = PTHREAD_ONCE_INIT;

static void trace_init(void)
{
    const char *v = getenv("CUZK_TIMING");
    trace_on = v && strcmp(v, "1") == 0;
}

bool cuzk__trace_enabled(void)
{
    pthread_once(&trace_once, trace_init);
    return trace_on;
}

/* Appends |s| JSON-escaped (truncating at the buffer end); returns the new length. */
static size_t put_str(char *buf, size_t len, size_t cap, const char *s)
{
    for (; s && *s && len + 7 < cap; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            buf[len++] = '\\';
            buf[len++] = (char)c;
        } else if (c < 0x20) {
            len += (size_t)snprintf(buf + len, cap - len, "\\u%04x", c);
        } else {
            buf[len++] = (char)c;
        }
    }
    return len;
}

/* snprintf that never moves |*n| past |cap| - 1. */
static void put_fmt(char *buf, size_t *n, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void put_fmt(char *buf, size_t *n, size_t cap, const char *fmt, ...)
{
    if (*n + 1 >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *n, cap - *n, fmt, ap);
    va_end(ap);
    if (w > 0)
        *n = *n + (size_t)w < cap ? *n + (size_t)w : cap - 1;
}

void cuzk__trace_phase(const char *job, uint32_t partition, const char *phase, double ms,
                       const char *backend)
{
    if (!cuzk__trace_enabled())
        return;
    char buf[1024];
    size_t cap = sizeof buf, n = 0;
    put_fmt(buf, &n, cap, "{\"job\":\"");
    n = put_str(buf, n, cap - 32, job);
    put_fmt(buf, &n, cap, "\",\"partition\":%u,\"phase\":\"", partition);
    n = put_str(buf, n, cap - 32, phase);
    put_fmt(buf, &n, cap, "\",\"ms\":%.3f,\"backend\":\"", ms);
    n = put_str(buf, n, cap - 8, backend);
    put_fmt(buf, &n, cap, "\"}\n");
    /* One write: a short write to stderr is not retried, so that lines stay whole or absent. */
    ssize_t w;
    do
        w = write(STDERR_FILENO, buf, n);
    while (w < 0 && errno == EINTR);
}
