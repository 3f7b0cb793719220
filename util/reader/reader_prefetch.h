/* Regions decoded ahead of the streaming reader (reader_stream.c) on a
 * second thread: while the reader checks one layer region and hands it
 * to its caller (or indexes the ids of one names region), the thread
 * reads the next one, checks its CRC, inflates it and parses it (a layer
 * region's records checked but, with defer_records, left to the caller
 * to decode).  Two slots taken strictly in
 * table order, so the caller sees the same regions, and the same first
 * error, as without it; at most two decoded layer regions are alive.
 * Not part of the reader's API. */
#ifndef IOLENS_READER_PREFETCH_H
#define IOLENS_READER_PREFETCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader/reader_internal.h"
#include "reader/reader_source.h"

struct rd_prefetch;

/* Starts decoding regions[0 .. n) (layer or names regions, in table
 * order) with readers like proto (size, error buffer size, names blocks,
 * which they only read, and names_ids_only).  defer_records: a layer
 * region is inflated and checked but its records are left for the caller
 * to decode (reader_internal.h: defer_records; rd_prefetch_reader).  NULL
 * when the thread cannot be made: the caller then decodes on its own. */
struct rd_prefetch *rd_prefetch_start(const struct rd_source *src, const unsigned *regions,
                                      size_t n, const struct reader *proto, bool defer_records);

/* Waits for the next region in the order given (which must be region)
 * and returns its status; on success *log is the scratch log it was
 * decoded into (its records are the layer of its kind),
 * valid until rd_prefetch_release.  On error the reason is written into r. */
enum iolens_read_status rd_prefetch_take(struct rd_prefetch *p, unsigned region,
                                         struct reader *r, const struct iolens_log **log);

/* The reader of the region last taken, until rd_prefetch_release: with
 * defer_records, its deferred records to decode with rd_decode_deferred
 * (into its scratch log). */
struct reader *rd_prefetch_reader(struct rd_prefetch *p);

/* Gives the slot of the region last taken back to the thread. */
void rd_prefetch_release(struct rd_prefetch *p);

/* Stops the thread (whatever it is doing) and frees everything. */
void rd_prefetch_stop(struct rd_prefetch *p);

#endif
