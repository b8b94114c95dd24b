/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_DAEMON_LOG_H
#define CUZK_DAEMON_LOG_H

/*
 * Daemon log lines on stderr: `2026-11-30T14:00:00.123Z INFO message`, UTC with milliseconds.
 * Each line is formatted in full first and written with one write(2), so lines from different
 * threads never interleave and nothing sits in a stdio buffer when the process dies.
 */

#include <stdbool.h>

typedef enum {
    CUZK_LOG_ERROR = 0,
    CUZK_LOG_WARN = 1,
    CUZK_LOG_INFO = 2,
    CUZK_LOG_DEBUG = 3,
} cuzk_log_level;

/* Lines above |level| are dropped. Default INFO. */
void cuzk__log_set_level(cuzk_log_level level);
bool cuzk__log_enabled(cuzk_log_level level);
/* "ERROR", "WARN", "INFO", "DEBUG". */
const char *cuzk__log_level_name(cuzk_log_level level);

void cuzk__log(cuzk_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define cuzk__log_error(...) cuzk__log(CUZK_LOG_ERROR, __VA_ARGS__)
#define cuzk__log_warn(...) cuzk__log(CUZK_LOG_WARN, __VA_ARGS__)
#define cuzk__log_info(...) cuzk__log(CUZK_LOG_INFO, __VA_ARGS__)
#define cuzk__log_debug(...) cuzk__log(CUZK_LOG_DEBUG, __VA_ARGS__)

#endif
