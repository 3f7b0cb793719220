/* What the runtime and the tools know about each layer's records, and how
 * records of the same file combine.  Everything is driven by the AGG column
 * of the counter tables in include/iolens/log_format.h, so the shared-file
 * reduction at MPI_Finalize and iolens-parser --total follow one set of
 * rules.  Pure functions: no I/O, no MPI, no allocation. */
#ifndef IOLENS_RECORD_MERGE_H
#define IOLENS_RECORD_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iolens/log_format.h"

/* Static description of a layer, generated from its row of IOLENS_LAYERS
 * (log_format.h).  All layers' on-disk records share one shape: uint64 id,
 * int64 rank, int64 counters[ncounters], double fcounters[nfcounters].
 *
 * The role fields say where the counters of a meaning are, so that no
 * tool looks a counter up by its name: counter indexes, fcounter indexes
 * for the f_ and _time ones, -1 where the layer has no such counter. */
struct iolens_layer_desc {
    uint32_t region_kind;        /* IOLENS_REGION_POSIX ... */
    uint32_t version;            /* IOLENS_POSIX_VERSION ... */
    const char *name;            /* "POSIX", "STDIO", "MPIIO", "H5F", "H5D" */
    uint32_t ncounters, nfcounters;
    const uint8_t *agg;          /* enum iolens_agg per counter */
    const uint8_t *fagg;         /* enum iolens_agg per fcounter */
    const char *const *counter_names;
    const char *const *fcounter_names;
    const char *const *counter_descs;
    const char *const *fcounter_descs;
    size_t record_size;          /* 16 + 8 * (ncounters + nfcounters) */
    bool carries_data;           /* reads and writes data: bytes, intervals, BPS */
    bool base;                   /* its bytes are the job's (POSIX, STDIO) */
    /* roles: counter indexes */
    int opens[2];                /* counters whose sum > 0 means "opened" */
    int bytes_read, bytes_written;
    int reads, writes;           /* MPI-IO: the independent forms */
    int read_ops[4], write_ops[4];   /* every form of read / write (MPI-IO: 4) */
    int max_byte_read, max_byte_written;
    int size_read_first, size_write_first;   /* first of IOLENS_NSIZE_BINS bins */
    int access_first;            /* <L>_ACCESS1_ACCESS: the access-size top table */
    int pattern_first;           /* <L>_PAT_STEPS: first pattern counter */
    int file_rec_id;             /* records are not files: the counter holding
                                    the record id of their file's record (H5D) */
    int slowest_read_size, slowest_write_size;   /* <L>_MAX_*_TIME_SIZE */
    int ranks_opened;            /* first of the 6 sharing counters */
    /* roles: fcounter indexes */
    int f_open_start, f_open_end, f_read_start, f_read_end;
    int f_write_start, f_write_end, f_close_start, f_close_end;
    int read_time, write_time, meta_time;
    int f_max_read_time, f_max_write_time;   /* followed by slowest_*_size */
    int f_fastest_rank_time;     /* first of the 4 sharing fcounters */
};

/* The known layers, in region-kind order; NULL/0 for an unknown kind. */
const struct iolens_layer_desc *iolens_layer_desc_by_kind(uint32_t kind);
/* Layer i (enum iolens_layer: the order of IOLENS_LAYERS), NULL past the
 * last. */
const struct iolens_layer_desc *iolens_layer_desc_at(unsigned i);
unsigned iolens_layer_desc_count(void);
/* The layer index of a descriptor (enum iolens_layer). */
unsigned iolens_layer_desc_index(const struct iolens_layer_desc *d);
/* The i-th layer that carries data, in table order (i < IOLENS_NDATA_LAYERS),
 * NULL past the last; and the data index of a region kind, -1 if it is not
 * a data layer's. */
const struct iolens_layer_desc *iolens_data_layer_at(unsigned i);
int iolens_data_layer_index(uint32_t kind);

/* A record seen through its descriptor. */
static inline int64_t *iolens_rec_counters(void *rec) { return (int64_t *)((char *)rec + 16); }
static inline double *iolens_rec_fcounters(const struct iolens_layer_desc *d, void *rec)
{
    return (double *)((char *)rec + 16 + 8 * (size_t)d->ncounters);
}

/* Facts about one record that the sharing statistics use. */
int iolens_record_opened(const struct iolens_layer_desc *d, const void *rec); /* opens > 0 */
/* Any read or write counted (MPI-IO: independent, collective, split or
 * nonblocking), even of 0 bytes. */
int iolens_record_did_io(const struct iolens_layer_desc *d, const void *rec);
/* Reads / writes of every form (MPI-IO: the four kinds added up). */
int64_t iolens_record_read_ops(const struct iolens_layer_desc *d, const void *rec);
int64_t iolens_record_write_ops(const struct iolens_layer_desc *d, const void *rec);
double iolens_record_io_time(const struct iolens_layer_desc *d, const void *rec); /* r+w+meta */
int64_t iolens_record_io_bytes(const struct iolens_layer_desc *d, const void *rec); /* r+w */

/* Pairings the merge follows: the TOP_COUNT counter of a TOP_VALUE counter
 * (the nth value of a group with the nth count), and the F_MAX_*_TIME
 * fcounter a SLOWEST_SIZE counter follows.  -1 if none. */
int iolens_record_top_pair(const struct iolens_layer_desc *d, int value_counter);
int iolens_record_slowest_time_index(const struct iolens_layer_desc *d, int size_counter);

/* A top-k table: k entries, each a value tuple and a count.  Entry j's
 * tuple is the width counters from value[j] (a TOP_VALUE counter, then
 * width - 1 TOP_SHAPE counters), its count the TOP_COUNT counter count[j].
 * Two layouts exist: k TOP_VALUE then k TOP_COUNT counters (width 1:
 * POSIX_ACCESSn), and k entries (TOP_VALUE, TOP_SHAPE..., TOP_COUNT) one
 * after another (H5D_ACCESSn). */
#define IOLENS_TOP_K_MAX 32
#define IOLENS_TOP_WIDTH_MAX 8
struct iolens_top_table {
    uint32_t k, width;
    uint32_t value[IOLENS_TOP_K_MAX], count[IOLENS_TOP_K_MAX];
    int32_t state;   /* the TOP_STATE counter just before the table, -1 if none */
};
/* The table whose first counter is i: fills *t and returns the index of
 * the counter after the table; 0 if no (well-formed) table starts at i. */
uint32_t iolens_record_top_table(const struct iolens_layer_desc *d, uint32_t i,
                                 struct iolens_top_table *t);

/* The state (IOLENS_TOP_*, log_format.h) of a table merged from two:
 * state_a and state_b are theirs, has_a and has_b whether they had any
 * entry, distinct the distinct tuples of the union and k the table's
 * entries.  Exact only while both listed every value they had: a value
 * one left out may be among the other's. */
int64_t iolens_top_state_merge(int64_t state_a, int has_a, int64_t state_b, int has_b,
                               size_t distinct, uint32_t k);

/* One entry; tuple slots beyond the width are 0. */
struct iolens_top_entry {
    int64_t value[IOLENS_TOP_WIDTH_MAX];
    int64_t count;
};
void iolens_top_entry_get(const struct iolens_top_table *t, uint32_t j, const int64_t *counters,
                          struct iolens_top_entry *e);
/* e NULL: an empty entry (all 0). */
void iolens_top_entry_put(const struct iolens_top_table *t, uint32_t j,
                          const struct iolens_top_entry *e, int64_t *counters);
/* qsort comparators: by tuple (lexicographic), and by rank (count
 * descending, then tuple descending). */
int iolens_top_entry_cmp_tuple(const void *a, const void *b);
int iolens_top_entry_cmp_rank(const void *a, const void *b);
/* Entries sorted by tuple: adds up the counts of equal tuples in place;
 * returns the number of distinct tuples. */
size_t iolens_top_entries_combine_sorted(struct iolens_top_entry *e, size_t n);

/* Merges src into acc by the AGG rules.  acc must first be a copy of the
 * first record (iolens_record_merge_begin), so SAME and MIN_NONZERO have a
 * starting point.  Top tables are merged as (tuple, count) entries, equal
 * tuples adding up, and re-ranked; SLOWEST_SIZE follows its F_MAX_*_TIME.  RANK_STAT
 * counters are left alone (see iolens_rank_stats). */
void iolens_record_merge_begin(const struct iolens_layer_desc *d, void *acc, const void *first);
void iolens_record_merge(const struct iolens_layer_desc *d, void *acc, const void *src);
/* The same but the top tables (ACCESSn, STRIDEn) of acc are left as they
 * are: for a caller that recomputes them from every record's entries
 * (iolens-parser --total). */
void iolens_record_merge_no_top(const struct iolens_layer_desc *d, void *acc, const void *src);
/* The same as iolens_record_merge_no_top of n records in turn, each
 * record given as a row: its counters at counters + i * cstride and its
 * fcounters at fcounters + i * fstride (strides in values, at least the
 * layer's counts; the id and rank, which the merge does not read, are not
 * needed).  For a decoded region's rows, merged a block of rows and a
 * counter at a time rather than a record at a time.  zero: NULL, or a
 * flag for each counter then each fcounter of the layer, 1 where every
 * one of the n rows holds 0 (+0.0 for an fcounter); such a counter is
 * merged as one 0, which every aggregation gives the same result for as
 * n of them (a sum adds nothing, the others take a repeated value once),
 * and its column is not read. */
void iolens_record_merge_rows_no_top(const struct iolens_layer_desc *d, void *acc,
                                     const int64_t *counters, size_t cstride,
                                     const double *fcounters, size_t fstride, size_t n,
                                     const unsigned char *zero);

/* Per-rank statistics of one shared file, fed one rank's record at a time
 * (in any order), then stored into the reduced record's RANK_STAT
 * counters.  Variances are population variances, computed with Welford's
 * method so large values do not lose precision. */
struct iolens_rank_stats {
    int64_t ranks_opened, ranks_io;
    int64_t n;
    double mean_time, m2_time, mean_bytes, m2_bytes;
    int64_t fastest_rank, fastest_bytes, slowest_rank, slowest_bytes;
    double fastest_time, slowest_time;
};
void iolens_rank_stats_init(struct iolens_rank_stats *s);
void iolens_rank_stats_add(struct iolens_rank_stats *s, const struct iolens_layer_desc *d,
                           int64_t rank, const void *rec);
/* The same for a record given by its counters and fcounters (a row of a
 * decoded layer with every counter of d), without copying it into a
 * record first. */
void iolens_rank_stats_add_row(struct iolens_rank_stats *s, const struct iolens_layer_desc *d,
                               int64_t rank, const int64_t *counters, const double *fcounters);
void iolens_rank_stats_store(const struct iolens_rank_stats *s, const struct iolens_layer_desc *d,
                             void *rec);

/* Multiplies every time of a record (all fcounters but the RANK_STAT
 * ones, which are computed later, in seconds) by factor: the runtime keeps
 * times in clock units and packs them in seconds (lib/core/clock.h). */
void iolens_record_scale_times(const struct iolens_layer_desc *d, void *rec, double factor);

/* Fills the RANK_STAT counters of a per-rank (unreduced) record with the
 * record's own values: as if reduced over one rank. */
void iolens_record_fill_own_sharing(const struct iolens_layer_desc *d, void *rec);

/* The fcounters a time fcounter f is stored from in a layer region
 * (IOLENS_COL_TICKS_FROM_REF, log_format.h), into refs[0..3): an end
 * timestamp from its start, any other timestamp from the first open
 * (fcounter 0), the slowest read or write's time from the read or write
 * time, the rank times from the read, write and meta times.  Each ref is
 * below f.  Returns how many (0: f has none). */
int iolens_fcounter_time_refs(const struct iolens_layer_desc *d, uint32_t f, int refs[3]);

#endif
