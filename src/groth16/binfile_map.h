/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GROTH16_BINFILE_MAP_H
#define CUZK_GROTH16_BINFILE_MAP_H

#include <stddef.h>
#include <stdint.h>

/* The regular file at |path| (1 to |max| bytes) mapped read-only and pre-faulted in one call
 * (MAP_POPULATE), for a parser that keeps nothing of the buffer: no copy into fresh memory that
 * faults page by page. NULL when it cannot be mapped (missing, empty, too big, not a regular
 * file): the caller then reads it with cuzk_read_file, which reports the error. A file truncated
 * by someone else while it is parsed raises SIGBUS, as for any mapped parameter file. Release
 * with cuzk__unmap_file(p, *len). With |fd| non-NULL the file stays open in *|fd| (the caller
 * closes it) and the mapping is not pre-faulted: such a caller reads most of the file with
 * pread and touches little of the mapping (zkey.c says why). */
const uint8_t *cuzk__map_file(const char *path, size_t *len, size_t max, int *fd);
void cuzk__unmap_file(const uint8_t *p, size_t len);

#endif
