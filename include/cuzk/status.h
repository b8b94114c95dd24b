/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_STATUS_H
#define CUZK_STATUS_H

/* One table for every status code and its default text (libuv habit). */
#define CUZK_STATUS_MAP(X)                                                                         \
    X(OK, 0, "ok")                                                                                 \
    X(ERR_INVALID_ARG, 1, "invalid argument")                                                      \
    X(ERR_NOMEM, 2, "out of memory")                                                               \
    X(ERR_IO, 3, "input/output error")                                                             \
    X(ERR_FORMAT, 4, "malformed input")                                                            \
    X(ERR_NOT_CANONICAL, 5, "field element not canonical")                                         \
    X(ERR_NOT_ON_CURVE, 6, "point not on curve")                                                   \
    X(ERR_NOT_IN_SUBGROUP, 7, "point not in prime-order subgroup")                                 \
    X(ERR_BAD_ENCODING, 8, "bad point encoding")                                                   \
    X(ERR_VERIFY_FAILED, 9, "proof did not verify")                                                \
    X(ERR_UNSUPPORTED, 10, "not supported")                                                        \
    X(ERR_NO_DEVICE, 11, "no GPU device")                                                          \
    X(ERR_INTERNAL, 12, "internal error")                                                          \
    X(ERR_DEVICE, 13, "GPU device error")                                                          \
    X(ERR_UNSATISFIED, 14, "witness does not satisfy the constraints")                             \
    X(ERR_CANCELLED, 15, "cancelled")                                                              \
    X(ERR_TIMEOUT, 16, "timed out")                                                                \
    X(ERR_NOT_FOUND, 17, "not found")                                                              \
    X(ERR_UNAVAILABLE, 18, "service unavailable")

typedef enum {
#define CUZK_STATUS_ENUM_(name, val, text) CUZK_##name = val,
    CUZK_STATUS_MAP(CUZK_STATUS_ENUM_)
#undef CUZK_STATUS_ENUM_
} cuzk_status;

#if defined(__GNUC__)
#define CUZK_WARN_UNUSED_RESULT __attribute__((warn_unused_result))
#else
#define CUZK_WARN_UNUSED_RESULT
#endif

/* Short constant name of |s| ("CUZK_ERR_FORMAT"). */
const char *cuzk_status_name(cuzk_status s);
/* Default human text of |s|; detail travels through cuzk_last_error(). */
const char *cuzk_status_str(cuzk_status s);

/* Thread-local detail message of the most recent failure on this thread. */
const char *cuzk_last_error(void);

/* Record a detail message (printf style) for this thread and return |s|. */
cuzk_status cuzk_fail(cuzk_status s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
