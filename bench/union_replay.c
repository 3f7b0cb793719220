/* The BPS union of a log's intervals as a smaller budget would have
 * reported it: how far compaction moves the estimate; a figure, not a test.
 *
 *   union_replay LOG INTERVALS_PER_STORE
 *
 * LOG must come from a run whose stores never compacted (error bound 0,
 * e.g. IOLENS_MEMORY=1G): its POSIX intervals are then the accesses
 * themselves, and their union is the exact figure.  Each rank's are added
 * again, in order of their end (the order the runtime adds them in), to
 * an interval store (lib/layers/interval_store.c) of INTERVALS_PER_STORE entries
 * (IOLENS_MEMORY / 4 / 3 layers / 48 bytes: 455 for 256K), and the union
 * is estimated from what that store keeps (analysis/interval_bounds.c), as
 * iolens-parser --bps would.  Ranks are taken as on one node (no clock
 * offsets), as the parser does for ranks sharing a host.  Prints the exact
 * union, the estimate, its bounds and the estimate's error. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/interval_bounds.h"
#include "layers/interval_store.h"
#include "reader/reader.h"

static int by_end(const void *a, const void *b)
{
    const struct iolens_interval *x = a, *y = b;
    return (x->end > y->end) - (x->end < y->end);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: union_replay LOG INTERVALS_PER_STORE\n");
        return 2;
    }
    struct iolens_log log;
    char err[256];
    if (iolens_log_read(argv[1], &log, err, sizeof err) != IOLENS_READ_OK) {
        fprintf(stderr, "union_replay: %s\n", err);
        return 1;
    }
    size_t cap = strtoul(argv[2], NULL, 10), n = 0, total = 0, nsets = log.ninterval_sets;
    for (size_t i = 0; i < nsets; i++)
        total += log.intervals[i].kind == IOLENS_REGION_POSIX ? log.intervals[i].count : 0;
    struct iolens_union_item *exact = malloc((total + 1) * sizeof *exact);
    struct iolens_union_item *kept = malloc((cap * nsets + 1) * sizeof *kept);
    struct iolens_union_group *g = calloc(nsets + 1, sizeof *g);
    struct iolens_interval *mem = malloc((cap + 1) * sizeof *mem);
    struct iolens_interval *order = malloc((total + 1) * sizeof *order);
    if (!exact || !kept || !g || !mem || !order)
        return 1;
    size_t nkept = 0;
    double error_bound = 0;
    for (size_t i = 0; i < nsets; i++) {
        const struct iolens_log_intervals *s = &log.intervals[i];
        if (s->kind != IOLENS_REGION_POSIX)
            continue;
        if (s->error_bound > 0)
            fprintf(stderr, "union_replay: rank %lld compacted: not exact\n", (long long)s->rank);
        for (uint64_t j = 0; j < s->count; j++) {
            exact[n++] = (struct iolens_union_item){s->start[j], s->end[j], s->busy[j], 0};
            order[j] = (struct iolens_interval){s->start[j], s->end[j], s->file_id[j],
                                                s->bytes[j], 1, s->flags[j], s->busy[j]};
        }
        qsort(order, s->count, sizeof *order, by_end);
        struct iolens_interval_store st;
        iolens_interval_store_init(&st, mem, cap * sizeof *mem);
        for (uint64_t j = 0; j < s->count; j++)
            iolens_interval_add(&st, order[j].start, order[j].end, order[j].file_id,
                                order[j].bytes, order[j].flags);
        g[i] = (struct iolens_union_group){st.overlap == 0, st.sum_duration - st.overlap};
        error_bound += st.error_bound;
        for (size_t k = 0; k < st.count; k++)
            kept[nkept++] = (struct iolens_union_item){st.iv[k].start, st.iv[k].end,
                                                       st.iv[k].busy, i};
    }
    struct iolens_union_group one = {0, 0};
    struct iolens_union_bounds truth, b;
    if (iolens_union_bounds(exact, n, &one, 1, 0, &truth) != 0 ||
        iolens_union_bounds(kept, nkept, g, nsets, error_bound, &b) != 0)
        return 1;
    printf("exact union %.6f s (%zu intervals); with %zu per store: %.6f s in [%.6f, %.6f] "
           "(%zu intervals kept, error bound %.6f s), error %+.2f%%, spans %.6f s\n",
           truth.spans, n, cap, b.estimate, b.lower, b.upper, nkept, error_bound,
           100 * (b.estimate - truth.spans) / truth.spans, b.spans);
    iolens_log_free(&log);
    return 0;
}
