/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_FILECOIN_BINCODE_H
#define CUZK_FILECOIN_BINCODE_H

/*
 * Internal: bincode 1.x primitives as rust-fil-proofs writes vanilla proofs (filecoin-circuits.md
 * 7.2: little-endian fixed-width integers, u64 length prefixes, 32-byte domains), shared by the
 * PoSt and SnapDeals vanilla-proof readers and writers.
 */

#include "cuzk/field.h"
#include "cuzk/status.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A bounded cursor; |where| prefixes every message ("PoSt vanilla proof 2", "SnapDeals partition
 * 1, challenge 7"): its owner keeps it current. */
typedef struct {
    const uint8_t *p;
    size_t left;
    char where[96];
} cuzk__bin_reader;

/* cuzk_fail(st, "<where>: <fmt ...>"); returns |st|. */
cuzk_status cuzk__bin_fail(const cuzk__bin_reader *r, cuzk_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Each reads one value and advances; CUZK_ERR_FORMAT "truncated in <what>" when too few bytes
 * are left (nothing consumed). */
cuzk_status cuzk__bin_u64(cuzk__bin_reader *r, uint64_t *v, const char *what);
cuzk_status cuzk__bin_u32(cuzk__bin_reader *r, uint32_t *v, const char *what);
/* A 32-byte domain read as Fr: CUZK_ERR_NOT_CANONICAL unless below r. |raw| (may be NULL) gets
 * the bytes. */
cuzk_status cuzk__bin_fr(cuzk__bin_reader *r, cuzk_fr_t *v, uint8_t raw[32], const char *what);
/* A u64 length prefix that must equal |want| (CUZK_ERR_FORMAT "<n> <what>, the shape has
 * <want>"). */
cuzk_status cuzk__bin_len(cuzk__bin_reader *r, uint64_t want, const char *what);

/* A growing buffer; an allocation failure sets |nomem| and later puts do nothing (the caller
 * checks once at the end and frees |p|). */
typedef struct {
    uint8_t *p;
    size_t len, cap;
    bool nomem;
} cuzk__bin_writer;

void cuzk__bin_put(cuzk__bin_writer *w, const void *src, size_t n);
void cuzk__bin_put_u64(cuzk__bin_writer *w, uint64_t v);
void cuzk__bin_put_u32(cuzk__bin_writer *w, uint32_t v);
void cuzk__bin_put_fr(cuzk__bin_writer *w, const cuzk_fr_t *v);

/* One MerkleProof (filecoin-circuits.md 7.2) of |depth| levels |arities| (leaves first) whose
 * last |variant| levels are paths of their own (0 Single, 1 Sub, 2 Top); Single carries root and
 * leaf before its path, the others after. Reads the siblings into |sib| (path_len of them), the
 * leaf index from the per-level positions; |tree| names the tree in messages. CUZK_ERR_FORMAT
 * for another variant, a level count or sibling count off the shape, a position >= its arity. */
cuzk_status cuzk__bin_merkle(cuzk__bin_reader *r, const size_t *arities, size_t depth,
                             unsigned variant, cuzk_fr_t *sib, cuzk_fr_t *root, cuzk_fr_t *leaf,
                             uint64_t *index, const char *tree) CUZK_WARN_UNUSED_RESULT;
/* The inverse: leaf |index|'s proof with those siblings. */
void cuzk__bin_put_merkle(cuzk__bin_writer *w, const size_t *arities, size_t depth,
                          unsigned variant, const cuzk_fr_t *sib, const cuzk_fr_t *root,
                          const cuzk_fr_t *leaf, uint64_t index);

#endif
