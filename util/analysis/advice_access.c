/* Advice rules on how the POSIX layer accessed the files: small,
 * misaligned and random accesses, and redundant reads (rules in
 * iolens-parser(1), ADVICE). */
#include "analysis/advice_rules.h"

#include <inttypes.h>

#include "analysis/patterns.h"
#include "format/sat_math.h"

static const int64_t size_bin_upper[IOLENS_NSIZE_BINS] = {
#define UPPER_(name, upper) (int64_t)(upper),
    IOLENS_SIZE_BINS(UPPER_)
#undef UPPER_
};

static double share(int64_t part, int64_t whole)
{
    return whole > 0 ? (double)part / (double)whole : 0.0;
}

static int64_t accesses_of(const struct iolens_log_layer *L, uint64_t r)
{
    return iolens_sat_add(iolens_log_counter(L, r, POSIX_READS), iolens_log_counter(L, r, POSIX_WRITES));
}

/* Reads and writes of the size bins whose upper bound is at most limit. */
static int64_t small_accesses_of(const struct iolens_log_layer *L, uint64_t r, int64_t limit)
{
    int64_t n = 0;
    for (int b = 0; b < IOLENS_NSIZE_BINS && size_bin_upper[b] <= limit; b++)
        n = iolens_sat_add(n, iolens_sat_add(iolens_log_counter(L, r, POSIX_SIZE_READ_0_100 + b),
                                             iolens_log_counter(L, r, POSIX_SIZE_WRITE_0_100 + b)));
    return n;
}

/* Totals of one per-record figure over the POSIX files, and the file with
 * the largest. */
struct tally {
    int64_t part, whole;
    uint64_t files;
    uint64_t top_rec;
    int64_t top_part;
};

static void tally_add(struct tally *t, uint64_t r, int64_t part, int64_t whole)
{
    t->part = iolens_sat_add(t->part, part);
    t->whole = iolens_sat_add(t->whole, whole);
    if (part > 0)
        t->files++;
    if (part > t->top_part) {
        t->top_part = part;
        t->top_rec = r;
    }
}

void advice_small_accesses(const struct iolens_log *log, const struct iolens_advice_thresholds *t,
                           struct advice_list *l)
{
    const struct iolens_log_layer *L = iolens_log_layer_of(log, IOLENS_REGION_POSIX);
    if (L == NULL)
        return;
    struct tally s = {0};
    for (uint64_t r = 0; r < L->record_count; r++)
        if (!advice_is_stream(L->id[r]))
            tally_add(&s, r, small_accesses_of(L, r, t->small_access_bytes), accesses_of(L, r));
    double sh = share(s.part, s.whole);
    if (s.whole < t->min_accesses || s.part == 0 || sh < t->small_access_share)
        return;
    struct iolens_finding *f = advice_add(l, "SMALL_ACCESSES", 75, sh, t->small_access_share);
    if (f == NULL)
        return;
    advice_evidence(f,
                    "%" PRId64 " of %" PRId64 " POSIX reads and writes (%.1f%%) were of at most "
                    "%" PRId64 " bytes, in %" PRIu64 " files; most in %s (%" PRId64
                    ", most common size %" PRId64 " bytes)",
                    s.part, s.whole, 100.0 * sh, t->small_access_bytes, s.files,
                    advice_name(log, L->id[s.top_rec]), s.top_part,
                    iolens_log_counter(L, s.top_rec, POSIX_ACCESS1_ACCESS));
    advice_site(f, log, L, s.top_rec, 1);
    advice_fix(f, "buffer the data in memory and read or write at least 1 MiB per call (a "
                  "multiple of the file system block size); with MPI use collective MPI-IO "
                  "(MPI_File_write_all) so that the small pieces are aggregated");
}

void advice_misaligned(const struct iolens_log *log, const struct iolens_advice_thresholds *t,
                       struct advice_list *l)
{
    const struct iolens_log_layer *L = iolens_log_layer_of(log, IOLENS_REGION_POSIX);
    if (L == NULL)
        return;
    struct tally s = {0};
    for (uint64_t r = 0; r < L->record_count; r++)
        if (!advice_is_stream(L->id[r]))
            tally_add(&s, r, iolens_log_counter(L, r, POSIX_FILE_NOT_ALIGNED), accesses_of(L, r));
    double sh = share(s.part, s.whole);
    if (s.whole < t->min_accesses || s.part == 0 || sh < t->misaligned_share)
        return;
    struct iolens_finding *f = advice_add(l, "MISALIGNED_ACCESSES", 30, sh, t->misaligned_share);
    if (f == NULL)
        return;
    int64_t align = iolens_log_counter(L, s.top_rec, POSIX_FILE_ALIGNMENT);
    advice_evidence(f,
                    "%" PRId64 " of %" PRId64 " POSIX reads and writes (%.1f%%) started at a file "
                    "offset that is not a multiple of the file alignment, in %" PRIu64
                    " files; most in %s (%" PRId64 ", alignment %" PRId64 " bytes)",
                    s.part, s.whole, 100.0 * sh, s.files, advice_name(log, L->id[s.top_rec]),
                    s.top_part, align);
    advice_site(f, log, L, s.top_rec, 1);
    advice_fix(f, "start every access at a multiple of %" PRId64 " bytes: pad headers and "
                  "records to the block (or stripe) size, or set the MPI-IO hint "
                  "striping_unit / the HDF5 alignment (H5Pset_alignment) to it",
               align > 0 ? align : 4096);
}

void advice_random(const struct iolens_log *log, const struct iolens_advice_thresholds *t,
                   struct advice_list *l)
{
    const struct iolens_log_layer *L = iolens_log_layer_of(log, IOLENS_REGION_POSIX);
    if (L == NULL)
        return;
    struct tally s = {0};
    for (uint64_t r = 0; r < L->record_count; r++) {
        if (advice_is_stream(L->id[r]))
            continue;
        struct iolens_pattern p;
        iolens_pattern_of_record(L, r, &p);
        int64_t n = accesses_of(L, r);
        tally_add(&s, r, p.kind == IOLENS_PATTERN_RANDOM ? n : 0, n);
    }
    double sh = share(s.part, s.whole);
    if (s.whole < t->min_accesses || s.part == 0 || sh < t->random_share)
        return;
    struct iolens_finding *f = advice_add(l, "RANDOM_ACCESS", 60, sh, t->random_share);
    if (f == NULL)
        return;
    advice_evidence(f,
                    "%" PRId64 " of %" PRId64 " POSIX reads and writes (%.1f%%) were in %" PRIu64
                    " files whose access pattern is random; most in %s (%" PRId64 " accesses)",
                    s.part, s.whole, 100.0 * sh, s.files, advice_name(log, L->id[s.top_rec]),
                    s.top_part);
    advice_site(f, log, L, s.top_rec, 1);
    advice_fix(f, "sort or batch the requests by offset, or read the needed region in large "
                  "sequential pieces into memory and pick the items there; with MPI, describe "
                  "the pieces in a file view and use collective MPI-IO");
}

void advice_redundant_reads(const struct iolens_log *log,
                            const struct iolens_advice_thresholds *t, struct advice_list *l)
{
    const struct iolens_log_layer *L = iolens_log_layer_of(log, IOLENS_REGION_POSIX);
    if (L == NULL)
        return;
    /* part: bytes read; whole: the extent read, highest byte read + 1 */
    struct tally s = {0};
    int64_t top_excess = 0;
    for (uint64_t r = 0; r < L->record_count; r++) {
        int64_t read = iolens_log_counter(L, r, POSIX_BYTES_READ);
        int64_t extent = iolens_sat_add(iolens_log_counter(L, r, POSIX_MAX_BYTE_READ), 1);
        if (advice_is_stream(L->id[r]) || read <= 0 || extent <= 0)
            continue;
        s.part = iolens_sat_add(s.part, read);
        s.whole = iolens_sat_add(s.whole, extent);
        if (read > extent) {
            s.files++;
            if (read - extent > top_excess) {
                top_excess = read - extent;
                s.top_rec = r;
            }
        }
    }
    double factor = s.whole > 0 ? (double)s.part / (double)s.whole : 0.0;
    if (s.part < t->min_bytes || s.files == 0 || factor < t->redundant_factor)
        return;
    struct iolens_finding *f = advice_add(l, "REDUNDANT_READS", 50, factor, t->redundant_factor);
    if (f == NULL)
        return;
    uint64_t r = s.top_rec;
    int64_t nranks = L->rank[r] == IOLENS_RANK_ALL ? iolens_log_counter(L, r, POSIX_RANKS_IO) : 1;
    advice_evidence(f,
                    "%" PRId64 " bytes read from files whose read extent is %" PRId64
                    " bytes (%.2f times), in %" PRIu64 " files; most in %s (%" PRId64
                    " bytes read of %" PRId64 ", by %" PRId64 " ranks)",
                    s.part, s.whole, factor, s.files, advice_name(log, L->id[r]),
                    iolens_log_counter(L, r, POSIX_BYTES_READ),
                    iolens_sat_add(iolens_log_counter(L, r, POSIX_MAX_BYTE_READ), 1), nranks);
    advice_site(f, log, L, r, 0);
    advice_fix(f, "read each byte once: keep the data in memory instead of reading it again, "
                  "and when several ranks need the same data read it on one rank and "
                  "MPI_Bcast it (or use collective MPI-IO reads)");
}
