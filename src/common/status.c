/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#include "cuzk/status.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static _Thread_local char last_error[512];

const char *cuzk_status_name(cuzk_status s)
{
    switch (s) {
#define CUZK_STATUS_NAME_(name, val, text)                                                         \
    case CUZK_##name:                                                                              \
        return "CUZK_" #name;
        CUZK_STATUS_MAP(CUZK_STATUS_NAME_)
#undef CUZK_STATUS_NAME_
    }
    return "CUZK_UNKNOWN";
}

const char *cuzk_status_str(cuzk_status s)
{
    switch (s) {
#define CUZK_STATUS_TEXT_(name, val, text)                                                         \
    case CUZK_##name:                                                                              \
        return text;
        CUZK_STATUS_MAP(CUZK_STATUS_TEXT_)
#undef CUZK_STATUS_TEXT_
    }
    return "unknown status";
}

const char *cuzk_last_error(void)
{
    return last_error;
}

cuzk_status cuzk_fail(cuzk_status s, const char *fmt, ...)
{
    /* Format into a copy first: callers often wrap the previous message as an argument. */
    char tmp[sizeof last_error];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    memcpy(last_error, tmp, sizeof tmp);
    return s;
}
