/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#include "daemon/log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static atomic_int log_level = CUZK_LOG_INFO;

void cuzk__log_set_level(cuzk_log_level level)
{
    atomic_store(&log_level, (int)level);
}

bool cuzk__log_enabled(cuzk_log_level level)
{
    return (int)level <= atomic_load(&log_level);
}

const char *cuzk__log_level_name(cuzk_log_level level)
{
    static const char *const names[] = {"ERROR", "WARN", "INFO", "DEBUG"};
    return (unsigned)level < 4 ? names[level] : "?";
}

void cuzk__log(cuzk_log_level level, const char *fmt, ...)
{
    if (!cuzk__log_enabled(level))
        return;
    char line[2048];
    struct timespec ts;
    struct tm tm;
    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    int n = snprintf(line, sizeof line, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ %s ",
                     tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
                     tm.tm_sec, ts.tv_nsec / 1000000, cuzk__log_level_name(level));
    if (n < 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    int m = vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
    va_end(ap);
    size_t len = (size_t)n + (m < 0 ? 0 : (size_t)m);
    if (len > sizeof line - 2)
        len = sizeof line - 2; /* truncated: keep the newline */
    /* One event = one line: control characters in messages (client strings) become spaces. */
    for (size_t i = (size_t)n; i < len; i++)
        if ((unsigned char)line[i] < 0x20)
            line[i] = ' ';
    line[len++] = '\n';
    int saved = errno;
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(STDERR_FILENO, line + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        off += (size_t)w;
    }
    errno = saved;
}
