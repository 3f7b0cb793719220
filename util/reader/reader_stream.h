/* The streaming log reader: a log validated as iolens_log_read validates
 * it, but never held whole in memory.  The file is read with pread region
 * by region; the small regions (job, mounts, ranks) are kept, and the
 * caller visits the layer regions one at a time, each decoded into one
 * struct iolens_log_layer that the next visit reuses.  Memory: the
 * largest region (a rank's part in an MPI log, bounded by the runtime's
 * IOLENS_MEMORY budget), plus 16 bytes per name of the log (the id index
 * that checks that no id is named twice and finds an id's names region),
 * plus the last names region decoded. */
#ifndef IOLENS_READER_STREAM_H
#define IOLENS_READER_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "reader/reader.h"

struct iolens_stream;

/* Called for every layer region during iolens_stream_open, in the order of
 * the region table, with the region's records alone (L is reused after the
 * call).  A non-zero return stops the open with IOLENS_READ_NOMEM. */
typedef int (*iolens_stream_layer_fn)(void *ctx, const struct iolens_log_layer *L);

/* Opens and validates a log: every check of iolens_log_read, with the
 * same one-line reason in err on error (*out is then NULL).  fn may be
 * NULL. */
enum iolens_read_status iolens_stream_open(const char *path, iolens_stream_layer_fn fn,
                                           void *ctx, struct iolens_stream **out, char *err,
                                           size_t errsz);
void iolens_stream_close(struct iolens_stream *s);

/* The job, mounts and ranks of the log, its version, flags and skipped
 * regions; no names, layers or intervals. */
const struct iolens_log *iolens_stream_log(const struct iolens_stream *s);

/* A Darshan log that arrived on a pipe has no regions to stream: the
 * open reads it whole, as iolens_log_read reads a file, and this gives it
 * (every record and interval); NULL for an iolens log, which is streamed.
 * The stream then has no layer kinds. */
const struct iolens_log *iolens_stream_whole_log(const struct iolens_stream *s);

/* The layer kinds of the log in the order they first appear (the order of
 * iolens_log's layers); returns their number. */
size_t iolens_stream_kinds(const struct iolens_stream *s, const uint32_t **kinds);

/* The next layer region of kind at or after region *pos (start with 0),
 * decoded into *L (valid until the next call); *L is NULL after the last.
 * An error (the file changed under the reader) is reported in
 * iolens_stream_error. */
enum iolens_read_status iolens_stream_next(struct iolens_stream *s, uint32_t kind, unsigned *pos,
                                           const struct iolens_log_layer **L);

/* Name of a record id, or NULL, as iolens_log_name_of; valid until the
 * next call.  May decode a names region: on a read error it returns NULL
 * and iolens_stream_error says why. */
const char *iolens_stream_name_of(struct iolens_stream *s, uint64_t id);

/* The reason of the first error after the open, or NULL. */
const char *iolens_stream_error(const struct iolens_stream *s);

#endif
