/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_COMMON_FILE_H
#define CUZK_COMMON_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"

/* Reads the whole file at |path| (at most |max| bytes, else CUZK_ERR_FORMAT) into a buffer from
 * cuzk_alloc; the caller frees it with cuzk_free(*buf). */
cuzk_status cuzk_read_file(const char *path, uint8_t **buf, size_t *len,
                           size_t max) CUZK_WARN_UNUSED_RESULT;

/* Reads exactly |len| bytes at offset |off| of |fd| (pread, retried on EINTR and on partial
 * reads). Returns 0, or an errno value; a file that ends first gives EOVERFLOW (it is shorter than
 * its reader was told). For arithmetic tasks that cannot fail with a message of their own. */
int cuzk__pread_all(int fd, void *dst, size_t len, uint64_t off);
/* Why cuzk__pread_all returned |e|, for a message ("the file ends before them ..." or strerror). */
const char *cuzk__pread_error(int e);

/* mkdir -p; what it creates gets mode 0700 (existing directories are left as they are).
 * Returns CUZK_OK, IO or NOMEM. */
cuzk_status cuzk__make_dirs(const char *dir) CUZK_WARN_UNUSED_RESULT;

#endif
