/* Clock and the pio-bench timing model: per rank S (end of the opening
 * barrier to the first access), T (first access to the end of the last)
 * and B (end of the last access to the end of the closing barrier); per
 * iteration the phase's T over all ranks (first access of any rank to the
 * end of the last access of any rank).  The ranks' clocks are taken to be
 * one clock (CLOCK_MONOTONIC of one node; on several nodes that figure
 * assumes synchronised clocks, like MPI_WTIME_IS_GLOBAL). */
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "pio_perf.h"

double pio_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void pio_stats_init(struct pio_stats *s)
{
    *s = (struct pio_stats){.min = INFINITY, .open_min = INFINITY, .close_min = INFINITY};
}

static void add_rank(struct pio_stats *s, const struct pio_rank_times *t)
{
    double T = t->last - t->first;
    s->min = fmin(s->min, T);
    s->max = fmax(s->max, T);
    s->sum += T;
    s->open_min = fmin(s->open_min, t->open);
    s->open_max = fmax(s->open_max, t->open);
    s->open_sum += t->open;
    s->close_min = fmin(s->close_min, t->close);
    s->close_max = fmax(s->close_max, t->close);
    s->close_sum += t->close;
    s->s_sum += t->first - t->barrier_end;
    s->t_sum += T;
    s->b_sum += t->closing_end - t->last;
    s->samples++;
}

void pio_stats_add(struct pio_stats *s, const struct pio_rank_times *t, MPI_Comm comm,
                   struct pio_rank_times *all)
{
    int rank, n;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n);
    MPI_Gather(t, (int)sizeof *t, MPI_BYTE, all, (int)sizeof *t, MPI_BYTE, 0, comm);
    if (rank != 0)
        return;
    double first = INFINITY, last = -INFINITY, stb = 0;
    for (int r = 0; r < n; r++) {
        add_rank(s, &all[r]);
        first = fmin(first, all[r].first);
        last = fmax(last, all[r].last);
        stb = fmax(stb, all[r].closing_end - all[r].barrier_end);
    }
    s->t_all_sum += last - first;
    s->stb_max_sum += stb;
    s->iterations++;
}
