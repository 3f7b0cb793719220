/* The hash that gives a name its record id, shared by the runtime
 * (lib/core/file_table.c, which assigns ids) and the reader (util/reader/reader.c,
 * which recomputes the ids that a NAMES region leaves out).  Both must
 * agree bit for bit, so there is one definition, inline, here.
 *
 * xxHash is used header-only (XXH_INLINE_ALL): each includer gets private
 * static copies, and the reader library needs no extra link dependency. */
#ifndef IOLENS_PATH_HASH_H
#define IOLENS_PATH_HASH_H

#include <stddef.h>
#include <stdint.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "iolens/log_format.h"

/* Moves a hash off the reserved ids (and 0); the result has high bits set,
 * so it cannot be reserved itself. */
static inline uint64_t iolens_id_avoid_reserved(uint64_t h)
{
    return h <= IOLENS_ID_RESERVED_MAX ? h ^ 0x9e3779b97f4a7c15ULL : h;
}

/* The id a name gets when no other name holds it already: its XXH3
 * 64-bit hash, moved off the reserved ids. */
static inline uint64_t iolens_name_id(const char *name, size_t len)
{
    return iolens_id_avoid_reserved(XXH3_64bits(name, len));
}

#endif
