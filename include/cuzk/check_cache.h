/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_CHECK_CACHE_H
#define CUZK_CHECK_CACHE_H

/*
 * A record of point sets already found in their prime-order subgroups, so that a key is checked
 * once, not at every load: the subgroup tests of a 2^16 snarkjs key take ~9 s on two cores
 * without AVX-512 IFMA (~1.7 s with it), against ~0.06 s for the rest of its load.
 *
 * An entry is the SHA-256 digest of exactly the bytes a reader decoded (the reader hashes a
 * private copy of each chunk and decodes that copy, so a file changed while it is read cannot
 * slip past), one line of text per entry. Whoever can write the record can make cuzk skip the
 * tests, so it is trusted only if it and its directory belong to the effective user and nobody
 * else may write them (a symbolic link is refused); otherwise opening it fails and the caller
 * checks in full. This is the trust an operator already gives the key file's own directory.
 *
 * File format: "# cuzk checked points v1" on the first line, then one line per entry:
 * 64 lowercase hex digits, a space, a free-form note (what was checked), a newline. Lines of any
 * other shape are ignored, so a torn write costs at most a re-check.
 */

#include "cuzk/status.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cuzk_check_cache cuzk_check_cache;

/* How a reader established that a key's bulk points lie in their subgroups. */
typedef enum {
    CUZK_SUBGROUPS_NOT_CHECKED = 0, /* asked not to (trusted source) */
    CUZK_SUBGROUPS_CHECKED,         /* tested at this load */
    CUZK_SUBGROUPS_CHECKED_BEFORE,  /* the same bytes were tested before: found in the cache */
} cuzk_subgroups;

/* "not-checked", "checked" or "checked-before" (status output, --json). */
const char *cuzk_subgroups_name(cuzk_subgroups s);

#define CUZK_CHECK_CACHE_DIGEST_BYTES 32

/*
 * The default record: $CUZK_CHECK_CACHE when set (the value "off" means none), else
 * $XDG_CACHE_HOME/cuzk/checked-points, else $HOME/.cache/cuzk/checked-points. Writes the path
 * into |out| (|cap| bytes). CUZK_ERR_NOT_FOUND when the environment names none (or says "off"),
 * CUZK_ERR_INVALID_ARG when the path does not fit.
 */
cuzk_status cuzk_check_cache_default_path(char *out, size_t cap) CUZK_WARN_UNUSED_RESULT;

/*
 * Opens the record at |path| (NULL: the default path), creating the missing directories of a
 * default path (mode 0700) and nothing else; the file itself is created by the first
 * cuzk_check_cache_add. Fails (CUZK_ERR_IO, with the reason) when the directory or the file is
 * not safe to trust as described above.
 */
cuzk_status cuzk_check_cache_open(cuzk_check_cache **out, const char *path) CUZK_WARN_UNUSED_RESULT;
void cuzk_check_cache_close(cuzk_check_cache *c);
const char *cuzk_check_cache_path(const cuzk_check_cache *c);

/* True if |digest| is recorded. Reads the file again at each call (other processes may have
 * added entries); a file that has become unsafe or unreadable counts as holding nothing. */
bool cuzk_check_cache_has(const cuzk_check_cache *c,
                          const uint8_t digest[CUZK_CHECK_CACHE_DIGEST_BYTES]);

/* Appends |digest| with the note |what| (control characters replaced) in one write. */
cuzk_status cuzk_check_cache_add(cuzk_check_cache *c,
                                 const uint8_t digest[CUZK_CHECK_CACHE_DIGEST_BYTES],
                                 const char *what) CUZK_WARN_UNUSED_RESULT;

#endif
