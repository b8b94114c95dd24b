/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_COMMON_VERIFY_H
#define CUZK_COMMON_VERIFY_H

/* Internal invariant checks, compiled in only with -DCUZK_VERIFY (make VERIFY=1); the test
 * suite runs both builds. A failed check names the condition and aborts: it is a bug in cuzk,
 * never a reaction to bad input (bad input gets a status). */
#ifdef CUZK_VERIFY
#include <stdio.h>
#include <stdlib.h>
#define CUZK_VERIFY_CHECK(cond)                                                                    \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: internal invariant failed: %s\n", __FILE__, __LINE__, #cond);  \
            abort();                                                                               \
        }                                                                                          \
    } while (0)
#else
#define CUZK_VERIFY_CHECK(cond) ((void)0)
#endif

#endif
