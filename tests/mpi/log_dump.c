/* Prints a log the way the MPI job tests need it: every value at full
 * precision (iolens-parser rounds times to microseconds, and a variance of
 * times in seconds squared is far below that), the job record's numbers
 * and strings, and the ranks region.  One fact a line, tab-separated:
 *
 *   job <field> <value>
 *   str <index> <string, NUL separators shown as '|'>
 *   rank <rank> <host index> <start> <end>
 *   rec <layer> <rank> <name> <counter> <value>
 *
 * Built by the test scripts against the build tree's reader library. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/record_merge.h"
#include "reader/reader.h"

static void print_job(const struct iolens_log *log)
{
    const struct iolens_job_fixed *j = &log->job;
    printf("job\tnprocs\t%" PRIu32 "\n", j->nprocs);
    printf("job\tnnodes\t%" PRIu32 "\n", j->nnodes);
    printf("job\tpid\t%" PRId64 "\n", j->pid);
    printf("job\tstart\t%" PRId64 ".%09" PRId64 "\n", j->start_time_sec, j->start_time_nsec);
    printf("job\tend\t%" PRId64 ".%09" PRId64 "\n", j->end_time_sec, j->end_time_nsec);
    printf("job\trun_time\t%.17g\n", j->run_time);
    printf("job\tflags\t%" PRIu64 "\n", log->flags);
    for (int i = 0; i < IOLENS_JOB_NSTRINGS; i++) {
        printf("str\t%d\t", i);
        for (size_t k = 0; k < log->jobstr_len[i]; k++)
            putchar(log->jobstr[i][k] == '\0' ? '|' : log->jobstr[i][k]);
        putchar('\n');
    }
    for (size_t r = 0; r < log->nranks; r++)
        printf("rank\t%zu\t%" PRIu32 "\t%.17g\t%.17g\n", r, log->ranks[r].host_index,
               log->ranks[r].start_time, log->ranks[r].end_time);
}

static void print_layer(const struct iolens_log *log, const struct iolens_log_layer *L)
{
    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(L->kind);
    if (d == NULL)
        return;
    for (uint64_t r = 0; r < L->record_count; r++) {
        const char *name = iolens_log_name_of(log, L->id[r]);
        for (uint32_t i = 0; i < L->counter_count; i++) {
            const char *c = i < d->ncounters ? d->counter_names[i] : NULL;
            if (c != NULL)
                printf("rec\t%s\t%" PRId64 "\t%s\t%s\t%" PRId64 "\n", d->name, L->rank[r],
                       name ? name : "?", c, L->counters[r * L->counter_count + i]);
        }
        for (uint32_t i = 0; i < L->fcounter_count; i++) {
            const char *c = i < d->nfcounters ? d->fcounter_names[i] : NULL;
            if (c != NULL)
                printf("rec\t%s\t%" PRId64 "\t%s\t%s\t%.17g\n", d->name, L->rank[r],
                       name ? name : "?", c, L->fcounters[r * L->fcounter_count + i]);
        }
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: log_dump LOG\n");
        return 1;
    }
    struct iolens_log log;
    char err[512];
    if (iolens_log_read(argv[1], &log, err, sizeof err) != IOLENS_READ_OK) {
        fprintf(stderr, "log_dump: %s: %s\n", argv[1], err);
        return 2;
    }
    print_job(&log);
    for (size_t i = 0; i < log.nlayers; i++)
        print_layer(&log, &log.layers[i]);
    iolens_log_free(&log);
    return 0;
}
