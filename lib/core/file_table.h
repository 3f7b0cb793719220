/* The record table: one entry per distinct file, keyed by a 64-bit hash
 * of its normalized absolute path.  Entries hold the name and one pointer
 * per layer to that layer's record, all allocated from the budget.
 *
 * Lookups and inserts are lock-free (open addressing with CAS on the
 * slot), so the table never takes a global lock.  Two different names
 * with the same hash get different ids: the id of the later one is
 * rehashed until it is unique.  When the budget cannot hold another entry
 * the caller gets NULL and folds the file into <other files>. */
#ifndef IOLENS_FILE_TABLE_H
#define IOLENS_FILE_TABLE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "iolens/log_format.h"   /* enum iolens_layer, from IOLENS_LAYERS */

struct iolens_file {
    uint64_t id;                         /* unique within the table */
    int64_t fs_block_size;               /* from the mount table, for alignment */
    _Atomic(void *) layer_rec[IOLENS_NLAYERS];
    uint32_t name_len;
    char name[];                         /* NUL-terminated */
};

/* Creates the table with room for max_files entries, allocated from the
 * budget.  Also creates the reserved entries (<other files>, <STDIN>,
 * <STDOUT>, <STDERR>).  Returns 0 or -1. */
int iolens_file_table_init(unsigned max_files);
/* The same with the entry limit the runtime uses: one entry per
 * IOLENS_BYTES_PER_FILE bytes of the budget (at least IOLENS_MIN_FILES).
 * The table and the folded-files sketch are then scaled allocations, and
 * the limit a floor, of the budget's "needed" figure (budget.h). */
int iolens_file_table_init_for_budget(void);
/* Rough cost of one traced file at rest (entry, name, parked POSIX
 * record: layers/park_pool.h): sizes the record table so that the budget,
 * not the table, is what fills first. */
#define IOLENS_BYTES_PER_FILE 384u
#define IOLENS_MIN_FILES 16u

/* Hash of a normalized path (never one of the reserved ids). */
uint64_t iolens_path_hash(const char *path, size_t len);

/* Finds or creates the entry of a normalized absolute path.  Returns NULL
 * if it is new and the budget (or the table) is full. */
struct iolens_file *iolens_file_get(const char *path, size_t len);
/* Finds an existing entry; NULL if absent.  Never allocates. */
struct iolens_file *iolens_file_find(const char *path, size_t len);

/* Reserved entries. */
struct iolens_file *iolens_file_other(void);
struct iolens_file *iolens_file_std(int fd);   /* 0, 1 or 2 */

/* Returns the layer record of file, allocating rec_size zeroed bytes from
 * the budget on first use and running init(rec, file) once.  Returns NULL
 * when the budget is full. */
void *iolens_file_layer_record(struct iolens_file *file, enum iolens_layer layer,
                               size_t rec_size, void (*init)(void *rec, struct iolens_file *file));

/* For a layer that makes its records itself (layers/park_pool.h): the
 * bytes of one, for the folded files' estimate (iolens_file_folded_bytes). */
void iolens_file_note_record_size(enum iolens_layer layer, size_t rec_size);

/* Calls fn for every entry (reserved ones included), in table order. */
void iolens_file_foreach(void (*fn)(struct iolens_file *file, void *arg), void *arg);
/* A walk that can stop and go on later: the entry in the first used
 * slot at or after *cursor, with *cursor set past it; NULL at the end of
 * the table (*cursor is then 0 again).  Reserved entries are not in the
 * slots. */
struct iolens_file *iolens_file_next(size_t *cursor);
/* The number of entries foreach visits, reserved ones included. */
size_t iolens_file_count(void);

/* Folding statistics.  Every operation of a layer on a path that got no
 * record of its own (open, stat, unlink, rename, ...) is noted here, with
 * opens 1 for an open (0 otherwise), and so is a file folded whole, with
 * the opens its record had counted (layers/park_pool.h).  The distinct count is a HyperLogLog estimate
 * (folded_files_error gives its relative standard error): the sketch has
 * 4096 one-byte registers, taken from the budget at start-up, or 1024 when
 * the budget is below IOLENS_SKETCH_LARGE_BUDGET. */
#define IOLENS_SKETCH_LARGE_BUDGET IOLENS_FOLDED_SKETCH_LARGE_BUDGET
void iolens_file_note_folded(uint64_t hash, size_t name_len, enum iolens_layer layer,
                             uint64_t opens);
uint64_t iolens_file_folded_opens(void);
uint64_t iolens_file_folded_files(void);
/* A forked child counts its own folding: the opens and the paths noted so
 * far are the parent's.  (The entries and the records the budget refused
 * stay: a file folded in the parent is folded in the child too.) */
void iolens_file_forget_folded(void);
/* Relative standard error of iolens_file_folded_files (1.04 / sqrt(m)). */
double iolens_file_folded_files_error(void);
/* Bytes the folded files would need to have entries and records of their
 * own (a demand function, budget.h; an upper estimate: the distinct count
 * plus three standard errors, each with a record in every layer that
 * folded anything). */
uint64_t iolens_file_folded_bytes(uint64_t budget);

/* For unit tests: replaces the path hash (before the reserved ids are
 * avoided) so that collisions can be forced; NULL restores xxHash. */
void iolens_file_table_set_hash_for_test(uint64_t (*fn)(const char *path, size_t len));

#endif
